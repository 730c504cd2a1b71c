// Play (engine/play/): completions with the placed pieces held fixed, hints, "What's wrong?",
// the Session's startPlay and the library's challenges (def/challenges.json).
//
// The oracle is the whole puzzle's solutions without -r (every packing), kept as grids: the
// completions of a partial packing are exactly the solutions that agree with it (each placed
// piece's cells are one piece of the same definition in the solution: copies are
// interchangeable), and "What's wrong?" is checked against that filter too.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "check/checker.hpp"
#include "play/challenge.hpp"
#include "play/play.hpp"
#include "session/session.hpp"
#include "test_support.hpp"

using namespace polycube;
using namespace polycube::testing;
using json = nlohmann::json;

namespace {

struct Oracle {
    PuzzleDef def;
    std::vector<std::vector<int>> grids;  // every solution, no -r
    std::vector<int> defOf;               // instance -> piece definition
};

Oracle oracleOf(const std::string& file) {
    Oracle o;
    o.def = loadPuzzle(file);
    RunResult all = solve(o.def, "", true);
    EXPECT_EQ(all.checkerFailures, 0) << all.firstCheckerFailure;
    o.grids = std::move(all.grids);
    for (const PieceInstanceRef& r : expandInstances(o.def)) o.defOf.push_back(r.defIndex);
    return o;
}

bool agrees(const Oracle& o, const std::vector<int>& grid, const std::vector<Placement>& placed) {
    for (const Placement& p : placed) {
        const int inst = grid[static_cast<size_t>(p.cells.front())];
        if (inst < 0 || o.defOf[static_cast<size_t>(inst)] != o.defOf[static_cast<size_t>(p.instance)]) return false;
        for (int c : p.cells)
            if (grid[static_cast<size_t>(c)] != inst) return false;
    }
    return true;
}

long long filteredCount(const Oracle& o, const std::vector<Placement>& placed) {
    long long n = 0;
    for (const auto& g : o.grids) n += agrees(o, g, placed) ? 1 : 0;
    return n;
}

struct Answer {
    PlayQuery::State state;
    long long completions = 0;
    bool capped = false;
    std::vector<int> completion;
    Placement hint;
    bool completable = false;
    int culprit = -1, keep = -1;
    std::string error;
};

Answer ask(const PuzzleDef& def, const std::vector<Placement>& placed, PlayQuery::Kind kind, long long limit = 0,
           int fixed = 0) {
    const long long slice = 1 << 16;
    Answer a;
    auto q = PlayQuery::begin(def, placed, kind, limit, fixed);
    if (!q.ok()) {
        a.state = PlayQuery::State::Failed;
        a.error = q.status.message;
        return a;
    }
    PlayQuery& query = *q.value;
    while (query.step(slice) == PlayQuery::State::Running) {
    }
    a.state = query.state();
    a.error = query.error();
    a.completions = query.completions();
    a.capped = query.capped();
    a.completion = query.completion();
    a.hint = query.hint();
    a.completable = query.completable();
    a.culprit = query.culprit();
    a.keep = query.keep();
    return a;
}

// The first k pieces of solution `grid` in a shuffled order.
std::vector<Placement> partOf(const PuzzleDef& def, const std::vector<int>& grid, int k, uint64_t seed) {
    const std::vector<Placement> all = placementsOfGrid(def, grid);
    const std::vector<int> order = shuffledOrder(static_cast<int>(all.size()), seed);
    std::vector<Placement> out;
    for (int i = 0; i < k && i < static_cast<int>(all.size()); ++i) out.push_back(all[static_cast<size_t>(order[static_cast<size_t>(i)])]);
    return out;
}

// The cells of `shape` (x y pairs) at an offset, as box indices of a flat board.
Placement flat(const PuzzleDef& def, int instance, std::vector<std::pair<int, int>> xy) {
    Placement p;
    p.instance = instance;
    for (auto [x, y] : xy) p.cells.push_back(x + def.xDim * y);
    return p;
}

int instanceNamed(const PuzzleDef& def, const std::string& name) {
    const auto refs = expandInstances(def);
    for (size_t i = 0; i < refs.size(); ++i)
        if (def.pieces[static_cast<size_t>(refs[i].defIndex)].name == name) return static_cast<int>(i);
    ADD_FAILURE() << "no piece " << name;
    return -1;
}

class PlayCounts : public ::testing::TestWithParam<const char*> {};

// Completions with pieces held fixed = the whole count filtered by agreement, for packings cut
// from solutions (completable) and for mixtures of two solutions (often not).
TEST_P(PlayCounts, EqualTheFullCountFilteredByAgreement) {
    const Oracle o = oracleOf(GetParam());
    ASSERT_FALSE(o.grids.empty());
    const std::vector<int> sizes = kReducedRun ? std::vector<int>{1, 3} : std::vector<int>{1, 2, 3, 4};
    int checked = 0, dead = 0;
    for (size_t s = 0; s < o.grids.size(); s += o.grids.size() / 5 + 1) {
        for (int k : sizes) {
            std::vector<Placement> placed = partOf(o.def, o.grids[s], k, s * 31 + static_cast<uint64_t>(k));
            const Answer a = ask(o.def, placed, PlayQuery::Kind::Count);
            ASSERT_EQ(a.state, PlayQuery::State::Done) << a.error;
            EXPECT_EQ(a.completions, filteredCount(o, placed)) << GetParam() << " solution " << s << " k=" << k;
            EXPECT_GE(a.completions, 1);
            ++checked;
            // one more piece from another solution, where it does not overlap
            const std::vector<Placement> other = placementsOfGrid(o.def, o.grids[(s * 7 + 3) % o.grids.size()]);
            for (const Placement& p : other) {
                std::vector<Placement> mixed = placed;
                mixed.push_back(p);
                if (!checkPlacements(o.def, mixed).ok) continue;
                const Answer m = ask(o.def, mixed, PlayQuery::Kind::Count);
                ASSERT_EQ(m.state, PlayQuery::State::Done) << m.error;
                EXPECT_EQ(m.completions, filteredCount(o, mixed));
                dead += m.completions == 0 ? 1 : 0;
                ++checked;
                break;
            }
        }
    }
    EXPECT_GT(checked, 10);
    RecordProperty("dead ends", dead);
}

INSTANTIATE_TEST_SUITE_P(Library, PlayCounts, ::testing::Values("pentominoes_10x6.txt", "soma.txt"));

TEST(Play, NothingPlacedCountsEveryPackingAndTheLimitCaps) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    const Answer all = ask(def, {}, PlayQuery::Kind::Count);
    EXPECT_EQ(all.completions, 9356);  // the count without -r: the board is held still
    EXPECT_FALSE(all.capped);
    const Answer capped = ask(def, {}, PlayQuery::Kind::Count, 100);
    EXPECT_TRUE(capped.capped);
    EXPECT_EQ(capped.completions, 101);
    EXPECT_EQ(ask(def, {}, PlayQuery::Kind::Count, 9356).capped, false);
    EXPECT_EQ(ask(def, {}, PlayQuery::Kind::Count, 9355).capped, true);
}

