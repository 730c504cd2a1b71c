#include "play/play.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "common/text.hpp"
#include "geometry/geometry.hpp"
#include "memo/memo_choice.hpp"
#include "memo/memo_counter.hpp"
#include "solver/options.hpp"
#include "solver/solver.hpp"

namespace polycube {

namespace {

std::string pieceName(const PuzzleDef& def, const PieceInstanceRef& ref) {
    const PieceDef& p = def.pieces[ref.defIndex];
    std::string name = "piece " + quoteText(p.name);
    if (p.count > 1) name += " (copy " + std::to_string(ref.copy + 1) + ")";
    return name;
}

Vec3 boxPos(const PuzzleDef& def, int index) {
    return {index % def.xDim, (index / def.xDim) % def.yDim, index / (def.xDim * def.yDim)};
}

std::string cellText(const PuzzleDef& def, int index) {
    const Vec3 p = boxPos(def, index);
    return "x=" + std::to_string(p.x) + ", y=" + std::to_string(p.y) + ", z=" + std::to_string(p.z);
}

}  // namespace

Status checkPlacements(const PuzzleDef& def, const std::vector<Placement>& placed) {
    const std::vector<PieceInstanceRef> instances = expandInstances(def);
    const int box = def.boxVolume();
    const int n = static_cast<int>(instances.size());
    // owner of each box cell: -1 open, -2 a stationary piece's, else the placement's number
    std::vector<int> owner(static_cast<size_t>(box), -1);
    for (const PieceDef& p : def.pieces) {
        if (!p.stationary) continue;
        for (const Vec3& c : p.cells) owner[static_cast<size_t>(c.x + def.xDim * (c.y + def.yDim * c.z))] = -2;
    }
    const std::vector<Rotation>& rotations = def.oneSide ? zRotations() : properRotations();
    std::map<int, Cells> canonical;  // by piece definition, computed when first needed
    std::vector<int> placedAt(static_cast<size_t>(n), -1);
    for (size_t k = 0; k < placed.size(); ++k) {
        const Placement& pl = placed[k];
        const std::string where = "placement " + std::to_string(k + 1);
        if (pl.instance < 0 || pl.instance >= n)
            return Status::error(where + ": there is no piece number " + std::to_string(pl.instance) + " (the puzzle has " +
                                 std::to_string(n) + ")");
        const PieceInstanceRef ref = instances[static_cast<size_t>(pl.instance)];
        const PieceDef& piece = def.pieces[static_cast<size_t>(ref.defIndex)];
        const std::string what = where + " (" + pieceName(def, ref) + ")";
        if (piece.stationary) return Status::error(what + ": the piece is stationary, the puzzle places it");
        if (placedAt[static_cast<size_t>(pl.instance)] >= 0)
            return Status::error(what + ": the piece is placed twice (placement " +
                                 std::to_string(placedAt[static_cast<size_t>(pl.instance)] + 1) + " too)");
        placedAt[static_cast<size_t>(pl.instance)] = static_cast<int>(k);
        if (pl.cells.size() != piece.cells.size())
            return Status::error(what + ": " + std::to_string(pl.cells.size()) + " cells given, the piece has " +
                                 std::to_string(piece.cells.size()));
        Cells cells;
        for (int c : pl.cells) {
            if (c < 0 || c >= box)
                return Status::error(what + ": cell " + std::to_string(c) + " is outside the " + std::to_string(def.xDim) +
                                     "x" + std::to_string(def.yDim) + "x" + std::to_string(def.zDim) + " box");
            const int o = owner[static_cast<size_t>(c)];
            if (o == -2) return Status::error(what + ": the cell at " + cellText(def, c) + " is taken by the puzzle itself");
            if (o == static_cast<int>(k)) return Status::error(what + ": the cell at " + cellText(def, c) + " is given twice");
            if (o >= 0)
                return Status::error(what + ": the cell at " + cellText(def, c) + " is taken by placement " +
                                     std::to_string(o + 1) + " (" +
                                     pieceName(def, instances[static_cast<size_t>(placed[static_cast<size_t>(o)].instance)]) + ")");
            owner[static_cast<size_t>(c)] = static_cast<int>(k);
            cells.push_back(boxPos(def, c));
        }
        auto it = canonical.find(ref.defIndex);
        if (it == canonical.end()) it = canonical.emplace(ref.defIndex, canonicalForm(piece.cells, rotations)).first;
        if (canonicalForm(cells, rotations) != it->second)
            return Status::error(what + ": its cells are not the piece's shape" +
                                 (def.oneSide ? " turned in the plane (one-sided pieces are not turned over)" : ""));
    }
    return Status::success();
}

std::vector<Placement> placementsOfGrid(const PuzzleDef& def, const std::vector<int>& grid) {
    const std::vector<PieceInstanceRef> instances = expandInstances(def);
    std::vector<Placement> out(instances.size());
    for (size_t i = 0; i < instances.size(); ++i) out[i].instance = static_cast<int>(i);
    for (size_t b = 0; b < grid.size(); ++b) {
        const int i = grid[b];
        if (i >= 0 && i < static_cast<int>(out.size())) out[static_cast<size_t>(i)].cells.push_back(static_cast<int>(b));
    }
    std::vector<Placement> mobile;
    for (size_t i = 0; i < instances.size(); ++i)
        if (!def.pieces[static_cast<size_t>(instances[i].defIndex)].stationary) mobile.push_back(std::move(out[i]));
    return mobile;
}

Result<Remainder> remainderOf(const PuzzleDef& def, const std::vector<Placement>& placed) {
    Status ok = checkPlacements(def, placed);
    if (!ok.ok) return Result<Remainder>::error(ok);
    const std::vector<PieceInstanceRef> instances = expandInstances(def);
    std::vector<const Placement*> placementOf(instances.size(), nullptr);
    for (const Placement& p : placed) placementOf[static_cast<size_t>(p.instance)] = &p;

    Remainder r;
    r.def = def;
    r.def.pieces.clear();
    int first = 0;  // the first instance of piece definition d
    for (size_t d = 0; d < def.pieces.size(); ++d) {
        const PieceDef& piece = def.pieces[d];
        if (piece.stationary) {
            r.def.pieces.push_back(piece);
            for (int c = 0; c < piece.count; ++c) r.instanceOf.push_back(first + c);
        } else {
            std::vector<int> left, taken;
            for (int c = 0; c < piece.count; ++c) (placementOf[static_cast<size_t>(first + c)] ? taken : left).push_back(first + c);
            if (!left.empty()) {
                PieceDef rest = piece;
                rest.count = static_cast<int>(left.size());
                r.def.pieces.push_back(std::move(rest));
                r.instanceOf.insert(r.instanceOf.end(), left.begin(), left.end());
                r.mobileLeft += rest.count;
            }
            for (int i : taken) {
                // (a name no definition can give, so that it never meets another piece's)
                PieceDef fixed;
                fixed.name = "\x01placed " + piece.name + " " + std::to_string(i);
                fixed.stationary = true;
                fixed.line = piece.line;
                for (int c : placementOf[static_cast<size_t>(i)]->cells) fixed.cells.push_back(boxPos(def, c));
                std::sort(fixed.cells.begin(), fixed.cells.end());
                r.def.pieces.push_back(std::move(fixed));
                r.instanceOf.push_back(i);
            }
        }
        first += piece.count;
    }
    return Result<Remainder>::success(std::move(r));
}

PlayQuery::~PlayQuery() = default;

Result<std::unique_ptr<PlayQuery>> PlayQuery::begin(const PuzzleDef& def, std::vector<Placement> placed, Kind kind,
                                                     long long limit, int fixed, bool exact, int piece) {
    using R = Result<std::unique_ptr<PlayQuery>>;
    Status ok = checkPlacements(def, placed);
    if (!ok.ok) return R::error(ok);
    std::unique_ptr<PlayQuery> q(new PlayQuery());
    q->def_ = def;
    q->placed_ = std::move(placed);
    q->kind_ = kind;
    q->wantExact_ = exact && kind == Kind::Count;
    q->limit_ = kind == Kind::Count && limit > 0 ? std::min(limit, std::numeric_limits<long long>::max() - 1) : 0;
    // Count: one completion more than the limit says "more than limit"; Hint and Wrong need one.
    const long long stopAt = kind == Kind::Count ? (q->limit_ > 0 ? q->limit_ + 1 : 0) : 1;
    q->fixed_ = std::max(0, std::min(fixed, static_cast<int>(q->placed_.size())));
    q->checksPlanned_ = kind == Kind::Wrong ? 1 + static_cast<int>(q->placed_.size()) - q->fixed_ : 1;
    q->piece_ = piece;
    Status started = kind == Kind::Where ? q->startWhere() : q->startSearch(q->placed_, stopAt);
    if (!started.ok) return R::error(started);
    return R::success(std::move(q));
}

Status PlayQuery::startSearch(const std::vector<Placement>& placed, long long maxSolutions) {
    Result<Remainder> r = remainderOf(def_, placed);
    if (!r.ok()) return r.status;
    rem_ = std::make_unique<Remainder>(std::move(r.value));
    found_ = 0;
    first_.clear();
    solver_.reset();
    if (rem_->mobileLeft == 0) {
        // every piece is placed: the packing is its own (only) completion, no search
        first_.assign(static_cast<size_t>(def_.boxVolume()), -1);
        int inst = 0;
        for (const PieceDef& p : rem_->def.pieces)
            for (int c = 0; c < p.count; ++c, ++inst)
                for (const Vec3& v : p.cells) first_[static_cast<size_t>(v.x + def_.xDim * (v.y + def_.yDim * v.z))] = inst;
        found_ = 1;
        return Status::success();
    }
    SolverOptions options;  // the automatic configuration; no -r, -u or -M (see the header)
    options.maxSolutions = maxSolutions;
    solver_ = Solver::begin(rem_->def, options);
    solver_->setSolutionHandler([this](const Solution& s) {
        if (found_++ == 0) first_ = s.grid;
    });
    return Status::success();
}

// An exact count past its limit: the memoized counter's setup builds the remainder's model, the
// bound on it decides whether the count goes on (the answer is then the whole count) or stays
// "more than the limit".
void PlayQuery::stepMemo(long long budget) {
    const MemoCounter::State st = memo_->step(budget);
    if (st == MemoCounter::State::Running && !memoChecked_ && memo_->ready()) {
        memoChecked_ = true;
        if (memoSubproblemBound(memo_->model()) <= kPlayMemoSubproblems) return;
    } else if (st == MemoCounter::State::Running) {
        return;
    }
    if (st == MemoCounter::State::Cancelled) {
        state_ = State::Cancelled;
        return;
    }
    if (st == MemoCounter::State::Done) {
        completions_ = static_cast<long long>(std::min<uint64_t>(memo_->count(), std::numeric_limits<long long>::max()));
        exact_ = true;
    }
    // (too many subproblems, or the memo failed, e.g. for memory: "more than the limit" stands)
    placementsBefore_ += memo_->stats().attempts;
    memo_.reset();
    state_ = State::Done;
}

PlayQuery::State PlayQuery::step(long long budget, double maxSeconds) {
    if (state_ != State::Running) return state_;
    if (cancelled_.load(std::memory_order_relaxed)) {
        if (solver_) solver_->cancel();
        if (memo_) memo_->cancel();
        state_ = State::Cancelled;
        return state_;
    }
    if (kind_ == Kind::Where) {
        stepWhere(budget);
        return state_;
    }
    if (memo_) {
        stepMemo(budget);
        return state_;
    }
    if (!solver_) {  // answered without a search
        finishSearch();
        return state_;
    }
    switch (solver_->step(budget, maxSeconds)) {
        case Solver::State::Running: break;
        case Solver::State::Cancelled: state_ = State::Cancelled; break;
        case Solver::State::Failed:
            state_ = State::Failed;
            error_ = solver_->error();
            break;
        case Solver::State::Done:
        case Solver::State::LimitReached: finishSearch(); break;
    }
    return state_;
}

void PlayQuery::cancel() {
    cancelled_.store(true, std::memory_order_relaxed);
    if (state_ == State::Running) state_ = State::Cancelled;
}

void PlayQuery::finishSearch() {
    ++checks_;
    const bool found = found_ > 0;
    if (kind_ != Kind::Wrong || (phase_ == 0 && found)) {
        completions_ = kind_ == Kind::Wrong ? 1 : found_;
        capped_ = limit_ > 0 && found_ > limit_;
        completable_ = found;
        if (found) {
            completion_.resize(first_.size());
            for (size_t b = 0; b < first_.size(); ++b)
                completion_[b] = first_[b] >= 0 ? rem_->instanceOf[static_cast<size_t>(first_[b])] : -1;
            chooseHint(first_);
        }
    }
    if (solver_) placementsBefore_ += solver_->stats().totalAttempts();
    solver_.reset();
    if (kind_ == Kind::Count && capped_ && wantExact_) {
        memo_ = MemoCounter::begin(rem_->def, [] {
            MemoSettings settings;
            settings.maxTableBytes = kPlayMemoTableBytes;
            return settings;
        }());
        memoChecked_ = false;
        return;  // (Running: stepMemo goes on)
    }
    if (kind_ != Kind::Wrong) {
        state_ = State::Done;
        return;
    }
    const int n = static_cast<int>(placed_.size());
    if (phase_ == 0) {
        if (found) {
            state_ = State::Done;
            return;
        }
        phase_ = 1;
        candidate_ = n - 1;
    } else if (phase_ == 1) {
        if (found) {
            culprit_ = candidate_;
            state_ = State::Done;
            return;
        }
        if (--candidate_ < fixed_) {
            phase_ = 2;
            candidate_ = n - 2;  // (n - 1 placements: the newest one taken away, tried in phase 1)
            checksPlanned_ += std::max(0, n - 2 - fixed_);
        }
    } else if (found) {
        keep_ = candidate_;
        state_ = State::Done;
        return;
    } else {
        --candidate_;
    }
    nextWrongCheck();
}

void PlayQuery::nextWrongCheck() {
    if ((phase_ == 1 && candidate_ < fixed_) || (phase_ == 2 && candidate_ < fixed_ + 1)) {
        keep_ = fixed_;  // none of the pieces placed can stay (or the puzzle itself has no solution)
        state_ = State::Done;
        return;
    }
    std::vector<Placement> subset;
    if (phase_ == 1) {
        subset = placed_;
        subset.erase(subset.begin() + candidate_);
    } else {
        subset.assign(placed_.begin(), placed_.begin() + candidate_);
    }
    Status st = startSearch(subset, 1);
    if (!st.ok) {  // (a subset of a checked packing is one too)
        state_ = State::Failed;
        error_ = st.message;
    }
}

void PlayQuery::chooseHint(const std::vector<int>& remainderGrid) {
    hint_ = Placement{};
    if (!solver_ || !solver_->ready()) return;  // every piece placed: nothing to hint
    const Model& m = solver_->model();
    std::vector<int> cover(static_cast<size_t>(m.openCellCount()), 0);
    for (const Image& image : m.images)
        for (int c : image.cells) ++cover[static_cast<size_t>(c)];
    int best = -1;
    for (int c = 0; c < m.openCellCount(); ++c) {
        // open cells are numbered in box order, so the first of the least covered is the lowest box index
        if (best < 0 || cover[static_cast<size_t>(c)] < cover[static_cast<size_t>(best)]) best = c;
    }
    if (best < 0) return;
    const int piece = remainderGrid[static_cast<size_t>(m.boxOfOpenCell[static_cast<size_t>(best)])];
    if (piece < 0) return;
    hint_.instance = rem_->instanceOf[static_cast<size_t>(piece)];
    for (size_t b = 0; b < remainderGrid.size(); ++b)
        if (remainderGrid[b] == piece) hint_.cells.push_back(static_cast<int>(b));
}

long long PlayQuery::placements() const {
    return placementsBefore_ + (solver_ ? solver_->stats().totalAttempts() : 0) + (memo_ ? memo_->stats().attempts : 0);
}

double PlayQuery::fractionDone() const {
    if (state_ == State::Done) return 1;
    const double current = solver_ && solver_->ready() ? solver_->fractionDone() : memo_ ? memo_->fractionDone() : 0;
    return std::min(1.0, (checks_ + current) / std::max(1, checksPlanned_));
}

std::string PlayQuery::json() const {
    using nlohmann::json;
    static const char* const kinds[] = {"count", "hint", "wrong", "where"};
    static const char* const states[] = {"running", "done", "cancelled", "failed"};
    json j;
    j["kind"] = kinds[static_cast<int>(kind_)];
    j["state"] = states[static_cast<int>(state_)];
    j["placed"] = placed_.size();
    j["placements"] = placements();
    j["fractionDone"] = fractionDone();
    if (state_ == State::Failed) j["error"] = error_;
    if (kind_ == Kind::Where) {
        j["piece"] = piece_;
        if (state_ != State::Done) return j.dump();
        j["completions"] = completions_;
        json places = json::array();
        for (const Place& place : places_) places.push_back({{"cells", place.cells}, {"completions", place.completions}});
        j["places"] = std::move(places);
        return j.dump();
    }
    if (kind_ == Kind::Wrong) {
        j["fixed"] = fixed_;
        j["checks"] = checks_;
        j["checksPlanned"] = checksPlanned_;
    } else {
        j["completionsSoFar"] = found_;  // of the search running (Count: the count so far)
    }
    if (state_ != State::Done) return j.dump();
    if (kind_ == Kind::Wrong) {
        j["completable"] = completable_;
        j["culprit"] = culprit_;
        j["culpritInstance"] = culprit_ >= 0 ? placed_[static_cast<size_t>(culprit_)].instance : -1;
        j["keep"] = keep_;
    } else {
        j["completions"] = completions_;
        j["capped"] = capped_;
        j["limit"] = limit_;
        j["exact"] = exact_;  // counted whole by remembering subproblems
    }
    j["completion"] = completion_.empty() ? json(nullptr) : json(completion_);
    j["hint"] = hint_.instance < 0 ? json(nullptr) : json{{"instance", hint_.instance}, {"cells", hint_.cells}};
    return j.dump();
}

}  // namespace polycube
