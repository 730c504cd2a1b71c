// Out of memory (QA, -j and ulimit -v): every thread built its own solver, so the 768 MiB
// per-solver limit multiplied with -j, and a std::bad_alloc escaped a worker thread or the
// engine's API and aborted the process (exit 134). Now it is an error value, and the threads'
// solvers share one memory budget (SearchThreads).
//
// Allocation failures are injected here by replacing the global operator new for this test
// binary: off (the default) it is malloc; on, allocations of at least `from` bytes throw
// std::bad_alloc, on every thread or on every thread but the test's own.
#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "parallel/parallel_search.hpp"
#include "test_support.hpp"

namespace {
std::atomic<int> gFailMode{0};  // 0 off, 1 every thread, 2 every thread but exempt ones
std::atomic<size_t> gFailFrom{0};
thread_local bool tExempt = false;
}  // namespace

void* operator new(std::size_t n) {
    const int mode = gFailMode.load(std::memory_order_relaxed);
    if (mode != 0 && n >= gFailFrom.load(std::memory_order_relaxed) && !(mode == 2 && tExempt)) throw std::bad_alloc();
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
// Every other unaligned form goes through the two above, so that whatever allocates frees
// the same way: under ASan, whose runtime defines all of them, a nothrow new left to ASan
// and freed by the delete above was an alloc-dealloc mismatch (std::stable_sort's buffer).
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return ::operator new(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void* operator new[](std::size_t n, const std::nothrow_t& tag) noexcept { return ::operator new(n, tag); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace polycube;
using namespace polycube::testing;

namespace {

// While alive: allocations of `from` bytes or more fail (on other threads only: othersOnly).
struct FailingAllocations {
    FailingAllocations(size_t from, bool othersOnly) {
        tExempt = othersOnly;
        gFailFrom.store(from);
        gFailMode.store(othersOnly ? 2 : 1);
    }
    ~FailingAllocations() {
        gFailMode.store(0);
        tExempt = false;
    }
};

// 1x20 bars filling a w x h box: thousands of images (a model of hundreds of KiB).
PuzzleDef bars(int w, int h) {
    std::string layout;
    for (int x = 0; x < 20; ++x) layout += (x ? ", " : "") + std::to_string(x) + " 0 0";
    return parsePuzzle("D:xDim=" + std::to_string(w) + ":yDim=" + std::to_string(h) + ":zDim=1\nC:name=A:count=" +
                       std::to_string(w * h / 20) + ":layout=" + layout + "\n~D\n");
}

}  // namespace

TEST(Memory, OutOfMemoryInASetupIsAnErrorNotAnException) {
    const PuzzleDef def = bars(200, 20);  // 3620 images: the model's list alone is ~200 KB
    Result<std::unique_ptr<Solver>> made = Result<std::unique_ptr<Solver>>::error("not run");
    {
        FailingAllocations fail(64 << 10, false);
        made = Solver::create(def, SolverOptions{});
    }
    ASSERT_FALSE(made.ok());
    EXPECT_NE(made.status.message.find("out of memory while setting up the solver"), std::string::npos) << made.status.message;
    // ... and without the failures, the same puzzle sets up (the test's allocations are the ones that failed)
    EXPECT_TRUE(Solver::create(def, SolverOptions{}).ok());
}

TEST(Memory, AThreadsSetupOutOfMemoryIsTheSearchsError) {
    // The primary is set up on this thread; thread 2's setup (SearchThreads) runs out of
    // memory: run() ends with that as its error, the process does not abort.
    const PuzzleDef def = bars(200, 20);
    FailingAllocations fail(64 << 10, true);
    auto made = ParallelSearch::create(def, SolverOptions{}, 2);
    ASSERT_TRUE(made.ok()) << made.status.message;
    ParallelSearch& p = *made.value;
    EXPECT_EQ(p.threads(), 2);  // its small solvers fit in any budget
    EXPECT_EQ(p.run(), Solver::State::Cancelled);
    EXPECT_NE(p.error().find("out of memory while setting up thread 2's solver"), std::string::npos) << p.error();
}

TEST(Memory, ThreadsCappedByTheSolversSize) {
    // The rule: as many solvers as fit in the budget, at least one, at most as asked.
    EXPECT_EQ(SearchThreads::threadsFor(1000, 300, 8), 3);
    EXPECT_EQ(SearchThreads::threadsFor(1000, 300, 2), 2);
    EXPECT_EQ(SearchThreads::threadsFor(1000, 2000, 8), 1);
    EXPECT_EQ(SearchThreads::threadsFor(0, 300, 8), 8);  // no budget known: as asked
    EXPECT_GT(SearchThreads::memoryBudget(), 0);          // (Linux: half the physical memory at most)
    // A solver's size is its model and matrix (what ModelLimits::maxBytes limits).
    auto s = Solver::create(bars(200, 20), SolverOptions{});
    ASSERT_TRUE(s.ok());
    EXPECT_GT(s.value->memoryBytes(), 200 << 10);
    EXPECT_LT(s.value->memoryBytes(), 4 << 20);
    // Not capped for a small puzzle: no note.
    auto p = ParallelSearch::create(bars(200, 20), SolverOptions{}, 2);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p.value->threads(), 2);
    EXPECT_EQ(p.value->threadsAsked(), 2);
    EXPECT_TRUE(p.value->threadCapNote().empty());
}