// A count asked exact that passes its limit is made whole by the memoized counter where the
// remainder has few subproblems (copies of one domino): the enumerated number, with capped and
// exact both said; distinct pieces past the limit stay "more than the limit"; the completion is
// the enumeration's first either way.
TEST(Play, AnExactCountPastItsLimitCountsThemAll) {
    const PuzzleDef dominoes = loadPuzzle("copies/dominoes_7x6.txt");
    const std::vector<Placement> placed = {flat(dominoes, 0, {{0, 0}, {1, 0}}), flat(dominoes, 1, {{0, 1}, {0, 2}})};
    const Result<Remainder> rem = remainderOf(dominoes, placed);
    ASSERT_TRUE(rem.ok()) << rem.status.message;
    const long long want = solve(rem.value.def, "").count;  // the enumerated completions
    ASSERT_GT(want, 1000);
    for (bool exact : {true, false}) {
        SCOPED_TRACE(exact);
        auto q = PlayQuery::begin(dominoes, placed, PlayQuery::Kind::Count, 1000, 0, exact);
        ASSERT_TRUE(q.ok()) << q.status.message;
        while (q.value->step(1 << 16) == PlayQuery::State::Running) {
        }
        ASSERT_EQ(q.value->state(), PlayQuery::State::Done) << q.value->error();
        EXPECT_TRUE(q.value->capped());
        EXPECT_EQ(q.value->exact(), exact);
        EXPECT_EQ(q.value->completions(), exact ? want : 1001);
        EXPECT_FALSE(q.value->completion().empty());
        EXPECT_NE(q.value->json().find(exact ? "\"exact\":true" : "\"exact\":false"), std::string::npos) << q.value->json();
    }
    // 10x6 pentominoes with nothing placed: 2^12 sets of pieces left, far past the bound
    auto q = PlayQuery::begin(loadPuzzle("pentominoes_10x6.txt"), {}, PlayQuery::Kind::Count, 100, 0, true);
    ASSERT_TRUE(q.ok());
    while (q.value->step(1 << 16) == PlayQuery::State::Running) {
    }
    EXPECT_TRUE(q.value->capped());
    EXPECT_FALSE(q.value->exact());
    EXPECT_EQ(q.value->completions(), 101);
}

