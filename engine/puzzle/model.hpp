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
#include <map>
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
    long long maxImages = 4000000;  // bounded images over all shapes
    long long maxImageCells = 60000000;
    // Memory the images and the search structures built from them (the DLX matrix) may need,
    // estimated from the exact image count before any image is stored (modelBytes, matrixBytes). Well
    // under WebAssembly's 2 GiB heap, so that a puzzle is refused with a message instead of
    // aborting the module; the same limit natively, so the CLI and the page agree.
    long long maxBytes = 768LL << 20;
    // Everything a search holds: the above plus FILA's image list sets, which get what the
    // model and matrix leave (FilaSettings::maxTableBytes). 1.5 GiB: WebAssembly's heap is
    // 2 GiB and the solutions, trace buffers and allocator need their share.
    long long maxTotalBytes = 3LL << 29;
    // -u remembers every unique solution found (constraints/symmetry.hpp's UniqueFilter, 16
    // bytes each in a table at most 2/3 full, grown within the limit): 256 MiB hold 8,388,608
    // of them (maxUniqueBytes / 32); past that the search stops with an error instead of
    // growing without bound.
    long long maxUniqueBytes = 256LL << 20;
};

// Bytes a model of `images` images with `imageCells` cells in all takes, with the DLX matrix
// built over every image (the search's other structures are small beside these).
long long modelBytes(long long images, long long imageCells);
long long matrixBytes(long long images, long long imageCells, int columns);
std::string formatBytes(long long bytes);  // "1089 MiB", "340 KiB", "512 bytes"
std::string formatCount(long long n);      // "13,367,226": a count in a message, readable

class ModelBuilder;

class Model {
public:
    // Builds the whole model at once (ModelBuilder does it in bounded slices).
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
    // The first mobile shape whose cells do not all touch face to face (the format allows it),
    // or -1. The volume constraints and the pocket argument of the weighting proofs assume
    // that a piece lies within one region of open cells: with such a piece they are unsound
    // (a piece of two parts can fill two pockets at once), so they are off (Solver,
    // weighting.cpp).
    int disconnectedShape() const;

    // Image of `shape` covering exactly `sortedCells` (open-cell ids, ascending), or -1.
    int findImage(int shape, const std::vector<int>& sortedCells) const;
    // A solution's grid from its placed images: box index -> instance (stationary pieces
    // included). Copies of a shape get that shape's instances in order of their first cell,
    // so the grid does not depend on the order the images were placed in.
    std::vector<int> gridOf(const std::vector<int>& images) const;

private:
    friend class ModelBuilder;
    int mobileCount_ = 0;
    // findImage's open-addressing table: image ids + 1 (0 = empty), twice the image count
    // rounded up to a power of two. 8 bytes an image, built in slices (a hash map of string
    // keys would take 100 bytes an image, and seconds for millions of images).
    std::vector<uint32_t> imageTable_;
    uint64_t imageHash(int shape, const int* cells, size_t n) const;
};

// Model::build in slices, so a front end stays responsive and can cancel while a big puzzle
// is compiled (165 pieces of 10 cells in a 15x11x10 box: 3.5 million images, seconds).
//
//   ModelBuilder b(def, limits);
//   long long work = 1 << 16;
//   while (b.step(work) == ModelBuilder::Running) { work = 1 << 16; if (cancelled()) ...; }
//   if (b.failed()) error(b.error()); else Model m = b.take();
//
// step(work) does about `work` units (a unit: one cell of a translation tested, one image
// indexed) and returns. Before storing any image it counts them exactly and refuses the
// puzzle when modelBytes + matrixBytes would pass limits.maxBytes; past limits.maxImages or
// limits.maxImageCells it stops counting (within a row) and refuses it.
class ModelBuilder {
public:
    enum State { Running, Done, Failed };
    ModelBuilder(const PuzzleDef& def, const ModelLimits& limits = ModelLimits{});
    State step(long long work);
    State state() const { return state_; }
    bool failed() const { return state_ == Failed; }
    const std::string& error() const { return error_; }
    Model take() { return std::move(m_); }
    // Exact counts, known once the counting pass is over (a row past a count limit, when it
    // stopped there).
    long long imageCount() const { return images_; }
    long long imageCellCount() const { return imageCells_; }

private:
    enum Phase { kShapes, kCount, kCheck, kImages, kIndex };
    void fail(std::string message);
    // One row of translations (dz, dy) of orientation o of shape s: count or store its images.
    long long scanRow(bool store);
    bool seekOrientation();
    bool advanceRow();
    void startIndex();

    const PuzzleDef* def_;
    ModelLimits limits_;
    Model m_;
    State state_ = Running;
    std::string error_;
    Phase phase_ = kShapes;
    std::vector<PieceInstanceRef> refs_;
    size_t ref_ = 0;
    std::map<Cells, int> shapeOfCanonical_;
    int lastDef_ = -1, lastShape_ = -1;  // the last mobile piece's PieceDef and its shape
    int s_ = 0, o_ = 0, dz_ = 0, dy_ = 0;
    Vec3 ext_;                        // orientation o_'s extent,
    std::vector<int> cellBoxIndex_;   // its cells' box indices (at offset 0)
    int orientationParity_ = 0;       // and their parity (black - white)
    std::vector<int> scanOpen_;       // scanRow's open cells of one translation (reused)
    long long images_ = 0, imageCells_ = 0;
    std::vector<long long> shapeImages_;
    size_t indexed_ = 0;
};

}  // namespace polycube
