// PlacementCounts: for every row of a one-term CoverProblem, the number of its solutions that
// place that row ("how many solutions keep this piece where it is"), and the count itself, in
// two passes over the memoized search's subproblems. Internal to engine/memo (memo_counter.hpp:
// MemoSettings::placementCounts, the CLI's --placements).
//
//   PlacementCounts counts(problem, maxBytes);
//   long long budget = 1'000'000;
//   while (counts.run(budget, stop) == PlacementCounts::Status::Running) budget = 1'000'000;
//   if (counts.status() == PlacementCounts::Status::Done) use(counts.count(), counts.rowCounts());
//
// The subproblems (cover_problem.hpp's keys: the first open cell, the copies left, the open
// window) and the rows between them form a diagram, DXZ's decision diagram of the solutions
// with the rows on its edges: a row placed at a subproblem u's first open cell leads to the
// subproblem v it leaves, or to the end when it fills the last open cells. Each solution is
// one path from the start to the end (the sweep fills the first open cell, so the order of
// its rows is fixed), and the solutions through an edge u -r-> v number
//     ways(u) * completions(v),
// the paths from the start to u times the paths from v to the end (1 for the end).
// 1. Forward, layer by layer in the sweep's order (as layer_count.hpp): layer p holds the
//    subproblems whose first open cell is p, each with its ways; its entries are sorted by key
//    and equal keys merged (ways added), numbered, and each subproblem is expanded once: every
//    row it can place is kept as an edge (the row, the child's number, given when the child's
//    layer is merged), and the child's entry carries the parent's ways into its layer. A
//    layer's keys go once it is expanded; the subproblems' ways and the edges stay.
// 2. Backward, over the subproblems from the last numbered to the first (every child is
//    numbered after its parent): a subproblem's completions are the sum of its children's (1
//    for the end), and each edge's row gains ways(u) * completions(child). The start's
//    completions are the count, which must equal the forward pass's sum of the ways that
//    reached the end (checked).
// The rows placed are the counter's: copies left, cells open, the pocket cut, weighed once per
// run of subproblems with the same open window (window_rows.hpp).
//
// Memory: 12 bytes a subproblem and 8 an edge, every one kept (the layered count keeps only
// the live layers), plus the live layers' keys. Past `maxBytes` (or past 2^32 - 1 subproblems:
// their numbers are 32 bits) the run stops with OverBudget; a count past 2^64 with Overflow.
#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

#include "memo/cover_problem.hpp"
#include "memo/huge_block.hpp"
#include "memo/sweep_state.hpp"
#include "memo/window_rows.hpp"

namespace polycube {

class PlacementCounts {
public:
    // Inconsistent: the two passes' counts differ (an internal error, never expected).
    enum class Status { Running, Done, OverBudget, Overflow, Cancelled, Inconsistent };

    PlacementCounts(const CoverProblem& problem, long long maxBytes);

    // Works for about `budget` image attempts (spent from it); the status after.
    Status run(long long& budget, const std::atomic<bool>& stop);
    Status status() const { return status_; }
    uint64_t count() const { return count_; }  // once Done
    // Per row of the problem: the solutions that place it (once Done).
    const std::vector<uint64_t>& rowCounts() const { return rowCounts_; }
    // The share done: the forward pass by its subproblems over the layers' forecast total
    // (memo_choice.hpp's layeredShareDone, never going back), then the backward pass (far
    // quicker) by its subproblems.
    double fractionDone() const;

    struct Stats {
        long long attempts = 0, placements = 0, pockets = 0;
        long long subproblems = 0;  // distinct subproblems kept
        long long bytes = 0;        // the most memory held at once
    };
    const Stats& stats() const { return stats_; }

private:
    struct Edge {
        uint32_t row;
        uint32_t child;  // the child's number, or kEnd
    };
    static constexpr uint32_t kEnd = UINT32_MAX;
    // One layer of the forward pass: the subproblems whose first open cell is its cell.
    struct Layer {
        HugeArray<uint64_t> incoming;  // entries not yet merged: key words, ways, edge
        HugeArray<uint64_t> keys;      // once merged: keyWords words each, ascending
        uint32_t first = 0;              // the number of its first subproblem
    };
    void openLayer(int p);
    void weighRun(int p, size_t u);
    void expand(int p, size_t u, long long& attempts);
    bool backOne(long long& attempts);
    bool charge(long long bytes);  // false past the budget (sets OverBudget)
    // Appends to `a`, charging its growth; false (OverBudget) when refused or past the budget.
    template <typename T>
    bool append(HugeArray<T>& a, const T& value) {
        const long long before = a.capacityBytes();
        if (!a.push_back(value)) {
            status_ = Status::OverBudget;
            return false;
        }
        return a.capacityBytes() == before || charge(a.capacityBytes() - before);
    }

    const CoverProblem& p_;
    RowIndex index_;
    long long maxBytes_;
    int words_;
    SweepState state_;
    WindowRows rows_;            // the rows of the run being expanded
    std::vector<int> runLeft_;   // its copies, ORed field by field
    std::vector<uint64_t> key_;
    std::vector<Layer> layers_;
    // Per subproblem, by number: its ways (forward), then its completions (backward); and
    // its edges' count. The edges of subproblem u follow those of u - 1.
    HugeArray<uint64_t> value_;
    HugeArray<uint32_t> edgeCount_;
    HugeArray<Edge> edges_;
    std::vector<uint64_t> rowCounts_;
    uint64_t reachedEnd_ = 0;  // the forward pass's count
    uint64_t count_ = 0;
    bool backward_ = false;
    mutable double shownForward_ = 0;  // the forward pass's share shown, never going back
    int at_ = 0;              // forward: the layer being expanded
    size_t next_ = 0;         // forward: its next subproblem; backward: the subproblems left
    size_t edgeAt_ = 0;       // backward: the edges before the next subproblem's end
    bool opened_ = false;
    long long heldBytes_ = 0;  // what the passes hold now (capacities)
    Stats stats_;
    Status status_ = Status::Running;
};

}  // namespace polycube
