// PlacementCounts (placement_counts.hpp): the forward pass (ways from the start, the edges
// kept), the backward pass (completions to the end), and the rows' counts as their product
// along each edge.
#include "memo/placement_counts.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "memo/memo_choice.hpp"

namespace polycube {

namespace {

// Keys compared as numbers, the last word highest: the subproblems with the same open window
// (the key's top bits) come next to each other, and expand weighs their rows once.
int compareKeys(const uint64_t* a, const uint64_t* b, int words) {
    for (int j = words - 1; j >= 0; --j)
        if (a[j] != b[j]) return a[j] < b[j] ? -1 : 1;
    return 0;
}

// A layer's entry: its key, its ways, its edge.
template <int K>
struct Entry {
    uint64_t key[K];
    uint64_t ways, edge;
};

template <int K>
void sortEntriesOf(uint64_t* words, size_t n) {
    static_assert(sizeof(Entry<K>) == (K + 2) * sizeof(uint64_t));
    Entry<K>* e = reinterpret_cast<Entry<K>*>(words);
    std::sort(e, e + n, [](const Entry<K>& a, const Entry<K>& b) {
        for (int j = K - 1; j >= 0; --j)  // (as compareKeys)
            if (a.key[j] != b.key[j]) return a.key[j] < b.key[j];
        return false;
    });
}

// The n entries of `keyWords`-word keys at `words` sorted by key where they lie; false for
// keys too long for this (the caller sorts an order of indices).
bool sortEntries(uint64_t* words, size_t n, int keyWords) {
    switch (keyWords) {
        case 1: sortEntriesOf<1>(words, n); return true;
        case 2: sortEntriesOf<2>(words, n); return true;
        case 3: sortEntriesOf<3>(words, n); return true;
        case 4: sortEntriesOf<4>(words, n); return true;
        default: return false;
    }
}

// The forward pass's share of fractionDone: it expands every subproblem, the backward pass
// only adds along the edges.
constexpr double kForwardShare = 0.9;

// An entry's edge: the start's entry has none.
constexpr uint64_t kNoEdge = UINT64_MAX;

}  // namespace

PlacementCounts::PlacementCounts(const CoverProblem& problem, long long maxBytes)
    : p_(problem), index_(problem), maxBytes_(maxBytes), words_(problem.keyWords) {
    rowCounts_.assign(static_cast<size_t>(p_.rows()), 0);
    if (p_.cells == 0) {  // nothing to fill: one solution, the empty one, with no rows
        count_ = 1;
        status_ = Status::Done;
        return;
    }
    state_.reset(p_);
    key_.assign(static_cast<size_t>(words_), 0);
    layers_.resize(static_cast<size_t>(p_.cells));
    // The start: every cell open, every copy free, reached one way, by no edge.
    state_.buildKey(0, key_.data());
    Layer& start = layers_[0];
    for (uint64_t word : key_) append(start.incoming, word);
    append(start.incoming, uint64_t{1});
    append(start.incoming, kNoEdge);
}

double PlacementCounts::fractionDone() const {
    if (status_ == Status::Done) return 1;
    if (backward_) {
        const double all = std::max<double>(static_cast<double>(value_.size()), 1);
        return kForwardShare + (1 - kForwardShare) * (1 - static_cast<double>(next_) / all);
    }
    const size_t size = at_ < p_.cells && opened_ ? layers_[static_cast<size_t>(at_)].keys.size() / static_cast<size_t>(words_) : 0;
    const double inLayer = size > 0 ? static_cast<double>(next_) / static_cast<double>(size) : 0;
    // The layers opened so far: each numbers its subproblems after the one before.
    const int opened = std::min(at_ + (opened_ ? 1 : 0), p_.cells);
    std::vector<long long> sizes(static_cast<size_t>(opened));
    for (int q = 0; q < opened; ++q) {
        const uint32_t end = q + 1 < opened ? layers_[static_cast<size_t>(q) + 1].first : static_cast<uint32_t>(value_.size());
        sizes[static_cast<size_t>(q)] = static_cast<long long>(end - layers_[static_cast<size_t>(q)].first);
    }
    const double expanded = static_cast<double>(value_.size()) - static_cast<double>(size - std::min(size, next_));
    shownForward_ = std::max(shownForward_, layeredShareDone(sizes, expanded, (at_ + inLayer) / std::max(p_.cells, 1), p_.cells, p_.crossSection));
    return kForwardShare * shownForward_;
}

bool PlacementCounts::charge(long long bytes) {
    heldBytes_ += bytes;
    stats_.bytes = std::max(stats_.bytes, heldBytes_);
    if (heldBytes_ <= maxBytes_) return true;
    status_ = Status::OverBudget;
    return false;
}

// Layer p's entries sorted by key, equal keys merged (their ways added) and numbered; each
// entry's edge learns its child's number.
void PlacementCounts::openLayer(int p) {
    Layer& layer = layers_[static_cast<size_t>(p)];
    const size_t stride = static_cast<size_t>(words_) + 2;
    const size_t n = layer.incoming.size() / stride;
    if (n > UINT32_MAX) {  // (the order's indices are 32 bits)
        status_ = Status::OverBudget;
        return;
    }
    const uint64_t* in = layer.incoming.data();
    // The entries in key order: sorted where they lie for keys of up to 4 words (a sort of
    // indices reads every key it compares from anywhere in the layer: half the time of the
    // forward pass on one-sided 18x5), else through an order of indices.
    std::vector<uint32_t> order;
    if (!sortEntries(layer.incoming.data(), n, words_)) {
        if (!charge(static_cast<long long>(n * sizeof(uint32_t)))) return;  // (the order, while it lives)
        order.resize(n);
        std::iota(order.begin(), order.end(), 0u);
        std::sort(order.begin(), order.end(),
                  [&](uint32_t a, uint32_t b) { return compareKeys(in + a * stride, in + b * stride, words_) < 0; });
    }
    const auto entry = [&](size_t i) { return in + (order.empty() ? i : order[i]) * stride; };
    size_t distinct = 0;
    for (size_t i = 0; i < n; ++i)
        if (i == 0 || compareKeys(entry(i), entry(i - 1), words_) != 0) ++distinct;
    if (value_.size() + distinct >= kEnd) {  // (the numbers are 32 bits, kEnd apart)
        status_ = Status::OverBudget;
        return;
    }
    if (!layer.keys.reserve(distinct * static_cast<size_t>(words_))) {
        status_ = Status::OverBudget;
        return;
    }
    if (!charge(layer.keys.capacityBytes())) return;
    layer.first = static_cast<uint32_t>(value_.size());
    for (size_t i = 0; i < n; ++i) {
        const uint64_t* e = entry(i);
        if (i == 0 || compareKeys(e, entry(i - 1), words_) != 0) {
            for (int j = 0; j < words_; ++j) layer.keys.push_back(e[j]);  // (reserved)
            if (!append(value_, uint64_t{0}) || !append(edgeCount_, uint32_t{0})) return;
        }
        if (__builtin_add_overflow(value_.back(), e[words_], &value_.back())) {
            status_ = Status::Overflow;
            return;
        }
        if (e[words_ + 1] != kNoEdge) edges_[e[words_ + 1]].child = static_cast<uint32_t>(value_.size() - 1);
    }
    charge(-layer.incoming.capacityBytes() - static_cast<long long>(order.size() * sizeof(uint32_t)));
    layer.incoming.clear();
    stats_.subproblems += static_cast<long long>(distinct);
}

// The rows of the run of subproblems of layer p from u on that share u's open window: only
// those the run's copies, ORed field by field, allow (window_rows.hpp).
void PlacementCounts::weighRun(int p, size_t u) {
    const Layer& layer = layers_[static_cast<size_t>(p)];
    const size_t size = layer.keys.size() / static_cast<size_t>(words_);
    const uint64_t* key = &layer.keys[u * static_cast<size_t>(words_)];
    std::vector<uint64_t>& window = rows_.window;
    window.resize(static_cast<size_t>(words_));
    index_.windowOf(key, window.data());
    key_.assign(key, key + words_);
    for (size_t i = u + 1; i < size; ++i) {
        const uint64_t* k = &layer.keys[i * static_cast<size_t>(words_)];
        if (!index_.inWindow(k, window.data())) break;
        index_.orCopies(k, key_.data());
    }
    state_.loadCopies(key_.data());
    runLeft_ = state_.left;
    state_.load(key, p);
    rows_.weigh(index_, state_, p, key, runLeft_.data());
}

// Subproblem u of layer p: each row the counter would place at p (copies left, cells open, no
// pocket) is an edge, and its child's entry goes to the child's layer with u's ways.
void PlacementCounts::expand(int p, size_t u, long long& attempts) {
    Layer& layer = layers_[static_cast<size_t>(p)];
    const size_t number = layer.first + u;
    const uint64_t ways = value_[number];
    const uint64_t* key = &layer.keys[u * static_cast<size_t>(words_)];
    if (!rows_.weighed || !index_.inWindow(key, rows_.window.data())) weighRun(p, u);
    attempts += rows_.tried;
    stats_.attempts += rows_.tried;
    uint32_t edges = 0;
    for (const WindowRows::Candidate& c : rows_.candidates) {
        if (!index_.keyHasCopies(key, c.row)) continue;  // (as the layered count: in the key)
        ++stats_.placements;
        if (c.pocket) {
            ++stats_.pockets;
            continue;
        }
        if (!append(edges_, Edge{static_cast<uint32_t>(c.row), kEnd})) break;
        ++edges;
        if (c.child == p_.cells) {
            if (__builtin_add_overflow(reachedEnd_, ways, &reachedEnd_)) status_ = Status::Overflow;
            continue;
        }
        index_.childKey(key, rows_.frame(c), c.row, key_.data());
        HugeArray<uint64_t>& in = layers_[static_cast<size_t>(c.child)].incoming;
        for (uint64_t word : key_) append(in, word);
        append(in, ways);
        append(in, static_cast<uint64_t>(edges_.size() - 1));  // (openLayer gives this edge its child's number)
    }
    edgeCount_[number] = edges;
}

// The next subproblem of the backward pass (the last numbered not yet done): its completions
// from its children's, and its edges' shares in their rows' counts.
bool PlacementCounts::backOne(long long& attempts) {
    const size_t u = --next_;
    const uint64_t ways = value_[u];
    const uint32_t n = edgeCount_[u];
    edgeAt_ -= n;
    uint64_t completions = 0;
    for (size_t k = edgeAt_; k < edgeAt_ + n; ++k) {
        const Edge e = edges_[k];
        const uint64_t below = e.child == kEnd ? 1 : value_[e.child];
        uint64_t through = 0;
        if (__builtin_add_overflow(completions, below, &completions) || __builtin_mul_overflow(ways, below, &through) ||
            __builtin_add_overflow(rowCounts_[e.row], through, &rowCounts_[e.row])) {
            status_ = Status::Overflow;
            return false;
        }
    }
    value_[u] = completions;
    attempts += n + 1;
    return true;
}

PlacementCounts::Status PlacementCounts::run(long long& budget, const std::atomic<bool>& stop) {
    long long attempts = 0;
    while (status_ == Status::Running && attempts < budget) {
        if (stop.load(std::memory_order_relaxed)) {
            status_ = Status::Cancelled;
            break;
        }
        if (backward_) {
            if (next_ == 0) {
                count_ = value_.empty() ? 0 : value_[0];
                status_ = count_ == reachedEnd_ && edgeAt_ == 0 ? Status::Done : Status::Inconsistent;
                break;
            }
            backOne(attempts);
            continue;
        }
        if (at_ == p_.cells) {  // every layer expanded: back from the last subproblem
            backward_ = true;
            next_ = value_.size();
            edgeAt_ = edges_.size();
            continue;
        }
        Layer& layer = layers_[static_cast<size_t>(at_)];
        if (!opened_) {
            openLayer(at_);
            opened_ = true;
            rows_.weighed = false;
            next_ = 0;
            attempts += static_cast<long long>(layer.keys.size() / static_cast<size_t>(words_)) + 1;
            continue;
        }
        if (next_ == layer.keys.size() / static_cast<size_t>(words_)) {  // expanded: its keys are needed no more
            charge(-layer.keys.capacityBytes());
            layer.keys.clear();
            ++at_;
            opened_ = false;
            continue;
        }
        expand(at_, next_++, attempts);
    }
    budget -= attempts;
    return status_;
}

}  // namespace polycube
