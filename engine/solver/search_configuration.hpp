// What the Solver's setup decides about a search, handed over in one piece when the setup
// ends (SolverSetup::take): the algorithm plan, the redundancy filter's plan, the
// impossibility proofs, the heuristics' ranks, the root level's columns and FILA's start
// policy. The Solver keeps it, unchanged, for the whole search; the DLX driver reads it.
//
//   SearchConfiguration config = setup.take();   // once setup.done()
//   if (!config.impossible.empty()) ...           // proved impossible: nothing to search
//   const std::vector<int>& rank = config.ranks[config.rankAt[remaining]];
//
// Plain data: the objects others hold references to (the model, the symmetries, the matrix,
// the filters, FILA) are not in it; the setup builds those in place (SolverSetup::Targets).
#pragma once
#include <string>
#include <vector>

#include "constraints/symmetry.hpp"
#include "geometry/geometry.hpp"
#include "memo/memo_choice.hpp"
#include "solver/configuration.hpp"

namespace polycube {

struct SearchConfiguration {
    // Which algorithm searches which levels, the filters, triggers and heuristics
    // (planAlgorithms), with the setup's own decisions applied (orbits dropped where they
    // would not pay; the root's policy once the probes have spoken).
    AlgorithmPlan algo;

    // The redundancy filter (-r, or the orbits of all solutions): the constrained piece's
    // kept images and the acceptance check of each solution found.
    RedundancyPlan plan;
    bool planActive = false;
    std::string redundancyText = "OFF";  // -i's description

    // Non-empty when the puzzle was proved impossible before searching: the reason, the
    // argument ("parity" or a WeightingProof::kind), the cells a weighting's certificate
    // counts.
    std::string impossible, impossibleKind;
    std::vector<Vec3> impossibleCells;
    int weightingsTried = 0;      // cell weightings checked
    double weightingSeconds = 0;  // and the time they took

    // The fixed-order heuristics' cell ranks, one table per schedule entry (dense ranks of
    // the cells' keys; the shape columns last), and which table applies by pieces left.
    std::vector<std::vector<int>> ranks;
    std::vector<int> rankAt;

    long long dlxCost = 1;         // budget units a DLX placement costs (matrix size)
    long long filaTableLimit = 0;  // bytes FILA's tables may take (what the model and matrix leave)
    int enabledImages = 0;         // images in the matrix (those -r removed are not)

    // The root level: the -r piece's column when the root branches on it (-1: the
    // heuristic's choice), and that column whenever DLX has just the root level (the probes
    // of AlgorithmPlan::rootByProbes compare it with the heuristic's).
    int rootFirstColumn = -1;
    int rootConstrainedColumn = -1;
    // FILA below the root starts on the root's region, its tables shared by the root's images.
    bool filaFromRoot = false;

    // A count that lists nothing, with the choice left open (-q, neither --memo nor --no-memo,
    // nothing the memoized count refuses): whether to memoize it (memo/memo_choice.hpp). The
    // command line acts on it; without such a count, countingForecastMade is false.
    bool countingForecastMade = false;
    MemoForecast countingForecast;
};

}  // namespace polycube
