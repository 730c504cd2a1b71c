#include "memo/layer_count.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <numeric>

#include "memo/in_parallel.hpp"
#include "memo/layer_sort.hpp"
#include "memo/memo_choice.hpp"
#include "memo/sweep_state.hpp"
#include "memo/window_rows.hpp"

namespace polycube {

// A thread's part: its search state, the entries it wrote for each live layer (chunks from the
// pool; the last one filled up to `fill` words; one-word keys' entries packed, layer_sort.hpp's
// EntryPacking, the others the key's words then the ways), and its counters.
struct LayerCount::Worker {
    SweepState state;
    std::vector<uint64_t> key;
    WindowRows rows;           // the rows weighed against the open window of the run being expanded
    std::vector<int> runLeft;  // the copies of the run's subproblems, ORed field by field
    struct Slot {
        std::vector<uint64_t*> chunks;
        std::vector<size_t> chunkEntries;  // per chunk
        size_t fill = SIZE_MAX / 2;  // words used in the last chunk (past a chunk: take a new one)
        size_t far = 0;              // and at its far end (EntryPacking)
    };
    std::vector<Slot> slots;  // per ring slot
    uint64_t count = 0;
    long long attempts = 0, placements = 0, pockets = 0, entries = 0, farEntries = 0;
};

LayerCount::LayerCount(const CoverProblem& problem, long long maxBytes, int threads)
    : p_(problem), index_(problem), maxBytes_(maxBytes), threads_(0), words_(problem.keyWords), stride_(problem.keyWords + 1) {
#ifdef __EMSCRIPTEN__
    threads = 1;
#endif
    threads = std::max(threads, 1);
    // A row at p reaches p + reach - 1 at most and every cell past p + keyWindow is open, so a
    // child's first open cell is at most p + reach: reach + 1 layers are live at once.
    ring_ = p_.reach + 1;
    // Every live layer of every thread holds a chunk: a budget of a few MiB takes small ones.
    const long long perSlot = maxBytes_ / (8LL * ring_ * threads) / static_cast<long long>(sizeof(uint64_t));
    chunkWords_ = static_cast<size_t>(std::clamp<long long>(perSlot, kMinChunkWords, kMaxChunkWords));
    chunkWords_ -= chunkWords_ % stride_;
    addThreads(threads);
    if (p_.cells == 0) {
        count_ = 1;
        status_ = Status::Done;
        return;
    }
    // The start: every cell open, every copy free, reached one way.
    Worker& w = *workers_[0];
    w.state.buildKey(0, w.key.data());
    layer_.resize(stride_);
    std::copy(w.key.begin(), w.key.end(), &layer_[0]);
    layer_[words_] = 1;
    size_ = 1;
    opened_ = true;
    subproblems_ = 1;
    layerSizes_.assign(1, 1);
}

LayerCount::~LayerCount() = default;

void LayerCount::addThreads(int threads) {
#ifdef __EMSCRIPTEN__
    threads = 1;
#endif
    // (a new worker's slots are empty: openLayer gathers every worker's entries)
    for (; threads_ < threads; ++threads_) {
        auto w = std::make_unique<Worker>();
        w->state.reset(p_);
        w->key.assign(words_, 0);
        w->slots.resize(ring_);
        workers_.push_back(std::move(w));
    }
}

LayerCount::Forecast LayerCount::forecast() const {
    if (status_ == Status::Done) return {static_cast<double>(subproblems_), static_cast<double>(peakBytes_)};
    double peak = -1;
    const double total = forecastLayers(layerSizes_, p_.cells, p_.crossSection, &peak);
    if (total < 0) return {};
    // A scale, not the whole peak: three times the largest layer's words. The peak is larger
    // (the chunks hold the entries written for the next reach+1 layers too: one-sided 18x5 and
    // 6x15 peak at 10-11 times the largest layer's words), and the race's rules on this
    // forecast (RaceRules::budgetFit, hopeFactor) are tuned on this scale.
    return {total, peak * 3.0 * static_cast<double>(stride_ * sizeof(uint64_t))};
}

void LayerCount::Words::resize(size_t n) {
    if (!block.grow(capacityFor(n))) throw std::bad_alloc();
    size = n;
}

LayerCount::Stats LayerCount::stats() const {
    Stats s;
    for (const auto& w : workers_) {
        s.attempts += w->attempts;
        s.placements += w->placements;
        s.pockets += w->pockets;
        s.entries += w->entries;
        s.farEntries += w->farEntries;
    }
    s.subproblems = subproblems_;
    s.peakBytes = peakBytes_;
    return s;
}

double LayerCount::fractionDone() const {
    if (status_ == Status::Done) return 1;
    if (p_.cells == 0) return 1;
    const double inLayer = size_ > 0 && opened_ ? static_cast<double>(next_) / static_cast<double>(size_) : 0;
    const double expanded = static_cast<double>(subproblems_) - (opened_ ? static_cast<double>(size_ - next_) : 0);
    shownDone_ = std::max(shownDone_, layeredShareDone(layerSizes_, expanded, (at_ + inLayer) / p_.cells, p_.cells, p_.crossSection));
    return shownDone_;
}

// A new chunk for worker w's entries of ring slot `slot`; false past the budget.
bool LayerCount::takeChunk(Worker& w, int slot) {
    std::lock_guard<std::mutex> lock(poolMutex_);
    if (freeChunks_.empty()) {
        const long long bytes = static_cast<long long>((chunkCount_ + 1) * chunkWords_ * sizeof(uint64_t)) +
                                static_cast<long long>((layer_.capacity() + scratch_.capacity()) * sizeof(uint64_t));
        if (bytes > maxBytes_) {
            overBudget_.store(true, std::memory_order_relaxed);
            return false;
        }
        if (chunkCount_ % kSlabChunks == 0) {
            // The first slabs in small pages: a chunk taken is written from its start, so a
            // count whose layers stay small (a race's probe that the search outruns) touches
            // a few pages of each live layer's chunk, not a huge page each, zeroed and perhaps
            // compacted for (solid pentominoes 2x5x6 -r -M: its probe's first slice took
            // 35-112 ms with huge pages, 34-45 ms without)
            const bool small = static_cast<long long>(chunkCount_ * chunkWords_ * sizeof(uint64_t)) < kSmallPageBytes;
            slabs_.emplace_back();
            if (!slabs_.back().grow(kSlabChunks * chunkWords_, HugeBlock::Fill::Any,
                                    small ? HugeBlock::Pages::Small : HugeBlock::Pages::Huge)) {
                slabs_.pop_back();
                overBudget_.store(true, std::memory_order_relaxed);
                return false;
            }
        }
        peakBytes_ = std::max(peakBytes_, bytes);
        // (not zeroed: every word is written before it is read)
        freeChunks_.push_back(slabs_.back().data() + chunkCount_ % kSlabChunks * chunkWords_);
        ++chunkCount_;
    }
    w.slots[slot].chunks.push_back(freeChunks_.back());
    w.slots[slot].chunkEntries.push_back(0);
    freeChunks_.pop_back();
    w.slots[slot].fill = 0;
    w.slots[slot].far = 0;
    return true;
}

// Layer at_'s entries from every worker, in one array, grouped by window, equal keys merged (their
// ways added); the chunks go back to the pool. False past the budget (overBudget_) or when a
// sum passes 2^64.
bool LayerCount::openLayer() {
    const int slot = at_ % ring_;
    size_t n = 0;
    for (const auto& w : workers_)
        for (size_t c : w->slots[slot].chunkEntries) n += c;
    // (the layer, and with keys of several words the sort's space and order, beside the
    // chunks, before they are allocated)
    const size_t sortWords = words_ > 1 ? scratch_.capacityFor(n * stride_) + n * sizeof(size_t) / sizeof(uint64_t) : 0;
    const long long bytes = static_cast<long long>(chunkCount_ * chunkWords_ * sizeof(uint64_t)) +
                            static_cast<long long>((layer_.capacityFor(n * stride_) + sortWords) * sizeof(uint64_t));
    if (bytes > maxBytes_) {
        overBudget_.store(true);
        return false;
    }
    peakBytes_ = std::max(peakBytes_, bytes);
    layer_.size = 0;  // (its words are all written again)
    layer_.resize(n * stride_);
    // The entries where the workers wrote them; their chunks go back to the pool once read.
    std::vector<EntrySpan> spans;
    for (const auto& w : workers_) {
        Worker::Slot& s = w->slots[slot];
        for (size_t c = 0; c < s.chunks.size(); ++c) spans.push_back({s.chunks[c], s.chunkEntries[c], s.chunks[c] + chunkWords_});
    }
    const auto giveBack = [&] {
        for (const auto& w : workers_) {
            Worker::Slot& s = w->slots[slot];
            freeChunks_.insert(freeChunks_.end(), s.chunks.begin(), s.chunks.end());
            s.chunks.clear();
            s.chunkEntries.clear();
            s.fill = SIZE_MAX / 2;
        }
    };
    size_t kept = 0;
    if (words_ == 1) {
        kept = mergeEntries(spans, n, layer_.data(), KeyBits{p_.positionBits, p_.keyBits - p_.keyWindow, p_.keyBits}, threads_);
        giveBack();
        if (kept == kMergeOverflow) return false;
    } else {
        size_t at = 0;
        for (const EntrySpan& s : spans) {
            std::memcpy(&layer_[at], s.entries, s.count * stride_ * sizeof(uint64_t));
            at += s.count * stride_;
        }
        giveBack();
        std::vector<size_t> order(n);
        std::iota(order.begin(), order.end(), size_t{0});
        const uint64_t* base = layer_.data();
        const int words = words_, stride = stride_;
        auto entry = [&](size_t i) { return base + i * stride; };
        // (as numbers, the last word highest, like the one-word sort: subproblems with the same
        // open window are then next to each other, which expand's weighRows takes once)
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            const uint64_t* x = entry(a);
            const uint64_t* y = entry(b);
            for (int j = words - 1; j >= 0; --j)
                if (x[j] != y[j]) return x[j] < y[j];
            return false;
        });
        scratch_.size = 0;
        scratch_.resize(layer_.size);
        for (size_t i = 0; i < n;) {
            const uint64_t* k = entry(order[i]);
            uint64_t ways = k[words];
            for (++i; i < n && std::equal(k, k + words, entry(order[i])); ++i)
                if (__builtin_add_overflow(ways, entry(order[i])[words], &ways)) return false;
            std::copy(k, k + words, &scratch_[kept * stride]);
            scratch_[kept * stride + words] = ways;
            ++kept;
        }
        std::swap(layer_, scratch_);
    }
    layer_.resize(kept * stride_);
    size_ = kept;
    next_ = 0;
    subproblems_ += static_cast<long long>(kept);
    if (layerSizes_.size() <= static_cast<size_t>(at_)) layerSizes_.resize(static_cast<size_t>(at_) + 1, 0);
    layerSizes_[at_] = static_cast<long long>(kept);
    opened_ = true;
    return true;
}

