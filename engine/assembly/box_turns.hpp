// Inside engine/assembly: the ways a solution can be turned in its own box (which of its faces
// goes down), for build_order.cpp's "turned, it goes in more easily".
//
//   for (const BoxTurn& t : boxTurns(def)) { std::vector<int> turned = turnGrid(def, grid, t); ... }
#pragma once
#include <vector>

#include "geometry/geometry.hpp"
#include "puzzle/puzzle.hpp"

namespace polycube {

struct BoxTurn {
    const char* face;   // the face of the solution as stored that goes down: "-z" (none), "+z", "-y", "+y", "-x", "+x"
    const char* words;  // "its front face (-y) at the bottom"
    Rotation rotation;  // a proper rotation taking that face's outward normal to -z
};

// The faces that can go down with the box unchanged (a rotation of the box onto itself), the
// bottom first: the top always, the front and back when y is as long as the height, the sides
// when x is (all six for a cube). Only the bottom for a flat puzzle or one with stationary pieces
// (they are fixed in the box).
std::vector<BoxTurn> boxTurns(const PuzzleDef& def);
// The grid of the solution turned (box cell -> instance, the same layout).
std::vector<int> turnGrid(const PuzzleDef& def, const std::vector<int>& grid, const BoxTurn& turn);

}  // namespace polycube
