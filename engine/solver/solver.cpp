#include "solver/solver.hpp"

#include <algorithm>
#include <climits>
#include <numeric>
#include <iomanip>
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
    impossible_ = parityImpossibility(model_);
    if (!impossible_.empty()) impossibleKind_ = "parity";
    else if (options_.weightingProofs) {
        // Other cell weightings (colourings mod k, corners, few open neighbours; issue 12): a
        // bounded setup-time check, a few milliseconds at most.
        const auto tw = Clock::now();
        WeightingProof proof = weightingImpossibility(model_);
        weightingsTried_ = proof.tried;
        weightingSeconds_ = secondsSince(tw);
        impossible_ = proof.reason;
        impossibleKind_ = proof.kind;
    }

    parityLeft_ = parity_.initialCounts();
    holesParity_ = model_.openParity();
    if (volumeFilterAt_ != INT_MAX || volumeBacktrackAt_ != INT_MAX) {
        volume_.init(model_);
        volumeReady_ = true;
        volumeLeft_ = volume_.initialCounts();
    }
    filled_.assign((model_.openCellCount() + 63) / 64, 0);
    copiesPlaced_.assign(model_.shapeCount(), 0);
    for (auto* v : {&stats_.parityBacktracks, &stats_.volumeBacktracks, &stats_.parityFiltered, &stats_.volumeFiltered,
                    &stats_.fitFiltered})
        v->assign(pieces + 1, 0);

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
        fs.extendedIndex = extendedIndex_;
        fs.deadCellCut = autoTuned_;
        fs.attempts = &stats_.attempts;
        fs.fits = &stats_.fits;
        fs.cancel = &cancelRequested_;
        if (parityBacktrack_) {
            fs.parity = &parity_;
            fs.parityBacktracks = &stats_.parityBacktracks;
        }
        fs.onSolution = [this](const int* images, int count) {
            std::copy(images, images + count, placed_.begin() + depth_);
            reportSolution();
            return !(options_.maxSolutions > 0 && stats_.solutions >= options_.maxSolutions);
        };
        if (options_.trace != 0) {
            // FILA applies the -t K level filter itself and numbers the copies on from the
            // ones DLX placed (as traceInstance does).
            fs.onTrace = [this](int op, int remaining, int a, int b) {
                if (onTrace_) onTrace_({op, remaining, a, b});
            };
            fs.traceLevel = options_.trace;
        }
        fila_ = makeFila(model_, std::move(fs), std::min(cells, kFilaMaxCells));
    }
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
        if (forced < 0 && impossible_.empty()) chooseRedundancyPieceByProbes();
        planActive_ = true;
        redundancyText_ = plan_.description;
        for (int i : plan_.removedImages) enabled[i] = 0;
    }
    enabledImages_ = static_cast<int>(std::count(enabled.begin(), enabled.end(), 1));

    dlx_.build(model_, enabled);
    frames_.assign(pieces + 1, Frame{});
    traceCandidates_.assign(pieces + 1, 0);
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

double Solver::estimateSearchCost(const RedundancyPlan& plan, int probesPerImage, uint64_t seed) {
    // DLX places the constrained piece first (it has the fewest images), then FILA searches
    // below each of its kept images: estimate FILA's cost under each and add them up.
    std::vector<char> enabled(model_.images.size(), 1);
    for (int i : plan.removedImages) enabled[i] = 0;
    DlxMatrix dlx;
    dlx.build(model_, enabled);
    const int col = dlx.columnOfShape(plan.shape);
    const int cellsLeft = model_.openCellCount() - model_.shapes[plan.shape].size;
    if (cellsLeft > fila_->capacity()) return -1;
    std::mt19937_64 rng(seed);
    double total = 0;
    for (int image : plan.keptImages) {
        const int row = dlx.rowOfImage(image);
        int node = dlx.down(col);
        while (node != col && dlx.rowOf(node) != row) node = dlx.down(node);
        if (node == col) continue;
        dlx.coverChosen(col);
        dlx.selectRow(node);
        holesParity_ -= model_.images[image].parity;
        fillFilaInput(dlx, model_.mobileCount() - 1);
        holesParity_ += model_.images[image].parity;
        fila_->start(filaInput_);
        total += fila_->estimateCost(probesPerImage, rng);
        dlx.unselectRow(node);
        dlx.uncoverChosen(col);
    }
    return total;
}

