// Impossibility proofs by cell weightings (constraints/weighting.hpp, issue 12): each kind of
// argument proves a puzzle built for it (def/impossible/), every proof is checked by a full
// search with the proofs turned off, random small puzzles are cross-checked the same way, and
// no puzzle of the corpus that has solutions is ever called impossible.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "constraints/weighting.hpp"
#include "output/format.hpp"
#include "session/session.hpp"
#include "test_support.hpp"

namespace polycube::testing {
namespace {

namespace fs = std::filesystem;

// Full search with the weighting proofs off (parity stays: it is checked on its own).
long long countWithoutProofs(const PuzzleDef& def, const std::string& options = "") {
    SolverOptions o = optionsFrom(options);
    o.weightingProofs = false;
    auto created = Solver::create(def, o);
    EXPECT_TRUE(created.ok()) << created.status.message;
    if (!created.ok()) return -1;
    Solver& s = *created.value;
    while (s.step(1 << 20) == Solver::State::Running) {
    }
    return s.stats().solutions;
}

WeightingProof proofOf(const PuzzleDef& def) {
    Result<Model> m = Model::build(def);
    EXPECT_TRUE(m.ok()) << m.status.message;
    return m.ok() ? weightingImpossibility(m.value) : WeightingProof{};
}

struct Expected {
    const char* file;
    const char* kind;
    const char* certificate;  // a part of the reason
    bool search;              // confirm by a full search (short enough for a test)
};

const Expected kBuilt[] = {
    {"impossible/bars_10x10.txt", "colouring",
     "colouring the cells by (x + y) mod 4: the board has 26 cells of colour 1; the pieces always cover exactly 25", true},
    {"impossible/trominoes_8x8_notch.txt", "colouring",
     "colouring the cells by (x - y) mod 3: the board has 22 cells of colour 0; the pieces always cover exactly 21", true},
    {"impossible/two_t_tetrominoes.txt", "corner cells",
     "the board has 5 corner cells (cells with a wall, the border or a stationary piece, on at least one side along every "
     "axis); the pieces can cover at most 4 of them between them (at most 2 for each of the 2 copies of T)",
     true},
    {"impossible/skew_tetrominoes_4x4.txt", "surface cells", "the board has 10 surface cells", true},
    {"impossible/pentacube_steps_edges.txt", "edge cells", "the board has 16 edge cells", true},
    {"impossible/pentacube_steps_neighbours.txt", "open neighbours",
     "the board has 14 cells with at most 3 open neighbours; the pieces can cover at most 13", true},
    {"impossible/pentacube_pyramid_faces.txt", "walled faces", "the board has 86 cell faces against a wall", true},
    {"impossible/pentominoes_two_nooks.txt", "hard-to-reach cells",
     "the board has 10 cells that at most 1 piece can cover (a piece placed so that it walls off a pocket no set of the "
     "other pieces can fill is left out); the pieces can cover at most 5 of them between them (at most 5 for P; 0 for I, "
     "L, Y, N, V)",
     true},
    // The 29 pentacubes: too long to confirm by a search in a test.
    {"impossible/pentacube_ring_5x13.txt", "colouring",
     "colouring the cells by x mod 2: the board has 127 cells of colour 0; the pieces can cover at most 125", false},
    {"impossible/pentacube_ring_7x14.txt", "colouring",
     "colouring the cells by x mod 4: the board has 14 cells of colour 1; the pieces cover at least 20", false},
    // Polyform Puzzler's PentacubesSteppedPyramid_x1, "impossible due to corners" (issue 12).
    {"impossible/pentacube_stepped_pyramid.txt", "hard-to-reach cells",
     "the board has 16 cells that at most 2 pieces can cover", false},
};

TEST(Weighting, EachArgumentProvesThePuzzleBuiltForIt) {
    for (const Expected& e : kBuilt) {
        SCOPED_TRACE(e.file);
        PuzzleDef def = loadPuzzle(e.file);
        auto created = Solver::create(def, optionsFrom("-r"));
        ASSERT_TRUE(created.ok()) << created.status.message;
        Solver& s = *created.value;
        EXPECT_EQ(s.impossibleKind(), e.kind);
        EXPECT_NE(s.impossibleReason().find(e.certificate), std::string::npos) << s.impossibleReason();
        EXPECT_EQ(s.impossibleReason().rfind("impossible by ", 0), 0u);
        // Proved before searching: the first slice ends at once with nothing tried.
        EXPECT_EQ(s.step(1000), Solver::State::Done);
        EXPECT_EQ(s.stats().totalAttempts(), 0);
        EXPECT_EQ(s.stats().solutions, 0);
        // And true: a full search without the proofs finds nothing either.
        if (e.search) EXPECT_EQ(countWithoutProofs(def, "-r"), 0);
    }
}

TEST(Weighting, PlainReasonsForAPieceOrACellThatFitsNowhere) {
    // The V tromino cannot lie in a 1-wide corridor.
    PuzzleDef corridor = parsePuzzle(
        "D:xDim=6:yDim=1:zDim=1\nC:name=V:layout=0 0 0, 1 0 0, 0 1 0\nC:name=I:layout=0 0 0, 1 0 0, 2 0 0\n~D\n");
    WeightingProof p = proofOf(corridor);
    EXPECT_TRUE(p.impossible);
    EXPECT_EQ(p.kind, "fits nowhere");
    EXPECT_EQ(p.reason, "impossible because piece V fits nowhere in the space");
    // The cell at x=0, y=2 is walled in on three sides and 2 long: no straight tromino covers it.
    PuzzleDef dead = parsePuzzle(
        "D:xDim=4:yDim=3:zDim=1\nC:name=I:count=3:layout=0 0 0, 1 0 0, 2 0 0\n"
        "C:name=*:type=S:layout=0 0 0, 1 2 0, 2 2 0\n~D\n");
    p = proofOf(dead);
    EXPECT_EQ(p.kind, "uncoverable cell");
    EXPECT_EQ(p.reason, "impossible because no piece fits over the cell at x=0, y=2, z=0");
    EXPECT_EQ(countWithoutProofs(dead), 0);
}

TEST(Weighting, GapsInAPiecesValuesNeedTheSubsetSum) {
    // The 35 hexominoes in 15x14: parity's own argument. Under the checkerboard each hexomino
    // covers 3 black cells, or 2 or 4 (either sign), so the sums jump by 2: the range check alone
    // passes and the subset sum finds the gap.
    WeightingProof p = proofOf(loadPuzzle("hexominoes_rect_15x14.txt"));
    ASSERT_TRUE(p.impossible);
    EXPECT_EQ(p.kind, "colouring");
    EXPECT_NE(p.reason.find("mod 2"), std::string::npos) << p.reason;
    EXPECT_NE(p.reason.find("but never exactly 105"), std::string::npos) << p.reason;
    // The subset sum is bounded: with no budget for it the same puzzle is not claimed.
    Result<Model> m = Model::build(loadPuzzle("hexominoes_rect_15x14.txt"));
    ASSERT_TRUE(m.ok());
    WeightingLimits none;
    none.maxDpWords = 0;
    WeightingProof bounded = weightingImpossibility(m.value, none);
    EXPECT_FALSE(bounded.impossible);
    EXPECT_GT(bounded.skipped, 0);
}

// Random small puzzles (polyominoes of 3 to 5 cells with copies, on random boards): every puzzle
// the weightings call impossible has no solution by a full search, and the check proves a good
// share of the zero-solution ones.
TEST(Weighting, RandomPuzzlesNeverProvedImpossibleWhenSolvable) {
    const std::vector<std::string> shapes = {
        "0 0 0, 1 0 0, 2 0 0",       "0 0 0, 1 0 0, 0 1 0",        "0 0 0, 1 0 0, 2 0 0, 3 0 0",
        "0 0 0, 1 0 0, 2 0 0, 1 1 0", "0 0 0, 1 0 0, 1 1 0, 2 1 0", "0 0 0, 1 0 0, 2 0 0, 0 1 0",
        "0 0 0, 1 0 0, 0 1 0, 1 1 0", "0 0 0, 1 0 0, 2 0 0, 0 1 0, 0 2 0", "0 0 0, 1 0 0, 2 0 0, 1 1 0, 1 2 0",
        "0 0 0, 1 0 0, 1 1 0, 2 1 0, 2 2 0", "0 0 0, 1 0 0, 2 0 0, 3 0 0, 1 1 0", "1 0 0, 0 1 0, 1 1 0, 2 1 0, 1 2 0",
    };
    std::mt19937 rng(12);
    int proved = 0, zero = 0, solvable = 0;
    for (int trial = 0; trial < 1500; ++trial) {
        const int w = 3 + rng() % 4, h = 3 + rng() % 4;
        // Board: the box minus random blocked cells; pieces: random shapes and copies to fill it.
        std::vector<char> blocked(w * h, 0);
        int open = w * h;
        const int blocks = rng() % 5;
        for (int b = 0; b < blocks; ++b) {
            int c = rng() % (w * h);
            if (!blocked[c]) blocked[c] = 1, open--;
        }
        std::string text = "D:xDim=" + std::to_string(w) + ":yDim=" + std::to_string(h) + ":zDim=1\n";
        int volume = 0, piece = 0;
        while (volume < open) {
            const std::string& cells = shapes[rng() % shapes.size()];
            const int size = static_cast<int>(std::count(cells.begin(), cells.end(), ',')) + 1;
            if (volume + size > open) break;
            const int copies = 1 + rng() % 3;
            int take = 0;
            while (take < copies && volume + size <= open) volume += size, take++;
            text += "C:name=P" + std::to_string(piece++) + ":count=" + std::to_string(take) + ":layout=" + cells + "\n";
        }
        if (volume != open) continue;
        std::string stationary;
        for (int c = 0; c < w * h; ++c)
            if (blocked[c]) stationary += (stationary.empty() ? "" : ", ") + std::to_string(c % w) + " " + std::to_string(c / w) + " 0";
        if (!stationary.empty()) text += "C:name=*:type=S:layout=" + stationary + "\n";
        text += "~D\n";
        ParseResult r = parseDefinitions(text, "random");
        if (!r.ok()) continue;
        const PuzzleDef& def = r.puzzles.front();
        Result<Model> m = Model::build(def);
        if (!m.ok()) continue;
        const WeightingProof p = weightingImpossibility(m.value);
        const long long count = countWithoutProofs(def);
        SCOPED_TRACE(text + p.reason);
        if (p.impossible) {
            EXPECT_EQ(count, 0);
            proved++;
        }
        (count == 0 ? zero : solvable)++;
    }
    std::printf("random puzzles: %d solvable, %d without solutions, %d of them proved impossible\n", solvable, zero, proved);
    EXPECT_GT(solvable, 50);
    EXPECT_GT(proved, zero / 4);
}

// The corpus: no puzzle with solutions is called impossible, by parity or a weighting. (Its cost
// is bounded by work, WeightingLimits, not timed here: 55 ms under ASan for the box-in-a-diamond
// against 5 ms natively; -i prints it as WEIGHTINGS=<n> in <ms>.)
TEST(Weighting, NoPuzzleOfTheCorpusWithSolutionsIsCalledImpossible) {
    auto catalog = nlohmann::json::parse(readDefFile("catalog.json"));
    std::set<std::string> impossibleFiles;
    for (const auto& entry : catalog)
        if (entry["counts"].contains("-r") && entry["counts"]["-r"] == 0) impossibleFiles.insert(entry["file"].get<std::string>());
    int checked = 0;
    for (const auto& entry : fs::recursive_directory_iterator(POLYCUBE_DEF_DIR)) {
        if (entry.path().extension() != ".txt") continue;
        const std::string rel = fs::relative(entry.path(), POLYCUBE_DEF_DIR).generic_string();
        if (rel.rfind("impossible/", 0) == 0 || impossibleFiles.count(rel)) continue;
        ParseResult r = parseDefinitions(readDefFile(rel), rel);
        ASSERT_TRUE(r.ok()) << r.error.format();
        for (const PuzzleDef& def : r.puzzles) {
            SCOPED_TRACE(rel + " " + def.title);
            auto created = Solver::create(def, optionsFrom("-r -l 1"));
            ASSERT_TRUE(created.ok()) << created.status.message;
            EXPECT_EQ(created.value->impossibleReason(), "");
            EXPECT_GT(created.value->weightingsTried(), 0);
            checked++;
        }
    }
    EXPECT_GE(checked, 9);
}

TEST(Weighting, TheCertificateReachesTheJsonTheInfoAndTheSession) {
    PuzzleDef def = loadPuzzle("impossible/two_t_tetrominoes.txt");
    auto created = Solver::create(def, optionsFrom("-r"));
    ASSERT_TRUE(created.ok());
    auto j = nlohmann::json::parse(summaryJson(*created.value, "two_t_tetrominoes.txt", 0, "done"));
    EXPECT_EQ(j["impossibleBy"], "corner cells");
    EXPECT_EQ(j["impossible"], created.value->impossibleReason());
    EXPECT_NE(formatInfo(*created.value).find("IMPOSSIBLE=impossible by corner cells: the board has 5 corner cells"),
              std::string::npos);
    EXPECT_EQ(j["impossibleCells"].size(), 5u);  // the cells the certificate counts, for the page to show

    // The two nooks: the 10 cells only P can reach, each [x, y, z].
    auto nooks = Solver::create(loadPuzzle("impossible/pentominoes_two_nooks.txt"), optionsFrom("-r"));
    ASSERT_TRUE(nooks.ok());
    auto jn = nlohmann::json::parse(summaryJson(*nooks.value, "pentominoes_two_nooks.txt", 0, "done"));
    EXPECT_EQ(jn["impossibleCells"], nlohmann::json::parse("[[1,2,0],[6,2,0],[0,3,0],[1,3,0],[6,3,0],[7,3,0],[0,4,0],"
                                                           "[1,4,0],[6,4,0],[7,4,0]]"));

    Session session;
    ASSERT_TRUE(session.load(readDefFile("impossible/bars_10x10.txt"), "bars_10x10.txt"));
    ASSERT_TRUE(session.start(0, "-r"));
    // (the setup runs in time slices: one on an idle machine, more on a loaded one, CI)
    Session::StepState st;
    while ((st = session.step(1000)) == Session::RUNNING) {
    }
    EXPECT_EQ(st, Session::DONE);
    auto stats = nlohmann::json::parse(session.statsJson());
    EXPECT_EQ(stats["solutions"], 0);
    EXPECT_EQ(stats["impossibleBy"], "colouring");
    EXPECT_NE(stats["impossible"].get<std::string>().find("(x + y) mod 4"), std::string::npos);
}

}  // namespace
}  // namespace polycube::testing
