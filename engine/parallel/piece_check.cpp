#include "parallel/piece_check.hpp"

#include <cmath>
#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <vector>

#include "parallel/checkpoint.hpp"
#include "parallel/subproblem.hpp"
#include "solver/solver.hpp"

namespace polycube {

namespace {

using json = nlohmann::json;

// The page's per-level statistics, in SolverStats::forEachLevelCounter's order.
const char* const kLevelKeys[] = {"attemptsByRemaining", "fitsByRemaining", "parityBacktracks", "volumeBacktracks",
                                  "parityFiltered",      "volumeFiltered",  "fitFiltered"};
// What the page writes is four levels deep ({"pending": [{"path": [...]}]}): deeper text is
// refused before parsing, so that no nesting, however deep, costs more than a scan.
constexpr int kMaxDepth = 8;

bool tooDeep(const std::string& text) {
    int depth = 0;
    bool quoted = false, escaped = false;
    for (char c : text) {
        if (quoted) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') quoted = false;
        } else if (c == '"') {
            quoted = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxDepth) return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

// A count: a whole number from 0 to kMaxCheckpointCount (JSON integers; a number written with
// a fraction or an exponent is not one). nlohmann's accessors throw on a wrong type, and the
// WebAssembly build has no exceptions: every type is checked before it is read.
bool readCount(const json& v, long long& out) {
    if (v.is_number_unsigned()) {
        const auto u = v.get<unsigned long long>();
        if (u > static_cast<unsigned long long>(kMaxCheckpointCount)) return false;
        out = static_cast<long long>(u);
        return true;
    }
    if (v.is_number_integer()) {
        out = v.get<long long>();
        return out >= 0 && out <= kMaxCheckpointCount;
    }
    if (v.is_number_float()) {  // (the page's numbers: 1e21 and more are written with an exponent)
        const double d = v.get<double>();
        if (!(d >= 0 && d <= static_cast<double>(kMaxCheckpointCount)) || std::floor(d) != d) return false;
        out = static_cast<long long>(d);
        return true;
    }
    return false;
}

bool readShare(const json& v, double& out) {
    if (!v.is_number()) return false;
    out = v.get<double>();
    return std::isfinite(out);
}

// The command line's messages name lines of its checkpoint file ("source:12: ...", "piece 1
// (line 10)"): the page's checkpoint has none.
std::string withoutLines(const std::string& message, const std::string& source) {
    std::string m = message;
    auto digitsAt = [&](size_t at) {
        size_t end = at;
        while (end < m.size() && std::isdigit(static_cast<unsigned char>(m[end]))) ++end;
        return end;
    };
    if (m.compare(0, source.size() + 1, source + ":") == 0) {
        const size_t end = digitsAt(source.size() + 1);
        if (end > source.size() + 1 && end < m.size() && m[end] == ':') m.erase(source.size(), end - source.size());
    }
    for (size_t at = m.find(" (line "); at != std::string::npos; at = m.find(" (line ", at)) {
        const size_t end = digitsAt(at + 7);
        if (end > at + 7 && end < m.size() && m[end] == ')') m.erase(at, end + 1 - at);
        else ++at;
    }
    return m;
}

}  // namespace

Result<Checkpoint> pieceBookCheckpoint(const std::string& text, const std::string& source) {
    auto bad = [&](const std::string& what) { return Result<Checkpoint>::error(source + ": " + what); };
    if (tooDeep(text)) return bad("not a checkpoint (nested more than " + std::to_string(kMaxDepth) + " levels)");
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return bad("not a checkpoint (not a JSON object)");
    auto field = [&](const char* key) -> const json* {
        auto it = j.find(key);
        return it == j.end() ? nullptr : &*it;
    };

    Checkpoint ck;
    const json* fp = field("fingerprint");
    if (!fp || !fp->is_string()) return bad("the fingerprint is missing");
    ck.fingerprint = fp->get<std::string>();
    const json* done = field("doneShare");
    if (!done || !readShare(*done, ck.doneShare)) return bad("the share done is missing or not a number");

    const json* stats = field("stats");
    if (stats && !stats->is_object()) return bad("the statistics are not an object");
    const json noStats = json::object();
    const json& st = stats ? *stats : noStats;
    auto counter = [&](const char* key, long long& out) {
        auto it = st.find(key);
        if (it == st.end()) return true;  // not counted yet
        return readCount(*it, out);
    };
    SolverStats& f = ck.finished;
    for (auto [key, out] : {std::pair<const char*, long long*>{"solutions", &f.solutions}, {"found", &f.found}, {"redundant", &f.redundant}})
        if (!counter(key, *out)) return bad(std::string("statistics: ") + key + " is not a whole number from 0 to " + std::to_string(kMaxCheckpointCount));
    {
        int k = 0;
        bool ok = true;
        std::string which;
        SolverStats::forEachLevelCounter(f, f, [&](std::vector<long long>& levels, std::vector<long long>&) {
            const char* key = kLevelKeys[k++];
            auto it = st.find(key);
            if (!ok || it == st.end()) return;
            if (!it->is_array() || it->size() > 100000) {
                ok = false, which = std::string(key) + " is not a list of counts";
                return;
            }
            // index 0 (no piece left) counts nothing: statsJson leaves it out
            if (!it->empty()) levels.assign(1, 0);
            for (const json& v : *it) {
                long long n = 0;
                if (!readCount(v, n)) {
                    ok = false, which = std::string(key) + ": a count is not a whole number from 0 to " + std::to_string(kMaxCheckpointCount);
                    return;
                }
                levels.push_back(n);
            }
        });
        if (!ok) return bad("statistics: " + which);
    }
    // The totals shown beside the levels are their sums.
    for (auto [key, levels] : {std::pair<const char*, const std::vector<long long>*>{"attempts", &f.attempts}, {"fits", &f.fits}}) {
        long long total = 0, sum = 0;
        if (!counter(key, total)) return bad(std::string("statistics: ") + key + " is not a whole number from 0 to " + std::to_string(kMaxCheckpointCount));
        for (long long v : *levels) {
            if (v > kMaxCheckpointCount - sum) return bad(std::string("statistics: ") + key + " add up to more than " + std::to_string(kMaxCheckpointCount));
            sum += v;
        }
        if (st.contains(key) && total != sum)
            return bad(std::string("statistics: ") + key + " " + std::to_string(total) + " is not the sum of its levels (" + std::to_string(sum) + ")");
    }
    long long solutions = 0;
    const json* sol = field("solutions");
    if (!sol || !readCount(*sol, solutions)) return bad("the solution count is not a whole number from 0 to " + std::to_string(kMaxCheckpointCount));
    if (solutions != f.solutions)
        return bad("its solution count (" + std::to_string(solutions) + ") is not its statistics' (" + std::to_string(f.solutions) + ")");

    const json* pending = field("pending");
    if (!pending || !pending->is_array()) return bad("the list of pieces to search is missing");
    for (size_t k = 0; k < pending->size(); ++k) {
        const json& p = (*pending)[k];
        const std::string piece = "piece " + std::to_string(k + 1);
        if (!p.is_object() || !p.contains("path") || !p["path"].is_array() || !p.contains("share")) return bad(piece + " is not {path, share}");
        CheckpointPiece out;
        if (!readShare(p["share"], out.share)) return bad(piece + ": its share is not a number");
        for (const json& v : p["path"]) {
            long long image = 0;
            if (!readCount(v, image) || image > 0x7fffffff) return bad(piece + ": a path entry is not an image id");
            out.path.push_back(static_cast<int>(image));
        }
        ck.pending.push_back(std::move(out));
    }
    // The command line's checks, by its own code: the text form loses nothing (checkpoint_test).
    Result<Checkpoint> back = readCheckpoint(encodeCheckpoint(ck), source);
    if (!back.ok()) return Result<Checkpoint>::error(withoutLines(back.status.message, source));
    return back;
}

std::string pieceBookJson(const Checkpoint& ck) {
    json stats = json::object();
    const SolverStats& f = ck.finished;
    stats["solutions"] = f.solutions;
    stats["found"] = f.found;
    stats["redundant"] = f.redundant;
    stats["attempts"] = f.totalAttempts();
    stats["fits"] = f.totalFits();
    SolverStats copy = f;
    int k = 0;
    SolverStats::forEachLevelCounter(copy, copy, [&](std::vector<long long>& levels, std::vector<long long>&) {
        json list = json::array();  // from one piece left, as statsJson writes them
        for (size_t r = 1; r < levels.size(); ++r) list.push_back(levels[r]);
        stats[kLevelKeys[k++]] = std::move(list);
    });
    json pending = json::array();
    for (const CheckpointPiece& p : ck.pending) pending.push_back({{"path", p.path}, {"share", p.share}});
    const json j = {{"fingerprint", ck.fingerprint}, {"doneShare", ck.doneShare}, {"solutions", f.solutions},
                    {"stats", std::move(stats)}, {"pending", std::move(pending)}};
    return j.dump();
}

Status checkPieceBookJson(const std::string& text, const Solver& solver, const std::string& source, bool* otherSearch) {
    auto bad = [&](const std::string& what) { return Status::error(source + ": " + what); };
    if (otherSearch) *otherSearch = false;
    Result<Checkpoint> parsed = pieceBookCheckpoint(text, source);
    if (!parsed.ok()) return parsed.status;
    Checkpoint& ck = parsed.value;
    if (ck.fingerprint != searchFingerprint(solver)) {
        if (otherSearch) *otherSearch = true;
        return bad("a checkpoint of another search: its fingerprint " + ck.fingerprint + " is not this search's " + searchFingerprint(solver) +
                   " (another puzzle, other options, or another build of polycube)");
    }
    if (Status s = checkResume(ck, solver, true); !s.ok) return Status::error(withoutLines(s.message, source));

    // What the levels count bounds the rest: every assembly found is a fit of the last piece
    // (its level counts it; a donated last placement is counted there by its donor, whose
    // results a checkpoint keeps before the receiver's: pool/pieces.js), and a fit is a
    // placement tried.
    const SolverStats& counted = ck.finished;
    // Listing orbits (Solver::listsOrbits), `found` counts each reached assembly's images too:
    // at most one per symmetry.
    const long long lastFits = counted.fits.size() > 1 ? counted.fits[1] : 0;
    const long long perFit = solver.listsOrbits() ? static_cast<long long>(solver.symmetryCount()) : 1;
    if (counted.found / perFit > lastFits)
        return bad("statistics: " + std::to_string(counted.found) + " assemblies found, but the last piece fitted only " +
                   std::to_string(lastFits) + " times" + (perFit > 1 ? " (each stands for at most " + std::to_string(perFit) + ")" : ""));
    for (size_t r = 1; r < counted.fits.size() && r < counted.attempts.size(); ++r)
        if (counted.fits[r] > counted.attempts[r])
            return bad("statistics: with " + std::to_string(r) + " pieces left, more placements fitted (" + std::to_string(counted.fits[r]) +
                       ") than were tried (" + std::to_string(counted.attempts[r]) + ")");

    // A path places each piece at most as often as the puzzle has it (checkResume sees images
    // that overlap; two images of a piece the puzzle has once may not).
    const Model& model = solver.model();
    std::vector<int> placed(static_cast<size_t>(model.shapeCount()));
    for (size_t k = 0; k < ck.pending.size(); ++k) {
        std::fill(placed.begin(), placed.end(), 0);
        for (int image : ck.pending[k].path) {
            const int shape = model.images[static_cast<size_t>(image)].shape;
            if (shape < 0 || shape >= model.shapeCount() || ++placed[static_cast<size_t>(shape)] > model.shapes[static_cast<size_t>(shape)].count)
                return bad("piece " + std::to_string(k + 1) + ": its path places a piece more often than the puzzle has it (image " +
                           std::to_string(image) + ")");
        }
    }
    return Status::success();
}

}  // namespace polycube
