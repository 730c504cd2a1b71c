// The Solver's setup as a part of its own: the phases that turn a puzzle definition into a
// configured search, each run in bounded units so that a big puzzle's seconds of setup stay
// cancellable (Solver::step polls cancel and the clock between two units):
//
//   model      the puzzle's images (ModelBuilder, in chunks)
//   prepare    the algorithm plan (solver/configuration.hpp), the symmetries, the heuristics'
//              ranks, whole-puzzle parity and the cell weightings (impossibility proofs), the
//              filters' monitors (solver/level_filters.hpp), FILA's settings, the -r plan
//   plan       the automatic -r choice, one shape's orbits per unit
//   reach      the reach weighting (the costliest proof, a unit of its own)
//   estimate   whether the search is short (Monte Carlo probes of its cost)
//   probes     the -r candidates' probes (solver/configuration_probes.hpp), one pass per unit
//   matrix     the DLX matrix (in chunks), then the root's choice and FILA's start policy
//
//   SolverSetup setup(def, options, limits, targets);   // Solver::begin
//   while (setup.step()) {}       // one unit per call; false: done() or failed (error())
//   if (setup.done()) config = setup.take();
//
// It owns what only the setup needs (the model's builder, the -r candidates' search, the
// images enabled in the matrix, the memory limits, the phase) and the configuration it is
// deciding (solver/search_configuration.hpp: plain data, handed over by take() once done()).
//
// The model, the symmetries, the DLX matrix, the filters' monitors and FILA are built in
// place instead, in the objects the Solver owns (Targets): the filters, FILA, the solution
// coder and the orbit lister hold references to the model, the matrix and the symmetries,
// so those must sit at their final addresses before the first of them is configured; a
// move at the end would leave those references dangling. Targets is the whole of what the
// setup may touch of the Solver; FILA's callbacks into the search come with it.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "constraints/symmetry.hpp"
#include "constraints/weighting.hpp"
#include "puzzle/model.hpp"
#include "puzzle/puzzle.hpp"
#include "search/dlx.hpp"
#include "search/fila.hpp"
#include "solver/configuration_probes.hpp"
#include "solver/level_filters.hpp"
#include "solver/options.hpp"
#include "solver/search_configuration.hpp"
#include "solver/solver_stats.hpp"

namespace polycube {

class SolverSetup {
public:
    // The Solver's objects the setup builds in place (see above).
    struct Targets {
        Model& model;                        // moved in from the builder
        std::vector<Symmetry>& symmetries;   // the puzzle's (-r, -u, -M, the orbits)
        DlxMatrix& dlx;                      // built in chunks
        LevelFilters& filters;               // init (model built), configure (matrix built)
        std::unique_ptr<FilaEngine>& fila;   // made when a plan has FILA levels
        ConfigurationProbes& probes;         // the automatic configuration's probes
        SolverStats& stats;                  // the per-level counters FILA and the filters count in
        const std::atomic<bool>& cancel;     // FILA polls it
        // FILA's solutions and trace records, passed on by the search (FilaSettings).
        std::function<bool(const int* images, int count)> filaSolution;
        std::function<void(int op, int remaining, int a, int b)> filaTrace;
    };

    SolverSetup(const PuzzleDef& def, const SolverOptions& options, const ModelLimits& limits, Targets targets);
    // One bounded unit of setup; false when the setup is over (done()) or failed (error()).
    bool step();
    bool done() const { return phase_ == kSetReady; }
    // Why the setup failed (empty while it has not).
    const std::string& error() const { return error_; }
    // The model is built (Solver::memoryBytes applies).
    bool modelBuilt() const { return phase_ > kSetModel; }
    // The configuration decided, once done(); the setup is spent after.
    SearchConfiguration take() { return std::move(config_); }

private:
    enum Phase : uint8_t { kSetModel, kSetPrepare, kSetPlan, kSetReach, kSetEstimate, kSetProbes, kSetMatrix, kSetReady };
    Status prepare();
    void adoptRedundancyPlan(RedundancyPlan plan, std::vector<RedundancyPlan> candidates, bool automatic);
    void proveByReach();
    void adoptProof(const WeightingProof& proof);  // its reason, kind and cells as the configuration's
    void estimateWholeSearch();
    void forecastCounting();
    void beginMatrix();
    void finishSetup();
    bool fail(std::string message);
    // What the probes use of the setup; FILA must be configured. The setup's probes run
    // before any search keeps FILA's tables across starts, so they leave it not doing so.
    ConfigurationProbes::Context probeContext();

    const SolverOptions& options_;
    ModelLimits limits_;
    Targets t_;
    SearchConfiguration config_;
    Phase phase_ = kSetModel;
    std::string error_;
    std::unique_ptr<ModelBuilder> builder_;  // until the model is built
    std::unique_ptr<RedundancyCandidateSearch> planSearch_;  // kSetPlan: the automatic -r choice
    std::vector<char> enabled_;  // images in the matrix
};

}  // namespace polycube
