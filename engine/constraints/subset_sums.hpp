// SubsetSums: which totals can the remaining pieces make? Shared by the parity monitor and
// the volume monitor (first seed article: "I precalculate the achievable volumes for each
// possible grouping of remaining pieces and track the group as a state variable").
//
// Pieces are grouped into classes; every piece of class k contributes exactly one of the
// values choices[k] to the total (parity: +m or -m; volume: 0 or the piece size). A *state*
// is the number of pieces left in each class, and its *sums* are the totals reachable from
// it, kept as a bitset over [minSum, maxSum] (bit s - minSum; totals outside are dropped).
// When the number of states is small, the sums of every state are tabled once at init and
// a query is a lookup; otherwise they are computed on demand by bitset convolution.
//
//   SubsetSums t;
//   t.init({{0, 5}, {0, 4}}, {12, 5}, 0, 80);   // 12 pentominoes, 5 tetrominoes
//   int left[] = {3, 1};
//   t.contains(left, 9);                          // true: 5 + 4
//
//   std::vector<uint64_t> scratch(t.words());
//   const uint64_t* bits = t.sums(left, scratch.data());  // table row, or computed into scratch
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace polycube {

struct SubsetSumsLimits {
    long maxStates = 65536;         // table at most this many states...
    long maxTableWords = 1L << 22;  // ...and at most this many 64-bit words in all
};

class SubsetSums {
public:
    using Limits = SubsetSumsLimits;

    void init(std::vector<std::vector<int>> choices, std::vector<int> counts, int minSum, int maxSum,
              const Limits& limits = Limits{});

    int classCount() const { return static_cast<int>(counts_.size()); }
    const std::vector<int>& counts() const { return counts_; }  // pieces per class in all
    int minSum() const { return minSum_; }
    int maxSum() const { return maxSum_; }
    int words() const { return words_; }  // 64-bit words per bitset
    bool tabled() const { return tabled_; }
    long stateCount() const { return tabled_ ? states_ : 0; }

    // Table index of a state (tabled() only). remaining[k] in [0, counts()[k]].
    long stateIndex(const int* remaining) const {
        long st = 0;
        for (std::size_t k = 0; k < counts_.size(); ++k) st += radix_[k] * remaining[k];
        return st;
    }
    // Sums of a tabled state: words() words.
    const uint64_t* stateSums(long state) const { return table_.data() + state * words_; }
    // Sums of any state: the table row when tabled, else computed into `scratch` (words() words).
    const uint64_t* sums(const int* remaining, uint64_t* scratch) const;
    // Convolution from scratch (no table): writes words() words to `out`.
    void compute(const int* remaining, uint64_t* out) const;
    // Is `sum` reachable from the state? Allocates when the state is not tabled.
    bool contains(const int* remaining, int sum) const;

    static bool testBit(const uint64_t* bits, int b) { return bits[b >> 6] >> (b & 63) & 1; }

private:
    // dst = union over choices[k] of (src shifted by the choice), clipped to the range.
    void addPiece(int k, const uint64_t* src, uint64_t* dst) const;

    std::vector<std::vector<int>> choices_;
    std::vector<int> counts_;
    std::vector<long> radix_;
    int minSum_ = 0, maxSum_ = -1;
    int bits_ = 0, words_ = 0;
    long states_ = 0;
    bool tabled_ = false;
    std::vector<uint64_t> table_;
};

}  // namespace polycube
