#include "output/format.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include <nlohmann/json.hpp>

#include "solver/solver.hpp"

namespace polycube {

namespace {

using nlohmann::json;

// Names come from user files: never let invalid UTF-8 make the JSON writer fail.
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::vector<std::string> instanceNames(const PuzzleDef& def) {
    std::vector<std::string> names;
    for (const PieceInstanceRef& r : expandInstances(def)) names.push_back(def.pieces[r.defIndex].name);
    return names;
}

json perLevel(const std::vector<long long>& v) {
    json a = json::array();
    for (size_t i = 1; i < v.size(); ++i) a.push_back(v[i]);
    return a;
}

}  // namespace

std::string formatSolution(const PuzzleDef& def, const std::vector<int>& grid, long long number) {
    const std::vector<std::string> names = instanceNames(def);
    size_t width = 1;
    for (const auto& n : names) width = std::max(width, n.size());
    std::ostringstream os;
    os << "\n# --- SOLUTION " << number << " ---\n";
    for (int y = def.yDim - 1; y >= 0; --y) {
        std::string line;
        for (int z = 0; z < def.zDim; ++z) {
            if (z) line += "   ";
            for (int x = 0; x < def.xDim; ++x) {
                int inst = grid[x + def.xDim * (y + def.yDim * z)];
                std::string name = inst >= 0 ? names[inst] : ".";
                if (x) line += ' ';
                line += name;
                if (x + 1 < def.xDim) line += std::string(width - name.size(), ' ');
            }
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        os << line << '\n';
    }
    return os.str();
}

std::string formatInfo(const Solver& s) {
    const Model& m = s.model();
    std::ostringstream os;
    os << "\n# Puzzle size:\nDIMENSION=" << m.xDim << "x" << m.yDim << "x" << m.zDim << "\n";
    os << "\n# Cells to fill:\nVOLUME=" << m.openCellCount() << "\n";
    os << "\n# Shape list (copies of one shape are interchangeable):\n";
    for (int i = 0; i < m.shapeCount(); ++i) {
        const Shape& sh = m.shapes[i];
        os << "SHAPE[" << i << "]=" << sh.name << ":copies=" << sh.count << ":size=" << sh.size
           << ":orientations=" << sh.orientations.size() << ":parity=" << sh.parityMagnitude
           << ":images=" << (m.shapeImageBegin[i + 1] - m.shapeImageBegin[i]) << "\n";
    }
    os << "\n# One sided polyomino constraint:\nONE_SIDE=" << (m.oneSide ? "ON" : "OFF") << "\n";
    os << "\n# Symmetries of the puzzle (rotations" << (s.options().mirror ? " and reflections" : "")
       << " mapping it onto itself):\nSYMMETRIES=" << (s.symmetryCount() ? std::to_string(s.symmetryCount()) : "not computed") << "\n";
    os << "\n# Redundancy filter piece:\nREDUNDANCY_FILTER=" << s.redundancyDescription() << "\n";
    os << "\n# Piece rotations and translations that fit in the solution space:\nBOUNDED=" << m.images.size() << "\n";
    os << "\n# Images in the search after image filters:\nIMAGES=" << s.enabledImageCount() << "\n";
    os << "\n# Search configuration:\nCONFIGURATION=" << s.configurationDescription() << "\n";
    os << "\n# Cell weightings checked for an impossibility proof (colourings, corners, neighbours):\nWEIGHTINGS="
       << s.weightingsTried() << " in " << std::fixed << std::setprecision(2) << s.weightingSeconds() * 1000 << " ms\n";
    if (!s.impossibleReason().empty()) os << "\n# Proved impossible before the search:\nIMPOSSIBLE=" << s.impossibleReason() << "\n";
    return os.str();
}

std::string formatTraceEvent(const Solver& solver, const TraceEvent& e) {
    const Model& m = solver.model();
    const PuzzleDef& def = solver.definition();
    auto instanceName = [&](int instance) {
        return instance >= 0 && instance < static_cast<int>(m.instances.size()) ? m.instances[instance].name
                                                                                : "#" + std::to_string(instance);
    };
    auto cellName = [&](int box) {
        if (box < 0 || box >= m.boxCellCount()) return std::string("cell ?");
        const int x = box % def.xDim, y = box / def.xDim % def.yDim, z = box / (def.xDim * def.yDim);
        return "cell " + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z);
    };
    auto targetName = [&](int target) {
        return target >= 0 ? cellName(target) : "piece " + instanceName(-1 - target);
    };
    const std::string left = " with " + std::to_string(e.remaining) + " pieces left";
    const std::string deadEnd = "dead end" + left + ": ";
    switch (e.op) {
        case trace::kPlace: return "place" + left;
        case trace::kRemove: return "remove" + left;
        case trace::kChoose:
            return "choose " + targetName(e.a) + left + ": " + std::to_string(e.b) + (e.b == 1 ? " candidate" : " candidates");
        case trace::kCandidate: return "candidate " + instanceName(e.a) + " image " + std::to_string(e.b) + left;
        case trace::kSolution:
            return e.a > 0 ? "solution " + std::to_string(e.a)
                           : "solution dropped as redundant (assembly " + std::to_string(e.b) + ")";
        case trace::kNoFit: return deadEnd + "no image fits " + targetName(e.a);
        case trace::kExhausted:
            return deadEnd + "all " + std::to_string(e.b) + " candidates at " + targetName(e.a) + " tried";
        case trace::kParityTrigger: return deadEnd + "parity trigger (holes' parity " + std::to_string(e.a) + ")";
        case trace::kVolumeTrigger:
            return deadEnd + "volume trigger, region of " + std::to_string(e.b) + " cells at " + cellName(e.a);
        case trace::kDeadCell: return deadEnd + "dead-cell cut, hole at " + cellName(e.a);
        case trace::kFilterEmptied: {
            const char* filter = e.b == trace::kParityFilter ? "parity" : e.b == trace::kVolumeFilter ? "volume" : "fit";
            return deadEnd + std::string(filter) + " filter emptied the list of " + targetName(e.a);
        }
        default: break;
    }
    return "event " + std::to_string(e.op) + left;
}

std::string formatStatistics(const Solver& s) { return formatStatistics(s, s.stats()); }

std::string formatStatistics(const Solver& s, const SolverStats& st) {
    const int pieces = s.pieceCount();
    const double secs = st.searchSeconds + st.setupSeconds;
    std::ostringstream os;
    os << "\n# Number of solutions found:\nSOLUTIONS=" << st.solutions << "\n";
    os << "\n# Number of solutions found per second:\nSOLUTIONS_PER_SEC=";
    if (secs > 0) os << std::setprecision(9) << st.solutions / secs;
    else os << "*";
    os << "\n";
    os << "\n# Complete assemblies reached by the search:\nFOUND=" << st.found << "\n";
    os << "\n# Assemblies filtered out as rotations (or mirror images) of others:\nREDUNDANT=" << st.redundant << "\n";
    if (!s.rootDescription().empty()) os << "\n# The search's first branch:\nROOT=" << s.rootDescription() << "\n";
    if (s.options().monteCarlo.trials > 0)
        os << "\n# Number of Monte-Carlo trials completed:\nMONTE_CARLO_TRIAL=" << st.monteCarloTrials << "\n";
    auto total = [](const std::vector<long long>& v) { long long t = 0; for (long long x : v) t += x; return t; };
    // A search cancelled in its setup has the piece count before its per-level counters are
    // sized (SIGTERM at the wrong moment read past them: a crash instead of the statistics).
    auto at = [](const std::vector<long long>& v, int n) { return n < static_cast<int>(v.size()) ? v[n] : 0LL; };
    os << "\n# Number of backtracks due to parity constraint:\nPARITY_BACKTRACK_TOTAL=" << total(st.parityBacktracks) << "\n";
    os << "\n# Number of backtracks due to volume constraint:\nVOLUME_BACKTRACK_TOTAL=" << total(st.volumeBacktracks) << "\n";
    os << "\n# Number of rows filtered due to fit constraint:\nFIT_FILTER_TOTAL=" << total(st.fitFiltered) << "\n";
    os << "\n# Number of rows filtered due to parity constraint:\nPARITY_FILTER_TOTAL=" << total(st.parityFiltered) << "\n";
    os << "\n# Number of rows filtered due to volume constraint:\nVOLUME_FILTER_TOTAL=" << total(st.volumeFiltered) << "\n";
    os << "\n# Number of times pieces were attempted to be placed:\nATTEMPTS_TOTAL=" << st.totalAttempts() << "\n";
    os << "\n# Number of times pieces fit:\nFITS_TOTAL=" << st.totalFits() << "\n";
    os << "\n# Number of placement attempts when N pieces were left to be placed:\n";
    for (int n = 1; n <= pieces; ++n) os << "ATTEMPTS[" << std::setw(2) << n << "]=" << std::setw(14) << at(st.attempts, n) << "\n";
    os << "\n# Number of fits when N pieces were left to be placed:\n";
    for (int n = 1; n <= pieces; ++n) os << "FITS[" << std::setw(2) << n << "]=    " << std::setw(14) << at(st.fits, n) << "\n";
    auto perLevelBlock = [&](const char* comment, const char* key, const std::vector<long long>& v) {
        if (total(v) == 0) return;
        os << "\n# " << comment << " when N pieces were left to be placed:\n";
        for (int n = 1; n <= pieces; ++n) os << key << "[" << std::setw(2) << n << "]=" << std::setw(14) << at(v, n) << "\n";
    };
    perLevelBlock("Number of backtracks due to parity constraint", "PARITY_BACKTRACK", st.parityBacktracks);
    perLevelBlock("Number of backtracks due to volume constraint", "VOLUME_BACKTRACK", st.volumeBacktracks);
    perLevelBlock("Number of filters due to parity constraint", "PARITY_FILTER", st.parityFiltered);
    perLevelBlock("Number of filters due to fit constraint", "FIT_FILTER", st.fitFiltered);
    perLevelBlock("Number of filters due to volume constraint", "VOLUME_FILTER", st.volumeFiltered);
    os << "\n# Seconds: setup and search:\nSETUP_SECONDS=" << st.setupSeconds << "\nSEARCH_SECONDS=" << st.searchSeconds << "\n";
    return os.str();
}

namespace {

// Counts and configuration common to the CLI summary and the Session's live statistics.
json searchJson(const Solver& s, const SolverStats& st, const std::string& stateName) {
    json j;
    j["state"] = stateName;
    j["solutions"] = st.solutions;
    j["found"] = st.found;
    j["redundant"] = st.redundant;
    j["fits"] = st.totalFits();
    j["searchSeconds"] = st.searchSeconds;
    j["setupSeconds"] = st.setupSeconds;
    j["redundancyFilter"] = s.redundancyDescription();
    j["configuration"] = s.configurationDescription();
    if (!s.rootDescription().empty()) j["root"] = s.rootDescription();
    if (const MemoForecast* f = s.countingForecast()) {
        // The choice of a -q count (memo_choice.hpp), or for the Session's listing, what a count
        // alone would choose: the numbers weighed, for a front end to say them in its words.
        j["counting"] = f->reason;
        j["countingForecast"] = {{"memoize", f->memoize},
                                 {"subproblemBound", f->subproblemBound},
                                 {"enumeratingEstimate", f->enumeratingCost >= 0 ? json(f->enumeratingCost) : json(nullptr)}};
    }
    if (!s.impossibleReason().empty()) {
        j["impossible"] = s.impossibleReason();
        j["impossibleBy"] = s.impossibleKind();
        if (!s.impossibleCells().empty()) {
            json cells = json::array();
            for (const Vec3& p : s.impossibleCells()) cells.push_back({p.x, p.y, p.z});
            j["impossibleCells"] = std::move(cells);
        }
    }
    // Setup (model, tables, matrix) runs in slices too: a search cancelled or failed there
    // says so.
    j["phase"] = s.ready() ? "search" : "setup";
    if (st.filaRefused > 0) j["filaRefused"] = st.filaRefused;
    return j;
}

}  // namespace

std::string summaryJson(const Solver& s, const std::string& file, int index, const std::string& stateName) {
    return summaryJson(s, s.stats(), file, index, stateName);
}

std::string summaryJson(const Solver& s, const SolverStats& st, const std::string& file, int index,
                        const std::string& stateName, int threads, double idleSeconds, double cpuSeconds) {
    const PuzzleDef& def = s.definition();
    json j = searchJson(s, st, stateName);
    j["puzzle"] = def.title.empty() ? file + "#" + std::to_string(index + 1) : def.title;
    j["file"] = file;
    j["index"] = index;
    j["title"] = def.title;
    j["placements"] = st.totalAttempts();
    j["seconds"] = st.searchSeconds + st.setupSeconds;
    if (threads > 1) {
        j["threads"] = threads;
        j["idleSeconds"] = idleSeconds;
    }
    if (cpuSeconds >= 0) j["cpuSeconds"] = cpuSeconds;
    return dump(j);
}

std::string statsJson(const Solver& s, const std::string& stateName) { return statsJson(s, s.stats(), stateName); }

std::string statsJson(const Solver& s, const SolverStats& st, const std::string& stateName) {
    json j = searchJson(s, st, stateName);
    j["attempts"] = st.totalAttempts();
    j["seconds"] = st.searchSeconds;
    j["fractionDone"] = s.fractionDone();  // the weighted backtrack estimate (Solver::fractionDone)
    j["attemptsByRemaining"] = perLevel(st.attempts);
    j["fitsByRemaining"] = perLevel(st.fits);
    j["monteCarloTrials"] = st.monteCarloTrials;
    j["parityBacktracks"] = perLevel(st.parityBacktracks);
    j["volumeBacktracks"] = perLevel(st.volumeBacktracks);
    j["parityFiltered"] = perLevel(st.parityFiltered);
    j["volumeFiltered"] = perLevel(st.volumeFiltered);
    j["fitFiltered"] = perLevel(st.fitFiltered);
    return dump(j);
}

std::string puzzleJson(const PuzzleDef& def) {
    json j;
    j["title"] = def.title;
    j["source"] = def.source;
    j["line"] = def.line;
    j["xDim"] = def.xDim;
    j["yDim"] = def.yDim;
    j["zDim"] = def.zDim;
    j["oneSide"] = def.oneSide;
    j["volume"] = def.boxVolume();
    json pieces = json::array();
    for (const PieceDef& p : def.pieces) {
        json cells = json::array();
        for (const Vec3& c : p.cells) cells.push_back({c.x, c.y, c.z});
        pieces.push_back({{"name", p.name}, {"stationary", p.stationary}, {"count", p.count}, {"cells", cells}});
    }
    j["pieces"] = pieces;
    json instances = json::array();
    for (const PieceInstanceRef& r : expandInstances(def)) {
        const PieceDef& p = def.pieces[r.defIndex];
        instances.push_back({{"name", p.name}, {"piece", r.defIndex}, {"stationary", p.stationary}});
    }
    j["instances"] = instances;
    return dump(j);
}

}  // namespace polycube