void Solver::chooseRedundancyPieceByProbes() {
    // Which uniquely shaped piece to constrain matters (FILA article: L instead of G makes
    // the Tetris Cube 3 times faster) and no simple rule predicts it (the largest, most
    // compact piece is best for the Tetris Cube, the one with fewest images for Bedlam). So
    // when the search looks long, estimate each candidate's search cost with Monte Carlo
    // probes through the configured algorithms and keep the cheapest.
    if (!fila_ || filaAt_ != model_.mobileCount() - 1) return;
    std::vector<RedundancyPlan> candidates = redundancyCandidates(model_, symmetries_);
    if (candidates.size() < 2) return;
    const double first = estimateSearchCost(candidates.front(), 8, 1);
    if (first >= 0 && first < 3e7) return;  // a short search: probing would cost more than it saves
    double best = -1;
    size_t bestIndex = 0;
    std::ostringstream notes;
    for (size_t i = 0; i < candidates.size(); ++i) {
        const double e = estimateSearchCost(candidates[i], 40, 12345);
        if (e < 0) continue;
        notes << (notes.tellp() > 0 ? ", " : "") << model_.shapes[candidates[i].shape].name << " "
              << std::setprecision(2) << e;
        if (best < 0 || e < best) {
            best = e;
            bestIndex = i;
        }
    }
    if (best < 0) return;
    plan_ = std::move(candidates[bestIndex]);
    plan_.description += "; chosen by Monte Carlo probes, estimated cost: " + notes.str();
}

void Solver::beginTrial() {
    // Monte Carlo (first seed article, Figure 9): each trial searches with a random row order.
    dlx_.shuffle(rng_);
    trialEnding_ = false;
    depth_ = 0;
    frames_[0] = Frame{};
}

Status Solver::configureAlgorithms() {
    const int pieces = model_.mobileCount();
    // Constraints (first seed article): thresholds as "apply while at least N pieces remain";
    // a filter given without N runs once, before the search (at the full piece count).
    auto filterAt = [&](int setting) { return setting == kFilterOff ? INT_MAX : setting == kFilterOnce ? pieces : setting; };
    parityFilterAt_ = filterAt(options_.parityFilter);
    volumeFilterAt_ = filterAt(options_.volumeFilter);
    fitFilterAt_ = filterAt(options_.fitFilter);
    volumeBacktrackAt_ = options_.volumeBacktrack > 0 ? options_.volumeBacktrack : INT_MAX;
    parityBacktrack_ = options_.parityBacktrack;
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

    if (options_.autoTune && pieces >= 2) {
        // The default configuration, the same with and without -t (FILA levels are traced
        // too). Every choice below was measured (README, bench/):
        // - a one-time volume filter (first seed article, P-13, OP-2) costs about a millisecond
        //   and removes images that wall off unfillable pockets (30x3 one-sided 17x faster);
        // - small puzzles: DLX places the first piece (the one constrained by -r), then FILA
        //   with NOF (FILA article, Table 1): F on full flat boxes, E in 3-D and on irregular
        //   boards, then c (E without its fit counts) for the last 2 pieces: Tetris Cube 4.4 s
        //   instead of 4.6 s with F for the last 3, Bedlam 5.8 s instead of 5.9 s; on flat
        //   boxes c is slower than F (10x6: 0.10 s instead of 0.07 s);
        // - irregular boards with 15 or more pieces: the volume filter is reapplied while 4
        //   fewer pieces than the start remain, with DLX, and FILA takes over below (the FILA
        //   article's PT case: 28 s instead of 150 s on the 13x13 diamond);
        // - more than 20 pieces: pack along an angular sweep with DLX until 15 pieces remain
        //   (the first seed article's box-in-a-diamond: a@160 then min-fit; E/F below in FILA),
        //   with one-time parity and volume filters. Fewest-fits and radial orders found no
        //   solution of the box-in-a-diamond in a minute; the sweep finds about two a second.
        const bool flat = model_.zDim == 1 || model_.yDim == 1 || model_.xDim == 1;
        const bool fullBox = model_.openCellCount() == model_.boxCellCount();
        nof_ = true;
        // Beyond the articles: extended NOF for fixed orders (10x6: 20% faster, Tetris Cube
        // unchanged) and the dead-cell cut on the last F levels (10x6: 12% fewer nodes).
        // Explicit options keep the articles' algorithms exactly.
        // Not above 20 pieces: FILA then starts at every DLX node of its depth and building
        // the extended index each time costs more than it saves (box-in-a-diamond).
        extendedIndex_ = pieces <= 20 ? kMaxIndexBits : 0;
        autoTuned_ = true;
        if (volumeFilterAt_ == INT_MAX) volumeFilterAt_ = pieces;
        if (pieces > 20) {
            filaAt_ = 15;
            if (parityFilterAt_ == INT_MAX) parityFilterAt_ = pieces;
            orderText_ = "a@160:e=15:f=3";
        } else if (!fullBox && pieces >= 15) {
            filaAt_ = pieces - 4;
            volumeFilterAt_ = std::min(volumeFilterAt_, filaAt_);
            orderText_ = "s:e=" + std::to_string(filaAt_) + ":f=3";
        } else {
            filaAt_ = pieces - 1;
            const bool useE = !flat || !fullBox;
            orderText_ = useE ? "s:e=" + std::to_string(filaAt_) + ":c=" + std::to_string(std::min(2, filaAt_))
                              : "s:f=" + std::to_string(filaAt_);
        }
        // Filters reapplied while N or more pieces remain, and the volume trigger, work on the
        // DLX matrix: leave those levels to DLX.
        for (int at : {options_.volumeBacktrack, options_.parityFilter, options_.volumeFilter, options_.fitFilter})
            if (at > 0) filaAt_ = std::min(filaAt_, at - 1);
    }
    if (filaAt_ > pieces) filaAt_ = pieces;
    return Status::success();
}

