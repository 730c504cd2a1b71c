// Solver's setup, run in bounded units by step() until ready(): the model, the symmetries,
// the algorithm plan (solver/configuration.hpp), the impossibility proofs, the redundancy
// filter's plan, the automatic configuration's Monte Carlo probes (solver_probes.cpp), and
// the DLX matrix.
#include "solver/solver.hpp"

#include <algorithm>
#include <climits>

#include "common/text.hpp"
#include "solver/solver_parts.hpp"

namespace polycube {

using solver_parts::Clock;
using solver_parts::secondsSince;

// Cell visits a weighting pass may make at setup: 6 million is ~20 ms natively, ~50 ms in
// WebAssembly, on the largest models; past it a weighting is skipped, never guessed.
constexpr long kWeightingCellVisits = 6000000;

namespace {

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
                // The orbits with no piece to constrain would search the whole tree and check
                // each solution against every symmetry: the enumerating search, slower.
                if (algo_.orbits && plan.needsGlobalCheck) algo_.orbits = false;
                else adoptRedundancyPlan(std::move(plan), std::move(candidates), true);
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
            setup_ = probes_.active() ? kSetProbes : kSetMatrix;
            if (!probes_.active()) beginMatrix();
            return true;
        case kSetProbes:
            if (probes_.step(probeContext(), plan_)) return true;
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

    Result<AlgorithmPlan> plan = planAlgorithms(options_, PuzzleFacts::of(model_));
    if (!plan.ok()) return plan.status;
    algo_ = std::move(plan.value);

    // Symmetries are needed by -r, -u, -M and the orbits of all solutions.
    const bool wantSymmetry = options_.redundancy != Redundancy::Off || options_.unique || options_.mirror || algo_.orbits;
    if (options_.mirror && !mirrorClosed(model_))
        return Status::error("-M: the pieces are not closed under mirroring (some piece's mirror image is not in the set), "
                             "so mirror images of solutions are not solutions");
    if (wantSymmetry) symmetries_ = puzzleSymmetries(model_, options_.mirror);
    // The orbits need a symmetry to save anything (kSetPlan also drops them when no piece can
    // carry the filter).
    if (symmetries_.size() <= 1) algo_.orbits = false;
    ranks_.reserve(algo_.schedule.entries.size());
    for (const auto& e : algo_.schedule.entries) {
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
        for (size_t k = 0; k < algo_.schedule.entries.size(); ++k)
            if (rem <= algo_.schedule.entries[k].threshold) idx = k;
        rankAt_[rem] = &ranks_[idx];
    }

    // Whole-puzzle parity (first seed article: the 35 hexominoes can never fill a rectangle).
    impossible_ = parityImpossibility(model_);
    if (!impossible_.empty()) impossibleKind_ = "parity";
    else if (options_.weightingProofs) {
        // Other cell weightings (colourings mod k, corners, few open neighbours): a bounded
        // setup-time check, a few milliseconds at most.
        const auto tw = Clock::now();
        // Bounded tighter than the proofs' own default (30 million cell visits, 100 ms natively
        // on a million images, 250 ms in WebAssembly): setup must stay in short slices; a
        // weighting past the bound is skipped, never guessed.
        WeightingLimits limits;
        limits.maxCellVisits = kWeightingCellVisits;
        limits.reach = false;  // in a setup unit of its own: proveByReach
        WeightingProof proof = weightingImpossibility(model_, limits);
        weightingsTried_ = proof.tried;
        weightingSeconds_ = secondsSince(tw);
        adoptProof(proof);
    }

    filters_.init(algo_.volumeFilterAt != INT_MAX || algo_.volumeBacktrackAt != INT_MAX);
    filled_.assign((model_.openCellCount() + 63) / 64, 0);
    copiesPlaced_.assign(model_.shapeCount(), 0);
    for (auto* v : {&stats_.parityBacktracks, &stats_.volumeBacktracks, &stats_.parityFiltered, &stats_.volumeFiltered,
                    &stats_.fitFiltered})
        v->assign(pieces + 1, 0);