// Copies are interchangeable: 4 dominoes in a 4x2 board have 5 tilings; the ones with a
// domino on the two left cells of the bottom row are 2, whichever copy is placed there.
TEST(Play, CopiesAreInterchangeable) {
    const PuzzleDef def = parsePuzzle("D:xDim=4:yDim=2:zDim=1\nC:name=D:count=4:layout=0 0 0, 1 0 0\n~D\n");
    EXPECT_EQ(ask(def, {}, PlayQuery::Kind::Count).completions, 5);
    for (int copy = 0; copy < 4; ++copy) EXPECT_EQ(ask(def, {{copy, {0, 1}}}, PlayQuery::Kind::Count).completions, 2);
    EXPECT_EQ(ask(def, {{2, {0, 1}}, {0, {4, 5}}}, PlayQuery::Kind::Count).completions, 2);
    EXPECT_EQ(ask(def, {{2, {0, 1}}, {0, {2, 6}}}, PlayQuery::Kind::Count).completions, 1);
    EXPECT_EQ(ask(def, {{2, {0, 1}}, {0, {5, 6}}}, PlayQuery::Kind::Count).completions, 0);  // walls in x=0, y=1
}

// "Where can it go?": each place of the asked piece is counted as the completions of the
// position with the piece placed there (an enumerating count each), the places that cannot be
// finished are left out, the most completions first, and a piece of its own is somewhere in
// every completion (the places add up to the position's count).
std::vector<PlayQuery::Place> whereOf(const PuzzleDef& def, const std::vector<Placement>& placed, int piece, long long& completions,
                                      std::string* error = nullptr) {
    auto q = PlayQuery::begin(def, placed, PlayQuery::Kind::Where, 0, 0, false, piece);
    if (!q.ok()) {
        if (error) *error = q.status.message;
        return {};
    }
    while (q.value->step(1 << 14) == PlayQuery::State::Running) {
    }
    if (error) *error = q.value->error();
    completions = q.value->completions();
    EXPECT_EQ(q.value->piece(), piece);
    return q.value->places();
}

TEST(Play, WhereCanItGoCountsEachPlaceAsTheCompletionsWithThePieceThere) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    RunResult some = solve(def, "-l 40", true);
    for (int s : {0, 17, 39}) {
        SCOPED_TRACE(s);
        const std::vector<Placement> placed = partOf(def, some.grids[static_cast<size_t>(s)], 3, static_cast<uint64_t>(s));
        int piece = 0;
        while (std::any_of(placed.begin(), placed.end(), [&](const Placement& p) { return p.instance == piece; })) ++piece;
        long long completions = 0;
        std::string error;
        const std::vector<PlayQuery::Place> places = whereOf(def, placed, piece, completions, &error);
        ASSERT_TRUE(error.empty()) << error;
        EXPECT_EQ(completions, ask(def, placed, PlayQuery::Kind::Count).completions);
        ASSERT_FALSE(places.empty());
        long long sum = 0;
        for (size_t k = 0; k < places.size(); ++k) {
            std::vector<Placement> more = placed;
            more.push_back({piece, places[k].cells});
            EXPECT_EQ(places[k].completions, ask(def, more, PlayQuery::Kind::Count).completions) << "place " << k;
            EXPECT_GT(places[k].completions, 0);
            if (k > 0) EXPECT_GE(places[k - 1].completions, places[k].completions);
            sum += places[k].completions;
        }
        EXPECT_EQ(sum, completions);
    }
    // Copies: 4 dominoes in 4x2 (5 tilings): a domino on the bottom-left pair is in 2 of them,
    // and any copy asks for the shape (the places add up to 5 tilings x 4 dominoes).
    const PuzzleDef dominoes = parsePuzzle("D:xDim=4:yDim=2:zDim=1\nC:name=D:count=4:layout=0 0 0, 1 0 0\n~D\n");
    long long tilings = 0;
    const std::vector<PlayQuery::Place> places = whereOf(dominoes, {}, 3, tilings);
    EXPECT_EQ(tilings, 5);
    long long sum = 0;
    for (const PlayQuery::Place& p : places) {
        sum += p.completions;
        if (p.cells == std::vector<int>{0, 1}) EXPECT_EQ(p.completions, 2);
    }
    EXPECT_EQ(sum, 20);
}

