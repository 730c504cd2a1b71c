#include "memo_count.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/text.hpp"
#include "memo/memo_options.hpp"
#include "memo/memo_report.hpp"
#include "output/format.hpp"
#include "progress.hpp"

namespace polycube {

std::string memoCommandLineConflict(const OptionParse& p) {
    const SolverOptions& o = p.options;
    if (o.memo && !o.quiet && !o.json && o.solutionNumber == 0 && o.randomSolutions == 0 && !o.placementCounts)
        return "--memo counts solutions without listing them: give -q (or --json for the count as JSON), --solution N "
               "or --random K for some of them, or --placements for the solutions through each placement";
    return polycube::memoConflict(o);  // the engine's rules (memo/memo_options.hpp), the Session's too
}

namespace {

std::string memoInfo(const ParallelMemo& p, const std::string& choice) {
    const MemoCounter& c = p.setup();
    std::ostringstream os;
    const Model& m = c.model();
    if (!choice.empty())
        os << "\n# How the count is made (the automatic choice; --no-memo enumerates):\nCOUNTING=" << choice << "\n";
    os << "\n# Counted by the memoized search (--memo): pieces, open cells, images:\nPIECES=" << m.mobileCount()
       << "\nCELLS=" << m.openCellCount() << "\nIMAGES=" << m.images.size() << "\n";
    os << "\n# Redundancy filter:\nREDUNDANCY_FILTER=" << c.redundancyDescription() << "\n";
    os << "\n# Counts summed (Burnside's lemma for symmetric images of the constrained piece):\nMEMO_TERMS="
       << c.termsDescription() << "\n";
    if (p.partitioned())
        os << "\n# Threads, each with its own table (an equal share of --memo-mb) counting parts of the terms:\nMEMO_THREADS="
           << p.threads() << "\n";
    else if (p.threads() > 1)
        os << "\n# Threads expanding each layer's subproblems together:\nMEMO_THREADS=" << p.threads() << "\n";
    return os.str();
}

std::string memoStatistics(const ParallelMemo& c) {
    const MemoStats s = c.stats();
    std::ostringstream os;
    if (c.state() == MemoCounter::State::Done) os << "\n# Number of solutions:\nSOLUTIONS=" << c.count() << "\n";
    if (const std::string& why = c.setup().impossibleReason(); !why.empty())
        os << "\n# Proved impossible before counting:\nIMPOSSIBLE=" << why << "\n";
    os << "\n# Placements, images tried, and placements cut for a pocket smaller than every piece:\nPLACEMENTS="
       << s.placements << "\nATTEMPTS=" << s.attempts << "\nPOCKETS=" << s.pockets << "\n";
    if (c.partitioned()) os << "\n# The parts the terms were split into for the threads:\nMEMO_TASKS=" << c.tasks() << "\n";
    os << "\n# Terms counted layer by layer, and those whose layers passed --memo-mb (counted by the table's search):"
       << "\nMEMO_LAYERED_TERMS=" << s.layeredTerms << "\nMEMO_FALLBACK_TERMS=" << s.fallbackTerms << "\n";
    os << "\n# The layers: distinct subproblems expanded, the most memory at once (bytes):\nMEMO_SUBPROBLEMS=" << s.subproblems
       << "\nMEMO_LAYER_BYTES=" << s.layerBytes << "\n";
    os << "\n# The memo table: subproblems looked up, found, not found, kept now, forgotten for room:\nMEMO_LOOKUPS="
       << s.lookups << "\nMEMO_HITS=" << s.hits << "\nMEMO_MISSES=" << s.misses() << "\nMEMO_ENTRIES=" << s.entries
       << "\nMEMO_EVICTIONS=" << s.evictions << "\n";
    os << "\n# The table's size and its budget (--memo-mb), bytes:\nMEMO_TABLE_BYTES=" << s.tableBytes
       << "\nMEMO_BUDGET_BYTES=" << s.maxTableBytes << "\n";
    os << "\n# Terms counted of all:\nMEMO_TERMS_DONE=" << s.termsDone << "/" << s.terms << "\n";
    os << "\n# Seconds: setup and search:\nSETUP_SECONDS=" << s.setupSeconds << "\nSEARCH_SECONDS=" << s.searchSeconds << "\n";
    return os.str();
}

// --placements: each image of the model (a piece's placement) with the solutions through it:
// its piece's name, its cells' box coordinates, the count.
struct PlacementLine {
    const std::string* piece;
    std::vector<Vec3> cells;
    uint64_t solutions;
};
std::vector<PlacementLine> placementLines(const MemoCounter& c) {
    const Model& m = c.model();
    const std::vector<uint64_t>& counts = c.placementCounts();
    std::vector<PlacementLine> lines;
    for (size_t i = 0; i < m.images.size() && i < counts.size(); ++i) {
        const Image& image = m.images[i];
        PlacementLine line{&m.shapes[static_cast<size_t>(image.shape)].name, {}, counts[i]};
        for (int cell : image.cells) line.cells.push_back(m.openCellPos[static_cast<size_t>(cell)]);
        lines.push_back(std::move(line));
    }
    return lines;
}

// As text: "piece<TAB>x,y,z x,y,z ...<TAB>count" lines under a header.
std::string placementTable(const MemoCounter& c) {
    std::ostringstream os;
    os << "\n# The solutions through each placement (--placements), of " << formatCount(static_cast<long long>(std::min<uint64_t>(c.count(), INT64_MAX)))
       << ": piece, its cells (x,y,z), solutions that keep it there\n";
    for (const PlacementLine& line : placementLines(c)) {
        os << *line.piece << '\t';
        for (size_t k = 0; k < line.cells.size(); ++k)
            os << (k ? " " : "") << line.cells[k].x << ',' << line.cells[k].y << ',' << line.cells[k].z;
        os << '\t' << line.solutions << '\n';
    }
    return os.str();
}

nlohmann::json placementJson(const MemoCounter& c) {
    nlohmann::json list = nlohmann::json::array();
    for (const PlacementLine& line : placementLines(c)) {
        nlohmann::json cells = nlohmann::json::array();
        for (const Vec3& v : line.cells) cells.push_back({v.x, v.y, v.z});
        list.push_back({{"piece", *line.piece}, {"cells", std::move(cells)}, {"solutions", line.solutions}});
    }
    return list;
}

std::string memoJson(const ParallelMemo& c, const PuzzleDef& def, const std::string& file, int index, double cpuSeconds,
                     const std::string& choice) {
    nlohmann::json j = memoCountJson(c.setup(), c.stats(), memoStateName(c.state()),
                                     c.state() == MemoCounter::State::Done ? std::optional<uint64_t>(c.count()) : std::nullopt,
                                     c.threads());
    j["puzzle"] = def.title.empty() ? file + "#" + std::to_string(index + 1) : def.title;
    j["file"] = file;
    j["index"] = index;
    j["title"] = def.title;
    if (cpuSeconds >= 0) j["cpuSeconds"] = cpuSeconds;
    if (!choice.empty()) j["counting"] = choice;  // the automatic choice's reason (-i's COUNTING)
    if (c.setup().settings().placementCounts && c.state() == MemoCounter::State::Done) j["placementCounts"] = placementJson(c.setup());
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

int countByMemo(const PuzzleDef& def, const std::string& source, int index, const SolverOptions& o,
                ParallelMemo* volatile& active, double cpuAtStart, double (*cpuSeconds)(), ProgressReporter* progress,
                const std::string& choice, std::unique_ptr<ParallelMemo> started) {
    const MemoSettings settings = memoSettings(o);
    // Without -j, one thread: the threads' tables are partitioned, so threads count some
    // subproblems more than once (docs/memo.md), and a count gains from them only when asked.
    const bool raced = started != nullptr;
    std::unique_ptr<ParallelMemo> counter =
        raced ? std::move(started) : ParallelMemo::begin(def, settings, o.threads > 0 ? o.threads : 1);
    active = counter.get();
    MemoCounter::State st = counter->prepare();
    // (the race's count says its header once it has a result: layers that pass the budget give
    // the count back to the enumerating search, which prints its own)
    const auto header = [&] {
        if (!def.title.empty()) std::cout << "\n# " << def.title << "\n";
        std::cout << memoInfo(*counter, choice);
        std::cout.flush();
    };
    if (o.info && counter->ready() && !raced) header();
    // With a progress line: the clock read between runs of progressSeconds() (the threads
    // publish their share done between slices); without, one run to the end.
    const double slice = progress ? progressSeconds() : 0;
    // (--solution, --random: the solutions listed as the count's walk reaches them, by number)
    const auto print = [&] {
        for (const MemoCounter::Picked& s : counter->takePicked())
            if (!o.quiet) std::cout << formatSolution(def, s.grid, static_cast<long long>(s.number));
    };
    while (st == MemoCounter::State::Running) {
        st = counter->run(slice);
        print();
        if (st == MemoCounter::State::Running && progress) progress->report(counter->fractionDone(), -1);
    }
    if (progress) progress->finish();
    if (!o.quiet && !o.json && st == MemoCounter::State::Done && o.randomSolutions > 0)
        std::cout << "\n# " << formatCount(counter->stats().picked) << " of "
                  << formatCount(static_cast<long long>(std::min<uint64_t>(counter->count(), INT64_MAX)))
                  << " solutions, drawn at random (--random "
                  << o.randomSolutions << "," << counter->setup().settings().seed << " draws them again)\n";
    active = nullptr;
    if (raced && st == MemoCounter::State::Failed && counter->layersPastBudget()) return kRaceLayersPastBudget;
    if (o.placementCounts && !o.json && st == MemoCounter::State::Done) std::cout << placementTable(counter->setup());
    if (o.info && raced) header();
    if (o.info) std::cout << memoStatistics(*counter);
    if (o.json) std::cout << memoJson(*counter, def, source, index, cpuSeconds() - cpuAtStart, choice) << "\n";
    std::cout.flush();
    if (st == MemoCounter::State::Failed) {
        std::cerr << "polycube: " << shownPath(source) << ":" << def.line << ": " << counter->error() << "\n";
        return 1;
    }
    return st == MemoCounter::State::Cancelled ? -1 : 0;
}

std::unique_ptr<CountRace> makeCountRace(const PuzzleDef& def, const SolverOptions& options, int threads,
                                         ParallelMemo* volatile& active) {
    const char* units = std::getenv("POLYCUBE_RACE_UNITS");
    const bool attempts = threads == 1 && units != nullptr && std::strcmp(units, "attempts") == 0;
    auto race = std::make_unique<CountRace>(def, memoSettings(options), threads,
                                            attempts ? CountRace::Measure::Attempts : CountRace::Measure::Clock);
    race->onProbe([&active](ParallelMemo* probe) { active = probe; });
    return race;
}

std::string raceInfo(const CountRace& race) {
    const std::string outcome = race.outcome();
    if (outcome.empty()) return "";
    return "\n# The layered count's probe beside the search (the automatic choice's race):\nCOUNTING_PROBE=" + outcome + "\n";
}

}  // namespace polycube
