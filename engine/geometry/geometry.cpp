#include "geometry/geometry.hpp"

#include <algorithm>
#include <climits>
#include <set>
#include <sstream>

namespace polycube {

int Rotation::determinant() const {
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

bool Rotation::isIdentity() const {
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            if (m[i][j] != (i == j ? 1 : 0)) return false;
    return true;
}

Rotation Rotation::compose(const Rotation& inner) const {
    Rotation r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            int s = 0;
            for (int k = 0; k < 3; ++k) s += m[i][k] * inner.m[k][j];
            r.m[i][j] = s;
        }
    return r;
}

namespace {

// All 48 signed permutation matrices, identity first, proper ones before improper ones.
std::vector<Rotation> buildSignedPermutations() {
    std::vector<Rotation> proper, improper;
    int perm[3] = {0, 1, 2};
    do {
        for (int signs = 0; signs < 8; ++signs) {
            Rotation r;
            for (int row = 0; row < 3; ++row) r.m[row][perm[row]] = (signs >> row & 1) ? -1 : 1;
            (r.determinant() == 1 ? proper : improper).push_back(r);
        }
    } while (std::next_permutation(perm, perm + 3));
    // Identity is generated first (perm 012, signs 0): keep it at index 0.
    proper.insert(proper.end(), improper.begin(), improper.end());
    return proper;
}

}  // namespace

const std::vector<Rotation>& orthogonalTransforms() {
    static const std::vector<Rotation> all = buildSignedPermutations();
    return all;
}

const std::vector<Rotation>& properRotations() {
    static const std::vector<Rotation> proper(orthogonalTransforms().begin(), orthogonalTransforms().begin() + 24);
    return proper;
}

const std::vector<Rotation>& zRotations() {
    static const std::vector<Rotation> z = [] {
        std::vector<Rotation> out;
        Rotation quarter;  // (x, y, z) -> (-y, x, z)
        quarter.m = {{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}};
        Rotation r;
        r.m = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
        for (int i = 0; i < 4; ++i) {
            out.push_back(r);
            r = quarter.compose(r);
        }
        return out;
    }();
    return z;
}

Cells normalize(Cells cells) {
    if (cells.empty()) return cells;
    Vec3 lo{INT_MAX, INT_MAX, INT_MAX};
    for (const Vec3& c : cells) {
        lo.x = std::min(lo.x, c.x);
        lo.y = std::min(lo.y, c.y);
        lo.z = std::min(lo.z, c.z);
    }
    for (Vec3& c : cells) c = c - lo;
    std::sort(cells.begin(), cells.end());
    return cells;
}

Cells transform(const Cells& cells, const Rotation& r) {
    Cells out;
    out.reserve(cells.size());
    for (const Vec3& c : cells) out.push_back(r.apply(c));
    return out;
}

std::vector<Cells> distinctOrientations(const Cells& cells, const std::vector<Rotation>& rotations) {
    // At most 24 orientations: a linear search of those kept beats a set of keys (an
    // allocation per rotation and per node).
    std::vector<Cells> out;
    for (const Rotation& r : rotations) {
        Cells o = normalize(transform(cells, r));
        if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(std::move(o));
    }
    return out;
}

Cells canonicalForm(const Cells& cells, const std::vector<Rotation>& rotations) {
    Cells best;
    bool first = true;
    for (const Rotation& r : rotations) {
        Cells o = normalize(transform(cells, r));
        if (first || o < best) {
            best = std::move(o);
            first = false;
        }
    }
    return best;
}

Cells mirrored(const Cells& cells) {
    Cells out = cells;
    for (Vec3& c : out) c.x = -c.x;
    return normalize(std::move(out));
}

bool isConnected(const Cells& cells) {
    if (cells.empty()) return true;
    std::set<Vec3> all(cells.begin(), cells.end());
    std::set<Vec3> seen{cells[0]};
    std::vector<Vec3> todo{cells[0]};
    const Vec3 steps[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    while (!todo.empty()) {
        Vec3 c = todo.back();
        todo.pop_back();
        for (const Vec3& s : steps) {
            Vec3 n = c + s;
            if (all.count(n) && seen.insert(n).second) todo.push_back(n);
        }
    }
    return seen.size() == all.size();
}

std::string formatCells(const Cells& cells) {
    std::ostringstream os;
    for (size_t i = 0; i < cells.size(); ++i) {
        if (i) os << ", ";
        os << cells[i].x << ' ' << cells[i].y << ' ' << cells[i].z;
    }
    return os.str();
}

}  // namespace polycube
