// Splitting one search into subproblems (Solver::startSubproblem / donate, parallel/
// subproblem.hpp), without threads: one search donates its untried siblings now and then,
// the pieces are searched one after another (by two solvers, the paths passing through
// their text form), and everything must add up to the single run exactly: the solutions
// (as a set, each checked), the found/redundant counts, and every per-level statistic.
#include <algorithm>
#include <deque>

#include "parallel/subproblem.hpp"
#include "test_support.hpp"

using namespace polycube;
using namespace polycube::testing;

namespace {

struct SplitRun {
    SolverStats stats;
    std::vector<std::vector<int>> grids;
    long long subproblems = 0, donations = 0;
    int checkerFailures = 0;
    std::string error;
};

// Donates on every `every`-th slice of `slice` placements. With one solver, consecutive
// subproblems often restart FILA on the same region (its tables are kept: reuseTables).
SplitRun splitRun(const PuzzleDef& def, const std::string& options, int every, long long slice, int solverCount = 2) {
    SplitRun out;
    std::unique_ptr<Solver> solvers[2];
    for (auto& s : solvers) {
        auto created = Solver::create(def, optionsFrom(options));
        if (!created.ok()) {
            out.error = created.status.message;
            return out;
        }
        s = std::move(created.value);
        s->setSolutionHandler([&](const Solution& sol) {
            out.checkerFailures += !checkSolution(def, sol.grid).ok;
            out.grids.push_back(sol.grid);
        });
    }
    const std::string fp = searchFingerprint(*solvers[0]);
    EXPECT_EQ(fp, searchFingerprint(*solvers[1]));
    std::deque<std::string> queue{encodeSubproblem(fp, Subproblem{})};
    std::vector<std::vector<int>> donated;
    long long slices = 0;
    while (!queue.empty()) {
        Solver& s = *solvers[out.subproblems++ % solverCount];
        Result<Subproblem> sub = decodeSubproblem(queue.front(), fp);
        queue.pop_front();
        if (!sub.ok()) {
            out.error = sub.status.message;
            return out;
        }
        if (Status st = s.startSubproblem(sub.value.path); !st.ok) {
            out.error = st.message;
            return out;
        }
        while (s.step(slice) == Solver::State::Running)
            if (++slices % every == 0) {
                donated.clear();
                if (s.donate(donated) > 0) ++out.donations;
                for (auto& path : donated) queue.push_back(encodeSubproblem(fp, Subproblem{path}));
            }
        if (!s.subproblemError().empty()) {
            out.error = s.subproblemError();
            return out;
        }
        EXPECT_EQ(s.state(), Solver::State::Done);
    }
    // Both solvers' statistics accumulate over their subproblems: add them.
    out.stats = solvers[0]->stats();
    const SolverStats& b = solvers[1]->stats();
    auto add = [](std::vector<long long>& a, const std::vector<long long>& c) {
        for (size_t i = 0; i < a.size(); ++i) a[i] += c[i];
    };
    out.stats.solutions += b.solutions;
    out.stats.found += b.found;
    out.stats.redundant += b.redundant;
    add(out.stats.attempts, b.attempts);
    add(out.stats.fits, b.fits);
    add(out.stats.parityBacktracks, b.parityBacktracks);
    add(out.stats.volumeBacktracks, b.volumeBacktracks);
    add(out.stats.parityFiltered, b.parityFiltered);
    add(out.stats.volumeFiltered, b.volumeFiltered);
    add(out.stats.fitFiltered, b.fitFiltered);
    return out;
}

void expectSameSearch(const std::string& file, const std::string& options, int every, long long slice,
                      long long expectedSolutions, bool expectSplit = true, int solverCount = 2) {
    SCOPED_TRACE(file + " " + options + " every " + std::to_string(every) + " slice " + std::to_string(slice));
    PuzzleDef def = loadPuzzle(file);
    RunResult whole = solve(def, options, true);
    ASSERT_TRUE(whole.error.empty()) << whole.error;
    SplitRun split = splitRun(def, options, every, slice, solverCount);
    ASSERT_TRUE(split.error.empty()) << split.error;
    EXPECT_EQ(whole.count, expectedSolutions);
    expectSameStatistics(split.stats, whole.stats);
    EXPECT_EQ(split.checkerFailures, 0);
    std::sort(whole.grids.begin(), whole.grids.end());
    std::sort(split.grids.begin(), split.grids.end());
    EXPECT_TRUE(split.grids == whole.grids) << "the split search found other solutions";
    if (expectSplit) {
        EXPECT_GT(split.donations, 0);
        EXPECT_GT(split.subproblems, 10);
    }
}

}  // namespace

TEST(Split, DefaultConfigurationAddsUp) {
    // DLX places the first piece, FILA (with its recursive tail) the rest: donations come
    // from both.
    if (!kReducedRun) expectSameSearch("pentominoes_10x6.txt", "-r", 3, 2000, 2339);
    expectSameSearch("soma.txt", "-r", 1, 200, 480);
    expectSameSearch("soma.txt", "", 2, 500, 11520);
    expectSameSearch("pentominoes_8x8_hole.txt", "-r", 2, 1000, 65);
    if (!kReducedRun) expectSameSearch("pentominoes_1s_30x3.txt", "-r", 5, 5000, 46);
    // One solver for every piece: FILA restarts on the region it just searched.
    if (!kReducedRun) expectSameSearch("pentominoes_10x6.txt", "-r", 3, 2000, 2339, true, 1);
    expectSameSearch("soma.txt", "-r -p", 1, 100, 480, true, 1);
}

