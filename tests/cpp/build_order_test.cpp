// Build orders (engine/assembly/build_order.hpp), every one checked by an independent replay in
// the tests' own simple model of the box (build_order_model.hpp), and where the pieces are few
// (Soma, hand-made and random figures) the class against that model's exhaustive search.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "assembly/box_turns.hpp"
#include "assembly/build_order.hpp"
#include "session/session.hpp"
#include "build_order_model.hpp"
#include "test_support.hpp"

namespace polycube::testing {
namespace {

// Pieces drawn in an L block of an X x 1 x Z box seen from the front: rows from the top layer down.
std::vector<int> gridFromRows(const PuzzleDef& def, const std::vector<std::string>& rows) {
    std::map<std::string, int> instanceOf;
    int i = 0;
    for (const PieceDef& p : def.pieces) instanceOf[p.name] = i++;
    std::vector<int> grid(def.boxVolume(), -1);
    for (int z = 0; z < def.zDim; ++z) {
        const std::string& row = rows[def.zDim - 1 - z];
        for (int x = 0; x < def.xDim; ++x) grid[x + def.xDim * def.yDim * z] = instanceOf[std::string(1, row[x])];
    }
    return grid;
}

// The order of a grid, replayed; its turn (when it has one) is a solution, replays and is easier.
BuildOrder orderOf(const PuzzleDef& def, const std::vector<int>& grid) {
    Result<BuildOrder> r = computeBuildOrder(def, grid);
    EXPECT_TRUE(r.ok()) << r.status.message;
    EXPECT_EQ(replayOrder(def, grid, r.value), "");
    if (r.value.turned) {
        const TurnedBuild& t = *r.value.turned;
        EXPECT_TRUE(checkSolution(def, t.grid).ok) << checkSolution(def, t.grid).message;
        EXPECT_EQ(replayOrder(def, t.grid, t.order), "") << t.words;
        EXPECT_FALSE(t.order.turned);
        EXPECT_NE(r.value.kind, BuildClass::FromAbove);
        EXPECT_LE(static_cast<int>(t.order.kind == BuildClass::Unsupported ? 2 : t.order.kind == BuildClass::Interlocked ? 3 : static_cast<int>(t.order.kind)),
                  static_cast<int>(r.value.kind == BuildClass::Unsupported ? 2 : r.value.kind == BuildClass::Interlocked ? 3 : static_cast<int>(r.value.kind)));
    }
    return r.value;
}

// The order of a grid whose pieces `group` interlock (so says the exhaustive search too).
BuildOrder interlockedOrder(const PuzzleDef& def, const std::vector<int>& grid, const std::vector<int>& group) {
    const BuildOrder o = orderOf(def, grid);
    EXPECT_EQ(o.kind, BuildClass::Interlocked);
    EXPECT_EQ(o.interlocked, group);
    EXPECT_EQ(exhaustiveClass(def, grid), BuildClass::Interlocked);
    return o;
}

// Hand-made, in a vertical slice one cell deep (a box of X x 1 x Z). A and B each hold the
// other down: A's top cell is over B, B's over A.
const char* kHooks =
    "D:xDim=3:yDim=1:zDim=3\n"
    "C:name=A:layout=0 0 0, 0 0 1, 1 0 1\n"
    "C:name=B:layout=1 0 0, 2 0 0, 2 0 1, 2 0 2, 1 0 2, 0 0 2\n"
    "~D\n";

TEST(BuildOrder, TwoHooksInterlock) {
    const PuzzleDef def = parsePuzzle(kHooks);
    const std::vector<int> grid = gridFromRows(def, {"BBB", "AAB", "ABB"});
    const BuildOrder o = interlockedOrder(def, grid, {0, 1});
    EXPECT_TRUE(o.steps.empty());
    EXPECT_NE(formatBuildOrder(def, o).find("A and B interlock"), std::string::npos) << formatBuildOrder(def, o);
}

// A 2x2x2 cube of two 4-cell pieces, each over a cell of the other; the walls stop every
// sideways slide. A third piece on top comes out first and goes in last.
TEST(BuildOrder, InterlockedPairUnderALid) {
    const PuzzleDef def = parsePuzzle(
        "D:xDim=2:yDim=2:zDim=3\n"
        "C:name=A:layout=0 0 0, 0 0 1, 1 0 1, 0 1 0\n"
        "C:name=B:layout=1 0 0, 1 1 0, 1 1 1, 0 1 1\n"
        "C:name=L:layout=0 0 0, 1 0 0, 0 1 0, 1 1 0\n"
        "~D\n");
    std::vector<int> grid(12);
    const int a[][3] = {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 0}}, b[][3] = {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {0, 1, 1}};
    for (auto& c : a) grid[c[0] + 2 * (c[1] + 2 * c[2])] = 0;
    for (auto& c : b) grid[c[0] + 2 * (c[1] + 2 * c[2])] = 1;
    for (int c = 8; c < 12; ++c) grid[c] = 2;
    const BuildOrder o = interlockedOrder(def, grid, {0, 1});
    ASSERT_EQ(o.steps.size(), 1u);
    EXPECT_EQ(o.steps[0].instance, 2);  // the lid, dropped onto the pair
    EXPECT_EQ(o.steps[0].slides[0].distance, 1);
}

// C rests on the lower jaw of A's mouth, under its upper jaw: lowered into the empty column
// on the right, then slid one cell left; the column I goes in after it.
TEST(BuildOrder, SlidIntoAMouth) {
    const PuzzleDef def = parsePuzzle(
        "D:xDim=3:yDim=1:zDim=3\n"
        "C:name=A:layout=0 0 0, 1 0 0, 0 0 1, 0 0 2, 1 0 2\n"
        "C:name=C:layout=0 0 0\n"
        "C:name=I:layout=0 0 0, 0 0 1, 0 0 2\n"
        "~D\n");
    const std::vector<int> grid = gridFromRows(def, {"AAI", "ACI", "AAI"});
    const BuildOrder o = orderOf(def, grid);
    EXPECT_EQ(o.kind, BuildClass::Sideways);
    ASSERT_EQ(o.steps.size(), 3u);
    EXPECT_EQ(o.steps[0].instance, 0);
    EXPECT_EQ(o.steps[1].instance, 1);
    ASSERT_EQ(o.steps[1].slides.size(), 2u);
    EXPECT_EQ(o.steps[1].slides[0].distance, 2);  // from z 3 down to z 1
    EXPECT_EQ(o.steps[1].slides[1].dx, -1);
    EXPECT_EQ(o.steps[1].slides[1].distance, 1);
    EXPECT_EQ(o.steps[2].instance, 2);
    EXPECT_EQ(exhaustiveClass(def, grid), BuildClass::Sideways);
    EXPECT_NE(formatBuildOrder(def, o).find("C  down 2, then 1 along -x (left)"), std::string::npos) << formatBuildOrder(def, o);
}

// A piece over the air of '*' (a figure, not a full box) has nothing to rest on in any order.
TEST(BuildOrder, NothingUnderAPieceOverAir) {
    const PuzzleDef def = parsePuzzle(
        "D:xDim=2:yDim=1:zDim=2\n"
        "C:name=*:type=S:layout=1 0 0\n"
        "C:name=A:layout=0 0 0\n"
        "C:name=B:layout=0 0 0\n"
        "C:name=C:layout=0 0 0\n"
        "~D\n");
    const std::vector<int> grid = gridFromRows(def, {"BC", "A*"});
    const BuildOrder o = orderOf(def, grid);
    EXPECT_EQ(o.kind, BuildClass::Unsupported);
    EXPECT_EQ(exhaustiveClass(def, grid), BuildClass::Unsupported);
    int held = 0;
    for (const BuildStep& s : o.steps) held += !s.rests;
    EXPECT_EQ(held, 1);  // C, over the air: no order puts anything under it
}

// B hangs over the air and rests on A alone: A goes in first.
TEST(BuildOrder, AHangingPieceAfterItsSupport) {
    // B hangs over the air of '*' and rests on A only; D over A's other cell.
    const PuzzleDef def = parsePuzzle(
        "D:xDim=3:yDim=1:zDim=2\n"
        "C:name=*:type=S:layout=2 0 0\n"
        "C:name=A:layout=0 0 0, 1 0 0\n"
        "C:name=B:layout=0 0 0, 1 0 0\n"
        "C:name=D:layout=0 0 0\n"
        "~D\n");
    const std::vector<int> grid = gridFromRows(def, {"DBB", "AA*"});
    const BuildOrder o = orderOf(def, grid);
    EXPECT_EQ(o.kind, BuildClass::FromAbove);
    EXPECT_EQ(exhaustiveClass(def, grid), BuildClass::FromAbove);
}

// Random figures: a small box, some cells of it air ('*'), the rest cut into random pieces of
// one to four cells. Air makes resting matter (a piece over air may have nothing under it), and
// hooks of random pieces interlock: the class must be the exhaustive search's every time, and
// the order must replay.
TEST(BuildOrder, RandomFiguresAgreeWithExhaustiveSearch) {
    std::mt19937 rng(20261127);
    std::map<BuildClass, int> seen;
    for (int round = 0; round < 300; ++round) {
        const int X = 3 + static_cast<int>(rng() % 3), Y = 1 + static_cast<int>(rng() % 2), Z = 3 + static_cast<int>(rng() % 2);
        const int volume = X * Y * Z;
        std::vector<int> owner(volume, -1);  // -2 air
        for (int c = 0; c < volume; ++c)
            if (round % 2 == 0 && rng() % 8 == 0) owner[c] = -2;  // every other figure has air
        // grow pieces from random free cells through free face neighbours
        int pieces = 0;
        for (int start = 0; start < volume; ++start) {
            if (owner[start] != -1) continue;
            const int size = 3 + static_cast<int>(rng() % 4);
            std::vector<int> cells{start};
            owner[start] = pieces;
            while (static_cast<int>(cells.size()) < size) {
                std::vector<int> options;
                for (int c : cells) {
                    const int x = c % X, y = (c / X) % Y, z = c / (X * Y);
                    const int nb[6][3] = {{x + 1, y, z}, {x - 1, y, z}, {x, y + 1, z}, {x, y - 1, z}, {x, y, z + 1}, {x, y, z - 1}};
                    for (auto& n : nb)
                        if (n[0] >= 0 && n[0] < X && n[1] >= 0 && n[1] < Y && n[2] >= 0 && n[2] < Z && owner[n[0] + X * (n[1] + Y * n[2])] == -1)
                            options.push_back(n[0] + X * (n[1] + Y * n[2]));
                }
                if (options.empty()) break;
                // (from the cell added last when it can: long bent pieces hook over each other)
                const int next = options[rng() % 3 == 0 ? rng() % options.size() : options.size() - 1 - rng() % std::min<size_t>(2, options.size())];
                owner[next] = pieces;
                cells.push_back(next);
            }
            ++pieces;
        }
        if (pieces > 12) continue;
        std::string text = "D:xDim=" + std::to_string(X) + ":yDim=" + std::to_string(Y) + ":zDim=" + std::to_string(Z) + "\n";
        std::vector<std::string> layouts(pieces + 1);
        for (int c = 0; c < volume; ++c) {
            const int k = owner[c] == -2 ? pieces : owner[c];
            layouts[k] += (layouts[k].empty() ? "" : ", ") + std::to_string(c % X) + " " + std::to_string((c / X) % Y) + " " + std::to_string(c / (X * Y));
        }
        for (int k = 0; k < pieces; ++k) text += "C:name=P" + std::to_string(k) + ":layout=" + layouts[k] + "\n";
        if (!layouts[pieces].empty()) text += "C:name=*:type=S:layout=" + layouts[pieces] + "\n";
        text += "~D\n";
        ParseResult parsed = parseDefinitions(text, "random");
        ASSERT_TRUE(parsed.ok()) << parsed.error.format() << "\n" << text;
        const PuzzleDef& def = parsed.puzzles.front();
        std::vector<int> grid(volume);
        for (int c = 0; c < volume; ++c) grid[c] = owner[c] == -2 ? pieces : owner[c];
        const BuildOrder o = orderOf(def, grid);
        EXPECT_EQ(o.kind, exhaustiveClass(def, grid)) << text;
        EXPECT_FALSE(o.searchExhausted);
        ++seen[o.kind];
    }
    // the cases cover every class
    for (BuildClass k : {BuildClass::FromAbove, BuildClass::Sideways, BuildClass::Interlocked, BuildClass::Unsupported})
        EXPECT_GT(seen[k], 5) << buildClassName(k) << " " << seen[BuildClass::FromAbove] << " " << seen[BuildClass::Sideways] << " "
                              << seen[BuildClass::Interlocked] << " " << seen[BuildClass::Unsupported];
}

// The grid of a puzzle whose pieces are written where they lie (absolute coordinates).
std::vector<int> gridAsWritten(const PuzzleDef& def) {
    std::vector<int> grid(def.boxVolume(), -1);
    int instance = 0;
    for (const PieceDef& p : def.pieces) {
        for (const Vec3& c : p.cells) grid[c.x + def.xDim * (c.y + def.yDim * c.z)] = instance;
        ++instance;
    }
    return grid;
}

// Found among random figures with air ('*') and blocks (W): taking out the highest piece that
// can leave, and a piece nothing rests on alone first, still leaves a piece with nothing under
// it later; the search backs up and finds the order (exhaustive: sideways slides, all resting).
TEST(BuildOrder, TheSearchBacksUpWhenRestingDecides) {
    for (const char* text : {
        "D:xDim=3:yDim=3:zDim=4\n"
        "C:name=P0:layout=0 0 0, 0 0 1, 1 0 1, 1 1 1\n"
        "C:name=P1:layout=2 0 0, 2 1 0, 2 0 1, 2 1 1\n"
        "C:name=P2:layout=1 2 0, 1 2 1\n"
        "C:name=P3:layout=2 2 0, 2 2 1, 2 2 2\n"
        "C:name=P4:layout=0 1 1\n"
        "C:name=P5:layout=0 2 1, 1 1 2, 0 2 2, 1 2 2\n"
        "C:name=P6:layout=1 0 2, 1 0 3\n"
        "C:name=P7:layout=2 0 2, 2 0 3\n"
        "C:name=P8:layout=2 1 2, 2 1 3, 2 2 3\n"
        "C:name=P9:layout=0 0 3, 0 1 3\n"
        "C:name=P10:layout=1 2 3\n"
        "C:name=*:type=S:layout=1 0 0, 1 1 0, 0 2 0\n"
        "C:name=W:type=S:layout=0 1 0, 0 0 2, 0 1 2, 1 1 3, 0 2 3\n"
        "~D\n",
        "D:xDim=3:yDim=3:zDim=3\n"
        "C:name=P0:layout=0 0 0, 0 0 1\n"
        "C:name=P1:layout=1 0 0, 0 1 0, 1 1 0\n"
        "C:name=P2:layout=2 0 0, 2 1 0\n"
        "C:name=P3:layout=0 2 0, 1 2 0, 1 2 1\n"
        "C:name=P4:layout=2 2 0, 2 0 1, 2 1 1, 2 2 1\n"
        "C:name=P5:layout=1 0 1, 1 1 1, 1 1 2\n"
        "C:name=P6:layout=0 1 1, 0 2 1, 0 2 2\n"
        "C:name=P7:layout=1 0 2, 2 0 2, 2 1 2\n"
        "C:name=P8:layout=1 2 2\n"
        "C:name=*:type=S:layout=2 2 2\n"
        "C:name=W:type=S:layout=0 0 2, 0 1 2\n"
        "~D\n"}) {
        const PuzzleDef def = parsePuzzle(text);
        const std::vector<int> grid = gridAsWritten(def);
        const BuildOrder o = orderOf(def, grid);
        EXPECT_EQ(o.kind, BuildClass::Sideways);
        EXPECT_EQ(exhaustiveClass(def, grid), BuildClass::Sideways);
        EXPECT_GT(o.statesSearched, static_cast<long long>(o.steps.size()));  // it did back up
    }
}

// A grid from the CLI's printout: rows from y = yDim-1 down, the z layers side by side.
std::vector<int> gridFromPrintout(const PuzzleDef& def, const std::vector<std::string>& rows) {
    std::map<std::string, int> instanceOf;
    int i = 0;
    for (const PieceDef& p : def.pieces) instanceOf[p.name] = i++;
    std::vector<int> grid(def.boxVolume(), -1);
    for (int row = 0; row < def.yDim; ++row) {
        std::istringstream words(rows[row]);
        std::string name;
        for (int k = 0; words >> name; ++k) {
            const int x = k % def.xDim, z = k / def.xDim, y = def.yDim - 1 - row;
            grid[x + def.xDim * (y + def.yDim * z)] = instanceOf.at(name);
        }
    }
    return grid;
}

// One Tetris Cube solution (of 9,839; bench/BUILD-ORDER.md) comes apart by single moves, but in
// every order some piece goes in with nothing under it: E must be held up while J is slid under it.
TEST(BuildOrder, TetrisCubeSolutionWithAPieceToHold) {
    const PuzzleDef def = loadPuzzle("tetriscube.txt");
    const std::vector<int> grid = gridFromPrintout(def, {"G G G I   E E G I   E J G I   H H H H",
                                                         "A A I I   J J L D   E J C D   E H C D",
                                                         "A L B D   J L L D   E L K K   F F C C",
                                                         "A B B B   A L K B   A F K B   F F K C"});
    const BuildOrder o = orderOf(def, grid);
    EXPECT_EQ(o.kind, BuildClass::Unsupported);
    EXPECT_EQ(exhaustiveClass(def, grid), BuildClass::Unsupported);
    ASSERT_FALSE(o.steps.empty());
    EXPECT_EQ(instanceLabel(def, o.steps[0].instance), "E");
    EXPECT_FALSE(o.steps[0].rests);
}

// A solution turned in its box: which faces can go down, and the first Tetris Cube solution,
// interlocked as the search stores it, goes in from above with its front face down.
TEST(BuildOrder, TurnsOfTheBox) {
    auto faces = [](const char* text) {
        std::string out;
        for (const BoxTurn& t : boxTurns(parsePuzzle(text))) out += std::string(t.face) + " ";
        return out;
    };
    EXPECT_EQ(faces("D:xDim=2:yDim=2:zDim=2\nC:name=A:layout=0 0 0, 1 0 0, 0 1 0, 1 1 0\nC:name=B:layout=0 0 0, 1 0 0, 0 1 0, 1 1 0\n~D\n"), "-z +z -y +y -x +x ");
    EXPECT_EQ(faces("D:xDim=3:yDim=2:zDim=2\nC:name=A:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0, 1 1 0, 2 1 0\nC:name=B:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0, 1 1 0, 2 1 0\n~D\n"), "-z +z -y +y ");
    EXPECT_EQ(faces(kHooks), "-z +z -x +x ");  // 3 x 1 x 3: on a side too
    EXPECT_EQ(faces("D:xDim=2:yDim=1:zDim=2\nC:name=*:type=S:layout=1 0 0\nC:name=A:layout=0 0 0\nC:name=B:layout=0 0 0\nC:name=C:layout=0 0 0\n~D\n"), "-z ");
    const PuzzleDef def = loadPuzzle("tetriscube.txt");
    RunResult r = solve(def, "-r -l 1", true);
    ASSERT_EQ(r.grids.size(), 1u);
    const BuildOrder o = orderOf(def, r.grids[0]);
    EXPECT_EQ(o.kind, BuildClass::Interlocked);
    ASSERT_TRUE(o.turned);
    EXPECT_EQ(o.turned->face, "-y");
    EXPECT_EQ(o.turned->order.kind, BuildClass::FromAbove);
    EXPECT_EQ(bestClass(o), BuildClass::FromAbove);
    EXPECT_NE(formatBuildOrder(def, o).find("# turned with its front face (-y) at the bottom, it goes in from above\n"), std::string::npos);
    // turning a cube's solution four ways about x brings it back
    const std::vector<BoxTurn> turns = boxTurns(def);
    std::vector<int> g = r.grids[0];
    for (int k = 0; k < 4; ++k) g = turnGrid(def, g, turns[2]);
    EXPECT_EQ(g, r.grids[0]);
    EXPECT_NE(turnGrid(def, r.grids[0], turns[2]), r.grids[0]);
}

TEST(BuildOrder, FlatBoardsBottomLeftFirst) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    RunResult r = solve(def, "-r -l 3", true);
    ASSERT_EQ(r.grids.size(), 3u);
    for (const auto& grid : r.grids) {
        const BuildOrder o = orderOf(def, grid);
        EXPECT_TRUE(o.flat);
        EXPECT_EQ(o.kind, BuildClass::FromAbove);
        ASSERT_EQ(o.steps.size(), 12u);
        EXPECT_EQ(grid[0], o.steps[0].instance);  // the corner cell (0, 0)'s piece first
        for (const BuildStep& s : o.steps) EXPECT_EQ(s.slides[0].distance, 1);
    }
}