TEST(Play, WhereCanItGoRefusesPiecesThatCannotBeAskedAndSaysWhenItIsTooBig) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    const int x = instanceNamed(def, "X");
    const std::vector<Placement> placed = {flat(def, x, {{1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}})};
    long long n = 0;
    std::string error;
    whereOf(def, placed, x, n, &error);
    EXPECT_NE(error.find("is placed already: take it back first"), std::string::npos) << error;
    whereOf(def, placed, 12, n, &error);
    EXPECT_NE(error.find("piece 12 is not one of the puzzle's 12 pieces (0 to 11)"), std::string::npos) << error;
    const PuzzleDef holed = loadPuzzle("pentominoes_8x8_hole.txt");
    whereOf(holed, {}, instanceNamed(holed, "*"), n, &error);
    EXPECT_NE(error.find("is stationary"), std::string::npos) << error;
    // X walls in a corner: nowhere for the next piece can be finished.
    const std::vector<PlayQuery::Place> none = whereOf(def, placed, instanceNamed(def, "I"), n, &error);
    EXPECT_TRUE(error.empty()) << error;
    EXPECT_EQ(n, 0);
    EXPECT_TRUE(none.empty());
    // The Tetris Cube with nothing placed has too many ways to weigh in the play worker.
    whereOf(loadPuzzle("tetriscube.txt"), {}, 0, n, &error);
    EXPECT_NE(error.find("too many ways to finish to weigh every place here"), std::string::npos) << error;
    EXPECT_NE(error.find("place a few more pieces first"), std::string::npos) << error;
}

// Every piece placed: the packing is its own one completion, with nothing to hint.
TEST(Play, AWholePackingIsItsOwnCompletion) {
    const PuzzleDef def = loadPuzzle("soma.txt");
    RunResult one = solve(def, "-l 1", true);
    ASSERT_EQ(one.grids.size(), 1u);
    const std::vector<Placement> placed = placementsOfGrid(def, one.grids[0]);
    const Answer a = ask(def, placed, PlayQuery::Kind::Count, 10);
    EXPECT_EQ(a.completions, 1);
    EXPECT_EQ(a.completion, one.grids[0]);
    EXPECT_EQ(a.hint.instance, -1);
    EXPECT_TRUE(ask(def, placed, PlayQuery::Kind::Wrong).completable);
}

// A hint is a piece not placed yet, of a completion that agrees with what is placed: placed
// too, the packing can still be finished, and the completion passes the independent checker.
TEST(Play, EveryHintAgreesWithThePlacedPiecesAndCanBeFinished) {
    for (const char* file : {"pentominoes_10x6.txt", "soma.txt", "tetriscube.txt"}) {
        if (kReducedRun && std::string(file) == "tetriscube.txt") continue;
        const PuzzleDef def = loadPuzzle(file);
        RunResult some = solve(def, "-l 40", true);
        ASSERT_FALSE(some.grids.empty());
        int hints = 0;
        for (size_t s = 0; s < some.grids.size(); s += 13) {
            const int pieces = static_cast<int>(placementsOfGrid(def, some.grids[s]).size());
            for (int k = 0; k < pieces; k += 3) {
                std::vector<Placement> placed = partOf(def, some.grids[s], k, s + 100 * static_cast<uint64_t>(k));
                const Answer a = ask(def, placed, PlayQuery::Kind::Hint);
                ASSERT_EQ(a.state, PlayQuery::State::Done) << a.error;
                ASSERT_EQ(a.completions, 1);
                const CheckResult c = checkSolution(def, a.completion);
                EXPECT_TRUE(c.ok) << c.message;
                for (const Placement& p : placed)
                    for (int cell : p.cells) EXPECT_EQ(a.completion[static_cast<size_t>(cell)], p.instance);
                ASSERT_GE(a.hint.instance, 0);
                for (const Placement& p : placed) EXPECT_NE(p.instance, a.hint.instance);
                for (int cell : a.hint.cells) EXPECT_EQ(a.completion[static_cast<size_t>(cell)], a.hint.instance);
                placed.push_back(a.hint);
                ASSERT_TRUE(checkPlacements(def, placed).ok) << checkPlacements(def, placed).message;
                EXPECT_EQ(ask(def, placed, PlayQuery::Kind::Hint).completions, 1);
                ++hints;
            }
        }
        EXPECT_GT(hints, 3) << file;
    }
}

