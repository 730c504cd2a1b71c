// SolverSetup's phases (solver/solver_setup.hpp), each unit bounded: the model, the
// symmetries, the algorithm plan (solver/configuration.hpp), the impossibility proofs, the
// redundancy filter's plan, the automatic configuration's Monte Carlo probes
// (solver/configuration_probes.hpp), and the DLX matrix; what they decide goes into the
// configuration they hand over (solver/search_configuration.hpp), what they build into the
// Solver's objects (SolverSetup::Targets).
#include "solver/solver_setup.hpp"

#include "memo/memo_choice.hpp"
#include "memo/memo_options.hpp"

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

SolverSetup::SolverSetup(const PuzzleDef& def, const SolverOptions& options, const ModelLimits& limits, Targets targets)
    : options_(options), limits_(limits), t_(std::move(targets)), builder_(std::make_unique<ModelBuilder>(def, limits)) {}

bool SolverSetup::fail(std::string message) {
    error_ = std::move(message);
    return false;
}

ConfigurationProbes::Context SolverSetup::probeContext() {
    return ConfigurationProbes::Context{t_.model, *t_.fila, t_.filters.holesParity(), t_.filters.parityLeft(), false};
}

bool SolverSetup::step() {
    // One unit of setup work, each bounded: a chunk of the model or the matrix, one Monte
    // Carlo probe of a redundancy candidate, or one of the short steps in between. false when
    // setup failed (the solver Failed) or is over.
    constexpr long long kChunk = 1 << 15;  // model / matrix work units (~0.1 ms natively)
    switch (phase_) {
        case kSetModel:
            if (builder_->step(kChunk) == ModelBuilder::Running) return true;
            if (builder_->failed()) return fail(builder_->error());
            t_.model = builder_->take();
            builder_.reset();
            phase_ = kSetPrepare;
            return true;
        case kSetPrepare:
            if (Status st = prepare(); !st.ok) return fail(st.message);
            phase_ = kSetPlan;
            return true;
        case kSetPlan:
            // the automatic -r choice, one shape's orbits per unit (RedundancyCandidateSearch)
            if (planSearch_) {
                if (planSearch_->step()) return true;
                std::vector<RedundancyPlan> candidates;
                RedundancyPlan plan = redundancyPlanFrom(planSearch_->take(), t_.symmetries, &candidates);
                // The orbits with no piece to constrain would search the whole tree and check
                // each solution against every symmetry: the enumerating search, slower.
                if (config_.algo.orbits && plan.needsGlobalCheck) config_.algo.orbits = false;
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
            forecastCounting();
            phase_ = t_.probes.active() ? kSetProbes : kSetMatrix;
            if (!t_.probes.active()) beginMatrix();
            return true;
        case kSetProbes:
            if (t_.probes.step(probeContext(), config_.plan)) return true;
            beginMatrix();
            phase_ = kSetMatrix;
            return true;
        case kSetMatrix:
            if (!t_.dlx.buildSome(t_.model, enabled_, kChunk)) return true;
            finishSetup();
            phase_ = kSetReady;
            return false;
        case kSetReady:
            return false;
    }
    return false;
}

Status SolverSetup::prepare() {
    const int pieces = t_.model.mobileCount();

    Result<AlgorithmPlan> plan = planAlgorithms(options_, PuzzleFacts::of(t_.model));
    if (!plan.ok()) return plan.status;
    config_.algo = std::move(plan.value);

    // Symmetries are needed by -r, -u, -M and the orbits of all solutions.
    const bool wantSymmetry = options_.redundancy != Redundancy::Off || options_.unique || options_.mirror || config_.algo.orbits;
    if (options_.mirror && !mirrorClosed(t_.model))
        return Status::error("-M: the pieces are not closed under mirroring (some piece's mirror image is not in the set), "
                             "so mirror images of solutions are not solutions");
    if (wantSymmetry) t_.symmetries = puzzleSymmetries(t_.model, options_.mirror);
    // The orbits need a symmetry to save anything (kSetPlan also drops them when no piece can
    // carry the filter).
    if (t_.symmetries.size() <= 1) config_.algo.orbits = false;
    config_.ranks.reserve(config_.algo.schedule.entries.size());
    for (const auto& e : config_.algo.schedule.entries) {
        std::vector<int> rank(t_.model.openCellCount() + t_.model.shapeCount(), 0);
        if (e.heuristic.fixedOrder()) {
            std::vector<int> cells = denseRanks(cellKeys(e.heuristic, t_.model));
            std::copy(cells.begin(), cells.end(), rank.begin());
            std::fill(rank.begin() + t_.model.openCellCount(), rank.end(), INT_MAX);
        }
        config_.ranks.push_back(std::move(rank));
    }
    config_.rankAt.assign(pieces + 1, 0);
    for (int rem = 0; rem <= pieces; ++rem) {
        size_t idx = 0;
        for (size_t k = 0; k < config_.algo.schedule.entries.size(); ++k)
            if (rem <= config_.algo.schedule.entries[k].threshold) idx = k;
        config_.rankAt[rem] = static_cast<int>(idx);
    }

    // Whole-puzzle parity (first seed article: the 35 hexominoes can never fill a rectangle).
    config_.impossible = parityImpossibility(t_.model);
    if (!config_.impossible.empty()) config_.impossibleKind = "parity";
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
        WeightingProof proof = weightingImpossibility(t_.model, limits);
        config_.weightingsTried = proof.tried;
        config_.weightingSeconds = secondsSince(tw);
        adoptProof(proof);
    }

    t_.filters.init(config_.algo.volumeFilterAt != INT_MAX || config_.algo.volumeBacktrackAt != INT_MAX);
    for (auto* v : {&t_.stats.parityBacktracks, &t_.stats.volumeBacktracks, &t_.stats.parityFiltered, &t_.stats.volumeFiltered,
                    &t_.stats.fitFiltered})
        v->assign(pieces + 1, 0);

    if (config_.algo.filaAt > 0) {
        // Largest region FILA can be handed: the box minus the smallest pieces placed first.
        std::vector<int> sizes;
        for (const Shape& sh : t_.model.shapes) sizes.insert(sizes.end(), sh.count, sh.size);
        std::sort(sizes.begin(), sizes.end());
        int cells = t_.model.openCellCount();
        for (int k = 0; k < pieces - config_.algo.filaAt && k < static_cast<int>(sizes.size()); ++k) cells -= sizes[k];
        // Sized for the whole region when that takes no wider occupancy field: FILA can then
        // start below the root from the root's tables (filaFromRoot_) and the -r probes start
        // it once for every candidate (ConfigurationProbes).
        if (filaCapacityFor(t_.model.openCellCount()) == filaCapacityFor(cells)) cells = t_.model.openCellCount();
        FilaSettings fs;
        fs.schedule = config_.algo.schedule;
        fs.nof = config_.algo.nof;
        fs.extendedIndex = config_.algo.extendedIndex;
        fs.deadCellCut = config_.algo.deadCellCut;
        {
            long long cellCells = 0;
            for (const Image& img : t_.model.images) cellCells += static_cast<long long>(img.cells.size());
            const long long used = modelBytes(static_cast<long long>(t_.model.images.size()), cellCells) +
                                   matrixBytes(static_cast<long long>(t_.model.images.size()), cellCells,
                                               t_.model.openCellCount() + t_.model.shapeCount());
            fs.maxTableBytes = std::max(0LL, limits_.maxTotalBytes - used);
            config_.filaTableLimit = fs.maxTableBytes;
        }
        fs.attempts = &t_.stats.attempts;
        fs.fits = &t_.stats.fits;
        fs.cancel = &t_.cancel;
        if (config_.algo.parityBacktrack) {
            fs.parity = &t_.filters.parity();
            fs.parityBacktracks = &t_.stats.parityBacktracks;
        }
        fs.onSolution = t_.filaSolution;
        if (options_.trace != 0) {
            // FILA applies the -t K level filter itself and numbers the copies on from the
            // ones DLX placed (as the driver's trace does).
            fs.onTrace = t_.filaTrace;
            fs.traceLevel = options_.trace;
        }
        t_.fila = makeFila(t_.model, std::move(fs), std::min(cells, kFilaMaxCells));
    }
    enabled_.assign(t_.model.images.size(), 1);
    if (options_.redundancy != Redundancy::Off) {
        int forced = -1;
        if (options_.redundancy == Redundancy::Named) {
            for (const PieceInstance& inst : t_.model.instances)
                if (inst.name == options_.redundancyPiece) {
                    if (inst.stationary)
                        return Status::error("-r " + inst.name + ": that piece is stationary; name a mobile piece");
                    forced = inst.shape;
                }
            if (forced < 0) return Status::error("-r: no piece named '" + quoteText(options_.redundancyPiece) + "' in this puzzle");
        }
        if (forced < 0 && t_.symmetries.size() > 1) {
            planSearch_ = std::make_unique<RedundancyCandidateSearch>(t_.model, t_.symmetries);  // kSetPlan
        } else {
            Result<RedundancyPlan> plan = planRedundancyFilter(t_.model, t_.symmetries, forced);
            if (!plan.ok()) return Status::error("-r: " + plan.status.message);
            adoptRedundancyPlan(std::move(plan.value), {}, false);
        }
    }
    if (config_.algo.orbits)
        planSearch_ = std::make_unique<RedundancyCandidateSearch>(t_.model, t_.symmetries);  // kSetPlan
    return Status::success();
}

