// mergeEntries (engine/memo/layer_sort.hpp): every key once with the sum of its ways, the
// entries of one open window next to each other, on one thread and on several, from entries
// spread over chunks of any size, packed in one word or two (EntryPacking); a sum past 2^64 is
// reported.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <vector>

#include "memo/layer_sort.hpp"

namespace polycube {
namespace {

// Random entries with keys of `bits.to` bits (the position's bits all the same), few distinct
// windows, many repeats, a tenth with ways too large to pack in one word; cut into chunks of
// random sizes.
struct Layer {
    std::vector<std::vector<uint64_t>> chunks;
    std::vector<size_t> chunkEntries;
    std::map<uint64_t, uint64_t> sums;
    size_t n = 0;
};

Layer makeLayer(size_t n, KeyBits bits, std::mt19937_64& rng) {
    Layer l;
    const uint64_t position = 5;
    std::vector<uint64_t> windows(50);
    for (uint64_t& w : windows) w = rng() & ((1ULL << (bits.to - bits.window)) - 1);
    const EntryPacking packing{bits.to};
    size_t inChunk = 0, far = 0, chunkSize = 1 + rng() % 3000;
    std::vector<uint64_t> chunk(2 * chunkSize, 0);  // (room for the ways of every entry at the far end)
    for (size_t i = 0; i < n; ++i) {
        const uint64_t copies = rng() % 40;
        const uint64_t key = position | copies << bits.from | windows[rng() % windows.size()] << bits.window;
        const uint64_t ways = (rng() % 10 == 0 ? 1ULL << (64 - bits.to) : 1) + rng() % 1000;
        chunk[inChunk] = packing.word(key, ways);
        if (!packing.packs(ways)) chunk[chunk.size() - ++far] = ways;
        l.sums[key] += ways;
        if (++inChunk == chunkSize || i + 1 == n) {
            l.chunks.push_back(chunk);
            l.chunkEntries.push_back(inChunk);
            inChunk = far = 0;
            chunkSize = 1 + rng() % 3000;
            chunk.assign(2 * chunkSize, 0);
        }
    }
    l.n = n;
    return l;
}

std::vector<EntrySpan> spansOf(const Layer& l) {
    std::vector<EntrySpan> spans;
    for (size_t c = 0; c < l.chunks.size(); ++c) spans.push_back({l.chunks[c].data(), l.chunkEntries[c], l.chunks[c].data() + l.chunks[c].size()});
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
    std::vector<uint64_t> a = {9, 9 | 6 << 20, UINT64_MAX - 5};  // (the first entry's ways at the far end)
    std::vector<uint64_t> out(4);
    EXPECT_EQ(mergeEntries({{a.data(), 2, a.data() + 3}}, 2, out.data(), bits, 1), kMergeOverflow);
    a[1] = 9 | 5 << 20;
    ASSERT_EQ(mergeEntries({{a.data(), 2, a.data() + 3}}, 2, out.data(), bits, 1), 1u);
    EXPECT_EQ(out[1], UINT64_MAX);
}

TEST(LayerSort, EntriesPackInOneWordWithTheWaysAboveTheKeyOrAtTheFarEnd) {
    const EntryPacking packing{48};
    const uint64_t farWays[2] = {7, 0x10000};
    const uint64_t* far = farWays + 2;
    uint64_t key, ways;
    EXPECT_TRUE(packing.packs(0xFFFF));
    packing.read(packing.word(0xABCDEFULL, 0xFFFF), far, key, ways);
    EXPECT_EQ(key, 0xABCDEFULL);
    EXPECT_EQ(ways, 0xFFFFu);
    EXPECT_EQ(far, farWays + 2);
    EXPECT_FALSE(packing.packs(0x10000));
    packing.read(packing.word((1ULL << 48) - 1, 0x10000), far, key, ways);
    EXPECT_EQ(key, (1ULL << 48) - 1);
    EXPECT_EQ(ways, 0x10000u);
    const EntryPacking full{64};  // (no bits above the key: every entry's ways at the far end)
    EXPECT_FALSE(full.packs(1));
    full.read(full.word(~0ULL, 7), far, key, ways);
    EXPECT_EQ(key, ~0ULL);
    EXPECT_EQ(ways, 7u);
    EXPECT_EQ(far, farWays);
}

}  // namespace
}  // namespace polycube
