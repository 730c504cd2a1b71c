#include "memo/memo_counter.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "common/text.hpp"
#include "constraints/parity.hpp"
#include "constraints/weighting.hpp"

namespace polycube {

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Setup work per step() call between cancel checks (ModelBuilder units).
constexpr long long kModelWork = 1 << 16;
// The weighting proofs' bound, the enumerating search's (a setup unit must end within a slice).
constexpr long kWeightingCellVisits = 6000000;

}  // namespace

std::unique_ptr<MemoCounter> MemoCounter::begin(const PuzzleDef& def, const MemoSettings& settings, const ModelLimits& limits) {
    std::unique_ptr<MemoCounter> c(new MemoCounter());
    c->def_ = def;
    c->settings_ = settings;
    c->stats_.maxTableBytes = settings.maxTableBytes;
    // (Below --memo-mb's 1 MiB the tests check eviction; a budget too small for one bucket
    // is refused when the table is made.)
    if (settings.maxTableBytes <= 0 || settings.maxTableBytes > (kMemoMaxMb << 20)) {
        c->fail("the memo table's budget must be more than 0 bytes and at most " + formatBytes(kMemoMaxMb << 20) +
                ", got " + std::to_string(settings.maxTableBytes) + " bytes");
        return c;
    }
    c->builder_ = std::make_unique<ModelBuilder>(c->def_, limits);
    return c;
}

void MemoCounter::fail(std::string message) {
    error_ = std::move(message);
    state_ = State::Failed;
    depth_ = -1;
}

std::string MemoCounter::termsDescription() const {
    if (terms_.empty()) return "";
    std::string out = "1 count";
    if (terms_.size() > 1) {
        const size_t more = terms_.size() - 1;
        out += " + " + std::to_string(more) + " Burnside " + (more == 1 ? "term" : "terms");
        if (stabilized_ > 0)
            out += " for " + std::to_string(stabilized_) + " symmetric " + (stabilized_ == 1 ? "image" : "images") +
                   " of the constrained piece";
        else
            out += " over the puzzle's " + std::to_string(symmetries_.size()) + " symmetries";
    }
    return out;
}

MemoCounter::State MemoCounter::step(long long budget) {
    if (state_ != State::Running) return state_;
    const auto t0 = Clock::now();
    const bool setup = phase_ < kSearch;
    try {
        while (state_ == State::Running && budget > 0) {
            if (stop_->load(std::memory_order_relaxed)) {
                state_ = State::Cancelled;
                break;
            }
            if (phase_ < kSearch) {
                setupSome();
                budget -= kModelWork;
                if (phase_ >= kSearch) break;  // the setup's time and the search's apart
                continue;
            }
            if (phase_ == kFinished) {
                state_ = State::Done;
                break;
            }
            if (phase_ == kPicking) {
                if (!pickSome(budget)) break;
                continue;
            }
            if (depth_ < 0 && !startTerm()) continue;
            if (!search(budget)) break;
        }
    } catch (const std::bad_alloc&) {
        fail("out of memory while " + std::string(phase_ < kSearch ? "setting up the memoized count" : "counting"));
    }
    (setup ? stats_.setupSeconds : stats_.searchSeconds) += secondsSince(t0);
    takeTableStats();
    return state_;
}

void MemoCounter::takeTableStats() {
    stats_.lookups = table_.lookups();
    stats_.hits = table_.hits();
    stats_.evictions = table_.evictions();
    stats_.entries = table_.entries();
    stats_.tableBytes = table_.bytes();
}

