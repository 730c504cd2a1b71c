#include "memo/parallel_memo.hpp"

#include <algorithm>
#include <chrono>
#include <new>

namespace polycube {

namespace {
using Clock = std::chrono::steady_clock;
// Image attempts per slice of a thread's task: between two publications of its share done.
constexpr long long kThreadSlice = 1 << 20;
// Image attempts per slice of the one-thread count: the clock is read between slices.
constexpr long long kOneThreadSlice = 1 << 20;
}  // namespace

std::unique_ptr<ParallelMemo> ParallelMemo::begin(const PuzzleDef& def, const MemoSettings& settings, int threads,
                                                  const ModelLimits& limits) {
    std::unique_ptr<ParallelMemo> p(new ParallelMemo());
    // Listing solutions by number walks the whole count's table: one thread counts then (the
    // threads' tables are their own, and the setup's is given up to them). The placements'
    // count (placement_counts.hpp) runs on one thread too.
    p->threads_ = threads < 1 || settings.picks() || settings.placementCounts ? 1 : threads;
    // The layered count shares each layer among its threads; the table's search (listing
    // solutions, or layered = false) partitions the terms.
    MemoSettings mine = settings;
    if (mine.layered && !mine.picks()) mine.threads = p->threads_;
    else p->partitioned_ = p->threads_ > 1;
    p->counter_ = MemoCounter::begin(def, mine, limits);
    p->adopt(*p->counter_);
    return p;
}

ParallelMemo::~ParallelMemo() {
    if (pool_.empty()) return;
    counter_->cancel();
    for (std::thread& t : pool_) t.join();
}

void ParallelMemo::adopt(const MemoCounter& c) {
    state_ = c.state();
    if (state_ == State::Failed) error_ = c.error();
    if (state_ == State::Done) count_ = c.count();
}

MemoCounter::State ParallelMemo::prepare() {
    while (state_ == State::Running && !counter_->ready()) {
        counter_->step(1LL << 40);  // the setup, in its own units (a cancel is seen between them)
        adopt(*counter_);
    }
    return state_;
}

MemoCounter::State ParallelMemo::run(double seconds) {
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    const auto late = [&] { return seconds > 0 && Clock::now() >= deadline; };
    if (prepare() != State::Running) return state_;
    // One thread, or nothing to count (proved impossible): the counter's own search.
    if (!started_ && (!partitioned_ || counter_->phase_ != MemoCounter::kSearch)) {
        do counter_->step(kOneThreadSlice);
        while (counter_->state() == State::Running && !late());
        adopt(*counter_);
        return state_;
    }
    if (!started_ && !startThreads()) return state_;
    std::unique_lock<std::mutex> lock(mutex_);
    if (seconds > 0) ended_.wait_until(lock, deadline, [&] { return running_ == 0; });
    else ended_.wait(lock, [&] { return running_ == 0; });
    const bool over = running_ == 0;
    lock.unlock();
    if (over) finish();
    return state_;
}

MemoCounter::State ParallelMemo::step(long long& budget) {
    if (prepare() != State::Running) return state_;
    if (partitioned_) {  // (not a layered count: run() times its threads)
        state_ = State::Failed;
        error_ = "ParallelMemo::step is for a layered count";
        return state_;
    }
    const long long before = counter_->stats().attempts;
    counter_->step(std::max<long long>(budget, 1));
    budget -= counter_->stats().attempts - before;
    adopt(*counter_);
    return state_;
}

void ParallelMemo::addThreads(int threads) {
    if (partitioned_ || threads <= threads_) return;
    threads_ = threads;
    counter_->addThreads(threads);
}

// Splits the terms, gives each thread its counter (the setup's model and terms, a table of an
// equal share of the budget) and starts them.
bool ParallelMemo::startThreads() {
    started_ = true;
    const auto t0 = Clock::now();
    try {
        plan_ = counter_->splitTerms(threads_ * kTasksPerThread);
        counter_->takeTableStats();
        counter_->table_.release();  // (the setup's table: the threads' shares are the whole budget)
        adopt(*counter_);
        if (state_ != State::Running) return false;
        const long long share = counter_->settings_.maxTableBytes / threads_;
        for (int i = 0; i < threads_; ++i) {
            std::unique_ptr<MemoCounter> w(new MemoCounter());
            w->settings_ = counter_->settings_;
            w->setup_ = counter_.get();
            w->stop_ = &counter_->cancel_;
            w->taskMode_ = true;
            w->phase_ = MemoCounter::kSearch;
            w->stats_.maxTableBytes = share;
            if (Status st = w->table_.reset(static_cast<int>(counter_->key_.size()), share); !st.ok) {
                state_ = State::Failed;
                error_ = "-j " + std::to_string(threads_) + ": each thread's table (an equal share of the budget): " + st.message;
                return false;
            }
            w->key_.assign(counter_->key_.size(), 0);
            workers_.push_back(std::move(w));
        }
    } catch (const std::bad_alloc&) {
        state_ = State::Failed;
        error_ = "out of memory while splitting the memoized count among the threads";
        return false;
    }
    results_.assign(plan_.tasks.size(), 0);
    done_.reset(new std::atomic<double>[threads_]);
    for (int i = 0; i < threads_; ++i) done_[i].store(0);
    running_ = threads_;
    for (int i = 0; i < threads_; ++i) pool_.emplace_back([this, i] { work(i); });
    searchSeconds_ = std::chrono::duration<double>(Clock::now() - t0).count();
    return true;
}

// A thread: takes the next task until none is left, the count is cancelled, or a thread failed
// (which cancels the others).
void ParallelMemo::work(int worker) {
    const auto t0 = Clock::now();
    MemoCounter& w = *workers_[worker];
    double doneWeight = 0;
    try {
        for (size_t k; w.state() == State::Running && (k = next_.fetch_add(1)) < plan_.tasks.size();) {
            const MemoCounter::Task& task = plan_.tasks[k];
            uint64_t result = 0;
            bool over = false;
            while (!over && w.state() == State::Running) {
                long long budget = kThreadSlice;
                over = w.countTask(task, budget, result);
                done_[worker].store(doneWeight + task.weight * (over ? 1 : w.treeFraction()), std::memory_order_relaxed);
            }
            if (!over) break;
            results_[k] = result;
            doneWeight += task.weight;
        }
    } catch (const std::bad_alloc&) {
        w.fail("out of memory while counting");
    }
    if (w.state() == State::Failed) {
        failed_.store(true);
        counter_->cancel();
    }
    w.takeTableStats();
    w.stats_.searchSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
    std::lock_guard<std::mutex> lock(mutex_);
    --running_;
    ended_.notify_all();
}

// Every thread has ended: a failure, a cancel, or the sum of every term's counts.
void ParallelMemo::finish() {
    for (std::thread& t : pool_) t.join();
    pool_.clear();
    double longest = 0;
    for (const auto& w : workers_) longest = std::max(longest, w->stats_.searchSeconds);
    searchSeconds_ += longest;
    if (failed_.load()) {
        for (const auto& w : workers_)
            if (w->state() == State::Failed) {
                state_ = State::Failed;
                error_ = w->error();
                return;
            }
    }
    for (const auto& w : workers_)
        if (w->state() == State::Cancelled) {
            state_ = State::Cancelled;
            return;
        }
    std::vector<uint64_t> sums = plan_.termSums;
    for (size_t k = 0; k < plan_.tasks.size(); ++k) {
        uint64_t& s = sums[plan_.tasks[k].term];
        if (__builtin_add_overflow(s, results_[k], &s)) {
            state_ = State::Failed;
            error_ = "the count passes 2^64";
            return;
        }
    }
    const uint64_t total = counter_->combineTerms(sums);
    if (counter_->state() == State::Failed) {
        adopt(*counter_);
        return;
    }
    counter_->count_ = total;
    counter_->phase_ = MemoCounter::kFinished;
    counter_->state_ = State::Done;
    counter_->stats_.termsDone = counter_->stats_.terms;
    adopt(*counter_);
}

MemoStats ParallelMemo::stats() const {
    MemoStats s = counter_->stats();
    if (!started_) return s;
    s.searchSeconds = searchSeconds_;
    if (!pool_.empty()) return s;  // (the threads' figures are theirs until they end)
    s.lookups = s.hits = s.evictions = s.entries = s.tableBytes = 0;
    for (const auto& w : workers_) {
        const MemoStats& t = w->stats_;
        s.attempts += t.attempts;
        s.placements += t.placements;
        s.pockets += t.pockets;
        s.lookups += t.lookups;
        s.hits += t.hits;
        s.evictions += t.evictions;
        s.entries += t.entries;
        s.tableBytes += t.tableBytes;
    }
    return s;
}

// The share settled while splitting, and each thread's: the tasks it counted and its share of
// the one it counts (its weight times the task's tree fraction). At the end the tasks' weights
// and the settled share sum to 1 (not forced: ParallelMemo.TheShareDoneGrowsToOne checks it).
double ParallelMemo::fractionDone() const {
    if (!started_) return counter_->fractionDone();
    double f = plan_.settled;
    for (int i = 0; done_ && i < threads_; ++i) f += done_[i].load(std::memory_order_relaxed);
    return std::min(1.0, std::max(0.0, f));
}

}  // namespace polycube
