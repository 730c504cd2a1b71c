// SolverSetup's phases (solver/solver_setup.hpp), each unit bounded: the model, the
// symmetries, the algorithm plan (solver/configuration.hpp), the impossibility proofs, the
// redundancy filter's plan, the automatic configuration's Monte Carlo probes
// (solver/configuration_probes.hpp), and the DLX matrix; what they decide is written into
// the Solver they configure.
#include "solver/solver_setup.hpp"

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

SolverSetup::SolverSetup(Solver& solver, const ModelLimits& limits)
    : s_(solver), limits_(limits), builder_(std::make_unique<ModelBuilder>(solver.def_, limits)) {}

bool SolverSetup::step() {
    // One unit of setup work, each bounded: a chunk of the model or the matrix, one Monte
    // Carlo probe of a redundancy candidate, or one of the short steps in between. false when
    // setup failed (the solver Failed) or is over.
    constexpr long long kChunk = 1 << 15;  // model / matrix work units (~0.1 ms natively)
    switch (phase_) {
        case kSetModel:
            if (builder_->step(kChunk) == ModelBuilder::Running) return true;
            if (builder_->failed()) {
                s_.fail(builder_->error());
                return false;
            }
            s_.model_ = builder_->take();
            s_.modelBuilt_ = true;
            builder_.reset();
            phase_ = kSetPrepare;
            return true;
        case kSetPrepare:
            if (Status st = prepare(); !st.ok) {
                s_.fail(st.message);
                return false;
            }
            phase_ = kSetPlan;
            return true;
        case kSetPlan:
            // the automatic -r choice, one shape's orbits per unit (RedundancyCandidateSearch)
            if (planSearch_) {
                if (planSearch_->step()) return true;
                std::vector<RedundancyPlan> candidates;
                RedundancyPlan plan = redundancyPlanFrom(planSearch_->take(), s_.symmetries_, &candidates);
                // The orbits with no piece to constrain would search the whole tree and check
                // each solution against every symmetry: the enumerating search, slower.
                if (s_.algo_.orbits && plan.needsGlobalCheck) s_.algo_.orbits = false;
                else adoptRedundancyPlan(std::move(plan), std::move(candidates), true);
                planSearch_.reset();
            }
            phase_ = kSetReach;
            return true;
        case kSetReach:
            // A unit of its own, apart from the estimate: on 100,000s of images each takes tens
            // of milliseconds (tests/hostile/random60.txt natively: the two together 44 ms,
            // twice that in WebAssembly, where a worker must answer a cancel within 100 ms).
            proveByReach();
            phase_ = kSetEstimate;
            return true;
        case kSetEstimate:
            estimateWholeSearch();
            phase_ = s_.probes_.active() ? kSetProbes : kSetMatrix;
            if (!s_.probes_.active()) beginMatrix();
            return true;
        case kSetProbes:
            if (s_.probes_.step(s_.probeContext(), s_.plan_)) return true;
            beginMatrix();
            phase_ = kSetMatrix;
            return true;
        case kSetMatrix:
            if (!s_.dlx_.buildSome(s_.model_, enabled_, kChunk)) return true;
            finishSetup();
            phase_ = kSetReady;
            return false;
        case kSetReady:
            return false;
    }
    return false;
}

