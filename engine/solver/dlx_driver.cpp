// The DLX driver (solver/dlx_driver.hpp): the search's loop, FILA's start, Monte Carlo trials,
// solutions and trace events. The hot loop (searchLoop, place, unplace) lives in this one
// file so that the compiler sees it whole; the parts' per-node calls are inline in their
// headers.
#include "solver/dlx_driver.hpp"

#include <algorithm>
#include <climits>

#include "solver/fila_input.hpp"

namespace polycube {

DlxDriver::DlxDriver(const Parts& parts)
    : model_(parts.model),
      symmetries_(parts.symmetries),
      dlx_(parts.dlx),
      filters_(parts.filters),
      fila_(parts.fila),
      probes_(parts.probes),
      guide_(parts.guide),
      stats_(parts.stats),
      cancel_(parts.cancel),
      options_(parts.options),
      config_(parts.config) {}

std::function<bool(const int*, int)> DlxDriver::filaSolutionHandler() {
    return [this](const int* images, int count) {
        // FILA's placements begin at the level it started on, or at the root it followed.
        std::copy(images, images + count, placed_.begin() + depth_ - filaFollowed_);
        reportSolution();
        return state_ == SearchState::Running && !(options_.maxSolutions > 0 && stats_.solutions >= options_.maxSolutions);
    };
}

std::function<void(int, int, int, int)> DlxDriver::filaTraceHandler() {
    return [this](int op, int remaining, int a, int b) {
        if (onTrace_) onTrace_({op, remaining, a, b});
    };
}

void DlxDriver::fail(std::string message) {
    error_ = std::move(message);
    state_ = SearchState::Failed;
}

bool DlxDriver::atRest() const {
    const bool fresh = state_ == SearchState::Running && depth_ == 0 && frames_[0].stage == Frame::kEnter;
    const bool finished = state_ == SearchState::Done && depth_ < 0;
    return fresh || finished;
}

void DlxDriver::restart() {
    filaReuse_ = true;
    if (fila_) fila_->reuseTables(true);
    state_ = SearchState::Running;
    depth_ = 0;
    frames_[0] = Frame{};
}

SubproblemGuide::Position DlxDriver::position() const {
    return SubproblemGuide::Position{frames_, depth_, dlx_, fila_.get(), placed_, filaFollowed_, model_.mobileCount()};
}

ConfigurationProbes::Context DlxDriver::probeContext() {
    return ConfigurationProbes::Context{model_, *fila_, filters_.holesParity(), filters_.parityLeft(), filaReuse_};
}

std::vector<int> DlxDriver::gridOf(const std::vector<int>& images) const { return model_.gridOf(images); }

void DlxDriver::beginTrial() {
    // Monte Carlo (first seed article, Figure 9): each trial searches with a random row order.
    dlx_.shuffle(rng_);
    filaRefusedBelow_ = INT_MAX;
    trialEnding_ = false;
    depth_ = 0;
    frames_[0] = Frame{};
}

void DlxDriver::begin() {
    const int pieces = model_.mobileCount();
    frames_.assign(pieces + 1, Frame{});
    traceCandidates_.assign(pieces + 1, 0);
    placed_.assign(pieces, -1);
    filled_.assign((model_.openCellCount() + 63) / 64, 0);
    copiesPlaced_.assign(model_.shapeCount(), 0);
    rankAt_.assign(pieces + 1, nullptr);
    for (int rem = 0; rem <= pieces; ++rem) rankAt_[rem] = &config_.ranks[config_.rankAt[rem]];
    filaFromRoot_ = config_.filaFromRoot;
    filaReuse_ = config_.filaFromRoot;  // the setup made FILA keep its tables for the root's images
    stats_.attempts.assign(pieces + 1, 0);
    stats_.fits.assign(pieces + 1, 0);
    rng_.seed(options_.monteCarlo.seed);
    depth_ = 0;
    if (options_.monteCarlo.trials > 0) beginTrial();
    if (!config_.impossible.empty()) state_ = SearchState::Done;  // proved impossible: nothing to search
}

bool DlxDriver::startFila(long long& budget) {
    filaFollowed_ = 0;
    if (filaFromRoot_ && depth_ == 1) {
        budget -= static_cast<long long>(rootFilaInput_.images.size() / 64) + 1;  // comparing the input
        if (fila_->start(rootFilaInput_)) {
            filaFollowed_ = 1;
            fila_->follow(placed_.data(), 1);  // a live row of the root: it fits
            return true;
        }
        filaFromRoot_ = false;  // the root's region passes FILA's memory limit: start on the smaller one
    }
    fillFilaInput(filaInput_, dlx_, model_, model_.mobileCount() - depth_, filters_.holesParity(), filters_.parityLeft());
    budget -= static_cast<long long>(filaInput_.images.size() / 16) + 1;  // building FILA's lists
    return fila_->start(filaInput_);
}

void DlxDriver::reportSolution() {
    stats_.found++;
    const bool tracing = options_.trace != 0 && onTrace_;
    if (config_.planActive && !config_.plan.accept(model_, symmetries_, placed_, coder_)) {
        stats_.redundant++;
        if (tracing) onTrace_({trace::kSolution, 0, 0, static_cast<int>(stats_.found)});
        return;
    }
    // With the redundancy filter every solution found is already unique; -u then only
    // matters without -r.
    if (options_.unique && !config_.planActive) {
        const UniqueFilter::Insert seen = uniqueFilter_.insert(placed_, symmetries_, coder_);
        if (seen == UniqueFilter::Insert::Full) {
            // Ends the search (the DLX loop and FILA's onSolution look at state_).
            fail("-u remembers every unique solution found; after " + std::to_string(uniqueFilter_.size()) +
                 " of them its table reached the limit of " + formatBytes(uniqueFilter_.maxBytes()) +
                 ". -r counts the same solutions up to rotation without remembering any");
            return;
        }
        if (seen == UniqueFilter::Insert::Seen) {
            stats_.redundant++;
            if (tracing) onTrace_({trace::kSolution, 0, 0, static_cast<int>(stats_.found)});
            return;
        }
    }
    if (config_.algo.orbits) {
        reportOrbit();
        return;
    }
    stats_.solutions++;
    if (tracing) onTrace_({trace::kSolution, 0, static_cast<int>(stats_.solutions), static_cast<int>(stats_.found)});
    if (onSolution_) {
        scratch_.number = stats_.solutions;
        scratch_.images = placed_;
        scratch_.grid = gridOf(placed_);
        onSolution_(scratch_);
    }
}

void DlxDriver::emitSolution(const std::vector<int>& images) {
    stats_.solutions++;
    if (onSolution_) {
        scratch_.number = stats_.solutions;
        scratch_.images = images;
        scratch_.grid = gridOf(images);
        onSolution_(scratch_);
    }
}

void DlxDriver::reportOrbit() {
    // placed_ is the representative of its class (the redundancy filter accepted it); every
    // solution of the class is g(placed_) for a symmetry g (symmetry.hpp: the filter keeps
    // one solution per orbit of the group), each distinct one listed once (OrbitLister). The
    // limit (-l) is checked after each, so it stops mid-orbit exactly at N.
    orbits_.start(placed_);
    for (OrbitLister::Step step; (step = orbits_.next()) != OrbitLister::kDone;) {
        if (step == OrbitLister::kNoImage) {
            fail("internal error: a symmetry maps a placed piece to no image of the puzzle");
            return;
        }
        if (step == OrbitLister::kImage) stats_.found++;  // an assembly listed, not reached: found = solutions + redundant
        emitSolution(orbits_.images());
        if (state_ != SearchState::Running || (options_.maxSolutions > 0 && stats_.solutions >= options_.maxSolutions)) return;
    }
}

void DlxDriver::place(int image) {
    const Image& img = model_.images[image];
    const Shape& shape = model_.shapes[img.shape];
    copiesPlaced_[img.shape]++;
    placedVolume_ += shape.size;
    filters_.place(img);
    for (int c : img.cells) filled_[c >> 6] |= 1ULL << (c & 63);
}

void DlxDriver::unplace(int image) {
    const Image& img = model_.images[image];
    const Shape& shape = model_.shapes[img.shape];
    copiesPlaced_[img.shape]--;
    placedVolume_ -= shape.size;
    filters_.unplace(img);
    for (int c : img.cells) filled_[c >> 6] &= ~(1ULL << (c & 63));
}

int DlxDriver::traceInstance(int image) const {
    // The copy most recently placed of the image's shape (copies are placed in order).
    const Shape& shape = model_.shapes[model_.images[image].shape];
    const int k = copiesPlaced_[model_.images[image].shape];
    return shape.instances[std::max(0, std::min(k, shape.count) - 1)];
}

int DlxDriver::traceTarget(int col) const {
    if (!dlx_.isShapeColumn(col)) return model_.boxOfOpenCell[col];  // cell columns are open-cell ids
    const int s = dlx_.shapeOfColumn(col);
    const Shape& shape = model_.shapes[s];
    return trace::pieceTarget(shape.instances[std::max(0, std::min(copiesPlaced_[s], shape.count - 1))]);
}

void DlxDriver::traceChoice(int remaining, int col) {
    // kChoose, then the rows of the chosen column in the order kNext tries them.
    traceCandidates_[depth_] = dlx_.length(col);
    onTrace_({trace::kChoose, remaining, traceTarget(col), dlx_.length(col)});
    for (int node = dlx_.down(col); node != col; node = dlx_.down(node)) {
        const int image = dlx_.imageOfRow(dlx_.rowOf(node));
        const int s = model_.images[image].shape;
        const Shape& shape = model_.shapes[s];
        onTrace_({trace::kCandidate, remaining, shape.instances[std::max(0, std::min(copiesPlaced_[s], shape.count - 1))],
                  image});
    }
}

void DlxDriver::traceDeadColumn(int remaining) {
    // chooseColumn found a column that can no longer be covered: the same scan, to name it.
    int dead = -1;
    for (int c = dlx_.firstColumn(); c != dlx_.root() && dead < 0; c = dlx_.nextColumn(c))
        if (dlx_.isShapeColumn(c) ? dlx_.length(c) < dlx_.remaining(c) : dlx_.length(c) == 0) dead = c;
    if (dead < 0) return;
    const int target = traceTarget(dead);
    onTrace_({trace::kChoose, remaining, target, dlx_.length(dead)});
    // A filter emptied it when a row it hid (at this level or above) would otherwise still
    // be live in the column: its cells free and its shape with copies left.
    if (const int filter = filters_.filterThatEmptied(dead, copiesPlaced_, filled_); filter >= 0)
        onTrace_({trace::kFilterEmptied, remaining, target, filter});
    else
        onTrace_({trace::kNoFit, remaining, target, 0});
}

void DlxDriver::leaveLevel() {
    filters_.unhideTo(frames_[depth_].hideMark);
    --depth_;
}

void DlxDriver::search(long long& budget) {
    if (options_.trace != 0 && onTrace_)
        searchLoop<true>(budget);
    else
        searchLoop<false>(budget);
}

template <bool Tracing>
void DlxDriver::searchLoop(long long& budget) {
    const int pieces = model_.mobileCount();
    const bool monteCarlo = options_.monteCarlo.trials > 0;
    constexpr bool tracing = Tracing;
    const int filterFrom = filters_.filterFrom();
    auto traceWanted = [&](int remaining) { return trace::levelTraced(options_.trace, remaining); };

    while (true) {
        if (depth_ < 0) {
            // The whole tree (or one Monte Carlo trial) is exhausted.
            if (monteCarlo && stats_.monteCarloTrials + 1 < options_.monteCarlo.trials) {
                // A new trial reshuffles the matrix: charged to the budget like the rows it
                // moves, so trials that place nothing (no piece fits) still end the slice
                // and see cancel.
                if (budget <= 0 || cancel_.load(std::memory_order_relaxed)) break;
                budget -= 1 + dlx_.nodeCount() / 1024;
                ++stats_.monteCarloTrials;
                beginTrial();
                continue;
            }
            if (monteCarlo) ++stats_.monteCarloTrials;
            state_ = SearchState::Done;
            break;
        }
        Frame& f = frames_[depth_];
        const int remaining = pieces - depth_;
        if (f.stage == Frame::kEnter) {
            f.hideMark = filters_.hiddenCount();
            if (remaining == 0) {
                reportSolution();
                if (state_ == SearchState::Failed) break;
                leaveLevel();
                if (options_.maxSolutions > 0 && stats_.solutions >= options_.maxSolutions) {
                    state_ = SearchState::LimitReached;
                    break;
                }
                continue;
            }
            // Backtrack triggers (first seed article, "Backtrack Triggers").
            if (config_.algo.parityBacktrack && !filters_.parityReachable()) {
                stats_.parityBacktracks[remaining]++;
                if (tracing && traceWanted(remaining)) onTrace_({trace::kParityTrigger, remaining, filters_.holesParity(), 0});
                leaveLevel();
                continue;
            }
            if (remaining >= config_.algo.volumeBacktrackAt && !filters_.regionsFillable(filled_)) {
                stats_.volumeBacktracks[remaining]++;
                if (tracing && traceWanted(remaining)) {
                    int size = 0;
                    const int cell = filters_.unfillableRegion(filled_, &size);
                    onTrace_({trace::kVolumeTrigger, remaining, cell >= 0 ? model_.boxOfOpenCell[cell] : -1, size});
                }
                leaveLevel();
                continue;
            }
            if (remaining >= filterFrom) {
                filters_.beginLevel(depth_ == 0 || model_.images[placed_[depth_ - 1]].parity != 0);
                f.stage = Frame::kFilter;
            } else {
                f.stage = Frame::kChoose;
            }
        }
        if (f.stage == Frame::kFilter) {
            // Image filters (first seed article, "Image Filters"). Monte Carlo shuffles the rows
            // before each trial: its root filters run again rather than being replayed.
            if (!filters_.filterLevel(depth_ == 0, !monteCarlo, remaining, filled_, budget)) break;  // resumed next slice
            f.stage = Frame::kChoose;
        }
        if (f.stage == Frame::kChoose) {
            if (depth_ == 0 && (filaFromRoot_ || (config_.algo.rootByProbes && root_.choice < 0))) {
                // The root's region, filtered: what FILA starts on below every root image.
                budget -= static_cast<long long>(dlx_.rowCount() / 16) + 1;
                fillFilaInput(filaInput_, dlx_, model_, pieces, filters_.holesParity(), filters_.parityLeft());
                rootFilaInput_ = filaInput_;
            }
            if (fila_ && remaining <= config_.algo.filaAt && remaining < filaRefusedBelow_ &&
                model_.openCellCount() - placedVolume_ <= fila_->capacity() &&
                (!monteCarlo || remaining < options_.monteCarlo.range)) {
                if (budget <= 0 || cancel_.load(std::memory_order_relaxed)) break;
                if (startFila(budget)) {
                    if (guide_.onPath(depth_)) guide_.followInFila(*fila_, depth_);  // a subproblem's path goes on in FILA
                    f.stage = Frame::kFila;
                    continue;
                }
                // FILA's tables for this region would pass their memory limit: DLX searches
                // this level, and FILA is tried again one level down (a smaller region).
                filaRefusedBelow_ = remaining;
                stats_.filaRefused++;
            }
            int col = dlx_.chooseColumn(*rankAt_[remaining]);
            if (col >= 0 && depth_ == 0 && config_.rootFirstColumn >= 0 && dlx_.length(col) > 1 && dlx_.length(config_.rootFirstColumn) > 0)
                col = config_.rootFirstColumn;
            if (col >= 0 && depth_ == 0 && config_.algo.rootByProbes) {
                // Decided once (every subproblem's root is the same): nothing to choose when
                // min-fit takes the piece's column itself or a forced move.
                const bool choice = col != config_.rootConstrainedColumn && dlx_.length(col) > 1 && dlx_.length(config_.rootConstrainedColumn) > 0;
                if (root_.choice < 0)
                    root_.choice = choice ? probes_.chooseRoot(probeContext(), dlx_, rootFilaInput_, col, config_.rootConstrainedColumn,
                                                               budget, root_.estimates)
                                          : col == config_.rootConstrainedColumn ? 2 : 3;
                if (choice && root_.choice == 1) col = config_.rootConstrainedColumn;
            }
            if (col < 0) {
                if (tracing && traceWanted(remaining)) traceDeadColumn(remaining);
                leaveLevel();
                continue;
            }
            if (tracing && traceWanted(remaining)) traceChoice(remaining, col);
            dlx_.coverChosen(col);
            f.col = col;
            f.node = dlx_.down(col);
            f.stop = col;
            f.stage = Frame::kNext;
            if (guide_.onPath(depth_)) guide_.follow(f, dlx_, depth_);
        } else if (f.stage == Frame::kFila) {
            FilaEngine::Run r = fila_->run(budget);
            if (r == FilaEngine::Run::Exhausted) {
                leaveLevel();
                continue;
            }
            if (r == FilaEngine::Run::Stopped && state_ == SearchState::Running) state_ = SearchState::LimitReached;
            break;
        } else if (f.stage == Frame::kNext) {
            if (f.node == f.stop || trialEnding_) {
                if (tracing && !trialEnding_ && traceWanted(remaining))
                    onTrace_({trace::kExhausted, remaining, traceTarget(f.col), traceCandidates_[depth_]});
                dlx_.uncoverChosen(f.col);
                leaveLevel();
                continue;
            }
            if (budget <= 0 || cancel_.load(std::memory_order_relaxed)) break;
            budget -= config_.dlxCost;
            dlx_.selectRow(f.node);
            const int image = dlx_.imageOfRow(dlx_.rowOf(f.node));
            placed_[depth_] = image;
            place(image);
            stats_.attempts[remaining]++;
            stats_.fits[remaining]++;
            if (tracing && traceWanted(remaining)) onTrace_({trace::kPlace, remaining, traceInstance(image), image});
            f.stage = Frame::kReturn;
            ++depth_;
            frames_[depth_].stage = Frame::kEnter;
        } else if (f.stage == Frame::kReturn) {
            dlx_.unselectRow(f.node);
            if (tracing && traceWanted(remaining))
                onTrace_({trace::kRemove, remaining, traceInstance(placed_[depth_]), placed_[depth_]});
            unplace(placed_[depth_]);
            // A trial ends when a piece is removed and `range` pieces remain to be placed.
            if (monteCarlo && remaining == options_.monteCarlo.range) trialEnding_ = true;
            f.node = dlx_.down(f.node);
            f.stage = Frame::kNext;
        }
    }
}

}  // namespace polycube
