// mergeEntries: the layered count's grouping of a layer's one-word entries (key, ways): equal
// keys merged (their ways added), and the subproblems with the same open window next to each
// other (expand weighs the rows once per run of them). Internal to engine/memo
// (layer_count.hpp).
//
//   const EntryPacking packing{keyBits};                             // the expanding threads:
//   chunk[fill++] = packing.word(key, ways);
//   if (!packing.packs(ways)) chunk[chunkWords - ++far] = ways;
//   std::vector<EntrySpan> spans = {{chunk, entriesInChunk, chunk + chunkWords}, ...};  // n in all
//   size_t kept = mergeEntries(spans, n, out, bits, threads);  // out: room for n (key, ways)
//   if (kept == kMergeOverflow) ...;                                // a sum passed 2^64
//
// The chunks' entries are packed (EntryPacking): one word, the ways in the bits the key
// leaves or, when they do not fit, at the chunk's far end. The chunks hold the entries of the
// next reach+1 layers, most of the count's memory, and their pages' first touch is charged by
// the system: one-sided 6x15 writes ways of a few bits beside 48-bit keys.
//
// Two steps, each shared by `threads` threads (native builds), and a move:
// 1. The entries are scattered, from where the expanding threads wrote them (the chunks),
//    into `out`, in buckets by a hash of their window that is a bijection of the window's
//    bits, stored in its place until step 2 ends (each thread counts its part's buckets;
//    the counts are summed part after part within each bucket, and each thread scatters its
//    part to its own places; a part is whole spans, as a span's far ways are read from its end).
//    One pass over memory in order.
// 2. Each bucket, a few thousand entries that fit in the cache, is sorted by key (least
//    significant byte first; not the bucket's own bits, nor the bytes the whole bucket
//    shares) and its equal keys merged, where it lies.
// 3. The merged buckets are moved down in `out` to follow one another (one thread).
// Where LSD radix sorting the whole layer by key took four passes over gigabytes (on
// one-sided 6x15 the sort was more than half of the count), this takes one and a move, in
// one array of the layer's size beside the chunks: the layer's peak memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace polycube {

// A chunk's entry of a key of `keyBits` bits (a key of one word: its bits above keyBits are
// 0) is one word: key | ways << keyBits when the ways fit in the bits above the key; else the
// key alone, its ways written at the chunk's far end (the first such ways in its last word, the
// next before it). Ways are never 0, so bits above the key that are all 0 say the ways are
// at the far end. (The entries keep one length, so a pass over them reads each at its index:
// a length read from each entry chained every read to the one before.)
struct EntryPacking {
    int keyBits;  // 1 .. 64 (64: every entry's ways at the far end)

    bool packs(uint64_t ways) const { return keyBits < 64 && (ways >> (64 - keyBits)) == 0; }
    // The entry's word; when !packs(ways) the ways go to the far end.
    uint64_t word(uint64_t key, uint64_t ways) const { return packs(ways) ? key | ways << keyBits : key; }
    // The key and the ways of the entry `word`; `far`: past the next ways at the far end, moved
    // back when they are read.
    void read(uint64_t word, const uint64_t*& far, uint64_t& key, uint64_t& ways) const {
        const uint64_t above = keyBits < 64 ? word >> keyBits : 0;
        if (above != 0) {
            key = word & ((1ULL << keyBits) - 1);
            ways = above;
        } else {
            key = word;
            ways = *--far;
        }
    }
};

struct EntrySpan {
    const uint64_t* entries;  // `count` entries written by an EntryPacking (or, for keys of
    size_t count;             // several words, of the key's words and the ways: layer_count.cpp)
    const uint64_t* farEnd = nullptr;  // past the ways the EntryPacking wrote at the far end
};

struct KeyBits {
    int from;    // the key's bits [from, to) tell entries of a layer apart (below: the position)
    int window;  // bits [window, to): the open window, which groups them
    int to;
};

constexpr size_t kMergeOverflow = SIZE_MAX;

// `spans`: n entries packed with EntryPacking{bits.to}. `out`: room for n entries of two
// words, key then ways, not overlapping the spans. Returns the entries kept at its start
// (equal keys merged, in groups of equal windows), or kMergeOverflow.
size_t mergeEntries(const std::vector<EntrySpan>& spans, size_t n, uint64_t* out, KeyBits bits, int threads);

}  // namespace polycube