Status SolverSetup::prepare() {
    const int pieces = s_.model_.mobileCount();

    Result<AlgorithmPlan> plan = planAlgorithms(s_.options_, PuzzleFacts::of(s_.model_));
    if (!plan.ok()) return plan.status;
    s_.algo_ = std::move(plan.value);

    // Symmetries are needed by -r, -u, -M and the orbits of all solutions.
    const bool wantSymmetry = s_.options_.redundancy != Redundancy::Off || s_.options_.unique || s_.options_.mirror || s_.algo_.orbits;
    if (s_.options_.mirror && !mirrorClosed(s_.model_))
        return Status::error("-M: the pieces are not closed under mirroring (some piece's mirror image is not in the set), "
                             "so mirror images of solutions are not solutions");
    if (wantSymmetry) s_.symmetries_ = puzzleSymmetries(s_.model_, s_.options_.mirror);
    // The orbits need a symmetry to save anything (kSetPlan also drops them when no piece can
    // carry the filter).
    if (s_.symmetries_.size() <= 1) s_.algo_.orbits = false;
    s_.ranks_.reserve(s_.algo_.schedule.entries.size());
    for (const auto& e : s_.algo_.schedule.entries) {
        std::vector<int> rank(s_.model_.openCellCount() + s_.model_.shapeCount(), 0);
        if (e.heuristic.fixedOrder()) {
            std::vector<int> cells = denseRanks(cellKeys(e.heuristic, s_.model_));
            std::copy(cells.begin(), cells.end(), rank.begin());
            std::fill(rank.begin() + s_.model_.openCellCount(), rank.end(), INT_MAX);
        }
        s_.ranks_.push_back(std::move(rank));
    }
    s_.rankAt_.assign(pieces + 1, nullptr);
    for (int rem = 0; rem <= pieces; ++rem) {
        size_t idx = 0;
        for (size_t k = 0; k < s_.algo_.schedule.entries.size(); ++k)
            if (rem <= s_.algo_.schedule.entries[k].threshold) idx = k;
        s_.rankAt_[rem] = &s_.ranks_[idx];
    }

    // Whole-puzzle parity (first seed article: the 35 hexominoes can never fill a rectangle).
    s_.impossible_ = parityImpossibility(s_.model_);
    if (!s_.impossible_.empty()) s_.impossibleKind_ = "parity";
    else if (s_.options_.weightingProofs) {
        // Other cell weightings (colourings mod k, corners, few open neighbours): a bounded
        // setup-time check, a few milliseconds at most.
        const auto tw = Clock::now();
        // Bounded tighter than the proofs' own default (30 million cell visits, 100 ms natively
        // on a million images, 250 ms in WebAssembly): setup must stay in short slices; a
        // weighting past the bound is skipped, never guessed.
        WeightingLimits limits;
        limits.maxCellVisits = kWeightingCellVisits;
        limits.reach = false;  // in a setup unit of its own: proveByReach
        WeightingProof proof = weightingImpossibility(s_.model_, limits);
        s_.weightingsTried_ = proof.tried;
        s_.weightingSeconds_ = secondsSince(tw);
        adoptProof(proof);
    }

    s_.filters_.init(s_.algo_.volumeFilterAt != INT_MAX || s_.algo_.volumeBacktrackAt != INT_MAX);
    s_.filled_.assign((s_.model_.openCellCount() + 63) / 64, 0);
    s_.copiesPlaced_.assign(s_.model_.shapeCount(), 0);
    for (auto* v : {&s_.stats_.parityBacktracks, &s_.stats_.volumeBacktracks, &s_.stats_.parityFiltered, &s_.stats_.volumeFiltered,
                    &s_.stats_.fitFiltered})
        v->assign(pieces + 1, 0);

    if (s_.algo_.filaAt > 0) {
        // Largest region FILA can be handed: the box minus the smallest pieces placed first.
        std::vector<int> sizes;
        for (const Shape& sh : s_.model_.shapes) sizes.insert(sizes.end(), sh.count, sh.size);
        std::sort(sizes.begin(), sizes.end());
        int cells = s_.model_.openCellCount();
        for (int k = 0; k < pieces - s_.algo_.filaAt && k < static_cast<int>(sizes.size()); ++k) cells -= sizes[k];
        // Sized for the whole region when that takes no wider occupancy field: FILA can then
        // start below the root from the root's tables (filaFromRoot_) and the -r probes start
        // it once for every candidate (ConfigurationProbes).
        if (filaCapacityFor(s_.model_.openCellCount()) == filaCapacityFor(cells)) cells = s_.model_.openCellCount();
        FilaSettings fs;
        fs.schedule = s_.algo_.schedule;
        fs.nof = s_.algo_.nof;
        fs.extendedIndex = s_.algo_.extendedIndex;
        fs.deadCellCut = s_.algo_.deadCellCut;
        {
            long long cellCells = 0;
            for (const Image& img : s_.model_.images) cellCells += static_cast<long long>(img.cells.size());
            const long long used = modelBytes(static_cast<long long>(s_.model_.images.size()), cellCells) +
                                   matrixBytes(static_cast<long long>(s_.model_.images.size()), cellCells,
                                               s_.model_.openCellCount() + s_.model_.shapeCount());
            fs.maxTableBytes = std::max(0LL, limits_.maxTotalBytes - used);
            s_.filaTableLimit_ = fs.maxTableBytes;
        }
        fs.attempts = &s_.stats_.attempts;
        fs.fits = &s_.stats_.fits;
        fs.cancel = &s_.cancelRequested_;
        if (s_.algo_.parityBacktrack) {
            fs.parity = &s_.filters_.parity();
            fs.parityBacktracks = &s_.stats_.parityBacktracks;
        }
        fs.onSolution = [solver = &s_](const int* images, int count) {
            // FILA's placements begin at the level it started on, or at the root it followed.
            std::copy(images, images + count, solver->placed_.begin() + solver->depth_ - solver->filaFollowed_);
            solver->reportSolution();
            return solver->state_ == Solver::State::Running &&
                   !(solver->options_.maxSolutions > 0 && solver->stats_.solutions >= solver->options_.maxSolutions);
        };
        if (s_.options_.trace != 0) {
            // FILA applies the -t K level filter itself and numbers the copies on from the
            // ones DLX placed (as traceInstance does).
            fs.onTrace = [solver = &s_](int op, int remaining, int a, int b) {
                if (solver->onTrace_) solver->onTrace_({op, remaining, a, b});
            };
            fs.traceLevel = s_.options_.trace;
        }
        s_.fila_ = makeFila(s_.model_, std::move(fs), std::min(cells, kFilaMaxCells));
    }
    enabled_.assign(s_.model_.images.size(), 1);
    if (s_.options_.redundancy != Redundancy::Off) {
        int forced = -1;
        if (s_.options_.redundancy == Redundancy::Named) {
            for (const PieceInstance& inst : s_.model_.instances)
                if (inst.name == s_.options_.redundancyPiece) {
                    if (inst.stationary)
                        return Status::error("-r " + inst.name + ": that piece is stationary; name a mobile piece");
                    forced = inst.shape;
                }
            if (forced < 0) return Status::error("-r: no piece named '" + quoteText(s_.options_.redundancyPiece) + "' in this puzzle");
        }
        if (forced < 0 && s_.symmetries_.size() > 1) {
            planSearch_ = std::make_unique<RedundancyCandidateSearch>(s_.model_, s_.symmetries_);  // kSetPlan
        } else {
            Result<RedundancyPlan> plan = planRedundancyFilter(s_.model_, s_.symmetries_, forced);
            if (!plan.ok()) return Status::error("-r: " + plan.status.message);
            adoptRedundancyPlan(std::move(plan.value), {}, false);
        }
    }
    if (s_.algo_.orbits) planSearch_ = std::make_unique<RedundancyCandidateSearch>(s_.model_, s_.symmetries_);  // kSetPlan
    return Status::success();
}

