// The solutions through each placement (MemoSettings::placementCounts): the one term counted by
// PlacementCounts (placement_counts.hpp), its rows' counts mapped to the model's images.
#include "memo/memo_counter.hpp"

namespace polycube {

// The term with its placements, for about `budget` attempts. False when the slice is over.
bool MemoCounter::countPlacements(long long& budget) {
    const PlacementCounts::Status st = placements_->run(budget, *stop_);
    const PlacementCounts::Stats now = placements_->stats();
    takeWork(now, placementsTaken_, now.bytes);
    switch (st) {
        case PlacementCounts::Status::Running: return true;
        case PlacementCounts::Status::Cancelled: state_ = State::Cancelled; return false;
        case PlacementCounts::Status::Overflow: fail("the count passes 2^64"); return false;
        case PlacementCounts::Status::Inconsistent:
            fail("internal error: the placements' two passes counted different numbers of solutions");
            return false;
        case PlacementCounts::Status::OverBudget:
            fail("--placements keeps every subproblem of the count, and they pass the memory budget of " +
                 formatBytes(settings_.maxTableBytes) + " after " + formatCount(now.subproblems) +
                 " of them: give more (--memo-mb) or count without --placements");
            return false;
        case PlacementCounts::Status::Done: break;
    }
    imageCounts_.assign(setup_->model_.images.size(), 0);
    const std::vector<uint64_t>& rows = placements_->rowCounts();
    for (size_t r = 0; r < rows.size(); ++r)
        if (problem_.image[r] >= 0) imageCounts_[static_cast<size_t>(problem_.image[r])] = rows[r];
    const uint64_t result = placements_->count();
    placements_.reset();
    finishTerm(result);
    return true;
}

}  // namespace polycube
