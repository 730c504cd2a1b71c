// The build-order tests' own model of the box (tests/cpp/build_order_test.cpp), written apart
// from the engine's and kept simple: walls on four sides and a floor, open at the top; '*' cells
// are air, other stationary pieces blocks. It replays an order one cell at a time along its
// slides (every position of the moving piece free, starting above the box, ending in place, a
// piece said to rest having the floor, a block or a placed piece under one of its cells), and for
// puzzles of a few pieces finds the class by exhaustive search over every set of placed pieces.
//
//   std::string why = replayOrder(def, grid, order);        // "" when it replays
//   BuildClass k = exhaustiveClass(def, grid);               // 2^pieces sets: a few pieces only
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "assembly/build_order.hpp"
#include "puzzle/puzzle.hpp"

namespace polycube::testing {

struct P3 {
    int x, y, z;
};

// The independent model: the solution's cells per instance, blocks ('*' is air), and moves.
class Box {
public:
    Box(const PuzzleDef& def, const std::vector<int>& grid) : X(def.xDim), Y(def.yDim), Z(def.zDim) {
        const std::vector<PieceInstanceRef> refs = expandInstances(def);
        cells.resize(refs.size());
        solid.assign(grid.size(), false);
        for (size_t c = 0; c < grid.size(); ++c) {
            const PieceDef& d = def.pieces[refs[grid[c]].defIndex];
            const P3 p{static_cast<int>(c) % X, (static_cast<int>(c) / X) % Y, static_cast<int>(c) / (X * Y)};
            if (d.stationary) solid[c] = d.name != "*";
            else cells[grid[c]].push_back(p);
        }
        for (size_t i = 0; i < refs.size(); ++i)
            if (!def.pieces[refs[i].defIndex].stationary) mobile.push_back(static_cast<int>(i));
        occupied = solid;
    }

    int index(const P3& p) const { return p.x + X * (p.y + Y * p.z); }

    // Whether a cell of a moving piece may be at p: above the box anything goes; inside the box's
    // height only within the walls, not on a block or a placed piece; never under the floor.
    bool free(const P3& p) const {
        if (p.z < 0) return false;
        if (p.z >= Z) return true;
        if (p.x < 0 || p.x >= X || p.y < 0 || p.y >= Y) return false;
        return !occupied[index(p)];
    }
    bool allFree(const std::vector<P3>& at) const {
        for (const P3& p : at)
            if (!free(p)) return false;
        return true;
    }
    static std::vector<P3> moved(const std::vector<P3>& at, int dx, int dy, int dz) {
        std::vector<P3> out;
        for (const P3& p : at) out.push_back({p.x + dx, p.y + dy, p.z + dz});
        return out;
    }
    bool rests(int instance) const {
        for (const P3& p : cells[instance])
            if (p.z == 0 || occupied[index({p.x, p.y, p.z - 1})]) return true;
        return false;
    }
    void place(int instance, bool on) {
        for (const P3& p : cells[instance]) occupied[index(p)] = on;
    }

    // Replays slides (unit direction, distance) ending at the instance's cells, one cell at a
    // time from the start (the end minus every slide): "" when every position is free.
    std::string replay(int instance, const std::vector<Slide>& slides) const {
        std::vector<P3> at = cells[instance];
        for (const Slide& s : slides) at = moved(at, -s.dx * s.distance, -s.dy * s.distance, -s.dz * s.distance);
        for (const P3& p : at)
            if (p.z < Z) return "does not start above the box";
        for (const Slide& s : slides) {
            if (std::abs(s.dx) + std::abs(s.dy) + std::abs(s.dz) != 1 || s.distance < 1) return "a slide that is not one axis";
            for (int k = 0; k < s.distance; ++k) {
                at = moved(at, s.dx, s.dy, s.dz);
                if (!allFree(at)) return "collides on its way in";
            }
        }
        return "";
    }

