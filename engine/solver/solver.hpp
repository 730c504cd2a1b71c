// Solver: one search of one puzzle, run in slices.
//
//   Result<std::unique_ptr<Solver>> r = Solver::create(def, options);
//   Solver& s = *r.value;
//   s.setSolutionHandler([](const Solution& sol) { print(sol.grid); });
//   while (s.step(1'000'000) == Solver::State::Running) { report(s.stats()); }
//
// step(budget) runs the search for about `budget` placement attempts on an explicit stack
// (no recursion), so a browser tab stays responsive; cancel() may be called from another
// thread (or between slices) and takes effect at the next placement.
#pragma once
#include <atomic>
#include <climits>
#include <chrono>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "constraints/weighting.hpp"
#include "constraints/symmetry.hpp"
#include "puzzle/model.hpp"
#include "puzzle/puzzle.hpp"
#include "search/dlx.hpp"
#include "search/fila.hpp"
#include "search/heuristics.hpp"
#include "search/trace.hpp"
#include "solver/configuration.hpp"
#include "solver/configuration_probes.hpp"
#include "solver/dlx_driver.hpp"
#include "solver/level_filters.hpp"
#include "solver/options.hpp"
#include "solver/orbit_lister.hpp"
#include "solver/search_configuration.hpp"
#include "solver/search_frame.hpp"
#include "solver/solver_stats.hpp"
#include "solver/subproblem_guide.hpp"

namespace polycube {

class SolverSetup;

class Solver {
public:
    using State = SearchState;  // Running, Done, Cancelled, LimitReached, Failed

    // A solver with its setup done (model, filters' tables, matrix): errors come back here.
    static Result<std::unique_ptr<Solver>> create(const PuzzleDef& def, const SolverOptions& options);
    // A solver whose setup runs in step() slices like the search (ready() once it is over), so
    // a big puzzle's seconds of setup can be cancelled; errors end it with State::Failed and
    // error(). For front ends that must stay responsive (Session, the CLI).
    static std::unique_ptr<Solver> begin(const PuzzleDef& def, const SolverOptions& options,
                                         const ModelLimits& limits = ModelLimits{});

    // Run for about `budget` placement attempts (filter work and Monte Carlo restarts are
    // charged too), or until maxSeconds have passed (0: no time limit), then return. Before
    // ready(), runs setup instead, in units of well under a millisecond, until maxSeconds
    // (cancel is polled between units).
    // Out of memory (std::bad_alloc) ends the solver Failed with error() saying so: no
    // exception leaves step() or create().
    State step(long long budget, double maxSeconds = 0);
    // Bytes of its model and DLX matrix, from the exact image and cell counts (the figure the
    // 768 MiB ModelLimits::maxBytes applies to; calibrated in puzzle/model.cpp: 1029 MiB
    // estimated, 1.05 GB measured); 0 before the model is built. FILA's tables come on top
    // (at most ModelLimits::maxTotalBytes less this). ParallelSearch caps threads with it.
    long long memoryBytes() const;
    // Failed because an allocation failed (step() caught std::bad_alloc), not for the puzzle.
    bool outOfMemory() const { return outOfMemory_; }
    bool ready() const { return ready_; }
    const std::string& error() const { return driver_.error(); }
    void cancel() { cancelRequested_.store(true, std::memory_order_relaxed); }
    State state() const { return driver_.state(); }

    void setSolutionHandler(std::function<void(const Solution&)> handler) { driver_.setSolutionHandler(std::move(handler)); }
    void setTraceHandler(std::function<void(const TraceEvent&)> handler) { driver_.setTraceHandler(std::move(handler)); }

    const SolverStats& stats() const { return stats_; }
    const Model& model() const { return model_; }
    const PuzzleDef& definition() const { return def_; }
    const SolverOptions& options() const { return options_; }
    int pieceCount() const { return model_.mobileCount(); }
    // Puzzle and configuration facts for -i output and the JSON summary.
    std::string redundancyDescription() const { return config_.redundancyText; }
    // Non-empty when the puzzle was proved impossible before searching (e.g. by parity).
    const std::string& impossibleReason() const { return config_.impossible; }
    // Which argument proved it: "parity", or a WeightingProof::kind (constraints/weighting.hpp).
    const std::string& impossibleKind() const { return config_.impossibleKind; }
    // The cells a weighting's certificate counts (e.g. the 16 cells few pieces can reach), for
    // front ends to show; empty for parity and for a piece that fits nowhere.
    const std::vector<Vec3>& impossibleCells() const { return config_.impossibleCells; }
    // Cell weightings checked before the search (0 when parity already decided) and their time.
    int weightingsTried() const { return config_.weightingsTried; }
    double weightingSeconds() const { return config_.weightingSeconds; }
    std::string configurationDescription() const;
    // Flat boards with holes (automatic configuration): which column the root branches on,
    // chosen by Monte Carlo probes when the search reaches it; "" elsewhere. Not part of
    // configurationDescription(), which must not change once set up (searchFingerprint:
    // a checkpoint written mid-search is resumed by a solver that has not searched yet).
    std::string rootDescription() const;
    size_t symmetryCount() const { return symmetries_.size(); }
    // A count that lists nothing, with the way of counting left open (-q, neither --memo nor
    // --no-memo): whether the memoized count is expected to win (memo/memo_choice.hpp); null
    // for other options. Known once ready().
    const MemoForecast* countingForecast() const {
        return config_.countingForecastMade ? &config_.countingForecast : nullptr;
    }
    // All solutions listed as the unique ones' symmetric images (AlgorithmPlan::orbits): then
    // each assembly the search reaches stands for at most symmetryCount() solutions, and
    // `found` counts the images listed too (solutions + redundant == found still holds).
    // Known once ready().
    bool listsOrbits() const { return config_.algo.orbits; }
    int enabledImageCount() const { return config_.enabledImages; }