bool MemoCounter::setupSome() {
    switch (phase_) {
        case kModel:
            if (builder_->step(kModelWork) == ModelBuilder::Running) return true;
            if (builder_->failed()) {
                fail(builder_->error());
                return false;
            }
            model_ = builder_->take();
            builder_.reset();
            phase_ = kSymmetry;
            return true;
        case kProof:
        case kReach: {
            // The enumerating search's proofs, in the same bounded units (parity and the
            // weightings, then the reach argument on its own), after -r's checks (as there: a
            // wrong -r is said even for an impossible puzzle): a puzzle they settle is not
            // searched (the hexomino rectangle of def/ would be, for long).
            WeightingLimits limits;
            limits.maxCellVisits = kWeightingCellVisits;
            limits.reach = false;
            std::string reason = phase_ == kProof ? parityImpossibility(model_) : std::string();
            if (reason.empty()) {
                const WeightingProof proof =
                    phase_ == kProof ? weightingImpossibility(model_, limits) : reachImpossibility(model_, limits);
                if (proof.impossible) reason = proof.reason;
            }
            if (!reason.empty()) {
                proved(std::move(reason));
                return false;
            }
            phase_ = phase_ == kProof ? kReach : kTerms;
            return true;
        }
        case kSymmetry: {
            if (settings_.mirror && !mirrorClosed(model_)) {
                fail("-M: the pieces are not closed under mirroring (some piece's mirror image is not in the set), "
                     "so mirror images of solutions are not solutions");
                return false;
            }
            if (settings_.redundancy) symmetries_ = puzzleSymmetries(model_, settings_.mirror);
            phase_ = kPlan;
            if (!settings_.redundancy) {
                planTerms(nullptr);
                return true;
            }
            int forced = -1;
            if (!settings_.piece.empty()) {
                for (const PieceInstance& inst : model_.instances) {
                    if (inst.name != settings_.piece) continue;
                    if (inst.stationary) {
                        fail("-r " + inst.name + ": that piece is stationary; name a mobile piece");
                        return false;
                    }
                    forced = inst.shape;
                }
                if (forced < 0) {
                    fail("-r: no piece named '" + quoteText(settings_.piece) + "' in this puzzle");
                    return false;
                }
            }
            if (forced < 0 && symmetries_.size() > 1) {
                planSearch_ = std::make_unique<RedundancyCandidateSearch>(model_, symmetries_);
                return true;
            }
            Result<RedundancyPlan> plan = planRedundancyFilter(model_, symmetries_, forced);
            if (!plan.ok()) {
                fail("-r: " + plan.status.message);
                return false;
            }
            planTerms(&plan.value);
            return true;
        }
        case kPlan: {
            if (planSearch_->step()) return true;
            RedundancyPlan plan = redundancyPlanFrom(planSearch_->take(), symmetries_);
            planSearch_.reset();
            planTerms(&plan);
            return true;
        }
        case kTerms: {
            order_ = sweepOrder(model_);
            // The table, for the shortest key (each term's problem re-keys it to its own: resetTerm).
            if (Status st = table_.reset(1, settings_.maxTableBytes); !st.ok) {
                fail(st.message);
                return false;
            }
            key_.assign(table_.keyWords(), 0);
            stats_.terms = static_cast<int>(terms_.size());
            termSums_.assign(terms_.size(), 0);
            phase_ = kSearch;
            return false;
        }
        default:
            return false;
    }
}

void MemoCounter::proved(std::string reason) {
    impossible_ = std::move(reason);
    count_ = 0;
    if (settings_.placementCounts) imageCounts_.assign(model_.images.size(), 0);  // no solution places any
    phase_ = kFinished;
}

void MemoCounter::planTerms(const RedundancyPlan* plan) {
    planAllowed_.assign(model_.images.size(), 1);
    groups_.assign(1, Group{});
    terms_.assign(1, Term{});
    if (plan) {
        redundancyText_ = plan->description;
        for (int i : plan->removedImages) planAllowed_[i] = 0;
        if (plan->needsGlobalCheck) {
            // No piece to constrain: classes by Burnside over the whole group.
            groups_[0].divisor = symmetries_.size();
            for (size_t g = 1; g < symmetries_.size(); ++g) terms_.push_back({static_cast<int>(g), -1, 0});
        }
        for (const auto& [image, stabilizer] : plan->stabilizers) {
            // Solutions through a symmetric kept image: classes under its stabilizer.
            planAllowed_[image] = 0;
            ++stabilized_;
            const int group = static_cast<int>(groups_.size());
            groups_.push_back({static_cast<uint64_t>(stabilizer.size() + 1)});
            terms_.push_back({-1, image, group});
            for (int h : stabilizer) terms_.push_back({h, image, group});
        }
    }
    phase_ = kProof;
}

bool MemoCounter::startTerm() {
    if (term_ >= terms_.size()) {
        const uint64_t total = combineTerms(termSums_);
        if (state_ != State::Running) return false;
        count_ = total;
        phase_ = kFinished;
        if (settings_.picks()) planPicks();
        return false;
    }
    if (!resetTerm(static_cast<int>(term_))) return false;
    if (settings_.placementCounts) {
        if (terms_.size() != 1 || settings_.redundancy) {
            fail("the solutions through each placement are counted among all solutions; with -r the count is of classes of "
                 "solutions, in which a placement has no one place: drop -r");
            return false;
        }
        placements_ = std::make_unique<PlacementCounts>(problem_, settings_.maxTableBytes);
        placementsTaken_ = PlacementCounts::Stats{};
        depth_ = 0;
        return true;
    }
    if (settings_.layered && !taskMode_ && !settings_.picks() && !overBudget_) {
        layers_ = std::make_unique<LayerCount>(problem_, settings_.maxTableBytes, settings_.threads);
        layersTaken_ = LayerCount::Stats{};
        depth_ = 0;
        return true;
    }
    uint64_t result = 0;
    if (!enter(0, result)) {
        finishTerm(result);
        return false;
    }
    depth_ = 0;
    return true;
}