void Solver::fillFilaInput(const DlxMatrix& dlx, int pieces) {
    filaInput_.openCells.clear();
    for (int c = dlx.firstColumn(); c != dlx.root() && c < dlx.cellColumns(); c = dlx.nextColumn(c))
        filaInput_.openCells.push_back(c);
    filaInput_.images.clear();
    filaInput_.copiesLeft.assign(model_.shapeCount(), 0);
    for (int s = 0; s < model_.shapeCount(); ++s) {
        filaInput_.copiesLeft[s] = dlx.remaining(dlx.columnOfShape(s));
        dlx.forEachLiveRowOfShape(s, [&](int row) { filaInput_.images.push_back(dlx.imageOfRow(row)); });
    }
    filaInput_.pieces = pieces;
    filaInput_.holesParity = holesParity_;
    filaInput_.parityLeft = parityLeft_;
}

void Solver::startFila() {
    fillFilaInput(dlx_, model_.mobileCount() - depth_);
    fila_->start(filaInput_);
}

std::string Solver::configurationDescription() const {
    std::ostringstream os;
    os << (autoTuned_ ? "automatic: " : "") << "DLX";
    if (fila_)
        os << ", FILA when " << filaAt_ << " pieces remain" << (nof_ ? " with NOF" : "")
           << (nof_ && extendedIndex_ > 6 ? " (fixed orders: " + std::to_string(extendedIndex_) + " index cells)" : "")
           << (autoTuned_ && schedule_.at(1).kind == HeuristicKind::First ? ", dead-cell cut" : "");
    auto filter = [&](const char* name, int at) {
        if (at == INT_MAX) return;
        os << ", " << name << (at >= model_.mobileCount() ? " filter once" : " filter while " + std::to_string(at) + "+ remain");
    };
    filter("volume", volumeFilterAt_);
    filter("parity", parityFilterAt_);
    filter("fit", fitFilterAt_);
    if (parityBacktrack_) os << ", parity trigger";
    if (volumeBacktrackAt_ != INT_MAX) os << ", volume trigger while " << volumeBacktrackAt_ << "+ remain";
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
    const bool tracing = options_.trace != 0 && onTrace_;
    if (planActive_ && !plan_.accept(model_, symmetries_, placed_, coder_)) {
        stats_.redundant++;
        if (tracing) onTrace_({trace::kSolution, 0, 0, static_cast<int>(stats_.found)});
        return;
    }
    // With the redundancy filter every solution found is already unique; -u then only
    // matters without -r.
    if (options_.unique && !planActive_ && !uniqueFilter_.insert(placed_, symmetries_, coder_)) {
        stats_.redundant++;
        if (tracing) onTrace_({trace::kSolution, 0, 0, static_cast<int>(stats_.found)});
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

void Solver::applyFilters(int remaining, bool parityChanged) {
    // Image filters (first seed article, "Image Filters"): drop the images that would break a
    // constraint if placed. Parity and volume first, since they can remove images the fit
    // check relies on.
    auto collectLiveRows = [&]() {
        liveRows_.clear();
        for (int s = 0; s < model_.shapeCount(); ++s)
            dlx_.forEachLiveRowOfShape(s, [&](int row) { liveRows_.push_back(row); });
    };
    if (remaining >= parityFilterAt_ && parityChanged) {
        // Per parity class and sign: would a piece of that class placed with that sign leave
        // a parity the rest cannot reach? Then drop all such images.
        for (int c = 0; c < parity_.classCount(); ++c) {
            if (parityLeft_[c] == 0) continue;
            const int m = parity_.magnitude(c);
            bool drop[2];
            parityLeft_[c]--;  // as if one piece of the class were placed
            drop[0] = !parity_.achievable(parityLeft_.data(), holesParity_ - m);
            drop[1] = !parity_.achievable(parityLeft_.data(), holesParity_ + m);
            parityLeft_[c]++;
            if (!drop[0] && !drop[1]) continue;
            collectLiveRows();
            for (int row : liveRows_) {
                const Image& img = model_.images[dlx_.imageOfRow(row)];
                if (parity_.classOfShape(img.shape) == c && drop[img.parity > 0 ? 0 : 1])
                    hideRow(row, stats_.parityFiltered, remaining, trace::kParityFilter);
            }
        }
    }
    if (remaining >= volumeFilterAt_) {
        collectLiveRows();
        for (int row : liveRows_) {
            const Image& img = model_.images[dlx_.imageOfRow(row)];
            const int cls = volume_.classOfShape(img.shape);
            volumeLeft_[cls]--;  // the pieces left after placing this image
            const bool unfillable = volume_.placementLeavesUnfillableRegion(filled_, img.cells, volumeLeft_.data());
            volumeLeft_[cls]++;
            if (unfillable) hideRow(row, stats_.volumeFiltered, remaining, trace::kVolumeFilter);
        }
    }
    if (remaining >= fitFilterAt_) {
        // Repeated to a fixed point: removing images can leave others without a next step.
        bool changed = true;
        while (changed) {
            changed = false;
            collectLiveRows();
            for (int row : liveRows_)
                if (dlx_.rowLeavesDeadColumn(row)) {
                    hideRow(row, stats_.fitFiltered, remaining, trace::kFitFilter);
                    changed = true;
                }
        }
    }
}

Solver::State Solver::step(long long budget) {
    if (state_ != State::Running) return state_;
    const auto t0 = Clock::now();
    const int pieces = model_.mobileCount();
    const bool monteCarlo = options_.monteCarlo.trials > 0;
    const bool tracing = options_.trace != 0 && onTrace_;
    const int filterFrom = std::min({parityFilterAt_, volumeFilterAt_, fitFilterAt_});
    auto traceWanted = [&](int remaining) { return trace::levelTraced(options_.trace, remaining); };

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
            f.hideMark = static_cast<int>(hidden_.size());
            if (remaining == 0) {
                reportSolution();
                leaveLevel();
                if (options_.maxSolutions > 0 && stats_.solutions >= options_.maxSolutions) {
                    state_ = State::LimitReached;
                    break;
                }
                continue;
            }
            // Backtrack triggers (first seed article, "Backtrack Triggers").
            if (parityBacktrack_ && !parity_.achievable(parityLeft_.data(), holesParity_)) {
                stats_.parityBacktracks[remaining]++;
                if (tracing && traceWanted(remaining)) onTrace_({trace::kParityTrigger, remaining, holesParity_, 0});
                leaveLevel();
                continue;
            }
            if (remaining >= volumeBacktrackAt_ && !volume_.regionsFillable(filled_, volumeLeft_.data())) {
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
                const bool parityChanged = depth_ == 0 || model_.images[placed_[depth_ - 1]].parity != 0;
                applyFilters(remaining, parityChanged);
            }
            if (fila_ && remaining <= filaAt_ && model_.openCellCount() - placedVolume_ <= fila_->capacity() &&
                (!monteCarlo || remaining < options_.monteCarlo.range)) {
                startFila();
                if (depth_ < guideSize_) followGuideInFila();
                f.stage = kFila;
                continue;
            }
            const int col = dlx_.chooseColumn(*rankAt_[remaining]);
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
            f.stage = kNext;
            if (depth_ < guideSize_) followGuide(f);
        } else if (f.stage == kFila) {
            FilaEngine::Run r = fila_->run(budget);
            if (r == FilaEngine::Run::Exhausted) {
                leaveLevel();
                continue;
            }
            if (r == FilaEngine::Run::Stopped) state_ = State::LimitReached;
            break;
        } else if (f.stage == kNext) {
            if (f.node == f.stop || trialEnding_) {
                if (tracing && !trialEnding_ && traceWanted(remaining))
                    onTrace_({trace::kExhausted, remaining, traceTarget(f.col), traceCandidates_[depth_]});
                dlx_.uncoverChosen(f.col);
                leaveLevel();
                continue;
            }
            if (budget <= 0 || cancelRequested_.load(std::memory_order_relaxed)) break;
            --budget;
            dlx_.selectRow(f.node);
            const int image = dlx_.imageOfRow(dlx_.rowOf(f.node));
            placed_[depth_] = image;
            place(image);
            stats_.attempts[remaining]++;
            stats_.fits[remaining]++;
            if (tracing && traceWanted(remaining)) onTrace_({trace::kPlace, remaining, traceInstance(image), image});
            f.stage = kReturn;
            ++depth_;
            frames_[depth_].stage = kEnter;
        } else {  // kReturn
            dlx_.unselectRow(f.node);
            if (tracing && traceWanted(remaining))
                onTrace_({trace::kRemove, remaining, traceInstance(placed_[depth_]), placed_[depth_]});
            unplace(placed_[depth_]);
            // A trial ends when a piece is removed and `range` pieces remain to be placed.
            if (monteCarlo && remaining == options_.monteCarlo.range) trialEnding_ = true;
            f.node = dlx_.down(f.node);
            f.stage = kNext;
        }
    }
    if (state_ == State::Running && cancelRequested_.load(std::memory_order_relaxed)) state_ = State::Cancelled;
    if (guideSize_ > 0) {
        guardStatistics();
        if (state_ == State::Done && guided_ < guideSize_ && guideError_.empty())
            guideError_ = "the subproblem's path is not a path of this search (a level on it was a dead end)";
    }
    stats_.searchSeconds += secondsSince(t0);
    return state_;
}

