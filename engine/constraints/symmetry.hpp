// Puzzle symmetries, the rotational redundancy filter and solution canonical forms.
//
//   auto syms = puzzleSymmetries(model, /*includeMirror=*/false);
//   RedundancyPlan plan = planRedundancyFilter(model, syms, -1);  // -1: choose the piece
//   // search with only plan.keptImages for plan.shape, then for each solution found:
//   if (plan.accept(model, syms, placedImages)) count it;
//
// Symmetries are the transforms that map the puzzle (box + stationary pieces) onto itself:
// rotations of 3-space. For one-sided puzzles these are the quarter turns about z and, when
// the piece set is closed under mirroring, turning the board over (which turns each piece
// into its mirror partner). With includeMirror, also reflections of 3-space, acting on
// pieces as their mirror images (only when the piece set is closed under mirroring).
// The identity is always symmetry 0.
//
// The redundancy filter (first seed article, "Rotational Redundancy Constraint
// Violations") keeps one image per symmetry orbit of a uniquely shaped piece. When a kept
// image is itself symmetric (non-trivial stabilizer H), solutions through it can still be
// related by H; accept() then keeps only the lexicographically least member of each such
// H-orbit, so counts are exact: each class of solutions equivalent under the symmetries is
// counted once, with no memory.
#pragma once
#include <string>
#include <cstdint>
#include <vector>

#include "geometry/geometry.hpp"
#include "puzzle/model.hpp"

namespace polycube {

struct Symmetry {
    Rotation transform;
    bool mirrorsPieces = false;  // pieces become their mirror partners (reflections; board flips of one-sided sets)
    std::vector<int> cellMap;   // open cell -> open cell
    std::vector<int> shapeMap;  // shape -> shape (mirror partner for reflections)
};

std::vector<Symmetry> puzzleSymmetries(const Model& model, bool includeMirror);
// Whether the mobile pieces are closed under mirroring (each shape's mirror is a shape with
// the same number of copies).
bool mirrorClosed(const Model& model);
// Image that symmetry `g` maps image `image` to (-1 only if the model is inconsistent).
int mapImage(const Model& model, const Symmetry& g, int image);
// The same with the caller's buffer for the mapped cells (no allocation per call).
int mapImage(const Model& model, const Symmetry& g, int image, std::vector<int>& cells);

// Solution codes: one 32-bit code per open cell = (shape << 16) | rank, where rank numbers
// the placed pieces in order of their first cell. Equal codes <=> same solution up to
// swapping interchangeable copies.
class SolutionCoder {
public:
    explicit SolutionCoder(const Model& model) : model_(&model) {}
    // `placed`: image ids of one solution (any order).
    void encode(const std::vector<int>& placed, std::vector<uint32_t>& out);
    void encodeTransformed(const std::vector<int>& placed, const Symmetry& g, std::vector<uint32_t>& out);
    // Least code over the given symmetries (for -u).
    void canonical(const std::vector<int>& placed, const std::vector<Symmetry>& syms, std::vector<uint32_t>& out);

private:
    void fillOwner(const std::vector<int>& placed, const Symmetry* g);
    void codeFromOwner(const std::vector<int>& placed, const Symmetry* g, std::vector<uint32_t>& out);
    const Model* model_;
    std::vector<int> owner_;
    std::vector<int> rank_;
};

struct RedundancyPlan {
    int shape = -1;                          // constrained shape, -1: none
    std::vector<int> removedImages;          // images of `shape` to drop before the search
    std::vector<int> keptImages;
    // For kept images with a non-trivial stabilizer: image -> symmetry indices fixing it.
    std::vector<std::pair<int, std::vector<int>>> stabilizers;
    bool needsGlobalCheck = false;           // no usable piece: canonical check over all symmetries
    std::string description;                 // for -i output

