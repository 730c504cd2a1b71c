#include "memo/memo_options.hpp"

#ifndef __EMSCRIPTEN__
#include <unistd.h>
#endif

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>

namespace polycube {

std::string memoConflict(const SolverOptions& o) {
    if (o.memo && o.noMemo) return "--memo and --no-memo ask for opposite ways of counting: give one";
    if (o.solutionNumber > 0 && o.randomSolutions > 0) return "--solution N and --random K both pick the solutions to list: give one";
    if (!o.memo) {
        if (o.memoMb > 0) return "--memo-mb N sets the budget of --memo's count: give --memo too";
        if (o.memoTable) return "--memo-table chooses how --memo counts: give --memo too";
        if (o.placementCounts) return "--placements counts the solutions through each placement with --memo's count: give --memo too";
        if (o.solutionNumber > 0 || o.randomSolutions > 0)
            return std::string(o.solutionNumber > 0 ? "--solution N" : "--random K") +
                   " lists solutions of a memoized count by their numbers: give --memo too";
        return "";
    }
    if (o.placementCounts && (o.solutionNumber > 0 || o.randomSolutions > 0))
        return std::string("--placements and ") + (o.solutionNumber > 0 ? "--solution N" : "--random K") +
               " each follow the count with work of their own: give one";
    if (o.placementCounts && o.redundancy != Redundancy::Off)
        return "--placements counts the solutions through each placement among all solutions; -r counts classes of "
               "solutions, in which a placement has no one place: drop -r";
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

bool automaticMemoAllowed(const SolverOptions& o) {
    if (o.memo || o.noMemo || o.memoMb > 0 || o.memoTable) return false;
    SolverOptions asked = o;
    asked.memo = true;
    return memoConflict(asked).empty();
}

long long defaultMemoBytes() {
#ifdef __EMSCRIPTEN__
    return MemoSettings::kDefaultTableBytes;
#else
    const long pages = sysconf(_SC_PHYS_PAGES), pageBytes = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageBytes <= 0) return MemoSettings::kDefaultTableBytes;
    const long long quarter = static_cast<long long>(pages) * pageBytes / 4;
    return std::clamp(quarter, MemoSettings::kDefaultTableBytes, kMemoDefaultMostBytes);
#endif
}

MemoSettings memoSettings(const SolverOptions& o) {
    MemoSettings s;
    s.redundancy = o.redundancy != Redundancy::Off;
    s.piece = o.redundancy == Redundancy::Named ? o.redundancyPiece : std::string();
    s.mirror = o.mirror;
    s.maxTableBytes = o.memoMb > 0 ? o.memoMb << 20 : defaultMemoBytes();
    s.layered = !o.memoTable;
    s.solutionNumber = o.solutionNumber;
    s.randomSolutions = o.randomSolutions;
    s.placementCounts = o.placementCounts;
    // Without a seed, a draw of its own each time (the seed is reported: --json's "seed").
    // (63 bits: what --random's SEED takes back)
    s.seed = o.randomSeedGiven ? o.randomSeed
                               : ((static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}()) & INT64_MAX;
    return s;
}

long long sessionMostMemoBytes(const ModelLimits& limits) {
    return static_cast<long long>(static_cast<double>(limits.maxTotalBytes) * kSessionMemoShareMax);
}

Result<long long> sessionMemoBytes(const SolverOptions& o, const ModelLimits& limits) {
    const long long most = sessionMostMemoBytes(limits);
    if (o.memoMb <= 0) return Result<long long>::success(static_cast<long long>(static_cast<double>(limits.maxTotalBytes) * kSessionMemoShare));
    if ((o.memoMb << 20) > most)
        return Result<long long>::error("--memo-mb " + std::to_string(o.memoMb) + ": more than the " + formatBytes(most) +
                                          " a memo table may take here (half of the engine's " +
                                          formatBytes(limits.maxTotalBytes) + " for a search: a growing table holds its "
                                          "old and new halves at once); give at most --memo-mb " + std::to_string(most >> 20));
    return Result<long long>::success(o.memoMb << 20);
}

}  // namespace polycube
