// Solutions of a memoized count by number (MemoSettings::solutionNumber, randomSolutions;
// engine/memo/memo_solutions.cpp): walking to every number lists every solution of the
// enumerating search once; a number is the same solution whichever way it is asked for; random
// draws are distinct, in order, repeat with their seed, and pass the checker; a count of classes
// (-r with Burnside terms) and a number past the count are refused with a message.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "check/checker.hpp"
#include "memo/memo_counter.hpp"
#include "test_support.hpp"

namespace polycube {
namespace {

using testing::loadPuzzle;

struct Listed {
    MemoCounter::State state = MemoCounter::State::Running;
    std::string error;
    uint64_t count = 0;
    std::vector<MemoCounter::Picked> picked;
    MemoStats stats;
};

// Counts `def` by the memoized search, then lists what `settings` picks, in small slices (the
// walks run across step() calls).
Listed countAndList(const PuzzleDef& def, MemoSettings settings) {
    Listed out;
    std::unique_ptr<MemoCounter> c = MemoCounter::begin(def, settings);
    while ((out.state = c->step(5000)) == MemoCounter::State::Running) {
        for (MemoCounter::Picked& p : c->takePicked()) out.picked.push_back(std::move(p));
    }
    for (MemoCounter::Picked& p : c->takePicked()) out.picked.push_back(std::move(p));
    out.error = c->error();
    out.count = c->count();
    out.stats = c->stats();
    return out;
}

MemoSettings all() {
    MemoSettings s;
    s.randomSolutions = kMaxRandomSolutions;  // every solution when there are fewer
    return s;
}

// Dominoes around two stationary cells: copies and stationary pieces in one grid.
const char* kStationaryDominoes =
    "D:xDim=4:yDim=4:zDim=1\n"
    "C:name=D:count=7:layout=0 0 0, 1 0 0\n"
    "C:name=*:type=S:layout=0 0 0, 3 0 0\n"
    "~D\n";

TEST(MemoSolutions, EveryNumberIsADifferentSolutionOfTheEnumeration) {
    std::vector<std::pair<std::string, PuzzleDef>> cases;
    for (const char* file : {"lesson_symmetry_4x3.txt", "lesson_tiny_2x2x3.txt", "lesson_tiny_4x3.txt", "pentominoes_1s_30x3.txt",
                             "solid_pentominoes_2x3x10.txt", "pentominoes_8x8_hole.txt"})
        cases.emplace_back(file, loadPuzzle(file));
    cases.emplace_back("stationary dominoes", testing::parsePuzzle(kStationaryDominoes));
    for (const auto& [name, def] : cases) {
        SCOPED_TRACE(name);
        const testing::RunResult enumerated = testing::solve(def, "--no-orbits", true);
        ASSERT_TRUE(enumerated.error.empty()) << enumerated.error;
        ASSERT_GT(enumerated.count, 0);
        const Listed listed = countAndList(def, all());
        ASSERT_EQ(listed.state, MemoCounter::State::Done) << listed.error;
        ASSERT_EQ(listed.count, static_cast<uint64_t>(enumerated.count));
        ASSERT_EQ(listed.picked.size(), listed.count);
        EXPECT_EQ(listed.stats.picked, static_cast<long long>(listed.count));
        std::vector<std::vector<int>> grids;
        for (size_t i = 0; i < listed.picked.size(); ++i) {
            EXPECT_EQ(listed.picked[i].number, i + 1);  // every number, in order
            const CheckResult c = checkSolution(def, listed.picked[i].grid);
            EXPECT_TRUE(c.ok) << "solution " << i + 1 << ": " << c.message;
            grids.push_back(listed.picked[i].grid);
        }
        std::vector<std::vector<int>> want = enumerated.grids;
        std::sort(grids.begin(), grids.end());
        std::sort(want.begin(), want.end());
        EXPECT_TRUE(std::adjacent_find(grids.begin(), grids.end()) == grids.end()) << "a solution listed twice";
        EXPECT_EQ(grids, want) << "the listed solutions are not the enumerated ones";
        // One number asked alone is the same solution as in the whole list (the small puzzles:
        // each is a count again).
        if (listed.count > 30) continue;
        for (uint64_t n : {uint64_t{1}, (listed.count + 1) / 2, listed.count}) {
            MemoSettings one;
            one.solutionNumber = n;
            const Listed alone = countAndList(def, one);
            ASSERT_EQ(alone.state, MemoCounter::State::Done) << alone.error;
            ASSERT_EQ(alone.picked.size(), 1u);
            EXPECT_EQ(alone.picked[0].number, n);
            EXPECT_EQ(alone.picked[0].grid, listed.picked[n - 1].grid) << "solution " << n;
        }
    }
}

TEST(MemoSolutions, RandomDrawsAreDistinctInOrderAndRepeatBySeed) {
    const PuzzleDef def = loadPuzzle("copies/dominoes_8x8.txt");
    MemoSettings s;
    s.randomSolutions = 50;
    s.seed = 7;
    const Listed a = countAndList(def, s), again = countAndList(def, s);
    s.seed = 8;
    const Listed other = countAndList(def, s);
    ASSERT_EQ(a.state, MemoCounter::State::Done) << a.error;
    ASSERT_EQ(a.count, 12988816u);
    ASSERT_EQ(a.picked.size(), 50u);
    std::vector<uint64_t> numbers, againNumbers, otherNumbers;
    for (const auto& p : a.picked) numbers.push_back(p.number);
    for (const auto& p : again.picked) againNumbers.push_back(p.number);
    for (const auto& p : other.picked) otherNumbers.push_back(p.number);
    EXPECT_EQ(numbers, againNumbers);
    EXPECT_NE(numbers, otherNumbers);
    std::set<std::vector<int>> distinct;
    for (size_t i = 0; i < a.picked.size(); ++i) {
        EXPECT_GE(a.picked[i].number, 1u);
        EXPECT_LE(a.picked[i].number, a.count);
        if (i > 0) EXPECT_LT(a.picked[i - 1].number, a.picked[i].number);
        const CheckResult c = checkSolution(def, a.picked[i].grid);
        EXPECT_TRUE(c.ok) << c.message;
        distinct.insert(a.picked[i].grid);
    }
    EXPECT_EQ(distinct.size(), 50u);
    // Spread over the whole count: a uniform draw of 50 has numbers in both halves (for this
    // seed: the test is deterministic, the seed fixed).
    EXPECT_LT(numbers.front(), a.count / 2);
    EXPECT_GT(numbers.back(), a.count / 2);
}

TEST(MemoSolutions, ClassesAndNumbersPastTheCountAreRefused) {
    MemoSettings past;
    past.solutionNumber = 5;
    const Listed tiny = countAndList(loadPuzzle("lesson_tiny_4x3.txt"), past);
    EXPECT_EQ(tiny.state, MemoCounter::State::Failed);
    EXPECT_EQ(tiny.error, "--solution 5: the puzzle has 4 solutions");
    // -r with Burnside terms counts classes: there is no list of them to walk.
    MemoSettings classes = testing::memoSettingsFrom("-r");
    classes.randomSolutions = 3;
    const Listed r = countAndList(loadPuzzle("copies/dominoes_8x8.txt"), classes);
    EXPECT_EQ(r.state, MemoCounter::State::Failed);
    EXPECT_NE(r.error.find("count is of classes"), std::string::npos) << r.error;
    // -r whose plan keeps no symmetric image is one term: its solutions, one per class.
    MemoSettings soma = testing::memoSettingsFrom("-r");
    soma.randomSolutions = kMaxRandomSolutions;
    const Listed somaR = countAndList(loadPuzzle("soma.txt"), soma);
    ASSERT_EQ(somaR.state, MemoCounter::State::Done) << somaR.error;
    EXPECT_EQ(somaR.count, 480u);
    EXPECT_EQ(somaR.picked.size(), 480u);
}

}  // namespace
}  // namespace polycube
