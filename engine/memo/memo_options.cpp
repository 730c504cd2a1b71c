#include "memo/memo_options.hpp"

#include <utility>

namespace polycube {

std::string memoConflict(const SolverOptions& o) {
    if (o.memo && o.noMemo) return "--memo and --no-memo ask for opposite ways of counting: give one";
    if (!o.memo) return o.memoMb > 0 ? "--memo-mb N sets the budget of --memo's table: give --memo too" : "";
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
    if (o.memo || o.noMemo || o.memoMb > 0) return false;
    SolverOptions asked = o;
    asked.memo = true;
    return memoConflict(asked).empty();
}

MemoSettings memoSettings(const SolverOptions& o) {
    MemoSettings s;
    s.redundancy = o.redundancy != Redundancy::Off;
    s.piece = o.redundancy == Redundancy::Named ? o.redundancyPiece : std::string();
    s.mirror = o.mirror;
    if (o.memoMb > 0) s.maxTableBytes = o.memoMb << 20;
    return s;
}

Result<long long> sessionMemoBytes(const SolverOptions& o, const ModelLimits& limits) {
    const long long most = static_cast<long long>(static_cast<double>(limits.maxTotalBytes) * kSessionMemoShareMax);
    if (o.memoMb <= 0) return Result<long long>::success(static_cast<long long>(static_cast<double>(limits.maxTotalBytes) * kSessionMemoShare));
    if ((o.memoMb << 20) > most)
        return Result<long long>::error("--memo-mb " + std::to_string(o.memoMb) + ": more than the " + formatBytes(most) +
                                          " a memo table may take here (half of the engine's " +
                                          formatBytes(limits.maxTotalBytes) + " for a search: a growing table holds its "
                                          "old and new halves at once); give at most --memo-mb " + std::to_string(most >> 20));
    return Result<long long>::success(o.memoMb << 20);
}

}  // namespace polycube
