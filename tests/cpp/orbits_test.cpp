// All solutions without -r, listed as the unique solutions' symmetric images (AlgorithmPlan::
// orbits, docs/all-solutions.md): the same count and the same set of solutions as the
// enumerating search (--no-orbits), on the golden corpus and on puzzles with identical copies,
// self-symmetric solutions and stationary pieces; the solution limit honoured mid-orbit.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "solver/configuration.hpp"
#include "test_support.hpp"

using namespace polycube;
using namespace polycube::testing;

namespace {

struct OrbitRun {
    RunResult result;
    bool orbits = false;
    size_t symmetries = 0;
    Solver::State state = Solver::State::Running;
};

OrbitRun runWith(const PuzzleDef& def, const std::string& options, long long slice = 1 << 20) {
    OrbitRun out;
    auto created = Solver::create(def, optionsFrom(options));
    if (!created.ok()) {
        out.result.error = created.status.message;
        return out;
    }
    Solver& s = *created.value;
    s.setSolutionHandler([&](const Solution& sol) {
        CheckResult c = checkSolution(def, sol.grid);
        if (!c.ok && out.result.checkerFailures++ == 0) out.result.firstCheckerFailure = c.message;
        out.result.grids.push_back(sol.grid);
    });
    while ((out.state = s.step(slice)) == Solver::State::Running) {
    }
    out.result.count = s.stats().solutions;
    out.result.stats = s.stats();
    out.orbits = s.listsOrbits();
    out.symmetries = s.symmetryCount();
    return out;
}

// The new path against the old on one puzzle: the same count, the same solutions (grids:
// instances of copies numbered by first cell, so a grid is a solution up to swapping copies),
// each listed once, every one checked; the statistics add up. With `fewerPlacements`, the
// orbit search reached fewer assemblies (not so where the constrained piece's only images are
// kept by every symmetry: then the filter only drops solutions at the end). Returns the count.
long long expectSameSolutions(const PuzzleDef& def, const std::string& what, bool orbitsExpected,
                              bool fewerPlacements = true) {
    SCOPED_TRACE(what);
    OrbitRun now = runWith(def, "");
    OrbitRun old = runWith(def, "--no-orbits");
    EXPECT_TRUE(now.result.error.empty()) << now.result.error;
    EXPECT_TRUE(old.result.error.empty()) << old.result.error;
    EXPECT_EQ(now.orbits, orbitsExpected);
    EXPECT_FALSE(old.orbits);
    EXPECT_EQ(now.result.count, old.result.count);
    EXPECT_EQ(now.result.checkerFailures, 0) << now.result.firstCheckerFailure;
    EXPECT_EQ(now.result.stats.solutions + now.result.stats.redundant, now.result.stats.found);
    std::vector<std::vector<int>> a = now.result.grids, b = old.result.grids;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_TRUE(std::adjacent_find(a.begin(), a.end()) == a.end()) << "a solution listed twice";
    EXPECT_TRUE(a == b) << "the solution sets differ";
    if (orbitsExpected && fewerPlacements && now.result.count > 0) {
        // The search itself reached only the unique solutions' representatives: fewer last
        // placements than the enumerating search (at least one per solution).
        const long long lastNow = now.result.stats.fits.at(1), lastOld = old.result.stats.fits.at(1);
        EXPECT_LT(lastNow, lastOld);
        EXPECT_LT(now.result.stats.totalAttempts(), old.result.stats.totalAttempts());
    }
    return now.result.count;
}

}  // namespace

