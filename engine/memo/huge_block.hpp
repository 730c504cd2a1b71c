// HugeBlock: a growable block of words for the layered count's arrays, which reach gigabytes.
// Internal to engine/memo.
//
//   HugeBlock b;
//   if (!b.grow(words)) refuse();   // keeps the words already there; the new ones are not zeroed
//   uint64_t* w = b.data();
//
// Natively (Linux) the block is anonymous memory grown by mremap, so growing moves no word,
// with the advice that huge pages may back it: the layers' arrays are written once and read
// once in order, and with 4 KiB pages the page faults alone took about a fifth of a long count
// (one-sided 6x15: 745,000 faults). Elsewhere (WebAssembly) it is realloc.
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

    // At least `words` words, the first ones kept; false (the block unchanged) if the system
    // refuses the memory.
    bool grow(size_t words);
    uint64_t* data() const { return data_; }
    size_t words() const { return words_; }

private:
    void release();
    uint64_t* data_ = nullptr;
    size_t words_ = 0;
};

}  // namespace polycube
