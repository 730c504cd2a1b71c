// The tubes of def/rings/: the 28 pentacubes in walls one cube thick. Their solutions were found
// outside the engine (def/rings/solutions.json); here each is checked by the independent
// checker, and the engine's own search, given ten of its pieces in place, finds the other 18.
#include <map>

#include "test_support.hpp"

namespace polycube {
namespace {

using testing::loadPuzzle;
using testing::readDefFile;

using Placement = std::map<std::string, Cells>;  // piece name -> its cells in the box

std::map<std::string, Placement> storedSolutions() {
    std::map<std::string, Placement> out;
    const auto j = nlohmann::json::parse(readDefFile("rings/solutions.json"));
    for (const auto& [file, pieces] : j.items())
        for (const auto& [name, cells] : pieces.items())
            for (const auto& c : cells) out[file][name].push_back({c[0].get<int>(), c[1].get<int>(), c[2].get<int>()});
    return out;
}

// Box index -> instance index, from the stored cells of each mobile piece and the stationary
// pieces where the definition has them; -1 where nothing is.
std::vector<int> gridOf(const PuzzleDef& def, const Placement& placed) {
    std::vector<int> grid(static_cast<size_t>(def.boxVolume()), -1);
    const std::vector<PieceInstanceRef> instances = expandInstances(def);
    for (size_t i = 0; i < instances.size(); ++i) {
        const PieceDef& piece = def.pieces[instances[i].defIndex];
        const auto found = placed.find(piece.name);
        const Cells& cells = piece.stationary ? piece.cells : found != placed.end() ? found->second : Cells{};
        for (const Vec3& c : cells) grid[static_cast<size_t>(c.x + def.xDim * (c.y + def.yDim * c.z))] = static_cast<int>(i);
    }
    return grid;
}

TEST(RingTubes, EveryStoredSolutionPassesTheChecker) {
    const auto solutions = storedSolutions();
    ASSERT_FALSE(solutions.empty());
    for (const auto& [file, placed] : solutions) {
        SCOPED_TRACE(file);
        const PuzzleDef def = loadPuzzle("rings/" + file);
        EXPECT_EQ(placed.size(), 28u);
        const CheckResult r = checkSolution(def, gridOf(def, placed));
        EXPECT_TRUE(r.ok) << r.message;
    }
}

// The checker fails a stored solution with two pieces' places swapped (a test of this test).
TEST(RingTubes, ASolutionWithTwoPiecesSwappedFails) {
    const auto solutions = storedSolutions();
    ASSERT_FALSE(solutions.empty());
    const auto& [file, stored] = *solutions.begin();
    const PuzzleDef def = loadPuzzle("rings/" + file);
    Placement swapped = stored;
    std::swap(swapped.at("P01"), swapped.at("P02"));
    EXPECT_FALSE(checkSolution(def, gridOf(def, swapped)).ok);
}

// Ten pieces left where the stored solution has them (stationary), the engine's search
// places the other 18: it finds solutions, among them the stored one.
TEST(RingTubes, TheSearchCompletesAStoredSolutionWithTenPiecesLeftInPlace) {
    for (const auto& [file, placed] : storedSolutions()) {
        SCOPED_TRACE(file);
        const PuzzleDef whole = loadPuzzle("rings/" + file);
        PuzzleDef half = whole;
        int fixed = 0;
        for (PieceDef& piece : half.pieces)
            if (!piece.stationary && fixed < 10) {
                piece.stationary = true;
                piece.cells = placed.at(piece.name);
                ++fixed;
            }
        ASSERT_EQ(fixed, 10);
        const testing::RunResult run = testing::solve(half, "", true);
        ASSERT_EQ(run.error, "");
        EXPECT_EQ(run.checkerFailures, 0) << run.firstCheckerFailure;
        EXPECT_GE(run.count, 1);
        const std::vector<int> storedGrid = gridOf(half, placed);
        EXPECT_NE(std::find(run.grids.begin(), run.grids.end(), storedGrid), run.grids.end());
    }
}

}  // namespace
}  // namespace polycube