// Every puzzle of the golden corpus with a known count of all solutions (def/catalog.json, the
// fast tier: the old path's full enumeration is the reference).
TEST(Orbits, GoldenCorpusSameCountsAndSolutionsAsTheEnumeratingSearch) {
    auto catalog = nlohmann::json::parse(readDefFile("catalog.json"));
    int tested = 0;
    for (const auto& entry : catalog) {
        if (entry["tier"] != "fast" || !entry["counts"].contains("")) continue;
        const std::string file = entry["file"];
        PuzzleDef def = loadPuzzle(file);
        const long long expected = entry["counts"][""].get<long long>();
        OrbitRun now = runWith(def, "");
        ASSERT_TRUE(now.result.error.empty()) << file << ": " << now.result.error;
        EXPECT_EQ(now.result.count, expected) << file;
        // Every one of them has a symmetry and a uniquely shaped piece except the impossible
        // hexomino rectangle (proved so before any search: nothing to list).
        if (expected > 0) expectSameSolutions(def, file, true);
        ++tested;
    }
    EXPECT_GE(tested, 8);
}

// Identical copies (four 2x3 rectangles) around a unique monomino: the two pinwheels, each
// kept by a quarter turn (a solution with symmetries of its own), mirror images of each other.
TEST(Orbits, SelfSymmetricSolutionsWithIdenticalCopiesAreListedOnce) {
    PuzzleDef def = parsePuzzle(
        "D:xDim=5:yDim=5:zDim=1\n"
        "C:name=A:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0, 1 1 0, 2 1 0\n"
        "C:name=B:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0, 1 1 0, 2 1 0\n"
        "C:name=C:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0, 1 1 0, 2 1 0\n"
        "C:name=D:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0, 1 1 0, 2 1 0\n"
        "C:name=X:layout=0 0 0\n"
        "~D\n");
    OrbitRun now = runWith(def, "");
    EXPECT_TRUE(now.orbits);
    EXPECT_EQ(now.result.count, 2);
    // The monomino's one image (the centre) is kept by all 8 symmetries: the search finds
    // both pinwheels, the filter keeps one, whose orbit is the two (not 8 images).
    EXPECT_EQ(now.result.stats.redundant, 1);
    EXPECT_EQ(expectSameSolutions(def, "pinwheels", true, false), 2);
}

TEST(Orbits, IdenticalCopiesAndStationaryPieces) {
    // Two L tetrominoes, a square and a bar in 4x4 (the copies of L swapped are one solution).
    EXPECT_GT(expectSameSolutions(parsePuzzle("D:xDim=4:yDim=4:zDim=1\n"
                                              "C:name=O:layout=0 0 0, 1 0 0, 0 1 0, 1 1 0\n"
                                              "C:name=I:layout=0 0 0, 1 0 0, 2 0 0, 3 0 0\n"
                                              "C:name=L1:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0\n"
                                              "C:name=L2:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0\n"
                                              "~D\n"),
                                  "O, I and two L in 4x4", true),
              0);
    // In 3-D: the Soma cube with a second T instead of the Z.
    EXPECT_GT(expectSameSolutions(parsePuzzle("D:xDim=3:yDim=3:zDim=3\n"
                                              "C:name=V:layout=0 0 0, 1 0 0, 0 1 0\n"
                                              "C:name=L:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0\n"
                                              "C:name=T1:layout=0 0 0, 1 0 0, 2 0 0, 1 1 0\n"
                                              "C:name=T2:layout=0 0 0, 1 0 0, 2 0 0, 1 1 0\n"
                                              "C:name=A:layout=0 0 0, 1 0 0, 0 1 0, 0 1 1\n"
                                              "C:name=B:layout=0 0 0, 1 0 0, 0 1 0, 1 0 1\n"
                                              "C:name=P:layout=0 0 0, 1 0 0, 0 1 0, 0 0 1\n"
                                              "~D\n"),
                                  "Soma with two T", true),
              0);
    // Stationary pieces that break some of the box's symmetries: a 5x5 board whose corner
    // (0,0) is blocked keeps only the diagonal reflection.
    EXPECT_GT(expectSameSolutions(parsePuzzle("D:xDim=5:yDim=5:zDim=1\n"
                                    "C:name=*:type=S:layout=0 0 0\n"
                                    "C:name=P:layout=0 0 0, 1 0 0, 0 1 0, 1 1 0, 0 2 0\n"
                                    "C:name=L:layout=0 0 0, 1 0 0, 2 0 0, 3 0 0, 0 1 0\n"
                                    "C:name=U:layout=0 0 0, 2 0 0, 0 1 0, 1 1 0, 2 1 0\n"
                                    "C:name=V:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0, 0 2 0\n"
                                    "C:name=O:layout=0 0 0, 1 0 0, 0 1 0, 1 1 0\n"
                                    "~D\n"),
                        "5x5 minus a corner", true),
              0);
    // No uniquely shaped piece: the filter has nothing to constrain, the old path searches.
    EXPECT_GT(expectSameSolutions(parsePuzzle("D:xDim=4:yDim=4:zDim=1\n"
                                    "C:name=L1:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0\n"
                                    "C:name=L2:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0\n"
                                    "C:name=L3:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0\n"
                                    "C:name=L4:layout=0 0 0, 1 0 0, 2 0 0, 0 1 0\n"
                                    "~D\n"),
                        "four L in 4x4", false),
              0);
}

