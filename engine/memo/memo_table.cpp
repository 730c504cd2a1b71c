#include "memo/memo_table.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#define POLYCUBE_MEMO_MMAP 1
#endif

#include "puzzle/model.hpp"

namespace polycube {

namespace {
// The first table: 64 KiB or the budget, whichever is smaller, so a short count pays for
// no more memory than it uses.
constexpr long long kFirstBytes = 64LL << 10;
// Huge pages only pay for a table of a few of them (the kernel's are 2 MiB).
constexpr size_t kHugePageBytes = 2u << 20;

[[maybe_unused]] uintptr_t alignUp(uintptr_t p, size_t a) { return (p + a - 1) & ~static_cast<uintptr_t>(a - 1); }
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
    if (block_) {
#ifdef POLYCUBE_MEMO_MMAP
        munmap(block_, blockBytes_);
#else
        std::free(block_);
#endif
    }
    block_ = nullptr;
    blockBytes_ = 0;
    slots0_ = nullptr;
    buckets_ = 0;
    entries_ = 0;
}

// (Re)allocates the buckets for `bytes`, keeping the current ones at the start; the bytes
// past them are zero.
#ifdef POLYCUBE_MEMO_MMAP
// Natively: anonymous pages (page-aligned, zero) grown by mremap (no copy), with the advice
// that huge pages may back them given before any is touched: lookups go anywhere in up to
// gigabytes, and with 4 KiB pages nearly each one would miss the TLB too (measured: about
// half of a lookup's time on one-sided 18x5). The advice is a hint: an error changes nothing.
bool MemoTable::allocate(size_t bytes) {
    void* p = block_ ? mremap(block_, blockBytes_, bytes, MREMAP_MAYMOVE)
                     : mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    if (bytes >= kHugePageBytes) madvise(p, bytes, MADV_HUGEPAGE);
    block_ = p;
    blockBytes_ = bytes;
    slots0_ = static_cast<uint64_t*>(p);
    return true;
}
#else
// realloc keeps the bytes but not the alignment: the buckets are moved to the new block's
// aligned start when that lies elsewhere in it.
bool MemoTable::allocate(size_t bytes) {
    const size_t oldOffset = block_ ? static_cast<size_t>(reinterpret_cast<char*>(slots0_) - static_cast<char*>(block_)) : 0;
    const size_t oldBytes = buckets_ * bucketBytes();
    void* more = std::realloc(block_, bytes + kAlignment);
    if (!more) return false;
    block_ = more;
    blockBytes_ = bytes + kAlignment;
    char* aligned = reinterpret_cast<char*>(alignUp(reinterpret_cast<uintptr_t>(more), kAlignment));
    const size_t offset = static_cast<size_t>(aligned - static_cast<char*>(more));
    if (oldBytes > 0 && offset != oldOffset) std::memmove(aligned, static_cast<char*>(more) + oldOffset, oldBytes);
    slots0_ = reinterpret_cast<uint64_t*>(aligned);
    std::memset(aligned + oldBytes, 0, bytes - oldBytes);
    (void)kHugePageBytes;
    return true;
}
#endif

void MemoTable::grow() {
    if (full_) return;

    const size_t old = buckets_;
    const size_t oldBytes = old * bucketBytes();
    // (In 64 bits: a doubling past what size_t holds, in WebAssembly, is refused like one the
    // allocator refuses.)
    if (static_cast<unsigned long long>(oldBytes) * 2 + kAlignment > static_cast<unsigned long long>(SIZE_MAX)) {
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
