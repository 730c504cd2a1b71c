// The constraint monitors of the DLX search (first seed article, "Backtrack Triggers" and
// "Image Filters"): the pieces left per parity and volume class, the open cells' parity, the
// parity and volume triggers, and the image filters that hide a level's rows that would
// break a constraint (parity, volume, fit), resumable across step() slices.
//
//   LevelFilters filters{model, dlx, stats, cancel};       // the Solver's members, by reference
//   filters.init(wantVolume);                              // setup: the model is built
//   filters.configure(parityAt, volumeAt, fitAt, dlxCost); // setup: the matrix is built
//   ... the driver, a placement:   filters.place(img);  ...  filters.unplace(img);
//   ... entering a level:          frame.hideMark = filters.hiddenCount();
//                                  if (!filters.parityReachable()) backtrack;
//                                  if (remaining >= volumeAt && !filters.regionsFillable(filled)) backtrack;
//                                  filters.beginLevel(parityChanged);
//                                  while (!filters.filterLevel(depth == 0, !monteCarlo, remaining, filled, budget))
//                                      ... the slice ends; the next one calls filterLevel again
//   ... leaving it:                filters.unhideTo(frame.hideMark);
//
// It owns the monitors, the counters and the stack of rows it hid (with the filter that hid
// each, for the trace's kFilterEmptied); the model, the matrix, the statistics it counts the
// filtered rows in and the cancel flag are the Solver's. The calls made per node (place,
// unplace, the triggers, unhideTo) are inline; a level's filtering is one call.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "constraints/parity.hpp"
#include "constraints/volume.hpp"
#include "puzzle/model.hpp"
#include "search/dlx.hpp"
#include "search/trace.hpp"
#include "solver/solver_stats.hpp"

namespace polycube {

class LevelFilters {
public:
    LevelFilters(const Model& model, DlxMatrix& dlx, SolverStats& stats, const std::atomic<bool>& cancel)
        : model_(model), dlx_(dlx), stats_(stats), cancel_(cancel) {}

    // The model is built: the parity classes and counters, and the volume classes when a
    // volume filter or trigger is configured (`volume`).
    void init(bool volume);
    // The matrix is built: the fewest pieces left at which each filter runs (INT_MAX: never)
    // and what a DLX placement costs in budget units (the fit filter's row check costs two).
    void configure(int parityAt, int volumeAt, int fitAt, long long placementCost) {
        parityAt_ = parityAt;
        volumeAt_ = volumeAt;
        fitAt_ = fitAt;
        filterFrom_ = std::min({parityAt, volumeAt, fitAt});
        placementCost_ = placementCost;
    }
    // The filters run at levels with at least this many pieces left.
    int filterFrom() const { return filterFrom_; }

    // A placement and its undo: the counters of pieces left and the holes' parity.
    void place(const Image& img) {
        holesParity_ -= img.parity;
        if (int c = parity_.classOfShape(img.shape); c >= 0) parityLeft_[c]--;
        if (volumeReady_) volumeLeft_[volume_.classOfShape(img.shape)]--;
    }
    void unplace(const Image& img) {
        holesParity_ += img.parity;
        if (int c = parity_.classOfShape(img.shape); c >= 0) parityLeft_[c]++;
        if (volumeReady_) volumeLeft_[volume_.classOfShape(img.shape)]++;
    }

    // Parity trigger: the pieces left can still match the holes' parity.
    bool parityReachable() const { return parity_.achievable(parityLeft_.data(), holesParity_); }
    // Volume trigger: every region of free cells (`filled`: one bit per open cell covered)
    // has a volume the pieces left can make; unfillableRegion names one that has not (trace).
    bool regionsFillable(const std::vector<uint64_t>& filled) { return volume_.regionsFillable(filled, volumeLeft_.data()); }
    int unfillableRegion(const std::vector<uint64_t>& filled, int* size) {
        return volume_.unfillableRegion(filled, volumeLeft_.data(), size);
    }