// The rows that fit the open cells of the subproblem `entry` of the open layer, with what
// placing each does to the open cells (a pocket, the child's first open cell and the child's
// key but the copies). They depend on the open window alone, and the layer is grouped by its
// window (the key's top bits), so expand weighs them once per run of equal windows and each
// subproblem of the run only checks its copies left.
//
// Only rows some subproblem of the run has the copies for are weighed: those the copies of the
// whole run, ORed field by field, allow (a field's OR is at least each of its values, so a row
// it refuses every subproblem refuses). A run of one subproblem weighs what it places.
void LayerCount::weighRows(Worker& w, size_t first, size_t end) {
    SweepState& s = w.state;
    const uint64_t* entry = &layer_[first * stride_];
    std::vector<uint64_t>& window = w.rows.window;
    window.resize(words_);
    index_.windowOf(entry, window.data());
    w.key.assign(entry, entry + words_);
    for (size_t i = first + 1; i < end; ++i) {
        const uint64_t* e = &layer_[i * stride_];
        if (!index_.inWindow(e, window.data())) break;
        index_.orCopies(e, w.key.data());
    }
    s.loadCopies(w.key.data());
    w.runLeft = s.left;
    s.load(entry, at_);
    w.rows.weigh(index_, s, at_, entry, w.runLeft.data());
}

