// Solver's front: creating a solver, stepping it (the setup, then the search, in bounded
// slices), its statistics and the description of its configuration. The parts, one job each:
//   solver/configuration.cpp     the algorithm plan (planAlgorithms: the automatic configuration)
//   solver/solver_setup.hpp      SolverSetup: the setup phases (model, proofs, redundancy plan,
//                                probes, matrix) in bounded units, freed once over
//   solver/configuration_probes.hpp  ConfigurationProbes: the automatic configuration's Monte
//                                Carlo probes (short search, the -r piece, the root's column)
//   solver/search_configuration.hpp  SearchConfiguration: what the setup decided, handed over
//                                when it ends
//   solver/dlx_driver.hpp        DlxDriver: the search: DLX levels on an explicit stack,
//                                FILA's start, Monte Carlo trials, solutions and trace events
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
    while (!s->ready() && s->state() == State::Running) s->step(1LL << 40);
    if (s->state() == State::Failed) return Result<std::unique_ptr<Solver>>::error(s->error());
    return Result<std::unique_ptr<Solver>>::success(std::move(s));
}

std::unique_ptr<Solver> Solver::begin(const PuzzleDef& def, const SolverOptions& options, const ModelLimits& limits) {
    std::unique_ptr<Solver> s(new Solver());
    s->def_ = def;
    s->options_ = options;
    s->driver_.setUniqueLimit(limits.maxUniqueBytes);
    s->setup_ = std::make_unique<SolverSetup>(
        s->def_, s->options_, limits,
        SolverSetup::Targets{s->model_, s->symmetries_, s->dlx_, s->filters_, s->fila_, s->probes_, s->stats_,
                             s->cancelRequested_, s->driver_.filaSolutionHandler(), s->driver_.filaTraceHandler()});
    return s;
}

Solver::~Solver() = default;

Solver::State Solver::step(long long budget, double maxSeconds) {
    if (state() != State::Running) return state();
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
        return state();
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
        if (cancelled()) driver_.cancelled();
        return state();
    }
    // The search in chunks: between chunks the clock is read (a slice ends after maxSeconds
    // even when each placement is slow, e.g. 10 ms in a matrix of 3.5 million rows). Each
    // slice starts with a chunk of 1 unit and doubles it while a chunk takes under half a
    // millisecond, so a sudden change of cost per unit (cheap filter rows, then placements
    // in a huge matrix) cannot make one chunk long, and the clock costs nothing measurable.
    if (maxSeconds <= 0) {
        driver_.search(budget);
    } else {
        // At most kMaxChunk units (a few milliseconds even where a unit's cost is misjudged
        // tenfold) between two readings of the clock.
        constexpr long long kMaxChunk = 1 << 12;
        auto tc = t0;
        chunk_ = 1;
        while (budget > 0 && state() == State::Running && !cancelled()) {
            const long long given = std::min(budget, chunk_);
            long long left = given;
            driver_.search(left);
            budget -= given - left;  // left < 0 when FILA's recursive tail ran past the chunk
            const auto now = Clock::now();
            const double dt = std::chrono::duration<double>(now - tc).count();
            tc = now;
            if (dt < 0.0005 && chunk_ < kMaxChunk) chunk_ *= 2;
            else if (dt > 0.001) chunk_ = std::max(1LL, chunk_ / 2);
            if (std::chrono::duration<double>(now - t0).count() >= maxSeconds) break;
        }
    }
    if (cancelled()) driver_.cancelled();
    guide_.endSlice(stats_, model_.mobileCount(), state() == State::Done);  // a subproblem's replayed levels
    stats_.searchSeconds += secondsSince(t0);
    return state();
}

void Solver::endSetup() {
    modelBuilt_ = setup_->modelBuilt();
    if (setup_->done()) {
        config_ = setup_->take();
        ready_ = true;
        driver_.begin();
    } else {
        fail(setup_->error());
    }
    setup_.reset();  // its builder and buffers are freed
}

Status Solver::startSubproblem(const std::vector<int>& path) {
    if (options_.monteCarlo.trials > 0) return Status::error("a Monte Carlo run (-s) cannot be split into subproblems");
    if (Status st = SubproblemGuide::check(path, model_.mobileCount(), static_cast<int>(model_.images.size())); !st.ok)
        return st;
    if (!config_.impossible.empty()) return Status::success();  // proved impossible: no tree at all
    if (!driver_.atRest()) return Status::error("subproblem: this solver is in the middle of a search");
    guide_.begin(path, stats_);
    driver_.restart();
    return Status::success();
}

double Solver::fractionDone() const {
    if (state() == State::Done) return 1.0 - guide_.donatedShare();
    if (!ready_) return 0.0;
    if (options_.monteCarlo.trials > 0)
        return std::min(1.0, static_cast<double>(stats_.monteCarloTrials) / static_cast<double>(options_.monteCarlo.trials));
    return guide_.treeFractionDone(driver_.position());
}

int Solver::donate(std::vector<std::vector<int>>& out, double* share, int maxPaths) {
    if (state() != State::Running || options_.monteCarlo.trials > 0 || options_.trace != 0) return 0;
    SubproblemGuide::Cut cut;
    const int n = guide_.donate(driver_.position(), stats_, out, share, maxPaths, cut);
    if (cut.level >= 0) driver_.cut(cut.level, cut.stop);  // this search stops before the donated rows
    return n;
}

std::string Solver::configurationDescription() const {
    if (!ready()) return "not configured yet (setup " + std::string(state() == State::Running ? "running" : "stopped") + ")";
    std::ostringstream os;
    os << (config_.algo.automatic ? "automatic: " : "") << "DLX";
    if (fila_)
        os << ", FILA when " << config_.algo.filaAt << " pieces remain" << (config_.algo.nof ? " with NOF" : "")
           << (config_.algo.nof && config_.algo.extendedIndex > 6 ? " (fixed orders: " + std::to_string(config_.algo.extendedIndex) + " index cells)" : "")
           << (config_.algo.deadCellCut && config_.algo.schedule.at(1).kind == HeuristicKind::First ? ", dead-cell cut" : "")
           << (driver_.filaFromRoot() ? ", its tables shared by the root's images" : "");
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
    const int choice = driver_.rootChoice();
    if (choice < 0) return "the root: min-fit's column or the constrained piece, chosen by probes when the search starts";
    if (choice == 2) return "the root on the constrained piece (min-fit's choice too: nothing to choose)";
    if (choice == 3) return "the root on a forced move (a column with one way to fill it: nothing to choose)";
    std::ostringstream os;
    os << "the root on " << (choice == 1 ? "the constrained piece" : "min-fit's column")
       << ", chosen by probes (estimated cost with the piece " << std::setprecision(2) << driver_.rootEstimates()[1]
       << ", with min-fit's column " << driver_.rootEstimates()[0] << ")";
    return os.str();
}

std::vector<int> Solver::gridOf(const std::vector<int>& images) const { return driver_.gridOf(images); }

}  // namespace polycube
