// DLX: Knuth's dancing links for the exact cover matrix of a puzzle.
//
//   DlxMatrix dlx;
//   dlx.build(model, enabledImages);        // rows = enabled images
//   int c = dlx.chooseColumn(rank);         // -1: some column can never be covered
//   dlx.coverChosen(c);
//   for (int node = dlx.down(c); node != c; node = dlx.down(node)) {
//       dlx.selectRow(node);  ...recurse...  dlx.unselectRow(node);
//   }
//   dlx.uncoverChosen(c);
//
// Columns: one per open cell (covered exactly once) and one per shape, covered exactly
// `count` times (interchangeable copies share one column, as in the reference solver). A
// shape column is only chosen for branching when one copy remains, so copies are never
// permuted. Nodes live in flat arrays (no pointers, no allocation while searching); the
// nodes of a row are contiguous. The search loop itself is in solver/ (an explicit stack
// that runs in slices); this class only provides the matrix operations.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "puzzle/model.hpp"

namespace polycube {

class DlxMatrix {
public:
    void build(const Model& model, const std::vector<char>& imageEnabled);
    // The same in slices: begin, then buildSome until it returns true (each call links rows
    // for about `work` nodes). The model and the flags must not change in between.
    void begin(const Model& model, const std::vector<char>& imageEnabled);
    bool buildSome(const Model& model, const std::vector<char>& imageEnabled, long long work);

    int cellColumns() const { return cellColumns_; }
    int columnCount() const { return columns_; }
    bool isShapeColumn(int col) const { return col >= cellColumns_; }
    int shapeOfColumn(int col) const { return col - cellColumns_; }
    int columnOfShape(int shape) const { return cellColumns_ + shape; }
    int length(int col) const { return len_[col]; }
    int remaining(int col) const { return count_[col]; }  // copies still to place (cells: 1 or 0)
    int root() const { return columns_; }
    int firstColumn() const { return right_[columns_]; }
    int nextColumn(int col) const { return right_[col]; }

    // Column to branch on, or -1 when some column can no longer be covered. `rank` has one
    // entry per column (smaller is preferred, ties go to fewer rows; INT_MAX: only when
    // forced). Every heuristic first takes a column with 0 or 1 rows.
    int chooseColumn(const std::vector<int>& rank) const;

    void coverChosen(int col);
    void uncoverChosen(int col);
    int down(int node) const { return down_[node]; }
    int up(int node) const { return up_[node]; }
    // Place/unplace the image of `node`'s row: covers the row's other columns.
    void selectRow(int node);
    void unselectRow(int node);
    int rowOf(int node) const { return rowOfNode_[node]; }
    int imageOfRow(int row) const { return imageOfRow_[row]; }
    int rowOfImage(int image) const { return rowOfImage_[image]; }  // -1 if not in the matrix
    int rowCount() const { return static_cast<int>(imageOfRow_.size()); }
    long long nodeCount() const { return static_cast<long long>(up_.size()); }

    // Filters: take a row out of (and put it back into) every column it is in. Calls must
    // nest with cover/uncover (undo in reverse order).
    void hideRow(int row);
    void unhideRow(int row);
    // Fit filter (first seed article, "Fit Constraint Violations"): would placing this row
    // leave a hole or a piece with no image that still fits? The matrix is unchanged after.
    bool rowLeavesDeadColumn(int row);
    // A row is live when it is still linked in its shape column and its shape has copies
    // left: live rows are exactly the images that still fit.
    bool rowLive(int row) const;
    template <class F>
    void forEachLiveRowOfShape(int shape, F&& f) const {
        int col = columnOfShape(shape);
        if (count_[col] == 0) return;
        for (int n = down_[col]; n != col; n = down_[n]) f(rowOfNode_[n]);
    }

    void shuffle(std::mt19937_64& rng);  // random row order in every column (Monte Carlo)

private:
    void cover(int col);
    void uncover(int col);
    void unlinkRowExcept(int node);
    void relinkRowExcept(int node);

    int cellColumns_ = 0, columns_ = 0;
    std::vector<int> left_, right_;  // column list, root = columns_
    std::vector<int> len_, count_;
    // Node arrays: nodes [0, columns_) are column headers.
    std::vector<int> up_, down_, colOfNode_, rowOfNode_;
    std::vector<int> rowStart_;      // nodes of row r: [rowStart_[r], rowStart_[r+1]); last is the shape node
    std::vector<int> imageOfRow_, rowOfImage_;
    int nextImage_ = 0;  // buildSome's position: the next image,
    int builtNodes_ = 0; // and the nodes written so far (the arrays are reserved for all of them)
};

}  // namespace polycube