void SolverSetup::adoptRedundancyPlan(RedundancyPlan plan, std::vector<RedundancyPlan> candidates, bool automatic) {
    config_.plan = std::move(plan);
    config_.planActive = true;
    // No probes when the puzzle is already proved impossible: nothing will be searched.
    if (automatic && config_.impossible.empty() && t_.fila)
        t_.probes.begin(probeContext(), std::move(candidates), config_.algo.automatic,
                        config_.algo.filaAt == t_.model.mobileCount() - 1);
}

void SolverSetup::estimateWholeSearch() {
    // Whether the search is short (ConfigurationProbes::estimateWholeSearch): only for the
    // automatic configuration with FILA below the root, and a search to be run.
    const int pieces = t_.model.mobileCount();
    if (!config_.algo.automatic || !t_.fila || config_.algo.filaAt != pieces - 1 || !config_.impossible.empty() ||
        options_.monteCarlo.trials > 0)
        return;
    // With -r the filter divides the search by the symmetries it removes.
    const double reduced = config_.planActive ? std::max<double>(1, static_cast<double>(t_.symmetries.size())) : 1;
    t_.probes.estimateWholeSearch(probeContext(), reduced);
}

void SolverSetup::forecastCounting() {
    // Only for a count the options leave to the automatic choice (or, for the Session, a
    // listing that could have been such a count), and a search to be run.
    if ((!options_.quiet && !options_.forecastListing) || !automaticMemoAllowed(options_) || !config_.impossible.empty())
        return;
    // -r's memoized count is a sum of terms: one, plus at most one Burnside term per symmetry.
    config_.countingForecastMade = true;
    if (t_.model.mobileCount() <= kShortSearchPieces) {
        // A short search (solver/configuration.hpp): weighing would cost a noticeable share of it.
        config_.countingForecast.reason =
            "enumerating: a search of at most " + std::to_string(kShortSearchPieces) + " pieces is short";
        return;
    }
    const double terms = options_.redundancy != Redundancy::Off ? 1.0 + static_cast<double>(t_.symmetries.size()) : 1.0;
    double bound = memoSubproblemBound(t_.model) * terms;
    bool reached = false;
    double estimate = -1;
    if (t_.fila && bound * kMemoSubproblemCost < kMemoWorthWeighing) {
        // (the filter divides the tree by the symmetries when it constrains a piece; checking
        // every solution against every symmetry divides nothing)
        const bool divides = config_.planActive && !config_.plan.needsGlobalCheck;
        const double reduced = divides ? std::max<double>(1, static_cast<double>(t_.symmetries.size())) : 1;
        estimate = t_.probes.estimateForMemoChoice(probeContext(), reduced);
    }
    if (estimate > 0 && bound * kMemoSubproblemCost >= estimate && bound * kMemoSubproblemCost < estimate * kMemoRefineRange) {
        const double reachable = memoReachableBound(t_.model, static_cast<long long>(estimate / kMemoRefineShare));
        if (reachable >= 0) bound = std::min(bound, reachable * terms), reached = true;
    }
    config_.countingForecast = forecastMemo(bound, estimate, reached);
}

