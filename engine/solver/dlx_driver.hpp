// The DLX driver: the Solver's search once set up. DLX levels on an explicit stack (no
// recursion, so that a slice returns after its budget), each level checking the backtrack
// triggers and running the image filters of the first seed article (LevelFilters), choosing
// a column by the heuristics' schedule, FILA taking over for the last levels, Monte Carlo
// trials, and the solutions and trace events the search reports.
//
//   DlxDriver driver{DlxDriver::Parts{model, symmetries, dlx, filters, fila, probes, guide,
//                                     stats, cancel, options, config}};  // the Solver's
//   driver.setSolutionHandler(...);              // any time; read when a solution is found
//   ... the setup builds the parts, FILA calling driver.filaSolutionHandler() ...
//   driver.begin();                              // the setup is over: stack sized, at the root
//   long long budget = 1000;
//   driver.search(budget);                       // a slice; state() says whether it is over
//   guide.treeFractionDone(driver.position());   // between slices
//
// It owns the search's state: the stack of frames, the depth, the images placed, the open
// cells covered and the copies placed per shape (what the filters and the trace read), FILA's
// inputs, the root's choice, the Monte Carlo trials' generator, the run state and error, and
// the reporting of solutions (the redundancy and -u checks, the orbits, the handlers). The
// model, the matrix, the filters, FILA, the probes, the subproblem guide, the statistics, the
// options and the configuration are the Solver's, lent by reference for its lifetime.
//
// The loop (searchLoop) is compiled twice, as FILA's is per Trace (search/fila.cpp): without
// tracing it holds no trace test at all. Per node it makes no virtual call and allocates
// nothing; the handlers (std::function) are called per solution and per trace record only.
#pragma once
#include <atomic>
#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "constraints/symmetry.hpp"
#include "puzzle/model.hpp"
#include "search/dlx.hpp"
#include "search/fila.hpp"
#include "solver/configuration_probes.hpp"
#include "solver/level_filters.hpp"
#include "solver/options.hpp"
#include "solver/orbit_lister.hpp"
#include "solver/search_configuration.hpp"
#include "solver/search_frame.hpp"
#include "solver/solver_stats.hpp"
#include "solver/subproblem_guide.hpp"

namespace polycube {

// Where a search stands (Solver::State).
enum class SearchState { Running, Done, Cancelled, LimitReached, Failed };

struct Solution {
    long long number = 0;        // 1-based among reported solutions
    std::vector<int> images;     // placed image ids
    std::vector<int> grid;       // box index -> instance index
};

// Trace event (search-trace for -t and the web page's animations): one record of
// search/trace.hpp, [op, remaining, a, b] (kPlace/kRemove: a = instance, b = image; kChoose:
// a = target, b = candidates; ... see there).
struct TraceEvent {
    int op;         // trace::Op
    int remaining;  // pieces left to place at the event's level
    int a;
    int b;
};

class DlxDriver {
public:
    using Frame = solver_parts::Frame;

    // The Solver's objects the search works on (see above).
    struct Parts {
        const Model& model;
        const std::vector<Symmetry>& symmetries;
        DlxMatrix& dlx;
        LevelFilters& filters;
        const std::unique_ptr<FilaEngine>& fila;  // made by the setup; null: DLX only
        ConfigurationProbes& probes;              // the root's choice
        SubproblemGuide& guide;
        SolverStats& stats;
        const std::atomic<bool>& cancel;
        const SolverOptions& options;
        const SearchConfiguration& config;        // filled when the setup ends, before begin()
    };

    explicit DlxDriver(const Parts& parts);

    void setSolutionHandler(std::function<void(const Solution&)> handler) { onSolution_ = std::move(handler); }
    void setTraceHandler(std::function<void(const TraceEvent&)> handler) { onTrace_ = std::move(handler); }
    // FILA's callbacks (FilaSettings::onSolution, onTrace): its solutions reported as the
    // driver's, its records passed to the trace handler.
    std::function<bool(const int* images, int count)> filaSolutionHandler();
    std::function<void(int op, int remaining, int a, int b)> filaTraceHandler();
    // -u's table may take at most this many bytes.
    void setUniqueLimit(long long bytes) { uniqueFilter_.setMaxBytes(bytes); }

