// The memoized counter's table (engine/memo/memo_table.hpp) against a plain map: every key it
// finds has the count stored for it (never another key's), every key it keeps is found (keys
// that overflowed into the next bucket included, across doublings), it forgets a key while it
// may still grow only when a run of buckets fills by chance in a table under 5/8 full (rare),
// and it never passes its budget, forgetting some keys instead; for keys of one word (16-byte
// entries) and of three.
#include <gtest/gtest.h>

#include <random>
#include <unordered_set>
#include <vector>

#include "memo/memo_table.hpp"

namespace polycube {
namespace {

// Distinct keys of `words` words whose first word is never 0 (the table's empty mark), drawn
// from a fixed seed.
std::vector<std::vector<uint64_t>> someKeys(int count, int words, uint64_t seed) {
    std::mt19937_64 random(seed);
    std::vector<std::vector<uint64_t>> keys;
    std::unordered_set<uint64_t> firsts;
    while (static_cast<int>(keys.size()) < count) {
        std::vector<uint64_t> key(words);
        for (uint64_t& w : key) w = random();
        key[0] |= 1;
        if (!firsts.insert(key[0]).second) continue;
        keys.push_back(std::move(key));
    }
    return keys;
}

void storeAll(MemoTable& t, const std::vector<std::vector<uint64_t>>& keys) {
    for (size_t i = 0; i < keys.size(); ++i) {
        const uint64_t* key = keys[i].data();
        const uint64_t h = MemoTable::hashKey(key, t.keyWords());
        uint64_t count = 0;
        ASSERT_FALSE(t.find(h, key, count)) << "key " << i << " found before it was stored";
        t.store(h, key, 1000 + i);
    }
}

TEST(MemoTable, EveryKeyKeptIsFoundWithItsCountWhileTheTableGrows) {
    for (int words : {1, 3}) {
        MemoTable t;
        ASSERT_TRUE(t.reset(words, 1LL << 30).ok);
        const auto keys = someKeys(200000, words, 7 + words);
        storeAll(t, keys);
        EXPECT_LT(t.evictions() * 200, static_cast<long long>(keys.size())) << words << "-word keys";
        EXPECT_EQ(t.entries() + t.evictions(), static_cast<long long>(keys.size()));
        EXPECT_LE(t.entries() * 4, t.capacity() * 3);
        long long found = 0;
        for (size_t i = 0; i < keys.size(); ++i) {
            uint64_t count = 0;
            if (!t.find(MemoTable::hashKey(keys[i].data(), words), keys[i].data(), count)) continue;
            ASSERT_EQ(count, 1000 + i);
            ++found;
        }
        EXPECT_EQ(found, t.entries());
    }
}

TEST(MemoTable, KeysThatDifferOnlyPastTheFirstWordAreApart) {
    MemoTable t;
    ASSERT_TRUE(t.reset(2, 1LL << 20).ok);
    std::vector<std::vector<uint64_t>> keys;
    for (uint64_t k = 0; k < 64; ++k) keys.push_back({5, k});
    storeAll(t, keys);
    for (size_t i = 0; i < keys.size(); ++i) {
        uint64_t count = 0;
        ASSERT_TRUE(t.find(MemoTable::hashKey(keys[i].data(), 2), keys[i].data(), count));
        EXPECT_EQ(count, 1000 + i);
    }
}

TEST(MemoTable, AtItsBudgetItForgetsSomeKeysAndNeverGivesAWrongCount) {
    for (int words : {1, 3}) {
        MemoTable t;
        const long long budget = 256LL << 10;
        ASSERT_TRUE(t.reset(words, budget).ok);
        const auto keys = someKeys(100000, words, 99);
        storeAll(t, keys);
        EXPECT_LE(t.bytes(), budget);
        EXPECT_GT(t.evictions(), 0);
        EXPECT_LE(t.entries(), t.capacity());
        long long found = 0;
        for (size_t i = 0; i < keys.size(); ++i) {
            uint64_t count = 0;
            if (!t.find(MemoTable::hashKey(keys[i].data(), words), keys[i].data(), count)) continue;
            ASSERT_EQ(count, 1000 + i) << "key " << i << " of " << words << " words";
            ++found;
        }
        // What is kept is what the table holds: the entries are all findable.
        EXPECT_EQ(found, t.entries());
        EXPECT_EQ(t.entries() + t.evictions(), static_cast<long long>(keys.size()));
    }
}

TEST(MemoTable, ClearForgetsAndAResetKeepsTheRunningTotals) {
    MemoTable t;
    ASSERT_TRUE(t.reset(1, 1LL << 20).ok);
    const auto keys = someKeys(1000, 1, 3);
    storeAll(t, keys);
    const long long lookups = t.lookups();
    t.clear();
    EXPECT_EQ(t.entries(), 0);
    uint64_t count = 0;
    EXPECT_FALSE(t.find(MemoTable::hashKey(keys[0].data(), 1), keys[0].data(), count));
    ASSERT_TRUE(t.reset(3, 1LL << 20).ok);  // another term's longer key
    EXPECT_EQ(t.keyWords(), 3);
    EXPECT_EQ(t.lookups(), lookups + 1);
    EXPECT_EQ(t.entries(), 0);
}

TEST(MemoTable, ABudgetBelowOneBucketIsRefused) {
    MemoTable t;
    const Status s = t.reset(1, 64);
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.message.find("not even one bucket"), std::string::npos) << s.message;
}

}  // namespace
}  // namespace polycube
