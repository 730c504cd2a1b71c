// Impossibility by cell weightings: a generalisation of the parity argument (first seed
// article, "Parity Constraint Violations"; the classic colouring proofs of tiling theory,
// e.g. Golomb's, "Polyominoes", ch. 2: no 1x4 bars tile a 10x10 board, by four colours).
//
// Give every open cell a small non-negative integer weight. In any solution each piece
// instance lies on one of its images (placements), and the images of the pieces cover every
// open cell exactly once, so the weights of the chosen images add up to the board's total
// weight T. For each piece, collect the set of weights its images can cover; if no choice of
// one value per piece instance adds up to T (checked as a subset sum over those sets: a
// range check first, then a bitset convolution when some set has gaps), the puzzle has no
// solution, and the weighting is a certificate a person can check by hand.
//
// Weightings tried, in this order (duplicates skipped):
//   - colourings by a coordinate form modulo k: the cells where (x), (y), (x + y), (x - y),
//     (x + y + z), ... is r mod k, for k = 2, 3, 4 (k = 2 with x + y + z is the checkerboard);
//   - cells by their surroundings (a wall is the box's border or a stationary cell): corner
//     cells (walled on some side along every axis of the board), edge cells (along at least
//     two axes, 3-D), surface cells (along at least one), cells with at most n open
//     neighbours, and the number of walled faces of each cell;
//   - cells few pieces can reach: a placement that walls off a pocket no set of the other
//     pieces can fill is left out, then the cells that at most t pieces can still cover get
//     weight 1 (a pigeonhole argument: four nooks only two pieces can fill). It floods the
//     surroundings of every placement, 1.5-4x the cost of the others together (0.25 ms on
//     10x6, 4 ms on the box-in-a-diamond hexominoes), so the solver runs it in a setup step
//     of its own (reachImpossibility).
// Said plainly first: a piece with no image at all ("piece P fits nowhere"), a cell that no
// image covers ("no piece fits over the cell at x=3, y=1, z=0").
//
// The work is bounded (WeightingLimits) so that it stays a setup-time check of a few
// milliseconds: a weighting whose check would exceed the bound is skipped, never guessed, so
// the answer "impossible" is always a proof and "possible" only means "not disproved".
//
//   WeightingProof p = weightingImpossibility(model);
//   if (p.impossible) std::cout << p.reason;   // "impossible by corner cells: the board has
//                                              //  16 corner cells; the pieces can cover at most
//                                              //  14 of them between them (...)"
#pragma once
#include <string>
#include <vector>

#include "puzzle/model.hpp"

namespace polycube {

struct WeightingLimits {
    long maxCellVisits = 30000000;  // image cells summed over the surroundings weightings
    long maxDpWords = 20000000;     // 64-bit word operations of the subset-sum convolutions
    bool reach = true;              // include the cells few pieces can reach (see above)
};

struct WeightingProof {
    bool impossible = false;
    std::string kind;    // "fits nowhere", "uncoverable cell", "colouring", "corner cells", "edge cells", "surface cells",
                         // "open neighbours", "walled faces", "hard-to-reach cells"; empty when not
                         // impossible
    std::string reason;  // "impossible by ...: ..." for people; empty when not impossible
    std::vector<int> cells;  // the open cells the certificate counts (weight > 0; the cell nothing
                             // covers), ascending; empty for a piece that fits nowhere
    int tried = 0;       // distinct weightings checked
    int skipped = 0;     // weightings left out by the limits
};

WeightingProof weightingImpossibility(const Model& model, const WeightingLimits& limits = WeightingLimits{});

// The cells few pieces can reach alone (whatever limits.reach says).
WeightingProof reachImpossibility(const Model& model, const WeightingLimits& limits = WeightingLimits{});

}  // namespace polycube