    // A level's filtering from its start; `parityChanged`: the last placement changed the
    // holes' parity (or this is the root), else the parity filter has nothing new to drop.
    void beginLevel(bool parityChanged) {
        progress_ = Progress{};
        progress_.parityChanged = parityChanged;
    }
    // Run (or resume) the level's filters, charged to `budget`; false when the budget ran
    // out or cancel was asked (call again in the next slice). The root's are remembered and,
    // when `replayRoot` allows (not with Monte Carlo, which reshuffles the rows), replayed
    // the next time the search enters the root.
    bool filterLevel(bool root, bool replayRoot, int remaining, const std::vector<uint64_t>& filled, long long& budget) {
        if (!(root && rootKnown_ && replayRoot ? replayRootFilters(budget) : runFilters(remaining, filled, budget)))
            return false;
        if (root && !rootKnown_) rememberRoot();
        return true;
    }

    // Rows hidden so far, all levels: a level's mark, to unhide them down to on leaving it.
    int hiddenCount() const { return static_cast<int>(hidden_.size()); }
    void unhideTo(int mark) {
        while (static_cast<int>(hidden_.size()) > mark) {
            dlx_.unhideRow(hidden_.back());
            hidden_.pop_back();
            hiddenBy_.pop_back();
        }
    }
    // The trace's kFilterEmptied: the filter (trace::Filter) that hid a row, at this level or
    // above, that would otherwise still be live in the dead column `col` (its shape with
    // copies left, its cells free); -1 when none did (nothing fits there).
    int filterThatEmptied(int col, const std::vector<int>& copiesPlaced, const std::vector<uint64_t>& filled) const;

    // What FILA and the configuration's probes read: the holes' parity, the pieces left per
    // parity class, the parity monitor (FILA's own parity trigger).
    int holesParity() const { return holesParity_; }
    const std::vector<int>& parityLeft() const { return parityLeft_; }
    const ParityMonitor& parity() const { return parity_; }

private:
    // Where a level's filtering stands (runFilters resumes it in the next slice).
    struct Progress {
        enum Kind : uint8_t { kParity, kVolume, kFit, kDone } kind = kParity;
        enum Stage : uint8_t { kStart, kCollect, kScan } stage = kStart;
        bool parityChanged = false;
        bool drop[2] = {false, false};  // parity: drop images of sign +/- of class cls
        bool changed = false;           // fit: this pass hid a row (repeat to a fixed point)
        int cls = 0;                    // parity class
        int shape = 0;                  // collecting live rows: next shape
        size_t row = 0;                 // scanning liveRows_ (replaying: rootHidden_)
    };
    bool runFilters(int remaining, const std::vector<uint64_t>& filled, long long& budget);
    bool replayRootFilters(long long& budget);
    void rememberRoot();
    void hideRow(int row, int remaining, trace::Filter filter);
    bool stopped(long long budget) const { return budget <= 0 || cancel_.load(std::memory_order_relaxed); }

    const Model& model_;
    DlxMatrix& dlx_;
    SolverStats& stats_;
    const std::atomic<bool>& cancel_;

    ParityMonitor parity_;
    VolumeMonitor volume_;
    bool volumeReady_ = false;
    int holesParity_ = 0;
    std::vector<int> parityLeft_, volumeLeft_;
    int parityAt_ = 0, volumeAt_ = 0, fitAt_ = 0, filterFrom_ = 0;
    long long placementCost_ = 1;
    Progress progress_;
    std::vector<int> hidden_, liveRows_;
    std::vector<int8_t> hiddenBy_;  // trace::Filter of each hidden_ row
    // The root level's filtering, once done: the rows it hid, in order (with hiddenBy_'s
    // filters). The search enters the root from rest every time (the matrix, the filled cells
    // and the pieces left are those of the setup's end), so the filters would hide the same
    // rows: a subproblem after the first replays them (replayRootFilters) instead of checking
    // every row again (the volume filter's flood fills on every root row, for each of
    // hundreds of subproblems, would be a sizable share of a worker pool's work).
    std::vector<int> rootHidden_;
    std::vector<int8_t> rootHiddenBy_;
    bool rootKnown_ = false;
};

}  // namespace polycube
