// HugeBlock (engine/memo/huge_block.hpp), the memory of the layered count and the memo table:
// growing keeps the words written, the block starts on its alignment after every growth, the new
// words are zero when asked (the table relies on it: an empty slot is a zero key), a size no
// system can give is refused with the block unchanged, and a moved block keeps its words; on
// Linux, the huge-page advice goes to large blocks only, and never to those asked for in small pages.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "memo/huge_block.hpp"

namespace polycube {
namespace {

bool aligned(const HugeBlock& b) { return reinterpret_cast<uintptr_t>(b.data()) % HugeBlock::kAlignment == 0; }

TEST(HugeBlock, GrowingKeepsTheWordsAndZeroesTheNewOnesWhenAsked) {
    HugeBlock b;
    ASSERT_TRUE(b.grow(100, HugeBlock::Fill::Zero));
    ASSERT_GE(b.words(), 100u);
    EXPECT_TRUE(aligned(b));
    for (size_t i = 0; i < b.words(); ++i) ASSERT_EQ(b.data()[i], 0u) << i;
    for (size_t i = 0; i < b.words(); ++i) b.data()[i] = i * 0x9E3779B97F4A7C15ull + 1;
    // Growths of several sizes, up past the huge-page advice (2 MiB), every word checked.
    for (size_t words : {size_t{5000}, size_t{70000}, size_t{600000}}) {
        const size_t before = b.words();
        ASSERT_TRUE(b.grow(words, HugeBlock::Fill::Zero));
        ASSERT_GE(b.words(), words);
        EXPECT_TRUE(aligned(b));
        for (size_t i = 0; i < before; ++i) ASSERT_EQ(b.data()[i], i * 0x9E3779B97F4A7C15ull + 1) << i;
        for (size_t i = before; i < b.words(); ++i) ASSERT_EQ(b.data()[i], 0u) << i;
        for (size_t i = before; i < b.words(); ++i) b.data()[i] = i * 0x9E3779B97F4A7C15ull + 1;
    }
    // A smaller size changes nothing.
    uint64_t* const data = b.data();
    const size_t words = b.words();
    EXPECT_TRUE(b.grow(10));
    EXPECT_EQ(b.data(), data);
    EXPECT_EQ(b.words(), words);
}

TEST(HugeBlock, ASizeNoSystemGivesIsRefusedAndTheBlockStaysAsItWas) {
    HugeBlock b;
    ASSERT_TRUE(b.grow(1000));
    b.data()[999] = 42;
    uint64_t* const data = b.data();
    const size_t words = b.words();
    EXPECT_FALSE(b.grow(SIZE_MAX / sizeof(uint64_t)));
    EXPECT_FALSE(b.grow(SIZE_MAX));
    EXPECT_EQ(b.data(), data);
    EXPECT_EQ(b.words(), words);
    EXPECT_EQ(b.data()[999], 42u);
}

TEST(HugeBlock, AMovedBlockKeepsItsWordsAndTheOneMovedFromIsEmpty) {
    HugeBlock a;
    ASSERT_TRUE(a.grow(3000, HugeBlock::Fill::Zero));
    a.data()[2999] = 7;
    HugeBlock b(std::move(a));
    EXPECT_EQ(a.data(), nullptr);
    EXPECT_EQ(a.words(), 0u);
    EXPECT_EQ(b.data()[2999], 7u);
    HugeBlock c;
    ASSERT_TRUE(c.grow(10));
    c = std::move(b);
    EXPECT_EQ(c.data()[2999], 7u);
    ASSERT_TRUE(c.grow(9000, HugeBlock::Fill::Zero));
    EXPECT_EQ(c.data()[2999], 7u);
    EXPECT_EQ(c.data()[8999], 0u);
    c.release();
    EXPECT_EQ(c.data(), nullptr);
    EXPECT_TRUE(c.grow(5));  // usable again after its release
}

// Whether the kernel's mapping that holds `p` carries the VmFlags token `flag` (/proc/self/smaps;
// "hg": huge pages advised). A block's words are one mapping, or part of one merged with
// neighbours of the same flags.
bool mappingHasFlag(const void* p, const std::string& flag) {
    std::ifstream smaps("/proc/self/smaps");
    const unsigned long long at = reinterpret_cast<uintptr_t>(p);
    bool inside = false;
    std::string line;
    while (std::getline(smaps, line)) {
        unsigned long long lo = 0, hi = 0;
        if (std::sscanf(line.c_str(), "%llx-%llx", &lo, &hi) == 2) {
            inside = lo <= at && at < hi;
        } else if (inside && line.rfind("VmFlags:", 0) == 0) {
            std::istringstream tokens(line.substr(8));
            for (std::string token; tokens >> token;)
                if (token == flag) return true;
            return false;
        }
    }
    ADD_FAILURE() << "no mapping with VmFlags holds " << p;
    return false;
}

TEST(HugeBlock, HugePagesAreAdvisedForLargeBlocksOnlyAndNeverForSmallPageOnes) {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
    if (!std::ifstream("/proc/self/smaps") || !std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"))
        GTEST_SKIP() << "no /proc/self/smaps or no transparent huge pages in this kernel";
    constexpr size_t kFourMiB = (4u << 20) / sizeof(uint64_t);
    HugeBlock large, small, tiny;
    ASSERT_TRUE(large.grow(kFourMiB));
    ASSERT_TRUE(small.grow(kFourMiB, HugeBlock::Fill::Any, HugeBlock::Pages::Small));
    ASSERT_TRUE(tiny.grow(1000));  // a few pages: a huge one would not pay
    EXPECT_TRUE(mappingHasFlag(large.data(), "hg"));
    EXPECT_FALSE(mappingHasFlag(small.data(), "hg"));
    EXPECT_FALSE(mappingHasFlag(tiny.data(), "hg"));
    // Grown (mremap, perhaps moved): the advice is the one asked for at the growth.
    ASSERT_TRUE(large.grow(3 * kFourMiB));
    ASSERT_TRUE(small.grow(3 * kFourMiB, HugeBlock::Fill::Any, HugeBlock::Pages::Small));
    EXPECT_TRUE(mappingHasFlag(large.data(), "hg"));
    EXPECT_TRUE(mappingHasFlag(large.data() + large.words() - 1, "hg"));
    EXPECT_FALSE(mappingHasFlag(small.data(), "hg"));
    EXPECT_FALSE(mappingHasFlag(small.data() + small.words() - 1, "hg"));
#else
    GTEST_SKIP() << "the advice is Linux's (elsewhere the block is realloc's)";
#endif
}

TEST(HugeArray, GrowingKeepsEveryElementOfAnySize) {
    HugeArray<uint32_t> small;
    struct Pair {
        uint32_t a, b;
    };
    HugeArray<Pair> pairs;
    for (uint32_t i = 0; i < 300000; ++i) {  // (past several growths of either)
        ASSERT_TRUE(small.push_back(i * 3));
        ASSERT_TRUE(pairs.push_back(Pair{i, ~i}));
    }
    ASSERT_EQ(small.size(), 300000u);
    ASSERT_EQ(pairs.size(), 300000u);
    for (uint32_t i = 0; i < 300000; i += 997) {
        EXPECT_EQ(small[i], i * 3);
        EXPECT_EQ(pairs[i].a, i);
        EXPECT_EQ(pairs[i].b, ~i);
    }
    EXPECT_EQ(small.back(), 299999u * 3);
    EXPECT_GE(small.capacity(), small.size());
    EXPECT_EQ(small.capacityBytes() % 8, 0);
    EXPECT_LE(small.capacityBytes(), static_cast<long long>(small.size() * sizeof(uint32_t) * 2 + 8192));  // grown by half, not doubled
    small.clear();
    EXPECT_TRUE(small.empty());
    EXPECT_EQ(small.capacityBytes(), 0);
    EXPECT_TRUE(small.push_back(5));  // usable again
    EXPECT_EQ(small[0], 5u);
    EXPECT_FALSE(small.reserve(SIZE_MAX / 2));  // refused: unchanged
    EXPECT_EQ(small[0], 5u);
}

}  // namespace
}  // namespace polycube
