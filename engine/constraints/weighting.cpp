// Cell weightings (constraints/weighting.hpp says the argument). A little over 600 lines: the
// families of weightings tried, the subset sum that checks one, and the certificate's words for
// a person (breakdown, formExpression) belong to the one proof.
#include "constraints/weighting.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <unordered_set>

namespace polycube {

namespace {

// One weighting under test: a weight per open cell, and the words a certificate uses.
struct Weighting {
    std::string kind;    // WeightingProof::kind
    std::string by;      // "impossible by <by>: ..."
    std::string things;  // "the board has T <things>" (plural)
    std::string thing;   // the same for T = 1
};

// Values one piece can cover (ascending, distinct) for each shape.
using ValueSets = std::vector<std::vector<int>>;

std::vector<int> valuesOf(const std::vector<char>& marks) {
    std::vector<int> out;
    for (int v = 0; v < static_cast<int>(marks.size()); ++v)
        if (marks[v]) out.push_back(v);
    return out;
}

// dst |= src << shift, over `bits` bits (bits beyond are dropped).
void orShifted(std::vector<uint64_t>& dst, const std::vector<uint64_t>& src, int shift, int bits) {
    const int words = static_cast<int>(dst.size());
    const int ws = shift >> 6, bs = shift & 63;
    for (int i = words - 1; i >= ws; --i) {
        uint64_t v = src[i - ws] << bs;
        if (bs && i - ws - 1 >= 0) v |= src[i - ws - 1] >> (64 - bs);
        dst[i] |= v;
    }
    if (bits & 63) dst[words - 1] &= (uint64_t{1} << (bits & 63)) - 1;
}

// "0 or 2", "1", "0 to 3", "0, 2 or 5"
std::string formatValues(const std::vector<int>& v) {
    if (v.size() == 1) return std::to_string(v[0]);
    if (v.size() >= 3 && v.back() - v.front() + 1 == static_cast<int>(v.size()))
        return std::to_string(v.front()) + " to " + std::to_string(v.back());
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) {
        if (i) out += i + 1 == v.size() ? " or " : ", ";
        out += std::to_string(v[i]);
    }
    return out;
}

std::string shapeLabel(const Shape& s) {
    return s.count > 1 ? "each of the " + std::to_string(s.count) + " copies of " + s.name : s.name;
}

// Groups shapes by a per-shape text, in order of first appearance of `order`: "2 for W; 1 for
// F, I, L". More than six names in a group are counted instead of listed.
std::string breakdown(const Model& m, const std::vector<std::string>& text, const std::vector<int>& order) {
    std::vector<std::string> keys;
    std::map<std::string, std::vector<int>> groups;
    for (int s : order) {
        if (!groups.count(text[s])) keys.push_back(text[s]);
        groups[text[s]].push_back(s);
    }
    std::string out;
    for (size_t g = 0; g < keys.size(); ++g) {
        const std::vector<int>& members = groups[keys[g]];
        if (g) out += "; ";
        out += keys[g] + " for ";
        if (members.size() > 6) {
            int pieces = 0;
            for (int s : members) pieces += m.shapes[s].count;
            out += keys.size() == 1 ? "each of the " + std::to_string(pieces) + " pieces"
                   : g + 1 == keys.size() ? "each of the other " + std::to_string(pieces) + " pieces"
                                          : "each of " + std::to_string(pieces) + " pieces";
            continue;
        }
        for (size_t i = 0; i < members.size(); ++i) out += (i ? ", " : "") + shapeLabel(m.shapes[members[i]]);
    }
    return out;
}

enum class Verdict { Reachable, Unreachable, Skipped };

// Can one value per piece instance (values[s] for each of the count copies of shape s) add up
// to `total`? On Unreachable, `why` is the certificate's tail.
Verdict checkSums(const Model& m, const ValueSets& values, long total, const Weighting& w, long& dpBudget,
                  std::string& why) {
    long minSum = 0, maxSum = 0;
    bool gaps = false;
    bool exact = true;
    for (int s = 0; s < m.shapeCount(); ++s) {
        const std::vector<int>& v = values[s];
        minSum += static_cast<long>(m.shapes[s].count) * v.front();
        maxSum += static_cast<long>(m.shapes[s].count) * v.back();
        gaps = gaps || v.back() - v.front() + 1 != static_cast<int>(v.size());
        exact = exact && v.size() == 1;
    }
    const std::string head =
        "the board has " + std::to_string(total) + " " + (total == 1 && !w.thing.empty() ? w.thing : w.things) + "; ";
    auto perShape = [&](auto text, bool descending) {
        std::vector<std::string> t(m.shapeCount());
        std::vector<int> order(m.shapeCount());
        for (int s = 0; s < m.shapeCount(); ++s) {
            t[s] = text(values[s]);
            order[s] = s;
        }
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return descending ? values[a].back() > values[b].back() : values[a].front() < values[b].front();
        });
        return breakdown(m, t, order);
    };
    if (exact && total != minSum) {
        why = head + "the pieces always cover exactly " + std::to_string(minSum) + " of them between them (" +
              perShape([](const std::vector<int>& v) { return std::to_string(v[0]); }, true) + ")";
        return Verdict::Unreachable;
    }
    if (total > maxSum) {
        why = head + "the pieces can cover at most " + std::to_string(maxSum) + " of them between them (at most " +
              perShape([](const std::vector<int>& v) { return std::to_string(v.back()); }, true) + ")";
        return Verdict::Unreachable;
    }
    if (total < minSum) {
        why = head + "the pieces cover at least " + std::to_string(minSum) + " of them between them (at least " +
              perShape([](const std::vector<int>& v) { return std::to_string(v.front()); }, false) + ")";
        return Verdict::Unreachable;
    }
    // Every set an interval: the sums fill [minSum, maxSum], which holds total.
    if (!gaps) return Verdict::Reachable;

    // Subset sum over [0, target] after taking every piece's least value out (weights are
    // non-negative, so sums beyond the target never come back down).
    const long target = total - minSum;
    const int bits = static_cast<int>(target + 1);
    const int words = (bits + 63) / 64;
    long cost = 0;
    for (int s = 0; s < m.shapeCount(); ++s) cost += static_cast<long>(m.shapes[s].count) * values[s].size() * words;
    if (cost > dpBudget) return Verdict::Skipped;
    dpBudget -= cost;
    std::vector<uint64_t> cur(words, 0), next(words);
    cur[0] = 1;
    for (int s = 0; s < m.shapeCount(); ++s) {
        const int base = values[s].front();
        for (int c = 0; c < m.shapes[s].count; ++c) {
            std::fill(next.begin(), next.end(), 0);
            for (int v : values[s])
                if (v - base <= target) orShifted(next, cur, v - base, bits);
            cur.swap(next);
        }
    }
    if (cur[target >> 6] >> (target & 63) & 1) return Verdict::Reachable;
    why = head + "the pieces can cover from " + std::to_string(minSum) + " to " + std::to_string(maxSum) +
          " of them between them, but never exactly " + std::to_string(total) + " (each covers " +
          perShape([](const std::vector<int>& v) { return formatValues(v); }, true) + ")";
    return Verdict::Unreachable;
}

