// The progress line of a long search (--progress, and by default when standard error is a
// terminal): "about 35% done, ~40 s left (30-55 s), 12,345 solutions, 20 s elapsed" on
// standard error, never on standard output.
//
//   ProgressReporter reporter(isatty(STDERR_FILENO), "polycube: ", resumedShare);
//   search.setProgressHandler([&](double f, long long n) { reporter.report(f, n); }, 1.0);
//   search.run(); reporter.finish();
//
// The share done is the search's weighted backtrack estimate (Solver::fractionDone;
// ParallelSearch sums the pieces). The time left projects the rate of this run: the share
// gained since it started (`startShare`: a resumed checkpoint's, a job's part done elsewhere)
// over its elapsed time. (Projected from the whole share done, a run resumed at 41% would
// say "~1 s left" after a second, with 35 s to go.) Its range is the spread of that
// projection over the last 10 readings (the estimate moves in steps as subtrees of unequal
// size end): a hint of how far to trust it, not a confidence interval. On a terminal the line
// is rewritten in place; otherwise one line per reading.
#pragma once
#include <chrono>
#include <string>
#include <vector>

namespace polycube {

// Seconds from an environment variable within [lo, hi], or `fallback`.
double secondsFromEnv(const char* name, double lo, double hi, double fallback);
// Between two progress readings: 1 s, or POLYCUBE_PROGRESS_SECONDS (the progress benchmark
// reads ten a second).
double progressSeconds();

// The share of this run's part done ([startShare, 1]), and its projected seconds in all: the
// rate so far (what it gained over `elapsed`) carried to the end of its part; -1 before it has
// gained anything to project from.
double partDone(double startShare, double fraction);
double projectedSeconds(double startShare, double fraction, double elapsed);

class ProgressReporter {
public:
    // `partOnly`: the percentage is of the part this run searches ([startShare, 1]: a --job's
    // pieces), not of the whole tree (a resumed search says how far the whole search is).
    ProgressReporter(bool terminal, std::string label, double startShare = 0, bool partOnly = false);
    // `solutions` < 0: none said (a memoized count knows its count only at the end).
    void report(double fraction, long long solutions);
    // The same from a caller that reads the search more often than the line changes (the
    // race's slices): said only when `seconds` have passed since the last line said.
    void reportAtMost(double seconds, double fraction, long long solutions);
    void finish();  // the last in-place line makes way for what follows

private:
    bool terminal_;
    std::string label_;
    double startShare_;
    bool partOnly_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point lastSaid_ = start_;
    std::vector<double> projections_;  // projected seconds of this run, last readings
    size_t width_ = 0;
};

}  // namespace polycube
