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
//   auto setup = std::make_unique<SolverSetup>(solver, limits);  // Solver::begin
//   while (setup->step()) {}  // one unit per call; false: done() or the solver Failed
//
// It owns what only the setup needs (the model's builder, the -r candidates' search, the
// images enabled in the matrix, the memory limits, the phase) and is freed once the setup is
// over; what the phases decide (model, symmetries, plans, proofs, matrix, FILA) is written
// into the Solver it configures (a friend), which then starts its search (beginSearch).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.hpp"
#include "constraints/symmetry.hpp"
#include "constraints/weighting.hpp"
#include "puzzle/model.hpp"
#include "solver/solver.hpp"

namespace polycube {

class SolverSetup {
public:
    SolverSetup(Solver& solver, const ModelLimits& limits);
    // One bounded unit of setup; false when the setup is over (done()) or failed (the
    // solver's state Failed, its error set).
    bool step();
    bool done() const { return phase_ == kSetReady; }

private:
    enum Phase : uint8_t { kSetModel, kSetPrepare, kSetPlan, kSetReach, kSetEstimate, kSetProbes, kSetMatrix, kSetReady };
    Status prepare();
    void adoptRedundancyPlan(RedundancyPlan plan, std::vector<RedundancyPlan> candidates, bool automatic);
    void proveByReach();
    void adoptProof(const WeightingProof& proof);  // its reason, kind and cells as the solver's
    void estimateWholeSearch();
    void beginMatrix();
    void finishSetup();

    Solver& s_;
    ModelLimits limits_;
    Phase phase_ = kSetModel;
    std::unique_ptr<ModelBuilder> builder_;  // until the model is built
    std::unique_ptr<RedundancyCandidateSearch> planSearch_;  // kSetPlan: the automatic -r choice
    std::vector<char> enabled_;  // images in the matrix
};

}  // namespace polycube
