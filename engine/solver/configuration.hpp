// The algorithm plan of a search: which algorithm searches which levels (DLX, FILA), the
// heuristics' schedule, the image filters and backtrack triggers, and the automatic
// configuration's policy that chooses them from the options and the puzzle's shape.
//
//   Result<AlgorithmPlan> r = planAlgorithms(options, PuzzleFacts::of(model));
//   if (r.ok() && r.value.filaAt > 0) ...;   // FILA when filaAt pieces remain
//
// planAlgorithms is a pure function: the same options and facts give the same plan. What
// the automatic configuration decides from measurements (Monte Carlo probes: which -r piece,
// whether the root branches on it, whether the search is short) the setup decides later
// (solver/solver_setup.cpp), starting from the plan's fields that say what may be chosen.
#pragma once
#include <climits>
#include <string>

#include "common/status.hpp"
#include "puzzle/model.hpp"
#include "search/heuristics.hpp"
#include "solver/options.hpp"

namespace polycube {

// A search of at most this many pieces is short without asking: the whole-puzzle estimate of
// every such puzzle in def/ (19 of them: Soma and tetracube figures, hexomino subsets, ...) is
// at most 4.1e5 (the Soma tower), 70x under kShortSearchCost (9 pieces: up to 3.8e6, a Tetris
// Cube subset), while asking costs 0.15-0.2 ms, a sixth of such a puzzle's whole run.
constexpr int kShortSearchPieces = 8;

// What the automatic configuration decides by: the puzzle's shape, not its images.
struct PuzzleFacts {
    int pieces = 0;             // mobile pieces
    int xDim = 0, yDim = 0, zDim = 0;
    int openCells = 0;
    int boxCells = 0;
    std::string pieceInParts;   // a piece whose cells do not all touch face to face ("": none)
    static PuzzleFacts of(const Model& model);
};

struct AlgorithmPlan {
    bool automatic = false;     // the automatic configuration chose (no algorithm option given)
    int filaAt = -1;            // FILA takes over when this many pieces remain (<= 0: DLX only)
    HeuristicSchedule schedule;
    bool nof = false;           // FILA's "no fit" pruning (FILA article, Table 1)
    int extendedIndex = 0;      // FilaSettings::extendedIndex
    bool deadCellCut = false;   // FILA's dead-cell cut
    // Constraints: "apply while at least this many pieces remain" (INT_MAX: off).
    int parityFilterAt = INT_MAX, volumeFilterAt = INT_MAX, fitFilterAt = INT_MAX, volumeBacktrackAt = INT_MAX;
    bool parityBacktrack = false;
    std::string volumeOffFor;   // the piece in parts that turned the volume constraints off
    // The root level: on the piece -r constrains; or chosen by probes between it and min-fit's
    // column; or (3-D) by probes when the search is long, on the piece when it is short.
    bool rootOnConstrainedPiece = false;
    bool rootByProbes = false;
    bool rootProbesWhenLong = false;
    // All solutions without -r: search the redundancy-filtered tree (as -r does) and list each
    // unique solution's distinct images under the puzzle's symmetries (DlxDriver::reportOrbit),
    // instead of finding every image by search: |G| times fewer leaves for the same set of
    // solutions, in another order (docs/all-solutions.md). The setup turns it off again
    // where it would not pay: no symmetry, or no uniquely shaped piece to constrain.
    bool orbits = false;
};

// The plan for `options` on a puzzle of `facts`; an error for an -o schedule that does not
// parse. Explicit algorithm options keep the articles' algorithms exactly.
Result<AlgorithmPlan> planAlgorithms(const SolverOptions& options, const PuzzleFacts& facts);

}  // namespace polycube