    // Grid of a set of placed images (box index -> instance index).
    std::vector<int> gridOf(const std::vector<int>& images) const;

    // Splitting the search (engine/parallel/: several threads or machines share one tree).
    // A subproblem is a path from the root: the image ids placed at the first levels, in
    // order; it stands for the subtree below its last placement. Image ids are the model's
    // (deterministic for a puzzle), so a path can be written down and followed by another
    // Solver of the same puzzle and options (parallel/subproblem.hpp adds the fingerprint).
    //
    // startSubproblem: search only the subtree of `path` (empty: the whole tree). The solver
    // must be at rest: just created, or its last search Done. The statistics then count the
    // subtree's nodes only (the path's own placements and level work were counted by
    // whoever handed the path out), so the statistics of all the pieces of a tree add up to
    // those of one whole run. A path this search cannot follow ends the search with
    // subproblemError() set.
    Status startSubproblem(const std::vector<int>& path);
    // Give away work: the untried siblings at the shallowest level that has any (DLX levels
    // first, then FILA's explicit stack), each appended to `out` as a path; this search will
    // not try them. They are counted as tried here (attempts and fits of that level), so the
    // receivers count only below them. Returns how many; 0 when nothing can be split off
    // (e.g. only FILA's recursive last levels are left). Call between step()s.
    // `share` (when given) receives the donated paths' share of this search's tree (the
    // weights of fractionDone), summed: split among them, it keeps the shares adding up.
    // `maxPaths`: at a DLX level, give at most this many (the last untried rows; this search
    // keeps the others): fewer, bigger pieces, each of which costs a start (FILA's tables).
    // FILA's levels give all their untried siblings.
    int donate(std::vector<std::vector<int>>& out, double* share = nullptr, int maxPaths = std::numeric_limits<int>::max());
    // How much of this search's tree (the subproblem's subtree after startSubproblem) is
    // done: the weighted backtrack estimate (Knuth 1975, "Estimating the efficiency of
    // backtrack programs"; Kilby, Slaney, Thiebaux, Walsh 2006, "Estimating search tree
    // size"): at every open level, the share of its candidates already searched, weighted by
    // 1/(candidates) of each level above (path levels: 1), FILA's levels included. Work given
    // away by donate() is not this search's: the figure ends at 1 - donatedShare(). Never
    // decreases; 0 before the search, the Monte Carlo trials' share with -s. Between step()s.
    double fractionDone() const;
    double donatedShare() const { return guide_.donatedShare(); }
    // Non-empty when startSubproblem's path could not be followed.
    const std::string& subproblemError() const { return guide_.error(); }

    ~Solver();

private:
    Solver() = default;
    void fail(std::string message) { driver_.fail(std::move(message)); }
    State stepUnguarded(long long budget, double maxSeconds);
    // The setup ends: its configuration taken over and the driver at the root (done), or
    // its error (failed); the setup freed.
    void endSetup();

    PuzzleDef def_;
    SolverOptions options_;
    // The setup's phases and what only they need (solver/solver_setup.hpp); freed once over.
    std::unique_ptr<SolverSetup> setup_;
    bool ready_ = false;       // the setup is over
    bool modelBuilt_ = false;  // memoryBytes(): the model's and matrix's figure applies
    bool outOfMemory_ = false;
    long long chunk_ = 1;      // step(): budget units between clock readings
    // What the setup builds in place (SolverSetup::Targets) and the search works on.
    Model model_;
    std::vector<Symmetry> symmetries_;
    DlxMatrix dlx_;
    // FILA takes over when config_.algo.filaAt or fewer pieces remain and the open cells
    // fit its occupancy field.
    std::unique_ptr<FilaEngine> fila_;
    // The setup's Monte Carlo probes (solver/configuration_probes.hpp): the -r piece's choice
    // among the candidates, whether the search is short, the root's column.
    ConfigurationProbes probes_;
    // What the setup decided (solver/search_configuration.hpp), taken over when it ends.
    SearchConfiguration config_;
    std::atomic<bool> cancelRequested_{false};
    SolverStats stats_;
    // The triggers' and image filters' monitors, counters and hidden rows
    // (solver/level_filters.hpp); after the members it refers to.
    LevelFilters filters_{model_, dlx_, stats_, cancelRequested_};
    SubproblemGuide guide_;  // the subproblem's path (solver/subproblem_guide.hpp)
    // The search (solver/dlx_driver.hpp); last, after every member it refers to.
    DlxDriver driver_{DlxDriver::Parts{model_, symmetries_, dlx_, filters_, fila_, probes_, guide_, stats_,
                                       cancelRequested_, options_, config_}};
};

}  // namespace polycube