void SolverSetup::beginMatrix() {
    if (config_.planActive) {
        config_.redundancyText = config_.algo.orbits ? "OFF (every solution: the unique ones found with " +
                                                           config_.plan.description +
                                                           ", each listed with its distinct symmetric images)"
                                                     : config_.plan.description;
        for (int i : config_.plan.removedImages) enabled_[i] = 0;
    }
    config_.enabledImages = static_cast<int>(std::count(enabled_.begin(), enabled_.end(), 1));
    t_.dlx.begin(t_.model, enabled_);
}

void SolverSetup::finishSetup() {
    const int pieces = t_.model.mobileCount();
    // What a DLX placement costs, in budget units of about a microsecond (1,000 node
    // updates): selecting a row covers each of its columns, and covering a column unlinks
    // every node of every row in it. 1 on the catalog's puzzles; about 1,300 for 100 random
    // 10-cell pieces in a 10x10x10 box (1.1 million rows), where a placement takes 10 ms:
    // charged so, a slice's budget is about a time whatever the matrix.
    const long long nodes = t_.dlx.nodeCount(), columns = std::max(1, t_.dlx.columnCount()),
                    rows = std::max(1, t_.dlx.rowCount());
    const long long rowLength = nodes / rows;
    config_.dlxCost = 1 + (nodes / columns) * rowLength * rowLength / 1024;
    t_.filters.configure(config_.algo.parityFilterAt, config_.algo.volumeFilterAt, config_.algo.fitFilterAt, config_.dlxCost);
    config_.rootConstrainedColumn = config_.planActive && config_.plan.shape >= 0 && config_.algo.filaAt == pieces - 1
                                        ? t_.dlx.columnOfShape(config_.plan.shape)
                                        : -1;
    const bool filaHoldsAll = t_.fila && t_.model.openCellCount() <= t_.fila->capacity();
    const bool shortSearch = t_.probes.knownShort(config_.algo.automatic, pieces);
    const bool probesPossible = config_.rootConstrainedColumn >= 0 && filaHoldsAll && options_.monteCarlo.trials == 0;
    if (config_.algo.rootProbesWhenLong && (shortSearch || !probesPossible)) {
        // 3-D: a short search keeps the piece (the probes would cost more than a wrong
        // root), as does one the probes cannot estimate.
        config_.algo.rootByProbes = false;
        config_.algo.rootOnConstrainedPiece = true;
    }
    config_.rootFirstColumn = config_.algo.rootOnConstrainedPiece ? config_.rootConstrainedColumn : -1;
    config_.algo.rootByProbes = config_.algo.rootByProbes && probesPossible;
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
    config_.filaFromRoot = config_.algo.automatic && config_.algo.filaAt == pieces - 1 && filaHoldsAll &&
                           options_.monteCarlo.trials == 0 && options_.rootTables &&
                           (config_.algo.schedule.at(pieces - 1).fixedOrder() || shortSearch);
    if (config_.filaFromRoot) t_.fila->reuseTables(true);
}

