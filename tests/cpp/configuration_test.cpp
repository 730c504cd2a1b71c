// planAlgorithms (solver/configuration.hpp): the automatic configuration as a pure function
// of the options and the puzzle's shape, returning a typed plan.
#include <gtest/gtest.h>

#include "solver/configuration.hpp"
#include "solver/options.hpp"
#include "test_support.hpp"

using namespace polycube;

namespace {

SolverOptions optionsOf(const std::vector<std::string>& words) {
    OptionParse p = parseOptions(words, [](const std::string&) { return false; });
    EXPECT_TRUE(p.ok()) << p.error;
    return p.options;
}

PuzzleFacts box(int x, int y, int z, int pieces, int holes = 0) {
    PuzzleFacts f;
    f.xDim = x, f.yDim = y, f.zDim = z;
    f.pieces = pieces;
    f.boxCells = x * y * z;
    f.openCells = f.boxCells - holes;
    return f;
}

}  // namespace

TEST(Configuration, AutomaticPlansByShape) {
    const SolverOptions automatic = optionsOf({"-r"});
    // a full flat box: DLX for the root, FILA with F below, the root on -r's piece
    AlgorithmPlan flat = planAlgorithms(automatic, box(10, 6, 1, 12)).value;
    EXPECT_TRUE(flat.automatic);
    EXPECT_EQ(flat.filaAt, 11);
    EXPECT_EQ(flat.schedule.describe(), "s=12:f=11");
    EXPECT_TRUE(flat.nof);
    EXPECT_TRUE(flat.rootOnConstrainedPiece);
    EXPECT_FALSE(flat.rootByProbes);
    EXPECT_EQ(flat.volumeFilterAt, 12);
    EXPECT_EQ(flat.parityFilterAt, 12);
    EXPECT_TRUE(flat.deadCellCut);
    // 3-D: E then c, the root by probes on a long search
    AlgorithmPlan cube = planAlgorithms(automatic, box(4, 4, 4, 12)).value;
    EXPECT_EQ(cube.schedule.describe(), "s=12:e=11:c=2");
    EXPECT_TRUE(cube.rootByProbes);
    EXPECT_TRUE(cube.rootProbesWhenLong);
    // an irregular board of 15 or more pieces; more than 20 pieces: the angular sweep
    EXPECT_EQ(planAlgorithms(automatic, box(13, 13, 1, 16, 9)).value.schedule.describe(), "s=16:e=12:f=3");
    AlgorithmPlan many = planAlgorithms(automatic, box(20, 20, 1, 40, 10)).value;
    EXPECT_EQ(many.filaAt, 15);
    EXPECT_EQ(many.schedule.describe(), "a@160=40:e=15:f=3");
    // small puzzles: no volume filter, no extended index
    AlgorithmPlan soma = planAlgorithms(automatic, box(3, 3, 3, 7)).value;
    EXPECT_EQ(soma.volumeFilterAt, INT_MAX);
    EXPECT_EQ(soma.extendedIndex, 0);
    // a piece in parts: the volume constraints and the dead-cell cut are off, and said
    PuzzleFacts parts = box(10, 6, 1, 12);
    parts.pieceInParts = "Q";
    AlgorithmPlan split = planAlgorithms(automatic, parts).value;
    EXPECT_EQ(split.volumeFilterAt, INT_MAX);
    EXPECT_EQ(split.volumeOffFor, "Q");
    EXPECT_FALSE(split.deadCellCut);
}

// The schedule built from typed entries is the one the option text gives, -o and the first
// seed article's thresholds (-b -m -e) together.
TEST(Configuration, ExplicitSchedulesAreTheOptionText) {
    struct Case {
        std::vector<std::string> words;
        const char* text;  // the same schedule written as -o text
    };
    const Case cases[] = {
        {{"-o", "x:s=20"}, "x:s=20"},
        {{"-m", "5"}, "s=5"},
        {{"-o", "z", "-b", "4", "-e", "7"}, "z:e=7:f=4"},
        {{"-o", "s=3", "-m", "9"}, "s=3:s=9"},
        {{"-f", "6"}, ""},
    };
    for (const Case& c : cases) {
        Result<AlgorithmPlan> plan = planAlgorithms(optionsOf(c.words), box(10, 6, 1, 12));
        ASSERT_TRUE(plan.ok()) << plan.status.message;
        EXPECT_FALSE(plan.value.automatic);
        EXPECT_EQ(plan.value.schedule.describe(), parseSchedule(c.text, 12).value.describe()) << c.text;
    }
    SolverOptions unchecked;  // (the option parser refuses it first; planAlgorithms says so too)
    unchecked.order = "q";
    unchecked.autoTune = false;
    Result<AlgorithmPlan> bad = planAlgorithms(unchecked, box(10, 6, 1, 12));
    EXPECT_FALSE(bad.ok());
    EXPECT_NE(bad.status.message.find("unknown heuristic 'q'"), std::string::npos) << bad.status.message;
}
