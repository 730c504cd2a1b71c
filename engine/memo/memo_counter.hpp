// MemoCounter: counts a puzzle's solutions without listing them, by a search that memoizes
// subproblems (DXZ's idea, Nishino, Yasuda, Minato and Nagata, AAAI 2017: dancing links that
// remember the count of completions of each set of remaining columns).
//
//   MemoSettings settings;                 // settings.redundancy = true for -r, .mirror for -M
//   settings.maxTableBytes = 256LL << 20;  // the table's memory budget
//   std::unique_ptr<MemoCounter> c = MemoCounter::begin(def, settings);
//   while (c->step(1'000'000) == MemoCounter::State::Running) { if (stop) c->cancel(); }
//   if (c->state() == MemoCounter::State::Done) print(c->count());   // else c->error()
//
// The search fills the first open cell of a sweep along the box's longest axis (cells in the
// order of "first open cell": shortest dimension fastest), trying every allowed image whose
// first cell it is. A subproblem is (the open cells, the copies of each shape still free).
// By default each term is counted forward, layer by layer (layer_count.hpp: every subproblem
// expanded once, the layers sorted, on settings.threads threads). Otherwise (listing solutions
// by number, settings.layered off, or a term whose layers pass the budget) a depth-first
// search computes each subproblem's number of completions once and keeps it in a hash table
// (memo_table.hpp) under the memory budget: a full table evicts, an evicted subproblem is
// counted again, the count stays exact. Both run in slices (step(budget): about `budget`
// image attempts; the table's search on an explicit stack) and poll cancel() at every
// placement (the layers: at every subproblem).
//
// With -r (settings.redundancy) the count is that of the enumerating search: classes of
// solutions under the puzzle's symmetries (with -M, reflections too). The redundancy filter's
// plan (constraints/symmetry.hpp) keeps one image of the constrained piece per orbit; the
// solutions through a kept image with no symmetry are each one class. Through a kept image k
// that symmetries H fix, the classes are counted by Burnside's lemma: (1/|H|) times the sum
// over h in H of the solutions through k that h maps onto themselves, each such sum a count
// of its own over the orbits of images under h (cover_problem.hpp). With no usable piece, the
// same over the whole group. Each of these counts is a "term" searched one after another,
// with the table cleared between them.
//
// It lists no solutions, but for those asked by number or drawn at random once the count is
// known (MemoSettings::solutionNumber, randomSolutions; memo_solutions.cpp): a count of one term
// is a sum over the paths of the search, so the solution numbered n is found by walking down
// from the root and skipping every subtree whose count (the table's) is at most what is left
// of n. Setup (the model, the impossibility proofs of parity and cell weightings, the
// symmetries and the redundancy plan) runs in the same slices. Errors are values: state()
// Failed and error().
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "constraints/symmetry.hpp"
#include "memo/cover_problem.hpp"
#include "memo/layer_count.hpp"
#include "memo/placement_counts.hpp"
#include "memo/sweep_state.hpp"
#include "memo/memo_table.hpp"
#include "puzzle/model.hpp"
#include "puzzle/puzzle.hpp"

namespace polycube {

struct MemoSettings {
    bool redundancy = false;    // -r: count classes of solutions under the puzzle's symmetries
    std::string piece;          // -r's piece by name ("" chooses one)
    bool mirror = false;        // -M: reflections count as symmetries too
    long long maxTableBytes = kDefaultTableBytes;
    // Count each term layer by layer (layer_count.hpp), the table's search only for a term whose
    // layers pass the budget, and for listing solutions by number (which walks the table).
    bool layered = true;
    int threads = 1;            // the layered count's threads (native builds)
    // Layers or nothing (the automatic choice's race, memo/count_race.hpp): a term whose layers
    // pass the budget ends the count Failed (kLayersPastBudget) instead of going to the table.
    bool layersOnly = false;
    // Subproblems with fewer pieces left than this are searched, not remembered: they are cheap
    // to count again and the most numerous, so remembering them costs more than it saves.
    int memoFromPieces = kDefaultMemoFromPieces;
    static constexpr int kDefaultMemoFromPieces = 2;
    static constexpr long long kDefaultTableBytes = 1LL << 30;
    // Once counted, list the solution numbered `solutionNumber` (1-based, in the count's order:
    // the rows at each first open cell in turn; 0: none), or `randomSolutions` distinct
    // solutions drawn uniformly at random from `seed` (all of them when there are fewer), in
    // order of their numbers. A count of classes (-r with Burnside terms) has none to list.
    uint64_t solutionNumber = 0;
    long long randomSolutions = 0;
    uint64_t seed = 0;
    bool picks() const { return solutionNumber > 0 || randomSolutions > 0; }
    // Count the solutions through every placement as well (MemoCounter::placementCounts): the
    // count is made by placement_counts.hpp's two passes, on one thread, keeping every
    // subproblem within maxTableBytes. A count of solutions only: not with redundancy.
    bool placementCounts = false;
};

// The error of a layersOnly count whose layers passed the budget.
constexpr const char* kLayersPastBudget = "the layers pass the memory budget (--memo-mb)";

// --random K: at most this many (each is a grid the front end keeps).
constexpr long long kMaxRandomSolutions = 10000;

// --memo-mb N: the table's budget in MiB. Bounds of the option (the CLI and the Session
// read them here).
constexpr long long kMemoMinMb = 1;
constexpr long long kMemoMaxMb = 1LL << 20;  // 1 TiB: past any machine; larger is a typing error

struct MemoStats {
    long long attempts = 0;      // images tried at a cell
    long long placements = 0;    // images that fit (nodes entered)
    long long pockets = 0;       // placements cut because they left a pocket smaller than every piece
    long long lookups = 0, hits = 0, evictions = 0;
    long long entries = 0;       // subproblems in the table now
    long long tableBytes = 0, maxTableBytes = 0;
    int terms = 0, termsDone = 0;
    int layeredTerms = 0;        // terms counted layer by layer
    int fallbackTerms = 0;       // terms whose layers passed the budget, counted by the table's search
    long long subproblems = 0;   // distinct subproblems the layers expanded
    long long layerBytes = 0;    // the layers' most memory at once
    long long farEntries = 0;    // layer entries whose ways did not fit beside their key (layer_sort.hpp)
    long long picked = 0;        // solutions listed by number or at random (MemoSettings)
    double setupSeconds = 0, searchSeconds = 0;
    long long misses() const { return lookups - hits; }
};

class MemoCounter {
public:
    enum class State { Running, Done, Cancelled, Failed };

