// Solver's front: creating a solver, stepping it (the setup, then the search, in bounded
// slices), its statistics and the description of its configuration. The parts, one job each:
//   solver/configuration.cpp     the algorithm plan (planAlgorithms: the automatic configuration)
//   solver/solver_setup.hpp      SolverSetup: the setup phases (model, proofs, redundancy plan,
//                                probes, matrix) in bounded units, freed once over
//   solver/configuration_probes.hpp  ConfigurationProbes: the automatic configuration's Monte
//                                Carlo probes (short search, the -r piece, the root's column)
//   solver/dlx_driver.cpp        the search: DLX levels on an explicit stack, FILA's start,
//                                solutions and trace events
//   solver/level_filters.hpp     LevelFilters: the backtrack triggers' and image filters'
//                                monitors and counters, a level's filtering (resumable)
//   solver/orbit_lister.hpp      OrbitLister: a solution's distinct symmetric images (every
//                                solution listed as the unique ones' orbits)
//   solver/subproblem_guide.hpp  SubproblemGuide: a subproblem's path, followed by the driver,
//                                donations, the fraction done
#include "solver/solver.hpp"

#include <algorithm>
#include <iomanip>
#include <new>
#include <sstream>

#include "common/text.hpp"
#include "solver/solver_parts.hpp"
#include "solver/solver_setup.hpp"

namespace polycube {

using solver_parts::Clock;
using solver_parts::secondsSince;

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
    s->uniqueFilter_.setMaxBytes(limits.maxUniqueBytes);
    Solver* solver = s.get();
    auto filaSolution = [solver](const int* images, int count) {
        // FILA's placements begin at the level it started on, or at the root it followed.
        std::copy(images, images + count, solver->placed_.begin() + solver->depth_ - solver->filaFollowed_);
        solver->reportSolution();
        return solver->state_ == State::Running &&
               !(solver->options_.maxSolutions > 0 && solver->stats_.solutions >= solver->options_.maxSolutions);
    };
    auto filaTrace = [solver](int op, int remaining, int a, int b) {
        if (solver->onTrace_) solver->onTrace_({op, remaining, a, b});
    };
    s->setup_ = std::make_unique<SolverSetup>(
        s->def_, s->options_, limits,
        SolverSetup::Targets{s->model_, s->symmetries_, s->dlx_, s->filters_, s->fila_, s->probes_, s->stats_,
                             s->cancelRequested_, std::move(filaSolution), std::move(filaTrace)});
    return s;
}

Solver::~Solver() = default;

void Solver::fail(std::string message) {
    error_ = std::move(message);
    state_ = State::Failed;
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
        fail(std::string("out of memory while ") + (!ready_ ? "setting up the solver" : "searching") +
             (memoryBytes() > 0 ? " (its model and matrix take about " + formatBytes(memoryBytes()) + ")" : ""));
        if (setup_) modelBuilt_ = setup_->modelBuilt();
        setup_.reset();  // what the setup held (the model's builder) is freed
        return state_;
    }
}

long long Solver::memoryBytes() const {
    if (!modelBuilt_ && !(setup_ && setup_->modelBuilt())) return 0;
    long long cellCells = 0;
    for (const Image& img : model_.images) cellCells += static_cast<long long>(img.cells.size());
    return modelBytes(static_cast<long long>(model_.images.size()), cellCells) +
           matrixBytes(static_cast<long long>(model_.images.size()), cellCells, model_.openCellCount() + model_.shapeCount());
}

