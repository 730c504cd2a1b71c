// ParallelSearch: one search spread over several threads (polycube -j N).
//
//   auto r = ParallelSearch::create(def, options, 4);
//   ParallelSearch& p = *r.value;
//   p.setSolutionHandler([](const Solution& s, long long n) { print(n, s.grid); });
//   Solver::State st = p.run();          // blocks; p.cancel() from a signal handler stops it
//   p.stats();                           // merged: equal to a one-thread run's figures
//
// Every thread has its own Solver of the same puzzle and options (its own matrix and FILA
// tables; their setups run at once, SearchThreads). A shared pool holds subproblems (paths from
// the root, parallel/subproblem.hpp); it starts with the whole tree. A thread takes one,
// searches it in slices of about a millisecond, and between slices, when another thread is
// waiting for work and the pool is empty, donates the untried siblings of its shallowest
// open level (Solver::donate): dynamic load balancing, so that a few huge subtrees cannot
// leave cores idle. The search ends when the pool is empty and no thread is busy.
//
// Solutions reach the handler as they are found (one at a time, under a lock), numbered in
// that order; so the set of solutions is the single-thread run's, their order is not.
// Statistics are the sum over the threads: every node is counted by exactly one of them, so
// they equal the single-thread figures (searchSeconds is the wall time of run()).
// Options that cannot be split (whyNotSplittable: -t, -s, -l, -u without -r) run on one
// thread, exactly as without -j.
#pragma once
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/status.hpp"
#include "parallel/checkpoint.hpp"
#include "parallel/subproblem.hpp"
#include "puzzle/puzzle.hpp"
#include "solver/solver.hpp"

namespace polycube {

// Threads 1..count of a search: each sets up its own solver from the moment this is made,
// so that the setups overlap the first thread's (which the CLI runs in slices on its main
// thread, for signals; ParallelSearch::create without a primary sets it up meanwhile), then
// waits to run its part of the search (ParallelSearch::run hands it over with runOn).
// Why the threads live on: a thread made when the search starts can wait milliseconds for a
// core while its maker searches (see OtherCpuStart in the .cpp), which on a short search such
// as 10x6 (a setup of a few ms, a search of tens of ms) is a large part of the run.
// ParallelSearch::create adopts them; dropped unused, they are cancelled and joined (a setup
// polls cancel every 20 ms).
//
// Memory: every thread's solver is a whole copy (tests/hostile/random100.txt takes hundreds of
// MB at -j 1, gigabytes at -j 8), so the threads share one budget (memoryBudget()): thread k+1's
// setup (slot k) starts at once for k = 0 (the overlap above), the others
// once one solver's size is known (the first set up: slot 0's, or the primary's given by
// solverSetUp), and only while (k + 2) solvers fit in the budget; the rest are dropped
// (take() gives null, allowedThreads() says how many fit). Out of memory in a setup (or
// a thread that cannot be started) ends that slot with setupError(k), never an exception.
class SearchThreads {
public:
    SearchThreads(const PuzzleDef& def, const SolverOptions& options, int count);
    ~SearchThreads();
    SearchThreads(const SearchThreads&) = delete;
    SearchThreads& operator=(const SearchThreads&) = delete;
    int count() const { return static_cast<int>(slots_.size()); }
    // Solver k (0-based) once its setup has ended: ready, or failed (error()); null when the
    // setups were cancelled first, the slot was dropped for memory, or its setup ran out of
    // memory (setupError). Waits for that setup; each k is taken once.
    std::unique_ptr<Solver> take(int k);
    // Why slot k has no solver when it failed without one (out of memory, no thread); "".
    std::string setupError(int k);
    // A solver of this search is set up (the primary, by ParallelSearch::create): its size
    // decides how many of the slots may set up, if no slot's setup decided it first.
    void solverSetUp(const Solver& solver);
    // Threads (the primary included) whose solvers fit in the memory budget: waits until a
    // solver's size is known. At least 1; count() + 1 when all fit.
    int allowedThreads();
    long long solverBytes();  // the size that decided (Solver::memoryBytes + kThreadBytes); after allowedThreads
    // The bytes every thread's solver together may take: the smaller of half the physical
    // memory and three quarters of the address-space limit (setrlimit, ulimit -v), if any.
    // (See the .cpp for why.) 0: unknown (no limit applied).
    static long long memoryBudget();
    // Threads that fit: 1 + (budget / bytes per solver - 1), within [1, asked].
    static int threadsFor(long long budget, long long bytesPerSolver, int asked);
    // Runs `task` on thread k once its setup has ended (at most one task per thread); false
    // when it will not run (no thread k: setupError(k)).
    bool runOn(int k, std::function<void()> task);
    // Waits until every task given to runOn has returned.
    void waitForTasks();
    // An atomic store only: safe from a signal handler and from any thread.
    void cancel() { cancel_.store(true, std::memory_order_relaxed); }

private:
    struct Slot {
        std::thread thread;
        std::atomic<bool> settled{false};  // its CPU mask given back (OtherCpuStart)
        std::unique_ptr<Solver> solver;
        bool setupEnded = false;
        std::string error;  // out of memory, or no thread
        std::function<void()> task;
        bool taskEnded = false;
    };
    void live(Slot& slot, int k, const PuzzleDef& def, const SolverOptions& options);
    void sized(long long bytes);  // under mutex_: the first solver size decides allowed_
    std::vector<Slot> slots_;
    std::mutex mutex_;  // the slots' fields from `solver` on, and the sizes below
    std::condition_variable changed_;
    bool closing_ = false;
    std::atomic<bool> cancel_{false};
    long long solverBytes_ = 0;  // 0: no solver's size known yet
    int allowed_ = 0;            // threads that fit (0: not decided yet)
};

class ParallelSearch {
public:
    // Sets up the first thread's solver (setup errors come back here); threads < 1 means 1.
    // `primary`: a solver of this puzzle and options already set up (e.g. by the CLI in
    // cancellable step() slices): it becomes the first thread's; null: one is created here.
    // `resume`: a checkpoint of this search (decoded against its fingerprint): only its
    // pending pieces are searched, its totals carried on (checkpointed mode, see below).
    // `others`: threads 1.., their solvers set up since before the primary's (SearchThreads;
    // null: started here, before the primary's setup when create() does that one too).
    static Result<std::unique_ptr<ParallelSearch>> create(const PuzzleDef& def, const SolverOptions& options, int threads,
                                                          std::unique_ptr<Solver> primary = nullptr,
                                                          const Checkpoint* resume = nullptr,
                                                          std::unique_ptr<SearchThreads> others = nullptr);
    ~ParallelSearch();

