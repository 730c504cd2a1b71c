#include "memo_count.hpp"

#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/text.hpp"
#include "progress.hpp"

namespace polycube {

std::string memoConflict(const OptionParse& p) {
    const SolverOptions& o = p.options;
    if (!o.memo) return o.memoMb > 0 ? "--memo-mb N sets the budget of --memo's table: give --memo too" : "";
    if (!o.quiet && !o.json)
        return "--memo counts solutions without listing them: give -q (or --json for the count as JSON)";
    // The enumerating search's options that mean nothing to a count, or that need the solutions.
    const std::pair<bool, const char*> refused[] = {
        {o.unique, "-u (it keeps the solutions it has seen; -r counts the same classes)"},
        {o.maxSolutions > 0, "-l (the count comes whole, not solution by solution)"},
        {o.trace != 0, "-t (no search trace)"},
        {o.monteCarlo.trials > 0, "-s (no Monte Carlo trials)"},
        {!o.checkpoint.empty(), "--checkpoint"},
        {!o.resume.empty(), "--resume"},
        {o.splitJobs > 0 || !o.jobsOut.empty(), "--split"},
        {!o.job.empty(), "--job"},
        {!o.merge.empty(), "--merge"},
        {o.buildOrder, "--build-order (no solutions to order)"},
        {o.ordered, "--ordered"},
        {!o.autoTune, "-f, -o, -n, -b, -m and -e (it fills the cells in a sweep of its own)"},
        {o.parityBacktrack || o.volumeBacktrack >= 0 || o.parityFilter != kFilterOff || o.volumeFilter != kFilterOff ||
             o.fitFilter != kFilterOff,
         "-p, -v, -P, -V and -F (the constraints of the enumerating search)"},
    };
    for (const auto& [given, what] : refused)
        if (given) return std::string("--memo cannot be combined with ") + what;
    return "";
}

namespace {

const char* stateName(MemoCounter::State s) {
    switch (s) {
        case MemoCounter::State::Running: return "running";
        case MemoCounter::State::Done: return "done";
        case MemoCounter::State::Cancelled: return "cancelled";
        case MemoCounter::State::Failed: return "failed";
    }
    return "?";
}

std::string memoInfo(const ParallelMemo& p) {
    const MemoCounter& c = p.setup();
    std::ostringstream os;
    const Model& m = c.model();
    os << "\n# Counted by the memoized search (--memo): pieces, open cells, images:\nPIECES=" << m.mobileCount()
       << "\nCELLS=" << m.openCellCount() << "\nIMAGES=" << m.images.size() << "\n";
    os << "\n# Redundancy filter:\nREDUNDANCY_FILTER=" << c.redundancyDescription() << "\n";
    os << "\n# Counts summed (Burnside's lemma for symmetric images of the constrained piece):\nMEMO_TERMS="
       << c.termsDescription() << "\n";
    if (p.threads() > 1)
        os << "\n# Threads, each with its own table (an equal share of --memo-mb) counting parts of the terms:\nMEMO_THREADS="
           << p.threads() << "\n";
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
    if (c.threads() > 1) os << "\n# The parts the terms were split into for the threads:\nMEMO_TASKS=" << c.tasks() << "\n";
    os << "\n# The memo table: subproblems looked up, found, not found, kept now, forgotten for room:\nMEMO_LOOKUPS="
       << s.lookups << "\nMEMO_HITS=" << s.hits << "\nMEMO_MISSES=" << s.misses() << "\nMEMO_ENTRIES=" << s.entries
       << "\nMEMO_EVICTIONS=" << s.evictions << "\n";
    os << "\n# The table's size and its budget (--memo-mb), bytes:\nMEMO_TABLE_BYTES=" << s.tableBytes
       << "\nMEMO_BUDGET_BYTES=" << s.maxTableBytes << "\n";
    os << "\n# Terms counted of all:\nMEMO_TERMS_DONE=" << s.termsDone << "/" << s.terms << "\n";
    os << "\n# Seconds: setup and search:\nSETUP_SECONDS=" << s.setupSeconds << "\nSEARCH_SECONDS=" << s.searchSeconds << "\n";
    return os.str();
}

std::string memoJson(const ParallelMemo& c, const PuzzleDef& def, const std::string& file, int index, double cpuSeconds) {
    const MemoStats s = c.stats();
    const MemoCounter& setup = c.setup();
    nlohmann::json j;
    j["puzzle"] = def.title.empty() ? file + "#" + std::to_string(index + 1) : def.title;
    j["file"] = file;
    j["index"] = index;
    j["title"] = def.title;
    j["state"] = stateName(c.state());
    j["phase"] = c.ready() ? "search" : "setup";
    if (c.state() == MemoCounter::State::Done) j["solutions"] = c.count();
    else j["solutions"] = nullptr;  // a cancelled count has no partial figure
    j["placements"] = s.placements;
    j["attempts"] = s.attempts;
    j["pockets"] = s.pockets;
    j["seconds"] = s.setupSeconds + s.searchSeconds;
    j["setupSeconds"] = s.setupSeconds;
    j["searchSeconds"] = s.searchSeconds;
    j["redundancyFilter"] = setup.redundancyDescription();
    if (!setup.impossibleReason().empty()) j["impossible"] = setup.impossibleReason();
    j["configuration"] = "memoized count (a sweep along the longest axis)";
    j["memo"] = {{"lookups", s.lookups},   {"hits", s.hits},         {"misses", s.misses()},
                 {"entries", s.entries},   {"evictions", s.evictions}, {"tableBytes", s.tableBytes},
                 {"budgetBytes", s.maxTableBytes}, {"terms", setup.termsDescription()},
                 {"threads", c.threads()}};
    if (cpuSeconds >= 0) j["cpuSeconds"] = cpuSeconds;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

int countByMemo(const PuzzleDef& def, const std::string& source, int index, const SolverOptions& o,
                ParallelMemo* volatile& active, double cpuAtStart, double (*cpuSeconds)(), ProgressReporter* progress) {
    MemoSettings settings;
    settings.redundancy = o.redundancy != Redundancy::Off;
    settings.piece = o.redundancy == Redundancy::Named ? o.redundancyPiece : std::string();
    settings.mirror = o.mirror;
    if (o.memoMb > 0) settings.maxTableBytes = o.memoMb << 20;
    // Without -j, one thread: the threads' tables are partitioned, so threads count some
    // subproblems more than once (docs/memo.md), and a count gains from them only when asked.
    std::unique_ptr<ParallelMemo> counter = ParallelMemo::begin(def, settings, o.threads > 0 ? o.threads : 1);
    active = counter.get();
    MemoCounter::State st = counter->prepare();
    if (o.info && counter->ready()) {
        if (!def.title.empty()) std::cout << "\n# " << def.title << "\n";
        std::cout << memoInfo(*counter);
        std::cout.flush();
    }
    // With a progress line: the clock read between runs of progressSeconds() (the threads
    // publish their share done between slices); without, one run to the end.
    const double slice = progress ? progressSeconds() : 0;
    while (st == MemoCounter::State::Running)
        if ((st = counter->run(slice)) == MemoCounter::State::Running && progress)
            progress->report(counter->fractionDone(), -1);
    if (progress) progress->finish();
    active = nullptr;
    if (o.info) std::cout << memoStatistics(*counter);
    if (o.json) std::cout << memoJson(*counter, def, source, index, cpuSeconds() - cpuAtStart) << "\n";
    std::cout.flush();
    if (st == MemoCounter::State::Failed) {
        std::cerr << "polycube: " << shownPath(source) << ":" << def.line << ": " << counter->error() << "\n";
        return 1;
    }
    return st == MemoCounter::State::Cancelled ? -1 : 0;
}

}  // namespace polycube
