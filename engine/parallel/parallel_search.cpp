// ParallelSearch (parallel/parallel_search.hpp). Over 600 lines for a reason: the shared pool,
// the ordered output, the threads' start and their signal mask are the parts of one protocol
// between the threads (who takes, who donates, who prints, when the search ends), read
// together when one of them changes; each part is a class of its own here, with its comment.
#include "parallel/parallel_search.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>
#include <new>
#include <system_error>
#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif
#if defined(__unix__) && !defined(__EMSCRIPTEN__)
#include <csignal>
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace polycube {

namespace {

// Placements per slice: about a millisecond of FILA, so a waiting thread gets work (and
// cancel is seen) within a millisecond or so; the slice itself costs two clock readings.
constexpr long long kSlice = 1 << 15;
// While a thread waits for work, or has not come yet (its solver's setup still running),
// slices of about 20 us: a full first slice of the whole tree (milliseconds on 10x6, with the
// root's start) would keep the second thread waiting for its first piece.
constexpr long long kShortSlice = 1 << 10;
// ... and at most this long (Solver::step's maxSeconds: the clock is read between chunks of
// the budget, from 1 unit up). The budget alone is in units whose cost the solver estimates
// (Solver::dlxCost_ for a placement), and that estimate can be far off: 5000 1x20 bars in a
// 1000x100 box cost about 2 ms per placement, so by the budget alone one kSlice slice lasts
// over a second and a second thread sees cancel that late. Where the budget's estimate
// holds, the budget ends the slice first.
constexpr double kSliceSeconds = 0.002;
constexpr double kShortSliceSeconds = 0.0002;
// Setup slices of the other threads' solvers (SearchThreads): between two, SearchThreads's
// cancel flag is polled (the solver's own flag, between its setup units).
constexpr double kSetupSliceSeconds = 0.005;
// How long a thread with nothing to do spins before it sleeps (Pool::take).
constexpr int kSpinMs = 2;
// What a thread costs besides its solver: in memory, its stack's touched pages and its
// allocator arena's (about 1 MB a thread: 10x6 at -j 4096 takes about 4 GB); in address space
// (ulimit -v) its whole 8 MiB stack and glibc's 64 MiB arena reservation.
constexpr long long kThreadBytes = 1LL << 20;
constexpr long long kThreadAddressBytes = 72LL << 20;

bool addressSpaceLimited() {
#if defined(__unix__) && !defined(__EMSCRIPTEN__)
    struct rlimit rl;
    return getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY;
#else
    return false;
#endif
}

}  // namespace

// A subproblem waiting for a thread: its path, its share of the whole tree (for the progress
// estimate) and, in ordered mode, its node of OrderedOutput (-1: none).
struct QueuedPiece {
    std::vector<int> path;
    double share = 0;
    int node = -1;
};

// setOrdered: the solutions in the one-thread order. The pieces form a tree (a piece's
// children are the paths it gave away). The one-thread search meets a piece's own solutions
// first: everything it gave away lies after the branch it kept at that level. Then come its
// children, the latest batch first (a donation gives the untried siblings of the shallowest
// open level, the last ones of a DLX level when capped, so a later batch lies deeper than an
// earlier one, or before it at the same level), each batch in its own order. A cursor walks
// that order: the piece under it prints as it finds; the others keep their solutions (image
// ids only: the grid is made again when printed) until the cursor reaches them. Called
// under the pool's output lock.
class ParallelSearch::OrderedOutput {
public:
    using Emit = std::function<void(const Solution&)>;
    int add(int parent) {
        nodes_.push_back(Node{parent, {}, 0, false, {}});
        return static_cast<int>(nodes_.size()) - 1;
    }
    // A batch `parent` gave away, in its order: ahead of its earlier batches.
    std::vector<int> addBatch(int parent, size_t n) {
        std::vector<int> ids;
        for (size_t k = 0; k < n; ++k) ids.push_back(add(parent));
        std::vector<int>& children = nodes_[static_cast<size_t>(parent)].children;
        children.insert(children.begin(), ids.begin(), ids.end());
        return ids;
    }
    void found(int node, const Solution& s, const Emit& emit) {
        if (node == cursor_) {
            emit(s);
            return;
        }
        Solution kept;
        kept.images = s.images;
        nodes_[static_cast<size_t>(node)].kept.push_back(std::move(kept));
    }
    void finished(int node, const Emit& emit, const Solver& solver) {
        nodes_[static_cast<size_t>(node)].finished = true;
        while (nodes_[static_cast<size_t>(cursor_)].finished) {
            Node& at = nodes_[static_cast<size_t>(cursor_)];
            if (at.next < at.children.size()) {
                cursor_ = at.children[at.next++];
                Node& child = nodes_[static_cast<size_t>(cursor_)];
                for (Solution& k : child.kept) {
                    k.grid = solver.gridOf(k.images);
                    emit(k);
                }
                child.kept.clear();
                child.kept.shrink_to_fit();
            } else if (at.parent >= 0) {
                cursor_ = at.parent;  // (finished: its next child, if any)
            } else {
                return;  // the whole tree is done
            }
        }
    }

private:
    struct Node {
        int parent;
        std::vector<int> children;  // in the one-thread order
        size_t next;                // the next child the cursor visits
        bool finished;
        std::vector<Solution> kept;
    };
    std::vector<Node> nodes_;
    int cursor_ = 0;
};

// The shared work: subproblems not yet taken, and how many threads are searching one.
struct ParallelSearch::Pool {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<QueuedPiece> queue;
    std::atomic<int> busy{0};  // changed under `mutex`; read without it while spinning
    // Progress: the share of the tree done by finished pieces (under `output`), and each
    // thread's running piece as last published (weight x fractionDone), read by thread 0.
    double finishedShare = 0;
    std::vector<std::atomic<double>> runningShare;
    // Checkpointed mode: the statistics of the finished pieces (under `output`), and the
    // piece each thread is searching (set by take() under `mutex`, cleared when the piece is
    // finished, under both), so that a checkpoint (taken under both) sees every piece exactly
    // once: queued, in flight, or finished.
    bool pieces = false;
    SolverStats finishedStats;
    std::vector<std::pair<std::vector<int>, double>> inFlight;
    std::vector<char> flying;
    explicit Pool(int threads) : runningShare(threads), inFlight(threads), flying(threads, 0) {
        for (auto& r : runningShare) r.store(0, std::memory_order_relaxed);
    }
    // Read without the lock between slices (a hint only): threads waiting, paths queued.
    std::atomic<int> waiting{0}, queued{0};
    std::atomic<int> arrived{0};  // threads that have come to search (their setup over)

    std::mutex output;  // solutions, merged statistics, errors
    long long reported = 0;  // solutions handed on (numbered)
    long long found = 0;     // found (ordered: some wait for their turn)
    SolverStats merged;
    double idleSeconds = 0;

    // The next subproblem, waiting while others are busy (they may donate). false when the
    // tree is done (nothing queued, nobody busy) or on cancel.
    bool take(int thread, QueuedPiece& piece, const std::atomic<bool>& cancel) {
        waiting.fetch_add(1, std::memory_order_relaxed);
        // Spin a little before sleeping, as OpenMP's and TBB's workers do: the donation it
        // waits for comes within a slice, and a thread woken from a condition variable
        // usually wakes in tens of microseconds but can take milliseconds on a loaded machine.
        const auto spinUntil = std::chrono::steady_clock::now() + std::chrono::milliseconds(kSpinMs);
        while (queued.load(std::memory_order_relaxed) == 0 && busy.load(std::memory_order_relaxed) > 0 &&
               !cancel.load(std::memory_order_relaxed) && std::chrono::steady_clock::now() < spinUntil) {
            std::this_thread::yield();
        }
        std::unique_lock<std::mutex> lock(mutex);
        // The timeout only matters for cancel (set from a signal handler, which cannot notify).
        while (queue.empty() && busy > 0 && !cancel.load(std::memory_order_relaxed))
            changed.wait_for(lock, std::chrono::milliseconds(5));
        waiting.fetch_sub(1, std::memory_order_relaxed);
        if (queue.empty() || cancel.load(std::memory_order_relaxed)) {
            changed.notify_all();
            return false;
        }
        piece = std::move(queue.front());
        queue.pop_front();
        if (pieces) {
            inFlight[thread] = {piece.path, piece.share};
            flying[thread] = 1;
        }
        queued.fetch_sub(1, std::memory_order_relaxed);
        ++busy;
        return true;
    }
    // nodes: the paths' OrderedOutput nodes (empty: not ordered)
    void put(std::vector<std::vector<int>>& paths, double shareEach, const std::vector<int>& nodes) {
        std::lock_guard<std::mutex> lock(mutex);
        for (size_t k = 0; k < paths.size(); ++k)
            queue.push_back({std::move(paths[k]), shareEach, nodes.empty() ? -1 : nodes[k]});
        queued.fetch_add(static_cast<int>(paths.size()), std::memory_order_relaxed);
        changed.notify_all();
    }
    void finished() {
        std::lock_guard<std::mutex> lock(mutex);
        if (--busy == 0 && queue.empty()) changed.notify_all();
    }
    // Someone waits, or has yet to come (its setup still running, or its thread still waiting
    // for a CPU), and nothing is queued for them. Counting the threads still to come makes the
    // first donation independent of when the others get a CPU: on a loaded machine the first
    // thread could otherwise end a short search alone.
    bool hungry(int threads) const {
        const int toCome = std::max(0, threads - arrived.load(std::memory_order_relaxed));
        return waiting.load(std::memory_order_relaxed) + toCome > queued.load(std::memory_order_relaxed);
    }
    // A thread's next slice: placements and seconds, whichever ends first (checkpointed
    // pieces are not shared: long ones).
    struct Slice {
        long long budget;
        double seconds;
    };
    Slice slice(int threads) const {
        const bool soon = !pieces && hungry(threads);
        return soon ? Slice{kShortSlice, kShortSliceSeconds} : Slice{kSlice, kSliceSeconds};
    }
};

namespace {

// A new thread can wait milliseconds for a CPU while its maker computes: the kernel may place
// it on the maker's CPU until the load balancer moves it (on a small VM, about half of the
// creations under a spinning maker start late); allowed only the other CPUs, it starts almost
// at once. So each new thread starts on a CPU other than its maker's, then is given back the process's
// CPUs (it is not pinned: the kernel may move it later). Whichever of the maker and the thread comes
// second restores the mask (`settled`), so the thread cannot be left narrowed.
class OtherCpuStart {
public:
    OtherCpuStart() {
#if defined(__linux__)
        CPU_ZERO(&all_);
        if (sched_getaffinity(0, sizeof(all_), &all_) != 0) return;
        const int here = sched_getcpu();
        CPU_ZERO(&others_);
        for (int c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &all_) && c != here) CPU_SET(c, &others_);
        usable_ = here >= 0 && CPU_COUNT(&others_) > 0;
#endif
    }
    // The maker, right after making `thread`.
    void made(std::thread& thread, std::atomic<bool>& settled) const {
#if defined(__linux__)
        if (!usable_) return;
        pthread_setaffinity_np(thread.native_handle(), sizeof(others_), &others_);
        if (settled.exchange(true)) pthread_setaffinity_np(thread.native_handle(), sizeof(all_), &all_);
#else
        (void)thread;
        (void)settled;
#endif
    }
    // The thread, first thing.
    void started(std::atomic<bool>& settled) const {
#if defined(__linux__)
        if (usable_ && settled.exchange(true)) pthread_setaffinity_np(pthread_self(), sizeof(all_), &all_);
#else
        (void)settled;
#endif
    }

private:
#if defined(__linux__)
    cpu_set_t all_, others_;
    bool usable_ = false;
#endif
};

// While alive, SIGINT and SIGTERM are blocked on the calling thread, so that the threads it
// starts inherit them blocked: a front end's signal handler (the CLI's Ctrl-C) then runs on
// the thread that began the search only, one signal at a time. Taken on two search threads at
// once, the two copies of one Ctrl-C that timeout(1) or a terminal send both saw the other as
// a second Ctrl-C and killed the run without its statistics. A signal sent while the threads
// are being started waits, and is taken when the mask is restored.
class SignalsHeldBack {
public:
#if defined(__unix__) && !defined(__EMSCRIPTEN__)
    SignalsHeldBack() {
        sigset_t both;
        sigemptyset(&both);
        sigaddset(&both, SIGINT);
        sigaddset(&both, SIGTERM);
        held_ = pthread_sigmask(SIG_BLOCK, &both, &before_) == 0;
    }
    ~SignalsHeldBack() {
        if (held_) pthread_sigmask(SIG_SETMASK, &before_, nullptr);
    }

private:
    sigset_t before_{};
    bool held_ = false;
#endif
};

}  // namespace

