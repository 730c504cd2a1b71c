// ParallelMemo: the memoized count (memo_counter.hpp) on several threads. Counted layer by layer
// (the default), the threads share each layer (layer_count.hpp) inside the one counter. By the
// table's search (MemoSettings::layered off, --memo-table), by partitioning: each term's search
// is split at its first levels into independent subtrees (tasks), the threads take tasks one at
// a time, each counting with a table of its own (an equal share of the budget), and the counts
// are summed exactly (each term's, then Burnside's division once, on the term's total). A term
// whose layers pass the budget is counted by the table's search on one thread.
//
//   std::unique_ptr<ParallelMemo> p = ParallelMemo::begin(def, settings, threads);
//   while (p->run(1.0) == MemoCounter::State::Running) show(p->fractionDone());
//   if (p->state() == MemoCounter::State::Done) print(p->count()); // else p->error()
//
// Why partitioned, not one shared table: a shared table needs a lock or atomic entries on
// every lookup and store (the hot path), and its entries are two to four words that no single
// atomic covers; private tables need nothing, at the price of a subproblem that two threads'
// subtrees both meet being counted once in each. The counts stay exact either way: a task's
// completions depend only on its subproblem.
//
// The setup (model, proofs, symmetries, terms) runs once, in the calling thread; with one
// thread (or a puzzle proved impossible) the count is the plain counter's. cancel() is one
// atomic store that every thread's counter polls at each placement (safe in a signal handler).
// Native only (threads): the page counts on one worker with MemoCounter itself.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "memo/memo_counter.hpp"

namespace polycube {

class ParallelMemo {
public:
    using State = MemoCounter::State;
    // Tasks per thread the terms are split into (while the levels last): enough that a thread
    // finishing early finds more, few enough that a task's table has subproblems to reuse.
    static constexpr int kTasksPerThread = 16;

    static std::unique_ptr<ParallelMemo> begin(const PuzzleDef& def, const MemoSettings& settings, int threads,
                                               const ModelLimits& limits = ModelLimits{});
    ~ParallelMemo();
    ParallelMemo(const ParallelMemo&) = delete;
    ParallelMemo& operator=(const ParallelMemo&) = delete;

    // Runs the setup (in the calling thread, to its end or a cancel) and returns the state.
    State prepare();
    // Runs the setup, then the count, for about `seconds` (<= 0: until it ends), and returns
    // the state.
    State run(double seconds);
    // A layered count (not partitioned): the setup, then about `budget` image attempts of the
    // count (spent from it), and the state. The race's probe runs in these slices.
    State step(long long& budget);
    // A layered count's threads from now on (more, not fewer): see MemoCounter::addThreads.
    void addThreads(int threads);
    void cancel() { counter_->cancel(); }
    State state() const { return state_; }
    bool ready() const { return counter_->ready(); }
    const std::string& error() const { return error_; }
    // A layered count (layersOnly) whose layers passed the budget: MemoCounter's.
    bool layersPastBudget() const { return !partitioned_ && counter_->layersPastBudget(); }
    uint64_t count() const { return count_; }
    // Summed over the threads (the table's figures: over their tables) once the run is over;
    // while it runs, the setup's.
    MemoStats stats() const;
    double fractionDone() const;
    int threads() const { return threads_; }
    // Whether the threads count parts of the terms with tables of their own (else the layered
    // count's threads share each layer, or one thread counts).
    bool partitioned() const { return partitioned_; }
    int tasks() const { return static_cast<int>(plan_.tasks.size()); }
    // The setup: the model, the redundancy filter, the terms, an impossibility proof.
    const MemoCounter& setup() const { return *counter_; }
    // The solutions listed since the last call (--solution, --random: MemoCounter::takePicked).
    std::vector<MemoCounter::Picked> takePicked() { return counter_->takePicked(); }

private:
    ParallelMemo() = default;
    bool startThreads();
    void work(int worker);
    void finish();
    void adopt(const MemoCounter& c);  // its state, error and count become the run's

    std::unique_ptr<MemoCounter> counter_;  // the setup, the split, and the one thread's count
    int threads_ = 1;
    bool partitioned_ = false;
    bool started_ = false;
    MemoCounter::TaskPlan plan_;
    std::vector<std::unique_ptr<MemoCounter>> workers_;
    std::vector<uint64_t> results_;                 // per task
    std::unique_ptr<std::atomic<double>[]> done_;   // per thread: the share of the count it did
    std::atomic<size_t> next_{0};                   // the next task to take
    std::atomic<bool> failed_{false};
    std::vector<std::thread> pool_;
    std::mutex mutex_;
    std::condition_variable ended_;
    int running_ = 0;
    double searchSeconds_ = 0;
    State state_ = State::Running;
    std::string error_;
    uint64_t count_ = 0;
};

}  // namespace polycube