// Solid pentominoes in 10x3x2 (a mirror-closed set in 3-D, free of -M): proper rotations only.
TEST(Orbits, SolidPentominoesTenByThreeByTwo) {
    expectSameSolutions(loadPuzzle("solid_pentominoes_2x3x10.txt"), "solid 2x3x10", true);
}

// -l N stops at exactly N solutions wherever N falls in an orbit: the first N of the
// unlimited run's list, in the same order, in any slicing of the search.
TEST(Orbits, SolutionLimitIsHonouredMidOrbit) {
    PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    OrbitRun all = runWith(def, "-l 40");
    ASSERT_TRUE(all.orbits);
    ASSERT_EQ(all.result.count, 40);
    for (long long n : {1LL, 2LL, 3LL, 5LL, 6LL, 7LL, 13LL}) {
        for (long long slice : {1LL, 7LL, 1LL << 20}) {
            OrbitRun r = runWith(def, "-l " + std::to_string(n), slice);
            SCOPED_TRACE("-l " + std::to_string(n) + ", slices of " + std::to_string(slice));
            EXPECT_EQ(r.state, Solver::State::LimitReached);
            EXPECT_EQ(r.result.count, n);
            ASSERT_EQ(r.result.grids.size(), static_cast<size_t>(n));
            EXPECT_TRUE(std::equal(r.result.grids.begin(), r.result.grids.end(), all.result.grids.begin()));
            EXPECT_EQ(r.result.stats.solutions + r.result.stats.redundant, r.result.stats.found);
        }
    }
    // 10x6 has no solution with a symmetry of its own: its orbits are whole (4 images), so
    // -l 3 ended inside the first one.
    std::set<std::vector<int>> firstFour(all.result.grids.begin(), all.result.grids.begin() + 4);
    EXPECT_EQ(firstFour.size(), 4u);
}

// Where the old path stays: the options that ask for classes, the search itself, or the
// articles' algorithms.
TEST(Orbits, OnlyTheAutomaticSearchOfAllSolutionsListsOrbits) {
    PuzzleDef def = loadPuzzle("lesson_tiny_4x3.txt");
    for (const char* options : {"-r", "-u", "-t 1", "-s 5,1,1", "-f 2", "-o s", "-b 3", "--no-orbits"}) {
        OrbitRun r = runWith(def, options);
        ASSERT_TRUE(r.result.error.empty()) << options << ": " << r.result.error;
        EXPECT_FALSE(r.orbits) << options;
    }
    OrbitRun r = runWith(def, "");
    EXPECT_TRUE(r.orbits);
    EXPECT_EQ(r.result.count, 4);
    for (const char* options : {"-P", "-V", "-p", "-l 2"}) EXPECT_TRUE(runWith(def, options).orbits) << options;
}
