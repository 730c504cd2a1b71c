#include "memo/cover_problem.hpp"

#include <algorithm>
#include <numeric>

#include "search/heuristics.hpp"

namespace polycube {

std::vector<int> sweepOrder(const Model& model) {
    Heuristic first;
    first.kind = HeuristicKind::First;
    const std::vector<double> keys = cellKeys(first, model);
    std::vector<int> byKey(keys.size());
    std::iota(byKey.begin(), byKey.end(), 0);
    std::stable_sort(byKey.begin(), byKey.end(), [&](int a, int b) { return keys[a] < keys[b]; });
    std::vector<int> order(keys.size());
    for (size_t k = 0; k < byKey.size(); ++k) order[byKey[k]] = static_cast<int>(k);
    return order;
}

namespace {

struct RowDraft {
    std::vector<int> cells;  // sweep positions, ascending
    int shape0 = -1, take0 = 0, shape1 = -1, take1 = 0;
    int image = -1;  // the model's image, for a row of one image
};

int bitsFor(int value) {
    int bits = 1;
    while ((value >> bits) != 0) ++bits;
    return bits;
}

}  // namespace

Result<CoverProblem> buildCoverProblem(const Model& m, const std::vector<int>& order, const std::vector<char>& allowed,
                                       const Symmetry* g) {
    CoverProblem p;
    p.cells = m.openCellCount();
    p.words = (p.cells + 63) / 64;
    p.shapes = m.shapeCount();
    p.pieces = m.mobileCount();
    const int longest = std::max({m.xDim, m.yDim, m.zDim, 1});
    p.crossSection = std::max(1, (p.cells + longest - 1) / longest);

    // Copies left per shape, packed: a field wide enough for its count, never straddling words.
    p.startCount.resize(p.shapes);
    p.fieldWord.resize(p.shapes);
    p.fieldShift.resize(p.shapes);
    p.fieldBits.resize(p.shapes);
    int word = 0, used = 0;
    for (int s = 0; s < p.shapes; ++s) {
        p.startCount[s] = m.shapes[s].count;
        const int bits = bitsFor(m.shapes[s].count);
        if (used + bits > 64) {
            p.countBits.push_back(used);
            ++word;
            used = 0;
        }
        p.fieldWord[s] = word;
        p.fieldShift[s] = used;
        p.fieldBits[s] = bits;
        used += bits;
    }
    p.countWords = p.shapes == 0 ? 0 : word + 1;
    if (p.shapes > 0) p.countBits.push_back(used);
    p.startPacked.assign(p.countWords, 0);
    for (int s = 0; s < p.shapes; ++s)
        p.startPacked[p.fieldWord[s]] += static_cast<uint64_t>(p.startCount[s]) << p.fieldShift[s];

    // Face neighbours, for the pocket cut.
    p.neighbourBegin.assign(p.cells + 1, 0);
    {
        std::vector<std::vector<int>> near(p.cells);
        const Vec3 steps[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        for (int c = 0; c < p.cells; ++c)
            for (const Vec3& d : steps) {
                const Vec3 q = m.openCellPos[c] + d;
                if (!m.inBox(q)) continue;
                const int open = m.openCellOfBox[m.boxIndex(q)];
                if (open >= 0) near[order[c]].push_back(order[open]);
            }
        for (int c = 0; c < p.cells; ++c) {
            p.neighbourBegin[c + 1] = p.neighbourBegin[c] + static_cast<int>(near[c].size());
            p.neighbours.insert(p.neighbours.end(), near[c].begin(), near[c].end());
        }
    }
    p.smallestPiece = 0;
    if (m.disconnectedShape() < 0 && p.shapes > 0) {
        int smallest = m.shapes[0].size;
        for (const Shape& sh : m.shapes) smallest = std::min(smallest, sh.size);
        p.smallestPiece = smallest > 1 ? smallest : 0;
    }

    std::vector<RowDraft> drafts;
    drafts.reserve(m.images.size());
    std::vector<int> orbit, covered(p.cells, 0), mapped;
    const int images = static_cast<int>(m.images.size());
    for (int i = 0; i < images; ++i) {
        if (!allowed[i]) continue;
        RowDraft d;
        if (!g) {
            d.shape0 = m.images[i].shape;
            d.take0 = 1;
            d.image = i;
            for (int c : m.images[i].cells) d.cells.push_back(order[c]);
        } else {
            // The orbit of image i under g; listed once, by its least image.
            orbit.assign(1, i);
            bool keep = true;
            for (int j = mapImage(m, *g, i); j != i; j = mapImage(m, *g, j)) {
                if (j < 0) return Result<CoverProblem>::error("internal error: a symmetry maps an image outside the puzzle");
                if (j < i || !allowed[j]) {
                    keep = false;
                    break;
                }
                orbit.push_back(j);
            }
            if (!keep) continue;
            for (int j : orbit) {
                for (int c : m.images[j].cells) {
                    if (covered[c]) keep = false;  // the orbit's images overlap: no invariant solution uses it
                    covered[c] = 1;
                    d.cells.push_back(order[c]);
                }
                const int s = m.images[j].shape;
                if (s == d.shape0 || d.shape0 < 0) {
                    d.shape0 = s;
                    ++d.take0;
                } else if (s == d.shape1 || d.shape1 < 0) {
                    d.shape1 = s;
                    ++d.take1;
                } else {
                    return Result<CoverProblem>::error("internal error: an orbit of images under a symmetry with three shapes");
                }
            }
            for (int j : orbit)
                for (int c : m.images[j].cells) covered[c] = 0;
            if (!keep) continue;
            if (d.take0 > m.shapes[d.shape0].count || (d.shape1 >= 0 && d.take1 > m.shapes[d.shape1].count)) continue;
        }
        std::sort(d.cells.begin(), d.cells.end());
        drafts.push_back(std::move(d));
    }
    std::stable_sort(drafts.begin(), drafts.end(), [](const RowDraft& a, const RowDraft& b) {
        if (a.cells.front() != b.cells.front()) return a.cells.front() < b.cells.front();
        if (a.shape0 != b.shape0) return a.shape0 < b.shape0;
        return a.take0 < b.take0;  // (blockEnd: a row that takes more copies than are left ends its run)
    });
    for (const RowDraft& d : drafts) {
        p.span = std::max(p.span, d.cells.back() / 64 - d.cells.front() / 64 + 1);
        p.reach = std::max(p.reach, d.cells.back() - d.cells.front() + 1);
    }
    p.keyWindow = std::min(std::max(p.reach - 2, 0), std::max(p.cells - 1, 0));
    p.positionBits = bitsFor(p.cells);
    // Each packed word's fields within one key word (a block that would straddle starts the
    // next key word), so a field is read from a key with one mask (RowIndex::keyHasCopies).
    int at = p.positionBits;
    p.countAt.clear();
    for (int bits : p.countBits) {
        if ((at & 63) + bits > 64) at = (at + 63) / 64 * 64;
        p.countAt.push_back(at);
        at += bits;
    }
    p.keyBits = at + p.keyWindow;
    p.keyWords = (p.keyBits + 63) / 64;

    const size_t rows = drafts.size();
    p.mask.assign(rows * p.span, 0);
    p.demand.assign(rows * p.countWords, 0);
    p.shape0.resize(rows);
    p.shape1.resize(rows);
    p.take0.resize(rows);
    p.take1.resize(rows);
    p.blockEnd.resize(rows);
    p.image.resize(rows);
    p.rowBegin.assign(p.cells + 1, 0);
    for (size_t r = 0; r < rows; ++r) {
        const RowDraft& d = drafts[r];
        const int base = d.cells.front() / 64;
        for (int c : d.cells) p.mask[r * p.span + (c / 64 - base)] |= 1ULL << (c % 64);
        p.shape0[r] = d.shape0;
        p.take0[r] = d.take0;
        p.shape1[r] = d.shape1;
        p.take1[r] = d.take1;
        p.image[r] = d.image;
        p.demand[r * p.countWords + p.fieldWord[d.shape0]] += static_cast<uint64_t>(d.take0) << p.fieldShift[d.shape0];
        if (d.shape1 >= 0)
            p.demand[r * p.countWords + p.fieldWord[d.shape1]] += static_cast<uint64_t>(d.take1) << p.fieldShift[d.shape1];
        p.rowBegin[d.cells.front() + 1]++;
    }
    for (int c = 0; c < p.cells; ++c) p.rowBegin[c + 1] += p.rowBegin[c];
    for (size_t r = rows; r-- > 0;) {
        const bool sameBlock = r + 1 < rows && drafts[r + 1].cells.front() == drafts[r].cells.front() &&
                               drafts[r + 1].shape0 == drafts[r].shape0;
        p.blockEnd[r] = sameBlock ? p.blockEnd[r + 1] : static_cast<int>(r + 1);
    }
    return Result<CoverProblem>::success(std::move(p));
}

}  // namespace polycube
