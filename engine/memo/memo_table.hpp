// MemoTable: the memoized counter's table of subproblem counts, within a memory budget.
// Internal to engine/memo (the public header is memo_counter.hpp).
//
//   MemoTable t;
//   if (Status s = t.reset(keyWords, maxBytes); !s.ok) error(s.message);
//   uint64_t h = MemoTable::hashKey(key, keyWords);   // key[0] is never 0
//   uint64_t count;
//   if (!t.find(h, key, count)) { count = ...; t.store(h, key, count); }
//
// Open addressing in buckets of 8 entries, aligned to 128 bytes: an entry is [key words...,
// count], a key's first word is never 0 (the counter's key begins with its first open cell
// plus one), so 0 marks an empty slot. A bucket fills from its first slot and never has a
// hole, so a lookup stops at the first empty slot: a miss in a sparse bucket reads one cache
// line. One-word keys (the sweep's keys of the usual boxes: memo_counter.cpp's buildKey) make
// entries of 16 bytes, a bucket two lines (what the processor fetches as a pair). A full
// bucket's entries go on in the next bucket, and the one after (a lookup reads the next only
// when its own is full). The table starts small and doubles (in place: an entry of bucket b
// moves to b or b + old size, by one more bit of its hash) when it is 3/4 full, or when a key
// finds its run of three buckets full and the table is 5/8 full, while the doubled table fits
// the budget; below that such a key takes the place of an entry (fewer than 1 store in 200:
// 0.13% on one-sided 18x5), and past the budget the same, so the table never grows past its
// budget, its load stays between 3/8 and 3/4, and a search never stops for memory:
// an evicted subproblem is counted again when it comes back. Counts stay exact whatever is
// evicted. Natively the table asks for transparent huge pages (memo_table.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "memo/huge_block.hpp"

#include "common/hash.hpp"
#include "common/status.hpp"

namespace polycube {

class MemoTable {
public:
    static constexpr int kBucketSlots = 8;
    static constexpr int kProbeBuckets = 3;  // a key's bucket and the two after it

    MemoTable() = default;
    MemoTable(const MemoTable&) = delete;
    MemoTable& operator=(const MemoTable&) = delete;
    ~MemoTable();

    // An empty table for keys of `keyWords` words, never larger than `maxBytes`. An error
    // when not even the smallest table (one bucket) fits the budget or can be allocated. The
    // running totals (lookups, hits, evictions) go on across resets: a count's terms may need
    // keys of different sizes.
    Status reset(int keyWords, long long maxBytes);
    // Forget every entry, keeping the memory (a new counting problem with the same key size).
    void clear();
    // Give the memory back (a counter that searches no more); reset() before any other use.
    void release();

    static uint64_t hashKey(const uint64_t* key, int words) {
        return words == 1 ? mix64(key[0] ^ 0x6d656d6fULL) : hashWords(key, static_cast<size_t>(words), 0x6d656d6fULL);
    }

    // Asks for the bucket of `hash` ahead of a find() or store().
    void prefetch(uint64_t hash) const { __builtin_prefetch(bucket(hash)); }

    bool find(uint64_t hash, const uint64_t* key, uint64_t& count) {
        ++lookups_;
        uint64_t* b = bucket(hash);
        for (int k = 0; k < kProbeBuckets; ++k, b = next(b)) {
            if (const uint64_t* e = findIn(b, key)) {
                count = e[keyWords_];
                ++hits_;
                return true;
            }
            // A full bucket's later keys are in the next one; a bucket with room ends them.
            if (b[static_cast<size_t>(kBucketSlots - 1) * stride_] == 0) return false;
        }
        return false;
    }

    void store(uint64_t hash, const uint64_t* key, uint64_t count) {
        if (entries_ * 4 > capacity() * 3) grow();
        uint64_t* home = bucket(hash);
        uint64_t* e = nullptr;
        uint64_t* b = home;
        for (int k = 0; k < kProbeBuckets && !e; ++k, b = next(b)) e = firstEmpty(b);
        if (!e && !full_ && entries_ * 8 > capacity() * 5) {
            // Every bucket of the key's run full in a table 5/8 full that may still grow:
            // grow rather than forget. (In a sparser table a run fills by chance now and then,
            // and doubling for each would take twice the memory.)
            grow();
            store(hash, key, count);
            return;
        }
        if (!e) {
            // Full: the victim, in the key's own bucket, is picked by its high hash bits, so
            // no slot of a bucket is always the one to go.
            e = home + static_cast<size_t>((hash >> 32) % static_cast<uint64_t>(kBucketSlots)) * stride_;
            ++evictions_;
        } else {
            ++entries_;
        }
        std::memcpy(e, key, keyBytes_);
        e[keyWords_] = count;
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
    size_t bucketBytes() const { return static_cast<size_t>(stride_) * static_cast<size_t>(kBucketSlots) * sizeof(uint64_t); }
    uint64_t* bucket(uint64_t hash) const {
        return slots0_ + (static_cast<size_t>(hash) & (buckets_ - 1)) * static_cast<size_t>(stride_) * static_cast<size_t>(kBucketSlots);
    }
    uint64_t* next(uint64_t* b) const {
        uint64_t* n = b + static_cast<size_t>(stride_) * static_cast<size_t>(kBucketSlots);
        return n == slots0_ + buckets_ * static_cast<size_t>(stride_) * static_cast<size_t>(kBucketSlots) ? slots0_ : n;
    }
    const uint64_t* findIn(const uint64_t* b, const uint64_t* key) const {
        for (int s = 0; s < kBucketSlots; ++s, b += stride_) {
            if (b[0] == 0) return nullptr;  // (no holes: the rest of the bucket is empty)
            if (b[0] == key[0] && (keyWords_ == 1 || std::memcmp(b + 1, key + 1, keyBytes_ - sizeof(uint64_t)) == 0)) return b;
        }
        return nullptr;
    }
    uint64_t* firstEmpty(uint64_t* b) const {
        for (int s = 0; s < kBucketSlots; ++s, b += stride_)
            if (b[0] == 0) return b;
        return nullptr;
    }
    void grow();
    bool allocate(size_t bytes);

    HugeBlock block_;
    uint64_t* slots0_ = nullptr;  // block_'s words: the buckets
    size_t buckets_ = 0;          // a power of two
    int keyWords_ = 0;
    int stride_ = 0;              // words per entry: key, count
    size_t keyBytes_ = 0;
    long long maxBytes_ = 0;
    bool full_ = false;   // at its budget: no more doubling
    long long lookups_ = 0, hits_ = 0, evictions_ = 0, entries_ = 0, growRefused_ = 0;
};

}  // namespace polycube
