// LevelFilters' image filters (first seed article, "Image Filters"), resumable across
// slices, and the root's replay; the per-node calls are inline in level_filters.hpp.
#include "solver/level_filters.hpp"

#include <algorithm>

namespace polycube {

void LevelFilters::init(bool volume) {
    parity_.init(model_);
    parityLeft_ = parity_.initialCounts();
    holesParity_ = model_.openParity();
    if (volume) {
        volume_.init(model_);
        volumeReady_ = true;
        volumeLeft_ = volume_.initialCounts();
    }
}

void LevelFilters::hideRow(int row, int remaining, trace::Filter filter) {
    dlx_.hideRow(row);
    hidden_.push_back(row);
    hiddenBy_.push_back(static_cast<int8_t>(filter));
    std::vector<long long>& counter = filter == trace::kParityFilter   ? stats_.parityFiltered
                                      : filter == trace::kVolumeFilter ? stats_.volumeFiltered
                                                                       : stats_.fitFiltered;
    counter[remaining]++;
}

void LevelFilters::rememberRoot() {
    rootHidden_ = hidden_;
    rootHiddenBy_ = hiddenBy_;
    rootKnown_ = true;
}

bool LevelFilters::replayRootFilters(long long& budget) {
    // The root's filtering as it was the first time (rootHidden_): the same rows hidden in the
    // same order, counted as the filters count them. A hide costs far less than a placement;
    // the budget is still charged so that millions of rows take several slices. progress_.row
    // is where to resume.
    const int remaining = model_.mobileCount();
    for (; progress_.row < rootHidden_.size(); ++progress_.row) {
        if ((progress_.row & 63) == 0 && stopped(budget)) return false;
        budget -= (progress_.row & 15) == 0;
        hideRow(rootHidden_[progress_.row], remaining, static_cast<trace::Filter>(rootHiddenBy_[progress_.row]));
    }
    return true;
}

bool LevelFilters::runFilters(int remaining, const std::vector<uint64_t>& filled, long long& budget) {
    // Drop the images that would break a constraint if placed. Parity and volume first, since
    // they can remove images the fit check relies on. Resumable: with millions of images (or
    // the fit filter's repeated passes) one level's filtering takes seconds, so it is charged
    // to the budget (a row checked costs about a placement) and continues in the next slice;
    // progress_ holds where.
    Progress& fp = progress_;
    while (fp.kind != Progress::kDone) {
        if (fp.stage == Progress::kStart) {
            if (fp.kind == Progress::kParity) {
                if (remaining < parityAt_ || !fp.parityChanged || fp.cls >= parity_.classCount()) {
                    fp.kind = Progress::kVolume;
                    continue;
                }
                // Per parity class and sign: would a piece of that class placed with that sign
                // leave a parity the rest cannot reach? Then drop all such images.
                const int c = fp.cls;
                if (parityLeft_[c] == 0) {
                    ++fp.cls;
                    continue;
                }
                const int m = parity_.magnitude(c);
                parityLeft_[c]--;  // as if one piece of the class were placed
                fp.drop[0] = !parity_.achievable(parityLeft_.data(), holesParity_ - m);
                fp.drop[1] = !parity_.achievable(parityLeft_.data(), holesParity_ + m);
                parityLeft_[c]++;
                if (!fp.drop[0] && !fp.drop[1]) {
                    ++fp.cls;
                    continue;
                }
            } else if (fp.kind == Progress::kVolume) {
                if (remaining < volumeAt_) {
                    fp.kind = Progress::kFit;
                    continue;
                }
            } else if (remaining < fitAt_) {
                fp.kind = Progress::kDone;
                continue;
            }
            liveRows_.clear();
            fp.shape = 0;
            fp.row = 0;
            fp.changed = false;
            fp.stage = Progress::kCollect;
        }
        if (fp.stage == Progress::kCollect) {
            for (; fp.shape < model_.shapeCount(); ++fp.shape) {
                if (stopped(budget)) return false;
                const size_t before = liveRows_.size();
                dlx_.forEachLiveRowOfShape(fp.shape, [&](int row) { liveRows_.push_back(row); });
                budget -= 1 + static_cast<long long>((liveRows_.size() - before) / 16);
            }
            fp.stage = Progress::kScan;
        }
        // A row's check: parity a lookup, volume a flood fill of the open cells, fit a
        // placement and its undo.
        const long long rowCost = fp.kind == Progress::kParity   ? 1
                                  : fp.kind == Progress::kVolume ? 1 + model_.openCellCount() / 128
                                                                 : 2 * placementCost_;
        for (; fp.row < liveRows_.size(); ++fp.row) {
            if (stopped(budget)) return false;
            budget -= rowCost;
            const int row = liveRows_[fp.row];
            const Image& img = model_.images[dlx_.imageOfRow(row)];
            if (fp.kind == Progress::kParity) {
                if (parity_.classOfShape(img.shape) == fp.cls && fp.drop[img.parity > 0 ? 0 : 1])
                    hideRow(row, remaining, trace::kParityFilter);
            } else if (fp.kind == Progress::kVolume) {
                const int cls = volume_.classOfShape(img.shape);
                volumeLeft_[cls]--;  // the pieces left after placing this image
                const bool unfillable = volume_.placementLeavesUnfillableRegion(filled, img.cells, volumeLeft_.data());
                volumeLeft_[cls]++;
                if (unfillable) hideRow(row, remaining, trace::kVolumeFilter);
            } else if (dlx_.rowLeavesDeadColumn(row)) {
                hideRow(row, remaining, trace::kFitFilter);
                fp.changed = true;
            }
        }
        fp.stage = Progress::kStart;
        if (fp.kind == Progress::kParity) ++fp.cls;
        else if (fp.kind == Progress::kVolume) fp.kind = Progress::kFit;
        // The fit filter repeats to a fixed point: removing images can leave others without
        // a next step.
        else if (!fp.changed) fp.kind = Progress::kDone;
    }
    return true;
}

int LevelFilters::filterThatEmptied(int col, const std::vector<int>& copiesPlaced, const std::vector<uint64_t>& filled) const {
    for (size_t k = hidden_.size(); k-- > 0;) {
        const Image& img = model_.images[dlx_.imageOfRow(hidden_[k])];
        const bool inColumn = dlx_.isShapeColumn(col) ? img.shape == dlx_.shapeOfColumn(col)
                                                      : std::find(img.cells.begin(), img.cells.end(), col) != img.cells.end();
        if (!inColumn || copiesPlaced[img.shape] >= model_.shapes[img.shape].count) continue;
        bool free = true;
        for (int c : img.cells) free &= !(filled[c >> 6] >> (c & 63) & 1);
        if (free) return hiddenBy_[k];
    }
    return -1;
}

}  // namespace polycube