SearchThreads::SearchThreads(const PuzzleDef& def, const SolverOptions& options, int count)
    : slots_(static_cast<size_t>(std::max(0, count))) {
    const OtherCpuStart start;
    const SignalsHeldBack signalsOnTheCallerOnly;
    for (size_t k = 0; k < slots_.size(); ++k) {
        Slot& slot = slots_[k];
        try {
            // Each thread copies what it needs (Solver::begin keeps its own copy of both).
            slot.thread = std::thread([this, &slot, k, start, def, options] {
                start.started(slot.settled);
                live(slot, static_cast<int>(k), def, options);
            });
            start.made(slot.thread, slot.settled);
        } catch (const std::exception& e) {  // std::system_error (no more threads), std::bad_alloc
            std::lock_guard<std::mutex> lock(mutex_);
            slot.error = "cannot start thread " + std::to_string(k + 2) + ": " + e.what();
            slot.setupEnded = true;
        }
    }
}

long long SearchThreads::memoryBudget() {
    // Half the physical memory: the threads' solvers are not alone (FILA's tables grow during
    // the search, up to ModelLimits::maxTotalBytes less the model's, and other programs run),
    // yet -j on a big puzzle should still use several cores. Under an address-space limit
    // (ulimit -v), three quarters of it: the program, the allocator's reserves and the
    // solutions take the rest. Not the memory available now, which changes from run to run
    // (the same command would get different thread counts).
    long long budget = 0;
#if defined(__unix__) && !defined(__EMSCRIPTEN__)
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && pageSize > 0) budget = static_cast<long long>(pages) * pageSize / 2;
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        const long long limited = static_cast<long long>(rl.rlim_cur / 4 * 3);
        budget = budget > 0 ? std::min(budget, limited) : limited;
    }