void SolverSetup::adoptRedundancyPlan(RedundancyPlan plan, std::vector<RedundancyPlan> candidates, bool automatic) {
    s_.plan_ = std::move(plan);
    s_.planActive_ = true;
    // No probes when the puzzle is already proved impossible: nothing will be searched.
    if (automatic && s_.impossible_.empty() && s_.fila_)
        s_.probes_.begin(s_.probeContext(), std::move(candidates), s_.algo_.automatic, s_.algo_.filaAt == s_.model_.mobileCount() - 1);
}

void SolverSetup::estimateWholeSearch() {
    // Whether the search is short (ConfigurationProbes::estimateWholeSearch): only for the
    // automatic configuration with FILA below the root, and a search to be run.
    const int pieces = s_.model_.mobileCount();
    if (!s_.algo_.automatic || !s_.fila_ || s_.algo_.filaAt != pieces - 1 || !s_.impossible_.empty() || s_.options_.monteCarlo.trials > 0) return;
    // With -r the filter divides the search by the symmetries it removes.
    const double reduced = s_.planActive_ ? std::max<double>(1, static_cast<double>(s_.symmetries_.size())) : 1;
    s_.probes_.estimateWholeSearch(s_.probeContext(), reduced);
}

void SolverSetup::beginMatrix() {
    if (s_.planActive_) {
        s_.redundancyText_ = s_.algo_.orbits ? "OFF (every solution: the unique ones found with " + s_.plan_.description +
                                             ", each listed with its distinct symmetric images)"
                                       : s_.plan_.description;
        for (int i : s_.plan_.removedImages) enabled_[i] = 0;
    }
    s_.enabledImages_ = static_cast<int>(std::count(enabled_.begin(), enabled_.end(), 1));
    s_.dlx_.begin(s_.model_, enabled_);
}