// The count of every group (Burnside: its terms' sum over its divisor), summed; a failure
// (a sum that does not divide, or past 2^64) sets the state.
uint64_t MemoCounter::combineTerms(const std::vector<uint64_t>& termSums) {
    std::vector<uint64_t> sums(groups_.size(), 0);
    for (size_t t = 0; t < terms_.size() && t < termSums.size(); ++t) {
        if (__builtin_add_overflow(sums[terms_[t].group], termSums[t], &sums[terms_[t].group])) {
            fail("the count passes 2^64");
            return 0;
        }
    }
    uint64_t total = 0;
    for (size_t g = 0; g < groups_.size(); ++g) {
        if (sums[g] % groups_[g].divisor != 0) {
            fail("internal error: a Burnside sum of " + std::to_string(sums[g]) + " is not a multiple of " +
                 std::to_string(groups_[g].divisor));
            return 0;
        }
        if (__builtin_add_overflow(total, sums[g] / groups_[g].divisor, &total)) {
            fail("the count passes 2^64");
            return 0;
        }
    }
    return total;
}

// The search state at the root of `term`: its matrix (built again only for another term, the
// table then cleared: its counts are of that term's matrix), every cell open, every copy free.
bool MemoCounter::resetTerm(int term) {
    const MemoCounter& s = *setup_;
    if (problemTerm_ != term) {
        const Term& t = s.terms_[term];
        std::vector<char> allowed = s.planAllowed_;
        if (t.onlyImage >= 0) {
            const int shape = s.model_.images[t.onlyImage].shape;
            for (int i = s.model_.shapeImageBegin[shape]; i < s.model_.shapeImageBegin[shape + 1]; ++i) allowed[i] = 0;
            allowed[t.onlyImage] = 1;
        }
        Result<CoverProblem> built =
            buildCoverProblem(s.model_, s.order_, allowed, t.symmetry >= 0 ? &s.symmetries_[t.symmetry] : nullptr);
        if (!built.ok()) {
            fail(built.status.message);
            return false;
        }
        problem_ = std::move(built.value);
        if (problem_.keyWords != table_.keyWords()) {
            // (Another term's rows may reach further: a longer key, a table made for it.)
            if (Status st = table_.reset(problem_.keyWords, table_.maxBytes()); !st.ok) {
                fail(st.message);
                return false;
            }
            key_.assign(problem_.keyWords, 0);
        } else if (problemTerm_ >= 0) {
            table_.clear();
        }
        problemTerm_ = term;
        frames_.assign(problem_.pieces + 2, Frame{});
    }
    pending_.clear();
    pendingKeys_.clear();
    sweep_.reset(problem_);
    depth_ = -1;
    return true;
}

// The term layer by layer, for about `budget` attempts; past the layers' budget, the term is
// started again for the table's search. False when the slice is over.
bool MemoCounter::countLayers(long long& budget) {
    const LayerCount::Status st = layers_->run(budget, *stop_);
    const LayerCount::Stats now = layers_->stats();
    stats_.farEntries += now.farEntries - layersTaken_.farEntries;
    takeWork(now, layersTaken_, now.peakBytes);
    switch (st) {
        case LayerCount::Status::Running: return true;
        case LayerCount::Status::Cancelled: state_ = State::Cancelled; return false;
        case LayerCount::Status::Overflow: fail("the count passes 2^64"); return false;
        case LayerCount::Status::OverBudget:
            layers_.reset();
            if (settings_.layersOnly) {
                layersPastBudget_ = true;
                fail(kLayersPastBudget);
                return false;
            }
            overBudget_ = true;
            ++stats_.fallbackTerms;
            depth_ = -1;  // startTerm() begins the term again, for the table
            return true;
        case LayerCount::Status::Done: break;
    }
    const uint64_t result = layers_->count();
    layers_.reset();
    ++stats_.layeredTerms;
    finishTerm(result);
    return true;
}

