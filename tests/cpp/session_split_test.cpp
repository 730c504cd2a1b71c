// Session's calls for sharing one search among several Sessions (the page's worker pool):
// splitRefusal, fingerprint, startSubproblem, donateJson. Two Sessions of the same text and
// options pass pieces to each other through donateJson's JSON, as the pool's messages do;
// everything must add up to one Session's run (solutions as a set, attempts, fits), and
// every illegal call is refused with a message instead of misbehaving.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <nlohmann/json.hpp>

#include "session/session.hpp"
#include "test_support.hpp"

using namespace polycube;
using json = nlohmann::json;

namespace {

struct Totals {
    std::vector<std::vector<int32_t>> grids;
    long long attempts = 0, fits = 0, solutions = 0;
    int pieces = 0, donations = 0;
};

using polycube::testing::stepUntilReady;

void take(Session& s, Totals& t) {
    const int cells = s.cellCount();
    for (std::vector<int32_t> flat = s.takeSolutions(1000); !flat.empty(); flat = s.takeSolutions(1000))
        for (size_t at = 0; at < flat.size(); at += cells) t.grids.emplace_back(flat.begin() + at, flat.begin() + at + cells);
}

Totals oneRun(const std::string& text, const std::string& options) {
    Session s;
    EXPECT_TRUE(s.load(text, "t.txt")) << s.lastError();
    EXPECT_TRUE(s.start(0, options)) << s.lastError();
    Totals t;
    while (s.step(1e5) == Session::RUNNING) take(s, t);
    take(s, t);
    EXPECT_EQ(s.state(), Session::DONE) << s.lastError();
    json stats = json::parse(s.statsJson());
    t.attempts = stats["attempts"];
    t.fits = stats["fits"];
    t.solutions = stats["solutions"];
    return t;
}

// Two Sessions; the busy one donates every `every` slices to a queue the idle one takes from.
// maxPaths: at most this many paths per donation (0: all).
Totals sharedRun(const std::string& text, const std::string& options, int every, int maxPaths) {
    Session sessions[2];
    std::string fingerprints[2];
    for (int k = 0; k < 2; ++k) {
        EXPECT_TRUE(sessions[k].load(text, "t.txt"));
        EXPECT_TRUE(sessions[k].start(0, options)) << sessions[k].lastError();
        EXPECT_EQ(sessions[k].splitRefusal(), "");
        EXPECT_EQ(sessions[k].fingerprint(), "") << "no fingerprint before the setup is over";
        EXPECT_EQ(sessions[k].errorCode(), Session::ErrorCode::kIllegalCall);
        stepUntilReady(sessions[k]);
        fingerprints[k] = sessions[k].fingerprint();
        EXPECT_EQ(fingerprints[k].size(), 16u);
    }
    EXPECT_EQ(fingerprints[0], fingerprints[1]);
    Totals t;
    std::deque<std::vector<int32_t>> queue{{}};
    long long slices = 0;
    int next = 0;
    while (!queue.empty()) {
        Session& s = sessions[next++ % 2];
        EXPECT_TRUE(s.startSubproblem(queue.front())) << s.lastError();
        queue.pop_front();
        ++t.pieces;
        while (s.step(2000) == Session::RUNNING) {
            take(s, t);
            if (++slices % every) continue;
            json given = json::parse(s.donateJson(maxPaths));
            if (maxPaths > 0 && s.ready()) EXPECT_LE(given["paths"].size(), static_cast<size_t>(maxPaths));
            for (const auto& path : given["paths"]) queue.push_back(path.get<std::vector<int32_t>>());
            if (!given["paths"].empty()) {
                ++t.donations;
                EXPECT_GT(given["share"].get<double>(), 0.0);
                EXPECT_LE(given["share"].get<double>(), 1.0);
            }
        }
        take(s, t);
        EXPECT_EQ(s.state(), Session::DONE) << s.lastError();
    }
    for (Session& s : sessions) {  // statistics add up across each Session's pieces
        json stats = json::parse(s.statsJson());
        t.attempts += stats["attempts"].get<long long>();
        t.fits += stats["fits"].get<long long>();
        t.solutions += stats["solutions"].get<long long>();
    }
    return t;
}

void expectSameRun(const std::string& file, const std::string& options, int every, int maxPaths = 0) {
    const std::string text = polycube::testing::readDefFile(file);
    Totals one = oneRun(text, options);
    Totals shared = sharedRun(text, options, every, maxPaths);
    EXPECT_GT(shared.donations, 0) << file << ": nothing was shared, the test proves nothing";
    EXPECT_EQ(shared.solutions, one.solutions) << file;
    EXPECT_EQ(shared.attempts, one.attempts) << file;
    EXPECT_EQ(shared.fits, one.fits) << file;
    std::sort(one.grids.begin(), one.grids.end());
    std::sort(shared.grids.begin(), shared.grids.end());
    EXPECT_EQ(shared.grids, one.grids) << file;
}

}  // namespace