// The hint covers the most constrained open cell: with the 10x6 board empty, a corner.
TEST(Play, TheHintFillsTheTightestCell) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    const Answer a = ask(def, {}, PlayQuery::Kind::Hint);
    ASSERT_GE(a.hint.instance, 0);
    EXPECT_NE(std::find(a.hint.cells.begin(), a.hint.cells.end(), 0), a.hint.cells.end()) << "the corner x=0, y=0";
}

TEST(Play, HintOnADeadEndSaysThereIsNone) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    // X centred at (1,1) walls the corner cell (0,0) in
    const std::vector<Placement> placed = {flat(def, instanceNamed(def, "X"), {{1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}})};
    const Answer a = ask(def, placed, PlayQuery::Kind::Hint);
    EXPECT_EQ(a.state, PlayQuery::State::Done);
    EXPECT_EQ(a.completions, 0);
    EXPECT_EQ(a.hint.instance, -1);
    EXPECT_TRUE(a.completion.empty());
}

// "What's wrong?" on hand-made dead ends of the 10x6 board.
TEST(Play, WhatsWrongNamesThePieceToTakeAway) {
    const Oracle o = oracleOf("pentominoes_10x6.txt");
    const PuzzleDef& def = o.def;
    const Placement xCorner = flat(def, instanceNamed(def, "X"), {{1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}});  // walls in (0,0)
    const Placement wCorner = flat(def, instanceNamed(def, "W"), {{9, 3}, {9, 4}, {8, 4}, {8, 5}, {7, 5}});  // walls in (9,5)
    // a good piece: of a solution, clear of both corners' pieces
    Placement good;
    for (const auto& g : o.grids) {
        for (const Placement& p : placementsOfGrid(def, g)) {
            if (p.instance == xCorner.instance || p.instance == wCorner.instance) continue;
            if (!checkPlacements(def, {xCorner, wCorner, p}).ok) continue;
            good = p;
            break;
        }
        if (good.instance >= 0) break;
    }
    ASSERT_GE(good.instance, 0);

    // completable: nothing is wrong
    Answer a = ask(def, {good}, PlayQuery::Kind::Wrong);
    EXPECT_TRUE(a.completable);
    EXPECT_EQ(a.culprit, -1);
    // the X placed after a good piece: the X
    a = ask(def, {good, xCorner}, PlayQuery::Kind::Wrong);
    EXPECT_FALSE(a.completable);
    EXPECT_EQ(a.culprit, 1);
    // placed before it: still the X (the good piece taken away leaves the X's wall)
    a = ask(def, {xCorner, good}, PlayQuery::Kind::Wrong);
    EXPECT_EQ(a.culprit, 0);
    // two walls: no single piece; of the first pieces placed, only the good one can stay
    a = ask(def, {good, xCorner, wCorner}, PlayQuery::Kind::Wrong);
    EXPECT_FALSE(a.completable);
    EXPECT_EQ(a.culprit, -1);
    EXPECT_EQ(a.keep, 1);
    a = ask(def, {xCorner, wCorner}, PlayQuery::Kind::Wrong);
    EXPECT_EQ(a.culprit, -1);
    EXPECT_EQ(a.keep, 0);
    // the first placement is the position's own (a challenge's start): never named
    a = ask(def, {xCorner, good}, PlayQuery::Kind::Wrong, 0, 1);
    EXPECT_EQ(a.culprit, -1);
    EXPECT_EQ(a.keep, 1);
    a = ask(def, {good, xCorner, wCorner}, PlayQuery::Kind::Wrong, 0, 1);
    EXPECT_EQ(a.culprit, -1);
    EXPECT_EQ(a.keep, 1);
    a = ask(def, {good, wCorner}, PlayQuery::Kind::Wrong, 0, 1);
    EXPECT_EQ(a.culprit, 1);
}

