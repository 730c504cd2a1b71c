// The solutions through each placement (MemoSettings::placementCounts, the CLI's --placements;
// engine/memo/placement_counts.hpp): per image, the number of the enumerating search's
// solutions that place a copy of its shape on its cells, counted from those solutions here;
// the same whatever the slices; an impossible puzzle's are all 0; a budget too small and -r
// are refused with a message.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "memo/memo_counter.hpp"
#include "memo/memo_options.hpp"
#include "test_support.hpp"

namespace polycube {
namespace {

using testing::loadPuzzle;

struct Placed {
    MemoCounter::State state = MemoCounter::State::Running;
    std::string error;
    uint64_t count = 0;
    std::vector<uint64_t> perImage;
    Model model;
    MemoStats stats;
};

Placed countPlacements(const PuzzleDef& def, MemoSettings settings, long long slice = 1 << 20) {
    settings.placementCounts = true;
    Placed out;
    std::unique_ptr<MemoCounter> c = MemoCounter::begin(def, settings);
    while ((out.state = c->step(slice)) == MemoCounter::State::Running) {
    }
    out.error = c->error();
    out.count = c->count();
    out.perImage = c->placementCounts();
    out.model = c->model();
    out.stats = c->stats();
    return out;
}

// Per image of `m`: the solutions among `grids` (box index -> instance) that place it.
std::vector<uint64_t> countedFromSolutions(const Model& m, const std::vector<std::vector<int>>& grids) {
    std::vector<uint64_t> counts(m.images.size(), 0);
    for (const std::vector<int>& grid : grids) {
        std::map<int, std::vector<int>> cellsOf;  // instance -> its open cells
        for (size_t box = 0; box < grid.size(); ++box)
            if (grid[box] >= 0 && m.openCellOfBox[box] >= 0) cellsOf[grid[box]].push_back(m.openCellOfBox[box]);
        for (auto& [instance, cells] : cellsOf) {
            const int shape = m.instances[static_cast<size_t>(instance)].shape;
            if (shape < 0) continue;  // a stationary piece
            std::sort(cells.begin(), cells.end());
            const int image = m.findImage(shape, cells);
            EXPECT_GE(image, 0) << "a solution's piece lies on no image";
            if (image >= 0) ++counts[static_cast<size_t>(image)];
        }
    }
    return counts;
}

// Dominoes around two stationary cells: copies and stationary pieces in one grid.
const char* kDominoesAroundTwoCells =
    "D:xDim=4:yDim=4:zDim=1\n"
    "C:name=D:count=7:layout=0 0 0, 1 0 0\n"
    "C:name=*:type=S:layout=0 0 0, 3 0 0\n"
    "~D\n";

TEST(MemoPlacements, EachPlacementCountsTheEnumeratedSolutionsThatPlaceIt) {
    std::vector<std::pair<std::string, PuzzleDef>> cases;
    for (const char* file : {"lesson_symmetry_4x3.txt", "lesson_tiny_2x2x3.txt", "lesson_tiny_4x3.txt", "pentominoes_1s_30x3.txt",
                             "solid_pentominoes_2x3x10.txt", "pentominoes_8x8_hole.txt", "soma.txt", "pentominoes_10x6.txt"})
        cases.emplace_back(file, loadPuzzle(file));
    cases.emplace_back("dominoes around two stationary cells", testing::parsePuzzle(kDominoesAroundTwoCells));
    for (const auto& [name, def] : cases) {
        SCOPED_TRACE(name);
        const testing::RunResult enumerated = testing::solve(def, "--no-orbits", true);
        ASSERT_TRUE(enumerated.error.empty()) << enumerated.error;
        ASSERT_GT(enumerated.count, 0);
        const Placed placed = countPlacements(def, MemoSettings{});
        ASSERT_EQ(placed.state, MemoCounter::State::Done) << placed.error;
        ASSERT_EQ(placed.count, static_cast<uint64_t>(enumerated.count));
        ASSERT_EQ(placed.perImage.size(), placed.model.images.size());
        EXPECT_EQ(placed.perImage, countedFromSolutions(placed.model, enumerated.grids));
        // Every solution places every mobile piece once.
        uint64_t sum = 0;
        for (uint64_t n : placed.perImage) sum += n;
        EXPECT_EQ(sum, placed.count * static_cast<uint64_t>(placed.model.mobileCount()));
        EXPECT_GT(placed.stats.subproblems, 0);
        EXPECT_GT(placed.stats.layerBytes, 0);
    }
}

TEST(MemoPlacements, SlicesOfAnySizeGiveTheSameCounts) {
    const PuzzleDef def = loadPuzzle("pentominoes_1s_30x3.txt");
    const Placed whole = countPlacements(def, MemoSettings{});
    ASSERT_EQ(whole.state, MemoCounter::State::Done) << whole.error;
    for (long long slice : {1LL, 7LL, 1000LL}) {
        SCOPED_TRACE(slice);
        const Placed sliced = countPlacements(def, MemoSettings{}, slice);
        ASSERT_EQ(sliced.state, MemoCounter::State::Done) << sliced.error;
        EXPECT_EQ(sliced.count, whole.count);
        EXPECT_EQ(sliced.perImage, whole.perImage);
    }
}

TEST(MemoPlacements, KeysOfManyWordsAreSortedToo) {
    // Bars of 17 in a 17x17 square: a bar across the sweep reaches 272 cells past its first,
    // so the keys take 5 words (past the entries sorted where they lie). Two solutions, all
    // bars one way or all the other: each placement in one.
    std::string layout;
    for (int i = 0; i < 17; ++i) layout += (i ? ", " : "") + std::to_string(i) + " 0 0";
    const Placed bars = countPlacements(testing::parsePuzzle("D:xDim=17:yDim=17:zDim=1\nC:name=I:count=17:layout=" + layout + "\n~D\n"),
                                        MemoSettings{});
    ASSERT_EQ(bars.state, MemoCounter::State::Done) << bars.error;
    EXPECT_EQ(bars.count, 2u);
    EXPECT_EQ(bars.perImage, std::vector<uint64_t>(34, 1));
}

TEST(MemoPlacements, AnImpossiblePuzzleHasNoneThroughAnyPlacement) {
    // Proved impossible before counting (two T tetrominoes cannot fill a 2x4 box: parity).
    const Placed proved = countPlacements(loadPuzzle("impossible/two_t_tetrominoes.txt"), MemoSettings{});
    ASSERT_EQ(proved.state, MemoCounter::State::Done) << proved.error;
    EXPECT_EQ(proved.count, 0u);
    ASSERT_EQ(proved.perImage.size(), proved.model.images.size());
    EXPECT_TRUE(std::all_of(proved.perImage.begin(), proved.perImage.end(), [](uint64_t n) { return n == 0; }));
    // Counted to 0 by the passes (no proof finds it): three U pentominoes in a 3x5 box.
    const Placed searched = countPlacements(
        testing::parsePuzzle("D:xDim=3:yDim=5:zDim=1\nC:name=U:count=3:layout=0 0 0, 0 1 0, 1 0 0, 2 0 0, 2 1 0\n~D\n"),
        MemoSettings{});
    EXPECT_TRUE(searched.stats.subproblems > 0);
    ASSERT_EQ(searched.state, MemoCounter::State::Done) << searched.error;
    EXPECT_EQ(searched.count, 0u);
    ASSERT_FALSE(searched.perImage.empty());
    EXPECT_TRUE(std::all_of(searched.perImage.begin(), searched.perImage.end(), [](uint64_t n) { return n == 0; }));
}

TEST(MemoPlacements, ABudgetTooSmallAndClassesAreRefused) {
    MemoSettings small;
    small.maxTableBytes = 64 << 10;
    const Placed tight = countPlacements(loadPuzzle("pentominoes_10x6.txt"), small);
    EXPECT_EQ(tight.state, MemoCounter::State::Failed);
    EXPECT_NE(tight.error.find("--placements keeps every subproblem of the count, and they pass the memory budget of 64 KiB"),
              std::string::npos)
        << tight.error;
    MemoSettings classes = testing::memoSettingsFrom("-r");
    const Placed r = countPlacements(loadPuzzle("soma.txt"), classes);
    EXPECT_EQ(r.state, MemoCounter::State::Failed);
    EXPECT_NE(r.error.find("drop -r"), std::string::npos) << r.error;
    // The option's rules (the CLI's): --memo needed, not with -r, --solution or --random.
    EXPECT_NE(memoConflict(testing::optionsFrom("--placements")).find("give --memo too"), std::string::npos);
    EXPECT_NE(memoConflict(testing::optionsFrom("--memo --placements -r")).find("drop -r"), std::string::npos);
    EXPECT_NE(memoConflict(testing::optionsFrom("--memo --placements --random 3")).find("give one"), std::string::npos);
    EXPECT_EQ(memoConflict(testing::optionsFrom("--memo --placements")), "");
}

}  // namespace
}  // namespace polycube