#endif
    return budget;
}

int SearchThreads::threadsFor(long long budget, long long bytesPerSolver, int asked) {
    if (budget <= 0 || bytesPerSolver <= 0) return std::max(1, asked);
    return static_cast<int>(std::max(1LL, std::min<long long>(asked, budget / bytesPerSolver)));
}

void SearchThreads::sized(long long bytes) {
    if (allowed_ != 0) return;
    solverBytes_ = bytes + (addressSpaceLimited() ? kThreadAddressBytes : kThreadBytes);
    allowed_ = threadsFor(memoryBudget(), solverBytes_, count() + 1);
    changed_.notify_all();
}

void SearchThreads::solverSetUp(const Solver& solver) {
    std::lock_guard<std::mutex> lock(mutex_);
    sized(solver.memoryBytes());
}

int SearchThreads::allowedThreads() {
    std::lock_guard<std::mutex> lock(mutex_);
    return allowed_ > 0 ? allowed_ : count() + 1;
}

long long SearchThreads::solverBytes() {
    std::lock_guard<std::mutex> lock(mutex_);
    return solverBytes_;
}

std::string SearchThreads::setupError(int k) {
    std::lock_guard<std::mutex> lock(mutex_);
    return slots_.at(static_cast<size_t>(k)).error;
}

