#include <gtest/gtest.h>

#include "check/checker.hpp"
#include "test_support.hpp"

using namespace polycube;
using namespace polycube::testing;

TEST(Checker, AcceptsARealSolutionAndRejectsDamagedOnes) {
    PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    RunResult r = solve(def, "-r -l 1", true);
    ASSERT_EQ(r.grids.size(), 1u);
    std::vector<int> grid = r.grids[0];
    EXPECT_TRUE(checkSolution(def, grid).ok);

    std::vector<int> uncovered = grid;
    uncovered[7] = -1;
    EXPECT_NE(checkSolution(def, uncovered).message.find("not covered"), std::string::npos);

    std::vector<int> swapped = grid;  // two cells of different pieces exchanged
    size_t other = 1;
    while (swapped[other] == swapped[0]) ++other;
    std::swap(swapped[0], swapped[other]);
    EXPECT_FALSE(checkSolution(def, swapped).ok);

    std::vector<int> shortGrid(grid.begin(), grid.end() - 1);
    EXPECT_FALSE(checkSolution(def, shortGrid).ok);
}

TEST(Checker, RejectsMirrorImagesWhereOnlyRotationsAreAllowed) {
    // One-sided: an L tromino and its mirror would be the same free piece, but a one-sided
    // S tetromino may not be placed as a Z.
    PuzzleDef def = parsePuzzle("D:xDim=3:yDim=2:zDim=1:oneSide\nC:name=S:layout=1 0 0, 2 0 0, 0 1 0, 1 1 0\n"
                                "C:name=a:layout=0 0 0\nC:name=b:layout=0 0 0\n~D\n");
    // Z shape: cells (0,0),(1,0),(1,1),(2,1)
    std::vector<int> zGrid = {0, 0, 1, 2, 0, 0};
    EXPECT_FALSE(checkSolution(def, zGrid).ok);
    std::vector<int> sGrid = {1, 0, 0, 0, 0, 2};
    EXPECT_TRUE(checkSolution(def, sGrid).ok) << checkSolution(def, sGrid).message;
}

TEST(Checker, StationaryPiecesMustStayPut) {
    PuzzleDef def = loadPuzzle("pentominoes_8x8_hole.txt");
    RunResult r = solve(def, "-r -l 1", true);
    ASSERT_EQ(r.grids.size(), 1u);
    EXPECT_TRUE(checkSolution(def, r.grids[0]).ok);
}
