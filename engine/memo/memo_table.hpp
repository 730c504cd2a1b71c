// MemoTable: the memoized counter's table of subproblem counts, within a memory budget.
// Internal to engine/memo (the public header is memo_counter.hpp).
//
//   MemoTable t;
//   if (Status s = t.reset(keyWords, maxBytes); !s.ok) error(s.message);
//   uint64_t h = MemoTable::hashKey(key, keyWords);
//   uint64_t count;
//   if (!t.find(h, key, count)) { count = ...; t.store(h, key, count); }
//
// Open addressing in buckets of four entries (one cache line or two for short keys). An
// entry is [tag, key words..., count]; the tag is the key's hash with its low bit set, so 0
// marks an empty slot and most mismatches are rejected without reading the key. The table
// starts small and doubles (in place: an entry of bucket b moves to b or b + old size, by one
// more bit of its hash; buckets are numbered by the hash without its lowest bit, the tag's)
// when it is 3/4 full, or half full and a bucket overflows, while the doubled table fits the budget;
// past that a full bucket gives up one entry (chosen by the new key's hash), so the table never
// grows past its budget and a search never stops for memory: an evicted subproblem is
// counted again when it comes back. Counts stay exact whatever is evicted.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/hash.hpp"
#include "common/status.hpp"

namespace polycube {

class MemoTable {
public:
    static constexpr int kBucketSlots = 4;

    MemoTable() = default;
    MemoTable(const MemoTable&) = delete;
    MemoTable& operator=(const MemoTable&) = delete;
    ~MemoTable();

    // An empty table for keys of `keyWords` words, never larger than `maxBytes`. An error
    // when not even the smallest table (one bucket) fits the budget or can be allocated.
    Status reset(int keyWords, long long maxBytes);
    // Forget every entry, keeping the memory (a new counting problem with the same key size).
    void clear();
    // Give the memory back (a counter that searches no more); reset() before any other use.
    void release();

    static uint64_t hashKey(const uint64_t* key, int words) { return hashWords(key, static_cast<size_t>(words), 0x6d656d6fULL); }

    bool find(uint64_t hash, const uint64_t* key, uint64_t& count) {
        ++lookups_;
        const uint64_t tag = hash | 1;
        uint64_t* e = bucket(hash);
        for (int s = 0; s < kBucketSlots; ++s, e += stride_) {
            if (e[0] == tag && std::memcmp(e + 1, key, keyBytes_) == 0) {
                count = e[1 + keyWords_];
                ++hits_;
                return true;
            }
        }
        return false;
    }

    void store(uint64_t hash, const uint64_t* key, uint64_t count) {
        if (entries_ * 4 > capacity() * 3) grow();
        const uint64_t tag = hash | 1;
        uint64_t* first = bucket(hash);
        uint64_t* e = first;
        int s = 0;
        while (s < kBucketSlots && e[0] != 0) {
            ++s;
            e += stride_;
        }
        if (s == kBucketSlots && !full_ && entries_ * 2 > capacity()) {
            // A full bucket in a table half full that may still grow: grow rather than forget.
            // (Below half full a few buckets overflow by chance, and doubling for each would
            // take the whole budget for a small count.)
            grow();
            store(hash, key, count);
            return;
        }
        if (s == kBucketSlots) {
            // Full: the victim is picked by the new key's high hash bits, so no slot of a
            // bucket is always the one to go.
            e = first + static_cast<size_t>(hash >> 62) * stride_;
            ++evictions_;
        } else {
            ++entries_;
        }
        e[0] = tag;
        std::memcpy(e + 1, key, keyBytes_);
        e[1 + keyWords_] = count;
    }

    long long lookups() const { return lookups_; }
    long long hits() const { return hits_; }
    long long evictions() const { return evictions_; }
    long long entries() const { return entries_; }
    long long capacity() const { return static_cast<long long>(buckets_) * kBucketSlots; }
    long long bytes() const { return static_cast<long long>(buckets_) * bucketBytes(); }
    long long maxBytes() const { return maxBytes_; }
    // Times a doubling within the budget could not be allocated (the table then stays as it is).
    long long growRefused() const { return growRefused_; }
    int keyWords() const { return keyWords_; }

private:
    size_t bucketBytes() const { return static_cast<size_t>(stride_) * kBucketSlots * sizeof(uint64_t); }
    uint64_t* bucket(uint64_t hash) const {
        return slots_ + (static_cast<size_t>(hash >> 1) & (buckets_ - 1)) * static_cast<size_t>(stride_) * kBucketSlots;
    }
    void grow();

    uint64_t* slots_ = nullptr;
    size_t buckets_ = 0;  // a power of two
    int keyWords_ = 0;
    int stride_ = 0;      // words per entry: tag, key, count
    size_t keyBytes_ = 0;
    long long maxBytes_ = 0;
    bool full_ = false;   // at its budget: no more doubling
    long long lookups_ = 0, hits_ = 0, evictions_ = 0, entries_ = 0, growRefused_ = 0;
};

}  // namespace polycube