MemoCounter::LayerOutlook MemoCounter::layerOutlook() const {
    LayerOutlook o;
    o.subproblems = stats_.subproblems;
    o.termsAfter = std::max(0, static_cast<int>(terms_.size()) - static_cast<int>(term_) - 1);
    if (!layers_) return o;
    const LayerCount::Forecast f = layers_->forecast();
    o.termSubproblems = f.subproblems;
    o.peakBytes = f.peakBytes;
    o.termDone = static_cast<double>(layers_->stats().subproblems);
    return o;
}

void MemoCounter::addThreads(int threads) {
    if (threads <= settings_.threads) return;
    settings_.threads = threads;
    if (layers_) layers_->addThreads(threads);
}

void MemoCounter::finishTerm(uint64_t result) {
    overBudget_ = false;
    if (taskMode_) {  // a task's subtree, not a term's: the caller takes the result
        taskResult_ = result;
        taskOver_ = true;
        depth_ = -1;
        return;
    }
    termSums_[term_] = result;
    ++term_;
    stats_.termsDone = static_cast<int>(term_);
    depth_ = -1;
}

// The subproblem of the current state: its count when it is known at once (no open cell: one
// solution; in the table: that count), or a new frame at depth_ + 1 for its first open cell.
bool MemoCounter::enter(int fromCell, uint64_t& result) {
    const int cell = sweep_.firstOpen(fromCell);
    if (cell == problem_.cells) {
        result = 1;
        return false;
    }
    const bool remembered = sweep_.piecesLeft >= settings_.memoFromPieces;
    uint64_t hash = 0;
    if (remembered) {
        sweep_.buildKey(cell, key_.data());
        hash = MemoTable::hashKey(key_.data(), table_.keyWords());
        if (table_.find(hash, key_.data(), result)) return false;
    }
    Frame& f = frames_[depth_ + 1];
    f.remembered = remembered;
    f.cell = cell;
    f.begin = problem_.rowBegin[cell];
    f.end = problem_.rowBegin[cell + 1];
    f.hash = hash;
    f.total = 0;
    f.batched = false;
    return true;
}

// A new frame's rows, all at once (before any is descended into): each row that fits and
// walls off no pocket is placed, and the subproblem it leads to is settled at once when it is
// complete (one solution) or, after a prefetch of every such subproblem's bucket, found in the
// table; the rest are the frame's pending rows, descended into one after another. The lookups
// of a frame thus overlap instead of each waiting for memory in turn (the table is up to
// gigabytes: a lookup is a miss in every cache). A subproblem pending here that a sibling's
// subtree counts meanwhile (possible only when rows take different numbers of copies, in a
// Burnside term) is counted again: the count stays the same. False when cancelled or failed.
bool MemoCounter::batch(Frame& f, long long& attempts, long long& placements, long long& pockets) {
    const int span = problem_.span;
    const int words = table_.keyWords();
    const uint64_t* masks = problem_.mask.data();
    const int* shape0 = problem_.shape0.data();
    const int* take0 = problem_.take0.data();
    const int* shape1 = problem_.shape1.data();
    const int* take1 = problem_.take1.data();
    const int* blockEnd = problem_.blockEnd.data();
    const size_t first = pending_.size();
    for (int r = f.begin; r < f.end;) {
        ++attempts;
        if (sweep_.left[shape0[r]] < take0[r]) {
            r = blockEnd[r];  // no copy left: every row of this shape at this cell
            continue;
        }
        if (shape1[r] >= 0 && sweep_.left[shape1[r]] < take1[r]) {
            ++r;
            continue;
        }
        const uint64_t* m = masks + static_cast<size_t>(r) * span;
        const uint64_t* o = &sweep_.open[f.cell >> 6];
        bool fits = true;
        for (int j = 0; j < span; ++j) fits &= (o[j] & m[j]) == m[j];
        if (!fits) {
            ++r;
            continue;
        }
        ++placements;
        if (stop_->load(std::memory_order_relaxed)) {
            state_ = State::Cancelled;
            return false;
        }
        sweep_.place(r, f.cell);
        if (problem_.smallestPiece > 0 && sweep_.leavesPocket(r, f.cell)) {
            ++pockets;
        } else if (const int next = sweep_.firstOpen(f.cell); next == problem_.cells) {
            if (__builtin_add_overflow(f.total, uint64_t{1}, &f.total)) {
                fail("the count passes 2^64");
                return false;
            }
        } else {
            Pending p{r, next, 0, sweep_.piecesLeft >= settings_.memoFromPieces};
            if (p.remembered) {
                sweep_.buildKey(next, key_.data());
                p.hash = MemoTable::hashKey(key_.data(), words);
                table_.prefetch(p.hash);
            }
            pending_.push_back(p);
            pendingKeys_.insert(pendingKeys_.end(), key_.begin(), key_.end());
        }
        sweep_.unplace(r, f.cell);
        ++r;
    }
    size_t kept = first;
    for (size_t k = first; k < pending_.size(); ++k) {
        const uint64_t* key = &pendingKeys_[k * words];
        uint64_t count = 0;
        if (pending_[k].remembered && table_.find(pending_[k].hash, key, count)) {
            if (__builtin_add_overflow(f.total, count, &f.total)) {
                fail("the count passes 2^64");
                return false;
            }
            continue;
        }
        if (kept != k) {
            pending_[kept] = pending_[k];
            std::copy(key, key + words, &pendingKeys_[kept * words]);
        }
        ++kept;
    }
    pending_.resize(kept);
    pendingKeys_.resize(kept * words);
    f.pendBegin = f.pos = static_cast<int>(first);
    f.pendEnd = static_cast<int>(kept);
    f.batched = true;
    return true;
}

