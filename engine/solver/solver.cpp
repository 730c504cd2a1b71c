#include "solver/solver.hpp"

#include "common/hash.hpp"
#include "common/text.hpp"

#include <algorithm>
#include <climits>
#include <new>
#include <numeric>
#include <iomanip>
#include <sstream>

namespace polycube {

// The probes' estimate (list entries examined, about 50 per microsecond natively) below which
// a search counts as short (~0.5 s): the other -r candidates are not probed (probeSome), and
// FILA's tables serve every root image (finishSetup).
constexpr double kShortSearchCost = 3e7;
// A search of at most this many pieces is short without asking: the whole-puzzle estimate of
// every such puzzle in def/ (19 of them: Soma and tetracube figures, hexomino subsets, ...) is
// at most 4.1e5 (the Soma tower), 70x under kShortSearchCost (9 pieces: up to 3.8e6, a Tetris
// Cube subset), while asking costs 0.15-0.2 ms, a sixth of such a puzzle's whole run.
constexpr int kShortSearchPieces = 8;
// Cell visits a weighting pass may make at setup: 6 million is ~20 ms natively, ~50 ms in
// WebAssembly, on the largest models; past it a weighting is skipped, never guessed.
constexpr long kWeightingCellVisits = 6000000;

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

void SolverStats::add(const SolverStats& other, int sign) {
    solutions += sign * other.solutions;
    found += sign * other.found;
    redundant += sign * other.redundant;
    monteCarloTrials += sign * other.monteCarloTrials;
    forEachLevelCounter(*this, other, [sign](std::vector<long long>& a, const std::vector<long long>& b) {
        if (a.size() < b.size()) a.resize(b.size(), 0);
        for (size_t i = 0; i < b.size(); ++i) a[i] += sign * b[i];
    });
}

Result<std::unique_ptr<Solver>> Solver::create(const PuzzleDef& def, const SolverOptions& options) {
    std::unique_ptr<Solver> s;
    try {
        s = begin(def, options);
    } catch (const std::bad_alloc&) {
        return Result<std::unique_ptr<Solver>>::error("out of memory while setting up the solver");
    }
    while (!s->ready() && s->state_ == State::Running) s->step(1LL << 40);
    if (s->state_ == State::Failed) return Result<std::unique_ptr<Solver>>::error(s->error_);
    return Result<std::unique_ptr<Solver>>::success(std::move(s));
}

std::unique_ptr<Solver> Solver::begin(const PuzzleDef& def, const SolverOptions& options, const ModelLimits& limits) {
    std::unique_ptr<Solver> s(new Solver());
    s->def_ = def;
    s->options_ = options;
    s->limits_ = limits;
    s->uniqueFilter_.setMaxBytes(limits.maxUniqueBytes);
    s->builder_ = std::make_unique<ModelBuilder>(s->def_, limits);
    return s;
}

void Solver::fail(std::string message) {
    error_ = std::move(message);
    state_ = State::Failed;
    builder_.reset();
}

bool Solver::setupSome() {
    // One unit of setup work, each bounded: a chunk of the model or the matrix, one Monte
    // Carlo probe of a redundancy candidate, or one of the short steps in between. false when
    // setup failed (state_ Failed) or is over.
    constexpr long long kChunk = 1 << 15;  // model / matrix work units (~0.1 ms natively)
    switch (setup_) {
        case kSetModel:
            if (builder_->step(kChunk) == ModelBuilder::Running) return true;
            if (builder_->failed()) {
                fail(builder_->error());
                return false;
            }
            model_ = builder_->take();
            builder_.reset();
            setup_ = kSetPrepare;
            return true;
        case kSetPrepare:
            if (Status st = prepare(); !st.ok) {
                fail(st.message);
                return false;
            }
            setup_ = kSetPlan;
            return true;
        case kSetPlan:
            // the automatic -r choice, one shape's orbits per unit (RedundancyCandidateSearch)
            if (planSearch_) {
                if (planSearch_->step()) return true;
                std::vector<RedundancyPlan> candidates;
                RedundancyPlan plan = redundancyPlanFrom(planSearch_->take(), symmetries_, &candidates);
                adoptRedundancyPlan(std::move(plan), std::move(candidates), true);
                planSearch_.reset();
            }
            setup_ = kSetReach;
            return true;
        case kSetReach:
            // A unit of its own, apart from the estimate: on 100,000s of images each takes tens
            // of milliseconds (tests/hostile/random60.txt natively: the two together 44 ms,
            // twice that in WebAssembly, where a worker must answer a cancel within 100 ms).
            proveByReach();
            setup_ = kSetEstimate;
            return true;
        case kSetEstimate:
            estimateWholeSearch();
            setup_ = probing_ ? kSetProbes : kSetMatrix;
            if (!probing_) beginMatrix();
            return true;
        case kSetProbes:
            if (probeSome()) return true;
            beginMatrix();
            setup_ = kSetMatrix;
            return true;
        case kSetMatrix:
            if (!dlx_.buildSome(model_, enabled_, kChunk)) return true;
            finishSetup();
            setup_ = kSetReady;
            return false;
        case kSetReady:
            return false;
    }
    return false;
}

Status Solver::prepare() {
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
        // Bounded tighter than the proofs' own default (30 million cell visits, 100 ms natively
        // on a million images, 250 ms in WebAssembly): setup must stay in short slices
        // (issue 11); a weighting past the bound is skipped, never guessed.
        WeightingLimits limits;
        limits.maxCellVisits = kWeightingCellVisits;
        limits.reach = false;  // in a setup unit of its own: proveByReach
        WeightingProof proof = weightingImpossibility(model_, limits);
        weightingsTried_ = proof.tried;
        weightingSeconds_ = secondsSince(tw);
        adoptProof(proof);
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
        // Sized for the whole region when that takes no wider occupancy field: FILA can then
        // start below the root from the root's tables (filaFromRoot_) and the -r probes start
        // it once for every candidate (estimateSearchCost).
        if (filaCapacityFor(model_.openCellCount()) == filaCapacityFor(cells)) cells = model_.openCellCount();
        FilaSettings fs;
        fs.schedule = schedule_;
        fs.nof = nof_;
        fs.extendedIndex = extendedIndex_;
        fs.deadCellCut = deadCellCut_;
        {
            long long cellCells = 0;
            for (const Image& img : model_.images) cellCells += static_cast<long long>(img.cells.size());
            const long long used = modelBytes(static_cast<long long>(model_.images.size()), cellCells) +
                                   matrixBytes(static_cast<long long>(model_.images.size()), cellCells,
                                               model_.openCellCount() + model_.shapeCount());
            fs.maxTableBytes = std::max(0LL, limits_.maxTotalBytes - used);
            filaTableLimit_ = fs.maxTableBytes;
        }
        fs.attempts = &stats_.attempts;
        fs.fits = &stats_.fits;
        fs.cancel = &cancelRequested_;
        if (parityBacktrack_) {
            fs.parity = &parity_;
            fs.parityBacktracks = &stats_.parityBacktracks;
        }
        fs.onSolution = [this](const int* images, int count) {
            // FILA's placements begin at the level it started on, or at the root it followed.
            std::copy(images, images + count, placed_.begin() + depth_ - filaFollowed_);
            reportSolution();
            return state_ == State::Running &&
                   !(options_.maxSolutions > 0 && stats_.solutions >= options_.maxSolutions);
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
    enabled_.assign(model_.images.size(), 1);
    if (options_.redundancy != Redundancy::Off) {
        int forced = -1;
        if (options_.redundancy == Redundancy::Named) {
            for (const PieceInstance& inst : model_.instances)
                if (inst.name == options_.redundancyPiece) {
                    if (inst.stationary)
                        return Status::error("-r " + inst.name + ": that piece is stationary; name a mobile piece");
                    forced = inst.shape;
                }
            if (forced < 0) return Status::error("-r: no piece named '" + quoteText(options_.redundancyPiece) + "' in this puzzle");
        }
        if (forced < 0 && symmetries_.size() > 1) {
            planSearch_ = std::make_unique<RedundancyCandidateSearch>(model_, symmetries_);  // kSetPlan
        } else {
            Result<RedundancyPlan> plan = planRedundancyFilter(model_, symmetries_, forced);
            if (!plan.ok()) return Status::error("-r: " + plan.status.message);
            adoptRedundancyPlan(std::move(plan.value), {}, false);
        }
    }
    return Status::success();
}

void Solver::adoptRedundancyPlan(RedundancyPlan plan, std::vector<RedundancyPlan> candidates, bool automatic) {
    plan_ = std::move(plan);
    planActive_ = true;
    // No probes when the puzzle is already proved impossible: nothing will be searched.
    if (automatic && impossible_.empty()) beginProbes(std::move(candidates));
}

void Solver::beginMatrix() {
    if (planActive_) {
        redundancyText_ = plan_.description;
        for (int i : plan_.removedImages) enabled_[i] = 0;
    }
    enabledImages_ = static_cast<int>(std::count(enabled_.begin(), enabled_.end(), 1));
    dlx_.begin(model_, enabled_);
}

void Solver::finishSetup() {
    const int pieces = model_.mobileCount();
    // What a DLX placement costs, in budget units of about a microsecond (1,000 node
    // updates): selecting a row covers each of its columns, and covering a column unlinks
    // every node of every row in it. 1 on the catalog's puzzles; about 1,300 for 100 random
    // 10-cell pieces in a 10x10x10 box (1.1 million rows), where a placement takes 10 ms:
    // charged so, a slice's budget is about a time whatever the matrix.
    const long long nodes = dlx_.nodeCount(), columns = std::max(1, dlx_.columnCount()),
                    rows = std::max(1, dlx_.rowCount());
    const long long rowLength = nodes / rows;
    dlxCost_ = 1 + (nodes / columns) * rowLength * rowLength / 1024;
    constrainedColumn_ = planActive_ && plan_.shape >= 0 && filaAt_ == pieces - 1 ? dlx_.columnOfShape(plan_.shape) : -1;
    const bool filaHoldsAll = fila_ && model_.openCellCount() <= fila_->capacity();
    const bool shortSearch = knownShort();
    const bool probesPossible = constrainedColumn_ >= 0 && filaHoldsAll && options_.monteCarlo.trials == 0;
    if (rootProbesWhenLong_ && (shortSearch || !probesPossible)) {
        // 3-D: a short search keeps the piece (the probes would cost more than a wrong
        // root), as does one the probes cannot estimate.
        rootByProbes_ = false;
        rootOnConstrainedPiece_ = true;
    }
    firstColumn_ = rootOnConstrainedPiece_ ? constrainedColumn_ : -1;
    rootByProbes_ = rootByProbes_ && probesPossible;
    rootChoice_ = -1;
    rootEstimates_[0] = rootEstimates_[1] = -1;
    // Below the root, FILA starts on the root's region with the root's
    // image placed by follow(): the same tree of placements as a start on the smaller region,
    // but its tables are built once and its lazily built image lists serve every root image
    // instead of one build per kept image (hexominoes 01-09 in 7x6 1.5x faster, Soma figures
    // 1.2-1.5x, Bedlam's 5x3x3 subsets 1.3x, 10x6 1.07x). The lists then hold the images that
    // overlap the root's: with the F order (extended index) that costs ~1% more attempts, with
    // E (neighbour index only) 10-30%, which only a short search (estimateWholeSearch)
    // repays: the Tetris Cube and Bedlam were 5% slower so. The same with -t (the
    // trace shows the search as it runs untraced). Not with Monte Carlo (each trial shuffles
    // the root anew), nor with explicit options, which keep the articles' FILA (a start per
    // region; its lists, hence its attempts, differ).
    filaFromRoot_ = autoTuned_ && filaAt_ == pieces - 1 && filaHoldsAll && options_.monteCarlo.trials == 0 &&
                    options_.rootTables &&
                    (schedule_.at(pieces - 1).fixedOrder() || shortSearch);
    if (filaFromRoot_) {
        filaReuse_ = true;
        fila_->reuseTables(true);
    }
    frames_.assign(pieces + 1, Frame{});
    traceCandidates_.assign(pieces + 1, 0);
    placed_.assign(pieces, -1);
    stats_.attempts.assign(pieces + 1, 0);
    stats_.fits.assign(pieces + 1, 0);
    rng_.seed(options_.monteCarlo.seed);
    depth_ = 0;
    if (options_.monteCarlo.trials > 0) beginTrial();
    if (!impossible_.empty()) state_ = State::Done;
}

CostEstimate Solver::estimateSearchCost(const RedundancyPlan& plan, int probesPerImage, uint64_t seed) {
    // DLX places the constrained piece first (it has the fewest images), then FILA searches
    // below each of its kept images: estimate FILA's cost under each and add them up. Each
    // image's probes are salted by its cells, not its id, so the estimate does not depend on
    // how the puzzle is written (issue 12).
    const CostEstimate none{-1, 0};
    CostEstimate total;
    auto salt = [&](int image) { return probeSalt(image, seed); };
    if (!probeInput_.openCells.empty() && model_.shapes[plan.shape].count == 1) {
        // FILA started once on the whole puzzle (every candidate's input: a piece of its own
        // shape places no other image of that shape), its tables kept, and each kept image
        // placed on it by follow(): one build of the tables instead of one per kept image
        // (hexominoes 01-09 in 7x6: the probes took 40% of the default's time).
        return estimateBelow(probeInput_, plan.keptImages, probesPerImage, seed);
    }
    std::vector<char> enabled(model_.images.size(), 1);
    for (int i : plan.removedImages) enabled[i] = 0;
    DlxMatrix dlx;
    dlx.build(model_, enabled);
    const int col = dlx.columnOfShape(plan.shape);
    const int cellsLeft = model_.openCellCount() - model_.shapes[plan.shape].size;
    if (cellsLeft > fila_->capacity()) return none;
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
        const bool started = fila_->start(filaInput_);
        if (started) total += fila_->estimateCost(probesPerImage, salt(image));
        dlx.unselectRow(node);
        dlx.uncoverChosen(col);
        if (!started) return none;  // FILA's tables would be too big: no estimate
    }
    return total;
}

uint64_t Solver::probeSalt(int image, uint64_t seed) {
    // Salted by the image's cells in fill order (as FILA numbers them), not by cell ids, which
    // follow the way the box is written.
    const std::vector<double>& order = fillOrder();
    std::vector<int64_t> ranks;
    for (int c : model_.images[image].cells) ranks.push_back(static_cast<int64_t>(order[c]));
    std::sort(ranks.begin(), ranks.end());
    return hashWords(ranks.data(), ranks.size(), seed);
}

CostEstimate Solver::estimateBelow(const FilaInput& input, const std::vector<int>& images, int probes, uint64_t seed) {
    // FILA started on `input` (its tables kept: reuseTables must be on), each image placed on
    // it by follow() and `probes` probes below it, salted by the image's cells; summed. Mean
    // -1 when FILA's tables for `input` would pass their limit.
    CostEstimate total;
    for (int image : images) {
        if (!fila_->start(input)) return CostEstimate{-1, 0};
        if (fila_->follow(&image, 1)) total += fila_->estimateCost(probes, probeSalt(image, seed));
    }
    return total;
}

int Solver::chooseRootByProbes(int heuristicColumn, long long& budget) {
    // Flat boards with holes and long 3-D searches: branch first on the heuristic's column
    // (min-fit: a cell beside a hole, a corner the volume filter thinned, the piece with the
    // fewest images) or on the constrained piece, whichever Knuth's estimator finds
    // cheaper: FILA started on the root's region (rootFilaInput_), each
    // row of the column placed by follow(), 160 probes below it, seeded by its cells (the same
    // choice in every subproblem and worker, and however the puzzle is written). The piece must
    // be clearly cheaper (under 0.7x) to be chosen, so near-ties keep min-fit's tree. 40 probes
    // were too few: with the box turned, 8x8 without the middle of each side estimated the
    // piece at 0.73x of min-fit's column (0.33-0.39x as written); with 160, 0.23-0.56x (its
    // placements: 0.32x). They cost ~2 ms on these boards (12-15 ms searches).
    // Measured: 8x8 without the middle of each side 0.42M placements with the piece against
    // 1.33M; 7x9 minus 3 cells and 8x8 with a hole at 2,2 keep the cell (1.17M and 2.27M with
    // the piece against 0.39M and 1.14M).
    constexpr int kProbes = 160;
    constexpr uint64_t kSeed = 777;
    fila_->reuseTables(true);
    auto cost = [&](int column) {
        std::vector<int> images;
        for (int node = dlx_.down(column); node != column; node = dlx_.down(node))
            images.push_back(dlx_.imageOfRow(dlx_.rowOf(node)));
        budget -= static_cast<long long>(images.size()) * kProbes * model_.mobileCount();
        return estimateBelow(rootFilaInput_, images, kProbes, kSeed).mean;
    };
    const double heuristic = cost(heuristicColumn), piece = cost(constrainedColumn_);
    fila_->reuseTables(filaReuse_);
    rootEstimates_[0] = heuristic;
    rootEstimates_[1] = piece;
    return heuristic >= 0 && piece >= 0 && piece < 0.7 * heuristic ? 1 : 0;
}

void Solver::beginProbes(std::vector<RedundancyPlan> candidates) {
    // Which uniquely shaped piece to constrain matters (FILA article: L instead of G makes
    // the Tetris Cube 3 times faster) and no simple rule predicts it (the largest, most
    // compact piece is best for the Tetris Cube, the one with fewest images for Bedlam). So
    // when the search looks long, estimate each candidate's search cost with Monte Carlo
    // probes through the configured algorithms and keep the cheapest. One pass of probes
    // per probeSome() call, so setup stays in bounded slices.
    probing_ = false;
    if (!fila_ || filaAt_ != model_.mobileCount() - 1) return;
    // A short search is not probed (probeSome): known here for a few pieces, without the
    // whole puzzle's FILA input the probes would need.
    if (autoTuned_ && model_.mobileCount() <= kShortSearchPieces) return;
    probeCandidates_ = std::move(candidates);
    if (probeCandidates_.size() < 2) return;
    probing_ = true;
    probeNext_ = -1;  // the first call decides whether to probe at all
    fillWholePuzzleInput();
    probeTallies_.assign(probeCandidates_.size(), ProbeTally{});
    probeRefinements_ = 0;
}

const std::vector<double>& Solver::fillOrder() {
    if (fillOrder_.empty()) {
        Heuristic first;
        first.kind = HeuristicKind::First;
        fillOrder_ = cellKeys(first, model_);
    }
    return fillOrder_;
}

void Solver::fillWholePuzzleInput() {
    // FILA's input for the whole puzzle, every image in: the probes place a candidate's kept
    // images on it with follow() (a piece of its own shape places no other image of it).
    // What fillFilaInput would read off a matrix of every image, without building one: the
    // cells in the header list's order (DlxMatrix::begin: "first open cell" order), every
    // image in its column's order (by id: the model groups them by shape), every copy.
    probeInput_ = FilaInput{};
    if (model_.openCellCount() > fila_->capacity()) return;
    const std::vector<double>& order = fillOrder();
    probeInput_.openCells.resize(model_.openCellCount());
    std::iota(probeInput_.openCells.begin(), probeInput_.openCells.end(), 0);
    std::stable_sort(probeInput_.openCells.begin(), probeInput_.openCells.end(),
                     [&](int a, int b) { return order[a] < order[b]; });
    probeInput_.images.resize(model_.images.size());
    std::iota(probeInput_.images.begin(), probeInput_.images.end(), 0);
    probeInput_.copiesLeft.resize(model_.shapeCount());
    for (int s = 0; s < model_.shapeCount(); ++s) probeInput_.copiesLeft[s] = model_.shapes[s].count;
    probeInput_.pieces = model_.mobileCount();
    probeInput_.holesParity = holesParity_;
    probeInput_.parityLeft = parityLeft_;
    fila_->reuseTables(true);
}

void Solver::estimateWholeSearch() {
    // The automatic configuration's first question: is the search short? Knuth's estimator
    // through FILA started once on the whole puzzle, from its own root (64 probes; with -r
    // divided by the symmetries the filter removes). A short search is not probed for the -r
    // piece (probeSome) and shares FILA's tables below the root with E too (finishSetup).
    // It replaced, for that question, a pass of 40 probes under every kept image of the
    // first -r candidate, which took 10% of a millisecond puzzle (Soma figures, hexominoes
    // in 7x6); a long search still gets that pass first (the Tetris Cube and Bedlam choose
    // as before).
    constexpr int kProbes = 64;
    constexpr uint64_t kSeed = 4242;
    const int pieces = model_.mobileCount();
    if (!autoTuned_ || !fila_ || filaAt_ != pieces - 1 || !impossible_.empty() || options_.monteCarlo.trials > 0) return;
    if (pieces <= kShortSearchPieces) return;  // short whatever the estimate (knownShort)
    if (probeInput_.openCells.empty()) fillWholePuzzleInput();
    if (!probeInput_.openCells.empty() && fila_->start(probeInput_)) {
        const double reduced = planActive_ ? std::max<double>(1, static_cast<double>(symmetries_.size())) : 1;
        screenEstimate_ = fila_->estimateCost(kProbes, kSeed).mean / reduced;
    }
    if (!probing_) {
        probeInput_ = FilaInput{};
        fila_->reuseTables(filaReuse_);
    }
}

void Solver::adoptProof(const WeightingProof& proof) {
    impossible_ = proof.reason;  // empty when not proved
    impossibleKind_ = proof.kind;
    impossibleCells_.clear();
    for (int c : proof.cells) impossibleCells_.push_back(model_.openCellPos[c]);
}

bool Solver::knownShort() const {
    return (autoTuned_ && model_.mobileCount() <= kShortSearchPieces) ||
           (screenEstimate_ >= 0 && screenEstimate_ < kShortSearchCost);
}

void Solver::proveByReach() {
    // The costliest weighting (cells few pieces can reach: 1.5-4x the others together, 0.25 ms
    // on 10x6, 4 ms on the box-in-a-diamond hexominoes natively) in a setup unit of its own,
    // so that no slice holds both. Run on short searches too, though a short search would end
    // as fast: a person who built an impossible puzzle is owed the reason, and it costs 0.6%
    // of 10x6's run, 5% of a 1 ms hexomino rectangle.
    if (!options_.weightingProofs || !impossible_.empty()) return;
    const auto tw = Clock::now();
    WeightingLimits limits;
    limits.maxCellVisits = kWeightingCellVisits;
    WeightingProof proof = reachImpossibility(model_, limits);
    weightingsTried_ += proof.tried;
    weightingSeconds_ += secondsSince(tw);
    if (!proof.impossible) return;
    adoptProof(proof);
    if (probing_) {  // nothing will be searched: no piece to choose
        probing_ = false;
        endProbes();
    }
}

bool Solver::probeSome() {
    // Knuth's estimator is unbiased but heavy-tailed: one pass of 40 probes per kept image
    // put the Tetris Cube's L anywhere in 1.2e8-3.9e8 and Bedlam's X in 1.2e8-5.7e8 as the
    // file was rewritten. So every candidate gets a screening pass of 40 probes per kept
    // image, then the contenders (not clearly costlier than the cheapest, by two standard
    // errors of the difference) get passes of 160, pooled by probe count, the least-probed
    // first, until one stands apart. A pass costs mostly its FILA starts (one per kept image,
    // tables built each time), hardly its probes, hence few long passes. Refinement is paid
    // for by the search it saves: one pass per 2e7 of the cheapest estimate (~0.4 s of
    // search natively), at most 24.
    constexpr int kScreenProbes = 40, kProbes = 160, kMaxRefinements = 24;
    constexpr double kCostPerRefinement = 2e7;
    constexpr uint64_t kSeed = 12345;
    const int n = static_cast<int>(probeCandidates_.size());
    auto pass = [&](int c, int probes) {
        ProbeTally& t = probeTallies_[c];
        const CostEstimate e = estimateSearchCost(probeCandidates_[c], probes,
                                                  mix64(kSeed + static_cast<uint64_t>(t.probes)));
        if (e.mean < 0) {
            t.estimate = e;
        } else {
            // Pooling: means weighted by their probe counts.
            const double p = t.probes, q = probes;
            t.estimate.mean = (p * t.estimate.mean + q * e.mean) / (p + q);
            t.estimate.variance = (p * p * t.estimate.variance + q * q * e.variance) / ((p + q) * (p + q));
        }
        t.probes += probes;
    };
    if (probeNext_ < 0 && knownShort()) {
        endProbes();  // a short search by the whole puzzle's estimate (estimateWholeSearch)
        return false;
    }
    if (probeNext_ < 0) {
        // The first candidate's screening decides whether to probe at all: a short search
        // (under ~0.5 s) keeps it, as probing the others would cost more than it could save.
        pass(0, kScreenProbes);
        probeNext_ = 1;
        const double first = probeTallies_[0].estimate.mean;
        screenEstimate_ = first;
        if (first >= 0 && first < kShortSearchCost) {
            endProbes();
            return false;
        }
        return true;
    }
    if (probeNext_ < n) {
        pass(probeNext_++, kScreenProbes);
        return true;
    }
    int best = -1;
    for (int c = 0; c < n; ++c)
        if (probeTallies_[c].estimate.mean >= 0 && (best < 0 || probeTallies_[c].estimate.mean < probeTallies_[best].estimate.mean))
            best = c;
    if (best >= 0) {
        const CostEstimate& b = probeTallies_[best].estimate;
        auto contender = [&](const ProbeTally& t) {
            return t.estimate.mean >= 0 && t.estimate.mean - b.mean < 2 * std::sqrt(t.estimate.variance + b.variance);
        };
        int next = -1, contenders = 0;
        for (int c = 0; c < n; ++c) {
            const ProbeTally& t = probeTallies_[c];
            if (!contender(t)) continue;
            ++contenders;
            if (next < 0 || t.probes < probeTallies_[next].probes) next = c;
        }
        const int allowed = static_cast<int>(std::min<double>(kMaxRefinements, b.mean / kCostPerRefinement));
        if (contenders > 1 && probeRefinements_ < allowed) {
            ++probeRefinements_;
            pass(next, kProbes);
            return true;
        }
        std::string notes;
        for (int c = 0; c < n; ++c) {
            const ProbeTally& t = probeTallies_[c];
            if (t.estimate.mean < 0) continue;
            std::ostringstream v;
            v << std::setprecision(2) << t.estimate.mean;
            notes += (notes.empty() ? "" : ", ") + model_.shapes[probeCandidates_[c].shape].name + " " + v.str();
            if (t.probes > kScreenProbes) notes += " (" + std::to_string(t.probes) + " probes)";
        }
        plan_ = std::move(probeCandidates_[best]);
        plan_.description += "; chosen by Monte Carlo probes, estimated cost: " + notes;
    }
    endProbes();
    return false;
}

void Solver::endProbes() {
    probeCandidates_.clear();
    probeTallies_.clear();
    probeInput_ = FilaInput{};
    fila_->reuseTables(filaReuse_);
}

void Solver::beginTrial() {
    // Monte Carlo (first seed article, Figure 9): each trial searches with a random row order.
    dlx_.shuffle(rng_);
    filaRefusedBelow_ = INT_MAX;
    trialEnding_ = false;
    depth_ = 0;
    frames_[0] = Frame{};
}

Status Solver::configureAlgorithms() {
    const int pieces = model_.mobileCount();
    volumeOffFor_.clear();
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
        // the extended index each time costs more than it saves (box-in-a-diamond). Nor at 8
        // pieces or fewer, where building it costs more than the nodes it saves: the F-order
        // puzzles among those of def/ 4-11% faster without it (hexominoes 01-09 in 7x6 1.26 ->
        // 1.14 ms with 20,042 placements instead of 8,140), the others the same search.
        extendedIndex_ = pieces <= 20 && pieces > kShortSearchPieces ? kMaxIndexBits : 0;
        autoTuned_ = true;
        // Not on a search of at most kShortSearchPieces pieces: there the filter costs more
        // than the placements it saves (all 19 such puzzles of def/ 0-16% faster without it,
        // Soma 1.70 -> 1.46 ms, with 0-20% more placements; with more pieces it pays: the
        // family benchmark's other puzzles 5% slower in sum without it).
        if (volumeFilterAt_ == INT_MAX && pieces > kShortSearchPieces) volumeFilterAt_ = pieces;
        // A one-time parity filter (first seed article, "Image Filters"): a lookup per image,
        // the same search where no image's parity is out of reach (10x6, Tetris Cube,
        // Bedlam), and fewer placements where some are: Soma 38k -> 21k, the Soma figures
        // 1.1-1.9x faster (bench/FAMILIES.md, `auto+P`).
        if (parityFilterAt_ == INT_MAX) parityFilterAt_ = pieces;
        if (pieces > 20) {
            filaAt_ = 15;
            orderText_ = "a@160:e=15:f=3";
        } else if (!fullBox && pieces >= 15) {
            filaAt_ = pieces - 4;
            volumeFilterAt_ = std::min(volumeFilterAt_, filaAt_);
            orderText_ = "s:e=" + std::to_string(filaAt_) + ":f=3";
        } else {
            filaAt_ = pieces - 1;
            // DLX's one level places the piece -r constrains. Left to min-fit, the root could
            // branch on a corner cell with fewer rows instead (the one-time volume filter thins
            // the corners), and FILA would then start with the constrained piece still to place.
            // Measured (placements, default -r): 12x5 pentominoes 6.1M -> 2.2M, 15x4 1.6M ->
            // 0.54M, hexominoes 12x5 1.1M -> 0.21M, tetrominoes+pentominoes 10x5 25.7M -> 6.6M,
            // Soma roof 36k -> 13k; Tetris Cube, Bedlam, 10x6 unchanged (they branched on it
            // already). On flat boards with holes either can be better: a cell beside a hole
            // (7x9 minus 3 cells: 0.39M against 1.17M; 8x8 with a hole at 2,2: 1.14M against
            // 2.27M) or the piece (8x8 without the middle of each side: 0.42M against 1.33M),
            // so there Monte Carlo probes choose (chooseRootByProbes). In 3-D too: solid
            // pentominoes in 5x4x3 branch best on I's 12 images (with Y constrained: 0.49G
            // placements against 0.90G on Y's 56), so a long 3-D search lets the probes choose
            // and a short one keeps the piece (finishSetup). A forced move (a column of one
            // row) still comes first.
            rootOnConstrainedPiece_ = flat && fullBox;
            rootByProbes_ = !rootOnConstrainedPiece_;
            rootProbesWhenLong_ = !flat;
            // A long thin full box (a cross-section of at most 6 cells: 10x3x2, 8x2x2) fills like
            // a strip, column by column: F as on flat boxes. Solid pentominoes in 10x3x2: 0.028 s
            // with E, 0.016 s with F (0.94 M and 1.0 M attempts: E's fit counting costs 2.5x
            // per node); in 6x5x2 (a section of 10) F is 4.6x slower than E, in 5x4x3 5.6x.
            int dims[3] = {model_.xDim, model_.yDim, model_.zDim};
            std::sort(dims, dims + 3);
            const bool thinBox = fullBox && dims[0] * dims[1] <= 6;
            const bool useE = (!flat || !fullBox) && !thinBox;
            orderText_ = useE ? "s:e=" + std::to_string(filaAt_) + ":c=" + std::to_string(std::min(2, filaAt_))
                              : "s:f=" + std::to_string(filaAt_);
        }
        // Filters reapplied while N or more pieces remain, and the volume trigger, work on the
        // DLX matrix: leave those levels to DLX.
        for (int at : {options_.volumeBacktrack, options_.parityFilter, options_.volumeFilter, options_.fitFilter})
            if (at > 0) filaAt_ = std::min(filaAt_, at - 1);
    }
    if (filaAt_ > pieces) filaAt_ = pieces;
    // A piece whose cells do not all touch face to face can lie across two regions of open
    // cells: the volume filter and trigger (a region must hold whole pieces) would cut
    // solutions (QA: 8 solutions counted as 6 or 0). They are off for such puzzles, asked for
    // or chosen (infoText says so).
    // The dead-cell cut likewise: a hole with no open neighbour can still take a piece in
    // parts (one part a single cell).
    const int inParts = model_.disconnectedShape();
    deadCellCut_ = autoTuned_ && inParts < 0;
    if (inParts >= 0) {
        if (volumeFilterAt_ != INT_MAX || volumeBacktrackAt_ != INT_MAX) volumeOffFor_ = model_.shapes[inParts].name;
        volumeFilterAt_ = INT_MAX;
        volumeBacktrackAt_ = INT_MAX;
    }
    return Status::success();
}

