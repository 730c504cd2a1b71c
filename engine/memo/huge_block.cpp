#include "memo/huge_block.hpp"

#include <cstdlib>
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
    : data_(std::exchange(other.data_, nullptr)), words_(std::exchange(other.words_, 0)) {}

HugeBlock& HugeBlock::operator=(HugeBlock&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        words_ = std::exchange(other.words_, 0);
    }
    return *this;
}

void HugeBlock::release() {
    if (!data_) return;
#ifdef POLYCUBE_HUGE_BLOCK_MMAP
    munmap(data_, words_ * sizeof(uint64_t));
#else
    std::free(data_);
#endif
    data_ = nullptr;
    words_ = 0;
}

bool HugeBlock::grow(size_t words) {
    if (words <= words_) return true;
    if (words > SIZE_MAX / sizeof(uint64_t) - kPageWords) return false;
    words = (words + kPageWords - 1) / kPageWords * kPageWords;  // (whole pages: mremap's lengths)
    const size_t bytes = words * sizeof(uint64_t);
#ifdef POLYCUBE_HUGE_BLOCK_MMAP
    // (the advice is a hint: an error changes nothing)
    void* p = data_ ? mremap(data_, words_ * sizeof(uint64_t), bytes, MREMAP_MAYMOVE)
                    : mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    if (bytes >= kHugePageBytes) madvise(p, bytes, MADV_HUGEPAGE);
#else
    void* p = std::realloc(data_, bytes);
    if (!p) return false;
#endif
    data_ = static_cast<uint64_t*>(p);
    words_ = words;
    return true;
}

}  // namespace polycube
