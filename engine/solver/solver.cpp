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

    Result<HeuristicSchedule> sched = parseSchedule(options_.order, std::max(pieces, 1));
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

std::string Solver::configurationDescription() const {
    std::ostringstream os;
    os << "DLX, heuristics " << schedule_.describe();
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
            const int col = dlx_.chooseColumn(*rankAt_[remaining]);
            if (col < 0) {
                --depth_;
                continue;
            }
            dlx_.coverChosen(col);
            f.col = col;
            f.node = dlx_.down(col);
            f.stage = kNext;
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
            stats_.attempts[remaining]++;
            stats_.fits[remaining]++;
            if (tracing && traceWanted(remaining)) onTrace_({1, remaining, -1, image});
            f.stage = kReturn;
            ++depth_;
            frames_[depth_].stage = kEnter;
        } else {  // kReturn
            dlx_.unselectRow(f.node);
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