void Solver::fillFilaInput(const DlxMatrix& dlx, int pieces) {
    filaInput_.openCells.clear();
    for (int c = dlx.firstColumn(); c != dlx.root() && c < dlx.cellColumns(); c = dlx.nextColumn(c))
        filaInput_.openCells.push_back(c);
    // In the DLX header list's order: the order "first open cell" fills the box (dlx.cpp), so
    // FILA's bits number the cells the same way however the box is turned or written.
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
    fillFilaInput(dlx_, model_.mobileCount() - depth_);
    budget -= static_cast<long long>(filaInput_.images.size() / 16) + 1;  // building FILA's lists
    return fila_->start(filaInput_);
}

std::string Solver::configurationDescription() const {
    if (!ready()) return "not configured yet (setup " + std::string(state_ == State::Running ? "running" : "stopped") + ")";
    std::ostringstream os;
    os << (autoTuned_ ? "automatic: " : "") << "DLX";
    if (fila_)
        os << ", FILA when " << filaAt_ << " pieces remain" << (nof_ ? " with NOF" : "")
           << (nof_ && extendedIndex_ > 6 ? " (fixed orders: " + std::to_string(extendedIndex_) + " index cells)" : "")
           << (deadCellCut_ && schedule_.at(1).kind == HeuristicKind::First ? ", dead-cell cut" : "")
           << (filaFromRoot_ ? ", its tables shared by the root's images" : "");
    auto filter = [&](const char* name, int at) {
        if (at == INT_MAX) return;
        os << ", " << name << (at >= model_.mobileCount() ? " filter once" : " filter while " + std::to_string(at) + "+ remain");
    };
    filter("volume", volumeFilterAt_);
    filter("parity", parityFilterAt_);
    filter("fit", fitFilterAt_);
    if (parityBacktrack_) os << ", parity trigger";
    if (volumeBacktrackAt_ != INT_MAX) os << ", volume trigger while " << volumeBacktrackAt_ << "+ remain";
    if (!volumeOffFor_.empty()) os << ", volume constraints off (piece " << volumeOffFor_ << " is in parts that do not touch face to face)";
    os << ", heuristics " << schedule_.describe();
    if (stats_.filaRefused > 0)
        os << "; FILA refused " << stats_.filaRefused << " time(s): its tables would pass "
           << formatBytes(filaTableLimit_) << ", DLX searched those regions";
    return os.str();
}

