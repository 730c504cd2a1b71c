// One level of the DLX search's explicit stack (solver/dlx_driver.cpp), shared with the parts
// that read the stack between slices (solver/subproblem_guide.hpp: follow a path, donate,
// fraction done):
//
//   Frame& f = frames[depth];
//   if (f.stage == Frame::kNext) { /* f.node is the next row of column f.col to try */ }
//
// A plain struct, so that the driver's loop reads and writes it directly.
#pragma once
#include <cstdint>

namespace polycube::solver_parts {

struct Frame {
    // Where the level stands: kEnter (triggers), kFilter (image filters, resumable), kChoose
    // (pick the column), kNext (place f.node), kReturn (f.node placed, its subtree below),
    // kFila (FILA searches this level and all below).
    enum Stage : uint8_t { kEnter = 0, kNext = 1, kReturn = 2, kFila = 3, kFilter = 4, kChoose = 5 };
    int col = -1;
    int node = -1;
    int stop = -1;     // the row list ends here: col, or (path levels, donation) an earlier node
    int hideMark = 0;  // rows hidden by filters at this level: the driver's hidden rows from here
    uint8_t stage = kEnter;
};

}  // namespace polycube::solver_parts
