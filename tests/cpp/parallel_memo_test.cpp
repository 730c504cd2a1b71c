// The memoized count on several threads (engine/memo/parallel_memo.hpp): -j 2 and -j 3 count
// what one thread counts on the corpus (plain, -r, -r -M), a tiny table still counts exactly
// with its budget shared, the tables' figures are summed over the threads, and a cancel stops
// every thread.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "memo/parallel_memo.hpp"
#include "test_support.hpp"

namespace polycube {
namespace {

using testing::loadPuzzle;


std::unique_ptr<ParallelMemo> countOnThreads(const PuzzleDef& def, const MemoSettings& settings, int threads) {
    std::unique_ptr<ParallelMemo> p = ParallelMemo::begin(def, settings, threads);
    while (p->run(0) == MemoCounter::State::Running) {
    }
    return p;
}

// Past this many image attempts on one thread a count is left out (the 2x5x6 solid pentominoes
// take 900 million).
constexpr long long kOneThreadAttempts = 40'000'000;

TEST(ParallelMemo, ThreadsCountWhatOneThreadCounts) {
    int checked = 0, split = 0;
    testing::forEachFastCount([&](const std::string&, const PuzzleDef& def, const std::string& options, uint64_t count) {
        std::unique_ptr<MemoCounter> one = MemoCounter::begin(def, testing::memoSettingsFrom(options));
        while (one->step(1 << 20) == MemoCounter::State::Running && one->stats().attempts < kOneThreadAttempts) {
        }
        if (one->state() == MemoCounter::State::Running) return;
        ASSERT_EQ(one->state(), MemoCounter::State::Done) << one->error();
        ASSERT_EQ(one->count(), count);
        for (int threads : {2, 3}) {
            SCOPED_TRACE("-j " + std::to_string(threads));
            const std::unique_ptr<ParallelMemo> p = countOnThreads(def, testing::tableSettingsFrom(options), threads);
            ASSERT_EQ(p->state(), MemoCounter::State::Done) << p->error();
            EXPECT_EQ(p->count(), one->count());
            EXPECT_NEAR(p->fractionDone(), 1.0, 1e-9);
            const MemoStats s = p->stats();
            EXPECT_EQ(s.termsDone, s.terms);
            if (p->tasks() > 0) {
                ++split;
                if (one->stats().lookups > 1000) EXPECT_GT(s.lookups, 0);
                EXPECT_EQ(s.misses(), s.entries + s.evictions);  // every table's stores, summed
            }
        }
        ++checked;
    });
    EXPECT_GE(checked, 18);
    EXPECT_GE(split, 20);  // (the impossible rectangle is settled by its proofs, before any split)
}

// 8 KiB shared by two threads: each table stays at its 4 KiB, evicts, and the count is exact;
// the figures are both tables'.
TEST(ParallelMemo, ATinyTableSharedByTwoThreadsStillCountsExactly) {
    const PuzzleDef def = loadPuzzle("soma.txt");
    for (const auto& [options, want] : {std::pair<const char*, uint64_t>{"-r", 480}, {"", 11520}}) {
        SCOPED_TRACE(options);
        const std::unique_ptr<ParallelMemo> p = countOnThreads(def, testing::tableSettingsFrom(options, 8 << 10), 2);
        ASSERT_EQ(p->state(), MemoCounter::State::Done) << p->error();
        EXPECT_EQ(p->count(), want);
        const MemoStats s = p->stats();
        EXPECT_GT(s.evictions, 1000);
        EXPECT_LE(s.tableBytes, 8 << 10);
        EXPECT_GT(s.tableBytes, 4 << 10);  // both threads' tables
        EXPECT_EQ(s.maxTableBytes, 8 << 10);
    }
    // A budget too small to share: said, naming the share.
    const std::unique_ptr<ParallelMemo> p = countOnThreads(def, testing::tableSettingsFrom("-r", 200), 2);
    ASSERT_EQ(p->state(), MemoCounter::State::Failed);
    EXPECT_NE(p->error().find("-j 2: each thread's table"), std::string::npos) << p->error();
}

// A count of minutes, stopped once its threads run: every thread ends (run(0) waits for all),
// Cancelled, with no count.
TEST(ParallelMemo, CancelStopsEveryThread) {
    PuzzleDef def = loadPuzzle("pentominoes_1s_18x5.txt");
    def.xDim = 10;
    def.yDim = 9;
    std::unique_ptr<ParallelMemo> p = ParallelMemo::begin(def, testing::tableSettingsFrom("-r"), 3);
    ASSERT_EQ(p->run(0.05), MemoCounter::State::Running);
    ASSERT_GT(p->tasks(), 3);
    p->cancel();
    EXPECT_EQ(p->run(0), MemoCounter::State::Cancelled);
    EXPECT_LT(p->fractionDone(), 1);
    EXPECT_GT(p->stats().attempts, 0);
}

// The share done (the CLI's --progress line) never goes down and is 1 at the end: on one
// thread in slices of image attempts, and on two threads read between runs of the clock's
// slices (what is asserted does not depend on how long a slice takes: a run may end its slice
// after the threads counted their last task but before they reported the end, so a reading
// while still running may already be 1).
TEST(ParallelMemo, TheShareDoneGrowsToOne) {
    const PuzzleDef def = loadPuzzle("pentominoes_1s_30x3.txt");
    std::unique_ptr<MemoCounter> one = MemoCounter::begin(def, testing::memoSettingsFrom("-r"));
    double last = 0;
    int readings = 0;
    while (one->step(8000) == MemoCounter::State::Running) {
        const double f = one->fractionDone();
        EXPECT_GE(f, last - 1e-12);
        EXPECT_LE(f, 1);
        last = f;
        ++readings;
    }
    ASSERT_EQ(one->state(), MemoCounter::State::Done);
    EXPECT_GT(readings, 100);
    EXPECT_GT(last, 0.5);  // (the last slice's reading: most of the count)
    EXPECT_EQ(one->fractionDone(), 1);

    std::unique_ptr<ParallelMemo> two = ParallelMemo::begin(def, testing::tableSettingsFrom("-r"), 2);
    ASSERT_EQ(two->prepare(), MemoCounter::State::Running);
    EXPECT_EQ(two->fractionDone(), 0);
    last = 0;
    while (two->run(0.002) == MemoCounter::State::Running) {
        const double f = two->fractionDone();
        EXPECT_GE(f, last);
        EXPECT_LE(f, 1);
        last = f;
    }
    ASSERT_EQ(two->state(), MemoCounter::State::Done);
    EXPECT_EQ(two->count(), 46u);
    EXPECT_GT(two->tasks(), 10);
    // (the threads' shares and the split's, summed: every task's weight counted once)
    EXPECT_NEAR(two->fractionDone(), 1, 1e-9);
}

}  // namespace
}  // namespace polycube