TEST(BuildOrder, MalformedGridsAreErrors) {
    const PuzzleDef def = parsePuzzle(kHooks);
    std::vector<int> grid = gridFromRows(def, {"BBB", "AAB", "ABB"});
    EXPECT_NE(computeBuildOrder(def, std::vector<int>(8, 0)).status.message.find("grid has 8 cells, the box has 9"), std::string::npos);
    grid[0] = 7;
    EXPECT_FALSE(computeBuildOrder(def, grid).ok());
    grid[0] = 1;  // B's shape no longer
    const Result<BuildOrder> r = computeBuildOrder(def, grid);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status.message.find("not a solution of this puzzle"), std::string::npos) << r.status.message;
}

// Every Soma solution: the order replays, and the class is the exhaustive search's.
TEST(BuildOrder, SomaEverySolution) {
    const PuzzleDef def = loadPuzzle("soma.txt");
    RunResult r = solve(def, "-r", true);
    ASSERT_EQ(r.grids.size(), 480u);
    std::map<BuildClass, int> counts;
    for (const auto& grid : r.grids) {
        const BuildOrder o = orderOf(def, grid);
        EXPECT_EQ(o.kind, exhaustiveClass(def, grid));
        ++counts[o.kind];
    }
    EXPECT_EQ(counts[BuildClass::FromAbove] + counts[BuildClass::Sideways] + counts[BuildClass::Interlocked], 480);
    EXPECT_EQ(counts[BuildClass::FromAbove], 480);  // (bench/BUILD-ORDER.md)
}