void SolverSetup::finishSetup() {
    const int pieces = s_.model_.mobileCount();
    // What a DLX placement costs, in budget units of about a microsecond (1,000 node
    // updates): selecting a row covers each of its columns, and covering a column unlinks
    // every node of every row in it. 1 on the catalog's puzzles; about 1,300 for 100 random
    // 10-cell pieces in a 10x10x10 box (1.1 million rows), where a placement takes 10 ms:
    // charged so, a slice's budget is about a time whatever the matrix.
    const long long nodes = s_.dlx_.nodeCount(), columns = std::max(1, s_.dlx_.columnCount()),
                    rows = std::max(1, s_.dlx_.rowCount());
    const long long rowLength = nodes / rows;
    s_.dlxCost_ = 1 + (nodes / columns) * rowLength * rowLength / 1024;
    s_.filters_.configure(s_.algo_.parityFilterAt, s_.algo_.volumeFilterAt, s_.algo_.fitFilterAt, s_.dlxCost_);
    s_.root_.constrainedColumn = s_.planActive_ && s_.plan_.shape >= 0 && s_.algo_.filaAt == pieces - 1 ? s_.dlx_.columnOfShape(s_.plan_.shape) : -1;
    const bool filaHoldsAll = s_.fila_ && s_.model_.openCellCount() <= s_.fila_->capacity();
    const bool shortSearch = s_.probes_.knownShort(s_.algo_.automatic, pieces);
    const bool probesPossible = s_.root_.constrainedColumn >= 0 && filaHoldsAll && s_.options_.monteCarlo.trials == 0;
    if (s_.algo_.rootProbesWhenLong && (shortSearch || !probesPossible)) {
        // 3-D: a short search keeps the piece (the probes would cost more than a wrong
        // root), as does one the probes cannot estimate.
        s_.algo_.rootByProbes = false;
        s_.algo_.rootOnConstrainedPiece = true;
    }
    s_.root_.firstColumn = s_.algo_.rootOnConstrainedPiece ? s_.root_.constrainedColumn : -1;
    s_.algo_.rootByProbes = s_.algo_.rootByProbes && probesPossible;
    s_.root_.choice = -1;
    s_.root_.estimates[0] = s_.root_.estimates[1] = -1;
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
    s_.filaFromRoot_ = s_.algo_.automatic && s_.algo_.filaAt == pieces - 1 && filaHoldsAll && s_.options_.monteCarlo.trials == 0 &&
                    s_.options_.rootTables &&
                    (s_.algo_.schedule.at(pieces - 1).fixedOrder() || shortSearch);
    if (s_.filaFromRoot_) {
        s_.filaReuse_ = true;
        s_.fila_->reuseTables(true);
    }
    s_.beginSearch();
}

void SolverSetup::adoptProof(const WeightingProof& proof) {
    s_.impossible_ = proof.reason;  // empty when not proved
    s_.impossibleKind_ = proof.kind;
    s_.impossibleCells_.clear();
    for (int c : proof.cells) s_.impossibleCells_.push_back(s_.model_.openCellPos[c]);
}

void SolverSetup::proveByReach() {
    // The costliest weighting (cells few pieces can reach: 1.5-4x the others together, 0.25 ms
    // on 10x6, 4 ms on the box-in-a-diamond hexominoes natively) in a setup unit of its own,
    // so that no slice holds both. Run on short searches too, though a short search would end
    // as fast: a person who built an impossible puzzle is owed the reason, and it costs 0.6%
    // of 10x6's run, 5% of a 1 ms hexomino rectangle.
    if (!s_.options_.weightingProofs || !s_.impossible_.empty()) return;
    const auto tw = Clock::now();
    WeightingLimits limits;
    limits.maxCellVisits = kWeightingCellVisits;
    WeightingProof proof = reachImpossibility(s_.model_, limits);
    s_.weightingsTried_ += proof.tried;
    s_.weightingSeconds_ += secondsSince(tw);
    if (!proof.impossible) return;
    adoptProof(proof);
    if (s_.probes_.active()) s_.probes_.stop(s_.probeContext());  // nothing will be searched: no piece to choose
}

}  // namespace polycube