std::string Solver::rootDescription() const {
    if (!rootByProbes_) return "";
    if (rootChoice_ < 0) return "the root: min-fit's column or the constrained piece, chosen by probes when the search starts";
    if (rootChoice_ == 2) return "the root on the constrained piece (min-fit's choice too: nothing to choose)";
    if (rootChoice_ == 3) return "the root on a forced move (a column with one way to fill it: nothing to choose)";
    std::ostringstream os;
    os << "the root on " << (rootChoice_ == 1 ? "the constrained piece" : "min-fit's column")
       << ", chosen by probes (estimated cost with the piece " << std::setprecision(2) << rootEstimates_[1]
       << ", with min-fit's column " << rootEstimates_[0] << ")";
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
                if (remaining < parityFilterAt_ || !fp.parityChanged || fp.cls >= parity_.classCount()) {
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
                if (remaining < volumeFilterAt_) {
                    fp.kind = FilterProgress::kFit;
                    continue;
                }
            } else if (remaining < fitFilterAt_) {
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

Solver::State Solver::step(long long budget, double maxSeconds) {
    if (state_ != State::Running) return state_;
    try {
        return stepUnguarded(budget, maxSeconds);
    } catch (const std::bad_alloc&) {
        // Under a memory limit (ulimit -v, a container) an allocation in setup or in the
        // search (FILA's tables, a solution's grid) threw out of the engine and aborted the
        // process. The structures are valid (every container keeps its invariants), so the
        // solver just stops with the error; its destructor frees what it holds.
        outOfMemory_ = true;
        fail(std::string("out of memory while ") + (setup_ != kSetReady ? "setting up the solver" : "searching") +
             (memoryBytes() > 0 ? " (its model and matrix take about " + formatBytes(memoryBytes()) + ")" : ""));
        return state_;
    }
}

long long Solver::memoryBytes() const {
    if (setup_ <= kSetModel) return 0;
    long long cellCells = 0;
    for (const Image& img : model_.images) cellCells += static_cast<long long>(img.cells.size());
    return modelBytes(static_cast<long long>(model_.images.size()), cellCells) +
           matrixBytes(static_cast<long long>(model_.images.size()), cellCells, model_.openCellCount() + model_.shapeCount());
}

Solver::State Solver::stepUnguarded(long long budget, double maxSeconds) {
    const auto t0 = Clock::now();
    auto overTime = [&] { return maxSeconds > 0 && secondsSince(t0) >= maxSeconds; };
    auto cancelled = [&] { return cancelRequested_.load(std::memory_order_relaxed); };
    if (setup_ != kSetReady) {
        // Setup in bounded units, polling cancel and the clock between them. A slice that
        // finishes setup returns there (the search starts in the next one).
        while (!cancelled() && setupSome() && !overTime()) {
        }
        stats_.setupSeconds += secondsSince(t0);
        if (state_ == State::Running && cancelled()) state_ = State::Cancelled;
        return state_;
    }
    // The search in chunks: between chunks the clock is read (a slice ends after maxSeconds
    // even when each placement is slow, e.g. 10 ms in a matrix of 3.5 million rows). Each
    // slice starts with a chunk of 1 unit and doubles it while a chunk takes under half a
    // millisecond, so a sudden change of cost per unit (cheap filter rows, then placements
    // in a huge matrix) cannot make one chunk long, and the clock costs nothing measurable.
    if (maxSeconds <= 0) {
        search(budget);
    } else {
        // At most kMaxChunk units (a few milliseconds even where a unit's cost is misjudged
        // tenfold) between two readings of the clock.
        constexpr long long kMaxChunk = 1 << 12;
        auto tc = t0;
        chunk_ = 1;
        while (budget > 0 && state_ == State::Running && !cancelled()) {
            const long long given = std::min(budget, chunk_);
            long long left = given;
            search(left);
            budget -= given - left;  // left < 0 when FILA's recursive tail ran past the chunk
            const auto now = Clock::now();
            const double dt = std::chrono::duration<double>(now - tc).count();
            tc = now;
            if (dt < 0.0005 && chunk_ < kMaxChunk) chunk_ *= 2;
            else if (dt > 0.001) chunk_ = std::max(1LL, chunk_ / 2);
            if (std::chrono::duration<double>(now - t0).count() >= maxSeconds) break;
        }
    }
    if (state_ == State::Running && cancelled()) state_ = State::Cancelled;
    if (guideSize_ > 0) {
        // a subproblem: the levels of its path were replayed, not searched (parallel/)
        guardStatistics();
        if (state_ == State::Done && guided_ < guideSize_ && guideError_.empty())
            guideError_ = "the subproblem's path is not a path of this search (a level on it was a dead end)";
    }
    stats_.searchSeconds += secondsSince(t0);
    return state_;
}

void Solver::search(long long& budget) {
    const int pieces = model_.mobileCount();
    const bool monteCarlo = options_.monteCarlo.trials > 0;
    const bool tracing = options_.trace != 0 && onTrace_;
    const int filterFrom = std::min({parityFilterAt_, volumeFilterAt_, fitFilterAt_});
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
        if (f.stage == kEnter) {
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
                filter_ = FilterProgress{};
                filter_.parityChanged = depth_ == 0 || model_.images[placed_[depth_ - 1]].parity != 0;
                f.stage = kFilter;
            } else {
                f.stage = kChoose;
            }
        }
        if (f.stage == kFilter) {
            // Monte Carlo shuffles the rows before each trial: its root filters run again.
            const bool rootReplay = depth_ == 0 && rootFiltersKnown_ && !monteCarlo;
            if (!(rootReplay ? replayRootFilters(budget) : runFilters(remaining, budget))) break;  // resumed next slice
            if (depth_ == 0 && !rootFiltersKnown_) {
                rootHidden_ = hidden_;
                rootHiddenBy_ = hiddenBy_;
                rootFiltersKnown_ = true;
            }
            f.stage = kChoose;
        }
        if (f.stage == kChoose) {
            if (depth_ == 0 && (filaFromRoot_ || (rootByProbes_ && rootChoice_ < 0))) {
                // The root's region, filtered: what FILA starts on below every root image.
                budget -= static_cast<long long>(dlx_.rowCount() / 16) + 1;
                fillFilaInput(dlx_, pieces);
                rootFilaInput_ = filaInput_;
            }
            if (fila_ && remaining <= filaAt_ && remaining < filaRefusedBelow_ &&
                model_.openCellCount() - placedVolume_ <= fila_->capacity() &&
                (!monteCarlo || remaining < options_.monteCarlo.range)) {
                if (budget <= 0 || cancelRequested_.load(std::memory_order_relaxed)) break;
                if (startFila(budget)) {
                    if (depth_ < guideSize_) followGuideInFila();  // a subproblem's path goes on in FILA
                    f.stage = kFila;
                    continue;
                }
                // FILA's tables for this region would pass their memory limit: DLX searches
                // this level, and FILA is tried again one level down (a smaller region).
                filaRefusedBelow_ = remaining;
                stats_.filaRefused++;
            }
            int col = dlx_.chooseColumn(*rankAt_[remaining]);
            if (col >= 0 && depth_ == 0 && firstColumn_ >= 0 && dlx_.length(col) > 1 && dlx_.length(firstColumn_) > 0)
                col = firstColumn_;
            if (col >= 0 && depth_ == 0 && rootByProbes_) {
                // Decided once (every subproblem's root is the same): nothing to choose when
                // min-fit takes the piece's column itself or a forced move.
                const bool choice = col != constrainedColumn_ && dlx_.length(col) > 1 && dlx_.length(constrainedColumn_) > 0;
                if (rootChoice_ < 0) rootChoice_ = choice ? chooseRootByProbes(col, budget) : col == constrainedColumn_ ? 2 : 3;
                if (choice && rootChoice_ == 1) col = constrainedColumn_;
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
            f.stage = kNext;
            if (depth_ < guideSize_) followGuide(f);
        } else if (f.stage == kFila) {
            FilaEngine::Run r = fila_->run(budget);
            if (r == FilaEngine::Run::Exhausted) {
                leaveLevel();
                continue;
            }
            if (r == FilaEngine::Run::Stopped && state_ == State::Running) state_ = State::LimitReached;
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
            budget -= dlxCost_;
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
        } else if (f.stage == kReturn) {
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
    filaReuse_ = true;
    if (fila_) fila_->reuseTables(true);  // sibling subproblems often restart FILA on one region
    guide_ = path;
    guideSize_ = static_cast<int>(path.size());
    guided_ = 0;
    donatedShare_ = 0;
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
    SolverStats::forEachLevelCounter(stats_, guardStats_, restore);
}

double Solver::fractionDone() const {
    if (state_ == State::Done) return 1.0 - donatedShare_;
    if (setup_ != kSetReady) return 0.0;
    if (options_.monteCarlo.trials > 0)
        return std::min(1.0, static_cast<double>(stats_.monteCarloTrials) / static_cast<double>(options_.monteCarlo.trials));
    double done = 0, weight = 1;
    for (int d = 0; d <= depth_; ++d) {
        const Frame& f = frames_[d];
        if (f.stage == kFila) {
            done += weight * fila_->fractionDone();
            break;
        }
        if (f.stage != kNext && f.stage != kReturn) break;  // the top level has not chosen yet
        if (d < guideSize_) continue;                        // a path level: its one choice
        // The column's own list stays whole while it is covered: its rows are the choices.
        int index = 0, n = 0;
        for (int node = dlx_.down(f.col); node != f.col; node = dlx_.down(node), ++n)
            if (node == f.node) index = n;
        if (f.node == f.col) index = n;
        // kReturn below the top: f.node's subtree is in progress; at the top it has just ended.
        if (f.stage == kReturn && d == depth_) ++index;
        if (n == 0) break;
        done += weight * index / n;
        weight /= n;
    }
    return std::min(1.0, done);
}

int Solver::donate(std::vector<std::vector<int>>& out, double* share, int maxPaths) {
    if (state_ != State::Running || options_.monteCarlo.trials > 0 || options_.trace != 0) return 0;
    const int pieces = model_.mobileCount();
    double weight = 1;  // of the level's whole list, as in fractionDone
    double given = 0;
    // The shallowest level with untried siblings: the biggest pieces of work (work stealing
    // takes from the top of the tree, so a few donations keep every thread busy).
    for (int d = 0; d <= depth_; ++d) {
        Frame& f = frames_[d];
        if (f.stage == kFila) {
            // FILA's paths begin with the root it followed, if it did.
            const std::vector<int> prefix(placed_.begin(), placed_.begin() + d - filaFollowed_);
            double filaShare = 0;
            const int n = fila_->donate(prefix, out, &filaShare);
            given = weight * filaShare;
            donatedShare_ += given;
            if (share) *share = given;
            return n;
        }
        // kNext: f.node is next (not yet placed); kReturn: f.node is placed. Either way
        // the untried rows are those after it, up to f.stop.
        const bool open = f.stage == kNext || f.stage == kReturn;
        int rows = 0;
        if (open && d >= guideSize_)
            for (int node = dlx_.down(f.col); node != f.col; node = dlx_.down(node)) ++rows;
        if (!open || f.node == f.stop) {
            if (open && rows > 0) weight /= rows;
            continue;
        }
        const int remaining = pieces - d;
        // The last maxPaths untried rows go; this search stops before the first of them.
        int untried = 0;
        for (int node = dlx_.down(f.node); node != f.stop; node = dlx_.down(node)) ++untried;
        int first = dlx_.down(f.node);
        for (int skip = untried - std::max(1, maxPaths); skip > 0; --skip) first = dlx_.down(first);
        int n = 0;
        for (int node = first; node != f.stop; node = dlx_.down(node)) {
            std::vector<int> path(placed_.begin(), placed_.begin() + d);
            path.push_back(dlx_.imageOfRow(dlx_.rowOf(node)));
            out.push_back(std::move(path));
            // Counted as kNext would have (a DLX row in the column fits: attempt and fit).
            stats_.attempts[remaining]++;
            stats_.fits[remaining]++;
            ++n;
        }
        if (n > 0) {
            f.stop = first;
            given = rows > 0 ? weight * n / rows : 0;
            donatedShare_ += given;
            if (share) *share = given;
            return n;
        }
        if (rows > 0) weight /= rows;
    }
    return 0;
}

}  // namespace polycube
