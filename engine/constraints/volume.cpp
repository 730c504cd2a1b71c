#include "constraints/volume.hpp"

#include <algorithm>
#include <climits>

namespace polycube {

namespace {

// Longest run of set bits among the first `nbits` (ties: the lowest); empty run: lo > hi.
void longestRun(const uint64_t* bits, int nbits, int& lo, int& hi) {
    lo = 1, hi = 0;
    int start = -1;
    for (int b = 0; b <= nbits; ++b) {
        bool set = b < nbits && SubsetSums::testBit(bits, b);
        if (set && start < 0) start = b;
        if (!set && start >= 0) {
            if (b - 1 - start > hi - lo) lo = start, hi = b - 1;
            start = -1;
        }
    }
}

}  // namespace

void VolumeMonitor::init(const Model& m) {
    // Size classes, ascending by size.
    sizes_.clear();
    for (const Shape& s : m.shapes)
        if (s.count > 0) sizes_.push_back(s.size);
    std::sort(sizes_.begin(), sizes_.end());
    sizes_.erase(std::unique(sizes_.begin(), sizes_.end()), sizes_.end());
    counts_.assign(sizes_.size(), 0);
    classOfShape_.assign(m.shapeCount(), -1);
    totalVolume_ = 0;
    for (int s = 0; s < m.shapeCount(); ++s) {
        const Shape& sh = m.shapes[s];
        int cls = static_cast<int>(std::lower_bound(sizes_.begin(), sizes_.end(), sh.size) - sizes_.begin());
        classOfShape_[s] = cls;
        if (sh.count > 0) counts_[cls] += sh.count;
        totalVolume_ += sh.size * sh.count;
    }
    cellCount_ = m.openCellCount();
    active_ = totalVolume_ == cellCount_;

    // Achievable volumes: each piece of class k adds 0 or sizes_[k].
    std::vector<std::vector<int>> choices;
    for (int size : sizes_) choices.push_back({0, size});
    sums_.init(std::move(choices), counts_, 0, totalVolume_);
    runLo_.assign(sums_.stateCount(), 1);
    runHi_.assign(sums_.stateCount(), 0);
    for (long st = 0; st < sums_.stateCount(); ++st)
        longestRun(sums_.stateSums(st), totalVolume_ + 1, runLo_[st], runHi_[st]);
    cachedState_.assign(sizes_.size(), -1);
    cachedSums_.assign(sums_.words(), 0);

    // Open-cell adjacency: the (up to) 6 face neighbours that are open cells.
    adjBegin_.assign(1, 0);
    adj_.clear();
    static const int kDirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int c = 0; c < cellCount_; ++c) {
        const Vec3& p = m.openCellPos[c];
        for (const auto& d : kDirs) {
            Vec3 q{p.x + d[0], p.y + d[1], p.z + d[2]};
            if (!m.inBox(q)) continue;
            int open = m.openCellOfBox[m.boxIndex(q)];
            if (open >= 0) adj_.push_back(open);
        }
        adjBegin_.push_back(static_cast<int>(adj_.size()));
    }

    mark_.assign(cellCount_, 0);
    queue_.assign(cellCount_, 0);
    epoch_ = 0;
    owner_.assign(cellCount_, -1);
    compOf_.assign(cellCount_, -1);
    compVolume_.clear();
    cacheValid_ = false;
    cachedFilled_.clear();
    stack_.clear();
    stack_.reserve(cellCount_);
}

bool VolumeMonitor::achievable(const int* remaining, int volume) const {
    if (volume < 0) return false;
    if (sizes_.size() == 1) {  // one size k: multiples of k up to k * remaining
        const int k = sizes_[0];
        return volume % k == 0 && volume / k <= remaining[0];
    }
    return sums_.contains(remaining, volume);
}