    static std::unique_ptr<MemoCounter> begin(const PuzzleDef& def, const MemoSettings& settings,
                                              const ModelLimits& limits = ModelLimits{});
    // Runs the setup or the search for about `budget` image attempts.
    State step(long long budget);
    void cancel() { cancel_.store(true, std::memory_order_relaxed); }
    State state() const { return state_; }
    bool ready() const { return phase_ >= kSearch; }
    const std::string& error() const { return error_; }
    // Failed because a layersOnly count's layers passed the budget (error() says so).
    bool layersPastBudget() const { return layersPastBudget_; }

    uint64_t count() const { return count_; }  // once Done
    // The solutions listed since the last call (MemoSettings::solutionNumber, randomSolutions),
    // in order of their numbers; `number` is 1-based in the count's order.
    struct Picked {
        uint64_t number = 0;
        std::vector<int> grid;  // box index -> instance (Model::gridOf)
    };
    std::vector<Picked> takePicked() { return std::exchange(picked_, {}); }
    // The numbers (1-based) of the solutions listed so far, in order.
    std::vector<uint64_t> pickedNumbers() const;
    // Per image of model(): the solutions that place it (MemoSettings::placementCounts; once
    // Done, empty before). Copies of a shape are interchangeable: an image's count is of the
    // solutions with some copy of its shape on its cells.
    const std::vector<uint64_t>& placementCounts() const { return imageCounts_; }
    const MemoStats& stats() const { return stats_; }
    const Model& model() const { return model_; }
    const MemoSettings& settings() const { return settings_; }
    // The redundancy filter as the enumerating search's -i says it, or "OFF".
    const std::string& redundancyDescription() const { return redundancyText_; }
    // Non-empty when the puzzle was proved impossible before counting (parity or a cell
    // weighting, constraints/weighting.hpp, as the enumerating search proves it): the count is 0.
    const std::string& impossibleReason() const { return impossible_; }
    // The counting terms: "1 count" or "1 count + 2 Burnside terms for 1 symmetric image".
    std::string termsDescription() const;
    // How much of the counting is done, between 0 and 1: the current term's share of the
    // root's rows tried, weighted like the enumerating search's estimate.
    double fractionDone() const;
    // The layered count's figures for the race against the enumerating search: the
    // subproblems expanded in all, and what the current term's layers forecast (-1: no term
    // counted by layers now, or too few of its layers done to tell).
    struct LayerOutlook {
        long long subproblems = 0;      // expanded so far, every term
        double termSubproblems = -1;    // the current term's, forecast (done and to come)
        double termDone = 0;            // the current term's, expanded so far
        double peakBytes = -1;          // its largest layer's bytes, forecast
        int termsAfter = 0;             // terms still to count after the current one
    };
    LayerOutlook layerOutlook() const;
    // The layered count's threads from now on (more, not fewer): the race's probe, on one
    // thread while the enumerating search runs, then on all of them.
    void addThreads(int threads);

private:
    // The partitioned count (parallel_memo.hpp) splits the terms into tasks (memo_tasks.cpp)
    // and gives each thread a counter of its own that counts them.
    friend class ParallelMemo;
    MemoCounter() = default;
    enum Phase { kModel, kSymmetry, kPlan, kProof, kReach, kTerms, kSearch, kPicking, kFinished };
    struct Term {
        int symmetry = -1;           // -1: plain count; else a symmetry index (solutions it fixes)
        int onlyImage = -1;          // the constrained piece restricted to this image (-1: the plan's)
        int group = 0;
    };
    struct Group {
        uint64_t divisor = 1;        // |H|: the group the terms average over
    };
    struct Frame {
        int cell = 0;
        int begin = 0, end = 0;        // its rows
        int pendBegin = 0, pendEnd = 0, pos = 0;  // its pending rows in pending_; pos: the one tried
        uint64_t hash = 0;
        uint64_t total = 0;
        bool remembered = false;  // looked up in the table (and stored there when counted)
        bool batched = false;     // its rows tried (batch())
    };
    // A row of a frame whose subproblem is neither complete nor in the table: descended into.
    struct Pending {
        int row = 0;
        int next = 0;             // the subproblem's first open cell
        uint64_t hash = 0;
        bool remembered = false;
    };
    void fail(std::string message);
    bool setupSome();
    void planTerms(const RedundancyPlan* plan);
    bool startTerm();
    void finishTerm(uint64_t result);
    bool search(long long& budget);
    bool batch(Frame& f, long long& attempts, long long& placements, long long& pockets);
    bool enter(int fromCell, uint64_t& result);
    double treeFraction() const;  // the share of the open subtree searched (frames 0..depth_)
    // The partitioned count's part (memo_tasks.cpp).
    struct Task {
        int term = 0;
        std::vector<int> rows;       // placed from the term's root: row, then its first cell, ...
        double weight = 0;           // its share of the whole count (fractionDone's weights)
    };
    struct TaskPlan {
        std::vector<Task> tasks;     // ordered by term
        std::vector<uint64_t> termSums;  // per term: completions found while splitting
        double settled = 0;          // the share of the count settled while splitting
    };
    bool resetTerm(int term);
    TaskPlan splitTerms(int wanted);
    bool countTask(const Task& task, long long& budget, uint64_t& result);
    void takeTableStats();
    uint64_t combineTerms(const std::vector<uint64_t>& termSums);
    // Listing solutions by number (memo_solutions.cpp).
    bool planPicks();
    bool pickSome(long long& budget);
    bool walkTo(uint64_t n, std::vector<int>& images);
    // The count with the solutions through each placement (memo_placements.cpp).
    bool countPlacements(long long& budget);


