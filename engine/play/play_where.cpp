// "Where can it go?" (PlayQuery::Kind::Where, play.hpp): the remainder counted by the memoized
// counter with its placement counts, and the places of the asked piece that can be finished.
#include <algorithm>
#include <limits>

#include "common/text.hpp"
#include "memo/memo_counter.hpp"
#include "play/play.hpp"

namespace polycube {

Status PlayQuery::startWhere() {
    const int instances = def_.instanceCount();
    if (piece_ < 0 || piece_ >= instances)
        return Status::error("play: where can it go: piece " + std::to_string(piece_) + " is not one of the puzzle's " +
                             std::to_string(instances) + " pieces (0 to " + std::to_string(instances - 1) + ")");
    const std::vector<PieceInstanceRef> refs = expandInstances(def_);
    const PieceDef& asked = def_.pieces[static_cast<size_t>(refs[static_cast<size_t>(piece_)].defIndex)];
    if (asked.stationary)
        return Status::error("play: where can it go: piece " + std::to_string(piece_) + " (" + quoteText(asked.name) +
                             ") is stationary: it has its place already");
    for (const Placement& p : placed_)
        if (p.instance == piece_)
            return Status::error("play: where can it go: piece " + std::to_string(piece_) + " (" + quoteText(asked.name) +
                                 ") is placed already: take it back first");
    Result<Remainder> r = remainderOf(def_, placed_);
    if (!r.ok()) return r.status;
    rem_ = std::make_unique<Remainder>(std::move(r.value));
    MemoSettings settings;
    settings.placementCounts = true;
    settings.maxTableBytes = kPlayWhereBytes;
    memo_ = MemoCounter::begin(rem_->def, settings);
    return Status::success();
}

void PlayQuery::stepWhere(long long budget) {
    const MemoCounter::State st = memo_->step(budget);
    if (st == MemoCounter::State::Running) return;
    placementsBefore_ += memo_->stats().attempts;
    if (st == MemoCounter::State::Cancelled) {
        state_ = State::Cancelled;
    } else if (st == MemoCounter::State::Failed) {
        state_ = State::Failed;
        error_ = memo_->error().find("--placements keeps every subproblem") != std::string::npos
                     ? "there are too many ways to finish to weigh every place here (more than " + formatBytes(kPlayWhereBytes) +
                           " of them to remember): place a few more pieces first"
                     : memo_->error();
    } else {
        completions_ = static_cast<long long>(std::min<uint64_t>(memo_->count(), std::numeric_limits<long long>::max()));
        // The asked piece in the remainder's numbering: its shape's images are its places.
        const Model& m = memo_->model();
        int shape = -1;
        for (size_t i = 0; i < rem_->instanceOf.size(); ++i)
            if (rem_->instanceOf[i] == piece_) shape = m.instances[i].shape;
        const std::vector<uint64_t>& counts = memo_->placementCounts();
        if (shape >= 0 && !counts.empty()) {
            for (int i = m.shapeImageBegin[static_cast<size_t>(shape)]; i < m.shapeImageBegin[static_cast<size_t>(shape) + 1]; ++i) {
                if (counts[static_cast<size_t>(i)] == 0) continue;
                Place place;
                for (int c : m.images[static_cast<size_t>(i)].cells) place.cells.push_back(m.boxOfOpenCell[static_cast<size_t>(c)]);
                std::sort(place.cells.begin(), place.cells.end());
                place.completions = static_cast<long long>(std::min<uint64_t>(counts[static_cast<size_t>(i)], std::numeric_limits<long long>::max()));
                places_.push_back(std::move(place));
            }
            std::sort(places_.begin(), places_.end(), [](const Place& a, const Place& b) {
                return a.completions != b.completions ? a.completions > b.completions : a.cells < b.cells;
            });
        }
        completable_ = completions_ > 0;
        state_ = State::Done;
    }
    memo_.reset();
}

}  // namespace polycube
