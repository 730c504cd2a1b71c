#include "assembly/box_turns.hpp"

#include <cstdlib>

namespace polycube {

namespace {

Rotation matrix(std::array<std::array<int, 3>, 3> m) {
    Rotation r;
    r.m = m;
    return r;
}

// Each face's turn: the rotation takes its outward normal to (0, 0, -1) (quarter turns about x
// for the front and back, about y for the sides, a half turn about x for the top).
const std::vector<BoxTurn>& allTurns() {
    static const std::vector<BoxTurn> turns = {
        {"-z", "as it is", matrix({{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}})},
        {"+z", "upside down", matrix({{{1, 0, 0}, {0, -1, 0}, {0, 0, -1}}})},
        {"-y", "with its front face (-y) at the bottom", matrix({{{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}})},
        {"+y", "with its back face (+y) at the bottom", matrix({{{1, 0, 0}, {0, 0, 1}, {0, -1, 0}}})},
        {"-x", "with its left face (-x) at the bottom", matrix({{{0, 0, -1}, {0, 1, 0}, {1, 0, 0}}})},
        {"+x", "with its right face (+x) at the bottom", matrix({{{0, 0, 1}, {0, 1, 0}, {-1, 0, 0}}})},
    };
    return turns;
}

}  // namespace

std::vector<BoxTurn> boxTurns(const PuzzleDef& def) {
    std::vector<BoxTurn> out{allTurns().front()};
    if (def.zDim == 1) return out;
    for (const PieceDef& p : def.pieces)
        if (p.stationary) return out;
    const int dims[3] = {def.xDim, def.yDim, def.zDim};
    for (size_t k = 1; k < allTurns().size(); ++k) {
        const BoxTurn& t = allTurns()[k];
        bool same = true;
        for (int i = 0; i < 3; ++i) {
            int d = 0;
            for (int j = 0; j < 3; ++j) d += t.rotation.m[i][j] * dims[j];
            same = same && std::abs(d) == dims[i];
        }
        if (same) out.push_back(t);
    }
    return out;
}

std::vector<int> turnGrid(const PuzzleDef& def, const std::vector<int>& grid, const BoxTurn& turn) {
    const int dims[3] = {def.xDim, def.yDim, def.zDim};
    // where the box's corner at the origin goes: a negative row moves its axis by its length
    int offset[3];
    for (int i = 0; i < 3; ++i) {
        offset[i] = 0;
        for (int j = 0; j < 3; ++j)
            if (turn.rotation.m[i][j] < 0) offset[i] = dims[j] - 1;
    }
    std::vector<int> out(grid.size());
    for (int z = 0; z < def.zDim; ++z)
        for (int y = 0; y < def.yDim; ++y)
            for (int x = 0; x < def.xDim; ++x) {
                const Vec3 p = turn.rotation.apply({x, y, z});
                const int nx = p.x + offset[0], ny = p.y + offset[1], nz = p.z + offset[2];
                out[nx + def.xDim * (ny + def.yDim * nz)] = grid[x + def.xDim * (y + def.yDim * z)];
            }
    return out;
}

}  // namespace polycube
