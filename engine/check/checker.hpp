// Independent solution checker: validates a solution grid against the puzzle definition
// without using any of the search code (its own rotation group, its own normalisation).
//
//   CheckResult r = checkSolution(def, grid);   // grid: box index -> instance index
//   if (!r.ok) std::cerr << r.message;          // "piece T: cells are not a rotation of its shape"
//
// Checks: the grid covers every box cell; stationary pieces are exactly where defined;
// every mobile instance appears, with as many cells as its piece, forming an allowed
// rotation (24 proper rotations; 4 quarter turns about z for one-sided puzzles) plus
// translation of its defined shape. So every cell is covered once and every piece used once.
#pragma once
#include <string>
#include <vector>

#include "puzzle/puzzle.hpp"

namespace polycube {

struct CheckResult {
    bool ok = true;
    std::string message;
};

CheckResult checkSolution(const PuzzleDef& def, const std::vector<int>& grid);

}  // namespace polycube
