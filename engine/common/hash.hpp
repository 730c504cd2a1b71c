// Small, deterministic hashing shared by the engine (no std::hash: its values differ between
// standard libraries, and the -u table and the cost probes must behave the same natively and
// in WebAssembly).
//
//   uint64_t h = mix64(x);                       // a well-mixed 64-bit function of x
//   uint64_t k = hashWords(words, count, seed);  // a 64-bit hash of an array of words
//   std::string t = hex16(k);                    // 16 lower-case hex digits (fingerprints, checksums)
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace polycube {

// splitmix64's finaliser: every input bit flips each output bit with probability about 1/2.
inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

template <typename Word>
uint64_t hashWords(const Word* words, size_t count, uint64_t seed) {
    uint64_t h = seed ^ 0x243f6a8885a308d3ULL;
    for (size_t i = 0; i < count; ++i) h = mix64(h ^ (static_cast<uint64_t>(words[i]) + 0x9e3779b97f4a7c15ULL));
    return mix64(h ^ count);
}

inline std::string hex16(uint64_t v) {
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(v));
    return out;
}

}  // namespace polycube
