// LayerCount: counts one term's solutions (a CoverProblem) forward, layer by layer, instead of
// by a depth-first search with a table. Internal to engine/memo (memo_counter.hpp decides when).
//
//   LayerCount layers(problem, maxBytes, threads);
//   long long budget = 1'000'000;
//   while (layers.run(budget, stop) == LayerCount::Status::Running) budget = 1'000'000;
//   if (layers.status() == LayerCount::Status::Done) use(layers.count());
//
// The subproblems are the memoized search's (cover_problem.hpp: a key holds the first open
// cell, the copies left and the open window after that cell, and so says every cell), but each
// carries the number of ways it is reached from the start instead of the number of ways it is
// completed: the count is the sum of the ways of the rows that fill the last open cell. The
// subproblems whose first open cell is p form layer p, and every row placed at p leads to a
// later layer, so the layers are done in order: layer p's entries (key, ways) are grouped,
// equal keys merged (their ways added; layer_sort.hpp), and each subproblem is expanded once,
// appending an entry per child to the child's layer. The grouping keeps the subproblems with
// the same open window (and different copies left) together, in runs: the rows that fit, the
// pocket cut and each child's open cells are worked out once per run, and a subproblem of the
// run only checks its copies and writes its children's keys. Grouping replaces the table's
// random accesses (a cache miss each) by passes over memory in order, and no subproblem
// outlives its layer.
//
// Threads (native builds): a layer's subproblems are expanded in parallel, each thread with its
// own search state and its own entries for the later layers; the threads share the grouping
// too (multi-word keys: sorted by the calling thread). The count is the same for any number
// of threads.
//
// Memory: the layers p .. p + reach hold their entries (in chunks cut from huge blocks,
// huge_block.hpp; a one-word key's entry is one word, its ways above the key when they fit) and
// layer p is grouped in one array. Past `maxBytes` the run stops with
// OverBudget: the caller counts the term another way (nothing is lost but time).
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "memo/cover_problem.hpp"
#include "memo/huge_block.hpp"
#include "memo/window_rows.hpp"

namespace polycube {

class LayerCount {
public:
    enum class Status { Running, Done, OverBudget, Overflow, Cancelled };
    // The entries are kept in chunks of 4 KiB to 1 MiB (a 64th of the budget per live layer
    // and thread, within these).
    static constexpr long long kMinChunkWords = 512, kMaxChunkWords = 1 << 17;
    // The chunks' first bytes are in small pages (HugeBlock::Pages::Small), the rest in huge.
    static constexpr long long kSmallPageBytes = 64LL << 20;

    LayerCount(const CoverProblem& problem, long long maxBytes, int threads = 1);
    ~LayerCount();
    LayerCount(const LayerCount&) = delete;
    LayerCount& operator=(const LayerCount&) = delete;

    // Works for about `budget` image attempts (spent from it); the status after.
    Status run(long long& budget, const std::atomic<bool>& stop);
    Status status() const { return status_; }
    uint64_t count() const { return count_; }  // once Done
    // The share done: the subproblems expanded over the layers' forecast total
    // (memo_choice.hpp's layeredShareDone), never less than a share returned before.
    double fractionDone() const;

    struct Stats {
        long long attempts = 0, placements = 0, pockets = 0;
        long long entries = 0;      // entries written (before merging)
        long long farEntries = 0;   // of those, with their ways at the chunk's far end (EntryPacking)
        long long subproblems = 0;  // distinct subproblems expanded
        long long peakBytes = 0;
    };
    Stats stats() const;

    // The subproblems of this term, forecast from the layers opened so far (memo_choice.hpp's
    // forecastLayers), and the bytes of its largest layer (-1 both: too few layers yet).
    struct Forecast {
        double subproblems = -1;
        double peakBytes = -1;
    };
    Forecast forecast() const;
    // More threads from the next run() on (not fewer; native builds): a count that began as
    // the race's probe on one thread and then has the machine to itself.
    void addThreads(int threads);

    struct Worker;

private:
    bool openLayer();
    bool takeChunk(Worker& w, int slot);
    void expand(Worker& w, size_t from, size_t to, const std::atomic<bool>& stop);
    void weighRows(Worker& w, size_t first, size_t end);  // (the run from subproblem `first`, before `end`)

    const CoverProblem& p_;
    RowIndex index_;  // the fit index and the key's copies arithmetic (window_rows.hpp)
    long long maxBytes_;
    int threads_;
    int words_;    // key words
    int stride_;   // words per entry: the key, then the ways
    int ring_ = 1; // layer p's entries are in slot p % ring_
    size_t chunkWords_ = kMaxChunkWords;
    std::vector<std::unique_ptr<Worker>> workers_;

    // The chunks: cut from slabs of kSlabChunks, owned by the pool, lent to a worker's slot,
    // returned when its layer is opened.
    static constexpr size_t kSlabChunks = 16;
    std::mutex poolMutex_;
    std::vector<HugeBlock> slabs_;
    size_t chunkCount_ = 0;
    std::vector<uint64_t*> freeChunks_;
    std::atomic<bool> overBudget_{false};
    std::atomic<bool> overflow_{false};

    // Words that grow without being zeroed (each is written before it is read): the open
    // layer, sorted and merged where it lies (mergeEntries), and, for keys of several words,
    // the sort's space.
    struct Words {
        HugeBlock block;
        size_t size = 0;
        void resize(size_t n);  // (std::bad_alloc if refused)
        size_t capacity() const { return block.words(); }
        // The capacity after resize(n): half as much again when it grows (the layers grow
        // towards the middle of the box).
        size_t capacityFor(size_t n) const { return n <= capacity() ? capacity() : std::max(n, capacity() + capacity() / 2); }
        uint64_t* data() const { return block.data(); }
        uint64_t& operator[](size_t i) { return block.data()[i]; }
    };
    Words layer_, scratch_;
    int at_ = 0;         // the open layer
    size_t next_ = 0;    // its next subproblem
    size_t size_ = 0;    // its subproblems
    bool opened_ = false;
    double attemptsPerSubproblem_ = 32;
    uint64_t count_ = 0;
    Status status_ = Status::Running;
    long long subproblems_ = 0, peakBytes_ = 0;
    mutable double shownDone_ = 0;  // fractionDone never goes back (a later forecast may be larger)
    std::vector<long long> layerSizes_;  // the distinct subproblems of each layer opened
};

}  // namespace polycube
