#include "puzzle/model.hpp"

#include <algorithm>
#include <cstdio>

namespace polycube {

namespace {

int parityOf(const Vec3& p) { return ((p.x + p.y + p.z) & 1) ? -1 : 1; }

uint64_t mix(uint64_t h) {  // splitmix64's finaliser
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
}

}  // namespace

// Bytes per image: the Image itself (56 bytes on a 64-bit machine, 40 in WebAssembly: the
// 64-bit figure is used everywhere, so the CLI and the page refuse the same puzzles), its
// cells on the heap plus the allocator's header, and findImage's table; per matrix node the
// four int arrays (up, down, column, row), per row three ints. For 165 random 10-cell pieces
// (tests/hostile/random165.txt) this estimates 1029 MiB, close to what the setup takes (about
// 1 GB, natively and in WebAssembly).
long long modelBytes(long long images, long long imageCells) {
    return images * (56 + 16 + 8) + imageCells * 4;
}

long long matrixBytes(long long images, long long imageCells, int columns) {
    const long long nodes = imageCells + images + columns;
    return nodes * 16 + images * 12;
}

std::string formatBytes(long long bytes) {
    char buf[32];
    if (bytes >= 10LL << 20) std::snprintf(buf, sizeof buf, "%lld MiB", bytes >> 20);
    else if (bytes >= 10LL << 10) std::snprintf(buf, sizeof buf, "%lld KiB", bytes >> 10);
    else std::snprintf(buf, sizeof buf, "%lld bytes", bytes);
    return buf;
}

std::string formatCount(long long n) {
    std::string digits = std::to_string(n < 0 ? -static_cast<unsigned long long>(n) : static_cast<unsigned long long>(n));
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return n < 0 ? "-" + out : out;
}

int Model::disconnectedShape() const {
    for (int s = 0; s < shapeCount(); ++s)
        if (!isConnected(shapes[s].cells)) return s;
    return -1;
}

int Model::openParity() const {
    int p = 0;
    for (const Vec3& v : openCellPos) p += parityOf(v);
    return p;
}

uint64_t Model::imageHash(int shape, const int* cells, size_t n) const {
    uint64_t h = mix(static_cast<uint64_t>(shape) + 0x9e3779b97f4a7c15ULL);
    for (size_t i = 0; i < n; ++i) h = mix(h ^ static_cast<uint32_t>(cells[i]));
    return h;
}

int Model::findImage(int shape, const std::vector<int>& sortedCells) const {
    if (imageTable_.empty()) return -1;
    const size_t mask = imageTable_.size() - 1;
    for (size_t at = imageHash(shape, sortedCells.data(), sortedCells.size()) & mask;; at = (at + 1) & mask) {
        const uint32_t e = imageTable_[at];
        if (e == 0) return -1;
        const Image& img = images[e - 1];
        if (img.shape == shape && img.cells == sortedCells) return static_cast<int>(e - 1);
    }
}

Result<Model> Model::build(const PuzzleDef& def, const ModelLimits& limits) {
    ModelBuilder b(def, limits);
    while (b.step(1LL << 40) == ModelBuilder::Running) {
    }
    if (b.failed()) return Result<Model>::error(b.error());
    return Result<Model>::success(b.take());
}

ModelBuilder::ModelBuilder(const PuzzleDef& def, const ModelLimits& limits) : def_(&def), limits_(limits) {
    m_.xDim = def.xDim;
    m_.yDim = def.yDim;
    m_.zDim = def.zDim;
    m_.oneSide = def.oneSide;
    m_.rotations = def.oneSide ? &zRotations() : &properRotations();
    const int boxCells = m_.boxCellCount();
    m_.stationaryOfBox.assign(boxCells, -1);
    m_.openCellOfBox.assign(boxCells, -1);
    refs_ = expandInstances(def);
}

void ModelBuilder::fail(std::string message) {
    state_ = Failed;
    error_ = std::move(message);
    m_ = Model{};
}

bool ModelBuilder::seekOrientation() {
    // From (s_, o_) on, the first orientation that fits in the box; false past the last shape.
    for (;;) {
        if (o_ >= static_cast<int>(m_.shapes[s_].orientations.size())) {
            o_ = 0;
            if (++s_ >= m_.shapeCount()) return false;
            if (phase_ == kImages) m_.shapeImageBegin.push_back(static_cast<int>(m_.images.size()));
            continue;
        }
        const Cells& cells = m_.shapes[s_].orientations[o_];
        ext_ = {0, 0, 0};
        for (const Vec3& c : cells) ext_ = {std::max(ext_.x, c.x), std::max(ext_.y, c.y), std::max(ext_.z, c.z)};
        if (ext_.x < m_.xDim && ext_.y < m_.yDim && ext_.z < m_.zDim) {
            // What scanRow needs of every translation, computed once: box indices are linear
            // in the coordinates (a translation adds its own index), and a translation by an
            // odd offset swaps black and white.
            cellBoxIndex_.clear();
            orientationParity_ = 0;
            for (const Vec3& c : cells) {
                cellBoxIndex_.push_back(m_.boxIndex(c));
                orientationParity_ += parityOf(c);
            }
            return true;
        }
        ++o_;
    }
}

bool ModelBuilder::advanceRow() {
    // Next row of translations: dy, then dz, then the next orientation, then the next shape.
    if (++dy_ + ext_.y < m_.yDim) return true;
    dy_ = 0;
    if (++dz_ + ext_.z < m_.zDim) return true;
    dz_ = 0;
    ++o_;
    return seekOrientation();
}

void ModelBuilder::startIndex() {
    while (static_cast<int>(m_.shapeImageBegin.size()) <= m_.shapeCount())
        m_.shapeImageBegin.push_back(static_cast<int>(m_.images.size()));
    size_t size = 16;
    while (size < 2 * m_.images.size()) size *= 2;
    m_.imageTable_.assign(size, 0);
    phase_ = kIndex;
}

long long ModelBuilder::scanRow(bool store) {
    // Images of orientation o_ of shape s_ at translations (dx, dy_, dz_): those inside the
    // box that miss the stationary cells. Returns the work done (cells tested).
    // The orientation's cells are in scan order (normalize sorts them: z, then y, then x),
    // a translation keeps that order and open cell ids follow it: each image's cells come
    // out ascending, without a sort.
    const int n = static_cast<int>(cellBoxIndex_.size());
    const int* const boxIndex = cellBoxIndex_.data();
    const int* const openOfBox = m_.openCellOfBox.data();
    const int rowIndex = m_.boxIndex({0, dy_, dz_});
    long long work = 1;
    scanOpen_.resize(n);
    int* const cells = scanOpen_.data();
    for (int dx = 0; dx + ext_.x < m_.xDim; ++dx) {
        const int* const translated = openOfBox + rowIndex + dx;
        int k = 0;
        while (k < n && (cells[k] = translated[boxIndex[k]]) >= 0) ++k;
        work += std::min(k + 1, n);  // the cells tested: up to the first one outside the open region
        if (k < n) continue;
        if (!store) {
            images_++;
            imageCells_ += n;
            continue;
        }
        Image img;
        img.shape = s_;
        img.orientation = o_;
        img.offset = {dx, dy_, dz_};
        img.parity = ((dx + dy_ + dz_) & 1) ? -orientationParity_ : orientationParity_;
        img.cells.assign(cells, cells + n);
        m_.images.push_back(std::move(img));
    }
    return work;
}

ModelBuilder::State ModelBuilder::step(long long work) {
    while (state_ == Running && work > 0) {
        switch (phase_) {
            case kShapes: {
                // Instances in instanceIndex order; mobile instances grouped into shapes.
                if (ref_ < refs_.size()) {
                    const PieceInstanceRef& ref = refs_[ref_++];
                    const PieceDef& pd = def_->pieces[ref.defIndex];
                    PieceInstance inst;
                    inst.name = pd.name;
                    inst.defIndex = ref.defIndex;
                    inst.copy = ref.copy;
                    inst.stationary = pd.stationary;
                    const int index = static_cast<int>(m_.instances.size());
                    work -= 24 * static_cast<long long>(pd.cells.size()) + 1;
                    if (pd.stationary) {
                        for (const Vec3& c : pd.cells) {
                            if (!m_.inBox(c)) {
                                fail("stationary piece " + pd.name + " lies outside the box");
                                return state_;
                            }
                            int& owner = m_.stationaryOfBox[m_.boxIndex(c)];
                            if (owner >= 0) {
                                fail("stationary pieces overlap at " + formatCells({c}));
                                return state_;
                            }
                            owner = index;
                        }
                    } else {
                        // The copies of a piece are consecutive instances of one shape.
                        if (ref.defIndex != lastDef_) {
                            // The canonical form is the least of the orientations (canonicalForm
                            // is the least over every rotation): one pass over the rotations.
                            std::vector<Cells> orientations = distinctOrientations(pd.cells, *m_.rotations);
                            const Cells& canonical = *std::min_element(orientations.begin(), orientations.end());
                            auto [it, inserted] = shapeOfCanonical_.emplace(canonical, static_cast<int>(m_.shapes.size()));
                            if (inserted) {
                                Shape s;
                                s.cells = canonical;
                                s.size = static_cast<int>(canonical.size());
                                s.name = pd.name;
                                int parity = 0;
                                for (const Vec3& c : canonical) parity += parityOf(c);
                                s.parityMagnitude = std::abs(parity);
                                s.orientations = std::move(orientations);
                                m_.shapes.push_back(std::move(s));
                            }
                            lastDef_ = ref.defIndex;
                            lastShape_ = it->second;
                        }
                        inst.shape = lastShape_;
                        m_.shapes[inst.shape].count++;
                        m_.shapes[inst.shape].instances.push_back(index);
                        m_.mobileCount_++;
                    }
                    m_.instances.push_back(std::move(inst));
                    break;
                }
                for (int b = 0; b < m_.boxCellCount(); ++b) {
                    if (m_.stationaryOfBox[b] >= 0) continue;
                    m_.openCellOfBox[b] = static_cast<int>(m_.boxOfOpenCell.size());
                    m_.boxOfOpenCell.push_back(b);
                    m_.openCellPos.push_back(m_.boxPos(b));
                }
                // Mirror partners (used by mirror handling): the shape whose canonical form
                // equals the canonical form of this shape's reflection.
                for (auto& s : m_.shapes) {
                    auto it = shapeOfCanonical_.find(canonicalForm(mirrored(s.cells), *m_.rotations));
                    s.mirror = it == shapeOfCanonical_.end() ? -1 : it->second;
                    work -= 24 * static_cast<long long>(s.cells.size());
                }
                work -= m_.boxCellCount();
                if (m_.shapes.empty()) {
                    phase_ = kCheck;
                    break;
                }
                s_ = 0, o_ = 0, dz_ = 0, dy_ = 0;
                phase_ = kCount;
                if (!seekOrientation()) phase_ = kCheck;
                break;
            }
            case kCount:
                // Count the images first, so that memory is checked before it is taken; past
                // the count limits, at once (a row later), not after counting them all: 4,000
                // random 16-cell pieces in a 40^3 box have 4.9 billion placements.
                work -= scanRow(false);
                if (images_ > limits_.maxImages || imageCells_ > limits_.maxImageCells) {
                    fail(images_ > limits_.maxImages
                             ? "puzzle too large: more than " + formatCount(limits_.maxImages) +
                                   " piece placements, the limit (counting stopped there, before any was stored)"
                             : "puzzle too large: its piece placements have more than " + formatCount(limits_.maxImageCells) +
                                   " cells in all, the limit (counting stopped there, before any was stored)");
                    return state_;
                }
                if (!advanceRow()) phase_ = kCheck;
                break;
            case kCheck: {
                const long long bytes = modelBytes(images_, imageCells_) +
                                        matrixBytes(images_, imageCells_, m_.openCellCount() + m_.shapeCount());
                if (bytes > limits_.maxBytes) {  // (the counts are within their limits: kCount)
                    fail("puzzle too large: its " + formatCount(images_) + " piece placements (" +
                         formatCount(imageCells_) + " cells) need about " + formatBytes(bytes) +
                         " of memory, more than the limit of " + formatBytes(limits_.maxBytes));
                    return state_;
                }
                m_.images.reserve(static_cast<size_t>(images_));
                if (m_.shapes.empty()) {
                    m_.shapeImageBegin.push_back(0);
                    state_ = Done;
                    return state_;
                }
                s_ = 0, o_ = 0, dz_ = 0, dy_ = 0;
                phase_ = kImages;
                m_.shapeImageBegin.push_back(0);
                if (!seekOrientation()) startIndex();
                break;
            }
            case kImages:
                work -= 2 * scanRow(true);
                if (!advanceRow()) startIndex();
                break;
            case kIndex: {
                const size_t mask = m_.imageTable_.size() - 1;
                for (; indexed_ < m_.images.size() && work > 0; ++indexed_) {
                    const Image& img = m_.images[indexed_];
                    size_t at = m_.imageHash(img.shape, img.cells.data(), img.cells.size()) & mask;
                    while (m_.imageTable_[at] != 0) at = (at + 1) & mask;
                    m_.imageTable_[at] = static_cast<uint32_t>(indexed_ + 1);
                    work -= static_cast<long long>(img.cells.size()) + 4;
                }
                if (indexed_ == m_.images.size()) state_ = Done;
                break;
            }
        }
    }
    return state_;
}

std::vector<int> Model::gridOf(const std::vector<int>& placed) const {
    std::vector<int> grid(stationaryOfBox.begin(), stationaryOfBox.end());
    std::vector<int> order(placed.begin(), placed.end());
    std::sort(order.begin(), order.end(), [&](int a, int b) { return images[a].cells.front() < images[b].cells.front(); });
    std::vector<int> used(shapes.size(), 0);
    for (int img : order) {
        const Image& image = images[img];
        const int instance = shapes[image.shape].instances[used[image.shape]++];
        for (int c : image.cells) grid[boxOfOpenCell[c]] = instance;
    }
    return grid;
}

}  // namespace polycube
