#include "parallel/parallel_search.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace polycube {

namespace {

// Placements per slice: about a millisecond of FILA, so a waiting thread gets work (and
// cancel is seen) within a millisecond or so; the slice itself costs two clock readings.
constexpr long long kSlice = 1 << 15;

void addStats(SolverStats& to, const SolverStats& from) {
    auto add = [](std::vector<long long>& a, const std::vector<long long>& b) {
        if (a.size() < b.size()) a.resize(b.size(), 0);
        for (size_t i = 0; i < b.size(); ++i) a[i] += b[i];
    };
    to.solutions += from.solutions;
    to.found += from.found;
    to.redundant += from.redundant;
    to.monteCarloTrials += from.monteCarloTrials;
    SolverStats::forEachLevelCounter(to, from, add);
}

}  // namespace

// The shared work: subproblems not yet taken, and how many threads are searching one.
struct ParallelSearch::Pool {
    std::mutex mutex;
    std::condition_variable changed;
    // Subproblems with their share of the whole tree (for the progress estimate).
    std::deque<std::pair<std::vector<int>, double>> queue;
    int busy = 0;
    // Progress: the share of the tree done by finished pieces (under `output`), and each
    // thread's running piece as last published (weight x fractionDone), read by thread 0.
    double finishedShare = 0;
    std::vector<std::atomic<double>> runningShare;
    explicit Pool(int threads) : runningShare(threads) {
        for (auto& r : runningShare) r.store(0, std::memory_order_relaxed);
    }
    // Read without the lock between slices (a hint only): threads waiting, paths queued.
    std::atomic<int> waiting{0}, queued{0};

    std::mutex output;  // solutions, merged statistics, errors
    long long reported = 0;
    SolverStats merged;
    double idleSeconds = 0;

    // The next subproblem, waiting while others are busy (they may donate). false when the
    // tree is done (nothing queued, nobody busy) or on cancel.
    bool take(std::vector<int>& path, double& share, const std::atomic<bool>& cancel) {
        std::unique_lock<std::mutex> lock(mutex);
        waiting.fetch_add(1, std::memory_order_relaxed);
        // The timeout only matters for cancel (set from a signal handler, which cannot notify).
        while (queue.empty() && busy > 0 && !cancel.load(std::memory_order_relaxed))
            changed.wait_for(lock, std::chrono::milliseconds(5));
        waiting.fetch_sub(1, std::memory_order_relaxed);
        if (queue.empty() || cancel.load(std::memory_order_relaxed)) {
            changed.notify_all();
            return false;
        }
        path = std::move(queue.front().first);
        share = queue.front().second;
        queue.pop_front();
        queued.fetch_sub(1, std::memory_order_relaxed);
        ++busy;
        return true;
    }
    void put(std::vector<std::vector<int>>& paths, double shareEach) {
        std::lock_guard<std::mutex> lock(mutex);
        for (auto& p : paths) queue.push_back({std::move(p), shareEach});
        queued.fetch_add(static_cast<int>(paths.size()), std::memory_order_relaxed);
        changed.notify_all();
    }
    void finished() {
        std::lock_guard<std::mutex> lock(mutex);
        if (--busy == 0 && queue.empty()) changed.notify_all();
    }
    // Someone waits and nothing is queued for them.
    bool hungry() const {
        return waiting.load(std::memory_order_relaxed) > queued.load(std::memory_order_relaxed);
    }
};

ParallelSearch::~ParallelSearch() = default;

Result<std::unique_ptr<ParallelSearch>> ParallelSearch::create(const PuzzleDef& def, const SolverOptions& options,
                                                               int threads, std::unique_ptr<Solver> primary) {
    std::unique_ptr<ParallelSearch> p(new ParallelSearch());
    p->def_ = def;
    p->options_ = options;
    if (primary && primary->ready()) {
        p->primary_ = std::move(primary);
    } else {
        Result<std::unique_ptr<Solver>> created = Solver::create(def, options);
        if (!created.ok()) return Result<std::unique_ptr<ParallelSearch>>::error(created.status);
        p->primary_ = std::move(created.value);
    }
    p->threads_ = std::max(1, threads);
    p->refusal_ = whyNotSplittable(options);
    // Nothing to share when the options forbid it or the puzzle was proved impossible.
    if (!p->refusal_.empty() || !p->primary_->impossibleReason().empty()) p->threads_ = 1;
    if (p->threads_ > 1) p->fingerprint_ = searchFingerprint(*p->primary_);
    return Result<std::unique_ptr<ParallelSearch>>::success(std::move(p));
}

void ParallelSearch::cancel() {
    cancel_.store(true, std::memory_order_relaxed);
    primary_->cancel();  // at once on the calling thread's solver; the others at their next slice
}

void ParallelSearch::fail(const std::string& message) {
    {
        std::lock_guard<std::mutex> lock(pool_->output);
        if (error_.empty()) error_ = message;
    }
    cancel_.store(true, std::memory_order_relaxed);
}