void SearchThreads::live(Slot& slot, int k, const PuzzleDef& def, const SolverOptions& options) {
    bool wanted = true;
    if (k > 0) {
        // Only as many solvers as fit in memory (see the class): wait for the first one's
        // size. (wait_for: cancel comes from a signal handler, which cannot notify.)
        std::unique_lock<std::mutex> lock(mutex_);
        while (allowed_ == 0 && !closing_ && !cancel_.load(std::memory_order_relaxed))
            changed_.wait_for(lock, std::chrono::milliseconds(5));
        wanted = allowed_ >= k + 2 && !closing_;
    }
    std::unique_ptr<Solver> s;
    std::string error;
    if (wanted) {
        bool outOfMemory = false;
        long long bytes = 0;
        try {
            s = Solver::begin(def, options);
            // In slices that poll cancel, as the first thread's setup (reliability: a Ctrl-C
            // during a big puzzle's setup must not wait for it to end).
            while (!s->ready() && !cancel_.load(std::memory_order_relaxed)) {
                if (s->step(1LL << 40, kSetupSliceSeconds) != Solver::State::Running) break;
            }
        } catch (const std::bad_alloc&) {
            outOfMemory = true;
        }
        // (Solver::step itself turns std::bad_alloc into a failure saying so.)
        if (s && s->outOfMemory()) outOfMemory = true;
        if (outOfMemory) {
            if (s) bytes = s->memoryBytes();
            s.reset();  // its memory back at once
            // (threads numbered from 1, the primary's: slot k is thread k + 2)
            error = "out of memory while setting up thread " + std::to_string(k + 2) + "'s solver" +
                    (bytes > 0 ? " (each solver's model and matrix take about " + formatBytes(bytes) + ")" : std::string()) +
                    ": fewer threads (-j) need less memory";
        }
    }
    std::function<void()> task;
    {
        std::unique_lock<std::mutex> lock(mutex_);
        if (s && s->ready()) sized(s->memoryBytes());
        if (s && (s->ready() || s->state() == Solver::State::Failed)) slot.solver = std::move(s);
        slot.error = error;
        slot.setupEnded = true;
        changed_.notify_all();
        changed_.wait(lock, [&] { return slot.task || closing_; });
        if (!slot.task) return;
        task = slot.task;
    }
    try {
        task();
    } catch (...) {
        // (ParallelSearch::worker catches its own; no exception may end a thread: terminate)
    }
    std::lock_guard<std::mutex> lock(mutex_);
    slot.taskEnded = true;
    changed_.notify_all();
}

SearchThreads::~SearchThreads() {
    cancel();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        closing_ = true;
        changed_.notify_all();
    }
    for (Slot& slot : slots_)
        if (slot.thread.joinable()) slot.thread.join();
}

std::unique_ptr<Solver> SearchThreads::take(int k) {
    Slot& slot = slots_.at(static_cast<size_t>(k));
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return slot.setupEnded; });
    return std::move(slot.solver);
}

