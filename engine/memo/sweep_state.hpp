// SweepState: the state of a search that fills the first open cell of a CoverProblem's sweep
// (cover_problem.hpp): the open cells, the copies left, placing and lifting a row, the
// subproblem's key, and the pocket cut. Internal to engine/memo: the memoized search
// (memo_counter.hpp) and the layered count (layer_count.hpp) each keep one per thread.
//
//   SweepState s;
//   s.reset(problem);                       // every cell open, every copy free
//   if (s.rowFits(r, cell)) { s.place(r, cell); ...; s.unplace(r, cell); }
//   s.buildKey(s.firstOpen(cell), key);     // the subproblem's key (problem.keyWords words)
//   s.load(key, cell);                      // the state a key says
#pragma once
#include <cstdint>
#include <vector>

#include "memo/cover_problem.hpp"

namespace polycube {

// `n` bits (at most 64) of `words` (`count` of them) from bit `pos`; bits past the words read 0.
inline uint64_t bitsFrom(const uint64_t* words, size_t count, int pos, int n) {
    if (n == 0) return 0;
    const size_t w = static_cast<size_t>(pos >> 6);
    const int s = pos & 63;
    uint64_t v = w < count ? words[w] >> s : 0;
    if (s != 0 && w + 1 < count) v |= words[w + 1] << (64 - s);
    return n < 64 ? v & ((1ULL << n) - 1) : v;
}

// ORs the packed copies fields `packed` (p.countWords words) into their bits of a key (zero
// there): a row's demand in the key's terms, or the copies part of buildKey.
void putCopies(const CoverProblem& p, const uint64_t* packed, uint64_t* key);

struct SweepState {
    const CoverProblem* problem = nullptr;
    std::vector<uint64_t> open;    // open cells (words + span of padding)
    std::vector<uint64_t> packed;  // copies left, packed (CoverProblem::fieldWord/fieldShift)
    std::vector<int> left;         // copies left per shape
    int piecesLeft = 0;

    // Every cell open, every copy free; the pocket cut's marks sized for `p`.
    void reset(const CoverProblem& p);

    // Whether row r (listed under `cell`) has its copies left and its cells open.
    bool rowFits(int r, int cell) const {
        const CoverProblem& p = *problem;
        if (left[p.shape0[r]] < p.take0[r]) return false;
        if (p.shape1[r] >= 0 && left[p.shape1[r]] < p.take1[r]) return false;
        return cellsOpen(r, cell);
    }
    bool cellsOpen(int r, int cell) const {
        const CoverProblem& p = *problem;
        const uint64_t* m = &p.mask[static_cast<size_t>(r) * p.span];
        const uint64_t* o = &open[cell >> 6];
        bool fits = true;
        for (int j = 0; j < p.span; ++j) fits &= (o[j] & m[j]) == m[j];
        return fits;
    }
    void place(int r, int cell) { apply(r, cell, -1); }
    void unplace(int r, int cell) { apply(r, cell, +1); }
    // Row r's cells flipped in the open mask only, the copies untouched: the layered count
    // weighs a row against an open window many subproblems share (the pocket cut and the
    // child's first open cell depend on the open cells alone).
    void flipCells(int r, int cell) {
        const CoverProblem& p = *problem;
        const uint64_t* m = &p.mask[static_cast<size_t>(r) * p.span];
        uint64_t* o = &open[cell >> 6];
        for (int j = 0; j < p.span; ++j) o[j] ^= m[j];
    }
    // The first open cell from `fromCell` on (problem->cells: none).
    int firstOpen(int fromCell) const {
        const CoverProblem& p = *problem;
        int w = fromCell >> 6;
        while (w < p.words && open[w] == 0) ++w;
        return w == p.words ? p.cells : (w << 6) + __builtin_ctzll(open[w]);
    }
    // The key of the current state, whose first open cell is `cell` (cover_problem.hpp).
    void buildKey(int cell, uint64_t* key) const;
    // The same with every copies field 0: the position and the open window (the key is
    // buildFrame's words plus putCopies' of the copies left).
    void buildFrame(int cell, uint64_t* key) const;
    // The state `key` says, whose first open cell is `cell`: the inverse of buildKey.
    void load(const uint64_t* key, int cell);
    // Only the copies left that `key` says (packed, left, piecesLeft).
    void loadCopies(const uint64_t* key);
    // The pocket cut: whether row r, just placed at `cell`, walled off a region of open cells
    // smaller than every piece.
    bool leavesPocket(int r, int cell);

private:
    void apply(int r, int cell, int sign) {
        const CoverProblem& p = *problem;
        flipCells(r, cell);
        const uint64_t* d = &p.demand[static_cast<size_t>(r) * p.countWords];
        if (sign < 0)
            for (int j = 0; j < p.countWords; ++j) packed[j] -= d[j];
        else
            for (int j = 0; j < p.countWords; ++j) packed[j] += d[j];
        left[p.shape0[r]] += sign * p.take0[r];
        piecesLeft += sign * p.take0[r];
        if (p.shape1[r] >= 0) {
            left[p.shape1[r]] += sign * p.take1[r];
            piecesLeft += sign * p.take1[r];
        }
    }
    bool pocketFrom(int start);
    std::vector<uint32_t> seen_;   // the pocket cut's flood marks: the stamp of the flood that reached a cell
    std::vector<int> flood_;
    uint32_t stamp_ = 0, checkStamp_ = 1;
};

}  // namespace polycube