    // Whether a found solution is the representative of its class (see header comment).
    bool accept(const Model& model, const std::vector<Symmetry>& syms, const std::vector<int>& placed,
                SolutionCoder& coder) const;
};

// forcedShape: -1 chooses automatically (best redundancy elimination, then fewest kept
// images); otherwise that shape. Returns an error for a shape that cannot be used.
// `candidates` (when given) receives redundancyCandidates' list the automatic choice took
// the first of (empty for a forced shape): the solver probes them, and computing them twice
// would be half of 10x6's setup.
Result<RedundancyPlan> planRedundancyFilter(const Model& model, const std::vector<Symmetry>& syms, int forcedShape,
                                            std::vector<RedundancyPlan>* candidates = nullptr);
// The plans of every usable shape that leaves the least redundancy (best first by the
// rule above): the candidates an automatic choice can pick from.
std::vector<RedundancyPlan> redundancyCandidates(const Model& model, const std::vector<Symmetry>& syms);
// The automatic choice from redundancyCandidates' list (its first; with none, the global
// check). `candidates` (when given) receives the list.
RedundancyPlan redundancyPlanFrom(std::vector<RedundancyPlan> list, const std::vector<Symmetry>& syms,
                                  std::vector<RedundancyPlan>* candidates = nullptr);

// redundancyCandidates in steps of one shape each, for the solver's setup units: every image
// of a shape is mapped by every symmetry, which on 100,000s of images takes most of a second in one go
// (tests/hostile/random100.txt), and a unit must end within a slice.
//   RedundancyCandidateSearch search(model, syms);
//   while (search.step()) {}          // each call plans one shape (or finds it unusable)
//   std::vector<RedundancyPlan> list = search.take();
// The model and symmetries must outlive it.
class RedundancyCandidateSearch {
public:
    RedundancyCandidateSearch(const Model& model, const std::vector<Symmetry>& syms);
    bool step();  // false once every shape is done (then take())
    std::vector<RedundancyPlan> take();

private:
    const Model* model_;
    const std::vector<Symmetry>* syms_;
    std::vector<double> fillOrder_;
    int next_ = 0;
    std::vector<std::pair<long, RedundancyPlan>> all_;  // (residual redundancy, plan) per usable shape
};

// Exact-duplicate filter for -u: remembers canonical codes of accepted solutions.
// -u: remembers the solutions seen, up to symmetry. Each is remembered by a 128-bit hash of
// its canonical code (16 bytes in an open-addressing table) instead of the code itself (4
// bytes per cell: 360 bytes for 18x5, so the 686,628 solutions of one-sided pentominoes in
// 18x5 would take ~300 MB). Two different solutions collide with probability about n^2 / 2^129 for
// n remembered (1e-25 for ten million): far below the chance of a hardware fault. Memory is
// bounded: it keeps capacity() = maxBytes / 32 solutions (8,388,608 in 256 MiB), and insert()
// answers Full past them; the solver then stops with an error naming the limit (-r counts the
// same classes with no memory at all). The table grows so that it and the one it replaces
// never take more than maxBytes together (grow()).
class UniqueFilter {
public:
    enum class Insert { New, Seen, Full };
    explicit UniqueFilter(long long maxBytes = 256LL << 20) : maxBytes_(maxBytes) {}
    void setMaxBytes(long long maxBytes) { maxBytes_ = maxBytes; }
    // New if no solution equivalent to `placed` was seen before (and remembers it).
    Insert insert(const std::vector<int>& placed, const std::vector<Symmetry>& syms, SolutionCoder& coder);
    size_t size() const { return count_; }
    size_t capacity() const { return static_cast<size_t>(maxBytes_ / (2 * static_cast<long long>(sizeof(Key)))); }
    long long bytes() const { return static_cast<long long>(slots_.size() * sizeof(Key)); }
    // The most the tables took at once (a table and the one it replaced, while growing).
    long long peakBytes() const { return peakBytes_; }
    long long maxBytes() const { return maxBytes_; }

private:
    struct Key {
        uint64_t a = 0, b = 0;  // (0, 0): an empty slot
    };
    static Key hashCode(const std::vector<uint32_t>& code);
    // The slot where a key's probe starts: its hash's high bits scaled to the table's size
    // (any size, not only powers of two).
    size_t home(const Key& k) const { return static_cast<size_t>(((k.a >> 32) * slots_.size()) >> 32); }
    bool grow();  // a larger table; false when none fits in maxBytes_
    std::vector<Key> slots_;
    size_t count_ = 0;
    long long maxBytes_;
    long long peakBytes_ = 0;
    std::vector<uint32_t> code_;
};

}  // namespace polycube
