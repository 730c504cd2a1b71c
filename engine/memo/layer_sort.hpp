// mergeEntries: the layered count's grouping of a layer's one-word entries (key, ways): equal
// keys merged (their ways added), and the subproblems with the same open window next to each
// other (expand weighs the rows once per run of them). Internal to engine/memo
// (layer_count.hpp).
//
//   std::vector<EntrySpan> spans = {{chunk, entriesInChunk}, ...};   // n entries in all
//   size_t kept = mergeEntries(spans, n, out, bits, threads);  // out: room for n entries
//   if (kept == kMergeOverflow) ...;                                // a sum passed 2^64
//
// Two steps, each shared by `threads` threads (native builds), and a move:
// 1. The entries are scattered, from where the expanding threads wrote them (the chunks),
//    into `out`, in buckets by a hash of their window that is a bijection of the window's
//    bits, stored in its place until step 2 ends (each thread counts its part's buckets;
//    the counts are summed part after part within each bucket, and each thread scatters its
//    part to its own places). One pass over memory in order.
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

struct EntrySpan {
    const uint64_t* entries;  // `count` entries of two words, key then ways
    size_t count;
};

struct KeyBits {
    int from;    // the key's bits [from, to) tell entries of a layer apart (below: the position)
    int window;  // bits [window, to): the open window, which groups them
    int to;
};

constexpr size_t kMergeOverflow = SIZE_MAX;

// `out`: room for n entries (2n words), not overlapping the spans. Returns the entries kept
// at its start (equal keys merged, in groups of equal windows), or kMergeOverflow.
size_t mergeEntries(const std::vector<EntrySpan>& spans, size_t n, uint64_t* out, KeyBits bits, int threads);

}  // namespace polycube