    // The setup is over: the stack and counters sized, the search at its start (Done at
    // once when the configuration proved the puzzle impossible).
    void begin();
    // Search for about `budget` units (placements, filter work, FILA's attempts, trials).
    void search(long long& budget);

    SearchState state() const { return state_; }
    const std::string& error() const { return error_; }
    // Ends the search Failed with `message`.
    void fail(std::string message);
    // Cancel was asked: a running search ends Cancelled.
    void cancelled() {
        if (state_ == SearchState::Running) state_ = SearchState::Cancelled;
    }

    // Nothing searched yet, or the last tree exhausted: the matrix and every counter of the
    // position as at the start, so another subtree may be searched (Solver::startSubproblem).
    bool atRest() const;
    // Search again from the root (the guide holds the subproblem's path); FILA keeps its
    // tables across starts from now on, as sibling subproblems often restart it on one region.
    void restart();
    // The stack as the subproblem guide reads it between slices.
    SubproblemGuide::Position position() const;
    // After a donation: the level's row list ends at `stop` (SubproblemGuide::Cut).
    void cut(int level, int stop) { frames_[level].stop = stop; }

    // FILA below the root starts on the root's region (until FILA refused it for memory).
    bool filaFromRoot() const { return filaFromRoot_; }
    // The root's choice: 0 the heuristic's column, 1 the constrained piece's, -1 not yet;
    // no choice: 2 min-fit took the piece, 3 a forced move. Its estimates: heuristic's, piece's.
    int rootChoice() const { return root_.choice; }
    const double* rootEstimates() const { return root_.estimates; }

    // Grid of a set of placed images (box index -> instance index).
    std::vector<int> gridOf(const std::vector<int>& images) const;

private:
    // The DLX loop itself, compiled per Tracing (see above).
    template <bool Tracing>
    void searchLoop(long long& budget);
    void reportSolution();
    void reportOrbit();
    void emitSolution(const std::vector<int>& images);
    void beginTrial();
    // What the probes use (FILA must be configured).
    ConfigurationProbes::Context probeContext();
    void leaveLevel();
    int traceInstance(int image) const;
    int traceTarget(int col) const;
    void traceDeadColumn(int remaining);
    void traceChoice(int remaining, int col);
    void place(int image);
    void unplace(int image);
    bool startFila(long long& budget);

    const Model& model_;
    const std::vector<Symmetry>& symmetries_;
    DlxMatrix& dlx_;
    LevelFilters& filters_;
    const std::unique_ptr<FilaEngine>& fila_;
    ConfigurationProbes& probes_;
    SubproblemGuide& guide_;
    SolverStats& stats_;
    const std::atomic<bool>& cancel_;
    const SolverOptions& options_;
    const SearchConfiguration& config_;

    SearchState state_ = SearchState::Running;
    std::string error_;
    std::vector<Frame> frames_;
    int depth_ = 0;
    std::vector<int> placed_;
    std::vector<const std::vector<int>*> rankAt_;  // by remaining pieces: config_.ranks' table
    int placedVolume_ = 0;
    std::vector<uint64_t> filled_;      // open cells covered, one bit per open cell
    std::vector<int> copiesPlaced_;     // per shape, for trace events
    std::vector<int> traceCandidates_;  // per depth: kChoose's candidate count
    // The root level's choice (ConfigurationProbes::chooseRoot), made when the search first
    // reaches it.
    struct Root {
        int choice = -1;
        double estimates[2] = {-1, -1};
    } root_;
    bool filaFromRoot_ = false;       // config_.filaFromRoot, until FILA refuses the root's region
    FilaInput rootFilaInput_;         // that region, filtered (the root's kChoose)
    FilaInput filaInput_;
    int filaFollowed_ = 0;            // levels FILA placed by follow() that the driver placed too
    bool filaReuse_ = false;          // FILA keeps its tables across starts on one input
    int filaRefusedBelow_ = INT_MAX;  // FILA refused (memory) at this many pieces left
    std::mt19937_64 rng_;             // Monte Carlo: the rows' order of each trial
    bool trialEnding_ = false;

    std::function<void(const Solution&)> onSolution_;
    std::function<void(const TraceEvent&)> onTrace_;
    Solution scratch_;
    SolutionCoder coder_{model_};
    UniqueFilter uniqueFilter_;
    OrbitLister orbits_{model_, symmetries_, coder_};  // reportOrbit (solver/orbit_lister.hpp)
};

}  // namespace polycube