TEST(SessionSplit, TwoSessionsAddUpToOneOnDlx) { expectSameRun("pentominoes_10x6.txt", "-r", 3); }

// -o s: DLX on every level (FILA levels give all their siblings, Solver::donate)
TEST(SessionSplit, TwoSessionsAddUpToOneGivingTwoPathsAtATime) { expectSameRun("pentominoes_10x6.txt", "-r -o s", 2, 2); }

TEST(SessionSplit, TwoSessionsAddUpToOneWithFila) { expectSameRun("soma.txt", "-r -f 7", 1); }

TEST(SessionSplit, IllegalCallsAreRefusedWithAMessage) {
    const std::string text = polycube::testing::readDefFile("soma.txt");
    Session s;
    EXPECT_FALSE(s.startSubproblem({})) << "nothing started";
    EXPECT_EQ(s.errorCode(), Session::ErrorCode::kIllegalCall) << s.lastError();
    EXPECT_EQ(s.donateJson(), "");
    EXPECT_EQ(s.errorCode(), Session::ErrorCode::kIllegalCall) << s.lastError();
    ASSERT_TRUE(s.load(text, "soma.txt"));
    ASSERT_TRUE(s.start(0, "-r"));
    EXPECT_FALSE(s.startSubproblem({})) << "setup not over";
    stepUntilReady(s);
    EXPECT_FALSE(s.startSubproblem({-1})) << s.lastError();
    EXPECT_NE(s.lastError().find("image -1"), std::string::npos) << s.lastError();
    EXPECT_FALSE(s.startSubproblem(std::vector<int32_t>(100, 0)));
    EXPECT_NE(s.lastError().find("pieces"), std::string::npos) << s.lastError();
    // a path of images that are no path of this tree: the search fails with a message
    ASSERT_TRUE(s.startSubproblem({0, 0}));
    while (s.step(1e5) == Session::RUNNING) {
    }
    EXPECT_EQ(s.state(), Session::FAILED);
    EXPECT_NE(s.lastError().find("not a path of this search"), std::string::npos) << s.lastError();
    EXPECT_FALSE(s.startSubproblem({})) << "after a failure: start() again";
    // cancelled: start() again
    ASSERT_TRUE(s.start(0, "-r"));
    stepUntilReady(s);
    s.cancel();
    EXPECT_FALSE(s.startSubproblem({}));
    // options that cannot be split
    ASSERT_TRUE(s.start(0, "-t 1"));
    EXPECT_NE(s.splitRefusal().find("-t"), std::string::npos);
    stepUntilReady(s);
    EXPECT_FALSE(s.startSubproblem({}));
    EXPECT_NE(s.lastError().find("cannot be split"), std::string::npos) << s.lastError();
    ASSERT_TRUE(s.start(0, "-l 3"));
    EXPECT_NE(s.splitRefusal().find("-l"), std::string::npos);
}
