// Bit field helpers: MagicIndex must number every subset of its mask distinctly, since the
// NOF index of builds without pext (WebAssembly) relies on it to pick image list sets.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "search/bits.hpp"

namespace polycube {
namespace {

// Every subset of mask gets its own state, below 2^bits(), and bits outside mask are ignored.
void expectDistinctStates(const MagicIndex& mi, uint64_t mask) {
    ASSERT_TRUE(mi.found()) << std::hex << mask;
    const int k = __builtin_popcountll(mask);
    EXPECT_GE(mi.bits(), k);
    EXPECT_LE(mi.bits(), k + 2);
    std::set<int> states;
    uint64_t subset = 0;
    do {
        const int state = mi.of(subset | ~mask);  // cells outside the mask must not matter
        EXPECT_EQ(state, mi.of(subset));
        EXPECT_GE(state, 0);
        EXPECT_LT(state, 1 << mi.bits());
        states.insert(state);
        subset = (subset - mask) & mask;
    } while (subset);
    EXPECT_EQ(states.size(), size_t{1} << k) << std::hex << mask;
}

// The six face neighbours of every cell of a box numbered x fastest, as the NOF index sees them.
std::vector<uint64_t> boxNeighbourMasks(int xd, int yd, int zd) {
    std::vector<uint64_t> masks;
    for (int z = 0; z < zd; ++z)
        for (int y = 0; y < yd; ++y)
            for (int x = 0; x < xd; ++x) {
                uint64_t m = 0;
                auto add = [&](int a, int b, int c) {
                    if (a >= 0 && a < xd && b >= 0 && b < yd && c >= 0 && c < zd) m |= 1ULL << (a + xd * (b + yd * c));
                };
                add(x - 1, y, z), add(x + 1, y, z), add(x, y - 1, z), add(x, y + 1, z), add(x, y, z - 1), add(x, y, z + 1);
                masks.push_back(m);
            }
    return masks;
}

TEST(MagicIndex, NumbersTheNeighbourStatesOfBoxCells) {
    for (auto [x, y, z] : {std::array<int, 3>{4, 4, 4}, {6, 10, 1}, {3, 4, 5}, {8, 8, 1}, {2, 2, 16}})
        for (uint64_t mask : boxNeighbourMasks(x, y, z)) expectDistinctStates(findMagicIndex(mask), mask);
}

TEST(MagicIndex, NumbersScatteredMasksOfUpToEightCells) {
    std::mt19937_64 rng(12345);
    int found = 0, tried = 0;
    for (int k = 1; k <= 8; ++k)
        for (int trial = 0; trial < 40; ++trial) {
            uint64_t mask = 0;
            while (__builtin_popcountll(mask) < k) mask |= 1ULL << (rng() % 64);
            const MagicIndex mi = findMagicIndex(mask);
            ++tried;
            if (!mi.found()) continue;  // allowed (callers fall back), but must be rare
            ++found;
            expectDistinctStates(mi, mask);
        }
    EXPECT_GE(found, tried * 9 / 10);
}

TEST(MagicIndex, IsDeterministicAndRefusesWhatItCannotIndex) {
    const uint64_t mask = 0x0000'1000'0A00'0001ULL;
    EXPECT_EQ(findMagicIndex(mask).magic, findMagicIndex(mask).magic);
    EXPECT_FALSE(findMagicIndex(0).found());
    EXPECT_FALSE(findMagicIndex(0x1FF).found());  // 9 cells: more than the index ever uses
    EXPECT_FALSE(findMagicIndex(mask, 9).found());  // a table of 2^(k+9) states: refused
}

}  // namespace
}  // namespace polycube
