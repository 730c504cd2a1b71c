#include "puzzle/model.hpp"

#include <algorithm>
#include <map>

namespace polycube {

namespace {

std::string imageKey(int shape, const std::vector<int>& cells) {
    std::string key;
    key.reserve(4 * (cells.size() + 1));
    auto put = [&](int v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
    put(shape);
    for (int c : cells) put(c);
    return key;
}

int parityOf(const Vec3& p) { return ((p.x + p.y + p.z) & 1) ? -1 : 1; }

}  // namespace

int Model::openParity() const {
    int p = 0;
    for (const Vec3& v : openCellPos) p += parityOf(v);
    return p;
}

int Model::findImage(int shape, const std::vector<int>& sortedCells) const {
    auto it = imageIndex_.find(imageKey(shape, sortedCells));
    return it == imageIndex_.end() ? -1 : it->second;
}

Result<Model> Model::build(const PuzzleDef& def, const ModelLimits& limits) {
    Model m;
    m.xDim = def.xDim;
    m.yDim = def.yDim;
    m.zDim = def.zDim;
    m.oneSide = def.oneSide;
    m.rotations = def.oneSide ? &zRotations() : &properRotations();

    const int boxCells = m.boxCellCount();
    m.stationaryOfBox.assign(boxCells, -1);
    m.openCellOfBox.assign(boxCells, -1);

    // Instances in instanceIndex order; group mobile instances into shapes.
    std::map<Cells, int> shapeOfCanonical;
    for (const PieceInstanceRef& ref : expandInstances(def)) {
        const PieceDef& pd = def.pieces[ref.defIndex];
        PieceInstance inst;
        inst.name = pd.name;
        inst.defIndex = ref.defIndex;
        inst.copy = ref.copy;
        inst.stationary = pd.stationary;
        const int index = static_cast<int>(m.instances.size());
        if (pd.stationary) {
            for (const Vec3& c : pd.cells) {
                if (!m.inBox(c)) return Result<Model>::error("stationary piece " + pd.name + " lies outside the box");
                int& owner = m.stationaryOfBox[m.boxIndex(c)];
                if (owner >= 0) return Result<Model>::error("stationary pieces overlap at " + formatCells({c}));
                owner = index;
            }
        } else {
            Cells canonical = canonicalForm(pd.cells, *m.rotations);
            auto [it, inserted] = shapeOfCanonical.emplace(canonical, static_cast<int>(m.shapes.size()));
            if (inserted) {
                Shape s;
                s.cells = canonical;
                s.size = static_cast<int>(canonical.size());
                s.name = pd.name;
                s.orientations = distinctOrientations(pd.cells, *m.rotations);
                m.shapes.push_back(std::move(s));
            }
            inst.shape = it->second;
            m.shapes[inst.shape].count++;
            m.shapes[inst.shape].instances.push_back(index);
            m.mobileCount_++;
        }
        m.instances.push_back(std::move(inst));
    }

    for (int b = 0; b < boxCells; ++b) {
        if (m.stationaryOfBox[b] >= 0) continue;
        m.openCellOfBox[b] = static_cast<int>(m.boxOfOpenCell.size());
        m.boxOfOpenCell.push_back(b);
        m.openCellPos.push_back(m.boxPos(b));
    }

    // Mirror partners (used by mirror handling): the shape whose canonical form equals the
    // canonical form of this shape's reflection.
    for (auto& s : m.shapes) {
        auto it = shapeOfCanonical.find(canonicalForm(mirrored(s.cells), *m.rotations));
        s.mirror = it == shapeOfCanonical.end() ? -1 : it->second;
    }

    // Images: every orientation at every translation inside the box, missing stationary cells.
    long totalCells = 0;
    for (int s = 0; s < m.shapeCount(); ++s) {
        m.shapeImageBegin.push_back(static_cast<int>(m.images.size()));
        Shape& shape = m.shapes[s];
        int parity = 0;
        for (const Vec3& c : shape.cells) parity += parityOf(c);
        shape.parityMagnitude = std::abs(parity);
        for (int o = 0; o < static_cast<int>(shape.orientations.size()); ++o) {
            const Cells& oc = shape.orientations[o];
            Vec3 ext{0, 0, 0};
            for (const Vec3& c : oc) ext = {std::max(ext.x, c.x), std::max(ext.y, c.y), std::max(ext.z, c.z)};
            for (int dz = 0; dz + ext.z < m.zDim; ++dz)
                for (int dy = 0; dy + ext.y < m.yDim; ++dy)
                    for (int dx = 0; dx + ext.x < m.xDim; ++dx) {
                        Image img;
                        img.shape = s;
                        img.orientation = o;
                        img.offset = {dx, dy, dz};
                        bool fits = true;
                        for (const Vec3& c : oc) {
                            Vec3 p = c + img.offset;
                            int open = m.openCellOfBox[m.boxIndex(p)];
                            if (open < 0) {
                                fits = false;
                                break;
                            }
                            img.cells.push_back(open);
                            img.parity += parityOf(p);
                        }
                        if (!fits) continue;
                        std::sort(img.cells.begin(), img.cells.end());
                        totalCells += static_cast<long>(img.cells.size());
                        if (static_cast<long>(m.images.size()) >= limits.maxImages || totalCells > limits.maxImageCells)
                            return Result<Model>::error("puzzle too large: more than " + std::to_string(limits.maxImages) +
                                                        " piece placements would be needed");
                        m.images.push_back(std::move(img));
                    }
        }
    }
    m.shapeImageBegin.push_back(static_cast<int>(m.images.size()));
    for (int i = 0; i < static_cast<int>(m.images.size()); ++i)
        m.imageIndex_.emplace(imageKey(m.images[i].shape, m.images[i].cells), i);
    return Result<Model>::success(std::move(m));
}

}  // namespace polycube
