// mergeEntries (engine/memo/layer_sort.hpp): every key once with the sum of its ways, the
// entries of one open window next to each other, on one thread and on several, from entries
// spread over chunks of any size; a sum past 2^64 is reported.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <vector>

#include "memo/layer_sort.hpp"

namespace polycube {
namespace {

// Random entries with keys of `bits.to` bits (the position's bits all the same), few distinct
// windows, many repeats; cut into chunks of random sizes.
struct Layer {
    std::vector<std::vector<uint64_t>> chunks;
    std::map<uint64_t, uint64_t> sums;
    size_t n = 0;
};

Layer makeLayer(size_t n, KeyBits bits, std::mt19937_64& rng) {
    Layer l;
    const uint64_t position = 5;
    std::vector<uint64_t> windows(50);
    for (uint64_t& w : windows) w = rng() & ((1ULL << (bits.to - bits.window)) - 1);
    std::vector<uint64_t> chunk;
    size_t chunkSize = 1 + rng() % 3000;
    for (size_t i = 0; i < n; ++i) {
        const uint64_t copies = rng() % 40;
        const uint64_t key = position | copies << bits.from | windows[rng() % windows.size()] << bits.window;
        const uint64_t ways = 1 + rng() % 1000;
        chunk.push_back(key);
        chunk.push_back(ways);
        l.sums[key] += ways;
        if (chunk.size() / 2 == chunkSize || i + 1 == n) {
            l.chunks.push_back(chunk);
            chunk.clear();
            chunkSize = 1 + rng() % 3000;
        }
    }
    l.n = n;
    return l;
}

std::vector<EntrySpan> spansOf(const Layer& l) {
    std::vector<EntrySpan> spans;
    for (const auto& c : l.chunks) spans.push_back({c.data(), c.size() / 2});
    return spans;
}

TEST(LayerSort, EachKeyOnceWithItsWaysAndEachWindowInOneRun) {
    std::mt19937_64 rng(7);
    // (a window of 25 bits, and one of 3 bits: fewer than the buckets 300,000 entries would take)
    for (const KeyBits bits : {KeyBits{7, 20, 45}, KeyBits{7, 42, 45}}) {
        for (size_t n : {size_t{0}, size_t{1}, size_t{60}, size_t{5000}, size_t{300000}}) {
            const Layer l = makeLayer(n, bits, rng);
            for (int threads : {1, 2, 3}) {
                std::vector<uint64_t> out(2 * n);  // (exactly n entries: the sanitized build sees a word past them)
                const size_t kept = mergeEntries(spansOf(l), n, out.data(), bits, threads);
                ASSERT_EQ(kept, l.sums.size()) << n << " entries, " << threads << " threads";
                std::map<uint64_t, uint64_t> got;
                std::set<uint64_t> windowsDone;
                for (size_t i = 0; i < kept; ++i) {
                    EXPECT_TRUE(got.emplace(out[2 * i], out[2 * i + 1]).second) << "key twice";
                    const uint64_t window = out[2 * i] >> bits.window;
                    if (i > 0 && window != out[2 * (i - 1)] >> bits.window)
                        EXPECT_TRUE(windowsDone.insert(out[2 * (i - 1)] >> bits.window).second) << "a window in two runs";
                    if (i > 0 && window == out[2 * (i - 1)] >> bits.window) EXPECT_LT(out[2 * (i - 1)], out[2 * i]);
                }
                EXPECT_EQ(got, l.sums);
            }
        }
    }
}

TEST(LayerSort, ASumPast2To64IsReported) {
    const KeyBits bits{3, 10, 20};
    std::vector<uint64_t> a = {9, UINT64_MAX - 5, 9, 6};
    std::vector<uint64_t> out(4);
    EXPECT_EQ(mergeEntries({{a.data(), 2}}, 2, out.data(), bits, 1), kMergeOverflow);
    a[3] = 5;
    ASSERT_EQ(mergeEntries({{a.data(), 2}}, 2, out.data(), bits, 1), 1u);
    EXPECT_EQ(out[1], UINT64_MAX);
}

}  // namespace
}  // namespace polycube
