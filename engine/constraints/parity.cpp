#include "constraints/parity.hpp"

#include <cstdlib>
#include <map>

namespace polycube {

namespace {

// Sums of +-m over n pieces: bitset over [-maxSum, maxSum], bit (s + maxSum).
void convolve(std::vector<uint64_t>& set, int m, int n, int maxSum) {
    const int bits = 2 * maxSum + 1;
    for (int k = 0; k < n; ++k) {
        std::vector<uint64_t> next(set.size(), 0);
        for (int b = 0; b < bits; ++b) {
            if (!(set[b >> 6] >> (b & 63) & 1)) continue;
            for (int d : {m, -m}) {
                int nb = b + d;
                if (nb >= 0 && nb < bits) next[nb >> 6] |= 1ULL << (nb & 63);
            }
        }
        set.swap(next);
    }
}

}  // namespace

void ParityMonitor::init(const Model& m) {
    std::map<int, int> classOfMagnitude;
    classOfShape_.assign(m.shapeCount(), -1);
    maxSum_ = 0;
    for (int s = 0; s < m.shapeCount(); ++s) {
        int mag = m.shapes[s].parityMagnitude;
        maxSum_ += mag * m.shapes[s].count;
        if (mag == 0) continue;
        auto [it, inserted] = classOfMagnitude.emplace(mag, static_cast<int>(magnitudes_.size()));
        if (inserted) {
            magnitudes_.push_back(mag);
            counts_.push_back(0);
        }
        classOfShape_[s] = it->second;
        counts_[it->second] += m.shapes[s].count;
    }
    words_ = (2 * maxSum_ + 1 + 63) / 64;
    long states = 1;
    radix_.clear();
    for (int c : counts_) {
        radix_.push_back(states);
        states *= c + 1;
        if (states > 65536) break;
    }
    tabled_ = states <= 65536 && states * words_ <= (1L << 22);
    if (!tabled_) return;
    table_.assign(static_cast<size_t>(states) * words_, 0);
    std::vector<int> rem(counts_.size());
    for (long st = 0; st < states; ++st) {
        long r = st;
        for (size_t k = 0; k < counts_.size(); ++k) {
            rem[k] = static_cast<int>(r % (counts_[k] + 1));
            r /= counts_[k] + 1;
        }
        std::vector<uint64_t> set(words_, 0);
        set[maxSum_ >> 6] |= 1ULL << (maxSum_ & 63);
        for (size_t k = 0; k < counts_.size(); ++k) convolve(set, magnitudes_[k], rem[k], maxSum_);
        std::copy(set.begin(), set.end(), table_.begin() + st * words_);
    }
}

bool ParityMonitor::compute(const int* remaining, int target) const {
    std::vector<uint64_t> set(words_, 0);
    set[maxSum_ >> 6] |= 1ULL << (maxSum_ & 63);
    for (size_t k = 0; k < counts_.size(); ++k) convolve(set, magnitudes_[k], remaining[k], maxSum_);
    int b = target + maxSum_;
    return set[b >> 6] >> (b & 63) & 1;
}

bool ParityMonitor::achievable(const int* remaining, int target) const {
    if (std::abs(target) > maxSum_) return false;
    if (!tabled_) return compute(remaining, target);
    long st = 0;
    for (size_t k = 0; k < counts_.size(); ++k) st += radix_[k] * remaining[k];
    int b = target + maxSum_;
    return table_[st * words_ + (b >> 6)] >> (b & 63) & 1;
}

}  // namespace polycube