    // The first thread's solver: the model, configuration and descriptions (-i, JSON).
    const Solver& primary() const { return *primary_; }
    // Threads that will search: 1 when the options cannot be split (see splitRefusal()),
    // fewer than asked when their solvers would not fit in memory (see threadCapNote()).
    int threads() const { return threads_; }
    int threadsAsked() const { return threadsAsked_; }
    // Non-empty when memory capped the threads, for the CLI to print, e.g. "-j 8: 2 threads
    // (each solver takes about 345 MiB; the memory budget for them is 1024 MiB)".
    const std::string& threadCapNote() const { return capNote_; }
    const std::string& splitRefusal() const { return refusal_; }

    // Called once per reported solution, by the thread that found it, never by two at once.
    void setSolutionHandler(std::function<void(const Solution&, long long number)> handler) {
        onSolution_ = std::move(handler);
    }
    // Solutions in the one-thread order, numbered as one thread numbers them (polycube
    // --ordered): a piece's solutions wait (their image ids, in memory) until every piece
    // before it in that order has ended. Not in checkpointed mode, whose pieces report when
    // they end. Stopped early, the handler has had the one-thread run's first solutions only
    // (stats() count them all).
    void setOrdered(bool on) { orderedWanted_ = on; }
    // Called on the thread that runs run(), about every `seconds` while the search runs, with
    // the share of the whole tree done (Solver::fractionDone of every piece, weighted by the
    // piece's share of the tree: the finished ones, and the running ones as their threads
    // last published between slices) and the solutions reported so far.
    void setProgressHandler(std::function<void(double fraction, long long solutions)> handler, double seconds) {
        onProgress_ = std::move(handler);
        progressSeconds_ = seconds;
    }
    // Checkpointed mode (parallel/checkpoint.hpp; also on one thread): the tree is first split
    // into pieces (the first thread's solver donates down the tree until there are about 16
    // per thread, none over 1/8 of a thread's share, and searches what it kept), then every
    // piece is searched whole by one thread, without donation; a piece's solutions reach the
    // solution handler, and its statistics the totals, when it ends. `handler` gets the
    // remaining work on the thread that runs run(), about every `seconds`, and once more when
    // the search ends (done: no pieces left; cancelled: the unfinished ones, which a resumed
    // search starts again). stats() are then the finished pieces' (what a resume adds to).
    // Searches that cannot be split (splitRefusal()) cannot be checkpointed.
    void setCheckpointHandler(std::function<void(const Checkpoint&)> handler, double seconds) {
        onCheckpoint_ = std::move(handler);
        checkpointSeconds_ = seconds;
    }
    // --split (job files for other machines): only the splitting of checkpointed mode, into
    // about `pieces` pieces. Returns them (largest first); what the splitting searched itself
    // is in stats() and went through the solution handler. false when cancelled or failed.
    bool splitOnly(long long pieces, std::vector<CheckpointPiece>& out, double& doneShare);
    const std::string& fingerprint() const { return fingerprint_; }
    long long piecesSplit() const { return piecesSplit_; }  // checkpointed mode: pieces made up front

