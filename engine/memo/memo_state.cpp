// The memoized counter's search state (memo_counter.hpp): placing and lifting a row, the first
// open cell, the subproblem's key, and the pocket cut. Apart from memo_counter.cpp (the phases,
// terms and the search loop) to keep each file to one concern.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "memo/memo_counter.hpp"

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

// `n` bits (at most 64) of `words` from bit `start`; bits past the words read 0.
inline uint64_t takeBits(const std::vector<uint64_t>& words, int start, int n) {
    const size_t w = static_cast<size_t>(start >> 6);
    const int s = start & 63;
    uint64_t v = w < words.size() ? words[w] >> s : 0;
    if (s != 0 && w + 1 < words.size()) v |= words[w + 1] << (64 - s);
    return n < 64 ? v & ((1ULL << n) - 1) : v;
}

}  // namespace

// The key of the current state, whose first open cell is `cell` (cover_problem.hpp: the
// position plus one, never 0, then the copies left, then the open window after the cell).
void MemoCounter::buildKey(int cell) {
    uint64_t* k = key_.data();
    std::fill(key_.begin(), key_.end(), 0);
    int pos = 0;
    putBits(k, pos, static_cast<uint64_t>(cell) + 1, problem_.positionBits);
    for (int w = 0; w < problem_.countWords; ++w) putBits(k, pos, packed_[w], problem_.countBits[w]);
    for (int from = cell + 1, left = problem_.keyWindow; left > 0;) {
        const int n = std::min(left, 64);
        putBits(k, pos, takeBits(open_, from, n), n);
        from += n;
        left -= n;
    }
}

int MemoCounter::firstOpen(int fromCell) const {
    int w = fromCell >> 6;
    while (w < problem_.words && open_[w] == 0) ++w;
    return w == problem_.words ? problem_.cells : (w << 6) + __builtin_ctzll(open_[w]);
}

void MemoCounter::place(int r, int cell) {
    const uint64_t* m = &problem_.mask[static_cast<size_t>(r) * problem_.span];
    uint64_t* o = &open_[cell >> 6];
    for (int j = 0; j < problem_.span; ++j) o[j] ^= m[j];
    const uint64_t* d = &problem_.demand[static_cast<size_t>(r) * problem_.countWords];
    for (int j = 0; j < problem_.countWords; ++j) packed_[j] -= d[j];
    left_[problem_.shape0[r]] -= problem_.take0[r];
    piecesLeft_ -= problem_.take0[r];
    if (problem_.shape1[r] >= 0) {
        left_[problem_.shape1[r]] -= problem_.take1[r];
        piecesLeft_ -= problem_.take1[r];
    }
}

void MemoCounter::unplace(int r, int cell) {
    const uint64_t* m = &problem_.mask[static_cast<size_t>(r) * problem_.span];
    uint64_t* o = &open_[cell >> 6];
    for (int j = 0; j < problem_.span; ++j) o[j] ^= m[j];
    const uint64_t* d = &problem_.demand[static_cast<size_t>(r) * problem_.countWords];
    for (int j = 0; j < problem_.countWords; ++j) packed_[j] += d[j];
    left_[problem_.shape0[r]] += problem_.take0[r];
    piecesLeft_ += problem_.take0[r];
    if (problem_.shape1[r] >= 0) {
        left_[problem_.shape1[r]] += problem_.take1[r];
        piecesLeft_ += problem_.take1[r];
    }
}

// The pocket cut: whether row r, just placed at `cell`, walled off a region of open cells
// smaller than every piece (no piece can ever fill it; pieces are whole, smallestPiece says).
// Only regions touching the row can be new, so the floods start at its open neighbours; a
// flood stops as soon as it has found cells for a piece. Each flood marks its cells with a
// stamp of its own: a flood that meets the marks of an earlier one of this check is in a
// region already found large enough.
bool MemoCounter::leavesPocket(int r, int cell) {
    if (stamp_ > UINT32_MAX - (1u << 24)) {  // (a check takes a stamp per flood, at most 6 per cell of a row) the stamps would wrap: clear the marks
        std::fill(seen_.begin(), seen_.end(), 0);
        stamp_ = 0;
    }
    checkStamp_ = stamp_ + 1;
    const uint64_t* m = &problem_.mask[static_cast<size_t>(r) * problem_.span];
    const int base = (cell >> 6) << 6;
    for (int j = 0; j < problem_.span; ++j) {
        for (uint64_t bits = m[j]; bits != 0; bits &= bits - 1) {
            const int c = base + 64 * j + __builtin_ctzll(bits);
            for (int k = problem_.neighbourBegin[c]; k < problem_.neighbourBegin[c + 1]; ++k) {
                const int q = problem_.neighbours[k];
                if ((open_[q >> 6] >> (q & 63) & 1) && seen_[q] < checkStamp_ && pocketFrom(q)) return true;
            }
        }
    }
    return false;
}

bool MemoCounter::pocketFrom(int start) {
    const uint32_t mine = ++stamp_;
    const int enough = problem_.smallestPiece;
    int* stack = flood_.data();
    int top = 0, size = 1;
    stack[top++] = start;
    seen_[start] = mine;
    while (top > 0) {
        const int c = stack[--top];
        for (int k = problem_.neighbourBegin[c]; k < problem_.neighbourBegin[c + 1]; ++k) {
            const int q = problem_.neighbours[k];
            if (!(open_[q >> 6] >> (q & 63) & 1) || seen_[q] == mine) continue;
            if (seen_[q] >= checkStamp_ || ++size >= enough) return false;  // an earlier flood's large region, or enough cells
            seen_[q] = mine;
            stack[top++] = q;
        }
    }
    return true;
}

}  // namespace polycube
