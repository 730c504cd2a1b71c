// OrbitLister: a solution's distinct symmetric images, one per next().
#include "solver/orbit_lister.hpp"

#include <algorithm>

#include "common/hash.hpp"

namespace polycube {

void OrbitLister::start(const std::vector<int>& placed) {
    placed_ = &placed;
    current_ = &placed;
    symmetry_ = 0;
    codes_.clear();
    hashes_.clear();
}

OrbitLister::Step OrbitLister::next() {
    const std::vector<int>& placed = *placed_;
    const size_t words = static_cast<size_t>(model_.openCellCount());
    while (symmetry_ < symmetries_.size()) {
        const size_t gi = symmetry_++;
        if (gi == 0) coder_.encode(placed, code_);
        else coder_.encodeTransformed(placed, symmetries_[gi], code_);
        const uint64_t h = hashWords(code_.data(), words, 0);
        bool seen = false;
        for (size_t k = 0; k < hashes_.size() && !seen; ++k)
            seen = hashes_[k] == h &&
                   std::equal(code_.begin(), code_.end(), codes_.begin() + static_cast<std::ptrdiff_t>(k * words));
        if (seen) continue;
        hashes_.push_back(h);
        codes_.insert(codes_.end(), code_.begin(), code_.end());
        if (gi == 0) {
            current_ = &placed;
            return kFound;
        }
        // A symmetry maps the open cells and the pieces onto themselves, so every image has
        // an image.
        images_.resize(placed.size());
        for (size_t k = 0; k < placed.size(); ++k) {
            images_[k] = mapImage(model_, symmetries_[gi], placed[k], cells_);
            if (images_[k] < 0) return kNoImage;
        }
        current_ = &images_;
        return kImage;
    }
    return kDone;
}

}  // namespace polycube
