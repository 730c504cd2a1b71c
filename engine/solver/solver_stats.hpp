// A search's counters (SolverStats): what Solver::stats() reports and what the parallel search,
// checkpoints and job results add up across the pieces of one tree.
//
//   SolverStats total;
//   total.add(piece.stats());           // merging a thread's or a job's counters
//   long long n = total.totalAttempts();
#pragma once
#include <cstddef>
#include <vector>

namespace polycube {

struct SolverStats {
    long long solutions = 0;     // reported (after redundancy and unique filtering)
    long long found = 0;         // complete assemblies reached by the search
    long long redundant = 0;     // found but filtered as equivalent to another
    // Index N = number of pieces left to place when the attempt was made (1..pieces).
    std::vector<long long> attempts, fits;
    long long totalAttempts() const;
    long long totalFits() const;
    // this += sign * other, over every counter that adds up across pieces of one search
    // (solutions, found, redundant, Monte Carlo trials, every per-level counter): merging
    // threads, pieces and job results (parallel/, cli/jobs.cpp), and taking differences.
    void add(const SolverStats& other, int sign = 1);
    double searchSeconds = 0;    // time inside step()
    double setupSeconds = 0;     // model, symmetries, filters, matrix
    long long monteCarloTrials = 0;
    long long filaRefused = 0;   // levels where FILA's tables would pass their memory limit (DLX searched)
    // Constraint work, indexed by pieces left (first seed article, "Constraints").
    std::vector<long long> parityBacktracks, volumeBacktracks;
    std::vector<long long> parityFiltered, volumeFiltered, fitFiltered;

    // Every per-level counter of `a` with the same counter of `b`, for code that treats them
    // alike (merging the threads' statistics, restoring a subproblem's replayed levels): one
    // list of them, so a new counter cannot be forgotten in one place.
    template <class A, class B, class F>
    static void forEachLevelCounter(A& a, B& b, F f) {
        f(a.attempts, b.attempts);
        f(a.fits, b.fits);
        f(a.parityBacktracks, b.parityBacktracks);
        f(a.volumeBacktracks, b.volumeBacktracks);
        f(a.parityFiltered, b.parityFiltered);
        f(a.volumeFiltered, b.volumeFiltered);
        f(a.fitFiltered, b.fitFiltered);
    }
};

}  // namespace polycube
