// FILA, the fixed image list algorithm (FILA article), entered from DLX when N pieces remain.
//
//   auto fila = makeFila(model, settings, 64);        // 64/128/256-bit occupancy
//   fila->start(input);                                // open cells, live images, copies left
//   while (fila->run(budget) == FilaEngine::Run::Budget) { ...yield... }
//
// The DLX state at the switch (remaining open cells and still-fitting images) becomes a
// small bit-field puzzle. Each cell gets precomputed image list sets (one list per shape):
// images covering the cell that lie in the region, with POF (images touching cells a
// fixed-order heuristic must already have filled are left out) and, with NOF, one set per
// occupancy state of the cell's free neighbours (ILSI), so neighbours that are filled rule
// out whole groups of images at once. Sets are built lazily, the first time a cell and
// neighbour state is asked for. The search (solveFila) keeps the shape warehouse S/N of the
// article and runs on an explicit stack, resumable in slices.
//
// Heuristics: f (first open cell: lowest clear bit, cells numbered shortest-dimension
// first), other fixed orders (x, y, z, l@, a@, A, R@: first open cell of their order),
// e (fewest open neighbours, then fewest fits with early exit) and s (fewest fits).
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "constraints/parity.hpp"
#include "puzzle/model.hpp"
#include "search/heuristics.hpp"
#include "search/trace.hpp"

namespace polycube {

struct FilaInput {
    std::vector<int> openCells;  // model open-cell ids still empty
    std::vector<int> images;     // live image ids, grouped by shape
    std::vector<int> copiesLeft; // per model shape
    int pieces = 0;              // pieces left to place
    int holesParity = 0;         // parity of the open cells (with settings.parity)
    std::vector<int> parityLeft; // pieces left per parity class (with settings.parity)
};

struct FilaSettings {
    HeuristicSchedule schedule;  // heuristic by remaining pieces
    bool nof = false;
    // Extended NOF for fixed orders (F, x, l@...): index each cell's sets by up to this many
    // cells (its free neighbours, then the later cells its images cover most often). 0 =
    // the FILA article's NOF. Set by the automatic configuration.
    int extendedIndex = 0;
    // Dead-cell cut (beyond the articles): on the last F levels, back up as soon as a hole
    // has no open neighbour. Set by the automatic configuration.
    bool deadCellCut = false;
    std::vector<long long>* attempts = nullptr;  // indexed by remaining pieces
    std::vector<long long>* fits = nullptr;
    const std::atomic<bool>* cancel = nullptr;
    // Parity backtrack trigger (first seed article), off when null.
    const ParityMonitor* parity = nullptr;
    std::vector<long long>* parityBacktracks = nullptr;
    // Called with the images FILA placed (first placed first); return false to stop.
    std::function<bool(const int* images, int count)> onSolution;
    // Search trace (-t K), off when null: called from run() with the records of
    // search/trace.hpp (kPlace, kRemove, kChoose, kCandidate and the dead ends kNoFit,
    // kExhausted, kParityTrigger, kDeadCell) for the levels traceLevel selects: K > 0,
    // remaining >= K; K < 0, remaining == -K. Instances of copies of a shape are numbered
    // on from those placed before the switch. Solutions are traced by the caller
    // (onSolution). Tracing makes run() search every level itself (no recursive tail).
    std::function<void(int op, int remaining, int a, int b)> onTrace;
    int traceLevel = 0;
    // Memory the lazily built image list sets may take at most (start() refuses above it):
    // the Solver gives what ModelLimits::maxTotalBytes leaves after the model and matrix.
    long long maxTableBytes = 1LL << 30;
};

// A Monte Carlo estimate: the mean over the probes and the variance of that mean (the
// probes' sample variance / probes), so that estimates can be added and compared.
struct CostEstimate {
    double mean = 0;
    double variance = 0;
    CostEstimate& operator+=(const CostEstimate& o) {
        mean += o.mean;
        variance += o.variance;
        return *this;
    }
};

class FilaEngine {
public:
    enum class Run { Exhausted, Budget, Stopped };
    virtual ~FilaEngine() = default;
    virtual int capacity() const = 0;  // cells the occupancy field holds
    // false (and no search) when the image list sets could need more than
    // settings.maxTableBytes: the caller searches that region another way (DLX).
    virtual bool start(const FilaInput& input) = 0;
    virtual double tableBound() const = 0;  // the last start()'s bound, in bytes
    virtual Run run(long long& budget) = 0;
    // Splitting the search (Solver::startSubproblem / donate). follow: right after start(),
    // place `images` (model image ids) on the first `count` levels, each as the only choice
    // of its level, so run() searches the subtree below them; false (and run() finds
    // nothing) when one cannot be placed there. donate: hand out the untried siblings of the
    // shallowest explicit-stack level that has any, each as `prefix` + FILA's placements
    // above it + the sibling, appended to `out`; they are counted as examined and fitted
    // there and this search skips them. Returns how many (0: only the recursive tail, or
    // nothing, is left).
    virtual bool follow(const int* images, int count) = 0;
    // From now on, a start() on the same input as the last keeps the tables built for it
    // (only the search state starts over). For searches split into subproblems.
    virtual void reuseTables(bool on) = 0;
    // `share` (when given) receives the donated paths' share of the search given to start()
    // (the weights of fractionDone), summed.
    virtual int donate(const std::vector<int>& prefix, std::vector<std::vector<int>>& out, double* share = nullptr) = 0;
    // How much of the search given to start() is done: the weighted backtrack estimate
    // (Knuth 1975; Kilby, Slaney, Thiebaux, Walsh 2006) over the explicit stack. A level's
    // candidates are its image list entries for the shapes it could use (fitting or not),
    // each worth 1/entries of the level's weight; the entries before the current one are
    // done (donated ones too). 1 once exhausted. Between run()s; costs a walk of the stack.
    virtual double fractionDone() const = 0;
    // Knuth's estimator of the cost (list entries examined) of searching the puzzle given to
    // start() (below the images follow() placed, if any): the average over `probes` random root-to-leaf paths through FILA's own choices
    // of the sum, over the path, of (product of branching factors so far) x (entries examined).
    // The random choice at a node depends only on `seed`, the probe, the level and the cells of
    // the fitting images (the least hash of each image's cells wins), not on the order of the
    // pieces or of their images: a puzzle written another way gets the same estimate.
    virtual CostEstimate estimateCost(int probes, uint64_t seed) = 0;
};

// The narrowest engine that holds `cells` cells (64, 128 or 256), or null if none does.
std::unique_ptr<FilaEngine> makeFila(const Model& model, FilaSettings settings, int cells);
// The capacity makeFila gives for `cells` cells (0: none holds them).
constexpr int filaCapacityFor(int cells) { return cells <= 64 ? 64 : cells <= 128 ? 128 : cells <= 256 ? 256 : 0; }
constexpr int kFilaMaxCells = 256;
constexpr int kMaxIndexBits = 8;  // FilaSettings::extendedIndex at most

}  // namespace polycube
