#include "memo/memo_table.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "puzzle/model.hpp"

namespace polycube {

namespace {
// The first table: 64 KiB or the budget, whichever is smaller, so a short count pays for
// no more memory than it uses.
constexpr long long kFirstBytes = 64LL << 10;
}  // namespace

MemoTable::~MemoTable() { std::free(slots_); }

Status MemoTable::reset(int keyWords, long long maxBytes) {
    std::free(slots_);
    slots_ = nullptr;
    keyWords_ = keyWords;
    stride_ = keyWords + 2;
    keyBytes_ = static_cast<size_t>(keyWords) * sizeof(uint64_t);
    maxBytes_ = maxBytes;
    full_ = false;
    lookups_ = hits_ = evictions_ = entries_ = growRefused_ = 0;
    const long long one = static_cast<long long>(bucketBytes());
    if (maxBytes < one)
        return Status::error("the memo table's budget of " + formatBytes(maxBytes) + " holds not even one bucket of " +
                             formatBytes(one));
    buckets_ = 1;
    while (static_cast<long long>(buckets_) * 2 * one <= std::min(maxBytes, kFirstBytes)) buckets_ *= 2;
    slots_ = static_cast<uint64_t*>(std::calloc(buckets_, bucketBytes()));
    if (!slots_) {
        buckets_ = 0;
        return Status::error("out of memory: the memo table's first " + formatBytes(one) + " could not be allocated");
    }
    full_ = static_cast<long long>(buckets_) * 2 * one > maxBytes;
    return Status::success();
}

void MemoTable::clear() {
    if (slots_) std::memset(slots_, 0, buckets_ * bucketBytes());
    entries_ = 0;
}

void MemoTable::release() {
    std::free(slots_);
    slots_ = nullptr;
    buckets_ = 0;
    entries_ = 0;
}

void MemoTable::grow() {
    if (full_) return;
    const size_t old = buckets_;
    const size_t oldBytes = old * bucketBytes();
    // (In 64 bits: a doubling past what size_t holds, in WebAssembly, is refused like one the
    // allocator refuses.)
    if (static_cast<unsigned long long>(oldBytes) * 2 > static_cast<unsigned long long>(SIZE_MAX)) {
        ++growRefused_;
        full_ = true;
        return;
    }
    // realloc: the allocator extends or moves the block (Linux remaps large blocks without a
    // copy); on failure the table stays as it was and evicts from then on.
    void* more = std::realloc(slots_, oldBytes * 2);
    if (!more) {
        ++growRefused_;
        full_ = true;
        return;
    }
    slots_ = static_cast<uint64_t*>(more);
    std::memset(reinterpret_cast<char*>(slots_) + oldBytes, 0, oldBytes);
    buckets_ = old * 2;
    // Split each bucket by the next bit of its entries' hashes: they stay in bucket b or move
    // to b + old, in order, so a bucket never overflows while it is split.
    const size_t words = static_cast<size_t>(stride_) * kBucketSlots;
    for (size_t b = 0; b < old; ++b) {
        uint64_t* from = slots_ + b * words;
        uint64_t* keep = from;
        uint64_t* move = slots_ + (b + old) * words;
        for (int s = 0; s < kBucketSlots; ++s) {
            uint64_t* e = from + static_cast<size_t>(s) * stride_;
            if (e[0] == 0) continue;
            uint64_t* to = ((e[0] >> 1) & old) ? move : keep;
            if (to != e) {
                std::memcpy(to, e, static_cast<size_t>(stride_) * sizeof(uint64_t));
                std::memset(e, 0, static_cast<size_t>(stride_) * sizeof(uint64_t));
            }
            if (to == move) move += stride_;
            else keep += stride_;
        }
    }
    full_ = static_cast<long long>(buckets_) * 2 * static_cast<long long>(bucketBytes()) > maxBytes_;
}

}  // namespace polycube
