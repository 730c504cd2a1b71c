#include "constraints/subset_sums.hpp"

#include <algorithm>
#include <utility>

namespace polycube {

namespace {

// dst |= src shifted towards higher bits by d (d < 0: towards lower bits).
void orShifted(const uint64_t* src, uint64_t* dst, int words, int d) {
    if (d >= 0) {
        const int q = d >> 6, r = d & 63;
        for (int i = words - 1; i >= q; --i) {
            uint64_t w = src[i - q] << r;
            if (r && i - q - 1 >= 0) w |= src[i - q - 1] >> (64 - r);
            dst[i] |= w;
        }
    } else {
        const int q = (-d) >> 6, r = (-d) & 63;
        for (int i = 0; i + q < words; ++i) {
            uint64_t w = src[i + q] >> r;
            if (r && i + q + 1 < words) w |= src[i + q + 1] << (64 - r);
            dst[i] |= w;
        }
    }
}

}  // namespace

void SubsetSums::init(std::vector<std::vector<int>> choices, std::vector<int> counts, int minSum, int maxSum,
                      const Limits& limits) {
    choices_ = std::move(choices);
    counts_ = std::move(counts);
    minSum_ = minSum;
    maxSum_ = maxSum;
    bits_ = maxSum_ - minSum_ + 1;
    words_ = (bits_ + 63) / 64;
    states_ = 1;
    radix_.clear();
    table_.clear();
    for (int c : counts_) {
        radix_.push_back(states_);
        states_ *= c + 1;
        if (states_ > limits.maxStates) break;
    }
    tabled_ = states_ <= limits.maxStates && states_ * words_ <= limits.maxTableWords;
    if (!tabled_) return;
    // Row 0 (nothing left) holds the empty sum; any other state is the state with one piece
    // fewer in its first non-empty class, plus that piece.
    table_.assign(static_cast<size_t>(states_) * words_, 0);
    table_[(0 - minSum_) >> 6] |= 1ULL << ((0 - minSum_) & 63);
    for (long st = 1; st < states_; ++st) {
        long r = st;
        int k = 0;
        while (r % (counts_[k] + 1) == 0) r /= counts_[k++] + 1;
        addPiece(k, table_.data() + (st - radix_[k]) * words_, table_.data() + st * words_);
    }
}

void SubsetSums::addPiece(int k, const uint64_t* src, uint64_t* dst) const {
    std::fill(dst, dst + words_, 0);
    for (int d : choices_[k]) orShifted(src, dst, words_, d);
    if (bits_ & 63) dst[words_ - 1] &= (1ULL << (bits_ & 63)) - 1;
}

void SubsetSums::compute(const int* remaining, uint64_t* out) const {
    std::vector<uint64_t> tmp(words_, 0);
    std::fill(out, out + words_, 0);
    out[(0 - minSum_) >> 6] |= 1ULL << ((0 - minSum_) & 63);
    for (size_t k = 0; k < counts_.size(); ++k)
        for (int n = 0; n < remaining[k]; ++n) {
            addPiece(static_cast<int>(k), out, tmp.data());
            std::copy(tmp.begin(), tmp.end(), out);
        }
}

const uint64_t* SubsetSums::sums(const int* remaining, uint64_t* scratch) const {
    if (tabled_) return stateSums(stateIndex(remaining));
    compute(remaining, scratch);
    return scratch;
}

bool SubsetSums::contains(const int* remaining, int sum) const {
    if (sum < minSum_ || sum > maxSum_) return false;
    const int b = sum - minSum_;
    if (tabled_) return testBit(stateSums(stateIndex(remaining)), b);
    std::vector<uint64_t> bits(words_);
    compute(remaining, bits.data());
    return testBit(bits.data(), b);
}

}  // namespace polycube