// Figures of '*' cells (air, no support): every order replays, and the class is exhaustive's.
TEST(BuildOrder, SomaFigures) {
    for (const char* file : {"families/soma_steps.txt", "families/soma_bathtub.txt", "families/soma_tunnel.txt"}) {
        const PuzzleDef def = loadPuzzle(file);
        RunResult r = solve(def, "-r -l 40", true);
        ASSERT_FALSE(r.grids.empty()) << file;
        for (const auto& grid : r.grids) EXPECT_EQ(orderOf(def, grid).kind, exhaustiveClass(def, grid)) << file;
    }
}

// Samples of the Tetris Cube's and Bedlam's solutions (bench/build-order.mjs classifies all of
// them): every order replays; interlocked groups are stuck in the simple model, and the
// straight-drop class agrees with a greedy of straight drops in it (exact: see the doc).
void checkSample(const char* file, int count, std::map<BuildClass, int>& counts) {
    const PuzzleDef def = loadPuzzle(file);
    RunResult r = solve(def, "-r -l " + std::to_string(count), true);
    ASSERT_EQ(r.grids.size(), static_cast<size_t>(count));
    for (const auto& grid : r.grids) {
        const BuildOrder o = orderOf(def, grid);
        ++counts[o.kind];
        Box box(def, grid);
        // take out (in the simple model) every piece that can come out straight up
        std::vector<int> left = box.mobile;
        for (int p : left) box.place(p, true);
        for (bool moved = true; moved;) {
            moved = false;
            for (size_t k = 0; k < left.size(); ++k) {
                box.place(left[k], false);
                if (box.insertable(left[k], false)) {
                    left.erase(left.begin() + static_cast<long>(k));
                    moved = true;
                    break;
                }
                box.place(left[k], true);
            }
        }
        EXPECT_EQ(o.kind == BuildClass::FromAbove, left.empty());
        if (o.kind == BuildClass::Interlocked) {
            box.occupied = box.solid;
            for (int i : o.interlocked) box.place(i, true);
            for (int i : o.interlocked) {
                box.place(i, false);
                EXPECT_FALSE(box.insertable(i, true)) << instanceLabel(def, i) << " could come out";
                box.place(i, true);
            }
        }
    }
}