// Expands the open layer's subproblems [from, to) in worker w: every row that fits at the
// layer's cell and walls off no pocket adds the subproblem's ways to its child's entry, or to
// the count when it fills the last open cell.
void LayerCount::expand(Worker& w, size_t from, size_t to, const std::atomic<bool>& stop) {
    const int words = words_;
    const EntryPacking packing{p_.keyBits};  // (one-word keys: the chunks' entries are packed)
    long long attempts = 0, placements = 0, pockets = 0, entries = 0;
    w.rows.weighed = false;  // (a new slice: the layer may have changed)
    for (size_t i = from; i < to; ++i) {
        if (stop.load(std::memory_order_relaxed) || overBudget_.load(std::memory_order_relaxed) ||
            overflow_.load(std::memory_order_relaxed))
            break;
        const uint64_t* entry = &layer_[i * stride_];
        const uint64_t ways = entry[words];
        if (!w.rows.weighed || !index_.inWindow(entry, w.rows.window.data())) weighRows(w, i, to);
        attempts += w.rows.tried;
        bool full = false;
        // (the copies read from the key's own fields: unpacking them per subproblem took a
        // fifth of one-sided 6x15's time; this is the count's innermost loop)
        for (const WindowRows::Candidate& c : w.rows.candidates) {
            const int r = c.row;
            if (!index_.keyHasCopies(entry, r)) continue;
            ++placements;
            if (c.pocket) {
                ++pockets;
                continue;
            }
            if (c.child == p_.cells) {
                if (__builtin_add_overflow(w.count, ways, &w.count)) overflow_.store(true, std::memory_order_relaxed);
                continue;
            }
            Worker::Slot& out = w.slots[c.child % ring_];
            if (out.fill + out.far + stride_ > chunkWords_ && !takeChunk(w, c.child % ring_)) {
                full = true;
                break;
            }
            uint64_t* e = out.chunks.back() + out.fill;
            index_.childKey(entry, w.rows.frame(c), r, e);
            if (words == 1) {
                if (!packing.packs(ways)) {
                    out.chunks.back()[chunkWords_ - ++out.far] = ways;
                    ++w.farEntries;
                }
                e[0] = packing.word(e[0], ways);
                ++out.fill;
            } else {
                e[words] = ways;
                out.fill += stride_;
            }
            ++out.chunkEntries.back();
            ++entries;
        }
        if (full) break;
    }
    w.attempts += attempts;
    w.placements += placements;
    w.pockets += pockets;
    w.entries += entries;
}

