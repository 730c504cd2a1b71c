// CoverProblem: the exact-cover matrix the memoized counter searches, in the flat form its
// inner loop reads. Internal to engine/memo (the public header is memo_counter.hpp).
//
//   std::vector<int> order = sweepOrder(model);              // open cell -> position in the sweep
//   Result<CoverProblem> p = buildCoverProblem(model, order, allowed, nullptr);  // plain
//   Result<CoverProblem> q = buildCoverProblem(model, order, allowed, &symmetry); // fixed by it
//
// Columns: every open cell (covered exactly once) and every shape (used exactly its count of
// copies). Rows: the allowed images, or, with a symmetry g, the orbits of images under g
// whose images do not overlap: a solution that g maps onto itself is exactly a set of such
// orbits covering every cell once (Burnside's lemma counts classes from these; the orbit of
// an image of a mirroring symmetry holds the image and its mirror partner's images, so a row
// may take copies of two shapes).
//
// Cells are numbered in the sweep's order and each row is listed under its first cell in that
// order: the counter always fills the first open cell, so the rows there are its only choices
// and every other cell of such a row lies later in the sweep. A row's cells are a bit mask of
// `span` words starting at its first cell's word.
#pragma once
#include <cstdint>
#include <vector>

#include "common/status.hpp"
#include "constraints/symmetry.hpp"
#include "puzzle/model.hpp"

namespace polycube {

struct CoverProblem {
    int cells = 0;        // open cells
    int words = 0;        // words of the open-cell mask
    int span = 1;         // words of a row's mask
    int countWords = 0;   // words of the packed copies-left fields
    int shapes = 0;
    int pieces = 0;       // pieces to place (rows of one term place one or more)
    std::vector<int> rowBegin;      // rows listed under cell p: [rowBegin[p], rowBegin[p + 1])
    std::vector<uint64_t> mask;     // row r: span words from word(first cell of r)
    std::vector<uint64_t> demand;   // row r: countWords words, its copies in the packed fields
    std::vector<int> shape0, shape1;  // the shapes a row takes copies of (shape1: -1 for none)
    std::vector<int> take0, take1;    // how many copies of each
    std::vector<int> image;           // the model's image a row places (-1: an orbit of images)
    // End of the run of rows under the same cell with the same shape0. Within a run rows are
    // in ascending take0: when row r takes more copies of shape0 than are left, so do all the
    // rest of its run.
    std::vector<int> blockEnd;
    std::vector<int> startCount;    // copies of each shape at the start
    std::vector<uint64_t> startPacked;  // the same in the packed fields
    std::vector<int> fieldWord, fieldShift, fieldBits;  // shape s's field in the packed words
    // Face neighbours of each cell (sweep positions): [neighbourBegin[c], neighbourBegin[c + 1]).
    std::vector<int> neighbourBegin, neighbours;
    // The pocket cut: a region of open cells smaller than every piece can never be filled. 0
    // when the cut is off (a piece of one cell, or a piece in parts, which may fill two pockets).
    int smallestPiece = 0;
    // The subproblem's key (MemoCounter::buildKey): every cell before the first open cell p
    // is filled, and a row placed at an earlier first cell reaches at most `reach` - 1 cells
    // past it, so every cell after p + keyWindow is open. The key packs p + 1
    // (`positionBits`), the copies left (countBits[w] bits of each packed word) and the open
    // bits of cells p + 1 .. p + keyWindow: with 18 one-sided pentominoes in 18x5, 7 + 18 + 19
    // bits, one word where the whole open mask and the copies take three.
    int reach = 1;        // the most sweep positions a row spans, first cell to last
    int keyWindow = 0;
    int positionBits = 1;
    std::vector<int> countBits;
    // The key bit where packed word w's countBits[w] bits start: after the position and the
    // words before, or at the start of the next key word where they would straddle one, so
    // every copies field lies within one key word.
    std::vector<int> countAt;
    int keyBits = 1;      // the last copies bit + 1 + keyWindow
    int keyWords = 1;
    // The open cells per step of the sweep along its longest axis (a box's cross-section):
    // the layers' sizes repeat with this period, so their growth is measured over it
    // (layer_count.hpp, the forecast).
    int crossSection = 1;
    int rows() const { return static_cast<int>(shape0.size()); }
};

// The sweep: cells ordered like "first open cell" (the shortest box dimension fastest, the
// longest slowest), so the open cells' frontier is a cross-section of the box and the
// subproblems met again and again are few.
std::vector<int> sweepOrder(const Model& model);

// `allowed`: per image, whether it may be placed (the redundancy filter removes some). With a
// symmetry, the orbits under it with an image not allowed are left out.
Result<CoverProblem> buildCoverProblem(const Model& model, const std::vector<int>& order, const std::vector<char>& allowed,
                                       const Symmetry* symmetry);

}  // namespace polycube