bool SearchThreads::runOn(int k, std::function<void()> task) {
    Slot& slot = slots_.at(static_cast<size_t>(k));
    std::lock_guard<std::mutex> lock(mutex_);
    if (slot.task || closing_ || !slot.thread.joinable()) return false;  // (a second task: a caller's mistake)
    slot.task = std::move(task);
    changed_.notify_all();
    return true;
}

void SearchThreads::waitForTasks() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] {
        return std::all_of(slots_.begin(), slots_.end(), [](const Slot& s) { return !s.task || s.taskEnded; });
    });
}

ParallelSearch::~ParallelSearch() = default;

Result<std::unique_ptr<ParallelSearch>> ParallelSearch::create(const PuzzleDef& def, const SolverOptions& options,
                                                               int threads, std::unique_ptr<Solver> primary,
                                                               const Checkpoint* resume,
                                                               std::unique_ptr<SearchThreads> others) {
  try {
    std::unique_ptr<ParallelSearch> p(new ParallelSearch());
    if (resume) p->resume_ = std::make_unique<Checkpoint>(*resume);
    p->refusal_ = whyNotSplittable(options);
    // The other threads set up while the primary does (below, or already done by the caller).
    if (!others && p->refusal_.empty() && threads > 1) others = std::make_unique<SearchThreads>(def, options, threads - 1);
    if (primary && primary->ready()) {
        p->primary_ = std::move(primary);
    } else {
        Result<std::unique_ptr<Solver>> created = Solver::create(def, options);
        if (!created.ok()) return Result<std::unique_ptr<ParallelSearch>>::error(created.status);
        p->primary_ = std::move(created.value);
    }
    if (p->resume_) {
        // What decoding could not check: that it fits this puzzle, and (--resume, not a job's
        // part) that it is the whole search (parallel/checkpoint.hpp).
        if (Status st = checkResume(*p->resume_, *p->primary_, !options.resume.empty()); !st.ok)
            return Result<std::unique_ptr<ParallelSearch>>::error(st);
    }
    p->threads_ = std::max(1, threads);
    p->threadsAsked_ = p->threads_;
    // Nothing to share when the options forbid it or the puzzle was proved impossible.
    if (!p->refusal_.empty() || !p->primary_->impossibleReason().empty()) p->threads_ = 1;
    if (p->threads_ > 1) {
        // (threads made for another thread count are a caller's mistake: made again here)
        if (!others || others->count() != p->threads_ - 1)
            others = std::make_unique<SearchThreads>(def, options, p->threads_ - 1);
        // As many as fit in memory (SearchThreads: the others wait for this size, unless
        // thread 1's setup gave it first).
        others->solverSetUp(*p->primary_);
        const int allowed = others->allowedThreads();
        if (allowed < p->threads_) {
            p->threads_ = allowed;
            p->capNote_ = "-j " + std::to_string(p->threadsAsked_) + ": " + std::to_string(allowed) + " thread" +
                          (allowed == 1 ? "" : "s") + " (each solver takes about " + formatBytes(others->solverBytes()) +
                          "; the memory budget for them is " + formatBytes(SearchThreads::memoryBudget()) +
                          ": half the physical memory, or 3/4 of the address-space limit)";
        }
        if (p->threads_ > 1) p->others_ = std::move(others);  // (else dropped: its setups cancelled, joined)
    }
    p->kept_.resize(static_cast<size_t>(p->threads_));
    p->searching_ = std::make_unique<std::atomic<Solver*>[]>(static_cast<size_t>(p->threads_));
    for (int k = 0; k < p->threads_; ++k) p->searching_[static_cast<size_t>(k)].store(nullptr);
    p->fingerprint_ = searchFingerprint(*p->primary_);
    return Result<std::unique_ptr<ParallelSearch>>::success(std::move(p));
  } catch (const std::bad_alloc&) {
    return Result<std::unique_ptr<ParallelSearch>>::error("out of memory while setting up the search");
  }
}

void ParallelSearch::cancel() {
    // seq_cst with the worker's publication of its solver (worker): either this sees the
    // solver, or the worker sees cancel_ after publishing it.
    cancel_.store(true);
    if (others_) others_->cancel();
    primary_->cancel();  // at once on the calling thread's solver
    // ... and on every other thread's, at its next placement or filter unit rather than its
    // next slice (a slice is bounded in time, but a unit may be slow).
    for (int k = 0; k < threads_ && searching_; ++k)
        if (Solver* s = searching_[static_cast<size_t>(k)].load()) s->cancel();
}

SolverStats ParallelSearch::threadStats(int k) const {
    if (k == 0) return primary_->stats();
    if (k < 0 || k >= threads_ || !kept_[static_cast<size_t>(k)]) return SolverStats{};
    return kept_[static_cast<size_t>(k)]->stats();
}