// "What's wrong?" against the oracle: on dead ends made of pieces of two solutions, the
// culprit is the newest placement whose removal leaves a packing some solution agrees with.
TEST(Play, WhatsWrongAgreesWithTheFilteredSolutions) {
    const Oracle o = oracleOf("pentominoes_10x6.txt");
    int deadEnds = 0;
    for (size_t s = 0; s < o.grids.size() && deadEnds < (kReducedRun ? 3 : 10); s += 97) {
        std::vector<Placement> placed = partOf(o.def, o.grids[s], 3, s);
        for (const Placement& p : placementsOfGrid(o.def, o.grids[(s * 13 + 5) % o.grids.size()])) {
            std::vector<Placement> more = placed;
            more.push_back(p);
            if (checkPlacements(o.def, more).ok && filteredCount(o, more) == 0) {
                placed = std::move(more);
                break;
            }
        }
        if (filteredCount(o, placed) > 0) continue;
        // (shuffled so that the bad piece is not always the newest)
        std::rotate(placed.begin(), placed.begin() + static_cast<std::ptrdiff_t>(s % placed.size()), placed.end());
        int expected = -1;
        for (int k = static_cast<int>(placed.size()) - 1; k >= 0 && expected < 0; --k) {
            std::vector<Placement> fewer = placed;
            fewer.erase(fewer.begin() + k);
            if (filteredCount(o, fewer) > 0) expected = k;
        }
        const Answer a = ask(o.def, placed, PlayQuery::Kind::Wrong);
        EXPECT_FALSE(a.completable);
        EXPECT_EQ(a.culprit, expected) << "solution " << s;
        ++deadEnds;
    }
    EXPECT_GE(deadEnds, 3);
}

TEST(Play, PlacementsThatAreNoPackingAreRefusedWithTheirReason) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    const int x = instanceNamed(def, "X"), i = instanceNamed(def, "I");
    const Placement xAt = flat(def, x, {{1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}});
    auto message = [&](const std::vector<Placement>& placed) { return checkPlacements(def, placed).message; };
    EXPECT_NE(message({xAt, flat(def, i, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}})}).find("placement 2 (piece I): the cell at x=0, y=1, z=0 is taken by placement 1 (piece X)"), std::string::npos);
    EXPECT_NE(message({flat(def, i, {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {5, 0}})}).find("not the piece's shape"), std::string::npos);
    EXPECT_NE(message({{i, {0, 1, 2, 3, 60}}}).find("outside the 10x6x1 box"), std::string::npos);
    EXPECT_NE(message({{i, {0, 1, 2, 3, -1}}}).find("outside"), std::string::npos);
    EXPECT_NE(message({{i, {0, 1, 2, 3}}}).find("4 cells given, the piece has 5"), std::string::npos);
    EXPECT_NE(message({{i, {0, 1, 2, 3, 3}}}).find("given twice"), std::string::npos);
    EXPECT_NE(message({{99, {0}}}).find("no piece number 99 (the puzzle has 12)"), std::string::npos);
    EXPECT_NE(message({xAt, xAt}).find("placed twice"), std::string::npos);
    // the 8x8 board's hole is a stationary piece
    const PuzzleDef holed = loadPuzzle("pentominoes_8x8_hole.txt");
    const int star = instanceNamed(holed, "*");
    EXPECT_NE(checkPlacements(holed, {{star, {0}}}).message.find("stationary"), std::string::npos);
    const int xh = instanceNamed(holed, "X");
    // X centred at (4,4) lies over the hole in the centre (cells 3-4 of rows 3-4)
    EXPECT_NE(checkPlacements(holed, {{xh, {4 + 8 * 3, 3 + 8 * 4, 4 + 8 * 4, 5 + 8 * 4, 4 + 8 * 5}}}).message.find("taken by the puzzle"), std::string::npos);
}

// One-sided pieces turn in the plane only: a mirror image is refused, a quarter turn taken.
TEST(Play, OneSidedPiecesAreNotTurnedOver) {
    const PuzzleDef def = loadPuzzle("pentominoes_1s_30x3.txt");
    RunResult one = solve(def, "-l 1", true);
    ASSERT_EQ(one.grids.size(), 1u);
    // an asymmetric piece of the solution, mirrored in x about its own box
    for (const Placement& p : placementsOfGrid(def, one.grids[0])) {
        std::vector<Vec3> cells;
        int maxX = 0;
        for (int c : p.cells) {
            cells.push_back({c % def.xDim, c / def.xDim, 0});
            maxX = std::max(maxX, c % def.xDim);
        }
        Placement mirror{p.instance, {}};
        for (const Vec3& v : cells) mirror.cells.push_back((maxX - v.x) + def.xDim * v.y);
        std::vector<Vec3> m;
        for (int c : mirror.cells) m.push_back({c % def.xDim, c / def.xDim, 0});
        if (canonicalForm(m, zRotations()) == canonicalForm(cells, zRotations())) continue;  // symmetric
        EXPECT_NE(checkPlacements(def, {mirror}).message.find("one-sided pieces are not turned over"), std::string::npos);
        EXPECT_TRUE(checkPlacements(def, {p}).ok);
        return;
    }
    FAIL() << "no asymmetric piece";
}

