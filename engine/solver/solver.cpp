#include "solver/solver.hpp"

#include <algorithm>
#include <climits>
#include <numeric>
#include <sstream>

namespace polycube {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Dense ranks of keys (equal keys share a rank): DLX compares ranks as integers.
std::vector<int> denseRanks(const std::vector<double>& keys) {
    std::vector<double> sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    std::vector<int> out(keys.size());
    for (size_t i = 0; i < keys.size(); ++i)
        out[i] = static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), keys[i]) - sorted.begin());
    return out;
}

}  // namespace

long long SolverStats::totalAttempts() const { return std::accumulate(attempts.begin(), attempts.end(), 0LL); }
long long SolverStats::totalFits() const { return std::accumulate(fits.begin(), fits.end(), 0LL); }

Result<std::unique_ptr<Solver>> Solver::create(const PuzzleDef& def, const SolverOptions& options) {
    std::unique_ptr<Solver> s(new Solver());
    s->def_ = def;
    s->options_ = options;
    Status st = s->init();
    if (!st.ok) return Result<std::unique_ptr<Solver>>::error(st);
    return Result<std::unique_ptr<Solver>>::success(std::move(s));
}

Status Solver::init() {
    const auto t0 = Clock::now();
    Result<Model> built = Model::build(def_);
    if (!built.ok()) return built.status;
    model_ = std::move(built.value);
    const int pieces = model_.mobileCount();

    // Symmetries are needed by -r, -u and -M.
    const bool wantSymmetry = options_.redundancy != Redundancy::Off || options_.unique || options_.mirror;
    if (options_.mirror && !mirrorClosed(model_))
        return Status::error("-M: the pieces are not closed under mirroring (some piece's mirror image is not in the set), "
                             "so mirror images of solutions are not solutions");
    if (wantSymmetry) symmetries_ = puzzleSymmetries(model_, options_.mirror);

    std::vector<char> enabled(model_.images.size(), 1);
    if (options_.redundancy != Redundancy::Off) {
        int forced = -1;
        if (options_.redundancy == Redundancy::Named) {
            for (const PieceInstance& inst : model_.instances)
                if (inst.name == options_.redundancyPiece) {
                    if (inst.stationary)
                        return Status::error("-r " + inst.name + ": that piece is stationary; name a mobile piece");
                    forced = inst.shape;
                }
            if (forced < 0) return Status::error("-r: no piece named '" + options_.redundancyPiece + "' in this puzzle");
        }
        Result<RedundancyPlan> plan = planRedundancyFilter(model_, symmetries_, forced);
        if (!plan.ok()) return Status::error("-r: " + plan.status.message);
        plan_ = std::move(plan.value);
        planActive_ = true;
        redundancyText_ = plan_.description;
        for (int i : plan_.removedImages) enabled[i] = 0;
    }
    enabledImages_ = static_cast<int>(std::count(enabled.begin(), enabled.end(), 1));

    if (Status st = configureAlgorithms(); !st.ok) return st;
    Result<HeuristicSchedule> sched = parseSchedule(orderText_, std::max(pieces, 1));
    if (!sched.ok()) return sched.status;
    schedule_ = std::move(sched.value);
    ranks_.reserve(schedule_.entries.size());
    for (const auto& e : schedule_.entries) {
        std::vector<int> rank(model_.openCellCount() + model_.shapeCount(), 0);
        if (e.heuristic.fixedOrder()) {
            std::vector<int> cells = denseRanks(cellKeys(e.heuristic, model_));
            std::copy(cells.begin(), cells.end(), rank.begin());
            std::fill(rank.begin() + model_.openCellCount(), rank.end(), INT_MAX);
        }
        ranks_.push_back(std::move(rank));
    }
    rankAt_.assign(pieces + 1, nullptr);
    for (int rem = 0; rem <= pieces; ++rem) {
        size_t idx = 0;
        for (size_t k = 0; k < schedule_.entries.size(); ++k)
            if (rem <= schedule_.entries[k].threshold) idx = k;
        rankAt_[rem] = &ranks_[idx];
    }

    // Whole-puzzle parity (first seed article: the 35 hexominoes can never fill a rectangle).
    parity_.init(model_);
    {
        std::vector<int> all = parity_.initialCounts();
        if (!parity_.achievable(all.data(), model_.openParity()))
            impossible_ = "impossible by parity: the holes have parity " + std::to_string(model_.openParity()) +
                          ", which no placement of the pieces can match";
    }

    dlx_.build(model_, enabled);
    if (filaAt_ > 0) {
        // Largest region FILA can be handed: the box minus the smallest pieces placed first.
        std::vector<int> sizes;
        for (const Shape& sh : model_.shapes) sizes.insert(sizes.end(), sh.count, sh.size);
        std::sort(sizes.begin(), sizes.end());
        int cells = model_.openCellCount();
        for (int k = 0; k < pieces - filaAt_ && k < static_cast<int>(sizes.size()); ++k) cells -= sizes[k];
        FilaSettings fs;
        fs.schedule = schedule_;
        fs.nof = nof_;
        fs.attempts = &stats_.attempts;
        fs.fits = &stats_.fits;
        fs.cancel = &cancelRequested_;
        fs.onSolution = [this](const int* images, int count) {
            std::copy(images, images + count, placed_.begin() + depth_);
            reportSolution();
            return !(options_.maxSolutions > 0 && stats_.solutions >= options_.maxSolutions);
        };
        fila_ = makeFila(model_, std::move(fs), std::min(cells, kFilaMaxCells));
    }
    frames_.assign(pieces + 1, Frame{});
    placed_.assign(pieces, -1);
    stats_.attempts.assign(pieces + 1, 0);
    stats_.fits.assign(pieces + 1, 0);
    rng_.seed(options_.monteCarlo.seed);
    depth_ = 0;
    if (options_.monteCarlo.trials > 0) beginTrial();
    if (!impossible_.empty()) state_ = State::Done;
    stats_.setupSeconds = secondsSince(t0);
    return Status::success();
}