    // Whether the instance can come in now by one drop, or (sideways) a drop then one sideways slide.
    bool insertable(int instance, bool sideways) const {
        const std::vector<P3>& end = cells[instance];
        auto dropsTo = [&](const std::vector<P3>& target) {
            int low = Z;
            for (const P3& p : target) low = std::min(low, p.z);
            for (int h = Z - low; h >= 0; --h)
                if (!allFree(moved(target, 0, 0, h))) return false;
            return true;
        };
        if (!allFree(end)) return false;
        if (dropsTo(end)) return true;
        if (!sideways) return false;
        const int dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (const auto& d : dirs)
            for (int k = 1; k <= std::max(X, Y); ++k) {
                bool path = true;
                for (int t = 1; t <= k && path; ++t) path = allFree(moved(end, d[0] * t, d[1] * t, 0));
                if (!path) break;
                if (dropsTo(moved(end, d[0] * k, d[1] * k, 0))) return true;
            }
        return false;
    }

    int X, Y, Z;
    std::vector<std::vector<P3>> cells;
    std::vector<bool> solid, occupied;
    std::vector<int> mobile;
};

// Checks an order by replaying it; returns "" or what went wrong.
inline std::string replayOrder(const PuzzleDef& def, const std::vector<int>& grid, const BuildOrder& order) {
    Box box(def, grid);
    std::set<int> seen;
    for (int i : order.interlocked) {  // put in together first
        if (!seen.insert(i).second) return "instance listed twice";
        box.place(i, true);
    }
    int sideways = 0;
    for (const BuildStep& s : order.steps) {
        if (!seen.insert(s.instance).second) return "instance placed twice";
        if (s.slides.empty() || s.slides.size() > 2) return "a step needs one or two slides";
        if (!(s.slides[0].dz == -1 && s.slides[0].dx == 0 && s.slides[0].dy == 0)) return "the first slide is not down";
        if (s.slides.size() == 2 && s.slides[1].dz != 0) return "the second slide is not sideways";
        sideways += s.slides.size() == 2;
        const std::string why = box.replay(s.instance, s.slides);
        if (!why.empty()) return instanceLabel(def, s.instance) + " " + why;
        if (s.rests != box.rests(s.instance)) return instanceLabel(def, s.instance) + ": rests is wrong";
        box.place(s.instance, true);
    }
    if (seen.size() != box.mobile.size()) return "not every piece is placed";
    const bool allRest = std::all_of(order.steps.begin(), order.steps.end(), [](const BuildStep& s) { return s.rests; });
    switch (order.kind) {
        case BuildClass::FromAbove:
            if (sideways || !allRest || !order.interlocked.empty()) return "from above, but not so";
            break;
        case BuildClass::Sideways:
            if (!sideways || !allRest || !order.interlocked.empty()) return "sideways, but not so";
            break;
        case BuildClass::Interlocked:
            if (order.interlocked.empty()) return "an interlocked group of none";
            break;
        case BuildClass::Unsupported:
            if (allRest || !order.interlocked.empty()) return "unsupported, but every piece rests";
            break;
    }
    return "";
}

// The class by exhaustive search over the sets of placed pieces with the simple model (for
// puzzles of a few pieces). `rest`: each piece must rest where it ends.
inline bool buildable(const PuzzleDef& def, const std::vector<int>& grid, bool sideways, bool rest) {
    Box box(def, grid);
    const int n = static_cast<int>(box.mobile.size());
    std::vector<char> can(size_t{1} << n, 0);
    can[0] = 1;
    for (uint32_t set = 1; set < (1u << n); ++set) {
        for (int k = 0; k < n && !can[set]; ++k) {
            if (!(set >> k & 1) || !can[set & ~(1u << k)]) continue;
            box.occupied = box.solid;
            for (int j = 0; j < n; ++j)
                if ((set & ~(1u << k)) >> j & 1) box.place(box.mobile[j], true);
            can[set] = box.insertable(box.mobile[k], sideways) && (!rest || box.rests(box.mobile[k]));
        }
    }
    return can[(1u << n) - 1];
}

inline BuildClass exhaustiveClass(const PuzzleDef& def, const std::vector<int>& grid) {
    if (buildable(def, grid, false, true)) return BuildClass::FromAbove;
    if (buildable(def, grid, true, true)) return BuildClass::Sideways;
    return buildable(def, grid, true, false) ? BuildClass::Unsupported : BuildClass::Interlocked;
}

}  // namespace polycube::testing