Status Solver::startSubproblem(const std::vector<int>& path) {
    if (options_.monteCarlo.trials > 0) return Status::error("a Monte Carlo run (-s) cannot be split into subproblems");
    const int pieces = model_.mobileCount();
    if (static_cast<int>(path.size()) > pieces)
        return Status::error("subproblem: a path of " + std::to_string(path.size()) + " placements, but the puzzle has " +
                             std::to_string(pieces) + " pieces");
    for (int image : path)
        if (image < 0 || image >= static_cast<int>(model_.images.size()))
            return Status::error("subproblem: image " + std::to_string(image) + " does not exist in this puzzle");
    // At rest: nothing searched yet (level 0 not entered), or the last tree exhausted, which
    // leaves the matrix and every counter of the position as at the start.
    const bool fresh = state_ == State::Running && depth_ == 0 && frames_[0].stage == kEnter;
    const bool finished = state_ == State::Done && depth_ < 0;
    if (!impossible_.empty()) return Status::success();  // proved impossible: no tree at all
    if (!fresh && !finished) return Status::error("subproblem: this solver is in the middle of a search");
    if (fila_) fila_->reuseTables(true);  // sibling subproblems often restart FILA on one region
    guide_ = path;
    guideSize_ = static_cast<int>(path.size());
    guided_ = 0;
    guideError_.clear();
    guardStats_ = stats_;
    state_ = State::Running;
    depth_ = 0;
    frames_[0] = Frame{};
    return Status::success();
}

