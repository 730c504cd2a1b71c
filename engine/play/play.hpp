// Play: a person packing the pieces by hand. Given the pieces placed so far (a partial
// packing), the engine answers four questions, each by a search of the rest of the puzzle with
// the placed pieces held fixed (they become stationary pieces of a "remainder" puzzle, which
// the ordinary Solver searches in step() slices, cancellable):
//
//   count  how many ways the packing can be finished (completions), up to a limit;
//   hint   one completion, and the piece of it to show next;
//   wrong  which placed piece stands in the way: taking it away makes the rest completable;
//   where  every place for one piece not yet placed that can still be finished, each with how
//          many completions keep that piece there (play_where.cpp).
//
//   std::vector<Placement> placed = {{3, {0, 1, 2, 10, 20}}};   // instance, box cells
//   auto q = PlayQuery::begin(def, placed, PlayQuery::Kind::Count, 1000);
//   if (!q.ok()) show(q.status.message);              // "placement 1 (piece L): ..."
//   while (q.value->step(200000) == PlayQuery::State::Running) show(q.value->json());
//   q.value->completions(); q.value->capped(); q.value->hint();
//
// Counting rules: a completion is a whole packing that keeps every placed piece where it is.
// Copies of one piece are interchangeable (as in every count of the engine). Rotations and
// mirror images of the whole packing are NOT merged (-r, -u and -M do not apply): the placed
// pieces fix the board, so a turned completion is another way to finish it. With nothing
// placed the count is therefore the puzzle's count without -r (Pentominoes 10x6: 9,356).
//
// A count asked `exact` that passes its limit goes on by the memoized counter when the
// remainder has few subproblems to remember (many copies of few shapes: at most
// kPlayMemoSubproblems by memo/memo_choice.hpp's bound): the whole number however large (32
// dominoes in 8x8: 12,988,816 ways, not "more than 1,000"), capped() still true and exact()
// too. Otherwise the count stops at the limit. The first completion is the enumeration's.
//
// "Where can it go?" counts by the memoized counter's placement counts (memo/placement_counts.hpp)
// on the remainder, within kPlayWhereBytes. A copy of a piece stands for its shape: a place's
// count is of the completions with some copy of it there, so the places' completions add up to
// the position's completions times the copies of the shape left (once each for a piece of its
// own). Past the memory it
// fails with a message that says to place a few more pieces first.
//
// The hint is the piece of the first completion found that covers the most constrained open
// cell: the one the fewest placements of the remaining pieces can cover (the "most constrained
// hole" rule of the search), ties to the lowest box index. It is where a person is most likely
// stuck, and it is one placement that leads to a finish.
//
// "What's wrong?" names the most recently placed piece whose removal makes the rest
// completable: the placed pieces are tried newest first, each by an existence search (stop at
// the first completion), so the answer is the first thing to undo and costs no counting. When
// no single piece is to blame, it gives the longest prefix of the placements (in the order
// they were placed) that can still be finished: take away the pieces placed after it. The
// first `fixed` placements (a challenge's start position) are never blamed.
#pragma once
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "puzzle/puzzle.hpp"

namespace polycube {

class MemoCounter;
class Solver;

// An exact play count past its limit is memoized when the bound on its subproblems is at most
// this (about a second of counting at the memo's cost per subproblem; the bound is loose, often
// 4x the real number).
constexpr double kPlayMemoSubproblems = 1e6;
// ... with a table of at most this many bytes (the page's play worker holds nothing else).
constexpr long long kPlayMemoTableBytes = 64LL << 20;
// "Where can it go?" keeps every subproblem of the remainder's count (Pentominoes 10x6 with
// nothing placed: 46 MB) within this.
constexpr long long kPlayWhereBytes = 96LL << 20;

// One placed piece: a mobile piece instance (instanceIndex order of puzzle.hpp) and the box
// cells it covers (x + xDim * (y + yDim * z)), in any order.
struct Placement {
    int instance = -1;
    std::vector<int> cells;
};

// Whether `placed` is a partial packing of `def`: every instance a mobile piece placed once,
// every placement a rotation of its piece allowed by the puzzle (quarter turns about z for
// one-sided puzzles, the 24 rotations otherwise: a flat piece may be turned over), inside the
// box, off the stationary cells and the other placements. The error names the placement
// ("placement 2 (piece L): ...", counted from 1) and what is wrong.
Status checkPlacements(const PuzzleDef& def, const std::vector<Placement>& placed);

// The placements of the mobile pieces in a solution grid (box cell -> instance), in instance
// order; the challenge generator and the tests start from solutions.
std::vector<Placement> placementsOfGrid(const PuzzleDef& def, const std::vector<int>& grid);

// The puzzle that remains: `def` with each placed piece made stationary where it lies (a
// placed copy leaves its piece one copy fewer). instanceOf maps the remainder's instances to
// `def`'s, so that its solutions' grids can be written in `def`'s numbering.
struct Remainder {
    PuzzleDef def;
    std::vector<int> instanceOf;
    int mobileLeft = 0;
};
Result<Remainder> remainderOf(const PuzzleDef& def, const std::vector<Placement>& placed);

class PlayQuery {
public:
    enum class Kind { Count, Hint, Wrong, Where };
    enum class State { Running, Done, Cancelled, Failed };