TEST(Split, DlxLevelsAddUp) {
    // Plain DLX: every level is a DLX level, donations go deep (even the last level).
    expectSameSearch("pentominoes_10x6.txt", "-r -o s", 2, 300, 2339);
    expectSameSearch("soma.txt", "-o s -M -r", 1, 50, 240);
    expectSameSearch("soma.txt", "-o s", 1, 7, 11520);
}

TEST(Split, ConstraintsAndExplicitFilaAddUp) {
    // Filters reapplied on DLX levels and backtrack triggers: the path's levels are replayed
    // by the receiver and must not be counted twice.
    // (A path replays the filters of its levels: kept to small puzzles and few donations.)
    expectSameSearch("soma.txt", "-r -o s -F=5 -V=6 -p", 1, 20, 480);
    expectSameSearch("pentominoes_8x8_hole.txt", "-r -o s -F=10 -p", 5, 1000, 65);
    expectSameSearch("pentominoes_10x6.txt", "-r -o s -v 6 -P=11", 20, 20000, 2339);
    // The articles' algorithms chosen explicitly: FILA with and without NOF, de Bruijn, EMCH.
    expectSameSearch("pentominoes_10x6.txt", "-r -f 10 -n -o s:f=10", 2, 2000, 2339);
    expectSameSearch("pentominoes_10x6.txt", "-r -b 11 -p", 4, 3000, 2339);
    expectSameSearch("soma.txt", "-r -e 6", 1, 100, 480);
}

TEST(Split, TinyPuzzlesAndCopies) {
    // Copies of a piece (one column counted down) and a puzzle proved impossible.
    PuzzleDef counted = parsePuzzle("D:xDim=4:yDim=3:zDim=1\nC:name=A:count=4:layout=0 0 0, 1 0 0, 0 1 0\n~D\n");
    RunResult whole = solve(counted, "-o s");
    SplitRun split = splitRun(counted, "-o s", 1, 1);
    ASSERT_TRUE(split.error.empty()) << split.error;
    EXPECT_EQ(split.stats.solutions, whole.count);
    EXPECT_EQ(split.stats.attempts, whole.stats.attempts);
    EXPECT_GT(split.subproblems, 1);
    PuzzleDef hex = loadPuzzle("hexominoes_rect_15x14.txt");
    SplitRun none = splitRun(hex, "-r", 1, 100);
    EXPECT_TRUE(none.error.empty()) << none.error;
    EXPECT_EQ(none.stats.solutions, 0);
}

TEST(Split, ForeignOrBrokenSubproblemsAreRefused) {
    PuzzleDef soma = loadPuzzle("soma.txt"), pent = loadPuzzle("pentominoes_10x6.txt");
    auto a = Solver::create(soma, optionsFrom("-r"));
    auto b = Solver::create(soma, optionsFrom("-r -o s"));
    auto c = Solver::create(pent, optionsFrom("-r"));
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    const std::string fa = searchFingerprint(*a.value), fb = searchFingerprint(*b.value), fc = searchFingerprint(*c.value);
    EXPECT_NE(fa, fb);  // other options
    EXPECT_NE(fa, fc);  // another puzzle
    const std::string job = encodeSubproblem(fa, Subproblem{{3, 40}});
    Result<Subproblem> ok = decodeSubproblem(job, fa);
    ASSERT_TRUE(ok.ok()) << ok.status.message;
    EXPECT_EQ(ok.value.path, (std::vector<int>{3, 40}));
    Result<Subproblem> other = decodeSubproblem(job, fb);
    EXPECT_FALSE(other.ok());
    EXPECT_NE(other.status.message.find("another puzzle, other options, or another build"), std::string::npos)
        << other.status.message;
    EXPECT_FALSE(decodeSubproblem("hello", fa).ok());
    EXPECT_NE(decodeSubproblem("polycube-subproblem 9 " + fa + " 0", fa).status.message.find("another version"),
              std::string::npos);
    EXPECT_FALSE(decodeSubproblem("polycube-subproblem 1 " + fa + " 2 5", fa).ok());      // truncated
    EXPECT_FALSE(decodeSubproblem("polycube-subproblem 1 " + fa + " 1 5 6", fa).ok());    // trailing
    EXPECT_FALSE(decodeSubproblem("polycube-subproblem 1 " + fa + " 1 -5", fa).ok());     // negative id
    // A path whose image is not a candidate where the search would place it.
    Solver& s = *a.value;
    EXPECT_FALSE(s.startSubproblem({static_cast<int>(s.model().images.size())}).ok);
    int last = static_cast<int>(s.model().images.size()) - 1;
    ASSERT_TRUE(s.startSubproblem({last, last}).ok);  // the same image twice cannot be followed
    while (s.step(1000) == Solver::State::Running) {
    }
    EXPECT_FALSE(s.subproblemError().empty());
    EXPECT_EQ(s.stats().solutions, 0);
    // In the middle of a search: refused.
    Solver& t = *c.value;
    EXPECT_EQ(t.step(100), Solver::State::Running);
    EXPECT_FALSE(t.startSubproblem({}).ok);
}

TEST(Split, UnsplittableOptionsAreNamed) {
    EXPECT_EQ(whyNotSplittable(optionsFrom("-r")), "");
    EXPECT_EQ(whyNotSplittable(optionsFrom("-r -u")), "");  // -u adds nothing to -r
    EXPECT_NE(whyNotSplittable(optionsFrom("-u")), "");
    EXPECT_NE(whyNotSplittable(optionsFrom("-t 3")), "");
    EXPECT_NE(whyNotSplittable(optionsFrom("-s 10,3,1")), "");
    EXPECT_NE(whyNotSplittable(optionsFrom("-l 5")), "");
}