TEST(Play, ACancelledQueryStops) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    auto q = PlayQuery::begin(def, {}, PlayQuery::Kind::Count, 0);
    ASSERT_TRUE(q.ok());
    EXPECT_EQ(q.value->step(50), PlayQuery::State::Running);
    q.value->cancel();
    EXPECT_EQ(q.value->step(1 << 20), PlayQuery::State::Cancelled);
    EXPECT_EQ(json::parse(q.value->json())["state"], "cancelled");
    // "where" too, in the middle of its passes, with its share done said meanwhile
    auto w = PlayQuery::begin(def, {}, PlayQuery::Kind::Where, 0, 0, false, 0);
    ASSERT_TRUE(w.ok()) << w.status.message;
    double before = 0;
    for (int k = 0; k < 40; ++k) {
        ASSERT_EQ(w.value->step(20000), PlayQuery::State::Running);
        EXPECT_GE(w.value->fractionDone(), before);
        before = w.value->fractionDone();
    }
    EXPECT_GT(before, 0);
    EXPECT_LT(before, 1);
    w.value->cancel();
    EXPECT_EQ(w.value->step(1 << 20), PlayQuery::State::Cancelled);
    EXPECT_TRUE(w.value->places().empty());
}

// The Session's surface: the flat placements, the kinds, playJson, errors as values.
TEST(Play, SessionAnswersInSlices) {
    Session s;
    ASSERT_TRUE(s.load(readDefFile("pentominoes_10x6.txt"), "pentominoes_10x6.txt"));
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    const int x = instanceNamed(def, "X");
    const std::vector<int32_t> xCorner = {x, 5, 1, 10, 11, 12, 21};
    EXPECT_EQ(s.playJson(), "{}");
    ASSERT_TRUE(s.startPlay(0, xCorner, "wrong", 0)) << s.lastError();
    int slices = 0;
    while (s.step(1000) == Session::RUNNING) ++slices;
    EXPECT_EQ(s.state(), Session::DONE);
    json j = json::parse(s.playJson());
    EXPECT_EQ(j["kind"], "wrong");
    EXPECT_EQ(j["completable"], false);
    EXPECT_EQ(j["culprit"], 0);
    EXPECT_EQ(j["culpritInstance"], x);

    ASSERT_TRUE(s.startPlay(0, {}, "count", 50));
    EXPECT_EQ(json::parse(s.playJson())["state"], "running");
    while (s.step(1e5) == Session::RUNNING) {
    }
    j = json::parse(s.playJson());
    EXPECT_EQ(j["completions"], 51);
    EXPECT_EQ(j["capped"], true);
    EXPECT_EQ(j["limit"], 50);
    EXPECT_EQ(j["completion"].size(), 60u);
    EXPECT_TRUE(j["hint"].is_object());
    EXPECT_GT(j["placements"].get<long long>(), 0);

    // "where": the places of X with X's corner walled in by nothing (X itself asked)
    const int i = instanceNamed(def, "I");
    ASSERT_TRUE(s.startPlay(0, xCorner, "where", 0, 0, i)) << s.lastError();
    while (s.step(1e5) == Session::RUNNING) {
    }
    j = json::parse(s.playJson());
    EXPECT_EQ(j["kind"], "where");
    EXPECT_EQ(j["state"], "done");
    EXPECT_EQ(j["piece"], i);
    EXPECT_EQ(j["completions"], 0);
    EXPECT_TRUE(j["places"].is_array() && j["places"].empty());
    ASSERT_TRUE(s.startPlay(0, {}, "where", 0, 0, x)) << s.lastError();
    while (s.step(1e5) == Session::RUNNING) {
    }
    j = json::parse(s.playJson());
    EXPECT_EQ(j["completions"], 9356);
    long long sum = 0;
    for (const json& place : j["places"]) {
        EXPECT_EQ(place["cells"].size(), 5u);
        sum += place["completions"].get<long long>();
    }
    EXPECT_EQ(sum, 9356);
    EXPECT_FALSE(s.startPlay(0, xCorner, "where", 0, 0, x));
    EXPECT_NE(s.lastError().find("is placed already"), std::string::npos) << s.lastError();

    ASSERT_TRUE(s.startPlay(0, {}, "hint", 0));
    s.cancel();
    EXPECT_EQ(s.step(1e5), Session::CANCELLED);
    // a search started after play replaces it, and the other way round
    ASSERT_TRUE(s.start(0, "-r"));
    EXPECT_EQ(s.playJson(), "{}");

    EXPECT_FALSE(s.startPlay(0, {}, "solve", 0));
    EXPECT_NE(s.lastError().find("count, hint, wrong or where"), std::string::npos);
    // (a refused question leaves the session LOADED, as a refused start does: nothing to step)
    EXPECT_EQ(s.step(1e5), Session::IDLE);
    EXPECT_EQ(s.errorCode(), Session::ErrorCode::kIllegalCall);
    EXPECT_FALSE(s.startPlay(3, {}, "count", 0));
    EXPECT_NE(s.lastError().find("no puzzle number 3"), std::string::npos);
    EXPECT_FALSE(s.startPlay(0, {x, 5, 1, 10}, "count", 0));
    EXPECT_NE(s.lastError().find("ends inside placement 1"), std::string::npos);
    EXPECT_FALSE(s.startPlay(0, {x, -3}, "count", 0));
    EXPECT_NE(s.lastError().find("ends inside placement 1"), std::string::npos);
    EXPECT_FALSE(s.startPlay(0, {x, 5, 1, 10, 11, 12, 21, x, 5, 1, 10, 11, 12, 21}, "count", 0));
    EXPECT_NE(s.lastError().find("placement 2 (piece X): the piece is placed twice"), std::string::npos);
    std::vector<int32_t> many;
    for (int k = 0; k < 13; ++k) many.insert(many.end(), {k, 1, k});
    EXPECT_FALSE(s.startPlay(0, many, "count", 0));
    EXPECT_NE(s.lastError().find("more placements than the puzzle has pieces"), std::string::npos);
}

