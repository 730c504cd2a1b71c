// Model: a parsed puzzle compiled into what every search algorithm works on.
//
//   Result<Model> r = Model::build(def);
//   const Model& m = r.value;
//   m.openCellCount();            // cells to fill (box minus stationary cells)
//   m.shapes[s].count;            // interchangeable copies of shape s
//   m.images[i].cells;            // open-cell ids covered by image i (sorted)
//
// Terms (from the seed articles): a *shape* is a piece shape unique under the allowed
// rotations; pieces of identical shape are copies of one shape. An *image* is one
// orientation + translation of a shape lying inside the box and missing stationary cells.
// Open cells are numbered in scan order: x fastest, then y, then z.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/status.hpp"
#include "geometry/geometry.hpp"
#include "puzzle/puzzle.hpp"

namespace polycube {

struct PieceInstance {
    std::string name;
    int defIndex = 0;   // PuzzleDef::pieces index
    int copy = 0;       // 0..count-1 within its PieceDef
    bool stationary = false;
    int shape = -1;     // mobile shape id; -1 for stationary pieces
};

struct Shape {
    Cells cells;                 // canonical normalized form
    int size = 0;
    int count = 0;               // mobile instances with this shape
    std::vector<int> instances;  // their instance indices, ascending
    std::vector<Cells> orientations;
    int parityMagnitude = 0;     // |black - white| of any image
    int mirror = -1;             // shape whose cells are this shape's mirror image, or -1
    std::string name;            // first instance's name
};

struct Image {
    int shape = 0;
    int orientation = 0;      // index into Shape::orientations
    Vec3 offset;              // translation of the oriented, normalized shape
    std::vector<int> cells;   // open-cell ids, ascending
    int parity = 0;           // black - white, black = (x+y+z) even
};

struct ModelLimits {
    long maxImages = 4000000;  // bounded images over all shapes
    long maxImageCells = 60000000;
};

class Model {
public:
    static Result<Model> build(const PuzzleDef& def, const ModelLimits& limits = ModelLimits{});

    int xDim = 0, yDim = 0, zDim = 0;
    bool oneSide = false;
    const std::vector<Rotation>* rotations = nullptr;  // allowed piece rotations (24 or 4)

    std::vector<PieceInstance> instances;  // instanceIndex order (stationary included)
    std::vector<Shape> shapes;             // mobile shapes
    std::vector<Image> images;             // grouped by shape, see shapeImages
    std::vector<int> shapeImageBegin;      // images of shape s: [begin[s], begin[s+1])

    std::vector<int> openCellOfBox;        // box index -> open cell id, or -1
    std::vector<int> boxOfOpenCell;        // open cell id -> box index
    std::vector<Vec3> openCellPos;         // open cell id -> coordinates
    std::vector<int> stationaryOfBox;      // box index -> stationary instance, or -1

    int boxCellCount() const { return xDim * yDim * zDim; }
    int openCellCount() const { return static_cast<int>(boxOfOpenCell.size()); }
    int mobileCount() const { return mobileCount_; }
    int shapeCount() const { return static_cast<int>(shapes.size()); }
    int boxIndex(const Vec3& p) const { return p.x + xDim * (p.y + yDim * p.z); }
    Vec3 boxPos(int index) const { return {index % xDim, (index / xDim) % yDim, index / (xDim * yDim)}; }
    bool inBox(const Vec3& p) const {
        return p.x >= 0 && p.y >= 0 && p.z >= 0 && p.x < xDim && p.y < yDim && p.z < zDim;
    }
    // Parity of the open region: black minus white cells.
    int openParity() const;

    // Image of `shape` covering exactly `sortedCells` (open-cell ids, ascending), or -1.
    int findImage(int shape, const std::vector<int>& sortedCells) const;

private:
    int mobileCount_ = 0;
    std::unordered_map<std::string, int> imageIndex_;
};

}  // namespace polycube
