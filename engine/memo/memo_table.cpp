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

MemoTable::~MemoTable() { release(); }

Status MemoTable::reset(int keyWords, long long maxBytes) {
    release();
    keyWords_ = keyWords;
    stride_ = keyWords + 1;
    keyBytes_ = static_cast<size_t>(keyWords) * sizeof(uint64_t);
    maxBytes_ = maxBytes;
    full_ = false;
    const long long one = static_cast<long long>(bucketBytes());
    if (maxBytes < one)
        return Status::error("the memo table's budget of " + formatBytes(maxBytes) + " holds not even one bucket of " +
                             formatBytes(one));
    size_t buckets = 1;
    while (static_cast<long long>(buckets) * 2 * one <= std::min(maxBytes, kFirstBytes)) buckets *= 2;
    if (!allocate(buckets * bucketBytes()))
        return Status::error("out of memory: the memo table's first " + formatBytes(one) + " could not be allocated");
    buckets_ = buckets;
    full_ = static_cast<long long>(buckets_) * 2 * one > maxBytes;
    return Status::success();
}

void MemoTable::clear() {
    if (slots0_) std::memset(slots0_, 0, buckets_ * bucketBytes());
    entries_ = 0;
}

void MemoTable::release() {
    block_.release();
    slots0_ = nullptr;
    buckets_ = 0;
    entries_ = 0;
}

// (Re)allocates the buckets for `bytes`, keeping the current ones at the start; the bytes
// past them are zero (HugeBlock: huge pages natively, see there).
bool MemoTable::allocate(size_t bytes) {
    if (!block_.grow((bytes + sizeof(uint64_t) - 1) / sizeof(uint64_t), HugeBlock::Fill::Zero)) return false;
    slots0_ = block_.data();
    return true;
}

void MemoTable::grow() {
    if (full_) return;

    const size_t old = buckets_;
    const size_t oldBytes = old * bucketBytes();
    // (In 64 bits: a doubling past what size_t holds, in WebAssembly, is refused like one the
    // allocator refuses.)
    if (static_cast<unsigned long long>(oldBytes) * 2 + HugeBlock::kAlignment > static_cast<unsigned long long>(SIZE_MAX)) {
        ++growRefused_;
        full_ = true;
        return;
    }
    // On failure the table stays as it was and evicts from then on.
    if (!allocate(oldBytes * 2)) {
        ++growRefused_;
        full_ = true;
        return;
    }
    const size_t words = static_cast<size_t>(stride_) * static_cast<size_t>(kBucketSlots);
    const size_t entryBytes = static_cast<size_t>(stride_) * sizeof(uint64_t);
    // The entries out of their own bucket (in the next one: a few) are taken out first and
    // stored again after the split.
    std::vector<uint64_t> strays;
    for (size_t b = 0; b < old; ++b) {
        uint64_t* from = slots0_ + b * words;
        uint64_t* keep = from;
        for (int s = 0; s < kBucketSlots; ++s) {
            uint64_t* e = from + static_cast<size_t>(s) * stride_;
            if (e[0] == 0) break;
            if ((hashKey(e, keyWords_) & (old - 1)) != b) {
                strays.insert(strays.end(), e, e + stride_);
            } else {
                if (keep != e) std::memcpy(keep, e, entryBytes);
                keep += stride_;
            }
        }
        for (uint64_t* e = keep; e < from + words; e += stride_) std::memset(e, 0, entryBytes);
    }
    buckets_ = old * 2;
    // Split each bucket by the next bit of its entries' hashes: they stay in bucket b or move
    // to b + old, in order, so both stay without holes.
    for (size_t b = 0; b < old; ++b) {
        uint64_t* from = slots0_ + b * words;
        uint64_t* keep = from;
        uint64_t* move = slots0_ + (b + old) * words;
        for (int s = 0; s < kBucketSlots; ++s) {
            uint64_t* e = from + static_cast<size_t>(s) * stride_;
            if (e[0] == 0) break;
            const bool moves = (hashKey(e, keyWords_) & old) != 0;
            uint64_t* to = moves ? move : keep;
            if (to != e) {
                std::memcpy(to, e, entryBytes);
                std::memset(e, 0, entryBytes);
            }
            if (moves) move += stride_;
            else keep += stride_;
        }
    }
    // (Each stray finds room: the doubled table is at most 3/8 full. Not counted again.)
    entries_ -= static_cast<long long>(strays.size() / stride_);
    const bool wasFull = full_;
    full_ = true;  // (no doubling inside the doubling)
    for (size_t k = 0; k < strays.size(); k += stride_) store(hashKey(&strays[k], keyWords_), &strays[k], strays[k + keyWords_]);
    full_ = wasFull;
    full_ = static_cast<long long>(buckets_) * 2 * static_cast<long long>(bucketBytes()) > maxBytes_;
}

}  // namespace polycube
