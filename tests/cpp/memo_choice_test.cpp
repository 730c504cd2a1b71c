// The automatic choice between the enumerating and the memoized count (memo/memo_choice.hpp):
// the bound on a count's subproblems holds what the memoized counter remembers, a -q count of
// many copies of few shapes is memoized, no puzzle of the corpus or the families is (they stay
// as fast as they were), and only a count the options leave open is forecast at all.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "memo/memo_choice.hpp"
#include "memo/memo_counter.hpp"
#include "solver/solver.hpp"
#include "test_support.hpp"

namespace polycube {
namespace {

using testing::loadPuzzle;
using testing::readDefFile;

// The forecast of a Solver set up with `options` (null: none made).
std::optional<MemoForecast> forecastOf(const PuzzleDef& def, const std::string& options) {
    auto created = Solver::create(def, testing::optionsFrom(options));
    EXPECT_TRUE(created.ok()) << created.status.message;
    if (!created.ok()) return std::nullopt;
    Solver& s = *created.value;
    while (!s.ready() && s.step(1 << 20) == Solver::State::Running) {
    }
    const MemoForecast* f = s.countingForecast();
    return f ? std::optional<MemoForecast>(*f) : std::nullopt;
}

// Every subproblem of a term over the puzzle's images lies within the bound: the subproblems
// counted (misses: a forgotten one is counted again, so they are at least the distinct ones)
// never pass it.
// Plain counts (one term), and -r counts whose plan fixes no kept image (one term of images:
// the Burnside terms count orbits of images instead, which the bound does not cover).
TEST(MemoChoice, TheBoundHoldsEverySubproblemOfACount) {
    const std::pair<const char*, const char*> cases[] = {
        {"soma.txt", ""},                {"lesson_tiny_2x2x3.txt", ""},   {"lesson_tiny_4x3.txt", ""},
        {"lesson_tiny_4x3.txt", "-r"},   {"copies/dominoes_7x6.txt", ""}, {"copies/dominoes_8x8.txt", ""},
        {"copies/trominoes_9x6.txt", ""}, {"copies/dominoes_4x4x4.txt", ""},
    };
    for (const auto& [file, options] : cases) {
        SCOPED_TRACE(std::string(file) + " " + options);
        MemoSettings settings = testing::tableSettingsFrom(options, 64LL << 20);
        settings.memoFromPieces = 1;  // remember every subproblem but the last piece's
        std::unique_ptr<MemoCounter> c = MemoCounter::begin(loadPuzzle(file), settings);
        while (c->step(1 << 22) == MemoCounter::State::Running) {
        }
        ASSERT_EQ(c->state(), MemoCounter::State::Done) << c->error();
        ASSERT_EQ(c->stats().terms, 1) << c->termsDescription();
        const double bound = memoSubproblemBound(c->model());
        const double reachable = memoReachableBound(c->model(), 1LL << 30);
        EXPECT_GT(c->stats().misses(), 0);
        EXPECT_LE(static_cast<double>(c->stats().misses()), reachable);
        EXPECT_LE(reachable, bound);
    }
}

TEST(MemoChoice, ForecastWeighsTheBoundAgainstTheEstimate) {
    const MemoForecast cheap = forecastMemo(1000, 1e6);  // 1000 x 60 < 1e6
    EXPECT_TRUE(cheap.memoize);
    EXPECT_EQ(cheap.reason.rfind("memoized: at most 1e+03 subproblems", 0), 0u) << cheap.reason;
    EXPECT_FALSE(forecastMemo(1e5, 1e6).memoize);  // 6e6 >= 1e6
    const MemoForecast none = forecastMemo(1000, -1);
    EXPECT_FALSE(none.memoize);
    EXPECT_NE(none.reason.find("no estimate"), std::string::npos) << none.reason;
    const MemoForecast huge = forecastMemo(1e15, -1);
    EXPECT_NE(huge.reason.find("too many to weigh"), std::string::npos) << huge.reason;
}

// Many copies of few shapes: few subproblems, a long enumeration. The -q count is memoized,
// with and without -r (the bound each time far under the estimate).
TEST(MemoChoice, CopiesOfFewShapesAreCountedByMemo) {
    for (const char* file : {"copies/dominoes_8x8.txt", "copies/dominoes_4x4x4.txt", "copies/trominoes_9x6.txt"})
        for (const char* options : {"-q", "-q -r"}) {
            SCOPED_TRACE(std::string(file) + " " + options);
            const std::optional<MemoForecast> f = forecastOf(loadPuzzle(file), options);
            ASSERT_TRUE(f.has_value());
            EXPECT_TRUE(f->memoize) << f->reason;
            EXPECT_GT(f->enumeratingCost, f->subproblemBound * kMemoSubproblemCost);
        }
    // With -r the first bound times the terms is near the estimate; the frontiers reached decide.
    const std::optional<MemoForecast> f = forecastOf(loadPuzzle("copies/trominoes_9x6.txt"), "-q -r");
    ASSERT_TRUE(f.has_value());
    EXPECT_TRUE(f->memoize && f->reached) << f->reason;
    EXPECT_NE(f->reason.find("(frontiers reached)"), std::string::npos) << f->reason;
}

// The puzzles of def/ and the families: distinct pieces, so many sets of pieces left that the
// choice is always the enumerating search (which the benchmarks time as before).
TEST(MemoChoice, NoPuzzleOfTheCorpusOrTheFamiliesIsMemoized) {
    int forecast = 0;
    auto check = [&](const std::string& file) {
        for (const char* options : {"-q", "-q -r"}) {
            SCOPED_TRACE(file + " " + options);
            const std::optional<MemoForecast> f = forecastOf(loadPuzzle(file), options);
            if (!f) continue;  // proved impossible in the setup: nothing to count
            EXPECT_FALSE(f->memoize) << f->reason;
            ++forecast;
        }
    };
    for (const auto& entry : nlohmann::json::parse(readDefFile("catalog.json"))) check(entry["file"].get<std::string>());
    for (const auto& entry : nlohmann::json::parse(readDefFile("families/catalog.json")))
        check("families/" + entry["file"].get<std::string>());
    EXPECT_GE(forecast, 150);
}

// Only a count that lists nothing, with the way of counting left open, is forecast.
TEST(MemoChoice, OnlyACountLeftOpenIsForecast) {
    const PuzzleDef def = loadPuzzle("copies/dominoes_7x6.txt");
    EXPECT_TRUE(forecastOf(def, "-q").has_value());
    EXPECT_TRUE(forecastOf(def, "-q -j 2").has_value());
    for (const char* options : {"", "--json", "-q --no-memo", "-q -u", "-q -l 5", "-q -o s", "-q -F", "-q -s 10,3,1",
                                "-q --build-order"}) {
        SCOPED_TRACE(options);
        EXPECT_FALSE(forecastOf(def, options).has_value());
    }
}

// The progress of a layered count (layeredShareDone) against the work it did: the share of
// the image attempts done at every slice, known once the count ends. Counting each layer as an
// equal share said 0.37 where 0.07 was done on 10x6 (its error here: 0.30); the layers' sizes
// (the forecast, then the mirror of the rise past the middle) keep it within 0.2.
TEST(MemoChoice, TheLayeredCountsProgressFollowsItsWork) {
    std::unique_ptr<MemoCounter> c = MemoCounter::begin(loadPuzzle("pentominoes_10x6.txt"), testing::memoSettingsFrom(""));
    while (!c->ready()) ASSERT_EQ(c->step(1 << 14), MemoCounter::State::Running);
    const long long start = c->stats().attempts;
    std::vector<std::pair<double, long long>> readings;  // (fractionDone, attempts) after each slice
    while (c->step(1 << 14) == MemoCounter::State::Running) readings.emplace_back(c->fractionDone(), c->stats().attempts - start);
    ASSERT_EQ(c->state(), MemoCounter::State::Done);
    ASSERT_EQ(c->count(), 9356u);
    ASSERT_GT(readings.size(), 50u);
    const double all = static_cast<double>(c->stats().attempts - start);
    double worst = 0;
    for (const auto& [shown, attempts] : readings) worst = std::max(worst, std::abs(shown - static_cast<double>(attempts) / all));
    EXPECT_LT(worst, 0.2) << "the largest gap between the progress shown and the work done";
}

// Past the middle the layers to come are the mirror image of those done around the largest.
TEST(MemoChoice, PastTheMiddleTheLayersToComeMirrorThoseDone) {
    // 10 positions, 6 done: sizes 1 2 4 8 4 2, the peak at 3. Position 6 mirrors layer 0 (1),
    // 7 to 9 mirror nothing before the start: 21 done of 22.
    const std::vector<long long> sizes = {1, 2, 4, 8, 4, 2};
    EXPECT_DOUBLE_EQ(layeredShareDone(sizes, 21, 0.6, 10, 1), 21.0 / (21 + 1));
    // The first half: forecastLayers, or the layers' share while it cannot tell.
    EXPECT_DOUBLE_EQ(layeredShareDone({1}, 1, 0.1, 10, 4), 0.1);
}

}  // namespace
}  // namespace polycube