LayerCount::Status LayerCount::run(long long& budget, const std::atomic<bool>& stop) {
    while (status_ == Status::Running) {
        if (stop.load(std::memory_order_relaxed)) return status_ = Status::Cancelled;
        if (!opened_) {
            if (at_ >= p_.cells) {
                for (const auto& w : workers_)
                    if (__builtin_add_overflow(count_, w->count, &count_)) return status_ = Status::Overflow;
                return status_ = Status::Done;
            }
            bool opened = false;
            try {
                opened = openLayer();
            } catch (const std::bad_alloc&) {
                overBudget_.store(true);
            }
            if (!opened) return status_ = overBudget_.load() ? Status::OverBudget : Status::Overflow;
        }
        if (next_ >= size_) {
            ++at_;
            opened_ = false;
            continue;
        }
        if (budget <= 0) return status_;
        // A slice of the layer, about `budget` attempts by the rate so far, split among the threads.
        const long long before = stats().attempts;
        const size_t want = static_cast<size_t>(std::max(1.0, static_cast<double>(budget) / attemptsPerSubproblem_));
        const size_t end = std::min(size_, next_ + want);
        const size_t n = end - next_;
        const int threads = n >= static_cast<size_t>(threads_) * 64 ? threads_ : 1;
        // The threads take blocks of the slice in turn rather than equal shares: subproblems
        // differ in work (one-sided 6x15 on two threads: equal shares left the calling thread
        // half as much again to expand as the other). A block starts by weighing its first
        // run's rows again, so blocks stay long. (Memory refused is the budget passed: the
        // term goes to the table's search, which has its own budget. A part whose thread the
        // system refuses runs here after part 0, with its own worker, and finds the blocks
        // taken.)
        const size_t block = std::max<size_t>(64, n / (static_cast<size_t>(threads) * 8));
        std::atomic<size_t> cursor{next_};
        inParallel(threads, [&](int t) {
            try {
                for (size_t from; (from = cursor.fetch_add(block)) < end;)
                    expand(*workers_[t], from, std::min(end, from + block), stop);
            } catch (const std::bad_alloc&) {
                overBudget_.store(true);
            }
        });
        const long long spent = stats().attempts - before;
        budget -= spent;
        attemptsPerSubproblem_ = std::max(1.0, 0.9 * attemptsPerSubproblem_ + 0.1 * static_cast<double>(spent) / n);
        if (overBudget_.load()) return status_ = Status::OverBudget;
        if (overflow_.load()) return status_ = Status::Overflow;
        if (stop.load(std::memory_order_relaxed)) return status_ = Status::Cancelled;
        next_ = end;
    }
    return status_;
}

}  // namespace polycube
