#include <gtest/gtest.h>

#include "constraints/symmetry.hpp"
#include "test_support.hpp"

using namespace polycube;
using namespace polycube::testing;

TEST(Solver, SliceSizeDoesNotChangeTheResult) {
    PuzzleDef def = loadPuzzle("soma.txt");
    for (long long slice : {1LL, 7LL, 1000LL, 1LL << 30}) {
        RunResult r = solve(def, "-r", false, slice);
        EXPECT_EQ(r.count, 480) << "slice " << slice;
    }
}

TEST(Solver, UniqueFilterMatchesRedundancyFilter) {
    PuzzleDef def = loadPuzzle("soma.txt");
    RunResult u = solve(def, "-u");
    EXPECT_EQ(u.count, 480);
    EXPECT_EQ(u.stats.found, 11520);
    EXPECT_EQ(u.stats.redundant, 11520 - 480);
    PuzzleDef hole = loadPuzzle("pentominoes_8x8_hole.txt");
    EXPECT_EQ(solve(hole, "-u").count, 65);
}

TEST(Solver, EveryUsablePieceGivesTheSameCount) {
    // Whatever piece carries the redundancy filter, counts are exact (symmetric images of
    // the constrained piece are resolved per solution).
    PuzzleDef soma = loadPuzzle("soma.txt");
    for (const char* name : {"V", "L", "T", "Z", "A", "B", "P"}) {
        RunResult r = solve(soma, std::string("-r ") + name);
        ASSERT_TRUE(r.error.empty()) << name << ": " << r.error;
        EXPECT_EQ(r.count, 480) << name;
    }
    PuzzleDef pent = loadPuzzle("pentominoes_10x6.txt");
    for (const char* name : {"X", "F", "I", "T"}) EXPECT_EQ(solve(pent, std::string("-r ") + name).count, 2339) << name;
}

TEST(Solver, RedundancyFilterErrors) {
    PuzzleDef soma = loadPuzzle("soma.txt");
    EXPECT_NE(solve(soma, "-r Q").error.find("no piece named 'Q'"), std::string::npos);
    PuzzleDef hole = loadPuzzle("pentominoes_8x8_hole.txt");
    EXPECT_NE(solve(hole, "-r *").error.find("stationary"), std::string::npos);
    // Copies: a puzzle whose only pieces are copies falls back to a per-solution check.
    PuzzleDef dominoes = parsePuzzle("D:xDim=2:yDim=2:zDim=1\nC:name=D:count=2:layout=0 0 0, 1 0 0\n~D\n");
    EXPECT_EQ(solve(dominoes, "").count, 2);    // horizontal pair, vertical pair
    EXPECT_EQ(solve(dominoes, "-r").count, 1);  // the two are rotations of each other
    EXPECT_NE(solve(dominoes, "-r D").error.find("copies"), std::string::npos);
}

TEST(Solver, CopiesAreNotPermuted) {
    // Four identical L trominoes tile a 4x3 box; copies must not multiply the count.
    PuzzleDef named = parsePuzzle(
        "D:xDim=4:yDim=3:zDim=1\n"
        "C:name=A:layout=0 0 0, 1 0 0, 0 1 0\nC:name=B:layout=0 0 0, 1 0 0, 0 1 0\n"
        "C:name=C:layout=0 0 0, 1 0 0, 0 1 0\nC:name=D:layout=0 0 0, 1 0 0, 0 1 0\n~D\n");
    PuzzleDef counted = parsePuzzle("D:xDim=4:yDim=3:zDim=1\nC:name=A:count=4:layout=0 0 0, 1 0 0, 0 1 0\n~D\n");
    RunResult a = solve(named, "", true), b = solve(counted, "", true);
    EXPECT_EQ(a.count, b.count);
    EXPECT_GT(a.count, 0);
    EXPECT_EQ(a.checkerFailures + b.checkerFailures, 0);
    std::set<std::vector<int>> distinct(a.grids.begin(), a.grids.end());
    EXPECT_EQ(distinct.size(), a.grids.size());
}

TEST(Solver, LimitCancelAndImpossible) {
    PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    RunResult limited = solve(def, "-r -l 5");
    EXPECT_EQ(limited.count, 5);

    auto created = Solver::create(def, optionsFrom(""));
    ASSERT_TRUE(created.ok());
    Solver& s = *created.value;
    EXPECT_EQ(s.step(1000), Solver::State::Running);
    s.cancel();
    EXPECT_EQ(s.step(1000), Solver::State::Cancelled);
    long long attempts = s.stats().totalAttempts();
    EXPECT_EQ(s.step(1000), Solver::State::Cancelled);
    EXPECT_EQ(s.stats().totalAttempts(), attempts);

    EXPECT_EQ(solve(loadPuzzle("hexominoes_rect_15x14.txt"), "-r", false).count, 0);
}

TEST(Solver, MirrorOptionNeedsAClosedPieceSet) {
    PuzzleDef tetris = loadPuzzle("tetriscube.txt");
    EXPECT_NE(solve(tetris, "-M").error.find("closed under mirroring"), std::string::npos);
}

TEST(Symmetry, GroupSizes) {
    auto sizeOf = [](const std::string& file, bool mirror) {
        auto m = Model::build(loadPuzzle(file));
        return puzzleSymmetries(m.value, mirror).size();
    };
    EXPECT_EQ(sizeOf("soma.txt", false), 24u);
    EXPECT_EQ(sizeOf("soma.txt", true), 48u);
    EXPECT_EQ(sizeOf("pentominoes_10x6.txt", false), 4u);
    EXPECT_EQ(sizeOf("pentominoes_8x8_hole.txt", false), 8u);
    EXPECT_EQ(sizeOf("pentominoes_1s_30x3.txt", false), 4u);  // half turn, and turning the board over
    EXPECT_EQ(sizeOf("tetriscube.txt", false), 24u);
}