Solver::State Solver::stepUnguarded(long long budget, double maxSeconds) {
    const auto t0 = Clock::now();
    auto overTime = [&] { return maxSeconds > 0 && secondsSince(t0) >= maxSeconds; };
    auto cancelled = [&] { return cancelRequested_.load(std::memory_order_relaxed); };
    if (!ready_) {
        // Setup in bounded units, polling cancel and the clock between them. A slice that
        // finishes setup returns there (the search starts in the next one).
        while (!cancelled() && setup_->step() && !overTime()) {
        }
        if (setup_->done() || !setup_->error().empty()) endSetup();
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
    guide_.endSlice(stats_, model_.mobileCount(), state_ == State::Done);  // a subproblem's replayed levels
    stats_.searchSeconds += secondsSince(t0);
    return state_;
}

void Solver::endSetup() {
    modelBuilt_ = setup_->modelBuilt();
    if (setup_->done()) {
        config_ = setup_->take();
        ready_ = true;
        beginSearch();
    } else {
        fail(setup_->error());
    }
    setup_.reset();  // its builder and buffers are freed
}

Status Solver::startSubproblem(const std::vector<int>& path) {
    if (options_.monteCarlo.trials > 0) return Status::error("a Monte Carlo run (-s) cannot be split into subproblems");
    if (Status st = SubproblemGuide::check(path, model_.mobileCount(), static_cast<int>(model_.images.size())); !st.ok)
        return st;
    // At rest: nothing searched yet (level 0 not entered), or the last tree exhausted, which
    // leaves the matrix and every counter of the position as at the start.
    const bool fresh = state_ == State::Running && depth_ == 0 && frames_[0].stage == Frame::kEnter;
    const bool finished = state_ == State::Done && depth_ < 0;
    if (!config_.impossible.empty()) return Status::success();  // proved impossible: no tree at all
    if (!fresh && !finished) return Status::error("subproblem: this solver is in the middle of a search");
    filaReuse_ = true;
    if (fila_) fila_->reuseTables(true);  // sibling subproblems often restart FILA on one region
    guide_.begin(path, stats_);
    state_ = State::Running;
    depth_ = 0;
    frames_[0] = Frame{};
    return Status::success();
}

ConfigurationProbes::Context Solver::probeContext() {
    return ConfigurationProbes::Context{model_, *fila_, filters_.holesParity(), filters_.parityLeft(), filaReuse_};
}

SubproblemGuide::Position Solver::position() const {
    return SubproblemGuide::Position{frames_, depth_, dlx_, fila_.get(), placed_, filaFollowed_, model_.mobileCount()};
}

double Solver::fractionDone() const {
    if (state_ == State::Done) return 1.0 - guide_.donatedShare();
    if (!ready_) return 0.0;
    if (options_.monteCarlo.trials > 0)
        return std::min(1.0, static_cast<double>(stats_.monteCarloTrials) / static_cast<double>(options_.monteCarlo.trials));
    return guide_.treeFractionDone(position());
}

int Solver::donate(std::vector<std::vector<int>>& out, double* share, int maxPaths) {
    if (state_ != State::Running || options_.monteCarlo.trials > 0 || options_.trace != 0) return 0;
    SubproblemGuide::Cut cut;
    const int n = guide_.donate(position(), stats_, out, share, maxPaths, cut);
    if (cut.level >= 0) frames_[cut.level].stop = cut.stop;  // this search stops before the donated rows
    return n;
}

std::string Solver::configurationDescription() const {
    if (!ready()) return "not configured yet (setup " + std::string(state_ == State::Running ? "running" : "stopped") + ")";
    std::ostringstream os;
    os << (config_.algo.automatic ? "automatic: " : "") << "DLX";
    if (fila_)
        os << ", FILA when " << config_.algo.filaAt << " pieces remain" << (config_.algo.nof ? " with NOF" : "")
           << (config_.algo.nof && config_.algo.extendedIndex > 6 ? " (fixed orders: " + std::to_string(config_.algo.extendedIndex) + " index cells)" : "")
           << (config_.algo.deadCellCut && config_.algo.schedule.at(1).kind == HeuristicKind::First ? ", dead-cell cut" : "")
           << (filaFromRoot_ ? ", its tables shared by the root's images" : "");
    auto filter = [&](const char* name, int at) {
        if (at == INT_MAX) return;
        os << ", " << name << (at >= model_.mobileCount() ? " filter once" : " filter while " + std::to_string(at) + "+ remain");
    };
    filter("volume", config_.algo.volumeFilterAt);
    filter("parity", config_.algo.parityFilterAt);
    filter("fit", config_.algo.fitFilterAt);
    if (config_.algo.parityBacktrack) os << ", parity trigger";
    if (config_.algo.volumeBacktrackAt != INT_MAX) os << ", volume trigger while " << config_.algo.volumeBacktrackAt << "+ remain";
    if (!config_.algo.volumeOffFor.empty()) os << ", volume constraints off (piece " << config_.algo.volumeOffFor << " is in parts that do not touch face to face)";
    os << ", heuristics " << config_.algo.schedule.describe();
    if (stats_.filaRefused > 0)
        os << "; FILA refused " << stats_.filaRefused << " time(s): its tables would pass "
           << formatBytes(config_.filaTableLimit) << ", DLX searched those regions";
    return os.str();
}

std::string Solver::rootDescription() const {
    if (!config_.algo.rootByProbes) return "";
    if (root_.choice < 0) return "the root: min-fit's column or the constrained piece, chosen by probes when the search starts";
    if (root_.choice == 2) return "the root on the constrained piece (min-fit's choice too: nothing to choose)";
    if (root_.choice == 3) return "the root on a forced move (a column with one way to fill it: nothing to choose)";
    std::ostringstream os;
    os << "the root on " << (root_.choice == 1 ? "the constrained piece" : "min-fit's column")
       << ", chosen by probes (estimated cost with the piece " << std::setprecision(2) << root_.estimates[1]
       << ", with min-fit's column " << root_.estimates[0] << ")";
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

}  // namespace polycube
