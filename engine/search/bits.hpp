// Fixed-width occupancy bit fields for FILA: W 64-bit words (64, 128, 256 cells).
// The first seed article's "Bit Fields": an image fits iff (occupancy & layoutMask) == 0.
//
// Also MagicIndex: a multiply-and-shift that numbers the subsets of a few scattered bits
// (the NOF index's cells) where the processor has no pext (WebAssembly, pre-Haswell x86):
//   MagicIndex mi = findMagicIndex(mask);            // once per mask
//   int state = mi.of(occupancy);                    // distinct for distinct occupancy & mask
#pragma once
#include <cstdint>
#include <vector>

namespace polycube {

template <int W>
struct Bits {
    uint64_t w[W];

    static Bits zero() {
        Bits b;
        for (int i = 0; i < W; ++i) b.w[i] = 0;
        return b;
    }
    void set(int bit) { w[bit >> 6] |= 1ULL << (bit & 63); }
    bool test(int bit) const { return (w[bit >> 6] >> (bit & 63)) & 1; }
    bool intersects(const Bits& o) const {
        uint64_t acc = 0;
        for (int i = 0; i < W; ++i) acc |= w[i] & o.w[i];
        return acc != 0;
    }
    Bits operator|(const Bits& o) const {
        Bits r;
        for (int i = 0; i < W; ++i) r.w[i] = w[i] | o.w[i];
        return r;
    }
    Bits operator&(const Bits& o) const {
        Bits r;
        for (int i = 0; i < W; ++i) r.w[i] = w[i] & o.w[i];
        return r;
    }
    Bits operator^(const Bits& o) const {
        Bits r;
        for (int i = 0; i < W; ++i) r.w[i] = w[i] ^ o.w[i];
        return r;
    }
    Bits operator~() const {
        Bits r;
        for (int i = 0; i < W; ++i) r.w[i] = ~w[i];
        return r;
    }
    bool any() const {
        uint64_t acc = 0;
        for (int i = 0; i < W; ++i) acc |= w[i];
        return acc != 0;
    }
    // Bit i of the result is bit i+k of this (k > 0), or bit i-k (k < 0); zeros shift in.
    __attribute__((always_inline)) Bits shifted(int k) const {
        Bits r = zero();
        if (k > 0 && k < 64) {  // neighbour shifts: the common case, no word steps
            for (int i = 0; i < W; ++i) r.w[i] = (w[i] >> k) | (i + 1 < W ? w[i + 1] << (64 - k) : 0);
            return r;
        }
        if (k < 0 && k > -64) {
            for (int i = 0; i < W; ++i) r.w[i] = (w[i] << -k) | (i > 0 ? w[i - 1] >> (64 + k) : 0);
            return r;
        }
        if (k >= 0) {
            const int words = k >> 6, bits = k & 63;
            for (int i = 0; i + words < W; ++i) {
                r.w[i] = w[i + words] >> bits;
                if (bits && i + words + 1 < W) r.w[i] |= w[i + words + 1] << (64 - bits);
            }
        } else {
            k = -k;
            const int words = k >> 6, bits = k & 63;
            for (int i = W - 1; i - words >= 0; --i) {
                r.w[i] = w[i - words] << bits;
                if (bits && i - words - 1 >= 0) r.w[i] |= w[i - words - 1] >> (64 - bits);
            }
        }
        return r;
    }
    // Lowest clear bit (there must be one below 64*W).
    int lowestClear() const {
        for (int i = 0; i < W; ++i)
            if (~w[i]) return i * 64 + __builtin_ctzll(~w[i]);
        return -1;
    }
    // Calls f(bit) for every clear bit below `limit`.
    template <class F>
    void forEachClear(int limit, F&& f) const {
        for (int i = 0; i < W && i * 64 < limit; ++i) {
            uint64_t holes = ~w[i];
            if ((i + 1) * 64 > limit) holes &= (limit - i * 64 == 64) ? ~0ULL : ((1ULL << (limit - i * 64)) - 1);
            while (holes) {
                f(i * 64 + __builtin_ctzll(holes));
                holes &= holes - 1;
            }
        }
    }
    // Number of clear bits among `mask`'s set bits.
    int countClearIn(const Bits& mask) const {
        int n = 0;
        for (int i = 0; i < W; ++i) n += __builtin_popcountll(mask.w[i] & ~w[i]);
        return n;
    }
};

// Occupancy states of the cells in a mask numbered by (((o >> low) & mask) * magic) >> shift,
// mask being the cells moved down by `low` to start at bit 0: the product's top `bits()`
// bits differ for different subsets (the "magic bitboard" trick of chess programs, here for
// up to 8 index cells). A product only moves bits up, so cells near bit 63 need the move
// down first; it also makes translated masks share one answer. Four instructions instead
// of a loop over the cells (WebAssembly Tetris Cube: 11% faster).
struct MagicIndex {
    uint64_t mask = 0, magic = 0;  // magic 0: none found (of() must not be used)
    int low = 0, shift = 64;
    bool found() const { return magic != 0; }
    int bits() const { return 64 - shift; }
    int of(uint64_t o) const { return static_cast<int>((((o >> low) & mask) * magic) >> shift); }
};

// A MagicIndex for `cells` (at most 8 bits set) with states below 2^(k+extra) for the
// smallest extra in 0..maxExtra (at most 4) that a seeded search finds within its attempts, or one
// without a magic if none is found (callers then test the cells one by one). Deterministic:
// the same cells always get the same answer; callers cache it.
inline MagicIndex findMagicIndex(uint64_t cells, int maxExtra = 2) {
    MagicIndex mi;
    const int k = __builtin_popcountll(cells);
    if (k == 0 || k > 8 || maxExtra < 0 || maxExtra > 4) return mi;
    mi.low = __builtin_ctzll(cells);
    const uint64_t mask = mi.mask = cells >> mi.low;
    uint64_t state = 0x9E3779B97F4A7C15ULL ^ mask;  // xorshift64, seeded by the mask
    auto next = [&] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    std::vector<uint32_t> seen(size_t{1} << (k + maxExtra), 0);
    uint32_t stamp = 0;
    constexpr int kAttempts = 200;  // per width; sparse candidates succeed far more often
    for (int width = k; width <= k + maxExtra; ++width) {
        for (int attempt = 0; attempt < kAttempts; ++attempt) {
            const uint64_t magic = next() & next() & next();
            if (magic == 0) continue;
            const int shift = 64 - width;
            ++stamp;
            bool distinct = true;
            uint64_t subset = 0;
            do {  // every subset of mask (carry-rippler enumeration), the empty one first
                const uint64_t z = (subset * magic) >> shift;
                if (seen[z] == stamp) {
                    distinct = false;
                    break;
                }
                seen[z] = stamp;
                subset = (subset - mask) & mask;
            } while (subset);
            if (distinct) {
                mi.magic = magic;
                mi.shift = shift;
                return mi;
            }
        }
    }
    return mi;
}

}  // namespace polycube
