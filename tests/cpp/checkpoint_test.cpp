// Checkpointed searches (ParallelSearch::setCheckpointHandler, parallel/checkpoint.hpp; issue
// 10): split into pieces, searched piece by piece on 1 or 2 threads, stopped at a checkpoint
// and resumed from its text, the totals are one run's, level by level.
#include "parallel/checkpoint.hpp"
#include "parallel/parallel_search.hpp"
#include "test_support.hpp"

using namespace polycube;
using namespace polycube::testing;

namespace {

const DefCase kCases[] = {
    {"pentominoes_10x6.txt", "-r"},           // the default: DLX root, FILA with F
    {"soma.txt", "-r"},                       // 3-D, FILA with E
    {"pentominoes_8x8_hole.txt", "-r -o s"},  // plain DLX
    {"pentominoes_1s_30x3.txt", "-m 11 -n"},  // MCH, no -r
};

}  // namespace

TEST(Checkpoint, PiecesAddUpOnOneAndTwoThreads) {
    for (const DefCase& c : kCases) {
        const PuzzleDef def = loadPuzzle(c.file);
        const RunResult one = solve(def, c.options);
        for (int threads : {1, 2}) {
            SCOPED_TRACE(std::string(c.file) + " " + c.options + " -j " + std::to_string(threads));
            auto made = ParallelSearch::create(def, optionsFrom(c.options), threads);
            ASSERT_TRUE(made.ok());
            ParallelSearch& search = *made.value;
            long long reported = 0, last = 0;
            search.setSolutionHandler([&](const Solution& s, long long number) {
                EXPECT_TRUE(checkSolution(def, s.grid).ok);
                EXPECT_EQ(number, last + 1);  // numbered on, one by one
                last = number;
                ++reported;
            });
            int checkpoints = 0;
            Checkpoint final;
            search.setCheckpointHandler([&](const Checkpoint& ck) { ++checkpoints, final = ck; }, 0.0);
            EXPECT_EQ(search.run(), Solver::State::Done);
            // (Soma: FILA's recursive last 7 levels cannot be split; its pieces are searched while splitting.)
            if (std::string(c.file) != "soma.txt") EXPECT_GE(search.piecesSplit(), 8);
            EXPECT_EQ(reported, one.count);
            expectSameStatistics(search.stats(), one.stats);
            EXPECT_GE(checkpoints, 1);
            EXPECT_TRUE(final.pending.empty());
            EXPECT_NEAR(final.doneShare, 1.0, 1e-9);
        }
    }
}

TEST(Checkpoint, StoppedAndResumedFromTheTextAddsUp) {
    // Stop at the k-th checkpoint, resume from its text on another search, repeat: the totals
    // (finished statistics of the last run) are one run's.
    for (const DefCase& c : kCases) {
        SCOPED_TRACE(std::string(c.file) + " " + c.options);
        const PuzzleDef def = loadPuzzle(c.file);
        const RunResult one = solve(def, c.options);
        std::string text;
        long long reported = 0;
        for (int round = 0; round < 100; ++round) {
            std::unique_ptr<Checkpoint> resume;
            auto probe = Solver::create(def, optionsFrom(c.options));
            ASSERT_TRUE(probe.ok());
            if (!text.empty()) {
                Result<Checkpoint> back = decodeCheckpoint(text, searchFingerprint(*probe.value), "ck");
                ASSERT_TRUE(back.ok()) << back.status.message;
                EXPECT_EQ(encodeCheckpoint(back.value), text);  // the text form loses nothing
                resume = std::make_unique<Checkpoint>(back.value);
            }
            auto made = ParallelSearch::create(def, optionsFrom(c.options), 1 + round % 2, std::move(probe.value), resume.get());
            ASSERT_TRUE(made.ok());
            ParallelSearch& search = *made.value;
            search.setSolutionHandler([&](const Solution&, long long number) { reported = std::max(reported, number); });
            // Stopped at a checkpoint once a piece has finished in this round (a piece stopped
            // midway is searched again from its start: stopping each round before any piece
            // ends would never get anywhere).
            int seen = 0;
            const size_t atStart = resume ? resume->pending.size() : SIZE_MAX;
            search.setCheckpointHandler(
                [&](const Checkpoint& ck) {
                    text = encodeCheckpoint(ck);
                    if (++seen >= 3 && ck.pending.size() < atStart) search.cancel();
                },
                0.0);
            if (search.run() == Solver::State::Done) {
                EXPECT_EQ(reported, one.count);
                expectSameStatistics(search.stats(), one.stats);
                return;
            }
        }
        FAIL() << "not done after 100 resumptions";
    }
}

TEST(Checkpoint, ForeignDamagedOrTruncatedTextIsRefused) {
    const PuzzleDef def = loadPuzzle("soma.txt");
    auto made = ParallelSearch::create(def, optionsFrom("-r"), 1);
    ASSERT_TRUE(made.ok());
    std::string text;
    made.value->setCheckpointHandler([&](const Checkpoint& ck) { text = encodeCheckpoint(ck); }, 0.0);
    made.value->run();
    const std::string fp = made.value->fingerprint();
    EXPECT_TRUE(decodeCheckpoint(text, fp, "ck").ok());
    Result<Checkpoint> foreign = decodeCheckpoint(text, "0123456789abcdef", "ck");
    ASSERT_FALSE(foreign.ok());
    EXPECT_NE(foreign.status.message.find("a checkpoint of another search"), std::string::npos);
    std::string damaged = text;
    damaged[damaged.find("solutions") + 10] ^= 1;
    EXPECT_NE(decodeCheckpoint(damaged, fp, "ck").status.message.find("damaged"), std::string::npos);
    EXPECT_NE(decodeCheckpoint(text.substr(0, text.size() / 2), fp, "ck").status.message.find("not a complete"), std::string::npos);
    EXPECT_NE(decodeCheckpoint("hello\nchecksum 0\n", fp, "ck").status.message.find("damaged"), std::string::npos);
}