void Solver::followGuide(Frame& f) {
    // A path level: try only the path's image (it must be a row of the chosen column, as it
    // was in the search that handed the path out), and nothing after it.
    const int image = guide_[depth_];
    for (int node = dlx_.down(f.col); node != f.col; node = dlx_.down(node))
        if (dlx_.imageOfRow(dlx_.rowOf(node)) == image) {
            f.node = node;
            f.stop = dlx_.down(node);
            ++guided_;
            return;
        }
    if (guideError_.empty())
        guideError_ = "the subproblem's path is not a path of this search (image " + std::to_string(image) +
                      " is not a candidate at its level)";
    f.node = f.col;  // nothing to try: the level ends, and with it the search
}

void Solver::followGuideInFila() {
    // The rest of the path is on FILA's levels: FILA places it on its own stack.
    const int n = guideSize_ - depth_;
    if (fila_->follow(guide_.data() + depth_, n)) {
        guided_ += n;
    } else if (guideError_.empty()) {
        guideError_ = "the subproblem's path is not a path of this search (FILA could not place it)";
    }
}

void Solver::guardStatistics() {
    // The path's levels (more pieces left than at the subtree's root) were replayed: their
    // counters go back to what they were before this subproblem. Idempotent, so it runs at
    // the end of every step() and the statistics are right between slices too.
    const int above = model_.mobileCount() - guideSize_;
    auto restore = [&](std::vector<long long>& v, const std::vector<long long>& before) {
        for (size_t r = above + 1; r < v.size() && r < before.size(); ++r) v[r] = before[r];
    };
    restore(stats_.attempts, guardStats_.attempts);
    restore(stats_.fits, guardStats_.fits);
    restore(stats_.parityBacktracks, guardStats_.parityBacktracks);
    restore(stats_.volumeBacktracks, guardStats_.volumeBacktracks);
    restore(stats_.parityFiltered, guardStats_.parityFiltered);
    restore(stats_.volumeFiltered, guardStats_.volumeFiltered);
    restore(stats_.fitFiltered, guardStats_.fitFiltered);
}

