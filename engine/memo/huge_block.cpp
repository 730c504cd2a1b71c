#include "memo/huge_block.hpp"

#include <cstdlib>
#include <cstring>
#include <utility>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#define POLYCUBE_HUGE_BLOCK_MMAP 1
#endif

namespace polycube {

namespace {
// Huge pages only pay for a block of a few of them (the kernel's are 2 MiB).
[[maybe_unused]] constexpr size_t kHugePageBytes = 2u << 20;
constexpr size_t kPageWords = 4096 / sizeof(uint64_t);
}  // namespace

HugeBlock::~HugeBlock() { release(); }

HugeBlock::HugeBlock(HugeBlock&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), words_(std::exchange(other.words_, 0)), raw_(std::exchange(other.raw_, nullptr)) {}

HugeBlock& HugeBlock::operator=(HugeBlock&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        words_ = std::exchange(other.words_, 0);
        raw_ = std::exchange(other.raw_, nullptr);
    }
    return *this;
}

void HugeBlock::release() {
    if (!data_) return;
#ifdef POLYCUBE_HUGE_BLOCK_MMAP
    munmap(data_, words_ * sizeof(uint64_t));
#else
    std::free(raw_);
#endif
    data_ = nullptr;
    words_ = 0;
    raw_ = nullptr;
}

bool HugeBlock::grow(size_t words, Fill fill, Pages pages) {
    if (words <= words_) return true;
    if (words > (SIZE_MAX - kAlignment) / sizeof(uint64_t) - kPageWords) return false;
    words = (words + kPageWords - 1) / kPageWords * kPageWords;  // (whole pages: mremap's lengths)
    const size_t bytes = words * sizeof(uint64_t);
    const size_t oldBytes = words_ * sizeof(uint64_t);
#ifdef POLYCUBE_HUGE_BLOCK_MMAP
    // (page-aligned, and new pages are zero; the advice is a hint: an error changes nothing)
    void* p = data_ ? mremap(data_, oldBytes, bytes, MREMAP_MAYMOVE)
                    : mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    if (pages == Pages::Huge && bytes >= kHugePageBytes) madvise(p, bytes, MADV_HUGEPAGE);
    data_ = static_cast<uint64_t*>(p);
    (void)fill;
#else
    const size_t oldOffset = data_ ? static_cast<size_t>(reinterpret_cast<char*>(data_) - static_cast<char*>(raw_)) : 0;
    void* more = std::realloc(raw_, bytes + kAlignment);
    if (!more) return false;
    raw_ = more;
    const uintptr_t start = reinterpret_cast<uintptr_t>(more);
    const size_t offset = static_cast<size_t>(((start + kAlignment - 1) & ~static_cast<uintptr_t>(kAlignment - 1)) - start);
    char* aligned = static_cast<char*>(more) + offset;
    if (oldBytes > 0 && offset != oldOffset) std::memmove(aligned, static_cast<char*>(more) + oldOffset, oldBytes);
    if (fill == Fill::Zero) std::memset(aligned + oldBytes, 0, bytes - oldBytes);
    data_ = reinterpret_cast<uint64_t*>(aligned);
    (void)pages;
#endif
    words_ = words;
    return true;
}

}  // namespace polycube