Solver::State ParallelSearch::run() {
    if (threads_ == 1) {
        // Exactly the one-thread search (numbers and order as without -j).
        primary_->setSolutionHandler([this](const Solution& s) {
            if (onSolution_) onSolution_(s, s.number);
        });
        Solver::State st;
        if (onProgress_) {
            // Slices of progressSeconds_ (the slice reads the clock between chunks: the
            // search itself is the same).
            while ((st = primary_->step(1LL << 40, progressSeconds_)) == Solver::State::Running)
                onProgress_(primary_->fractionDone(), primary_->stats().solutions);
        } else {
            while ((st = primary_->step(1LL << 40)) == Solver::State::Running) {
            }
        }
        stats_ = primary_->stats();
        subproblems_ = 1;
        return st;
    }
    const auto t0 = std::chrono::steady_clock::now();
    pool_ = std::make_unique<Pool>(threads_);
    pool_->queue.push_back({{}, 1.0});  // the whole tree
    pool_->queued = 1;
    std::vector<std::thread> others;
    for (int k = 1; k < threads_; ++k) others.emplace_back([this, k] { worker(k); });
    worker(0);
    for (std::thread& t : others) t.join();
    stats_ = pool_->merged;
    stats_.setupSeconds = primary_->stats().setupSeconds;
    idleSeconds_ = pool_->idleSeconds;
    stats_.searchSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return cancel_.load() || !error_.empty() ? Solver::State::Cancelled : Solver::State::Done;
}

void ParallelSearch::worker(int index) {
    std::unique_ptr<Solver> own;
    Solver* s = primary_.get();
    if (index > 0) {
        // Each thread sets up its own solver (in parallel with the others): same puzzle and
        // options, so the same tree; the fingerprint makes sure.
        // Setup in slices that poll cancel: a Ctrl-C during a big puzzle's setup on this
        // thread must not wait for it to end (reliability: every phase sees cancel).
        own = Solver::begin(def_, options_);
        while (!own->ready()) {
            if (cancel_.load(std::memory_order_relaxed)) return;
            const Solver::State st = own->step(1LL << 40, 0.02);
            if (st == Solver::State::Failed) return fail(own->error());
            if (st != Solver::State::Running) return;
        }
        s = own.get();
        if (searchFingerprint(*s) != fingerprint_)
            return fail("internal: thread " + std::to_string(index) + " configured the search differently");
    }
    s->setSolutionHandler([this](const Solution& sol) {
        std::lock_guard<std::mutex> lock(pool_->output);
        const long long number = ++pool_->reported;
        if (onSolution_) onSolution_(sol, number);
    });
    std::vector<int> path;
    double weight = 0;
    std::vector<std::vector<int>> donated;
    long long searched = 0, gave = 0;
    double idle = 0;
    auto lastProgress = std::chrono::steady_clock::now();
    auto progress = [&] {  // thread 0 only: the whole tree's share done, now and then
        if (index != 0 || !onProgress_) return;
        const auto now = std::chrono::steady_clock::now();
        if (std::chrono::duration<double>(now - lastProgress).count() < progressSeconds_) return;
        lastProgress = now;
        double fraction;
        long long solutions;
        {
            // Under the lock that moves a finished piece's share from running to finished.
            std::lock_guard<std::mutex> lock(pool_->output);
            fraction = pool_->finishedShare;
            solutions = pool_->reported;
            for (const auto& r : pool_->runningShare) fraction += r.load(std::memory_order_relaxed);
        }
        onProgress_(std::min(1.0, fraction), solutions);
    };
    for (;;) {
        const auto waitStart = std::chrono::steady_clock::now();
        const bool got = pool_->take(path, weight, cancel_);
        idle += std::chrono::duration<double>(std::chrono::steady_clock::now() - waitStart).count();
        if (!got) break;
        ++searched;
        if (Status started = s->startSubproblem(path); !started.ok) {
            pool_->finished();
            fail(started.message);
            break;
        }
        Solver::State st;
        while ((st = s->step(kSlice)) == Solver::State::Running) {
            if (cancel_.load(std::memory_order_relaxed)) {
                s->cancel();
            } else if (pool_->hungry()) {
                donated.clear();
                double share = 0;
                const int n = s->donate(donated, &share);
                if (n > 0) {
                    ++gave;
                    pool_->put(donated, weight * share / n);
                }
            }
            if (onProgress_) {
                pool_->runningShare[index].store(weight * s->fractionDone(), std::memory_order_relaxed);
                progress();
            }
        }
        if (onProgress_) {
            std::lock_guard<std::mutex> lock(pool_->output);
            pool_->finishedShare += weight * s->fractionDone();  // what it searched, not what it gave away
            pool_->runningShare[index].store(0, std::memory_order_relaxed);
        }
        pool_->finished();
        if (!s->subproblemError().empty()) {
            fail(s->subproblemError());
            break;
        }
        if (st != Solver::State::Done) break;  // cancelled
    }
    std::lock_guard<std::mutex> lock(pool_->output);
    // A solver's statistics add up over the subproblems it searched (and count nothing else).
    addStats(pool_->merged, s->stats());
    subproblems_ += searched;
    pool_->idleSeconds += idle;
    donations_ += gave;
}

}  // namespace polycube
