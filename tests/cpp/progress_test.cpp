// Progress of a search (Solver::fractionDone, FilaEngine::fractionDone; issue 10): the
// weighted backtrack estimate starts at 0, never decreases, ends at 1; split into donated
// subproblems, the shares of the pieces add up to the whole tree exactly.
#include <deque>

#include "test_support.hpp"

using namespace polycube;
using namespace polycube::testing;

namespace {

const DefCase kCases[] = {
    {"pentominoes_10x6.txt", "-r"},              // DLX root, FILA with F
    {"soma.txt", "-r"},                          // 3-D, FILA with E
    {"pentominoes_8x8_hole.txt", "-r -o s"},    // DLX only
    {"pentominoes_1s_30x3.txt", "-r -m 11 -n"},  // MCH from one level down
    {"soma.txt", "-e 7 -n"},                     // FILA from the root, no -r
};

}  // namespace

TEST(Progress, StartsAtZeroNeverDecreasesAndEndsAtOne) {
    for (const DefCase& c : kCases) {
        SCOPED_TRACE(std::string(c.file) + " " + c.options);
        auto created = Solver::create(loadPuzzle(c.file), optionsFrom(c.options));
        ASSERT_TRUE(created.ok());
        Solver& s = *created.value;
        EXPECT_EQ(s.fractionDone(), 0.0);
        double last = 0;
        int readings = 0, moved = 0;
        while (s.step(200) == Solver::State::Running) {
            const double f = s.fractionDone();
            ASSERT_GE(f, last - 1e-12) << "after " << readings << " readings";
            ASSERT_LE(f, 1.0);
            moved += f > last;
            last = f;
            ++readings;
        }
        EXPECT_EQ(s.state(), Solver::State::Done);
        EXPECT_EQ(s.fractionDone(), 1.0);
        // It moves along the way, not only at the end.
        EXPECT_GT(moved, readings / 20) << readings << " readings";
    }
}

TEST(Progress, DonatedSharesAddUpToTheWholeTree) {
    // One solver donates now and then; every piece is searched by a fresh solver and may
    // donate in turn. The share each piece ends with (its weight x its final fractionDone,
    // which leaves out what it gave away) adds up to 1.
    for (const DefCase& c : kCases) {
        SCOPED_TRACE(std::string(c.file) + " " + c.options);
        const PuzzleDef def = loadPuzzle(c.file);
        std::deque<std::pair<std::vector<int>, double>> queue{{{}, 1.0}};
        double total = 0;
        long long solutions = 0, pieces = 0, slices = 0;
        while (!queue.empty()) {
            auto [path, weight] = queue.front();
            queue.pop_front();
            auto created = Solver::create(def, optionsFrom(c.options));
            ASSERT_TRUE(created.ok());
            Solver& s = *created.value;
            ASSERT_TRUE(s.startSubproblem(path).ok);
            ++pieces;
            double last = 0;
            while (s.step(300) == Solver::State::Running) {
                const double f = s.fractionDone();
                ASSERT_GE(f, last - 1e-12);
                last = f;
                if (++slices % 7 == 0 && pieces < 60) {
                    std::vector<std::vector<int>> out;
                    double share = 0;
                    const int n = s.donate(out, &share);
                    if (n > 0) {
                        EXPECT_GT(share, 0.0);
                        for (auto& p : out) queue.push_back({std::move(p), weight * share / n});
                    }
                }
            }
            ASSERT_EQ(s.state(), Solver::State::Done);
            EXPECT_NEAR(s.fractionDone(), 1.0 - s.donatedShare(), 1e-12);
            total += weight * s.fractionDone();
            solutions += s.stats().solutions;
        }
        EXPECT_GT(pieces, 3);
        EXPECT_NEAR(total, 1.0, 1e-9);
        EXPECT_EQ(solutions, solve(def, c.options).count);
    }
}
