// Parity constraint (first seed article, "Parity Constraint Violations").
//
// Colour the cells like a 3-D checkerboard; an image's parity is black minus white cells.
// A piece of parity magnitude m contributes +m or -m depending on where it lies, so the
// remaining pieces can only match the parity of the remaining holes if that parity is in
// the set of sums of +-m over them. Pieces are grouped into classes by magnitude; a state
// is the number of pieces left in each class. achievable() answers from a table built once
// (small puzzles) or by a bitset convolution (many classes); see SubsetSums.
//
//   ParityMonitor pm;
//   pm.init(model);
//   std::vector<int> left = pm.initialCounts();
//   if (!pm.achievable(left.data(), model.openParity())) -> impossible
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "constraints/subset_sums.hpp"
#include "puzzle/model.hpp"

namespace polycube {

class ParityMonitor {
public:
    void init(const Model& model);
    int classCount() const { return static_cast<int>(magnitudes_.size()); }
    int classOfShape(int shape) const { return classOfShape_[shape]; }  // -1: parity 0
    int magnitude(int cls) const { return magnitudes_[cls]; }
    std::vector<int> initialCounts() const { return counts_; }
    bool achievable(const int* remainingByClass, int target) const;

private:
    std::vector<int> magnitudes_, counts_, classOfShape_;
    SubsetSums sums_;  // class k: each piece adds +magnitude or -magnitude
};

// Whole-puzzle parity (first seed article: the 35 hexominoes can never fill a rectangle):
// empty when the pieces can match the holes' parity, else the reason, for people to read.
// Used by the solver before searching and by the editor's draft checks.
std::string parityImpossibility(const Model& model);

}  // namespace polycube