VolumeMonitor::Query VolumeMonitor::prepare(const int* remaining) {
    Query q;
    for (size_t k = 0; k < sizes_.size(); ++k) q.maxVolume += sizes_[k] * remaining[k];
    if (sizes_.size() <= 1) {
        q.unit = sizes_.empty() ? 1 : sizes_[0];
        if (q.unit == 1) q.runLo = 0, q.runHi = q.maxVolume;  // monominoes: every volume
        return q;
    }
    if (sums_.tabled()) {
        long st = sums_.stateIndex(remaining);
        q.bits = sums_.stateSums(st);
        q.runLo = runLo_[st];
        q.runHi = runHi_[st];
        return q;
    }
    if (!std::equal(cachedState_.begin(), cachedState_.end(), remaining)) {
        cachedState_.assign(remaining, remaining + sizes_.size());
        sums_.compute(remaining, cachedSums_.data());
        longestRun(cachedSums_.data(), totalVolume_ + 1, cachedRunLo_, cachedRunHi_);
    }
    q.bits = cachedSums_.data();
    q.runLo = cachedRunLo_;
    q.runHi = cachedRunHi_;
    return q;
}

uint32_t VolumeMonitor::nextEpoch() {
    if (++epoch_ == 0) {
        std::fill(mark_.begin(), mark_.end(), 0);
        epoch_ = 1;
    }
    return epoch_;
}

void VolumeMonitor::ensureComponents(const std::vector<uint64_t>& filled) {
    const int words = (cellCount_ + 63) / 64;
    if (cacheValid_ && std::equal(cachedFilled_.begin(), cachedFilled_.end(), filled.begin())) return;
    cachedFilled_.assign(filled.begin(), filled.begin() + words);
    cacheValid_ = true;
    compVolume_.clear();
    const uint32_t e = nextEpoch();
    for (int w = 0; w < words; ++w) {
        uint64_t free = ~filled[w];
        if (w == words - 1 && (cellCount_ & 63)) free &= (1ULL << (cellCount_ & 63)) - 1;
        while (free) {
            const int start = w * 64 + __builtin_ctzll(free);
            free &= free - 1;
            if (mark_[start] == e) continue;
            const int label = static_cast<int>(compVolume_.size());
            int volume = 0;
            stack_.clear();
            stack_.push_back(start);
            mark_[start] = e;
            while (!stack_.empty()) {
                const int x = stack_.back();
                stack_.pop_back();
                compOf_[x] = label;
                ++volume;
                for (int i = adjBegin_[x]; i < adjBegin_[x + 1]; ++i) {
                    const int y = adj_[i];
                    if (mark_[y] == e || isFilled(filled, y)) continue;
                    mark_[y] = e;
                    stack_.push_back(y);
                }
            }
            compVolume_.push_back(volume);
        }
    }
}

bool VolumeMonitor::regionsFillable(const std::vector<uint64_t>& filled, const int* remaining) {
    if (!active_) return true;
    ensureComponents(filled);
    const Query q = prepare(remaining);
    for (int volume : compVolume_)
        if (!q.ok(volume)) return false;
    return true;
}

int VolumeMonitor::unfillableRegion(const std::vector<uint64_t>& filled, const int* remaining, int* volume) {
    if (!active_) return -1;
    ensureComponents(filled);
    const Query q = prepare(remaining);
    // Regions are labelled in the order of their lowest cell (ensureComponents scans the
    // cells in order), so the first cell found with a bad label is its region's lowest.
    for (int c = 0; c < cellCount_; ++c) {
        if (isFilled(filled, c)) continue;
        const int v = compVolume_[compOf_[c]];
        if (!q.ok(v)) {
            *volume = v;
            return c;
        }
    }
    return -1;
}

int VolumeMonitor::findFragment(int f) {
    while (fragParent_[f] != f) {
        fragParent_[f] = fragParent_[fragParent_[f]];
        f = fragParent_[f];
    }
    return f;
}

