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
#pragma once
#include <cstddef>
#include <cstdint>

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

    // At least `words` words, the first ones kept; false (the block unchanged) if the system
    // refuses the memory.
    bool grow(size_t words, Fill fill = Fill::Any);
    uint64_t* data() const { return data_; }
    size_t words() const { return words_; }
    void release();

private:
    uint64_t* data_ = nullptr;
    size_t words_ = 0;
    void* raw_ = nullptr;  // (realloc's block, data_ aligned inside it; natively data_ itself)
};

}  // namespace polycube
