// The race of a count the forecast leaves to the enumerating search (memo/count_race.hpp,
// memo_choice.hpp's forecastLayers and raceDecision): the layers' forecast, the rules' share
// and start, a probe that switches and finishes the exact count, a probe whose layers pass
// the budget given up while the search counts on. The races run in Measure::Attempts, so they
// run the same way every time (no clock).
#include <gtest/gtest.h>

#include <cmath>

#include "memo/count_race.hpp"
#include "solver/solver.hpp"
#include "test_support.hpp"

namespace polycube {
namespace {

using testing::loadPuzzle;

// Sizes rising by `growth` a layer to the middle of `positions`, then falling as they rose.
std::vector<long long> risingAndFalling(int positions, double growth) {
    std::vector<long long> sizes;
    for (int p = 0; p < positions; ++p) sizes.push_back(std::llround(std::pow(growth, std::min(p, positions - p))));
    return sizes;
}

TEST(LayerForecast, CarriesTheGrowthToTheMiddleAndMirrorsIt) {
    const std::vector<long long> all = risingAndFalling(60, 1.3);
    double total = 0;
    for (long long s : all) total += static_cast<double>(s);
    EXPECT_EQ(forecastLayers(all, 60, 5), total);  // every layer done: their sum
    for (int done : {12, 20, 30, 45}) {
        const double f = forecastLayers(std::vector<long long>(all.begin(), all.begin() + done), 60, 5);
        EXPECT_GT(f, total / 1.5) << done;
        EXPECT_LT(f, total * 1.5) << done;
    }
    // Too few layers to measure a growth over two periods; a period with no subproblem ends it.
    EXPECT_EQ(forecastLayers({1, 4, 9}, 60, 2), -1);
    EXPECT_EQ(forecastLayers({1, 4, 9, 3, 0, 0}, 60, 2), 17);
    double peak = 0;
    forecastLayers(std::vector<long long>(all.begin(), all.begin() + 20), 60, 5, &peak);
    EXPECT_GT(peak, std::pow(1.3, 30) / 1.5);
    EXPECT_LT(peak, std::pow(1.3, 30) * 1.5);
}

TEST(RaceDecision, ProbesWithinItsShareOnlyAfterTheStart) {
    RaceRules rules;
    RaceReading r;
    r.searchSpent = rules.startAttempts / 2;
    EXPECT_EQ(raceDecision(r, rules).move, RaceMove::Search);
    r.searchSpent = rules.startAttempts * 2;
    RaceDecision d = raceDecision(r, rules);
    EXPECT_EQ(d.move, RaceMove::Probe);
    EXPECT_DOUBLE_EQ(d.allowance, rules.share * r.searchSpent);
    r.probeSpent = rules.share * r.searchSpent;  // its share spent
    EXPECT_EQ(raceDecision(r, rules).move, RaceMove::Search);
}

TEST(RaceDecision, SwitchesWhenTheLayersForecastFarLessThanTheSearchHasLeft) {
    RaceRules rules;
    RaceReading r;
    r.maxBytes = 1LL << 30;
    r.probe.peakBytes = 1e8;
    r.searchSpent = 1e9;
    r.searchDone = 0.1;              // 9e9 left
    r.probeSpent = 1e7;
    r.probe.subproblems = 100'000;   // 100 a subproblem
    r.probe.termDone = 100'000;
    r.probe.termSubproblems = -1;    // no forecast yet: no switch
    EXPECT_NE(raceDecision(r, rules).move, RaceMove::Switch);
    r.probe.termSubproblems = 2e7;   // 2e9 left: 6e9 with the margin, under 9e9
    const RaceDecision d = raceDecision(r, rules);
    EXPECT_EQ(d.move, RaceMove::Switch);
    EXPECT_EQ(d.why.rfind("memoized after the enumerating search did 10%", 0), 0u) << d.why;
    r.probe.termSubproblems = 4e7;   // 1.2e10 with the margin: the search goes on
    EXPECT_NE(raceDecision(r, rules).move, RaceMove::Switch);
    r.probe.termSubproblems = 2e7;
    r.probe.termsAfter = 1;          // a term after it, taken as large: 4e9, 1.2e10 with the margin
    EXPECT_NE(raceDecision(r, rules).move, RaceMove::Switch);
    r.probe.termsAfter = 0;
    r.probe.peakBytes = 6e8;         // its largest layer past half the budget: no switch
    EXPECT_NE(raceDecision(r, rules).move, RaceMove::Switch);
}

TEST(RaceDecision, ARestInFavourWithThePeakInDoubtProbesWithTheLargerShare) {
    RaceRules rules;
    RaceReading r;
    r.maxBytes = 1LL << 30;
    r.searchSpent = 1e9;
    r.searchDone = 0.1;              // 9e9 left
    r.probeSpent = 1e7;
    r.probe.subproblems = 100'000;   // 100 a subproblem
    r.probe.termDone = 100'000;
    r.probe.termSubproblems = 2e7;   // 2e9 left: 6e9 with the margin, under 9e9
    r.probe.peakBytes = 1.5e9;       // past half the budget, within hopeFactor of it
    RaceDecision d = raceDecision(r, rules);
    EXPECT_EQ(d.move, RaceMove::Probe);
    EXPECT_DOUBLE_EQ(d.allowance, rules.promisingShare * r.searchSpent - r.probeSpent);
    r.probe.peakBytes = 3e9;         // past hopeFactor times the budget: the usual share
    d = raceDecision(r, rules);
    EXPECT_EQ(d.move, RaceMove::Probe);
    EXPECT_DOUBLE_EQ(d.allowance, rules.share * r.searchSpent - r.probeSpent);
    r.probe.peakBytes = 1.5e9;
    r.probe.termSubproblems = 4e7;   // its rest not in favour (1.2e10 with the margin): the usual share
    d = raceDecision(r, rules);
    EXPECT_EQ(d.move, RaceMove::Probe);
    EXPECT_DOUBLE_EQ(d.allowance, rules.share * r.searchSpent - r.probeSpent);
    r.probe.termSubproblems = 2e7;
    r.probeSpent = rules.promisingShare * r.searchSpent;  // the larger share spent
    EXPECT_EQ(raceDecision(r, rules).move, RaceMove::Search);
}

// A search that ends with the probe still beside it says where the race stood: what the probe
// counted and spent, then its forecast and the two rests the next decision would have weighed.
TEST(RaceStanding, SaysWhatTheNextDecisionWouldHaveWeighed) {
    RaceRules rules;
    RaceReading r;
    r.searchSpent = 1e9;
    EXPECT_EQ(raceStanding(r, rules), "");  // no probe ran
    r.searchDone = 0.1;
    r.probeSpent = 1e7;
    r.probe.subproblems = 100'000;
    r.probe.termDone = 100'000;
    r.probe.termSubproblems = -1;
    EXPECT_EQ(raceStanding(r, rules),
              "enumerating to the end: the layered count beside it counted 100000 subproblems for 1e+07 attempts (1% of the "
              "search's 1e+09); too few of its layers yet to forecast the rest");
    r.maxBytes = 1LL << 30;
    r.probe.peakBytes = 1e8;
    r.probe.termSubproblems = 4e7;  // 4e9 left against the search's 9e9: not below a third
    EXPECT_EQ(raceStanding(r, rules),
              "enumerating to the end: the layered count beside it counted 100000 subproblems for 1e+07 attempts (1% of the "
              "search's 1e+09); its layers forecast 4e+07 subproblems, their rest 4e+09 attempts against the search's 9e+09 "
              "(they take over below 1/3 of it)");
    r.clock = true;
    r.probe.peakBytes = 6e8;  // past half the budget
    const std::string line = raceStanding(r, rules);
    EXPECT_NE(line.find("for 1e+07 s"), std::string::npos) << line;
    EXPECT_NE(line.find("(they take over below 1/3 of it, and their largest layer within 1/2 of the budget: forecast 6e+08 "
                        "bytes of 1073741824)"),
              std::string::npos)
        << line;
}

// The 16 one-sided pentominoes of FfILlNnPpTUVWXYZ in 16x5 (79,893 classes with -r).
const char* const kSixteenByFive = R"(
D:xDim=16:yDim=5:zDim=1:oneSide
L
. F F . f f . . I . L . . . l . . N . n . . P P . p p . T T T . U . U . V . .
F F . . . f f . I . L . . . l . . N . n . . P P . p p . . T . . U U U . V . .
. F . . . f . . I . L . . . l . N N . n n . P . . . p . . T . . . . . . V V V
. . . . . . . . I . L L . l l . N . . . n . . . . . . . . . . . . . . . . . .
. . . . . . . . I . . . . . . . . . . . . . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . .
W . . . . X . . . Y . . . . Z Z . . . . . . . . . . . . . . . . . . . . . . .
W W . . X X X . Y Y . . . . . Z . . . . . . . . . . . . . . . . . . . . . . .
. W W . . X . . . Y . . . . . Z Z . . . . . . . . . . . . . . . . . . . . . .
. . . . . . . . . Y . . . . . . . . . . . . . . . . . . . . . . . . . . . . .
~L
~D
)";

struct RaceRun {
    bool switched = false;
    std::string why;
    std::string outcome;        // CountRace::outcome at the end (before a switch's count runs)
    std::string memoError;      // the layered count's, when it failed after the switch
    bool pastBudget = false;    // ... because its layers passed the budget
    uint64_t count = 0;         // the layered count's, once switched; else the search's
    int probesMade = 0;
    long long searchAttempts = 0;
};

RaceRun race(const PuzzleDef& def, const std::string& options, long long memoBytes, const RaceRules& rules,
             long long slice = kRaceSliceAttempts) {
    RaceRun run;
    auto created = Solver::create(def, testing::optionsFrom(options));
    EXPECT_TRUE(created.ok()) << created.status.message;
    if (!created.ok()) return run;
    Solver& solver = *created.value;
    CountRace r(def, testing::memoSettingsFrom(options, memoBytes), 2, CountRace::Measure::Attempts, rules);
    r.onProbe([&](ParallelMemo* p) { run.probesMade += p != nullptr; });
    Solver::State st;
    while ((st = solver.step(slice)) == Solver::State::Running)
        if (r.between(static_cast<double>(solver.stats().totalAttempts()), solver.fractionDone())) break;
    run.switched = r.switched();
    run.why = r.why();
    run.outcome = r.outcome();
    run.searchAttempts = solver.stats().totalAttempts();
    if (run.switched) {
        std::unique_ptr<ParallelMemo> memo = r.takeMemo();
        EXPECT_EQ(memo->threads(), 2);  // the race's threads from now on
        if (memo->run(0) == MemoCounter::State::Done) run.count = memo->count();
        else run.memoError = memo->error(), run.pastBudget = memo->layersPastBudget();
    } else {
        EXPECT_EQ(st, Solver::State::Done);
        run.count = static_cast<uint64_t>(solver.stats().solutions);
    }
    return run;
}

// A probe given half the search's spending forecasts the layers' rest early and takes the
// count over: the exact count, the same way both times (the race reads no clock).
TEST(CountRace, TheLayersTakeOverAndCountExactly) {
    const PuzzleDef def = testing::parsePuzzle(kSixteenByFive);
    RaceRules rules;
    rules.share = 0.5;
    rules.startAttempts = 1e6;
    const RaceRun a = race(def, "-q -r", MemoSettings::kDefaultTableBytes, rules);
    EXPECT_TRUE(a.switched) << a.why;
    EXPECT_EQ(a.why.rfind("memoized after the enumerating search did", 0), 0u) << a.why;
    EXPECT_EQ(a.count, 79893u) << a.memoError;
    EXPECT_EQ(a.probesMade, 1);
    const RaceRun b = race(def, "-q -r", MemoSettings::kDefaultTableBytes, rules);
    EXPECT_EQ(b.why, a.why);
    EXPECT_EQ(b.searchAttempts, a.searchAttempts);
}

// Layers that pass the budget after they took over (the switch wants the largest layer
// forecast within half the budget: here that test is waived, and 16x5's largest layer takes 75
// MiB) end the count without a result (the command line then searches again: cli/main.cpp
// switchToMemo), never with a wrong one.
TEST(CountRace, LayersPastTheBudgetAfterTheSwitchEndWithoutACount) {
    const PuzzleDef def = testing::parsePuzzle(kSixteenByFive);
    RaceRules rules;
    rules.share = 0.5;
    rules.startAttempts = 1e6;
    rules.budgetFit = 0;
    const RaceRun lost = race(def, "-q -r", 32 << 20, rules);
    EXPECT_TRUE(lost.switched) << lost.why;
    EXPECT_EQ(lost.memoError, kLayersPastBudget);
    EXPECT_TRUE(lost.pastBudget);
    EXPECT_EQ(lost.count, 0u);
}

// Layers that pass the budget end the probe (never the table's search), and the search counts
// on to its own end.
TEST(CountRace, AProbePastTheBudgetIsGivenUp) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    RaceRules rules;
    rules.share = 1;
    rules.startAttempts = 1;
    const RaceRun run = race(def, "-q -r", 1 << 20, rules, 1 << 14);
    EXPECT_FALSE(run.switched);
    EXPECT_NE(run.why.find(kLayersPastBudget), std::string::npos) << run.why;
    EXPECT_EQ(run.count, 2339u);
    EXPECT_EQ(run.probesMade, 1);
}