// The regions after the placement are (a) the regions of `filled` the image does not touch,
// unchanged, and (b) the fragments into which the image cuts the regions it touches. Every
// fragment touches the image, so flood fills seeded at the image's free neighbours find them
// all. The fills share one breadth-first queue (so they advance a layer at a time together),
// each cell labelled with its fill; fills that meet are merged (union-find). A fill with no
// cell left to expand has found a whole fragment. Two sound early exits:
//   - once one fill is left, its fragment is everything not yet accounted for, so its
//     volume is known without finishing the fill (the big fragment is never walked);
//   - the live fills may still merge, so their final regions are unions of groups of them.
//     All of them together make exactly `open` cells; a proper group G makes at least its
//     claimed cells and at most `open` minus the others' claimed cells, so every proper
//     group's volume lies in [minLo, open - minLo] (minLo: fewest cells claimed by a live
//     fill). When that interval lies in a run of achievable volumes and `open` itself is
//     achievable, every possible outcome is fillable (checked once per layer).
bool VolumeMonitor::placementLeavesUnfillableRegion(const std::vector<uint64_t>& filled,
                                                    const std::vector<int>& cells, const int* remainingAfter) {
    if (!active_) return false;
    ensureComponents(filled);
    const Query q = prepare(remainingAfter);

    // Regions the image touches, and the volume left in them after the placement.
    affected_.clear();
    int rest = -static_cast<int>(cells.size());
    for (int c : cells) {
        const int comp = compOf_[c];
        if (std::find(affected_.begin(), affected_.end(), comp) == affected_.end()) {
            affected_.push_back(comp);
            rest += compVolume_[comp];
        }
    }
    // (a) Untouched regions keep their volume, but one piece fewer is left to fill them.
    if (compVolume_.size() > affected_.size())
        for (int comp = 0; comp < static_cast<int>(compVolume_.size()); ++comp)
            if (!q.ok(compVolume_[comp]) &&
                std::find(affected_.begin(), affected_.end(), comp) == affected_.end())
                return true;
    if (rest == 0) return false;

    // (b) Seed one fill per free neighbour of the image.
    const uint32_t e = nextEpoch();
    for (int c : cells) {
        mark_[c] = e;
        owner_[c] = -1;
    }
    int fragments = 0, tail = 0;
    for (int c : cells)
        for (int i = adjBegin_[c]; i < adjBegin_[c + 1]; ++i) {
            const int y = adj_[i];
            if (mark_[y] == e || isFilled(filled, y)) continue;
            const int f = fragments++;
            if (static_cast<int>(fragParent_.size()) < fragments) {
                fragParent_.push_back(0);
                fragCount_.push_back(0);
                fragPending_.push_back(0);
            }
            fragParent_[f] = f;
            fragCount_[f] = 1;
            fragPending_[f] = 1;
            mark_[y] = e;
            owner_[y] = f;
            queue_[tail++] = y;
        }
    if (fragments == 1) return !q.ok(rest);

    int live = fragments;
    int finished = 0;  // volume of the fragments found whole
    const bool useRun = q.runHi > q.runLo;
    for (int head = 0, layerEnd = tail; head < tail;) {
        const int x = queue_[head++];
        const int f = findFragment(owner_[x]);
        for (int a = adjBegin_[x]; a < adjBegin_[x + 1]; ++a) {
            const int y = adj_[a];
            if (isFilled(filled, y)) continue;
            if (mark_[y] != e) {
                mark_[y] = e;
                owner_[y] = f;
                ++fragCount_[f];
                ++fragPending_[f];
                queue_[tail++] = y;
                continue;
            }
            if (owner_[y] < 0) continue;  // the image
            const int r = findFragment(owner_[y]);
            if (r == f) continue;
            // Two fills met: one fill from now on.
            fragParent_[r] = f;
            fragCount_[f] += fragCount_[r];
            fragPending_[f] += fragPending_[r];
            if (--live == 1) return !q.ok(rest - finished);
        }
        if (--fragPending_[f] == 0) {
            // Nothing left to expand: a whole fragment.
            if (!q.ok(fragCount_[f])) return true;
            finished += fragCount_[f];
            if (--live == 1) return !q.ok(rest - finished);
        }
        if (head == layerEnd && useRun) {
            layerEnd = tail;
            const int open = rest - finished;  // cells of the unfinished fragments, claimed or not
            const int need = std::max(q.runLo, open - q.runHi);  // minLo needed
            // The live fills hold tail - finished cells, so minLo <= that / live.
            if (tail - finished >= need * live && q.ok(open)) {
                int minLo = INT_MAX;
                for (int g = 0; g < fragments; ++g)
                    if (fragParent_[g] == g && fragPending_[g] > 0) minLo = std::min(minLo, fragCount_[g]);
                if (minLo >= need) return false;
            }
        }
    }
    return false;  // not reached: the last live fill returns above
}

}  // namespace polycube