    if (algo_.filaAt > 0) {
        // Largest region FILA can be handed: the box minus the smallest pieces placed first.
        std::vector<int> sizes;
        for (const Shape& sh : model_.shapes) sizes.insert(sizes.end(), sh.count, sh.size);
        std::sort(sizes.begin(), sizes.end());
        int cells = model_.openCellCount();
        for (int k = 0; k < pieces - algo_.filaAt && k < static_cast<int>(sizes.size()); ++k) cells -= sizes[k];
        // Sized for the whole region when that takes no wider occupancy field: FILA can then
        // start below the root from the root's tables (filaFromRoot_) and the -r probes start
        // it once for every candidate (ConfigurationProbes).
        if (filaCapacityFor(model_.openCellCount()) == filaCapacityFor(cells)) cells = model_.openCellCount();
        FilaSettings fs;
        fs.schedule = algo_.schedule;
        fs.nof = algo_.nof;
        fs.extendedIndex = algo_.extendedIndex;
        fs.deadCellCut = algo_.deadCellCut;
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
        if (algo_.parityBacktrack) {
            fs.parity = &filters_.parity();
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
    if (algo_.orbits) planSearch_ = std::make_unique<RedundancyCandidateSearch>(model_, symmetries_);  // kSetPlan
    return Status::success();
}

void Solver::adoptRedundancyPlan(RedundancyPlan plan, std::vector<RedundancyPlan> candidates, bool automatic) {
    plan_ = std::move(plan);
    planActive_ = true;
    // No probes when the puzzle is already proved impossible: nothing will be searched.
    if (automatic && impossible_.empty() && fila_)
        probes_.begin(probeContext(), std::move(candidates), algo_.automatic, algo_.filaAt == model_.mobileCount() - 1);
}

ConfigurationProbes::Context Solver::probeContext() {
    return ConfigurationProbes::Context{model_, *fila_, filters_.holesParity(), filters_.parityLeft(), filaReuse_};
}

void Solver::estimateWholeSearch() {
    // Whether the search is short (ConfigurationProbes::estimateWholeSearch): only for the
    // automatic configuration with FILA below the root, and a search to be run.
    const int pieces = model_.mobileCount();
    if (!algo_.automatic || !fila_ || algo_.filaAt != pieces - 1 || !impossible_.empty() || options_.monteCarlo.trials > 0) return;
    // With -r the filter divides the search by the symmetries it removes.
    const double reduced = planActive_ ? std::max<double>(1, static_cast<double>(symmetries_.size())) : 1;
    probes_.estimateWholeSearch(probeContext(), reduced);
}

void Solver::beginMatrix() {
    if (planActive_) {
        redundancyText_ = algo_.orbits ? "OFF (every solution: the unique ones found with " + plan_.description +
                                             ", each listed with its distinct symmetric images)"
                                       : plan_.description;
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
    filters_.configure(algo_.parityFilterAt, algo_.volumeFilterAt, algo_.fitFilterAt, dlxCost_);
    root_.constrainedColumn = planActive_ && plan_.shape >= 0 && algo_.filaAt == pieces - 1 ? dlx_.columnOfShape(plan_.shape) : -1;
    const bool filaHoldsAll = fila_ && model_.openCellCount() <= fila_->capacity();
    const bool shortSearch = probes_.knownShort(algo_.automatic, pieces);
    const bool probesPossible = root_.constrainedColumn >= 0 && filaHoldsAll && options_.monteCarlo.trials == 0;
    if (algo_.rootProbesWhenLong && (shortSearch || !probesPossible)) {
        // 3-D: a short search keeps the piece (the probes would cost more than a wrong
        // root), as does one the probes cannot estimate.
        algo_.rootByProbes = false;
        algo_.rootOnConstrainedPiece = true;
    }
    root_.firstColumn = algo_.rootOnConstrainedPiece ? root_.constrainedColumn : -1;
    algo_.rootByProbes = algo_.rootByProbes && probesPossible;
    root_.choice = -1;
    root_.estimates[0] = root_.estimates[1] = -1;
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
    filaFromRoot_ = algo_.automatic && algo_.filaAt == pieces - 1 && filaHoldsAll && options_.monteCarlo.trials == 0 &&
                    options_.rootTables &&
                    (algo_.schedule.at(pieces - 1).fixedOrder() || shortSearch);
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

void Solver::adoptProof(const WeightingProof& proof) {
    impossible_ = proof.reason;  // empty when not proved
    impossibleKind_ = proof.kind;
    impossibleCells_.clear();
    for (int c : proof.cells) impossibleCells_.push_back(model_.openCellPos[c]);
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
    if (probes_.active()) probes_.stop(probeContext());  // nothing will be searched: no piece to choose
}

}  // namespace polycube