    // Runs the whole search; returns Done, LimitReached (one-thread -l), or Cancelled (cancel()
    // or an error: see error()).
    Solver::State run();
    // Stop every thread at its next slice (or placement, single-threaded). Only an atomic
    // store: safe from a signal handler and from any thread.
    void cancel();

    const SolverStats& stats() const { return stats_; }
    // Thread k's own part of stats() (thread 0: the first solver's), as its solver counts it:
    // read after run(), or from a handler that thread k calls (its solution handler), where it
    // tells how far that thread has searched. Empty for a thread that never searched.
    SolverStats threadStats(int k) const;
    const std::string& error() const { return error_; }
    long long subproblems() const { return subproblems_; }  // subproblems searched
    long long donations() const { return donations_; }      // times a thread gave work away
    // Seconds the threads spent waiting for work, summed (setup of the other threads' solvers
    // runs meanwhile and is not counted).
    double idleSeconds() const { return idleSeconds_; }

private:
    ParallelSearch() = default;
    struct Pool;
    class OrderedOutput;
    void worker(int index);
    void workerUnguarded(int index);
    Solver::State runUnguarded();
    void fail(const std::string& message);

    std::unique_ptr<Solver> primary_;
    std::unique_ptr<SearchThreads> others_;  // threads 1.. and their solvers (null: one thread)
    std::string fingerprint_;
    int threads_ = 1;
    int threadsAsked_ = 1;
    std::string capNote_;
    std::string refusal_;
    std::function<void(const Solution&, long long)> onSolution_;
    std::function<void(double, long long)> onProgress_;
    double progressSeconds_ = 1;
    std::function<void(const Checkpoint&)> onCheckpoint_;
    double checkpointSeconds_ = 5;
    std::unique_ptr<Checkpoint> resume_;
    long long piecesSplit_ = 0;
    long long splitTarget_ = 0;  // pieces the splitting aims at (0: 16 per thread)
    bool splitIntoPieces();  // checkpointed mode, before the threads start
    Checkpoint snapshot() const;  // checkpointed mode: under both of the pool's locks, or after the threads
    std::unique_ptr<Pool> pool_;
    bool orderedWanted_ = false;
    std::unique_ptr<OrderedOutput> ordered_;  // setOrdered, in run()
    std::atomic<bool> cancel_{false};
    // Threads 1..'s solvers, once searching: cancel() stops them at their next placement.
    // Kept until this object goes, so that a cancel() from a signal handler never meets a
    // freed one.
    std::vector<std::unique_ptr<Solver>> kept_;
    std::unique_ptr<std::atomic<Solver*>[]> searching_;
    SolverStats stats_;
    std::string error_;
    long long subproblems_ = 0, donations_ = 0;
    double idleSeconds_ = 0;
};

}  // namespace polycube
