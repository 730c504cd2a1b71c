#include "memo/layer_sort.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>

#include "memo/in_parallel.hpp"

namespace polycube {

namespace {

// Buckets of about this many entries (64 KiB: a core's L2 cache holds several), at most
// 2^kMaxBucketBits of them (the scatter writes to that many places at once).
constexpr size_t kBucketEntries = 4096;
constexpr int kMaxBucketBits = 12;
// A part of fewer entries is not worth a thread.
constexpr size_t kMinEntriesPerThread = 1 << 16;
// A bucket this small is sorted by comparisons.
constexpr size_t kSmallBucket = 64;

using Part = std::vector<EntrySpan>;

// The spans dealt into `parts` parts of about n / parts entries each, in order, whole (a
// span's far ways are read from its end, in order).
std::vector<Part> cut(const std::vector<EntrySpan>& spans, size_t n, int parts) {
    std::vector<Part> out(static_cast<size_t>(parts));
    size_t part = 0, before = 0;
    for (const EntrySpan& s : spans) {
        // (a span goes to the part its middle entry falls in)
        while (part + 1 < out.size() && 2 * before + s.count > 2 * (n * (part + 1) / parts)) ++part;
        out[part].push_back(s);
        before += s.count;
    }
    return out;
}

// Sorts the bucket's n entries by their key's bits [from, to), least significant byte first
// (`temp`: room for n entries); the bytes every entry shares need no pass.
void sortBucket(uint64_t* e, size_t n, uint64_t* temp, int from, int to) {
    if (n <= kSmallBucket) {
        // (insertion: a few dozen entries)
        for (size_t i = 1; i < n; ++i) {
            const uint64_t key = e[2 * i], ways = e[2 * i + 1];
            size_t j = i;
            for (; j > 0 && e[2 * (j - 1)] > key; --j) e[2 * j] = e[2 * (j - 1)], e[2 * j + 1] = e[2 * (j - 1) + 1];
            e[2 * j] = key, e[2 * j + 1] = ways;
        }
        return;
    }
    constexpr int kMaxBytes = 8;
    size_t counts[kMaxBytes][256];
    const int bytes = std::min(kMaxBytes, (to - from + 7) / 8);
    std::memset(counts, 0, sizeof counts);
    for (size_t i = 0; i < n; ++i) {
        const uint64_t k = e[2 * i] >> from;
        for (int b = 0; b < bytes; ++b) ++counts[b][(k >> (8 * b)) & 0xff];
    }
    uint64_t* a = e;
    uint64_t* t = temp;
    for (int b = 0; b < bytes; ++b) {
        const int shift = from + 8 * b;
        size_t* c = counts[b];
        if (c[(a[0] >> shift) & 0xff] == n) continue;  // (every entry has this byte)
        size_t sum = 0;
        for (int d = 0; d < 256; ++d) sum += std::exchange(c[d], sum);
        for (size_t i = 0; i < n; ++i) {
            const size_t to2 = 2 * c[(a[2 * i] >> shift) & 0xff]++;
            t[to2] = a[2 * i];
            t[to2 + 1] = a[2 * i + 1];
        }
        std::swap(a, t);
    }
    if (a != e) std::memcpy(e, a, 2 * n * sizeof(uint64_t));
}

}  // namespace

size_t mergeEntries(const std::vector<EntrySpan>& spans, size_t n, uint64_t* out, KeyBits bits, int threads) {
    if (n == 0) return 0;
    const EntryPacking packing{bits.to};
    const int parts = static_cast<int>(std::clamp<size_t>(n / kMinEntriesPerThread, 1, static_cast<size_t>(std::max(threads, 1))));
    // The window field's bits [window, to) are replaced by a bijection of them, the window times
    // an odd constant modulo 2^windowBits (Fibonacci hashing within the field), and the bucket
    // is the top bits of that: runs of equal windows land in one bucket, different ones spread
    // evenly, and the bucket's own bits need no sorting pass (the sort covers [from, to -
    // bucketBits) only). The merged entries get their windows back before they are moved.
    const int windowBits = bits.to - bits.window;
    int bucketBits = 0;
    while (bucketBits < kMaxBucketBits && bucketBits < windowBits && (n >> bucketBits) > kBucketEntries) ++bucketBits;
    const size_t buckets = size_t{1} << bucketBits;
    const uint64_t windowMask = windowBits >= 64 ? ~0ULL : (1ULL << windowBits) - 1;
    constexpr uint64_t kOdd = 0x9E3779B97F4A7C15ULL;
    uint64_t inverse = kOdd;  // kOdd's inverse modulo 2^64 (Newton's iteration doubles the bits)
    for (int i = 0; i < 5; ++i) inverse *= 2 - kOdd * inverse;
    const int window = bits.window;
    const uint64_t below = window >= 64 ? ~0ULL : (1ULL << window) - 1;
    const auto spread = [=](uint64_t key) {
        return windowBits == 0 ? key : (key & below) | ((((key >> window) * kOdd) & windowMask) << window);
    };
    const auto unspread = [=](uint64_t key) {
        return windowBits == 0 ? key : (key & below) | ((((key >> window) * inverse) & windowMask) << window);
    };
    const int sortTo = bits.to - bucketBits;
    const auto bucketOf = [sortTo, bucketBits](uint64_t spreadKey) -> size_t {
        return bucketBits == 0 ? 0 : static_cast<size_t>(spreadKey >> sortTo);
    };

    // 1. Scatter into buckets, in `out`.
    std::vector<std::vector<size_t>> counts(static_cast<size_t>(parts), std::vector<size_t>(buckets));
    const std::vector<Part> in = cut(spans, n, parts);
    inParallel(parts, [&](int t) {
        std::vector<size_t>& c = counts[t];
        for (const EntrySpan& s : in[t]) {
            const uint64_t* far = s.farEnd;
            for (size_t i = 0; i < s.count; ++i) {
                uint64_t key, ways;
                packing.read(s.entries[i], far, key, ways);
                ++c[bucketOf(spread(key))];
            }
        }
    });
    std::vector<size_t> begin(buckets + 1, 0);
    size_t sum = 0;
    for (size_t b = 0; b < buckets; ++b) {
        begin[b] = sum;
        for (int t = 0; t < parts; ++t) sum += std::exchange(counts[t][b], sum);
    }
    begin[buckets] = sum;
    inParallel(parts, [&](int t) {
        std::vector<size_t>& c = counts[t];
        for (const EntrySpan& s : in[t]) {
            const uint64_t* far = s.farEnd;
            for (size_t i = 0; i < s.count; ++i) {
                uint64_t key, ways;
                packing.read(s.entries[i], far, key, ways);
                key = spread(key);
                const size_t to = 2 * c[bucketOf(key)]++;
                out[to] = key;
                out[to + 1] = ways;
            }
        }
    });

    // 2. Each bucket sorted and merged where it is; the threads take contiguous runs of
    // buckets of about equal entries.
    std::vector<size_t> kept(buckets, 0);
    std::atomic<bool> overflow{false};
    std::vector<size_t> firstBucket(static_cast<size_t>(parts) + 1, buckets);
    for (int t = 0, b = 0; t < parts; ++t) {
        firstBucket[t] = static_cast<size_t>(b);
        while (b < static_cast<int>(buckets) && begin[b] < n * (t + 1) / parts) ++b;
    }
    firstBucket[parts] = buckets;
    inParallel(parts, [&](int t) {
        std::vector<uint64_t> temp;
        for (size_t b = firstBucket[t]; b < firstBucket[t + 1]; ++b) {
            const size_t m = begin[b + 1] - begin[b];
            if (m == 0) continue;
            uint64_t* e = out + 2 * begin[b];
            if (temp.size() < 2 * m) temp.resize(2 * m);
            sortBucket(e, m, temp.data(), bits.from, sortTo);
            size_t k = 0;
            for (size_t i = 0; i < m;) {
                const uint64_t key = e[2 * i];
                uint64_t ways = e[2 * i + 1];
                for (++i; i < m && e[2 * i] == key; ++i)
                    if (__builtin_add_overflow(ways, e[2 * i + 1], &ways)) overflow.store(true, std::memory_order_relaxed);
                e[2 * k] = unspread(key);
                e[2 * k + 1] = ways;
                ++k;
            }
            kept[b] = k;
        }
    });
    if (overflow.load()) return kMergeOverflow;

    // 3. The merged buckets moved down to follow one another, in bucket order: a bucket's
    // new place starts at or before its old one and after the places of the buckets before
    // it, so each move reads only its own bucket's entries (one thread: the moves of two
    // threads could overlap).
    std::vector<size_t> at(buckets + 1, 0);
    for (size_t b = 0; b < buckets; ++b) {
        at[b + 1] = at[b] + kept[b];
        if (kept[b] > 0 && at[b] != begin[b]) std::memmove(out + 2 * at[b], out + 2 * begin[b], 2 * kept[b] * sizeof(uint64_t));
    }
    return at[buckets];
}

}  // namespace polycube
