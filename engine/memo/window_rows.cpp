// RowIndex and WindowRows (window_rows.hpp): the fit index, the key's copies arithmetic, and
// the rows weighed once per open window.
#include "memo/window_rows.hpp"

#include <algorithm>

namespace polycube {

namespace {

// The index's size: at most this many row entries (4 MiB) and this much work to build it.
constexpr size_t kMaxFitEntries = 1 << 20;
constexpr int kMaxFitBits = 10;

}  // namespace

RowIndex::RowIndex(const CoverProblem& problem) : p_(problem), words_(problem.keyWords) {
    buildFitIndex();
    // The copies' bits in a key, and each row's demand there: a child's key is its frame plus
    // the parent's copies minus the row's demand (childKey).
    std::vector<uint64_t> all(static_cast<size_t>(p_.countWords), ~0ULL);
    copiesMask_.assign(words_, 0);
    putCopies(p_, all.data(), copiesMask_.data());
    const int rows = p_.rows();
    keyDemand_.assign(static_cast<size_t>(rows) * words_, 0);
    for (int r = 0; r < rows; ++r)
        putCopies(p_, &p_.demand[static_cast<size_t>(r) * p_.countWords], &keyDemand_[static_cast<size_t>(r) * words_]);

    // Each shape's field in the key, then each row's check of its one or two fields.
    std::vector<int> fieldWord(static_cast<size_t>(p_.shapes), 0);
    std::vector<uint64_t> fieldMask(static_cast<size_t>(p_.shapes), 0);
    for (int s = 0; s < p_.shapes; ++s) {
        const int w = p_.fieldWord[s];
        const int bit = p_.countAt[w] + p_.fieldShift[s], width = p_.fieldBits[s];
        fieldWord[s] = bit >> 6;
        fieldMask[s] = (width >= 64 ? ~0ULL : (1ULL << width) - 1) << (bit & 63);
    }
    keyNeed_.assign(static_cast<size_t>(rows), KeyNeed{});
    for (int r = 0; r < rows; ++r) {
        KeyNeed& n = keyNeed_[static_cast<size_t>(r)];
        const uint64_t* demand = &keyDemand_[static_cast<size_t>(r) * words_];
        const int s0 = p_.shape0[r], s1 = p_.shape1[r];
        n.word0 = fieldWord[s0];
        n.mask0 = fieldMask[s0];
        n.need0 = demand[n.word0] & n.mask0;
        if (s1 >= 0) {
            n.word1 = fieldWord[s1];
            n.mask1 = fieldMask[s1];
            n.need1 = demand[n.word1] & n.mask1;
        }
    }
}

// Row r at cell p fits a state only if its cells among p + 1 .. p + fitBits_ are open there:
// r is listed under every pattern of those bits that holds its own (the supersets of its
// pattern). The most bits whose lists stay within kMaxFitEntries.
void RowIndex::buildFitIndex() {
    const int rows = p_.rows();
    std::vector<uint32_t> pattern(rows, 0);
    for (int k = std::min(kMaxFitBits, p_.keyWindow); k > 0; --k) {
        size_t entries = 0;
        for (int c = 0; c < p_.cells; ++c)
            for (int r = p_.rowBegin[c]; r < p_.rowBegin[c + 1]; ++r) {
                pattern[r] = static_cast<uint32_t>(
                    bitsFrom(&p_.mask[static_cast<size_t>(r) * p_.span], p_.span, c + 1 - ((c >> 6) << 6), k));
                entries += size_t{1} << (k - __builtin_popcount(pattern[r]));
            }
        if (entries > kMaxFitEntries) continue;
        fitBits_ = k;
        const uint32_t full = (1u << k) - 1;
        fitBegin_.assign((static_cast<size_t>(p_.cells) << k) + 1, 0);
        for (int c = 0; c < p_.cells; ++c)
            for (int r = p_.rowBegin[c]; r < p_.rowBegin[c + 1]; ++r)
                for (uint32_t free = full & ~pattern[r], sub = free;; sub = (sub - 1) & free) {
                    ++fitBegin_[(static_cast<size_t>(c) << k | (pattern[r] | sub)) + 1];
                    if (sub == 0) break;
                }
        for (size_t i = 1; i < fitBegin_.size(); ++i) fitBegin_[i] += fitBegin_[i - 1];
        fitRows_.assign(fitBegin_.back(), 0);
        std::vector<uint32_t> at(fitBegin_.begin(), fitBegin_.end() - 1);
        for (int c = 0; c < p_.cells; ++c)
            for (int r = p_.rowBegin[c]; r < p_.rowBegin[c + 1]; ++r)
                for (uint32_t free = full & ~pattern[r], sub = free;; sub = (sub - 1) & free) {
                    fitRows_[at[static_cast<size_t>(c) << k | (pattern[r] | sub)]++] = r;
                    if (sub == 0) break;
                }
        return;
    }
}

RowIndex::Span RowIndex::rowsAt(int cell, const std::vector<uint64_t>& open) const {
    if (fitBits_ == 0) return {p_.rowBegin[cell], p_.rowBegin[cell + 1], nullptr};
    // (the rows whose cells just after this one are open)
    const size_t at = static_cast<size_t>(cell) << fitBits_ | bitsFrom(open.data(), open.size(), cell + 1, fitBits_);
    return {static_cast<int>(fitBegin_[at]), static_cast<int>(fitBegin_[at + 1]), fitRows_.data()};
}

void WindowRows::weigh(const RowIndex& index, SweepState& s, int cell, const uint64_t* key, const int* anyLeft) {
    const CoverProblem& p = index.problem();
    window.resize(static_cast<size_t>(p.keyWords));
    index.windowOf(key, window.data());
    candidates.clear();
    frames.clear();
    const RowIndex::Span span = index.rowsAt(cell, s.open);
    tried = span.to - span.from;
    for (int k = span.from; k < span.to; ++k) {
        const int r = span.rows ? span.rows[k] : k;
        if (!index.copiesLeft(anyLeft, r) || !s.cellsOpen(r, cell)) continue;
        s.flipCells(r, cell);
        Candidate c{r, p.cells, p.smallestPiece > 0 && s.leavesPocket(r, cell), frames.size()};
        if (!c.pocket) {
            c.child = s.firstOpen(cell);
            if (c.child < p.cells) {
                frames.resize(frames.size() + static_cast<size_t>(p.keyWords));
                s.buildFrame(c.child, &frames[c.frame]);
            }
        }
        s.flipCells(r, cell);
        candidates.push_back(c);
    }
    weighed = true;
}

}  // namespace polycube
