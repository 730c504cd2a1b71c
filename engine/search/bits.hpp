// Fixed-width occupancy bit fields for FILA: W 64-bit words (64, 128, 256 cells).
// The first seed article's "Bit Fields": an image fits iff (occupancy & layoutMask) == 0.
#pragma once
#include <cstdint>

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

}  // namespace polycube