bool Solver::beginTrial() {
    // Monte Carlo (first seed article, Figure 9): each trial searches with a random row order.
    dlx_.shuffle(rng_);
    trialEnding_ = false;
    depth_ = 0;
    frames_[0] = Frame{};
    return true;
}

Status Solver::configureAlgorithms() {
    const int pieces = model_.mobileCount();
    // Constraint options that are parsed but not wired into the search yet are refused
    // rather than silently ignored.
    if (options_.volumeBacktrack > 0) return Status::error("-v (volume backtrack trigger) is not available yet");
    if (options_.volumeFilter != kFilterOff) return Status::error("-V (volume filter) is not available yet");
    if (options_.fitFilter != kFilterOff) return Status::error("-F (fit filter) is not available yet");
    if (options_.parityFilter != kFilterOff) return Status::error("-P (parity filter) is not available yet");
    if (options_.parityBacktrack) return Status::error("-p (parity backtrack trigger) is not available yet");
    orderText_ = options_.order;
    nof_ = options_.nof;
    filaAt_ = options_.fila;
    // The first seed article's algorithm thresholds: de Bruijn, MCH and EMCH are FILA with
    // the f, s and e heuristics (FILA article, "selectFila").
    std::string legacy;
    auto addLegacy = [&](int at, const char* h) {
        if (at <= 0) return;
        filaAt_ = std::max(filaAt_, at);
        legacy += std::string(legacy.empty() ? "" : ":") + h + "=" + std::to_string(at);
    };
    addLegacy(options_.mch, "s");
    addLegacy(options_.emch, "e");
    addLegacy(options_.bruijn, "f");
    if (!legacy.empty()) orderText_ = orderText_.empty() ? legacy : orderText_ + ":" + legacy;

    if (options_.autoTune && pieces >= 2 && options_.trace == 0) {
        // Default configuration (FILA article, Table 1): DLX places the first piece (so the
        // piece constrained by -r is placed first), then FILA with NOF. 3-D puzzles use the
        // E heuristic, switching to F for the last 3 pieces; flat puzzles use F.
        const bool flat = model_.zDim == 1 || model_.yDim == 1 || model_.xDim == 1;
        filaAt_ = pieces - 1;
        nof_ = true;
        orderText_ = flat ? "s:f=" + std::to_string(pieces - 1)
                          : "s:e=" + std::to_string(pieces - 1) + ":f=" + std::to_string(std::min(3, pieces - 1));
        autoNote_ = "automatic";
    }
    if (filaAt_ > pieces) filaAt_ = pieces;
    return Status::success();
}

void Solver::startFila() {
    filaInput_.openCells.clear();
    for (int c = dlx_.firstColumn(); c != dlx_.root() && c < dlx_.cellColumns(); c = dlx_.nextColumn(c))
        filaInput_.openCells.push_back(c);
    filaInput_.images.clear();
    filaInput_.copiesLeft.assign(model_.shapeCount(), 0);
    for (int s = 0; s < model_.shapeCount(); ++s) {
        filaInput_.copiesLeft[s] = dlx_.remaining(dlx_.columnOfShape(s));
        dlx_.forEachLiveRowOfShape(s, [&](int row) { filaInput_.images.push_back(dlx_.imageOfRow(row)); });
    }
    filaInput_.pieces = model_.mobileCount() - depth_;
    fila_->start(filaInput_);
}

std::string Solver::configurationDescription() const {
    std::ostringstream os;
    os << (autoNote_.empty() ? "" : autoNote_ + ": ") << "DLX";
    if (fila_) os << ", FILA when " << filaAt_ << " pieces remain" << (nof_ ? " with NOF" : "");
    os << ", heuristics " << schedule_.describe();
    return os.str();
}