int Solver::donate(std::vector<std::vector<int>>& out) {
    if (state_ != State::Running || options_.monteCarlo.trials > 0 || options_.trace != 0) return 0;
    const int pieces = model_.mobileCount();
    // The shallowest level with untried siblings: the biggest pieces of work (work stealing
    // takes from the top of the tree, so a few donations keep every thread busy).
    for (int d = 0; d <= depth_; ++d) {
        Frame& f = frames_[d];
        if (f.stage == kFila) {
            const std::vector<int> prefix(placed_.begin(), placed_.begin() + d);
            return fila_->donate(prefix, out);
        }
        // kNext: f.node is next (not yet placed); kReturn: f.node is placed. Either way
        // the untried rows are those after it, up to f.stop.
        if ((f.stage != kNext && f.stage != kReturn) || f.node == f.stop) continue;
        const int remaining = pieces - d;
        int n = 0;
        for (int node = dlx_.down(f.node); node != f.stop; node = dlx_.down(node)) {
            std::vector<int> path(placed_.begin(), placed_.begin() + d);
            path.push_back(dlx_.imageOfRow(dlx_.rowOf(node)));
            out.push_back(std::move(path));
            // Counted as kNext would have (a DLX row in the column fits: attempt and fit).
            stats_.attempts[remaining]++;
            stats_.fits[remaining]++;
            ++n;
        }
        if (n > 0) {
            f.stop = dlx_.down(f.node);
            return n;
        }
    }
    return 0;
}

}  // namespace polycube