void SolverSetup::adoptProof(const WeightingProof& proof) {
    config_.impossible = proof.reason;  // empty when not proved
    config_.impossibleKind = proof.kind;
    config_.impossibleCells.clear();
    for (int c : proof.cells) config_.impossibleCells.push_back(t_.model.openCellPos[c]);
}

void SolverSetup::proveByReach() {
    // The costliest weighting (cells few pieces can reach: 1.5-4x the others together, 0.25 ms
    // on 10x6, 4 ms on the box-in-a-diamond hexominoes natively) in a setup unit of its own,
    // so that no slice holds both. Run on short searches too, though a short search would end
    // as fast: a person who built an impossible puzzle is owed the reason, and it costs 0.6%
    // of 10x6's run, 5% of a 1 ms hexomino rectangle.
    if (!options_.weightingProofs || !config_.impossible.empty()) return;
    const auto tw = Clock::now();
    WeightingLimits limits;
    limits.maxCellVisits = kWeightingCellVisits;
    WeightingProof proof = reachImpossibility(t_.model, limits);
    config_.weightingsTried += proof.tried;
    config_.weightingSeconds += secondsSince(tw);
    if (!proof.impossible) return;
    adoptProof(proof);
    if (t_.probes.active()) t_.probes.stop(probeContext());  // nothing will be searched: no piece to choose
}

}  // namespace polycube