    PuzzleDef def_;
    MemoSettings settings_;
    std::unique_ptr<ModelBuilder> builder_;
    std::unique_ptr<RedundancyCandidateSearch> planSearch_;
    Model model_;
    std::vector<Symmetry> symmetries_;
    std::string redundancyText_ = "OFF";
    std::string impossible_;
    void proved(std::string reason);
    std::vector<char> planAllowed_;  // images the plan keeps (the stabilized kept ones out)
    std::vector<Term> terms_;
    std::vector<Group> groups_;
    std::vector<uint64_t> termSums_;  // each term's count, once counted
    int stabilized_ = 0;
    size_t term_ = 0;
    std::vector<int> order_;
    CoverProblem problem_;
    MemoTable table_;
    Phase phase_ = kModel;
    State state_ = State::Running;
    std::string error_;
    bool layersPastBudget_ = false;
    std::atomic<bool> cancel_{false};
    // Polled at every placement: cancel_, or the partitioned count's counter's, which all its
    // threads' counters share (one cancel() stops them all).
    const std::atomic<bool>* stop_ = &cancel_;
    const MemoCounter* setup_ = this;  // whose model, terms and sweep the search reads
    int problemTerm_ = -1;             // the term problem_ was built for (the tasks' counters)
    bool taskMode_ = false;            // counting tasks: the end of the root is the task's
    bool taskOver_ = false;
    uint64_t taskResult_ = 0;
    uint64_t count_ = 0;
    MemoStats stats_;
    std::vector<uint64_t> picks_;    // the numbers to list (0-based), ascending
    size_t pickNext_ = 0;
    std::vector<Picked> picked_;

    std::unique_ptr<PlacementCounts> placements_;  // the term counted with its placements
    PlacementCounts::Stats placementsTaken_;       // its figures already added to stats_
    std::vector<uint64_t> imageCounts_;            // per image, once Done
    std::unique_ptr<LayerCount> layers_;  // the term counted layer by layer (layer_count.hpp)
    LayerCount::Stats layersTaken_;        // its figures already added to stats_
    bool overBudget_ = false;              // the term's layers passed the budget: the table counts it
    bool countLayers(long long& budget);
    // Adds the work a pass (LayerCount, PlacementCounts) did since its figures `taken` were
    // last added to stats_, and keeps `now` as those.
    template <typename Figures>
    void takeWork(const Figures& now, Figures& taken, long long peakBytes) {
        stats_.attempts += now.attempts - taken.attempts;
        stats_.placements += now.placements - taken.placements;
        stats_.pockets += now.pockets - taken.pockets;
        stats_.subproblems += now.subproblems - taken.subproblems;
        stats_.layerBytes = std::max(stats_.layerBytes, peakBytes);
        taken = now;
    }
    std::vector<Frame> frames_;
    std::vector<Pending> pending_;   // the frames' pending rows, frame after frame
    std::vector<uint64_t> pendingKeys_;  // their keys (the table's words each)
    int depth_ = -1;                 // -1: the term's search has not started or is over
    SweepState sweep_;               // the search's state (sweep_state.hpp)
    std::vector<uint64_t> key_;
};

}  // namespace polycube
