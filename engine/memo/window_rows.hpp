// The rows a run of subproblems with the same open window can place, weighed once for the run:
// the layered count (layer_count.hpp) and the placements' count (placement_counts.hpp) expand
// the subproblems of a layer grouped by window. Internal to engine/memo.
//
//   const RowIndex index(problem);            // per problem: the fit index, the key's arithmetic
//   WindowRows rows;                           // per thread
//   if (!rows.weighed || !index.inWindow(key, rows.window.data()))
//       rows.weigh(index, state, cell, key, runLeft);   // state: any SweepState of the problem
//   for (const WindowRows::Candidate& c : rows.candidates)
//       if (index.keyHasCopies(key, c.row) && !c.pocket) index.childKey(key, rows.frame(c), c.row, out);
//
// What placing a row at the first open cell does to the open cells (whether it fits them, walls
// off a pocket, which cell is the child's first open one, the child's key but its copies)
// depends on the open window alone, so a run of subproblems with the same window (the key's top
// bits: a layer sorted as numbers, the last word highest, puts them next to each other) weighs
// the rows once, and each of its subproblems only checks its copies left.
#pragma once
#include <cstdint>
#include <vector>

#include "memo/cover_problem.hpp"
#include "memo/sweep_state.hpp"

namespace polycube {

class RowIndex {
public:
    explicit RowIndex(const CoverProblem& problem);

    const CoverProblem& problem() const { return p_; }
    // Whether `key`'s position and open window are `window`'s (a key with its copies masked out).
    bool inWindow(const uint64_t* key, const uint64_t* window) const {
        for (int j = 0; j < words_; ++j)
            if ((key[j] & ~copiesMask_[j]) != window[j]) return false;
        return true;
    }
    // `key` with its copies masked out.
    void windowOf(const uint64_t* key, uint64_t* out) const {
        for (int j = 0; j < words_; ++j) out[j] = key[j] & ~copiesMask_[j];
    }
    // ORs `key`'s copies into `into` (the copies a run's subproblems may have, field by field).
    void orCopies(const uint64_t* key, uint64_t* into) const {
        for (int j = 0; j < words_; ++j) into[j] |= key[j] & copiesMask_[j];
    }
    // Whether `left` (copies left per shape) has row r's copies.
    bool copiesLeft(const int* left, int r) const {
        return left[p_.shape0[r]] >= p_.take0[r] && (p_.shape1[r] < 0 || left[p_.shape1[r]] >= p_.take1[r]);
    }
    // The same read from the subproblem's key itself, no copies unpacked: each field the row
    // takes from (within one key word: CoverProblem::countAt), masked, against the row's
    // demand there.
    bool keyHasCopies(const uint64_t* key, int r) const {
        const KeyNeed& n = keyNeed_[static_cast<size_t>(r)];
        return (key[n.word0] & n.mask0) >= n.need0 && (key[n.word1] & n.mask1) >= n.need1;
    }
    // The key of the subproblem row r leaves from the subproblem `key`: `frame` (the child's
    // position and open window) plus `key`'s copies less the row's. No field goes below 0, so
    // no borrow crosses from one field to the next, and a multi-word subtraction is word by
    // word with the borrow carried.
    void childKey(const uint64_t* key, const uint64_t* frame, int r, uint64_t* out) const {
        const uint64_t* demand = &keyDemand_[static_cast<size_t>(r) * words_];
        if (words_ == 1) {
            out[0] = frame[0] | ((key[0] & copiesMask_[0]) - demand[0]);
            return;
        }
        bool borrow = false;
        for (int j = 0; j < words_; ++j) {
            uint64_t d;
            const bool b1 = __builtin_sub_overflow(key[j] & copiesMask_[j], demand[j], &d);
            const bool b2 = __builtin_sub_overflow(d, static_cast<uint64_t>(borrow), &d);
            borrow = b1 || b2;
            out[j] = frame[j] | d;
        }
    }
    // The rows at `cell` that may fit the open cells `open` (a SweepState's): [from, to) of
    // rows (or of the problem's rows at the cell when rows is null).
    struct Span {
        int from, to;
        const int* rows;
    };
    Span rowsAt(int cell, const std::vector<uint64_t>& open) const;

private:
    void buildFitIndex();
    const CoverProblem& p_;
    int words_;
    // The rows at each cell p that can fit, by the open bits of the fitBits_ cells after p:
    // rows fitBegin_[p << fitBits_ | bits] .. fitBegin_[(p << fitBits_ | bits) + 1] of fitRows_,
    // in the problem's order (so most rows that cannot fit are never tried).
    int fitBits_ = 0;
    std::vector<uint32_t> fitBegin_;
    std::vector<int> fitRows_;
    std::vector<uint64_t> copiesMask_;  // the copies' bits in a key
    std::vector<uint64_t> keyDemand_;   // per row: its demand in a key's copies bits
    // Per row: the key word, mask and demand of the field of shape0 and of shape1 (mask and
    // demand 0 for none), for keyHasCopies.
    struct KeyNeed {
        int word0 = 0, word1 = 0;
        uint64_t mask0 = 0, need0 = 0, mask1 = 0, need1 = 0;
    };
    std::vector<KeyNeed> keyNeed_;
};

// One thread's rows weighed against the open window of the run being expanded.
struct WindowRows {
    // A row that fits the window's open cells; `pocket`: placing it walls off a pocket; else
    // its child's first open cell (problem.cells: the row fills the last ones) and, from
    // `frame` in `frames`, the child's key but the copies.
    struct Candidate {
        int row, child;
        bool pocket;
        size_t frame;
    };
    std::vector<Candidate> candidates;
    std::vector<uint64_t> frames;
    std::vector<uint64_t> window;  // the run's key with the copies masked out
    long long tried = 0;           // the rows the index offered for it
    bool weighed = false;

    const uint64_t* frame(const Candidate& c) const { return &frames[c.frame]; }
    // Weighs the rows at `cell` for the run whose first subproblem is `key`, `state` loaded
    // with it (load(key, cell)): only rows `anyLeft` (copies per shape some subproblem of the
    // run may have) allows.
    void weigh(const RowIndex& index, SweepState& state, int cell, const uint64_t* key, const int* anyLeft);
};

}  // namespace polycube