void ParallelSearch::fail(const std::string& message) {
    {
        std::lock_guard<std::mutex> lock(pool_->output);
        if (error_.empty()) error_ = message;
    }
    cancel_.store(true, std::memory_order_relaxed);
}

Solver::State ParallelSearch::run() {
    try {
        return runUnguarded();
    } catch (const std::bad_alloc&) {
        // Before the other threads started or after they ended (each worker catches its own):
        // nothing else runs.
        if (error_.empty()) error_ = "out of memory while running the search";
        cancel_.store(true);
        if (others_) {
            others_->cancel();
            others_->waitForTasks();
        }
        return Solver::State::Cancelled;
    }
}

Solver::State ParallelSearch::runUnguarded() {
    const bool pieces = onCheckpoint_ && refusal_.empty() && primary_->impossibleReason().empty();
    if (threads_ == 1 && !pieces) {
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
        if (st == Solver::State::Failed) {  // (out of memory: Solver::step)
            error_ = primary_->error();
            return Solver::State::Cancelled;
        }
        return st;
    }
    const auto t0 = std::chrono::steady_clock::now();
    pool_ = std::make_unique<Pool>(threads_);
    pool_->pieces = pieces;
    if (orderedWanted_ && !pieces && onSolution_) ordered_ = std::make_unique<OrderedOutput>();
    if (!pieces) {
        pool_->queue.push_back({{}, 1.0, ordered_ ? ordered_->add(-1) : -1});  // the whole tree (node 0)
        pool_->queued = 1;
    } else if (!splitIntoPieces()) {
        // Cancelled (or failed) while splitting: nothing counted, the whole tree pending.
        cancel_.store(true, std::memory_order_relaxed);
        pool_->finishedStats = SolverStats{};
        pool_->finishedShare = 0;
        pool_->queue.clear();
        pool_->queue.push_back({{}, 1.0, -1});
    }
    for (int k = 1; k < threads_; ++k)
        if (!others_->runOn(k - 1, [this, k] { worker(k); })) fail(others_->setupError(k - 1));
    worker(0);
    if (others_) others_->waitForTasks();
    stats_ = pieces ? pool_->finishedStats : pool_->merged;
    if (pieces) onCheckpoint_(snapshot());  // the last: nothing pending when done, the unfinished pieces when cancelled
    stats_.setupSeconds = primary_->stats().setupSeconds;
    idleSeconds_ = pool_->idleSeconds;
    stats_.searchSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return cancel_.load() || !error_.empty() ? Solver::State::Cancelled : Solver::State::Done;
}

