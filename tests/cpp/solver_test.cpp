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
    EXPECT_NE(solve(tetris, "-r -M").error.find("closed under mirroring"), std::string::npos);
    EXPECT_NE(solve(tetris, "-u -M").error.find("closed under mirroring"), std::string::npos);
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

namespace {
long long sum(const std::vector<long long>& v) {
    long long t = 0;
    for (long long x : v) t += x;
    return t;
}
}  // namespace

TEST(Constraints, ImageFiltersRemoveWhatTheArticlesReport) {
    // First seed article, Figures 13 and 17, and the FILA article's P2 test case.
    // The articles search for every solution (--no-orbits: without it, and without -r, the
    // solver searches the -r tree and lists each solution's images, so its filters see that tree).
    PuzzleDef pent = loadPuzzle("pentominoes_10x6.txt");
    EXPECT_EQ(sum(solve(pent, "-q --no-orbits -V").stats.volumeFiltered), 128);
    // (-o s: plain DLX, so the automatic configuration's own volume filter does not run first.)
    EXPECT_EQ(sum(solve(pent, "-q -o s -F").stats.fitFiltered), 144);
    EXPECT_EQ(sum(solve(pent, "-q -r -V").stats.volumeFiltered), 125);
    EXPECT_EQ(sum(solve(pent, "-q -o s -r -F").stats.fitFiltered), 235);  // to the fixed point
    // With the volume filter first, the fit filter finds the rest of the 144.
    RunResult both = solve(pent, "-q --no-orbits -V -F");
    EXPECT_EQ(sum(both.stats.volumeFiltered) + sum(both.stats.fitFiltered), 144);
    PuzzleDef oneSided = loadPuzzle("pentominoes_1s_30x3.txt");
    EXPECT_EQ(sum(solve(oneSided, "-q --no-orbits -V").stats.volumeFiltered), 776);
}

TEST(Constraints, EveryTriggerAndFilterKeepsTheCounts) {
    struct Case {
        const char* file;
        long long expected;
    };
    // (Reapplied filters on the 10x6 board run DLX for most levels: kept to the 8x8 board
    // with a hole, which is quicker, and to Soma.)
    for (Case c : {Case{"soma.txt", 480}, Case{"pentominoes_8x8_hole.txt", 65}}) {
        PuzzleDef def = loadPuzzle(c.file);
        for (const char* opts : {"-p", "-P", "-V", "-F", "-v 3", "-P 4", "-V 5", "-F 6", "-p -P 3 -V 4 -v 4 -F 5",
                                 "-o s -p", "-f 5 -n -o s:e=5:f=2 -p"}) {
            RunResult r = solve(def, std::string("-r ") + opts);
            ASSERT_TRUE(r.error.empty()) << r.error;
            EXPECT_EQ(r.count, c.expected) << c.file << " -r " << opts;
            EXPECT_EQ(r.checkerFailures, 0) << r.firstCheckerFailure;
        }
    }
    PuzzleDef pent = loadPuzzle("pentominoes_10x6.txt");
    for (const char* opts : {"-p", "-P", "-V", "-F", "-p -V"}) EXPECT_EQ(solve(pent, std::string("-r ") + opts).count, 2339) << opts;
    PuzzleDef oneSided = loadPuzzle("pentominoes_1s_30x3.txt");
    EXPECT_EQ(solve(oneSided, "-r -V -p").count, 46);
}

TEST(Constraints, ParityTriggerFires) {
    PuzzleDef tetris = loadPuzzle("tetriscube.txt");
    RunResult r = solve(tetris, "-r L -p -l 50");
    EXPECT_EQ(r.count, 50);
    EXPECT_GT(sum(r.stats.parityBacktracks), 0);
}

TEST(Solver, MirrorHandlingCountsUpToReflection) {
    PuzzleDef soma = loadPuzzle("soma.txt");
    RunResult r = solve(soma, "-r -M");
    EXPECT_EQ(r.count, 240);
    EXPECT_EQ(r.checkerFailures, 0);
    EXPECT_EQ(solve(soma, "-u -M").count, 240);
    // The constrained piece carries the reflections too: fewer placements than -r alone.
    EXPECT_LT(r.stats.totalAttempts(), solve(soma, "-r").stats.totalAttempts());
}