// Before the rules' start nothing is probed: a search that ends by then is untouched.
TEST(CountRace, NothingIsProbedBeforeTheStart) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    const RaceRun run = race(def, "-q -r", MemoSettings::kDefaultTableBytes, RaceRules{}, 1 << 14);
    EXPECT_FALSE(run.switched);
    EXPECT_EQ(run.probesMade, 0);
    EXPECT_EQ(run.count, 2339u);
    EXPECT_LT(run.searchAttempts, RaceRules{}.startAttempts);
    EXPECT_EQ(run.outcome, "");  // (-i says nothing of a race)
}

// A search that ends before its probe decides anything: the search's count, and the outcome
// says where the race stood (the layered count is slower than the search on 10x6).
TEST(CountRace, ASearchThatEndsFirstSaysWhereTheRaceStood) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    RaceRules rules;
    rules.startAttempts = 1;
    const RaceRun run = race(def, "-q -r", MemoSettings::kDefaultTableBytes, rules, 1 << 14);
    EXPECT_FALSE(run.switched);
    EXPECT_EQ(run.why, "");
    EXPECT_EQ(run.count, 2339u);
    EXPECT_EQ(run.probesMade, 1);
    EXPECT_EQ(run.outcome.rfind("enumerating to the end: the layered count beside it counted ", 0), 0u) << run.outcome;
    EXPECT_NE(run.outcome.find(" attempts (2.5% of the search's "), std::string::npos) << run.outcome;
    EXPECT_NE(run.outcome.find("; its layers forecast "), std::string::npos) << run.outcome;
    // the same figures every time (the race reads no clock)
    EXPECT_EQ(race(def, "-q -r", MemoSettings::kDefaultTableBytes, rules, 1 << 14).outcome, run.outcome);
}

}  // namespace
}  // namespace polycube