// A challenge made from a solution has one completion, and no given piece is superfluous.
TEST(Challenges, FromASolutionUniqueAndMinimal) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    RunResult some = solve(def, "-r -l 3", true);
    ASSERT_EQ(some.grids.size(), 3u);
    for (size_t s = 0; s < some.grids.size(); ++s) {
        auto c = challengeFromSolution(def, some.grids[s], shuffledOrder(12, s + 1));
        ASSERT_TRUE(c.ok()) << c.status.message;
        auto count = countCompletions(def, c.value.given, 1);
        ASSERT_TRUE(count.ok());
        EXPECT_EQ(count.value.completions, 1);
        EXPECT_FALSE(count.value.capped);
        EXPECT_EQ(count.value.completion, some.grids[s]);
        EXPECT_EQ(count.value.placements, c.value.placements);
        for (size_t k = 0; k < c.value.given.size(); ++k) {
            std::vector<Placement> fewer = c.value.given;
            fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(k));
            EXPECT_TRUE(countCompletions(def, fewer, 1).value.capped) << "given piece " << k << " is superfluous";
        }
    }
    EXPECT_FALSE(challengeFromSolution(def, some.grids[0], {0, 1, 2}).ok());
    EXPECT_EQ(shuffledOrder(5, 7), shuffledOrder(5, 7));
    EXPECT_EQ(challengeGrade(10), "starter");
    EXPECT_EQ(challengeGrade(50000), "master");
}

// Every challenge of the library (def/challenges.json, made by scripts/make-challenges.sh)
// has exactly one completion, which the independent checker accepts, and its grade.
TEST(Challenges, TheLibrarysAreUnique) {
    const json data = json::parse(readDefFile("challenges.json"));
    ASSERT_EQ(data["version"], 1);
    int checked = 0;
    std::set<std::string> ids;
    for (const json& entry : data["puzzles"]) {
        const std::string file = entry["file"];
        const PuzzleDef def = loadPuzzle(file, entry["puzzle"].get<int>());
        ASSERT_GE(entry["challenges"].size(), 3u) << file;
        for (const json& c : entry["challenges"]) {
            const std::string id = c["id"];
            EXPECT_TRUE(ids.insert(id).second) << "repeated id " << id;
            std::vector<Placement> given;
            for (const json& g : c["given"]) {
                std::vector<int> flatList = g.get<std::vector<int>>();
                given.push_back({flatList.front(), std::vector<int>(flatList.begin() + 1, flatList.end())});
            }
            if (kReducedRun && c["placements"].get<long long>() > 200000) continue;
            auto count = countCompletions(def, given, 1);
            ASSERT_TRUE(count.ok()) << id << ": " << count.status.message;
            EXPECT_EQ(count.value.completions, 1) << id;
            EXPECT_FALSE(count.value.capped) << id;
            const CheckResult check = checkSolution(def, count.value.completion);
            EXPECT_TRUE(check.ok) << id << ": " << check.message;
            EXPECT_EQ(c["grade"], challengeGrade(c["placements"].get<long long>())) << id;
            ++checked;
        }
    }
    EXPECT_GE(checked, 15);
}

}  // namespace
