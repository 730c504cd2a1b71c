// Build order: how a person puts a solution together with real pieces in a real box, one piece
// at a time (docs/build-order.md has the model and the reasoning).
//
//   Result<BuildOrder> r = computeBuildOrder(def, grid);   // grid: a solution (Session's layout)
//   if (!r.ok()) error(r.status.message);                  // "not a solution of this puzzle: ..."
//   for (const BuildStep& s : r.value.steps) ...           // instance, its slides, in order
//   std::cout << formatBuildOrder(def, r.value);           // the CLI's text (--build-order)
//   std::string j = buildOrderJson(def, r.value);          // {"ok":true,"class":"above",...}
//
// The model: the box is the puzzle's bounding box, z up, with walls on its four sides and a
// floor, open at the top. A piece comes in from above the box: it is lowered straight down (one
// slide along -z), and then, where needed, slid sideways once (along +-x or +-y) inside the box.
// It never passes through a placed piece, a wall or a stationary block, and where it ends it
// rests on the floor, a stationary block or a piece already placed. The cells of the
// board-shaping stationary piece '*' are not part of the puzzle: empty air, never support.
//
// The order is found backwards: the solution is taken apart by the reverse moves (a piece
// lifted straight up, or slid sideways and then lifted), and the order of removal reversed.
// A piece free to leave stays free when others have left (fewer obstacles), so whether pieces
// can be taken apart at all is decided greedily; the support rule (a piece rests on something
// placed before it) is not monotone, so the order itself is searched depth first over sets of
// pieces, with dead sets remembered (at most kMaxChecks pieces looked at).
//
// Classes: FromAbove (every piece dropped straight in), Sideways (at least one piece needs its
// sideways slide after lowering), Interlocked (no order of such moves exists: `interlocked` names
// the pieces still stuck when the greedy disassembly stops, to be put in together first; the
// steps then place the others; one piece alone is stuck only under stationary blocks), Unsupported (the pieces come apart, but in no order found does
// every piece rest on something: steps whose piece must be held have rests == false).
// A flat puzzle (zDim 1) is FromAbove trivially, in any order: the steps go bottom-left first.
//
// Which face of the solution is down matters: a solution that is not FromAbove as it is may be
// with another face at the bottom (a cube box takes it any way up). `turned` then holds the
// best such turn (its grid and order): the class first, then fewer sideways slides, fewer pieces
// held, a smaller interlocked group.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "puzzle/puzzle.hpp"

namespace polycube {

// One straight slide: a unit direction along an axis and a distance in cells.
struct Slide {
    int dx = 0, dy = 0, dz = 0;
    int distance = 0;
};

struct BuildStep {
    int instance = -1;           // piece instance (instanceIndex order of puzzle.hpp)
    std::vector<Slide> slides;   // down from just above the box (its lowest cell at z = zDim), then at most one sideways
    bool rests = true;           // where it ends it rests on the floor, a stationary block or a placed piece
};

enum class BuildClass { FromAbove, Sideways, Interlocked, Unsupported };

struct TurnedBuild;

struct BuildOrder {
    BuildClass kind = BuildClass::FromAbove;
    bool flat = false;               // a one-layer puzzle: everything from above, any order
    std::vector<int> interlocked;    // Interlocked: the instances that cannot be placed one by one
    std::vector<BuildStep> steps;    // every other mobile instance, in the order to place them
    long long statesSearched = 0;    // sets of pieces the search expanded (its size, for the benchmark)
    bool searchExhausted = false;    // the search stopped at kMaxChecks before deciding
    std::shared_ptr<const TurnedBuild> turned;  // a turn of the solution that goes in more easily, or null
};

// The solution with another face down, and its order.
struct TurnedBuild {
    std::string face;        // the face that goes down: "+z" (upside down), "-y", "+y", "-x", "+x"
    std::string words;       // "with its front face (-y) at the bottom"
    std::vector<int> grid;   // the solution turned (same layout as the grid given)
    BuildOrder order;        // (its own `turned` is null)
};

// Pieces the order search looks at (as candidates to take out) at most per class tried: more
// than every set of a 16-piece puzzle (2^16 sets of at most 16; the Tetris Cube and Bedlam have
// 12 and 13 pieces), and a bound on the time a puzzle of hundreds of pieces can take.
constexpr long long kMaxChecks = 2'000'000;

// The order for `grid` (box cell -> instance, every cell covered, as Session's solutions). A
// grid that is not a solution of `def` (checked by check/checker.hpp) is an error naming why.
Result<BuildOrder> computeBuildOrder(const PuzzleDef& def, const std::vector<int>& grid);

// "above", "sideways", "interlocked", "unsupported".
const char* buildClassName(BuildClass kind);

// {"ok":true,"class","flat","sideways":<steps with a sideways slide>,"interlocked":[instances],
//  "steps":[{"instance","name","slides":[{"dir":[dx,dy,dz],"distance"}],"rests"}],"states",
//  "turned":{"face","words","grid":[...],"order":{the same without "turned"}} (when there is one)}
std::string buildOrderJson(const PuzzleDef& def, const BuildOrder& order);
// {"ok":false,"error":message}
std::string buildOrderErrorJson(const std::string& message);

// The CLI's text, every line starting with "# ", e.g.
//   # build order: from above (every piece is lowered straight into place)
//   #   1. L  down 4
//   #   2. N  down 2, then 1 along +x (right)
//   # turned with its front face (-y) at the bottom, it goes in from above
std::string formatBuildOrder(const PuzzleDef& def, const BuildOrder& order);

// The class of the solution the best way up: `order`'s own, or its turn's when it has one.
BuildClass bestClass(const BuildOrder& order);

// A piece's name as people read it: "L", or "Y (copy 3)" for one of several copies.
std::string instanceLabel(const PuzzleDef& def, int instance);

}  // namespace polycube
