// Volume constraint (first seed article, "Volume Constraint Violations": the backtrack
// trigger and the image filter; FILA article, test case PT2: the filter reapplied after
// every placement).
//
// The open cells not yet covered fall into connected regions (6-neighbour adjacency). The
// pieces that fill a region lie wholly inside it, so a region whose volume is not the total
// size of some sub-multiset of the remaining pieces can never be filled. As in the article,
// each region is checked on its own: a region is unfillable iff no sub-multiset of the
// remaining pieces has its volume. No joint partition check is made (with mixed sizes two
// regions can each be fillable while no split of the pieces fills both; such states are not
// detected here, the search finds them).
//
// Pieces are grouped into size classes; a state is the number of pieces left per class and
// achievable() answers from SubsetSums (a table when small). When all pieces have one size k
// the answer is simply "a multiple of k, at most k * remaining".
//
//   VolumeMonitor vm;
//   vm.init(model);
//   std::vector<int> left = vm.initialCounts();          // decrement left[vm.classOfShape(s)]
//   std::vector<uint64_t> filled((model.openCellCount() + 63) / 64);  // bit c: cell c covered
//   if (!vm.regionsFillable(filled, left.data())) -> backtrack
//   // image filter: `after` = left with the image's piece removed
//   if (vm.placementLeavesUnfillableRegion(filled, image.cells, after.data())) -> drop image
//
// The monitor keeps scratch buffers and a cache of the region decomposition of the last
// `filled` seen, so its non-const calls do no allocation once warm; one object must not be
// used from two threads at once. It relies on the model invariant that the open volume
// equals the total piece volume (checked by the parser); were it not so, regionsFillable and
// placementLeavesUnfillableRegion would answer "fillable" (the exact-fill test is unsound
// when cells may stay empty).
#pragma once
#include <cstdint>
#include <vector>

#include "constraints/subset_sums.hpp"
#include "puzzle/model.hpp"

namespace polycube {

class VolumeMonitor {
public:
    void init(const Model& model);

    int classCount() const { return static_cast<int>(sizes_.size()); }   // distinct piece sizes
    int classOfShape(int shape) const { return classOfShape_[shape]; }   // size class of a shape
    int classSize(int cls) const { return sizes_[cls]; }                 // ascending in cls
    std::vector<int> initialCounts() const { return counts_; }          // pieces per size class

    // Is `volume` the total size of some sub-multiset of the remaining pieces?
    bool achievable(const int* remainingBySizeClass, int volume) const;

    // Volume backtrack trigger: bit c of `filled` (64 cells per word, open-cell ids) is set
    // when cell c is occupied. Splits the free cells into connected regions and says whether
    // every region's volume is achievable by the remaining pieces.
    bool regionsFillable(const std::vector<uint64_t>& filled, const int* remainingBySizeClass);
    // Why regionsFillable said no (the search trace): the lowest open cell of the first
    // region (in cell order) whose volume the remaining pieces cannot make, its volume in
    // *volume; -1 when every region is fillable.
    int unfillableRegion(const std::vector<uint64_t>& filled, const int* remainingBySizeClass, int* volume);

    // Volume image filter: would covering `cells` (open-cell ids, all currently free) leave a
    // region whose volume the pieces left after that placement cannot make? Same answer as
    // !regionsFillable(filled + cells, remainingAfter), but regions are found only around the
    // image (the decomposition of `filled` is cached across calls with the same `filled`, so
    // regions away from the image cost one lookup each) and the flood fills stop as soon as
    // every region touching the image is known to be fillable.
    bool placementLeavesUnfillableRegion(const std::vector<uint64_t>& filled, const std::vector<int>& cells,
                                         const int* remainingAfterBySizeClass);

    // Regions of the last decomposition computed (tests and statistics).
    int lastRegionCount() const { return static_cast<int>(compVolume_.size()); }

private:
    // Achievable-volume query for one state, prepared once per call.
    struct Query {
        const uint64_t* bits = nullptr;  // achievable volumes (mixed sizes)
        int unit = 0, maxVolume = 0;     // one size class: multiples of unit up to maxVolume
        int runLo = 1, runHi = 0;        // every volume in [runLo, runHi] is achievable
        bool ok(int v) const {
            if (v < 0 || v > maxVolume) return false;
            if (unit) return v % unit == 0;
            return SubsetSums::testBit(bits, v);
        }
    };
    Query prepare(const int* remaining);
    void ensureComponents(const std::vector<uint64_t>& filled);
    uint32_t nextEpoch();
    bool isFilled(const std::vector<uint64_t>& filled, int c) const { return filled[c >> 6] >> (c & 63) & 1; }
    int findFragment(int f);

    std::vector<int> sizes_, counts_, classOfShape_;
    int totalVolume_ = 0;
    bool active_ = true;  // open volume == piece volume
    SubsetSums sums_;     // class k: each piece adds 0 or sizes_[k]
    std::vector<int> runLo_, runHi_;  // per tabled state: longest run of achievable volumes

    // Open-cell adjacency (compressed rows).
    int cellCount_ = 0;
    std::vector<int> adjBegin_, adj_;

    // Visit stamps: cell c is marked in the current pass iff mark_[c] == epoch_.
    std::vector<uint32_t> mark_;
    uint32_t epoch_ = 0;

    // Region decomposition of cachedFilled_.
    bool cacheValid_ = false;
    std::vector<uint64_t> cachedFilled_;
    std::vector<int> compOf_, compVolume_;

    // Untabled states: sums of the last state asked for.
    std::vector<int> cachedState_;
    std::vector<uint64_t> cachedSums_;
    int cachedRunLo_ = 1, cachedRunHi_ = 0;

    // Fragment flood fills (image filter): owner_[c] is the fill that claimed c (-1: the
    // image itself), valid while mark_[c] == epoch_. Per fill: union-find parent, cells
    // claimed, cells claimed but not yet expanded.
    std::vector<int> owner_, queue_;
    std::vector<int> fragParent_, fragCount_, fragPending_;
    std::vector<int> affected_;
    std::vector<int> stack_;
};

}  // namespace polycube