// "corner cells (cells with ...)" -> "corner cell (cells with ...)": the first plural only.
std::string singular(std::string things) {
    for (const char* plural : {"cells", "faces"}) {
        size_t at = things.find(plural);
        if (at != std::string::npos) return things.erase(at + 4, 1);
    }
    return things;
}

uint64_t mix(uint64_t x) {  // splitmix64's finaliser: a weighting's fingerprint for duplicates
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::string formExpression(const std::array<int, 3>& c) {
    static const char* names[3] = {"x", "y", "z"};
    std::string out;
    for (int a = 0; a < 3; ++a) {
        if (c[a] == 0) continue;
        if (out.empty()) out += c[a] < 0 ? "-" : "";
        else out += c[a] < 0 ? " - " : " + ";
        out += names[a];
    }
    return out;
}

class Prover {
public:
    Prover(const Model& m, const WeightingLimits& limits) : m_(m), dpBudget_(limits.maxDpWords), limits_(limits) {
        for (int a = 0; a < 3; ++a) active_[a] = (a == 0 ? m.xDim : a == 1 ? m.yDim : m.zDim) > 1;
    }

    WeightingProof run() {
        for (int s = 0; s < m_.shapeCount(); ++s)
            if (m_.shapeImageBegin[s] == m_.shapeImageBegin[s + 1]) {
                plainly("fits nowhere", "piece " + m_.shapes[s].name + " fits nowhere in the space", {});
                return proof_;
            }
        if (m_.shapeCount() == 0) return proof_;
        if (uncoverable()) return proof_;
        if (colourings()) return proof_;
        if (surroundings()) return proof_;
        if (limits_.reach) reach();
        return proof_;
    }

    WeightingProof runReach() {
        if (m_.shapeCount() > 0) reach();
        return proof_;
    }

private:
    // Checks one weighting given each shape's value set; true when it proves impossibility.
    bool check(const Weighting& w, const std::vector<int>& cellWeight, const ValueSets& values) {
        uint64_t fingerprint = 0;
        long total = 0;
        for (int c = 0; c < m_.openCellCount(); ++c) {
            fingerprint += mix(static_cast<uint64_t>(c) * 8 + cellWeight[c]);
            total += cellWeight[c];
        }
        if (!seen_.insert(fingerprint).second) return false;
        proof_.tried++;
        std::string why;
        Verdict v = checkSums(m_, values, total, w, dpBudget_, why);
        if (v == Verdict::Skipped) proof_.skipped++;
        if (v != Verdict::Unreachable) return false;
        proof_.impossible = true;
        proof_.kind = w.kind;
        proof_.reason = "impossible by " + w.by + ": " + why;
        for (int c = 0; c < m_.openCellCount(); ++c)
            if (cellWeight[c] > 0) proof_.cells.push_back(c);
        return true;
    }

    // A proof said plainly ("impossible because <why>"), with the cells it is about.
    bool plainly(const char* kind, const std::string& why, std::vector<int> cells) {
        proof_.impossible = true;
        proof_.kind = kind;
        proof_.reason = "impossible because " + why;
        proof_.cells = std::move(cells);
        return true;
    }

    std::string cellText(int c) const {
        const Vec3 p = m_.openCellPos[c];
        return "x=" + std::to_string(p.x) + ", y=" + std::to_string(p.y) + ", z=" + std::to_string(p.z);
    }

    static constexpr const char* kWallsOff = " without walling off a pocket no set of the other pieces can fill";

    // A cell that no image covers (walled into a pocket no piece fits): the weighting that is
    // 1 on that cell alone, said plainly.
    bool uncoverable() {
        long visits = 0;
        for (const Image& img : m_.images) visits += static_cast<long>(img.cells.size());
        if (visits > limits_.maxCellVisits) return false;
        std::vector<char> covered(m_.openCellCount(), 0);
        for (const Image& img : m_.images)
            for (int c : img.cells) covered[c] = 1;
        for (int c = 0; c < m_.openCellCount(); ++c) {
            if (covered[c]) continue;
            return plainly("uncoverable cell", "no piece fits over the cell at " + cellText(c), {c});
        }
        return false;
    }

    // The cells where a linear form of the coordinates is r mod k. The form is linear, so the
    // weight an image covers depends only on its orientation and on its offset's form mod k:
    // one pass over the images records which offsets occur (mod 12 = lcm(2, 3, 4)), and the
    // orientations' own cells give the weights, without visiting every image's cells.
    bool colourings() {
        std::vector<std::array<int, 3>> forms;
        const int single[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        for (auto& f : single) forms.push_back({f[0], f[1], f[2]});
        for (int a = 0; a < 3; ++a)
            for (int b = a + 1; b < 3; ++b)
                for (int sign : {1, -1}) {
                    std::array<int, 3> f{0, 0, 0};
                    f[a] = 1;
                    f[b] = sign;
                    forms.push_back(f);
                }
        for (int sy : {1, -1})
            for (int sz : {1, -1}) forms.push_back({1, sy, sz});
        // Coordinates along a flat axis are 0: drop them from the forms, then duplicates.
        std::vector<std::array<int, 3>> used;
        for (auto f : forms) {
            for (int a = 0; a < 3; ++a)
                if (!active_[a]) f[a] = 0;
            if (f == std::array<int, 3>{0, 0, 0}) continue;
            for (int a = 0; a < 3; ++a)  // first non-zero coefficient +1
                if (f[a] != 0) {
                    if (f[a] < 0)
                        for (int& x : f) x = -x;
                    break;
                }
            if (std::find(used.begin(), used.end(), f) == used.end()) used.push_back(f);
        }
        // Orientation ids across shapes.
        std::vector<int> orientBase(m_.shapeCount() + 1, 0);
        for (int s = 0; s < m_.shapeCount(); ++s)
            orientBase[s + 1] = orientBase[s] + static_cast<int>(m_.shapes[s].orientations.size());
        auto form = [](const std::array<int, 3>& f, const Vec3& p) { return f[0] * p.x + f[1] * p.y + f[2] * p.z; };
        auto mod = [](int v, int k) { return ((v % k) + k) % k; };

        // One pass over the images: offsets' forms mod 12 (= lcm(2, 3, 4)) per orientation.
        if (static_cast<long>(m_.images.size()) * static_cast<long>(used.size()) > limits_.maxCellVisits) {
            proof_.skipped += static_cast<int>(used.size()) * (1 + 3 + 4);
            return false;
        }
        std::vector<std::vector<uint16_t>> present12(used.size(), std::vector<uint16_t>(orientBase.back(), 0));
        for (const Image& img : m_.images) {
            const int o = orientBase[img.shape] + img.orientation;
            for (size_t i = 0; i < used.size(); ++i) present12[i][o] |= uint16_t(1u << mod(form(used[i], img.offset), 12));
        }
        for (int k : {2, 3, 4}) {  // checkerboards first
            for (size_t fi = 0; fi < used.size(); ++fi) {
                const std::array<int, 3>& f = used[fi];
                // bit r: some image of the orientation has form(offset) = r mod k.
                std::vector<uint8_t> present(orientBase.back(), 0);
                for (int o = 0; o < orientBase.back(); ++o)
                    for (int t = 0; t < 12; ++t)
                        if (present12[fi][o] >> t & 1) present[o] |= uint8_t(1u << (t % k));
                // Cells of each orientation by residue.
                std::vector<std::array<int, 4>> cnt(orientBase.back(), std::array<int, 4>{0, 0, 0, 0});
                for (int s = 0; s < m_.shapeCount(); ++s)
                    for (size_t o = 0; o < m_.shapes[s].orientations.size(); ++o)
                        for (const Vec3& c : m_.shapes[s].orientations[o]) cnt[orientBase[s] + o][mod(form(f, c), k)]++;
                std::vector<int> cellWeight(m_.openCellCount());
                // k = 2: colour 1 is the complement of colour 0 (same pieces, same board), no news.
                for (int r = 0; r < (k == 2 ? 1 : k); ++r) {
                    for (int c = 0; c < m_.openCellCount(); ++c) cellWeight[c] = mod(form(f, m_.openCellPos[c]), k) == r;
                    ValueSets values(m_.shapeCount());
                    for (int s = 0; s < m_.shapeCount(); ++s) {
                        std::vector<char> marks(m_.shapes[s].size + 1, 0);
                        for (int o = orientBase[s]; o < orientBase[s + 1]; ++o)
                            for (int sh = 0; sh < k; ++sh)
                                if (present[o] >> sh & 1) marks[cnt[o][mod(r - sh, k)]] = 1;
                        values[s] = valuesOf(marks);
                    }
                    const std::string e = formExpression(f);
                    const bool single = std::count(f.begin(), f.end(), 0) == 2;
                    Weighting w;
                    w.kind = "colouring";
                    w.by = "colouring the cells by " + (single ? e : "(" + e + ")") + " mod " + std::to_string(k);
                    w.things = "cells of colour " + std::to_string(r);
                    w.thing = "cell of colour " + std::to_string(r);
                    if (check(w, cellWeight, values)) return true;
                }
            }
        }
        return false;
    }

    // Weightings by a cell's surroundings. A wall is a side of a cell against the box's border
    // or a stationary piece, counted along the board's axes only (a flat board's top and bottom
    // are not walls). These weights follow no pattern, so every image's cells are summed.
    bool surroundings() {
        const int d = active_[0] + active_[1] + active_[2];
        const int n = m_.openCellCount();
        std::vector<int> closedAxes(n, 0), openNeighbours(n, 0);
        for (int c = 0; c < n; ++c) {
            const Vec3 p = m_.openCellPos[c];
            for (int a = 0; a < 3; ++a) {
                if (!active_[a]) continue;
                bool walled = false;
                for (int step : {-1, 1}) {
                    Vec3 q = p;
                    (a == 0 ? q.x : a == 1 ? q.y : q.z) += step;
                    const bool open = m_.inBox(q) && m_.openCellOfBox[m_.boxIndex(q)] >= 0;
                    openNeighbours[c] += open;
                    walled = walled || !open;
                }
                closedAxes[c] += walled;
            }
        }
        struct Candidate {
            Weighting w;
            std::vector<int> weight;
        };
        std::vector<Candidate> list;
        auto add = [&](std::string kind, std::string by, std::string things, auto weightOf) {
            Candidate c;
            c.w = {std::move(kind), std::move(by), things, singular(things)};
            c.weight.resize(n);
            for (int i = 0; i < n; ++i) c.weight[i] = weightOf(i);
            if (std::adjacent_find(c.weight.begin(), c.weight.end(), std::not_equal_to<int>()) == c.weight.end())
                return;  // the same weight everywhere says no more than the volume
            list.push_back(std::move(c));
        };
        add("corner cells", "corner cells",
            "corner cells (cells with a wall, the border or a stationary piece, on at least one side along every axis)",
            [&](int c) { return closedAxes[c] == d ? 1 : 0; });
        if (d == 3)
            add("edge cells", "edge cells", "edge cells (cells with a wall on at least one side along two or three axes)",
                [&](int c) { return closedAxes[c] >= 2 ? 1 : 0; });
        add("surface cells", "surface cells", "surface cells (cells with a wall on at least one side)",
            [&](int c) { return closedAxes[c] >= 1 ? 1 : 0; });
        for (int k = 1; k < 2 * d; ++k)
            add("open neighbours", "cells with few open neighbours",
                "cells with at most " + std::to_string(k) + " open neighbour" + (k > 1 ? "s" : ""),
                [&, k](int c) { return openNeighbours[c] <= k ? 1 : 0; });
        add("walled faces", "walled faces",
            "cell faces against a wall (the border or a stationary piece)",
            [&](int c) { return 2 * d - openNeighbours[c]; });

        long visits = 0;
        for (const Image& img : m_.images) visits += static_cast<long>(img.cells.size());
        if (visits * static_cast<long>(list.size()) > limits_.maxCellVisits) {
            proof_.skipped += static_cast<int>(list.size());
            return false;
        }
        for (const Candidate& cand : list) {
            ValueSets values(m_.shapeCount());
            const int maxWeight = *std::max_element(cand.weight.begin(), cand.weight.end());
            for (int s = 0; s < m_.shapeCount(); ++s) {
                std::vector<char> marks(m_.shapes[s].size * maxWeight + 1, 0);
                for (int i = m_.shapeImageBegin[s]; i < m_.shapeImageBegin[s + 1]; ++i) {
                    int sum = 0;
                    for (int c : m_.images[i].cells) sum += cand.weight[c];
                    marks[sum] = 1;
                }
                values[s] = valuesOf(marks);
            }
            if (check(cand.w, cand.weight, values)) return true;
        }
        return false;
    }

    // Cells few pieces can reach. An image that walls off a pocket of open cells whose size
    // no sub-multiset of the other pieces adds up to is in no solution, so it is left out
    // (checked per pocket up to the largest volume, at most twice the largest piece's, that
    // some piece's others cannot fill; a larger pocket counts as fillable, so nothing is left
    // out on a guess). Then each cell counts the pieces that can still cover it,
    // and the cells that at most t pieces reach get weight 1, for the few smallest t: a
    // pigeonhole argument in the weighting's terms. Built for the stepped pyramid of the 29
    // pentacubes whose bottom corners are 2x2 nooks open on one side: only the two pieces with
    // a 2x2 square can fill a nook, and there are four nooks.
    bool reach() {
        // (a piece of two parts can fill two pockets at once: the argument needs whole pieces
        // in a pocket, Model::disconnectedShape)
        if (m_.disconnectedShape() >= 0) return false;
        const int n = m_.openCellCount();
        int cap = 2 * maxShapeSize();
        // fillable[s][v]: the other pieces (one copy of s out) have a sub-multiset of volume v.
        std::vector<std::vector<char>> fillable(m_.shapeCount(), std::vector<char>(cap + 1, 0));
        for (int s = 0; s < m_.shapeCount(); ++s) {
            std::vector<char>& sums = fillable[s];
            sums[0] = 1;
            for (int t = 0; t < m_.shapeCount(); ++t)
                for (int copy = 0; copy < m_.shapes[t].count - (t == s); ++copy)
                    for (int v = cap; v >= m_.shapes[t].size; --v) sums[v] = sums[v] || sums[v - m_.shapes[t].size];
        }
        // Pockets up to the largest volume some piece's others cannot fill need a flood.
        int largestUnfillable = 0;
        for (int s = 0; s < m_.shapeCount(); ++s)
            for (int v = cap; v > largestUnfillable; --v)
                if (!fillable[s][v]) largestUnfillable = v;
        cap = largestUnfillable;  // 0: every pocket can be filled, nothing is left out
        const Neighbours nb = openNeighbourLists();
        // One tag per cell from one increasing serial: each image's cells get a serial
        // (`image`), then each of its floods one of its own (`flood`). So tag == image: a cell
        // of the image; tag > image: reached by a flood of this image (tag == flood: the
        // current one); less: neither (an earlier image's). One load per test instead of two.
        std::vector<long> tag(n, -1);
        std::vector<int> queue(static_cast<size_t>(cap) + 1);
        long serial = -1;
        long visits = 0;
        std::vector<char> kept(m_.images.size(), 1);
        for (size_t i = 0; i < m_.images.size() && cap > 0 && visits <= limits_.maxCellVisits; ++i) {
            const Image& img = m_.images[i];
            const long image = ++serial;
            for (int c : img.cells) tag[c] = image;
            for (size_t k = 0; k < img.cells.size() && kept[i]; ++k) {
                for (int e = nb.begin[img.cells[k]]; e < nb.begin[img.cells[k] + 1]; ++e) {
                    const int start = nb.list[e];
                    if (tag[start] >= image) continue;
                    // Flood the pocket behind `start`, stopping past `cap` cells. Meeting a
                    // cell an earlier flood of this image reached means the same pocket, which
                    // that flood found larger than `cap` (a finished flood is closed).
                    const long flood = ++serial;
                    int size = 0;
                    queue[size++] = start;
                    tag[start] = flood;
                    bool large = false;
                    for (int head = 0; head < size && !large; ++head)
                        for (int e2 = nb.begin[queue[head]]; e2 < nb.begin[queue[head] + 1]; ++e2) {
                            const int q = nb.list[e2];
                            const long t = tag[q];
                            if (t == image || t == flood) continue;
                            if (t > image || size == cap) {
                                large = true;
                                break;
                            }
                            tag[q] = flood;
                            queue[size++] = q;
                        }
                    visits += size;
                    if (!large && !fillable[img.shape][size]) {
                        kept[i] = 0;
                        break;
                    }
                }
            }
        }
        if (visits > limits_.maxCellVisits) {
            proof_.skipped++;
            return false;
        }
        for (int s = 0; s < m_.shapeCount(); ++s) {
            if (std::find(kept.begin() + m_.shapeImageBegin[s], kept.begin() + m_.shapeImageBegin[s + 1], 1) !=
                kept.begin() + m_.shapeImageBegin[s + 1])
                continue;
            return plainly("fits nowhere", "piece " + m_.shapes[s].name + " fits nowhere" + kWallsOff, {});
        }
        // Pieces (copies counted) that reach each cell.
        std::vector<int> reachCount(n, 0), lastShape(n, -1);
        for (size_t i = 0; i < m_.images.size(); ++i) {
            if (!kept[i]) continue;
            const int s = m_.images[i].shape;
            for (int c : m_.images[i].cells)
                if (lastShape[c] != s) {
                    lastShape[c] = s;
                    reachCount[c] += m_.shapes[s].count;
                }
        }
        for (int c = 0; c < n; ++c) {
            if (reachCount[c]) continue;
            return plainly("uncoverable cell", "no piece covers the cell at " + cellText(c) + kWallsOff, {c});
        }
        std::vector<int> thresholds(reachCount);
        std::sort(thresholds.begin(), thresholds.end());
        thresholds.erase(std::unique(thresholds.begin(), thresholds.end()), thresholds.end());
        thresholds.pop_back();  // the largest: weight 1 everywhere says no more than the volume
        if (thresholds.size() > kReachThresholds) thresholds.resize(kReachThresholds);
        for (int t : thresholds) {
            std::vector<int> weight(n);
            for (int c = 0; c < n; ++c) weight[c] = reachCount[c] <= t ? 1 : 0;
            ValueSets values(m_.shapeCount());
            for (int s = 0; s < m_.shapeCount(); ++s) {
                std::vector<char> marks(m_.shapes[s].size + 1, 0);
                for (int i = m_.shapeImageBegin[s]; i < m_.shapeImageBegin[s + 1]; ++i) {
                    if (!kept[i]) continue;
                    int sum = 0;
                    for (int c : m_.images[i].cells) sum += weight[c];
                    marks[sum] = 1;
                }
                values[s] = valuesOf(marks);
            }
            const std::string pieces = std::to_string(t) + (t == 1 ? " piece" : " pieces");
            Weighting w;
            w.kind = "hard-to-reach cells";
            w.by = "cells few pieces can reach";
            w.things = "cells that at most " + pieces +
                       " can cover (a piece placed so that it walls off a pocket no set of the other pieces "
                       "can fill is left out)";
            w.thing = singular(w.things);
            if (check(w, weight, values)) return true;
        }
        return false;
    }

    int maxShapeSize() const {
        int size = 1;
        for (const Shape& s : m_.shapes) size = std::max(size, s.size);
        return size;
    }

    // Open neighbours of each open cell along the board's axes, flat: cell c's are
    // list[begin[c]] .. list[begin[c + 1] - 1] (one array: the floods visit them millions of times).
    struct Neighbours {
        std::vector<int> begin, list;
    };
    Neighbours openNeighbourLists() const {
        Neighbours out;
        out.begin.reserve(m_.openCellCount() + 1);
        for (int c = 0; c < m_.openCellCount(); ++c) {
            out.begin.push_back(static_cast<int>(out.list.size()));
            for (int a = 0; a < 3; ++a) {
                if (!active_[a]) continue;
                for (int step : {-1, 1}) {
                    Vec3 q = m_.openCellPos[c];
                    (a == 0 ? q.x : a == 1 ? q.y : q.z) += step;
                    if (m_.inBox(q) && m_.openCellOfBox[m_.boxIndex(q)] >= 0)
                        out.list.push_back(m_.openCellOfBox[m_.boxIndex(q)]);
                }
            }
        }
        out.begin.push_back(static_cast<int>(out.list.size()));
        return out;
    }

    static constexpr size_t kReachThresholds = 6;

    const Model& m_;
    bool active_[3] = {true, true, true};
    long dpBudget_;
    WeightingLimits limits_;
    std::unordered_set<uint64_t> seen_;
    WeightingProof proof_;
};

}  // namespace

WeightingProof weightingImpossibility(const Model& model, const WeightingLimits& limits) {
    return Prover(model, limits).run();
}

WeightingProof reachImpossibility(const Model& model, const WeightingLimits& limits) {
    return Prover(model, limits).runReach();
}

}  // namespace polycube
