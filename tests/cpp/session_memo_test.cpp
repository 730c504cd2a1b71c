// The Session's memoized count (start() with --memo, engine/session/session.hpp): the counts
// through step() slices, the final count and the table's figures in statsJson, the share done
// growing, cancel, the options refused with the command line's messages (one check,
// memo/memo_options.hpp), the table's budget within the engine's memory for a search, and the
// calls about a search tree refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "memo/memo_options.hpp"
#include "session/session.hpp"
#include "test_support.hpp"

namespace polycube {
namespace {

using Code = Session::ErrorCode;
using Phase = Session::Phase;

nlohmann::json memoSessionStats(const Session& s) { return nlohmann::json::parse(s.statsJson()); }

// Steps a started count to its end in slices of `budget`, checking the share done never goes
// down; returns the statistics at the end.
nlohmann::json countInSlices(Session& s, double budget) {
    double last = 0;
    int slices = 0;
    while (s.step(budget) == Session::RUNNING) {
        const nlohmann::json j = memoSessionStats(s);
        EXPECT_TRUE(j["solutions"].is_null());  // no partial count
        const double f = j["fractionDone"].get<double>();
        EXPECT_GE(f, last - 1e-12);
        EXPECT_LE(f, 1);
        last = f;
        ++slices;
    }
    EXPECT_GT(slices, 2);
    EXPECT_TRUE(s.takeSolutions(10).empty());  // it lists none
    return memoSessionStats(s);
}

TEST(SessionMemo, CountsInSlicesAndReportsTheCountAndTheTable) {
    for (const auto& [file, options, want] :
         {std::tuple<const char*, const char*, uint64_t>{"soma.txt", "--memo -r", 480},
          {"pentominoes_10x6.txt", "--memo -r", 2339},
          {"solid_pentominoes_2x3x10.txt", "--memo -r -M --memo-mb 8", 12},
          {"soma.txt", "--memo -q -i --json -j 4", 11520}}) {  // (the CLI's output options change nothing here)
        SCOPED_TRACE(std::string(file) + " " + options);
        Session s;
        ASSERT_TRUE(s.load(testing::readDefFile(file), file));
        ASSERT_TRUE(s.start(0, options)) << s.lastError();
        EXPECT_EQ(s.phase(), Phase::kSettingUp);
        const nlohmann::json j = countInSlices(s, 50000);
        ASSERT_EQ(s.phase(), Phase::kFinished) << s.lastError();
        EXPECT_EQ(j["state"], "done");
        EXPECT_EQ(j["solutions"].get<uint64_t>(), want);
        EXPECT_EQ(j["fractionDone"].get<double>(), 1.0);
        // Counted layer by layer (within the budget: no term left to the table).
        EXPECT_GT(j["memo"]["subproblems"].get<long long>(), 0);
        EXPECT_GE(j["memo"]["layeredTerms"].get<int>(), 1);
        EXPECT_EQ(j["memo"]["fallbackTerms"].get<int>(), 0);
        EXPECT_GT(j["memo"]["layerBytes"].get<long long>(), 0);
        EXPECT_LE(j["memo"]["layerBytes"].get<long long>(), j["memo"]["budgetBytes"].get<long long>());
        EXPECT_EQ(j["memo"]["misses"].get<long long>(), j["memo"]["lookups"].get<long long>() - j["memo"]["hits"].get<long long>());
        EXPECT_GT(j["fits"].get<long long>(), 0);
        EXPECT_EQ(j["memo"]["threads"], 1);
    }
}

// Without --memo-mb, a quarter of the engine's memory for a search; with it, at most half
// (statsJson's mostBudgetBytes), and above that refused naming the most it may be.
TEST(SessionMemo, TheTableFitsTheEnginesMemoryForASearch) {
    const ModelLimits limits;
    Session s;
    ASSERT_TRUE(s.load(testing::readDefFile("soma.txt"), "soma.txt"));
    ASSERT_TRUE(s.start(0, "--memo -r")) << s.lastError();
    EXPECT_EQ(memoSessionStats(s)["memo"]["budgetBytes"].get<long long>(), limits.maxTotalBytes / 4);
    ASSERT_TRUE(s.start(0, "--memo -r --memo-mb 64")) << s.lastError();
    EXPECT_EQ(memoSessionStats(s)["memo"]["budgetBytes"].get<long long>(), 64LL << 20);
    const long long most = limits.maxTotalBytes / 2 >> 20;
    ASSERT_TRUE(s.start(0, "--memo -r --memo-mb " + std::to_string(most))) << s.lastError();
    EXPECT_EQ(memoSessionStats(s)["memo"]["budgetBytes"].get<long long>(), most << 20);
    EXPECT_EQ(memoSessionStats(s)["memo"]["mostBudgetBytes"].get<long long>(), most << 20);  // (the page's "more memory" ends here)
    EXPECT_FALSE(s.start(0, "--memo -r --memo-mb " + std::to_string(most + 1)));
    EXPECT_EQ(s.errorCode(), Code::kBadOptions);
    EXPECT_NE(s.lastError().find("give at most --memo-mb " + std::to_string(most)), std::string::npos) << s.lastError();
    EXPECT_EQ(s.phase(), Phase::kLoaded);
}

// The options that list, limit or order solutions, or tune the enumerating search: refused
// with the message the command line gives (the same function says it).
TEST(SessionMemo, ListingOptionsAreRefusedWithTheCommandLinesMessage) {
    Session s;
    ASSERT_TRUE(s.load(testing::readDefFile("soma.txt"), "soma.txt"));
    for (const char* options : {"--memo -u", "--memo -l 5", "--memo -t 1", "--memo -s 10,3,1", "--memo -o s", "--memo -V",
                                "--memo-mb 64"}) {
        SCOPED_TRACE(options);
        EXPECT_FALSE(s.start(0, options));
        EXPECT_EQ(s.errorCode(), Code::kBadOptions);
        const OptionParse p = parseOptions(splitWords(options), [](const std::string&) { return false; });
        ASSERT_TRUE(p.ok()) << p.error;
        const std::string cli = memoConflict(p.options);
        ASSERT_FALSE(cli.empty());
        EXPECT_EQ(s.lastError(), cli);
    }
    EXPECT_EQ(s.lastError(), "--memo-mb N sets the budget of --memo's count: give --memo too");
}

// A memoized count has no search tree: the calls about one are refused in every phase of it,
// splitRefusal says why it is not shared, and cancel() ends it CANCELLED.
// A listing search says what a count alone would choose (statsJson's "countingForecast",
// the page's hint): copies of few shapes would be counted by the memoized counter; distinct
// pieces would not; a listing the memoized count cannot replace (-l, -t) has no forecast.
TEST(SessionMemo, AListingSaysWhenACountAloneWouldBeMemoized) {
    for (const auto& [file, options, forecast, memoize] :
         {std::tuple<const char*, const char*, bool, bool>{"copies/dominoes_8x8.txt", "", true, true},
          {"copies/trominoes_9x6.txt", "-r", true, true},
          {"pentominoes_10x6.txt", "-r", true, false},
          {"copies/dominoes_8x8.txt", "-l 5", false, false},
          {"copies/dominoes_8x8.txt", "-t 1", false, false}}) {
        SCOPED_TRACE(std::string(file) + " " + options);
        Session s;
        ASSERT_TRUE(s.load(testing::readDefFile(file), file));
        ASSERT_TRUE(s.start(0, options)) << s.lastError();
        while (!s.ready() && s.step(1 << 20) == Session::RUNNING) {
        }
        ASSERT_TRUE(s.ready()) << s.lastError();
        const nlohmann::json j = memoSessionStats(s);
        ASSERT_EQ(j.contains("countingForecast"), forecast) << j.dump();
        if (!forecast) continue;
        const nlohmann::json& f = j["countingForecast"];
        EXPECT_EQ(f["memoize"], memoize);
        EXPECT_EQ(j["counting"].get<std::string>().rfind(memoize ? "memoized: " : "enumerating: ", 0), 0u) << j["counting"];
        EXPECT_GT(f["subproblemBound"].get<double>(), 0);
        if (memoize) EXPECT_GT(f["enumeratingEstimate"].get<double>(), 60 * f["subproblemBound"].get<double>());
        // ... and the search lists as before
        while (s.step(1 << 20) == Session::RUNNING && s.pendingSolutions() == 0) {
        }
        EXPECT_GT(s.takeSolutions(1).size(), 0u);
    }
}

TEST(SessionMemo, NoSearchTreeAndCancel) {
    Session s;
    ASSERT_TRUE(s.load(testing::readDefFile("pentominoes_10x6.txt"), "10x6.txt"));
    ASSERT_TRUE(s.start(0, "--memo -r"));
    const auto refusesTreeCalls = [&](const char* when) {
        SCOPED_TRACE(when);
        for (int k = 0; k < 5; ++k) {
            switch (k) {
                case 0: s.fingerprint(); break;
                case 1: s.imageShapes(); break;
                case 2: s.startSubproblem({}); break;
                case 3: s.donateJson(0); break;
                case 4: s.setTraceLimit(10); break;
            }
            EXPECT_EQ(s.errorCode(), Code::kIllegalCall) << k;
            EXPECT_NE(s.lastError().find("memoized count"), std::string::npos) << s.lastError();
        }
        EXPECT_NE(s.splitRefusal().find("--memo"), std::string::npos);
        EXPECT_TRUE(s.ok()) << s.lastError();
    };
    refusesTreeCalls("setting up");
    while (!s.ready()) ASSERT_EQ(s.step(20000), Session::RUNNING);
    EXPECT_EQ(s.phase(), Phase::kReady);
    refusesTreeCalls("ready");
    ASSERT_EQ(s.step(20000), Session::RUNNING);
    EXPECT_EQ(s.phase(), Phase::kSearching);
    const double part = memoSessionStats(s)["fractionDone"].get<double>();
    EXPECT_GT(part, 0);
    EXPECT_LT(part, 1);
    refusesTreeCalls("searching");
    s.cancel();
    EXPECT_EQ(s.phase(), Phase::kCancelled);
    EXPECT_EQ(s.step(20000), Session::CANCELLED);
    const nlohmann::json j = memoSessionStats(s);
    EXPECT_EQ(j["state"], "cancelled");
    EXPECT_TRUE(j["solutions"].is_null());
    // A search after it is the enumerating one again, with its tree.
    ASSERT_TRUE(s.start(0, "-r"));
    testing::stepUntilReady(s);
    EXPECT_FALSE(s.fingerprint().empty()) << s.lastError();
}

}  // namespace
}  // namespace polycube
