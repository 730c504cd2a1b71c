// Geometry: lattice points, the rotation groups of the cube, and orientations of shapes.
//
//   Cells l = {{0,0,0},{1,0,0},{2,0,0},{0,1,0}};          // an L tetromino
//   auto orients = distinctOrientations(l, properRotations());   // 24 rotations -> 24 distinct
//   Cells key = canonicalForm(l, properRotations());       // equal for congruent shapes
//
// A Rotation is an orthogonal integer matrix. properRotations() are the 24 rotations of
// 3-space (det +1); zRotations() are the 4 quarter turns about z used by one-sided puzzles;
// orthogonalTransforms() adds the 24 reflections (det -1), used only for mirror handling.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace polycube {

struct Vec3 {
    int x = 0, y = 0, z = 0;
    friend bool operator==(const Vec3& a, const Vec3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
    friend bool operator!=(const Vec3& a, const Vec3& b) { return !(a == b); }
    // Cells sort by z, then y, then x (the de Bruijn scan order).
    friend bool operator<(const Vec3& a, const Vec3& b) {
        if (a.z != b.z) return a.z < b.z;
        if (a.y != b.y) return a.y < b.y;
        return a.x < b.x;
    }
    friend Vec3 operator+(const Vec3& a, const Vec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
    friend Vec3 operator-(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
};

using Cells = std::vector<Vec3>;

struct Rotation {
    std::array<std::array<int, 3>, 3> m{};  // row-major: result.x = m[0] . v
    Vec3 apply(const Vec3& v) const {
        return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z,
                m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
                m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
    }
    int determinant() const;
    bool isIdentity() const;
    Rotation compose(const Rotation& inner) const;  // this * inner: apply inner first
    friend bool operator==(const Rotation& a, const Rotation& b) { return a.m == b.m; }
};

const std::vector<Rotation>& properRotations();       // 24, identity first
const std::vector<Rotation>& zRotations();            // 4 about z, identity first
const std::vector<Rotation>& orthogonalTransforms();  // 48: the 24 proper, then 24 improper

// Translate so the minimum coordinate on each axis is 0, and sort (z, y, x order).
Cells normalize(Cells cells);
Cells transform(const Cells& cells, const Rotation& r);  // not normalized
// Distinct normalized orientations of a shape under a rotation set, in the set's order
// (the first one is the shape itself, normalized).
std::vector<Cells> distinctOrientations(const Cells& cells, const std::vector<Rotation>& rotations);
// Lexicographically least normalized orientation: equal for shapes congruent under the set.
Cells canonicalForm(const Cells& cells, const std::vector<Rotation>& rotations);
// Mirror image (x -> -x), normalized.
Cells mirrored(const Cells& cells);
bool isConnected(const Cells& cells);
std::string formatCells(const Cells& cells);  // "0 0 0, 1 0 0" (definition-file syntax)

}  // namespace polycube
