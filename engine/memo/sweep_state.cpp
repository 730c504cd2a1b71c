// SweepState (sweep_state.hpp): the key, its inverse, and the pocket cut.
#include "memo/sweep_state.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace polycube {

namespace {

// Appends the low `n` bits (at most 64) of `value` at bit `pos` of `out` (zeroed words).
inline void putBits(uint64_t* out, int& pos, uint64_t value, int n) {
    if (n == 0) return;
    if (n < 64) value &= (1ULL << n) - 1;
    const int w = pos >> 6, s = pos & 63;
    out[w] |= value << s;
    if (s != 0 && s + n > 64) out[w + 1] |= value >> (64 - s);
    pos += n;
}

// The same as bitsFrom, moving `pos` past them.
inline uint64_t takeBits(const uint64_t* words, size_t count, int& pos, int n) {
    const uint64_t v = bitsFrom(words, count, pos, n);
    pos += n;
    return v;
}

}  // namespace

void SweepState::reset(const CoverProblem& p) {
    problem = &p;
    open.assign(p.words + p.span + 1, 0);
    for (int c = 0; c < p.cells; ++c) open[c >> 6] |= 1ULL << (c & 63);
    packed = p.startPacked;
    left = p.startCount;
    piecesLeft = p.pieces;
    seen_.assign(p.cells, 0);
    stamp_ = 0;
    flood_.resize(std::max(p.smallestPiece, 1) + 8);
}

void putCopies(const CoverProblem& p, const uint64_t* packed, uint64_t* key) {
    for (int w = 0; w < p.countWords; ++w) {
        int pos = p.countAt[w];
        putBits(key, pos, packed[w], p.countBits[w]);
    }
}

// The position plus one (never 0), then the copies left (CoverProblem::countAt), then the open
// window after the cell.
void SweepState::buildKey(int cell, uint64_t* key) const {
    buildFrame(cell, key);
    putCopies(*problem, packed.data(), key);
}

void SweepState::buildFrame(int cell, uint64_t* key) const {
    const CoverProblem& p = *problem;
    std::fill(key, key + p.keyWords, 0);
    int pos = 0;
    putBits(key, pos, static_cast<uint64_t>(cell) + 1, p.positionBits);
    pos = p.keyBits - p.keyWindow;
    for (int from = cell + 1, rest = p.keyWindow; rest > 0;) {
        const int n = std::min(rest, 64);
        putBits(key, pos, takeBits(open.data(), open.size(), from, n), n);
        rest -= n;
    }
}

// Every cell before `cell` filled, `cell` open, the window after it as the key says, every
// later cell open (a row placed before `cell` reaches no further: cover_problem.hpp).
void SweepState::loadCopies(const uint64_t* key) {
    const CoverProblem& p = *problem;
    const size_t words = static_cast<size_t>(p.keyWords);
    piecesLeft = 0;
    for (int w = 0; w < p.countWords; ++w) packed[w] = bitsFrom(key, words, p.countAt[w], p.countBits[w]);
    for (int s = 0; s < p.shapes; ++s) {
        left[s] = static_cast<int>((packed[p.fieldWord[s]] >> p.fieldShift[s]) & ((1ULL << p.fieldBits[s]) - 1));
        piecesLeft += left[s];
    }
}

void SweepState::load(const uint64_t* key, int cell) {
    const CoverProblem& p = *problem;
    const size_t words = static_cast<size_t>(p.keyWords);
    loadCopies(key);
    int pos = p.keyBits - p.keyWindow;
    std::fill(open.begin(), open.end(), 0);
    for (int c = cell + 1 + p.keyWindow; c < p.cells;) {
        if ((c & 63) == 0 && c + 64 <= p.cells) {
            open[c >> 6] = ~0ULL;
            c += 64;
        } else {
            open[c >> 6] |= 1ULL << (c & 63);
            ++c;
        }
    }
    open[cell >> 6] |= 1ULL << (cell & 63);
    for (int at = cell + 1, rest = p.keyWindow; rest > 0;) {
        const int n = std::min(rest, 64);
        putBits(open.data(), at, takeBits(key, words, pos, n), n);
        rest -= n;
    }
}

// Only regions touching the row can be new, so the floods start at its open neighbours; a
// flood stops as soon as it has found cells for a piece. Each flood marks its cells with a
// stamp of its own: a flood that meets the marks of an earlier one of this check is in a
// region already found large enough.
bool SweepState::leavesPocket(int r, int cell) {
    const CoverProblem& p = *problem;
    if (stamp_ > UINT32_MAX - (1u << 24)) {  // (a check takes a stamp per flood, at most 6 per cell of a row) the stamps would wrap: clear the marks
        std::fill(seen_.begin(), seen_.end(), 0);
        stamp_ = 0;
    }
    checkStamp_ = stamp_ + 1;
    const uint64_t* m = &p.mask[static_cast<size_t>(r) * p.span];
    const int base = (cell >> 6) << 6;
    for (int j = 0; j < p.span; ++j) {
        for (uint64_t bits = m[j]; bits != 0; bits &= bits - 1) {
            const int c = base + 64 * j + __builtin_ctzll(bits);
            for (int k = p.neighbourBegin[c]; k < p.neighbourBegin[c + 1]; ++k) {
                const int q = p.neighbours[k];
                if ((open[q >> 6] >> (q & 63) & 1) && seen_[q] < checkStamp_ && pocketFrom(q)) return true;
            }
        }
    }
    return false;
}

bool SweepState::pocketFrom(int start) {
    const CoverProblem& p = *problem;
    const uint32_t mine = ++stamp_;
    const int enough = p.smallestPiece;
    int* stack = flood_.data();
    int top = 0, size = 1;
    stack[top++] = start;
    seen_[start] = mine;
    while (top > 0) {
        const int c = stack[--top];
        for (int k = p.neighbourBegin[c]; k < p.neighbourBegin[c + 1]; ++k) {
            const int q = p.neighbours[k];
            if (!(open[q >> 6] >> (q & 63) & 1) || seen_[q] == mine) continue;
            if (seen_[q] >= checkStamp_ || ++size >= enough) return false;  // an earlier flood's large region, or enough cells
            seen_[q] = mine;
            stack[top++] = q;
        }
    }
    return true;
}

}  // namespace polycube
