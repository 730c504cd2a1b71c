// FILA's input read off a DLX matrix: the open cells in the header list's order and the live
// rows' images, shape by shape. The DLX driver fills it where FILA takes over; the
// configuration's probes fill it on matrices of their own.
//
//   fillFilaInput(input, dlx, model, piecesLeft, holesParity, parityLeft);
//   fila.start(input);
#pragma once
#include <vector>

#include "puzzle/model.hpp"
#include "search/dlx.hpp"
#include "search/fila.hpp"

namespace polycube {

inline void fillFilaInput(FilaInput& out, const DlxMatrix& dlx, const Model& model, int pieces, int holesParity,
                          const std::vector<int>& parityLeft) {
    out.openCells.clear();
    for (int c = dlx.firstColumn(); c != dlx.root() && c < dlx.cellColumns(); c = dlx.nextColumn(c))
        out.openCells.push_back(c);
    // In the DLX header list's order: the order "first open cell" fills the box (dlx.cpp), so
    // FILA's bits number the cells the same way however the box is turned or written.
    out.images.clear();
    out.copiesLeft.assign(model.shapeCount(), 0);
    for (int s = 0; s < model.shapeCount(); ++s) {
        out.copiesLeft[s] = dlx.remaining(dlx.columnOfShape(s));
        dlx.forEachLiveRowOfShape(s, [&](int row) { out.images.push_back(dlx.imageOfRow(row)); });
    }
    out.pieces = pieces;
    out.holesParity = holesParity;
    out.parityLeft = parityLeft;
}

}  // namespace polycube