    // limit (Count only): count at most this many completions; the search looks for one more,
    // so that capped() can say "more than limit". limit < 1: count them all.
    // fixed (Wrong only): the first `fixed` placements are part of the position, never blamed.
    // exact (Count only): past the limit, count them all where that is cheap (see above).
    // piece (Where only): the instance to place, a mobile piece not placed.
    static Result<std::unique_ptr<PlayQuery>> begin(const PuzzleDef& def, std::vector<Placement> placed, Kind kind,
                                                     long long limit = 0, int fixed = 0, bool exact = false, int piece = -1);
    ~PlayQuery();
    PlayQuery(const PlayQuery&) = delete;
    PlayQuery& operator=(const PlayQuery&) = delete;

    // About `budget` placement attempts (or maxSeconds, 0: no limit) of the current search.
    // Never throws: a search that fails (out of memory) ends the query Failed with error().
    State step(long long budget, double maxSeconds = 0);
    // Stop at once: the next step() returns Cancelled. Safe from another thread.
    void cancel();
    State state() const { return state_; }
    Kind kind() const { return kind_; }
    const std::string& error() const { return error_; }

    // Count and Hint: completions found (Hint: 0 or 1), capped (Count: more than the limit),
    // the first completion as a grid in def's instance numbering (empty: none), the hint.
    long long completions() const { return completions_; }
    bool capped() const { return capped_; }
    // Count: past the limit, counted whole by the memoized counter: completions() is the count.
    bool exact() const { return exact_; }
    long long limit() const { return limit_; }
    const std::vector<int>& completion() const { return completion_; }
    const Placement& hint() const { return hint_; }  // instance -1: no completion
    // Wrong: whether the packing as placed can be finished; else the placement to take away
    // (index into the placements, -1 when no single one is to blame) or, failing that, how
    // many of the first placements can be finished (keep(); at least `fixed`).
    // Where: the piece asked about, and its places that can be finished (box cells ascending,
    // completions), the most completions first (ties: by their cells); completions() is the
    // position's.
    struct Place {
        std::vector<int> cells;
        long long completions = 0;
    };
    int piece() const { return piece_; }
    const std::vector<Place>& places() const { return places_; }
    bool completable() const { return completable_; }
    int culprit() const { return culprit_; }
    int keep() const { return keep_; }

    // Placement attempts of every search this query ran (the size of the search), and how far
    // it has come (0..1, the searches' weighted backtrack estimates).
    long long placements() const;
    double fractionDone() const;
    // The answers so far as JSON (Session::playJson documents the fields).
    std::string json() const;

private:
    PlayQuery() = default;
    Status startSearch(const std::vector<Placement>& placed, long long maxSolutions);
    void stepMemo(long long budget);
    void finishSearch();
    void nextWrongCheck();
    void chooseHint(const std::vector<int>& remainderGrid);
    Status startWhere();
    void stepWhere(long long budget);

    PuzzleDef def_;
    std::vector<Placement> placed_;
    Kind kind_ = Kind::Count;
    State state_ = State::Running;
    std::string error_;
    long long limit_ = 0;
    std::atomic<bool> cancelled_{false};

    // the search running now, of the remainder puzzle rem_
    std::unique_ptr<Remainder> rem_;
    std::unique_ptr<Solver> solver_;
    std::unique_ptr<MemoCounter> memo_;   // an exact Count past its limit (its setup decides whether it goes on)
    bool memoChecked_ = false;            // the bound was weighed once the memo's model was built
    bool wantExact_ = false;
    bool exact_ = false;
    long long found_ = 0;                 // completions of the running search
    std::vector<int> first_;              // its first completion (remainder numbering)
    long long placementsBefore_ = 0;      // attempts of the searches that ended

    long long completions_ = 0;
    bool capped_ = false;
    std::vector<int> completion_;
    Placement hint_;
    int piece_ = -1;                 // Where: the piece asked about
    std::vector<Place> places_;

    // Wrong: phase 0 the whole packing, 1 without one placement (newest first), 2 prefixes
    int phase_ = 0;
    int fixed_ = 0;
    int candidate_ = -1;
    int checks_ = 0, checksPlanned_ = 1;
    bool completable_ = false;
    int culprit_ = -1;
    int keep_ = -1;
};

}  // namespace polycube