TEST(Solver, AlgorithmsAndHeuristicsKeepTheCounts) {
    PuzzleDef hole = loadPuzzle("pentominoes_8x8_hole.txt");
    PuzzleDef soma = loadPuzzle("soma.txt");
    for (const char* opts : {"-o s", "-o f", "-o x:s=8", "-o y:s=6", "-o xyz", "-o X", "-o l@1,2,0", "-o a@160:s=6",
                             "-o A", "-o R", "-f 11 -o s", "-f 11 -n -o s:f=11", "-f 11 -n -o s:e=11:f=3",
                             "-f 9 -o s:x=9", "-f 11 -n -o s:R=11", "-m 11 -e 6 -b 4", "-b 11", "-f 12 -n -o f",
                             "-f 6 -o s:a@90=6:f=2", "-f 11 -n -o s:A=11:s=4", "-o c", "-f 11 -n -o s:e=11:c=3",
                             "-f 11 -o s:c=11", "-f 4 -n -o s:c=4"}) {
        EXPECT_EQ(solve(hole, std::string("-r ") + opts).count, 65) << opts;
        EXPECT_EQ(solve(soma, std::string("-r ") + opts).count, 480) << opts;
    }
    PuzzleDef pent = loadPuzzle("pentominoes_10x6.txt");
    for (const char* opts : {"-f 11 -n -o s:e=11:f=3", "-f 11 -o s:s=11:f=4", "-f 11 -n -o s:x=11", "-f 11 -n -o s:f=11:c=3"})
        EXPECT_EQ(solve(pent, std::string("-r ") + opts).count, 2339) << opts;
}

TEST(Solver, ExplicitOptionsReproduceTheArticleAndTheDefaultGoesBeyond) {
    // FILA article, Table 1, P5 (r V of=11 f11 n): 2,091,215 fits, 4,682,886 non-fitting.
    PuzzleDef pent = loadPuzzle("pentominoes_10x6.txt");
    RunResult article = solve(pent, "-r -V -o s:f=11 -f 11 -n");
    EXPECT_EQ(article.count, 2339);
    EXPECT_EQ(article.stats.totalFits(), 2091215);
    EXPECT_EQ(article.stats.totalAttempts() - article.stats.totalFits(), 4682886);
    // The automatic configuration adds the extended index (fewer non-fitting entries, same
    // fits) and the dead-cell cut (fewer fits); every solution still passes the checker.
    RunResult automatic = solve(pent, "-r");
    EXPECT_EQ(automatic.count, 2339);
    EXPECT_EQ(automatic.checkerFailures, 0);
    EXPECT_LT(automatic.stats.totalFits(), article.stats.totalFits());
    EXPECT_LT(automatic.stats.totalAttempts() - automatic.stats.totalFits(), 4682886 / 4);
    // With a monomino left a lone hole is fillable: the cut must stay off.
    PuzzleDef mono = parsePuzzle(
        "D:xDim=3:yDim=3:zDim=1\nC:name=M:layout=0 0 0\nC:name=D:count=4:layout=0 0 0, 1 0 0\n~D\n");
    EXPECT_EQ(solve(mono, "").count, solve(mono, "-o s").count);
    EXPECT_GT(solve(mono, "").count, 0);
    // The same additions in 3-D (Soma: F on the last levels of a 27-cell box), through slices.
    PuzzleDef soma = loadPuzzle("soma.txt");
    for (long long slice : {3LL, 1LL << 20}) {
        RunResult r = solve(soma, "-r", false, slice);
        EXPECT_EQ(r.count, 480);
        EXPECT_EQ(r.checkerFailures, 0);
    }
}