// The explicit stack: frames_[0..depth_] are the open subproblems, each at its first open
// cell; frames_[d].pos is the pending row being tried (placed, when frames_[d + 1] is open).
// Returns false when the slice is over (budget, cancel, failure).
bool MemoCounter::search(long long& budget) {
    if (layers_) return countLayers(budget);
    if (placements_) return countPlacements(budget);
    long long attempts = 0, placements = 0, pockets = 0;
    bool more = true;
    while (depth_ >= 0) {
        Frame& f = frames_[depth_];
        if (!f.batched && !batch(f, attempts, placements, pockets)) {
            more = false;
            break;
        }
        if (f.pos < f.pendEnd) {
            if (attempts >= budget) {
                more = false;
                break;
            }
            const Pending p = pending_[static_cast<size_t>(f.pos)];
            sweep_.place(p.row, f.cell);
            Frame& child = frames_[depth_ + 1];
            child.cell = p.next;
            child.begin = problem_.rowBegin[p.next];
            child.end = problem_.rowBegin[p.next + 1];
            child.remembered = p.remembered;
            child.hash = p.hash;
            child.total = 0;
            child.batched = false;
            ++depth_;
            continue;
        }
        // Every row at this cell tried: the subproblem's count is known.
        const uint64_t result = f.total;
        if (f.remembered) {
            // Its key is its parent's pending entry's (batch() made it); the root's is made again.
            const uint64_t* key = key_.data();
            if (depth_ > 0) key = &pendingKeys_[static_cast<size_t>(frames_[depth_ - 1].pos) * static_cast<size_t>(table_.keyWords())];
            else sweep_.buildKey(f.cell, key_.data());
            table_.store(f.hash, key, result);
        }
        pending_.resize(static_cast<size_t>(f.pendBegin));
        pendingKeys_.resize(static_cast<size_t>(f.pendBegin) * static_cast<size_t>(table_.keyWords()));
        if (--depth_ < 0) {
            finishTerm(result);
            break;
        }
        Frame& parent = frames_[depth_];
        sweep_.unplace(pending_[static_cast<size_t>(parent.pos)].row, parent.cell);
        if (__builtin_add_overflow(parent.total, result, &parent.total)) {
            fail("the count passes 2^64");
            more = false;
            break;
        }
        ++parent.pos;
    }
    budget -= attempts;
    stats_.attempts += attempts;
    stats_.placements += placements;
    stats_.pockets += pockets;
    return more && state_ == State::Running;
}

double MemoCounter::fractionDone() const {
    if (phase_ == kFinished) return 1;
    if (terms_.empty()) return 0;
    const double inTerm = layers_ ? layers_->fractionDone() : placements_ ? placements_->fractionDone() : treeFraction();
    return (static_cast<double>(term_) + inTerm) / static_cast<double>(terms_.size());
}

double MemoCounter::treeFraction() const {
    double fraction = 0, weight = 1;
    for (int d = 0; d <= depth_; ++d) {
        const Frame& f = frames_[d];
        const int n = f.pendEnd - f.pendBegin;  // (the rows settled at once weigh nothing)
        if (!f.batched || n <= 0) break;
        fraction += weight * (f.pos - f.pendBegin) / n;
        weight /= n;
    }
    return fraction;
}

}  // namespace polycube
