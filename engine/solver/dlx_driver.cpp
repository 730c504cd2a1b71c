// Solver's search: the DLX levels on an explicit stack (no recursion: step() returns after
// its budget), each level choosing a column by the heuristics' schedule, the image filters
// and backtrack triggers of the first seed article, FILA taking over for the last levels,
// Monte Carlo trials, and the solutions and trace events the search reports. The hot loop
// (search, place, unplace) lives in this one file so that the compiler sees it whole.
#include "solver/solver.hpp"

#include <algorithm>
#include <climits>

#include "common/hash.hpp"
#include "solver/fila_input.hpp"

namespace polycube {

void Solver::beginTrial() {
    // Monte Carlo (first seed article, Figure 9): each trial searches with a random row order.
    dlx_.shuffle(rng_);
    filaRefusedBelow_ = INT_MAX;
    trialEnding_ = false;
    depth_ = 0;
    frames_[0] = Frame{};
}

bool Solver::startFila(long long& budget) {
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
    fillFilaInput(filaInput_, dlx_, model_, model_.mobileCount() - depth_, holesParity_, parityLeft_);
    budget -= static_cast<long long>(filaInput_.images.size() / 16) + 1;  // building FILA's lists
    return fila_->start(filaInput_);
}

void Solver::reportSolution() {
    stats_.found++;
    const bool tracing = options_.trace != 0 && onTrace_;
    if (planActive_ && !plan_.accept(model_, symmetries_, placed_, coder_)) {
        stats_.redundant++;
        if (tracing) onTrace_({trace::kSolution, 0, 0, static_cast<int>(stats_.found)});
        return;
    }
    // With the redundancy filter every solution found is already unique; -u then only
    // matters without -r.
    if (options_.unique && !planActive_) {
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
    if (algo_.orbits) {
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

void Solver::emitSolution(const std::vector<int>& images) {
    stats_.solutions++;
    if (onSolution_) {
        scratch_.number = stats_.solutions;
        scratch_.images = images;
        scratch_.grid = gridOf(images);
        onSolution_(scratch_);
    }
}

void Solver::reportOrbit() {
    // placed_ is the representative of its class (the redundancy filter accepted it); every
    // solution of the class is g(placed_) for a symmetry g (symmetry.hpp: the filter keeps
    // one solution per orbit of the group). Two symmetries give the same solution when their
    // codes are equal (SolutionCoder: equal codes <=> the same images up to swapping
    // identical copies, which is how the enumerating search tells solutions apart: it never
    // permutes copies), e.g. a solution with a symmetry of its own: each is listed once. The
    // found one first, then the others in symmetry order; the limit (-l) is checked after
    // each, so it stops mid-orbit exactly at N.
    const size_t words = static_cast<size_t>(model_.openCellCount());
    orbitCodes_.clear();
    orbitHashes_.clear();
    for (size_t gi = 0; gi < symmetries_.size(); ++gi) {
        if (gi == 0) coder_.encode(placed_, orbitCode_);
        else coder_.encodeTransformed(placed_, symmetries_[gi], orbitCode_);
        const uint64_t h = hashWords(orbitCode_.data(), words, 0);
        bool seen = false;
        for (size_t k = 0; k < orbitHashes_.size() && !seen; ++k)
            seen = orbitHashes_[k] == h &&
                   std::equal(orbitCode_.begin(), orbitCode_.end(), orbitCodes_.begin() + static_cast<std::ptrdiff_t>(k * words));
        if (seen) continue;
        orbitHashes_.push_back(h);
        orbitCodes_.insert(orbitCodes_.end(), orbitCode_.begin(), orbitCode_.end());
        if (gi == 0) {
            emitSolution(placed_);
        } else {
            orbitImages_.resize(placed_.size());
            for (size_t k = 0; k < placed_.size(); ++k) {
                orbitImages_[k] = mapImage(model_, symmetries_[gi], placed_[k], orbitCells_);
                if (orbitImages_[k] < 0) {
                    // A symmetry maps the open cells and the pieces onto themselves, so every
                    // image has an image; the model lost one (a bug, never the puzzle).
                    fail("internal error: a symmetry maps a placed piece to no image of the puzzle");
                    return;
                }
            }
            stats_.found++;  // an assembly listed, not reached: found = solutions + redundant
            emitSolution(orbitImages_);
        }
        if (state_ != State::Running || (options_.maxSolutions > 0 && stats_.solutions >= options_.maxSolutions)) return;
    }
}

void Solver::place(int image) {
    const Image& img = model_.images[image];
    const Shape& shape = model_.shapes[img.shape];
    copiesPlaced_[img.shape]++;
    placedVolume_ += shape.size;
    holesParity_ -= img.parity;
    if (int c = parity_.classOfShape(img.shape); c >= 0) parityLeft_[c]--;
    if (volumeReady_) volumeLeft_[volume_.classOfShape(img.shape)]--;
    for (int c : img.cells) filled_[c >> 6] |= 1ULL << (c & 63);
}

void Solver::unplace(int image) {
    const Image& img = model_.images[image];
    const Shape& shape = model_.shapes[img.shape];
    copiesPlaced_[img.shape]--;
    placedVolume_ -= shape.size;
    holesParity_ += img.parity;
    if (int c = parity_.classOfShape(img.shape); c >= 0) parityLeft_[c]++;
    if (volumeReady_) volumeLeft_[volume_.classOfShape(img.shape)]++;
    for (int c : img.cells) filled_[c >> 6] &= ~(1ULL << (c & 63));
}

int Solver::traceInstance(int image) const {
    // The copy most recently placed of the image's shape (copies are placed in order).
    const Shape& shape = model_.shapes[model_.images[image].shape];
    const int k = copiesPlaced_[model_.images[image].shape];
    return shape.instances[std::max(0, std::min(k, shape.count) - 1)];
}

int Solver::traceTarget(int col) const {
    if (!dlx_.isShapeColumn(col)) return model_.boxOfOpenCell[col];  // cell columns are open-cell ids
    const int s = dlx_.shapeOfColumn(col);
    const Shape& shape = model_.shapes[s];
    return trace::pieceTarget(shape.instances[std::max(0, std::min(copiesPlaced_[s], shape.count - 1))]);
}

void Solver::traceChoice(int remaining, int col) {
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

void Solver::traceDeadColumn(int remaining) {
    // chooseColumn found a column that can no longer be covered: the same scan, to name it.
    int dead = -1;
    for (int c = dlx_.firstColumn(); c != dlx_.root() && dead < 0; c = dlx_.nextColumn(c))
        if (dlx_.isShapeColumn(c) ? dlx_.length(c) < dlx_.remaining(c) : dlx_.length(c) == 0) dead = c;
    if (dead < 0) return;
    const int target = traceTarget(dead);
    onTrace_({trace::kChoose, remaining, target, dlx_.length(dead)});
    // A filter emptied it when a row it hid (at this level or above) would otherwise still
    // be live in the column: its cells free and its shape with copies left.
    for (size_t k = hidden_.size(); k-- > 0;) {
        const int image = dlx_.imageOfRow(hidden_[k]);
        const Image& img = model_.images[image];
        const bool inColumn = dlx_.isShapeColumn(dead) ? img.shape == dlx_.shapeOfColumn(dead)
                                                       : std::find(img.cells.begin(), img.cells.end(), dead) != img.cells.end();
        if (!inColumn || copiesPlaced_[img.shape] >= model_.shapes[img.shape].count) continue;
        bool free = true;
        for (int c : img.cells) free &= !(filled_[c >> 6] >> (c & 63) & 1);
        if (free) {
            onTrace_({trace::kFilterEmptied, remaining, target, hiddenBy_[k]});
            return;
        }
    }
    onTrace_({trace::kNoFit, remaining, target, 0});
}

void Solver::leaveLevel() {
    const Frame& f = frames_[depth_];
    while (static_cast<int>(hidden_.size()) > f.hideMark) {
        dlx_.unhideRow(hidden_.back());
        hidden_.pop_back();
        hiddenBy_.pop_back();
    }
    --depth_;
}

void Solver::hideRow(int row, std::vector<long long>& counter, int remaining, trace::Filter filter) {
    dlx_.hideRow(row);
    hidden_.push_back(row);
    hiddenBy_.push_back(static_cast<int8_t>(filter));
    counter[remaining]++;
}

std::vector<long long>& Solver::filteredCounter(trace::Filter filter) {
    return filter == trace::kParityFilter ? stats_.parityFiltered
           : filter == trace::kVolumeFilter ? stats_.volumeFiltered
                                            : stats_.fitFiltered;
}

bool Solver::replayRootFilters(long long& budget) {
    // The root's filtering as it was the first time (rootHidden_): the same rows hidden in the
    // same order, counted as the filters count them. A hide costs far less than a placement;
    // the budget is still charged so that millions of rows take several slices. filter_.row
    // is where to resume. false: the budget ran out or cancel was asked.
    const int remaining = model_.mobileCount();
    for (; filter_.row < rootHidden_.size(); ++filter_.row) {
        if ((filter_.row & 63) == 0 && (budget <= 0 || cancelRequested_.load(std::memory_order_relaxed))) return false;
        budget -= (filter_.row & 15) == 0;
        const auto filter = static_cast<trace::Filter>(rootHiddenBy_[filter_.row]);
        hideRow(rootHidden_[filter_.row], filteredCounter(filter), remaining, filter);
    }
    return true;
}

bool Solver::runFilters(int remaining, long long& budget) {
    // Image filters (first seed article, "Image Filters"): drop the images that would break a
    // constraint if placed. Parity and volume first, since they can remove images the fit
    // check relies on. Resumable: with millions of images (or the fit filter's repeated
    // passes) one level's filtering takes seconds, so it is charged to the budget (a row
    // checked costs about a placement) and continues in the next slice. false: the budget ran
    // out or cancel was asked; filter_ holds where to resume.
    FilterProgress& fp = filter_;
    auto stop = [&] { return budget <= 0 || cancelRequested_.load(std::memory_order_relaxed); };
    while (fp.kind != FilterProgress::kDone) {
        if (fp.stage == FilterProgress::kStart) {
            if (fp.kind == FilterProgress::kParity) {
                if (remaining < algo_.parityFilterAt || !fp.parityChanged || fp.cls >= parity_.classCount()) {
                    fp.kind = FilterProgress::kVolume;
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
            } else if (fp.kind == FilterProgress::kVolume) {
                if (remaining < algo_.volumeFilterAt) {
                    fp.kind = FilterProgress::kFit;
                    continue;
                }
            } else if (remaining < algo_.fitFilterAt) {
                fp.kind = FilterProgress::kDone;
                continue;
            }
            liveRows_.clear();
            fp.shape = 0;
            fp.row = 0;
            fp.changed = false;
            fp.stage = FilterProgress::kCollect;
        }
        if (fp.stage == FilterProgress::kCollect) {
            for (; fp.shape < model_.shapeCount(); ++fp.shape) {
                if (stop()) return false;
                const size_t before = liveRows_.size();
                dlx_.forEachLiveRowOfShape(fp.shape, [&](int row) { liveRows_.push_back(row); });
                budget -= 1 + static_cast<long long>((liveRows_.size() - before) / 16);
            }
            fp.stage = FilterProgress::kScan;
        }
        // A row's check: parity a lookup, volume a flood fill of the open cells, fit a
        // placement and its undo.
        const long long rowCost = fp.kind == FilterProgress::kParity   ? 1
                                  : fp.kind == FilterProgress::kVolume ? 1 + model_.openCellCount() / 128
                                                                       : 2 * dlxCost_;
        for (; fp.row < liveRows_.size(); ++fp.row) {
            if (stop()) return false;
            budget -= rowCost;
            const int row = liveRows_[fp.row];
            const Image& img = model_.images[dlx_.imageOfRow(row)];
            if (fp.kind == FilterProgress::kParity) {
                if (parity_.classOfShape(img.shape) == fp.cls && fp.drop[img.parity > 0 ? 0 : 1])
                    hideRow(row, filteredCounter(trace::kParityFilter), remaining, trace::kParityFilter);
            } else if (fp.kind == FilterProgress::kVolume) {
                const int cls = volume_.classOfShape(img.shape);
                volumeLeft_[cls]--;  // the pieces left after placing this image
                const bool unfillable = volume_.placementLeavesUnfillableRegion(filled_, img.cells, volumeLeft_.data());
                volumeLeft_[cls]++;
                if (unfillable) hideRow(row, filteredCounter(trace::kVolumeFilter), remaining, trace::kVolumeFilter);
            } else if (dlx_.rowLeavesDeadColumn(row)) {
                hideRow(row, filteredCounter(trace::kFitFilter), remaining, trace::kFitFilter);
                fp.changed = true;
            }
        }
        fp.stage = FilterProgress::kStart;
        if (fp.kind == FilterProgress::kParity) ++fp.cls;
        else if (fp.kind == FilterProgress::kVolume) fp.kind = FilterProgress::kFit;
        // The fit filter repeats to a fixed point: removing images can leave others without
        // a next step.
        else if (!fp.changed) fp.kind = FilterProgress::kDone;
    }
    return true;
}

void Solver::search(long long& budget) {
    if (options_.trace != 0 && onTrace_)
        searchLoop<true>(budget);
    else
        searchLoop<false>(budget);
}

template <bool Tracing>
void Solver::searchLoop(long long& budget) {
    const int pieces = model_.mobileCount();
    const bool monteCarlo = options_.monteCarlo.trials > 0;
    constexpr bool tracing = Tracing;
    const int filterFrom = std::min({algo_.parityFilterAt, algo_.volumeFilterAt, algo_.fitFilterAt});
    auto traceWanted = [&](int remaining) { return trace::levelTraced(options_.trace, remaining); };

    while (true) {
        if (depth_ < 0) {
            // The whole tree (or one Monte Carlo trial) is exhausted.
            if (monteCarlo && stats_.monteCarloTrials + 1 < options_.monteCarlo.trials) {
                // A new trial reshuffles the matrix: charged to the budget like the rows it
                // moves, so trials that place nothing (no piece fits) still end the slice
                // and see cancel.
                if (budget <= 0 || cancelRequested_.load(std::memory_order_relaxed)) break;
                budget -= 1 + dlx_.nodeCount() / 1024;
                ++stats_.monteCarloTrials;
                beginTrial();
                continue;
            }
            if (monteCarlo) ++stats_.monteCarloTrials;
            state_ = State::Done;
            break;
        }
        Frame& f = frames_[depth_];
        const int remaining = pieces - depth_;
        if (f.stage == Frame::kEnter) {
            f.hideMark = static_cast<int>(hidden_.size());
            if (remaining == 0) {
                reportSolution();
                if (state_ == State::Failed) break;
                leaveLevel();
                if (options_.maxSolutions > 0 && stats_.solutions >= options_.maxSolutions) {
                    state_ = State::LimitReached;
                    break;
                }
                continue;
            }
            // Backtrack triggers (first seed article, "Backtrack Triggers").
            if (algo_.parityBacktrack && !parity_.achievable(parityLeft_.data(), holesParity_)) {
                stats_.parityBacktracks[remaining]++;
                if (tracing && traceWanted(remaining)) onTrace_({trace::kParityTrigger, remaining, holesParity_, 0});
                leaveLevel();
                continue;
            }
            if (remaining >= algo_.volumeBacktrackAt && !volume_.regionsFillable(filled_, volumeLeft_.data())) {
                stats_.volumeBacktracks[remaining]++;
                if (tracing && traceWanted(remaining)) {
                    int size = 0;
                    const int cell = volume_.unfillableRegion(filled_, volumeLeft_.data(), &size);
                    onTrace_({trace::kVolumeTrigger, remaining, cell >= 0 ? model_.boxOfOpenCell[cell] : -1, size});
                }
                leaveLevel();
                continue;
            }
            if (remaining >= filterFrom) {
                filter_ = FilterProgress{};
                filter_.parityChanged = depth_ == 0 || model_.images[placed_[depth_ - 1]].parity != 0;
                f.stage = Frame::kFilter;
            } else {
                f.stage = Frame::kChoose;
            }
        }
        if (f.stage == Frame::kFilter) {
            // Monte Carlo shuffles the rows before each trial: its root filters run again.
            const bool rootReplay = depth_ == 0 && rootFiltersKnown_ && !monteCarlo;
            if (!(rootReplay ? replayRootFilters(budget) : runFilters(remaining, budget))) break;  // resumed next slice
            if (depth_ == 0 && !rootFiltersKnown_) {
                rootHidden_ = hidden_;
                rootHiddenBy_ = hiddenBy_;
                rootFiltersKnown_ = true;
            }
            f.stage = Frame::kChoose;
        }
        if (f.stage == Frame::kChoose) {
            if (depth_ == 0 && (filaFromRoot_ || (algo_.rootByProbes && root_.choice < 0))) {
                // The root's region, filtered: what FILA starts on below every root image.
                budget -= static_cast<long long>(dlx_.rowCount() / 16) + 1;
                fillFilaInput(filaInput_, dlx_, model_, pieces, holesParity_, parityLeft_);
                rootFilaInput_ = filaInput_;
            }
            if (fila_ && remaining <= algo_.filaAt && remaining < filaRefusedBelow_ &&
                model_.openCellCount() - placedVolume_ <= fila_->capacity() &&
                (!monteCarlo || remaining < options_.monteCarlo.range)) {
                if (budget <= 0 || cancelRequested_.load(std::memory_order_relaxed)) break;
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
            if (col >= 0 && depth_ == 0 && root_.firstColumn >= 0 && dlx_.length(col) > 1 && dlx_.length(root_.firstColumn) > 0)
                col = root_.firstColumn;
            if (col >= 0 && depth_ == 0 && algo_.rootByProbes) {
                // Decided once (every subproblem's root is the same): nothing to choose when
                // min-fit takes the piece's column itself or a forced move.
                const bool choice = col != root_.constrainedColumn && dlx_.length(col) > 1 && dlx_.length(root_.constrainedColumn) > 0;
                if (root_.choice < 0)
                    root_.choice = choice ? probes_.chooseRoot(probeContext(), dlx_, rootFilaInput_, col, root_.constrainedColumn,
                                                               budget, root_.estimates)
                                          : col == root_.constrainedColumn ? 2 : 3;
                if (choice && root_.choice == 1) col = root_.constrainedColumn;
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
            if (r == FilaEngine::Run::Stopped && state_ == State::Running) state_ = State::LimitReached;
            break;
        } else if (f.stage == Frame::kNext) {
            if (f.node == f.stop || trialEnding_) {
                if (tracing && !trialEnding_ && traceWanted(remaining))
                    onTrace_({trace::kExhausted, remaining, traceTarget(f.col), traceCandidates_[depth_]});
                dlx_.uncoverChosen(f.col);
                leaveLevel();
                continue;
            }
            if (budget <= 0 || cancelRequested_.load(std::memory_order_relaxed)) break;
            budget -= dlxCost_;
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