bool ParallelSearch::splitIntoPieces() {
    Pool& pool = *pool_;
    if (resume_) {
        for (const CheckpointPiece& piece : resume_->pending) pool.queue.push_back({piece.path, piece.share, -1});
        pool.queued = static_cast<int>(pool.queue.size());
        pool.finishedStats = resume_->finished;
        pool.finishedShare = resume_->doneShare;
        pool.reported = resume_->finished.solutions;
        return true;
    }
    // The first solver goes down the tree in short slices and gives away every untried sibling
    // on its way (Solver::donate, level by level from the top), then searches what it kept:
    // the subtree below where it stopped, small. Pieces bigger than kMaxShare are split again
    // the same way, biggest first. What the splitting searched itself is finished work.
    Solver& s = *primary_;
    // Few pieces: each costs a FILA start on its own region (tables built anew), so 256 per
    // thread make the Tetris Cube 2.3x slower; 16 per thread, none over an eighth of a
    // thread's share, cost a few percent (docs/parallel-search.md#checkpoints---checkpoint-file---resume-file).
    // A piece is also what a stopped search searches again on resume.
    const size_t target = splitTarget_ > 0 ? static_cast<size_t>(splitTarget_) : 16 * static_cast<size_t>(threads_);
    const double maxShare = 2.0 / static_cast<double>(target);
    // Its solutions are reported once the splitting is over: cancelled before, it leaves the
    // whole tree pending and has reported nothing.
    std::vector<Solution> found;
    s.setSolutionHandler([&found](const Solution& sol) { found.push_back(sol); });
    auto bigger = [](const std::pair<std::vector<int>, double>& a, const std::pair<std::vector<int>, double>& b) {
        return a.second < b.second;
    };
    std::vector<std::pair<std::vector<int>, double>> heap;  // max-heap by share
    std::vector<std::vector<int>> given;
    auto split = [&](const std::vector<int>& path, double share, size_t want) {
        if (Status st = s.startSubproblem(path); !st.ok) {
            fail(st.message);
            return false;
        }
        size_t made = 0;
        while (made < want && s.step(256, kShortSliceSeconds) == Solver::State::Running) {
            if (cancel_.load(std::memory_order_relaxed)) s.cancel();
            for (;;) {
                given.clear();
                double part = 0;
                const int n = s.donate(given, &part);
                if (n == 0) break;
                for (auto& g : given) {
                    heap.push_back({std::move(g), share * part / n});
                    std::push_heap(heap.begin(), heap.end(), bigger);
                }
                made += static_cast<size_t>(n);
            }
        }
        while (s.state() == Solver::State::Running) {
            if (cancel_.load(std::memory_order_relaxed)) s.cancel();
            s.step(kSlice, kSliceSeconds);
        }
        if (!s.subproblemError().empty()) {
            fail(s.subproblemError());
            return false;
        }
        if (s.state() == Solver::State::Failed) fail(s.error());  // (out of memory: Solver::step)
        if (s.state() != Solver::State::Done) return false;
        pool.finishedShare += share * s.fractionDone();
        return true;
    };
    if (!split({}, 1.0, target)) return false;
    while (!heap.empty() && heap.front().second > maxShare && heap.size() < 4 * target) {
        std::pop_heap(heap.begin(), heap.end(), bigger);
        auto [path, share] = std::move(heap.back());
        heap.pop_back();
        if (!split(path, share, 8)) return false;
    }
    pool.finishedStats = s.stats();  // the splitting's own search (the first solver counted nothing else)
    for (const Solution& sol : found) {
        const long long number = ++pool.reported;
        if (onSolution_) onSolution_(sol, number);
    }
    // Biggest first: the long pieces start early, the short ones fill the end.
    std::sort(heap.begin(), heap.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    for (auto& piece : heap) pool.queue.push_back({std::move(piece.first), piece.second, -1});
    pool.queued = static_cast<int>(pool.queue.size());
    piecesSplit_ = static_cast<long long>(pool.queue.size());
    return true;
}

Checkpoint ParallelSearch::snapshot() const {
    // Every piece exactly once: in flight (searched again on resume), queued, or finished.
    Checkpoint ck;
    ck.fingerprint = fingerprint_;
    ck.finished = pool_->finishedStats;
    ck.doneShare = pool_->finishedShare;
    for (int k = 0; k < threads_; ++k)
        if (pool_->flying[k]) ck.pending.push_back({pool_->inFlight[k].first, pool_->inFlight[k].second});
    for (const auto& q : pool_->queue) ck.pending.push_back({q.path, q.share});
    return ck;
}

bool ParallelSearch::splitOnly(long long pieces, std::vector<CheckpointPiece>& out, double& doneShare) {
    pool_ = std::make_unique<Pool>(threads_);
    pool_->pieces = true;
    splitTarget_ = std::max(1LL, pieces);
    if (!splitIntoPieces()) return false;
    for (auto& q : pool_->queue) out.push_back({std::move(q.path), q.share});
    pool_->queue.clear();
    stats_ = pool_->finishedStats;
    doneShare = pool_->finishedShare;
    return true;
}

void ParallelSearch::worker(int index) {
    // No exception may leave a thread's body (std::terminate): out of memory in the search's
    // own bookkeeping (solutions kept, donated paths) ends the search with an error.
    try {
        workerUnguarded(index);
    } catch (const std::bad_alloc&) {
        fail("out of memory while searching on thread " + std::to_string(index + 1));
    }
}

void ParallelSearch::workerUnguarded(int index) {
    std::unique_ptr<Solver> own;
    Solver* s = primary_.get();
    if (index > 0) {
        // Each thread has its own solver: same puzzle and options, so the same tree; the
        // fingerprint makes sure. Set up on this thread since before the search started.
        own = others_->take(index - 1);
        if (!own) {
            // cancelled during its setup, or out of memory there
            if (const std::string why = others_->setupError(index - 1); !why.empty()) fail(why);
            return;
        }
        if (!own->ready()) return fail(own->error());  // its setup failed
        s = own.get();
        // Published for cancel(), which may run in a signal handler at any time: the solver
        // lives as long as this object (kept), never freed under a concurrent cancel().
        kept_[static_cast<size_t>(index)] = std::move(own);
        searching_[static_cast<size_t>(index)].store(s);
        if (cancel_.load()) s->cancel();
        if (searchFingerprint(*s) != fingerprint_)
            return fail("internal: thread " + std::to_string(index) + " configured the search differently");
    }
    std::vector<Solution> pieceSolutions;  // checkpointed mode: reported when the piece ends
    QueuedPiece piece;                      // the subproblem this thread searches
    // Numbered and handed on (under the output lock).
    const OrderedOutput::Emit emit = [this](const Solution& sol) {
        const long long number = ++pool_->reported;
        if (onSolution_) onSolution_(sol, number);
    };
    if (pool_->pieces) {
        s->setSolutionHandler([&pieceSolutions](const Solution& sol) { pieceSolutions.push_back(sol); });
    } else if (onSolution_ || onProgress_) {
        // (none wanted: no handler, so the solver makes no grid per solution; -q counts only)
        s->setSolutionHandler([this, &piece, &emit](const Solution& sol) {
            std::lock_guard<std::mutex> lock(pool_->output);
            ++pool_->found;
            if (ordered_) ordered_->found(piece.node, sol, emit);
            else emit(sol);
        });
    }
    auto lastCheckpoint = std::chrono::steady_clock::now();
    auto checkpoint = [&] {  // thread 0 only, checkpointed mode
        if (index != 0 || !pool_->pieces) return;
        const auto now = std::chrono::steady_clock::now();
        if (std::chrono::duration<double>(now - lastCheckpoint).count() < checkpointSeconds_) return;
        lastCheckpoint = now;
        Checkpoint ck;
        {
            std::scoped_lock lock(pool_->mutex, pool_->output);
            ck = snapshot();
        }
        onCheckpoint_(ck);
    };
    SolverStats before;
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
            solutions = pool_->pieces ? pool_->reported : pool_->found;
            for (const auto& r : pool_->runningShare) fraction += r.load(std::memory_order_relaxed);
        }
        onProgress_(std::min(1.0, fraction), solutions);
    };
    pool_->arrived.fetch_add(1, std::memory_order_relaxed);
    for (;;) {
        const auto waitStart = std::chrono::steady_clock::now();
        const bool got = pool_->take(index, piece, cancel_);
        idle += std::chrono::duration<double>(std::chrono::steady_clock::now() - waitStart).count();
        if (!got) break;
        ++searched;
        const double weight = piece.share;
        if (Status started = s->startSubproblem(piece.path); !started.ok) {
            pool_->finished();
            fail(started.message);
            break;
        }
        before = s->stats();
        pieceSolutions.clear();
        Solver::State st;
        for (;;) {
            const Pool::Slice slice = pool_->slice(threads_);
            if ((st = s->step(slice.budget, slice.seconds)) != Solver::State::Running) break;
            if (cancel_.load(std::memory_order_relaxed)) {
                s->cancel();
            } else if (!pool_->pieces && pool_->hungry(threads_)) {
                donated.clear();
                double share = 0;
                const int n = s->donate(donated, &share);
                if (n > 0) {
                    ++gave;
                    std::vector<int> nodes;  // (ordered: where they come in the one-thread order)
                    if (ordered_) {
                        std::lock_guard<std::mutex> lock(pool_->output);
                        nodes = ordered_->addBatch(piece.node, donated.size());
                    }
                    pool_->put(donated, weight * share / n, nodes);
                }
            }
            if (onProgress_) {
                pool_->runningShare[index].store(weight * s->fractionDone(), std::memory_order_relaxed);
                progress();
            }
            checkpoint();
        }
        if (pool_->pieces && st == Solver::State::Done && s->subproblemError().empty()) {
            // The piece is finished: its solutions and statistics count from now on, at once
            // for a checkpoint (taken under both locks).
            std::scoped_lock lock(pool_->mutex, pool_->output);
            for (Solution& sol : pieceSolutions) {
                const long long number = ++pool_->reported;
                if (onSolution_) onSolution_(sol, number);
            }
            pool_->finishedStats.add(s->stats());
            pool_->finishedStats.add(before, -1);
            pool_->finishedShare += weight;
            pool_->flying[index] = 0;
            pool_->runningShare[index].store(0, std::memory_order_relaxed);
        } else if (onProgress_ || ordered_) {
            std::lock_guard<std::mutex> lock(pool_->output);
            if (st == Solver::State::Done) pool_->finishedShare += weight * s->fractionDone();  // what it searched, not what it gave away
            pool_->runningShare[index].store(0, std::memory_order_relaxed);
            // (a piece stopped midway holds the cursor: what comes after it is not printed)
            if (ordered_ && st == Solver::State::Done && s->subproblemError().empty())
                ordered_->finished(piece.node, emit, *primary_);
        }
        pool_->finished();
        if (!s->subproblemError().empty()) {
            // (in a resumed search, the piece came from the checkpoint file: say which)
            fail((pool_->pieces && resume_ && !resume_->source.empty() ? resume_->source + ": a piece's path: " : std::string()) +
                 s->subproblemError());
            break;
        }
        if (st == Solver::State::Failed) {  // (out of memory: Solver::step)
            fail("thread " + std::to_string(index + 1) + ": " + s->error());
            break;
        }
        if (st != Solver::State::Done) break;  // cancelled
    }
    std::lock_guard<std::mutex> lock(pool_->output);
    // A solver's statistics add up over the subproblems it searched (and count nothing else).
    pool_->merged.add(s->stats());
    subproblems_ += searched;
    pool_->idleSeconds += idle;
    donations_ += gave;
}

}  // namespace polycube