TEST(Solver, TablesSharedBelowTheRootPlaceTheSamePieces) {
    // The automatic configuration starts FILA once on the root's region and places each root
    // image on it (Solver::finishSetup): the same solutions and the same fits on every level
    // as a start on each smaller region. F order (10x6, a 20x3 strip), E order on short
    // searches (Soma, a 5x3x3 Bedlam subset, hexominoes in 7x6; Soma steps, which has no
    // symmetry for -r, so the root is min-fit's), through small slices.
    const char* files[] = {"pentominoes_10x6.txt", "soma.txt", "families/pent_rect_20x3.txt",
                           "families/bedlam_FXWMBHLSE_5x3x3.txt", "families/hexo_01-09_7x6.txt",
                           "families/soma_steps.txt"};
    for (const char* file : files) {
        SCOPED_TRACE(file);
        const PuzzleDef def = loadPuzzle(file);
        auto run = [&](bool rootTables, long long slice) {
            SolverOptions o = optionsFrom("-r");
            o.rootTables = rootTables;
            auto created = Solver::create(def, o);
            EXPECT_TRUE(created.ok());
            RunResult out;
            created.value->setSolutionHandler([&](const Solution& sol) {
                out.checkerFailures += !checkSolution(def, sol.grid).ok;
                out.grids.push_back(sol.grid);
            });
            while (created.value->step(slice) == Solver::State::Running) {
            }
            out.count = created.value->stats().solutions;
            out.stats = created.value->stats();
            out.error = created.value->configurationDescription();
            std::sort(out.grids.begin(), out.grids.end());
            return out;
        };
        const RunResult shared = run(true, 1 << 20), perRegion = run(false, 1 << 20), sliced = run(true, 50);
        EXPECT_NE(shared.error.find("tables shared by the root's images"), std::string::npos) << shared.error;
        EXPECT_EQ(perRegion.error.find("tables shared"), std::string::npos) << perRegion.error;
        EXPECT_GT(shared.count, 0);
        EXPECT_EQ(shared.checkerFailures, 0);
        EXPECT_EQ(shared.count, perRegion.count);
        EXPECT_TRUE(shared.grids == perRegion.grids);
        EXPECT_EQ(shared.stats.fits, perRegion.stats.fits);
        EXPECT_EQ(sliced.grids, shared.grids);
        EXPECT_EQ(sliced.stats.attempts, shared.stats.attempts);
        EXPECT_EQ(sliced.stats.fits, shared.stats.fits);
    }
}

TEST(Solver, WideOccupancyFields) {
    // 90 and 80 open cells: FILA on 128-bit fields from the first piece on.
    PuzzleDef oneSided = loadPuzzle("pentominoes_1s_30x3.txt");
    RunResult r = solve(oneSided, "-r -f 17 -n -o s:f=17");
    EXPECT_EQ(r.count, 46);
    EXPECT_EQ(r.checkerFailures, 0);
    PuzzleDef hole = loadPuzzle("pentominoes_8x8_hole.txt");
    EXPECT_EQ(solve(hole, "-f 12 -n -o f").count, 520);
    // 60 of the 90 cells left: a 64-bit field numbered by region cell, not by box cell.
    for (const char* opts : {"-r -V -f 12 -n -o s:e=12:c=3", "-r -V -f 12 -o s:c=12", "-r -V -f 12 -n -o s:f=12"}) {
        RunResult c = solve(oneSided, opts);
        EXPECT_EQ(c.count, 46) << opts;
        EXPECT_EQ(c.checkerFailures, 0) << opts;
    }
}

TEST(Solver, MonteCarloTrialsAndTrace) {
    PuzzleDef pent = loadPuzzle("pentominoes_10x6.txt");
    RunResult mc = solve(pent, "-s 50,10,7");
    EXPECT_EQ(mc.stats.monteCarloTrials, 50);
    EXPECT_EQ(mc.checkerFailures, 0);
    RunResult again = solve(pent, "-s 50,10,7");  // same seed, same trials
    EXPECT_EQ(again.stats.totalAttempts(), mc.stats.totalAttempts());
    EXPECT_EQ(again.count, mc.count);

    auto created = Solver::create(loadPuzzle("soma.txt"), optionsFrom("-r -t 7"));
    ASSERT_TRUE(created.ok());
    std::vector<TraceEvent> events;
    created.value->setTraceHandler([&](const TraceEvent& e) { events.push_back(e); });
    while (created.value->step(1000) == Solver::State::Running) {
    }
    ASSERT_FALSE(events.empty());
    int places = 0, removes = 0;
    for (const TraceEvent& e : events) {
        if (e.op == trace::kSolution) continue;  // solutions are traced at any -t K
        EXPECT_EQ(e.remaining, 7);  // -t 7: only while 7 or more pieces remain
        if (e.op == trace::kPlace || e.op == trace::kRemove) EXPECT_GE(e.a, 0);
        places += e.op == trace::kPlace;
        removes += e.op == trace::kRemove;
    }
    EXPECT_EQ(places, removes);
}
