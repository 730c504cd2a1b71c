#include "constraints/symmetry.hpp"

#include <algorithm>
#include <climits>
#include <functional>
#include <map>
#include <tuple>

#include "common/hash.hpp"
#include "search/heuristics.hpp"

namespace polycube {

namespace {

// Transforms that may map the puzzle onto itself, and whether each turns pieces into their
// mirror images. Rotations first (identity first).
struct Candidate {
    Rotation transform;
    bool mirrorsPieces;
};

std::vector<Candidate> candidateTransforms(const Model& m, bool includeMirror, bool closed) {
    std::vector<Candidate> out;
    if (m.oneSide) {
        // Quarter turns in the plane; and, when every piece's mirror image is also a piece,
        // turning the whole board over (a rotation of 3-space that turns each one-sided
        // piece into its mirror partner: "including turning a flat board over").
        for (const Rotation& r : zRotations()) out.push_back({r, false});
        if (closed) {
            Rotation flip;  // half turn about y: (x, y, z) -> (-x, y, -z)
            flip.m = {{{-1, 0, 0}, {0, 1, 0}, {0, 0, -1}}};
            for (const Rotation& r : zRotations()) out.push_back({r.compose(flip), true});
        }
    } else {
        const auto& all = orthogonalTransforms();
        for (size_t i = 0; i < all.size(); ++i) {
            bool proper = i < 24;
            if (proper || (includeMirror && closed)) out.push_back({all[i], !proper});
        }
    }
    return out;
}

}  // namespace

bool mirrorClosed(const Model& m) {
    for (const Shape& s : m.shapes)
        if (s.mirror < 0 || m.shapes[s.mirror].count != s.count) return false;
    return true;
}

std::vector<Symmetry> puzzleSymmetries(const Model& m, bool includeMirror) {
    const bool closed = mirrorClosed(m);
    std::vector<Symmetry> out;
    const Vec3 dims{m.xDim, m.yDim, m.zDim};
    // Stationary pieces as cell sets, to check the layout maps onto itself piecewise.
    std::map<int, std::vector<int>> stationaryCells;  // instance -> sorted box indices
    for (int b = 0; b < m.boxCellCount(); ++b)
        if (m.stationaryOfBox[b] >= 0) stationaryCells[m.stationaryOfBox[b]].push_back(b);

    for (const Candidate& cand : candidateTransforms(m, includeMirror, closed)) {
        const Rotation& t = cand.transform;
        Vec3 d = t.apply(dims);
        if (std::abs(d.x) != m.xDim || std::abs(d.y) != m.yDim || std::abs(d.z) != m.zDim) continue;
        // Translation that brings the transformed box back onto [0, dim).
        Vec3 lo{INT_MAX, INT_MAX, INT_MAX};
        for (int corner = 0; corner < 8; ++corner) {
            Vec3 c{(corner & 1) ? m.xDim - 1 : 0, (corner & 2) ? m.yDim - 1 : 0, (corner & 4) ? m.zDim - 1 : 0};
            Vec3 r = t.apply(c);
            lo = {std::min(lo.x, r.x), std::min(lo.y, r.y), std::min(lo.z, r.z)};
        }
        auto mapBox = [&](int b) { return m.boxIndex(t.apply(m.boxPos(b)) - lo); };

        bool ok = true;
        for (const auto& [inst, cells] : stationaryCells) {
            std::vector<int> mapped;
            for (int b : cells) mapped.push_back(mapBox(b));
            std::sort(mapped.begin(), mapped.end());
            int target = m.stationaryOfBox[mapped[0]];
            if (target < 0 || stationaryCells[target] != mapped) {
                ok = false;
                break;
            }
        }
        if (!ok) continue;

        Symmetry g;
        g.transform = t;
        g.mirrorsPieces = cand.mirrorsPieces;
        g.cellMap.resize(m.openCellCount());
        for (int c = 0; c < m.openCellCount(); ++c) g.cellMap[c] = m.openCellOfBox[mapBox(m.boxOfOpenCell[c])];
        g.shapeMap.resize(m.shapeCount());
        for (int s = 0; s < m.shapeCount(); ++s) g.shapeMap[s] = cand.mirrorsPieces ? m.shapes[s].mirror : s;
        // Different transforms can act identically (flat boards): keep one of each action.
        bool duplicate = std::any_of(out.begin(), out.end(), [&](const Symmetry& h) {
            return h.cellMap == g.cellMap && h.shapeMap == g.shapeMap;
        });
        if (!duplicate) out.push_back(std::move(g));
    }
    return out;
}

namespace {

// mapImage with the caller's buffer for the mapped cells: planForShape maps every image of a
// shape under every symmetry, and an allocation per call would be a third of its time.
int mapImageInto(const Model& m, const Symmetry& g, int image, std::vector<int>& cells) {
    const Image& img = m.images[image];
    cells.resize(img.cells.size());
    for (size_t k = 0; k < img.cells.size(); ++k) cells[k] = g.cellMap[img.cells[k]];
    std::sort(cells.begin(), cells.end());
    return m.findImage(g.shapeMap[img.shape], cells);
}

}  // namespace

int mapImage(const Model& m, const Symmetry& g, int image) {
    std::vector<int> cells;
    return mapImageInto(m, g, image, cells);
}

int mapImage(const Model& m, const Symmetry& g, int image, std::vector<int>& cells) {
    return mapImageInto(m, g, image, cells);
}

void SolutionCoder::fillOwner(const std::vector<int>& placed, const Symmetry* g) {
    owner_.assign(model_->openCellCount(), -1);
    for (int k = 0; k < static_cast<int>(placed.size()); ++k)
        for (int c : model_->images[placed[k]].cells) owner_[g ? g->cellMap[c] : c] = k;
}

void SolutionCoder::codeFromOwner(const std::vector<int>& placed, const Symmetry* g, std::vector<uint32_t>& out) {
    out.resize(owner_.size());
    rank_.assign(placed.size(), -1);
    int next = 0;
    for (size_t c = 0; c < owner_.size(); ++c) {
        int k = owner_[c];
        if (rank_[k] < 0) rank_[k] = next++;
        int shape = model_->images[placed[k]].shape;
        if (g) shape = g->shapeMap[shape];
        out[c] = (static_cast<uint32_t>(shape) << 16) | static_cast<uint32_t>(rank_[k]);
    }
}

void SolutionCoder::encode(const std::vector<int>& placed, std::vector<uint32_t>& out) {
    fillOwner(placed, nullptr);
    codeFromOwner(placed, nullptr, out);
}

void SolutionCoder::encodeTransformed(const std::vector<int>& placed, const Symmetry& g, std::vector<uint32_t>& out) {
    fillOwner(placed, &g);
    codeFromOwner(placed, &g, out);
}

void SolutionCoder::canonical(const std::vector<int>& placed, const std::vector<Symmetry>& syms,
                              std::vector<uint32_t>& out) {
    encode(placed, out);
    std::vector<uint32_t> other;
    for (size_t i = 1; i < syms.size(); ++i) {
        encodeTransformed(placed, syms[i], other);
        if (other < out) out.swap(other);
    }
}

bool RedundancyPlan::accept(const Model& model, const std::vector<Symmetry>& syms, const std::vector<int>& placed,
                            SolutionCoder& coder) const {
    const std::vector<int>* check = nullptr;
    std::vector<int> all;
    if (needsGlobalCheck) {
        for (size_t i = 1; i < syms.size(); ++i) all.push_back(static_cast<int>(i));
        check = &all;
    } else if (shape >= 0 && !stabilizers.empty()) {
        for (int img : placed) {
            if (model.images[img].shape != shape) continue;
            auto it = std::lower_bound(stabilizers.begin(), stabilizers.end(), img,
                                       [](const auto& entry, int key) { return entry.first < key; });
            if (it != stabilizers.end() && it->first == img) check = &it->second;
            break;
        }
    }
    if (!check || check->empty()) return true;
    std::vector<uint32_t> base, other;
    coder.encode(placed, base);
    for (int gi : *check) {
        coder.encodeTransformed(placed, syms[gi], other);
        if (other < base) return false;
    }
    return true;
}

namespace {

// The cells' keys in the order "first open cell" fills the box (planForShape's tie-break).
std::vector<double> fillOrderKeys(const Model& m) {
    Heuristic first;
    first.kind = HeuristicKind::First;
    return cellKeys(first, m);
}

// Keep one image per orbit of shape s's images; record stabilizers of the kept ones.
// `fillOrder`: fillOrderKeys(m).
Result<RedundancyPlan> planForShape(const Model& m, const std::vector<Symmetry>& syms, int s,
                                    const std::vector<double>& fillOrder, long& residual) {
    RedundancyPlan plan;
    plan.shape = s;
    residual = 0;
    const int begin = m.shapeImageBegin[s], end = m.shapeImageBegin[s + 1];
    std::vector<char> seen(static_cast<size_t>(end - begin), 0);  // symmetries map shape s onto itself
    std::vector<int> orbit, mapped;
    // Representative: the image nearest the origin corner (de Bruijn's X in a corner
    // quadrant); between equally near images (mirror images across the middle of the
    // box), the one whose cells come first in the order "first open cell" fills the box
    // (shortest dimension fastest), not in cell id order (x fastest), so that the same
    // puzzle written turned keeps the corresponding images. The first of the
    // orbit's least keys wins; the fill-order keys (a sort) only of the nearest ones.
    std::vector<long> sums;
    std::vector<double> bestOrder, order;
    auto fillKeys = [&](int img, std::vector<double>& keys) {
        keys.clear();
        for (int c : m.images[img].cells) keys.push_back(fillOrder[c]);
        std::sort(keys.begin(), keys.end());
    };
    for (int i = begin; i < end; ++i) {
        if (seen[i - begin]) continue;
        orbit.clear();
        for (const Symmetry& g : syms) {
            int j = mapImageInto(m, g, i, mapped);
            if (j < begin || j >= end) return Result<RedundancyPlan>::error("internal error: symmetry maps an image outside the puzzle");
            if (!seen[j - begin]) {
                seen[j - begin] = 1;
                orbit.push_back(j);
            }
        }
        sums.clear();
        for (int j : orbit) {
            long sum = 0;
            for (int c : m.images[j].cells) sum += m.openCellPos[c].x + m.openCellPos[c].y + m.openCellPos[c].z;
            sums.push_back(sum);
        }
        const long nearest = *std::min_element(sums.begin(), sums.end());
        int rep = -1;
        for (size_t k = 0; k < orbit.size(); ++k) {
            if (sums[k] != nearest) continue;
            fillKeys(orbit[k], order);
            if (rep < 0 || order < bestOrder) {
                rep = orbit[k];
                bestOrder.swap(order);
            }
        }
        plan.keptImages.push_back(rep);
        for (int j : orbit)
            if (j != rep) plan.removedImages.push_back(j);
        // The symmetries form a group, so |orbit| * |stabilizer| = |symmetries|: an orbit of
        // them all leaves the representative no symmetry but the identity (the common case,
        // half of the image mappings saved).
        if (orbit.size() == syms.size()) continue;
        std::vector<int> stab;
        for (size_t gi = 1; gi < syms.size(); ++gi)
            if (mapImageInto(m, syms[gi], rep, mapped) == rep) stab.push_back(static_cast<int>(gi));
        if (!stab.empty()) {
            residual += static_cast<long>(stab.size());
            plan.stabilizers.push_back({rep, std::move(stab)});
        }
    }
    std::sort(plan.stabilizers.begin(), plan.stabilizers.end());
    plan.description = m.shapes[s].name + " (" + std::to_string(plan.keptImages.size()) + " of " +
                       std::to_string(plan.keptImages.size() + plan.removedImages.size()) + " images kept, " +
                       std::to_string(syms.size()) + " symmetries" +
                       (plan.stabilizers.empty() ? "" : ", " + std::to_string(plan.stabilizers.size()) +
                                                            " symmetric images checked per solution") +
                       ")";
    return Result<RedundancyPlan>::success(std::move(plan));
}

std::string unusableReason(const Model& m, const std::vector<Symmetry>& syms, int s) {
    if (m.shapes[s].count != 1)
        return "piece " + m.shapes[s].name + " has " + std::to_string(m.shapes[s].count) +
               " copies; the redundancy filter needs a uniquely shaped piece";
    for (const Symmetry& g : syms)
        if (g.shapeMap[s] != s)
            return "piece " + m.shapes[s].name + " is not its own mirror image, so it cannot carry the mirror symmetry";
    return {};
}

}  // namespace

RedundancyCandidateSearch::RedundancyCandidateSearch(const Model& model, const std::vector<Symmetry>& syms)
    : model_(&model), syms_(&syms) {
    // (no symmetry: no candidate, nothing to map)
    if (syms.size() <= 1) next_ = model.shapeCount();
    else fillOrder_ = fillOrderKeys(model);
}

bool RedundancyCandidateSearch::step() {
    const Model& m = *model_;
    while (next_ < m.shapeCount()) {
        const int s = next_++;
        if (!unusableReason(m, *syms_, s).empty()) continue;  // (cheap: on to the next shape)
        long residual = 0;
        Result<RedundancyPlan> plan = planForShape(m, *syms_, s, fillOrder_, residual);
        if (plan.ok()) all_.push_back({residual, std::move(plan.value)});
        return next_ < m.shapeCount();
    }
    return false;
}

std::vector<RedundancyPlan> RedundancyCandidateSearch::take() {
    const Model& m = *model_;
    // Ties are broken by the shape itself (its canonical form), not by its place in the file, so
    // that the same puzzle written with its pieces in another order keeps the same piece.
    std::stable_sort(all_.begin(), all_.end(), [&m](const auto& a, const auto& b) {
        return std::make_tuple(a.first, a.second.keptImages.size(), std::cref(m.shapes[a.second.shape].cells)) <
               std::make_tuple(b.first, b.second.keptImages.size(), std::cref(m.shapes[b.second.shape].cells));
    });
    std::vector<RedundancyPlan> out;
    for (auto& [res, plan] : all_)
        if (res == all_.front().first) out.push_back(std::move(plan));
    all_.clear();
    return out;
}

std::vector<RedundancyPlan> redundancyCandidates(const Model& m, const std::vector<Symmetry>& syms) {
    RedundancyCandidateSearch search(m, syms);
    while (search.step()) {
    }
    return search.take();
}

RedundancyPlan redundancyPlanFrom(std::vector<RedundancyPlan> list, const std::vector<Symmetry>& syms,
                                  std::vector<RedundancyPlan>* candidates) {
    if (candidates) candidates->clear();
    RedundancyPlan none;
    if (syms.size() <= 1) {
        none.description = "OFF (the puzzle has no symmetry)";
        return none;
    }
    if (!list.empty()) {
        RedundancyPlan chosen = list.front();
        if (candidates) *candidates = std::move(list);
        return chosen;
    }
    none.needsGlobalCheck = true;
    none.description = "no uniquely shaped piece: solutions are checked against all " + std::to_string(syms.size()) +
                       " symmetries instead";
    return none;
}

Result<RedundancyPlan> planRedundancyFilter(const Model& m, const std::vector<Symmetry>& syms, int forcedShape,
                                            std::vector<RedundancyPlan>* candidatesOut) {
    if (forcedShape >= 0 && syms.size() > 1) {
        if (candidatesOut) candidatesOut->clear();
        std::string why = unusableReason(m, syms, forcedShape);
        if (!why.empty()) return Result<RedundancyPlan>::error(why);
        long residual = 0;
        return planForShape(m, syms, forcedShape, fillOrderKeys(m), residual);
    }
    return Result<RedundancyPlan>::success(redundancyPlanFrom(redundancyCandidates(m, syms), syms, candidatesOut));
}

UniqueFilter::Key UniqueFilter::hashCode(const std::vector<uint32_t>& code) {
    // Two independent 64-bit streams over the code's words (different seeds and multipliers),
    // each word mixed before it is absorbed, the length folded in at the end.
    uint64_t b = 0x13198a2e03707344ULL;
    for (uint32_t w : code) b = (b ^ mix64(w ^ 0xa4093822299f31d0ULL)) * 0xff51afd7ed558ccdULL;
    Key k{hashWords(code.data(), code.size(), 0), mix64(b + code.size())};
    if (k.a == 0 && k.b == 0) k.b = 1;  // (0, 0) marks an empty slot
    return k;
}

bool UniqueFilter::grow() {
    // Sizes in slots of a table of at most M = maxBytes / 16: 1024, 2048, ... while the next
    // is at most M / 4, then one last table of M less the current one, so that the two fit in
    // M while the keys move. The last is at least 3M/4 slots (M/4 < 2p and the current p <=
    // M/4), so kept at most 2/3 full it holds M/2 keys: capacity(). (Doubling alone stopped
    // at M/2 slots, half full: M/4 keys, half the promise.)
    // (At most 2^32 - 1 slots: home() scales 32-bit hashes.)
    const long long maxSlots = std::min(std::max(0LL, maxBytes_) / static_cast<long long>(sizeof(Key)), (1LL << 32) - 1);
    const long long now = static_cast<long long>(slots_.size());
    constexpr long long kFirst = 1024;
    long long size = 0;
    if (now == 0) size = kFirst <= maxSlots / 4 ? kFirst : maxSlots;
    else if (2 * now <= maxSlots / 4) size = 2 * now;  // (never true of the last table: it is over 3M/4)
    else size = maxSlots - now;
    if (size <= now) return false;
    peakBytes_ = std::max(peakBytes_, (size + now) * static_cast<long long>(sizeof(Key)));
    std::vector<Key> old(static_cast<size_t>(size));
    old.swap(slots_);
    for (const Key& k : old) {
        if (k.a == 0 && k.b == 0) continue;
        size_t i = home(k);
        while (slots_[i].a != 0 || slots_[i].b != 0) i = i + 1 == slots_.size() ? 0 : i + 1;
        slots_[i] = k;
    }
    return true;
}

UniqueFilter::Insert UniqueFilter::insert(const std::vector<int>& placed, const std::vector<Symmetry>& syms,
                                          SolutionCoder& coder) {
    coder.canonical(placed, syms, code_);
    const Key k = hashCode(code_);
    if (slots_.empty() && !grow()) return Insert::Full;
    // Linear probing in a table kept at most 2/3 full.
    size_t i = home(k);
    for (; slots_[i].a != 0 || slots_[i].b != 0; i = i + 1 == slots_.size() ? 0 : i + 1)
        if (slots_[i].a == k.a && slots_[i].b == k.b) return Insert::Seen;
    if (count_ >= capacity()) return Insert::Full;
    if (3 * (count_ + 1) > 2 * slots_.size()) {
        if (!grow()) return Insert::Full;
        for (i = home(k); slots_[i].a != 0 || slots_[i].b != 0;) i = i + 1 == slots_.size() ? 0 : i + 1;
    }
    slots_[i] = k;
    ++count_;
    return Insert::New;
}

}  // namespace polycube
