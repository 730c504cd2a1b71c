// HugeBlock: a growable block of words for what reaches gigabytes: the layered count's arrays
// and the memo table's buckets. Internal to engine/memo.
//
//   HugeBlock b;
//   if (!b.grow(words)) refuse();   // keeps the words already there; the new ones are not zeroed
//   if (!b.grow(words, HugeBlock::Fill::Zero)) refuse();   // the new ones are zero
//   uint64_t* w = b.data();         // kAlignment-aligned
//
// Natively (Linux) the block is anonymous memory grown by mremap, so growing moves no word,
// with the advice that huge pages may back it: the layers' arrays are written once and read
// once in order, and with 4 KiB pages the page faults alone took about a fifth of a long count
// (one-sided 6x15: 745,000 faults); the table's lookups go anywhere in it, and with 4 KiB pages
// nearly each one would miss the TLB too (about half of a lookup's time on one-sided 18x5).
// New pages there are zero already. Elsewhere (WebAssembly) it is realloc, the words moved to
// the aligned start when the new block's lies elsewhere, and zeroed when asked.
//
// HugeArray<T>: a growing array of trivially copyable T (at most 8 bytes, dividing 8) in a
// HugeBlock, for arrays appended to for a whole count (placement_counts.hpp): a vector's
// growth copies every element and faults every page again; this one grows by half as much
// again, in place.
//
//   HugeArray<uint32_t> a;
//   if (!a.push_back(7)) refuse();   // false (the array unchanged) if the system refuses
//   a[0]; a.size(); a.capacityBytes();
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace polycube {

class HugeBlock {
public:
    HugeBlock() = default;
    ~HugeBlock();
    HugeBlock(const HugeBlock&) = delete;
    HugeBlock& operator=(const HugeBlock&) = delete;
    HugeBlock(HugeBlock&& other) noexcept;
    HugeBlock& operator=(HugeBlock&& other) noexcept;

    // A cache line pair: the table's buckets start on one.
    static constexpr size_t kAlignment = 128;
    enum class Fill { Any, Zero };
    // Pages::Small: no advice for huge pages, for a block a count may barely touch (the
    // kernel zeroes, and may compact memory for, a whole huge page at its first write).
    enum class Pages { Huge, Small };

    // At least `words` words, the first ones kept; false (the block unchanged) if the system
    // refuses the memory.
    bool grow(size_t words, Fill fill = Fill::Any, Pages pages = Pages::Huge);
    uint64_t* data() const { return data_; }
    size_t words() const { return words_; }
    void release();

private:
    uint64_t* data_ = nullptr;
    size_t words_ = 0;
    void* raw_ = nullptr;  // (realloc's block, data_ aligned inside it; natively data_ itself)
};

template <typename T>
class HugeArray {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8 && 8 % sizeof(T) == 0, "a HugeArray holds words or parts of words");
    static constexpr size_t kPerWord = 8 / sizeof(T);

public:
    bool push_back(const T& value) {
        if (size_ == capacity() && !reserve(size_ + size_ / 2 + 1024)) return false;
        data()[size_++] = value;
        return true;
    }
    // Room for at least n elements; false if the system refuses.
    bool reserve(size_t n) { return n <= capacity() || block_.grow((n + kPerWord - 1) / kPerWord); }
    void clear() {
        block_.release();
        size_ = 0;
    }
    T& operator[](size_t i) { return data()[i]; }
    const T& operator[](size_t i) const { return data()[i]; }
    T& back() { return data()[size_ - 1]; }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    size_t capacity() const { return block_.words() * kPerWord; }
    long long capacityBytes() const { return static_cast<long long>(block_.words() * sizeof(uint64_t)); }
    T* data() const { return reinterpret_cast<T*>(block_.data()); }

private:
    HugeBlock block_;
    size_t size_ = 0;
};

}  // namespace polycube
