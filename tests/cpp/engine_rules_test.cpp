// The engine's rules as the front ends read them (session/engine_rules.hpp): the option table
// says what the parser does, an option text is judged as Session::start judges it, and the
// solutions' text is the CLI's formatter.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <set>

#include "output/format.hpp"
#include "session/engine_rules.hpp"
#include "session/session.hpp"
#include "solver/options.hpp"
#include "test_support.hpp"

using namespace polycube;
using polycube::testing::loadPuzzle;
using polycube::testing::readDefFile;
using json = nlohmann::json;

namespace {

std::string exampleText(const OptionRule& r) {
    return "--" + r.longName + (r.arg == "none" ? "" : "=" + r.example);
}

}  // namespace

TEST(EngineRules, EveryOptionInTheTableTakesItsExampleAndHoldsToItsRange) {
    for (const OptionRule& r : optionRules()) {
        SCOPED_TRACE(r.longName);
        EXPECT_EQ(r.arg == "none", r.example.empty());
        const OptionParse p = parseSearchOptions(exampleText(r));
        if (r.scope == OptionScope::Search || r.scope == OptionScope::Output) {
            // alone, or (a rule between options) -M beside -r, --memo-mb beside --memo
            EXPECT_TRUE(p.ok() || parseSearchOptions("-r " + exampleText(r)).ok() ||
                        parseSearchOptions("--memo " + exampleText(r)).ok())
                << p.error;
        } else {
            EXPECT_FALSE(p.ok());
            // ... but the command line's parser takes it
            EXPECT_TRUE(parseOptions({exampleText(r)}, [](const std::string&) { return false; }).ok());
        }
        if (!r.ranged) continue;
        const auto at = [&](long long v) {
            return parseOptions({"--" + r.longName + "=" + std::to_string(v)}, [](const std::string&) { return false; }).ok();
        };
        EXPECT_TRUE(at(r.lo));
        EXPECT_FALSE(at(r.lo - 1));
        if (r.hi < INT64_MAX) {
            EXPECT_TRUE(at(r.hi));
            EXPECT_FALSE(at(r.hi + 1));
        }
    }
}

TEST(EngineRules, TheTableAsJsonNamesEveryOptionOnceWithItsSplitRule) {
    const json rules = json::parse(engineRulesJson());
    ASSERT_EQ(rules["options"].size(), optionRules().size());
    std::set<std::string> names;
    for (const json& o : rules["options"]) EXPECT_TRUE(names.insert(o["long"].get<std::string>()).second);
    for (const json& o : rules["options"]) {
        const std::string name = o["long"];
        const bool unsplittable = name == "trace" || name == "monteCarlo" || name == "limit" || name == "unique" || name == "memo";
        EXPECT_EQ(o["splitRefusal"].get<std::string>().empty(), !unsplittable) << name;
        EXPECT_EQ(o["aloneError"], parseSearchOptions("--" + name + (o["arg"] == "none" ? "" : "=" + o["example"].get<std::string>())).error);
    }
    EXPECT_EQ(rules["trace"]["ops"]["PLACE"], 1);
    EXPECT_EQ(rules["trace"]["ops"].size(), 11u);
    EXPECT_EQ(rules["limits"]["maxBoxVolume"], ParseLimits{}.maxBoxVolume);
    EXPECT_EQ(rules["stepStates"]["FAILED"], Session::FAILED);
}

TEST(EngineRules, AnOptionTextIsJudgedAsSessionStartJudgesIt) {
    Session s;
    ASSERT_TRUE(s.load(readDefFile("soma.txt"), "soma.txt"));
    for (const std::string text : {"-r", "-r L -u -M", "-q --json -j 4", "-x", "-f 0", "L", "--progress", "--resume=x",
                                   "-h", "-M", "-o zz", "-r \"a", "-s 10,2,7 -t 3", "--memo -r", "--memo -l 3",
                                   "--memo --memo-mb 100000", "--memo-mb 5", "--memo -r -M --memo-mb=64"}) {
        SCOPED_TRACE(text);
        const json j = json::parse(searchOptionsJson(text));
        const bool started = s.start(0, text);
        EXPECT_EQ(j["ok"].get<bool>(), started);
        if (!started) EXPECT_EQ(j["error"].get<std::string>(), s.lastError());
        s.cancel();
    }
    const json j = json::parse(searchOptionsJson("-rL -f12 --limit=18446744073709551615 -P -s 5,2 -q"));
    EXPECT_EQ(j["options"]["redundancy"], "named");
    EXPECT_EQ(j["options"]["redundancyPiece"], "L");
    EXPECT_EQ(j["options"]["fila"], 12);
    EXPECT_EQ(j["options"]["automatic"], false);
    EXPECT_EQ(j["options"]["limit"], "9223372036854775807");  // 64-bit counts as text
    EXPECT_EQ(j["options"]["parityFilter"], "once");
    EXPECT_EQ(j["options"]["monteCarlo"]["seed"], "0");
    EXPECT_EQ(j["given"][0], (json{{"name", "redundancyFilter"}, {"value", "L"}}));
    EXPECT_EQ(j["given"][5], (json{{"name", "quiet"}, {"value", nullptr}}));
    EXPECT_EQ(j["splitRefusal"].get<std::string>().substr(0, 3), "-s:");
}

TEST(EngineRules, SolutionsTextIsTheClisFormatter) {
    Session s;
    ASSERT_TRUE(s.load(readDefFile("soma.txt"), "soma.txt"));
    ASSERT_TRUE(s.start(0, "-r -l 3"));
    while (s.step(1e6) == Session::RUNNING) {
    }
    const std::vector<int32_t> grids = s.takeSolutions(10);
    ASSERT_EQ(grids.size(), 81u);
    const PuzzleDef def = loadPuzzle("soma.txt");
    std::string want;
    for (int k = 0; k < 3; ++k)
        want += formatSolution(def, std::vector<int>(grids.begin() + 27 * k, grids.begin() + 27 * (k + 1)), 5 + k);
    EXPECT_EQ(s.solutionsText(0, grids, {5, 6, 7}), want);
    EXPECT_TRUE(s.ok()) << s.lastError();
    std::vector<int32_t> bad = grids;
    bad[4] = 7;
    EXPECT_EQ(s.solutionsText(0, bad, {1, 2, 3}), "");
    EXPECT_EQ(s.errorCode(), Session::ErrorCode::kBadArgument);
    EXPECT_EQ(s.solutionsText(0, grids, {1, 2}), "");
    EXPECT_EQ(s.errorCode(), Session::ErrorCode::kBadArgument);
    EXPECT_EQ(s.solutionsText(0, grids, {1, 2.5, 3}), "");
    EXPECT_EQ(s.errorCode(), Session::ErrorCode::kBadArgument);
    EXPECT_EQ(s.solutionsText(1, grids, {1, 2, 3}), "");
    EXPECT_EQ(s.errorCode(), Session::ErrorCode::kBadArgument);
}