TEST(BuildOrder, TetrisCubeSample) {
    std::map<BuildClass, int> counts;
    checkSample("tetriscube.txt", 150, counts);
    for (BuildClass k : {BuildClass::FromAbove, BuildClass::Sideways, BuildClass::Interlocked}) EXPECT_GT(counts[k], 0) << buildClassName(k);
}

TEST(BuildOrder, BedlamSample) {
    std::map<BuildClass, int> counts;
    checkSample("bedlam.txt", 150, counts);
    for (BuildClass k : {BuildClass::FromAbove, BuildClass::Sideways, BuildClass::Interlocked}) EXPECT_GT(counts[k], 0) << buildClassName(k);
}

TEST(BuildOrder, SessionJson) {
    Session s;
    ASSERT_TRUE(s.load(kHooks, "hooks.txt"));
    const std::vector<int32_t> grid = {0, 1, 1, 0, 0, 1, 1, 1, 1};
    nlohmann::json j = nlohmann::json::parse(s.buildOrderJson(0, grid));
    EXPECT_EQ(j["ok"], true);
    EXPECT_EQ(j["class"], "interlocked");
    EXPECT_EQ(j["interlocked"], nlohmann::json({0, 1}));
    EXPECT_EQ(s.buildOrderJson(3, grid), "");
    EXPECT_EQ(s.errorCode(), Session::ErrorCode::kBadArgument);
    EXPECT_EQ(s.lastError(), "no puzzle number 3 (1 loaded)");
    EXPECT_EQ(s.buildOrderJson(0, {0, 1}), "");
    EXPECT_EQ(s.errorCode(), Session::ErrorCode::kBadArgument);
    EXPECT_NE(s.lastError().find("grid has 2 cells"), std::string::npos) << s.lastError();
    ASSERT_FALSE(s.start(0, "--build-order"));
    EXPECT_EQ(s.lastError(), "--build-order is an option of the polycube command line, not a search option");
}

}  // namespace
}  // namespace polycube::testing