std::vector<int> Solver::gridOf(const std::vector<int>& images) const {
    std::vector<int> grid(model_.boxCellCount(), -1);
    for (int b = 0; b < model_.boxCellCount(); ++b) grid[b] = model_.stationaryOfBox[b];
    // Copies of a shape get that shape's instances in order of their first cell, so output
    // does not depend on the order the search placed them.
    std::vector<int> order(images.begin(), images.end());
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return model_.images[a].cells.front() < model_.images[b].cells.front();
    });
    std::vector<int> used(model_.shapeCount(), 0);
    for (int img : order) {
        const Image& image = model_.images[img];
        int instance = model_.shapes[image.shape].instances[used[image.shape]++];
        for (int c : image.cells) grid[model_.boxOfOpenCell[c]] = instance;
    }
    return grid;
}

void Solver::reportSolution() {
    stats_.found++;
    if (planActive_ && !plan_.accept(model_, symmetries_, placed_, coder_)) {
        stats_.redundant++;
        return;
    }
    // With the redundancy filter every solution found is already unique; -u then only
    // matters without -r.
    if (options_.unique && !planActive_ && !uniqueFilter_.insert(placed_, symmetries_, coder_)) {
        stats_.redundant++;
        return;
    }
    stats_.solutions++;
    if (onSolution_) {
        scratch_.number = stats_.solutions;
        scratch_.images = placed_;
        scratch_.grid = gridOf(placed_);
        onSolution_(scratch_);
    }
}

Solver::State Solver::step(long long budget) {
    if (state_ != State::Running) return state_;
    const auto t0 = Clock::now();
    const int pieces = model_.mobileCount();
    const bool monteCarlo = options_.monteCarlo.trials > 0;
    const bool tracing = options_.trace != 0 && onTrace_;
    auto traceWanted = [&](int remaining) {
        return options_.trace > 0 ? remaining >= options_.trace : remaining == -options_.trace;
    };

    while (true) {
        if (depth_ < 0) {
            // The whole tree (or one Monte Carlo trial) is exhausted.
            if (monteCarlo && ++stats_.monteCarloTrials < options_.monteCarlo.trials) {
                beginTrial();
                continue;
            }
            state_ = State::Done;
            break;
        }
        Frame& f = frames_[depth_];
        const int remaining = pieces - depth_;
        if (f.stage == kEnter) {
            if (remaining == 0) {
                reportSolution();
                --depth_;
                if (options_.maxSolutions > 0 && stats_.solutions >= options_.maxSolutions) {
                    state_ = State::LimitReached;
                    break;
                }
                continue;
            }
            if (fila_ && remaining <= filaAt_ && model_.openCellCount() - placedVolume_ <= fila_->capacity() &&
                (!monteCarlo || remaining < options_.monteCarlo.range)) {
                startFila();
                f.stage = kFila;
                continue;
            }
            const int col = dlx_.chooseColumn(*rankAt_[remaining]);
            if (col < 0) {
                --depth_;
                continue;
            }
            dlx_.coverChosen(col);
            f.col = col;
            f.node = dlx_.down(col);
            f.stage = kNext;
        } else if (f.stage == kFila) {
            FilaEngine::Run r = fila_->run(budget);
            if (r == FilaEngine::Run::Exhausted) {
                --depth_;
                continue;
            }
            if (r == FilaEngine::Run::Stopped) state_ = State::LimitReached;
            break;
        } else if (f.stage == kNext) {
            if (f.node == f.col || trialEnding_) {
                dlx_.uncoverChosen(f.col);
                --depth_;
                continue;
            }
            if (budget <= 0 || cancelRequested_.load(std::memory_order_relaxed)) break;
            --budget;
            dlx_.selectRow(f.node);
            const int image = dlx_.imageOfRow(dlx_.rowOf(f.node));
            placed_[depth_] = image;
            placedVolume_ += model_.shapes[model_.images[image].shape].size;
            stats_.attempts[remaining]++;
            stats_.fits[remaining]++;
            if (tracing && traceWanted(remaining)) onTrace_({1, remaining, -1, image});
            f.stage = kReturn;
            ++depth_;
            frames_[depth_].stage = kEnter;
        } else {  // kReturn
            dlx_.unselectRow(f.node);
            placedVolume_ -= model_.shapes[model_.images[placed_[depth_]].shape].size;
            if (tracing && traceWanted(remaining)) onTrace_({2, remaining, -1, placed_[depth_]});
            // A trial ends when a piece is removed and `range` pieces remain to be placed.
            if (monteCarlo && remaining == options_.monteCarlo.range) trialEnding_ = true;
            f.node = dlx_.down(f.node);
            f.stage = kNext;
        }
    }
    if (state_ == State::Running && cancelRequested_.load(std::memory_order_relaxed)) state_ = State::Cancelled;
    stats_.searchSeconds += secondsSince(t0);
    return state_;
}

}  // namespace polycube
