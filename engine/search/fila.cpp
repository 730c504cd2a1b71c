// FILA's search (search/fila.hpp says what it does and how it is entered). Over 600 lines for a
// reason: it is one class template, instantiated for each occupancy width, whose hot loop
// (runStack, solveRecursive, select, countFits and their fit tests) calls across its members on
// every node; kept in one translation unit, those calls inline (a split into files would put
// the template's parts in headers anyway).
#include "search/fila.hpp"

#include "common/hash.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdlib>
#include <numeric>
#include <unordered_map>
#if defined(__BMI2__) || defined(__AVX512F__)
#include <immintrin.h>  // _pext_u64 (NOF index), AVX-512 fit tests
#endif
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>  // WebAssembly SIMD fit tests
#endif

#include "search/bits.hpp"

namespace polycube {

namespace {

// Neighbour directions in ILSI bit order (FILA article): -x, -y, -z, +x, +y, +z.
const Vec3 kDirections[6] = {{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

template <int W>
class Fila final : public FilaEngine {
public:
    // The last levels run as a plain recursion (solveRecursive / solveFirst): see run().
    static constexpr int kRecursiveLevels = 7;

    Fila(const Model& model, FilaSettings settings) : model_(model), settings_(std::move(settings)) {
        const int n = model.openCellCount();
        neighbours_.assign(n, {});
        for (int c = 0; c < n; ++c)
            for (int d = 0; d < 6; ++d) {
                Vec3 p = model.openCellPos[c] + kDirections[d];
                neighbours_[c][d] = model.inBox(p) ? model.openCellOfBox[model.boxIndex(p)] : -1;
            }
        Heuristic first;
        first.kind = HeuristicKind::First;
        firstKey_ = cellKeys(first, model);
        // Box numbering: when the whole box fits the bit field, bits are box cells in "first
        // open cell" order (shortest dimension fastest), so a neighbour is a fixed shift away
        // and the E heuristic counts open neighbours of all cells at once (bit-sliced adds).
        boxMode_ = model.boxCellCount() <= 64 * W;
        if (boxMode_) {
            const int dims[3] = {model.xDim, model.yDim, model.zDim};
            int axes[3] = {0, 1, 2};
            std::stable_sort(axes, axes + 3, [&](int a, int b) { return dims[a] < dims[b]; });
            int stride[3];
            stride[axes[0]] = 1;
            stride[axes[1]] = dims[axes[0]];
            stride[axes[2]] = dims[axes[0]] * dims[axes[1]];
            boxMask_ = Bits<W>::zero();
            for (int d = 0; d < 6; ++d) valid_[d] = Bits<W>::zero();
            for (int b = 0; b < model.boxCellCount(); ++b) {
                Vec3 p = model.boxPos(b);
                const int bit = p.x * stride[0] + p.y * stride[1] + p.z * stride[2];
                boxMask_.set(bit);
                for (int d = 0; d < 6; ++d)
                    if (model.inBox(p + kDirections[d])) valid_[d].set(bit);
            }
            boxDirections_ = 0;
            for (int d = 0; d < 6; ++d) {
                const Vec3& v = kDirections[d];
                shift_[d] = v.x * stride[0] + v.y * stride[1] + v.z * stride[2];
                if (valid_[d].any()) boxDirection_[boxDirections_++] = d;  // flat boxes: 4
            }
            shortShifts_ = true;
            for (int i = 0; i < boxDirections_; ++i)
                shortShifts_ &= shift_[boxDirection_[i]] != 0 && std::abs(shift_[boxDirection_[i]]) < 64;
        }
        for (const auto& e : settings_.schedule.entries) {
            Slot slot;
            slot.heuristic = e.heuristic;
            if (e.heuristic.fixedOrder()) slot.keys = cellKeys(e.heuristic, model);
            slots_.push_back(std::move(slot));
        }
        const int pieces = model.mobileCount();
        slotAt_.assign(pieces + 1, 0);
        for (int p = 0; p <= pieces; ++p)
            for (size_t k = 0; k < settings_.schedule.entries.size(); ++k)
                if (p <= settings_.schedule.entries[k].threshold) slotAt_[p] = static_cast<int>(k);
        frames_.resize(pieces + 2);
        placed_.resize(pieces + 1);
        tracing_ = static_cast<bool>(settings_.onTrace);
        traceTarget_.assign(pieces + 2, 0);
        traceCandidates_.assign(pieces + 2, 0);
    }

    int capacity() const override { return 64 * W; }

    bool start(const FilaInput& in) override {
        if (reuseTables_) {
            // Subproblems taken one after another often start FILA on the same region (the
            // siblings one level donated): the lists and the lazily built sets are still
            // right, only the stack and the warehouse start over. Tetris Cube -j 2: one
            // restart in about 5 instead of all.
            if (in.pieces == lastInput_.pieces && in.holesParity == lastInput_.holesParity &&
                in.openCells == lastInput_.openCells && in.copiesLeft == lastInput_.copiesLeft &&
                in.parityLeft == lastInput_.parityLeft && in.images == lastInput_.images) {
                restartStack(in);
                return true;
            }
            lastInput_ = FilaInput{};  // remembered only once this start has built its tables
        }
        pieces_ = in.pieces;
        // Bits in "first open cell" order, so the F heuristic is a count-trailing-zeros. Bits
        // outside the region (filled, stationary, beyond the box) start out occupied.
        std::vector<int> cells = in.openCells;
        std::stable_sort(cells.begin(), cells.end(), [&](int a, int b) { return firstKey_[a] < firstKey_[b]; });
        bitOfCell_.assign(model_.openCellCount(), -1);
        regionBits_.clear();
        Bits<W> start = ~Bits<W>::zero();
        for (size_t i = 0; i < cells.size(); ++i) {
            const int b = boxMode_ ? static_cast<int>(firstKey_[cells[i]]) : static_cast<int>(i);
            bitOfCell_[cells[i]] = b;
            regionBits_.push_back(b);
            start.w[b >> 6] &= ~(1ULL << (b & 63));
        }
        const int n = boxMode_ ? model_.boxCellCount() : static_cast<int>(cells.size());
        cells_ = n;
        cellOfBit_.assign(n, -1);
        for (size_t i = 0; i < cells.size(); ++i) cellOfBit_[regionBits_[i]] = cells[i];

        // Neighbour bits within the region and the E heuristic's neighbour masks.
        nbBits_.assign(n, {-1, -1, -1, -1, -1, -1});
        nbMask_.assign(n, Bits<W>::zero());
        for (int b : regionBits_)
            for (int d = 0; d < 6; ++d) {
                int c = neighbours_[cellOfBit_[b]][d];
                int nb = c >= 0 ? bitOfCell_[c] : -1;
                nbBits_[b][d] = nb;
                if (nb >= 0) nbMask_[b].set(nb);
            }

        // Shapes with copies left: the warehouse of solveFila.
        localShapeOf_.assign(model_.shapeCount(), -1);
        shapeCount_ = 0;
        copies_.clear();
        for (int s = 0; s < model_.shapeCount(); ++s)
            if (in.copiesLeft[s] > 0) {
                localShapeOf_[s] = shapeCount_++;
                copies_.push_back(in.copiesLeft[s]);
            }
        shapeWords_ = (shapeCount_ + 63) / 64;
        available_.assign(shapeWords_, 0);
        for (int ls = 0; ls < shapeCount_; ++ls) available_[ls >> 6] |= 1ULL << (ls & 63);

        // Images: masks and per-cell cover lists (kept in shape order).
        imageMask_.clear();
        imageParity_.clear();
        imageShape_.clear();
        imageId_.clear();
        std::vector<std::vector<int>> cover(n);
        std::vector<int> order(in.images.begin(), in.images.end());
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return localShapeOf_[model_.images[a].shape] < localShapeOf_[model_.images[b].shape];
        });
        for (int img : order) {
            const Image& image = model_.images[img];
            if (localShapeOf_[image.shape] < 0) continue;
            Bits<W> mask = Bits<W>::zero();
            bool inside = true;
            for (int c : image.cells) {
                if (bitOfCell_[c] < 0) inside = false;
                else mask.set(bitOfCell_[c]);
            }
            if (!inside) continue;
            const int local = static_cast<int>(imageId_.size());
            imageParity_.push_back(image.parity);
            imageMask_.push_back(mask);
            imageShape_.push_back(localShapeOf_[image.shape]);
            imageId_.push_back(img);
            for (int c : image.cells) cover[bitOfCell_[c]].push_back(local);
        }
        coverStart_.assign(n + 1, 0);
        coverList_.clear();
        for (int b = 0; b < n; ++b) {
            coverStart_[b] = static_cast<int>(coverList_.size());
            coverList_.insert(coverList_.end(), cover[b].begin(), cover[b].end());
        }
        coverStart_[n] = static_cast<int>(coverList_.size());

        // Per heuristic slot: fill order, POF masks, the free neighbours that index the sets.
        for (Slot& slot : slots_) {
            const bool fixed = slot.heuristic.fixedOrder();
            slot.order = regionBits_;  // ascending bits: the F order
            if (fixed && slot.heuristic.kind != HeuristicKind::First)
                std::stable_sort(slot.order.begin(), slot.order.end(),
                                 [&](int a, int b) { return slot.keys[cellOfBit_[a]] < slot.keys[cellOfBit_[b]]; });
            std::vector<int> pos(n, -1);
            for (size_t i = 0; i < slot.order.size(); ++i) pos[slot.order[i]] = static_cast<int>(i);
            slot.pof.assign(n, Bits<W>::zero());
            if (fixed) {
                Bits<W> before = Bits<W>::zero();
                for (int b : slot.order) {
                    slot.pof[b] = before;
                    before.set(b);
                }
            }
            // Index bits per cell: the free neighbours (NOF), extended for fixed orders up
            // to settings_.extendedIndex cells while the lazily built sets stay bounded.
            int indexBits = std::min(settings_.extendedIndex, kMaxIndexBits);
            while (indexBits > 6 && static_cast<double>(n) * (1 << indexBits) * (shapeCount_ + 1) > 4e6) --indexBits;
            std::vector<int> freq(n, 0), touched;  // extendIndex's scratch
            // With the extended index (up to 256 sets per cell): the images each cell's sets
            // are built from, those covering it less (POF) those touching a cell the order
            // fills first. Otherwise sets are built from the cover lists directly: on big
            // boards FILA starts at every DLX node of its depth and this would cost more
            // than it saves (box-in-a-diamond).
            slot.useList = settings_.nof && fixed && settings_.extendedIndex > 0;
            slot.list.clear();
            slot.listStart.assign(n + 1, 0);
            for (int b = 0; b < n && slot.useList; ++b) {
                slot.listStart[b] = static_cast<int>(slot.list.size());
                for (int i = coverStart_[b]; i < coverStart_[b + 1]; ++i)
                    if (!imageMask_[coverList_[i]].intersects(slot.pof[b])) slot.list.push_back(coverList_[i]);
            }
            slot.listStart[n] = static_cast<int>(slot.list.size());
            slot.index.assign(n, {});
            slot.indexBits.assign(n, {});
            int total = 0;
            for (int b = 0; b < n; ++b) {
                IndexCells& cell = slot.index[b];
                int* const bits = slot.indexBits[b].data();
                cell.base = total;
                int k = 0;
                if (settings_.nof)
                    for (int d = 0; d < 6; ++d) {
                        int nb = nbBits_[b][d];
                        if (nb < 0 || (fixed && pos[nb] < pos[b])) continue;  // absent, or known filled
                        bits[k++] = nb;
                    }
                if (settings_.nof && fixed) k = extendIndex(slot, b, bits, k, indexBits, freq, touched);
                std::sort(bits, bits + k);  // z bit i = i-th lowest (pext)
                cell.count = k;
                if (W == 1)
                    for (int i = 0; i < k; ++i) cell.gather |= 1ULL << bits[i];
                int states = 1 << k;
#if !defined(__BMI2__)
                if (W == 1 && k > 0) {
                    cell.magic = magicIndexFor(cell.gather);
                    if (cell.magic.found()) states = 1 << cell.magic.bits();
                }
#endif
                total += states;
            }
            slot.setIndex.assign(total, -1);
        }
        // The image list sets are built lazily, but a long search can reach every (cell,
        // neighbour state): bound what they could take before searching, and refuse (the
        // caller keeps DLX for this region) past the limit instead of running out of memory.
        // An image of a cell's list that covers j of its k index cells is in the sets of the
        // 2^(k-j) states where those j cells are free (most images cover several: the index
        // cells are the ones they cover most). Entries: an occupancy mask and two ints each;
        // sets: offsets and a shape mask. Vectors grow by doubling: twice that.
        double entries = 0, sets = 0;
        for (const Slot& slot : slots_)
            for (int b = 0; b < n; ++b) {
                const int k = slot.index[b].count;
                Bits<W> indexMask = Bits<W>::zero();
                for (int i = 0; i < k; ++i) indexMask.set(slot.indexBits[b][i]);
                const int* images = slot.useList ? slot.list.data() : coverList_.data();
                const int first = slot.useList ? slot.listStart[b] : coverStart_[b];
                const int last = slot.useList ? slot.listStart[b + 1] : coverStart_[b + 1];
                for (int i = first; i < last; ++i)
                    entries += static_cast<double>(1 << imageMask_[images[i]].countClearIn(indexMask));
                sets += static_cast<double>(1 << k);
            }
        tableBound_ = 2 * (entries * (sizeof(Bits<W>) + 8) + sets * (4.0 * (shapeCount_ + 1) + 8.0 * shapeWords_));
        if (tableBound_ > static_cast<double>(settings_.maxTableBytes)) return false;
        deadCellCut_ = settings_.deadCellCut && boxMode_;
        for (int s = 0; s < model_.shapeCount(); ++s)
            if (localShapeOf_[s] >= 0 && model_.shapes[s].size < 2) deadCellCut_ = false;
        // solveFirst needs F on every recursive level, one shape word and no parity trigger.
        firstSlot_ = nullptr;
        if (shapeWords_ == 1 && !settings_.parity) {
            const int k = slotAt_[1];
            firstFrom_ = 0;
            if (slots_[k].heuristic.kind == HeuristicKind::First)
                while (firstFrom_ < std::min(kRecursiveLevels, pieces_) && slotAt_[firstFrom_ + 1] == k) ++firstFrom_;
            if (firstFrom_ > 0) {
                firstSlot_ = &slots_[k];
            }
        }
        sets_.clear();
        setMasks_.clear();
        entryMask_.clear();
        entryImage_.clear();
        entryModelImage_.clear();

        depth_ = 0;
        followed_ = 0;
        stopped_ = false;
        Frame& f = frames_[0];
        startO_ = start;
        f.o = start;
        f.parity = in.holesParity;
        parityLeft_ = in.parityLeft;
        shapeParityClass_.assign(shapeCount_, -1);
        if (settings_.parity)
            for (int s = 0; s < model_.shapeCount(); ++s)
                if (localShapeOf_[s] >= 0) shapeParityClass_[localShapeOf_[s]] = settings_.parity->classOfShape(s);
        f.stage = kEnter;
        f.orderPos = 0;
        f.orderSlot = -1;
        if (reuseTables_) lastInput_ = in;  // not after a refusal (tables too big: DLX searched it)
        return true;
    }

    double tableBound() const override { return tableBound_; }

    void reuseTables(bool on) override {
        if (on == reuseTables_) return;
        reuseTables_ = on;
        lastInput_ = FilaInput{};  // what start() built before is not known to be current
    }

    Run run(long long& budget) override { return tracing_ ? runStack<true>(budget) : runStack<false>(budget); }

    // The explicit-stack search. With Trace every level runs here (no recursive tail) and
    // each placement is reported, and each backtrack from it (a frame returning to its parent).
    template <bool Trace>
    Run runStack(long long& budget) {
        auto& attempts = *settings_.attempts;
        auto& fits = *settings_.fits;
        // Leave the current frame: back in the parent, its placement is taken back.
        // The levels follow() placed are the caller's: it traces them.
        auto pop = [&] {
            --depth_;
            if (Trace && depth_ >= followed_) tracePlacement(trace::kRemove, pieces_ - depth_, placed_[depth_]);
        };
        while (true) {
            if (depth_ < 0) return Run::Exhausted;
            Frame& f = frames_[depth_];
            const int p = pieces_ - depth_;
            if (f.stage == kEnter) {
                if (p == 0) {
                    if (!settings_.onSolution(placed_.data(), pieces_)) return Run::Stopped;
                    pop();
                    continue;
                }
                if (settings_.parity && !settings_.parity->achievable(parityLeft_.data(), f.parity)) {
                    (*settings_.parityBacktracks)[p]++;
                    if (Trace) traceRecord(trace::kParityTrigger, p, f.parity, 0);
                    pop();
                    continue;
                }
                if (deadCellCut_ && firstSlot_ && p >= 2 && p <= firstFrom_ && hasDeadCell(f.o)) {
                    // solveFirst's cut, so that a level is the same search whether it runs here
                    // or in the recursion (traced; the first level FILA chooses itself; a
                    // subproblem's, whose path ended one level higher or lower).
                    if (Trace) traceRecord(trace::kDeadCell, p, boxCellOfBit(deadCellBit(f.o)), 0);
                    pop();
                    continue;
                }
                // Not on the first level FILA chooses itself: its siblings stay on the explicit
                // stack, where they can be donated and the slice can end between them.
                if (!Trace && p <= kRecursiveLevels && depth_ > followed_) {
                    // The last few levels, where nearly all the work is, run as a plain recursion
                    // (state in registers, no stage dispatch). Such a subtree is small (at 7 pieces
                    // left: at most about 14,000 fits, a millisecond, in every catalog puzzle;
                    // 7 instead of 5 levels: 10x6 3% faster), so slices stay short and cancel is
                    // still seen between subtrees.
                    if (settings_.cancel && settings_.cancel->load(std::memory_order_relaxed)) return Run::Budget;
                    const long long before = fitsSeen_;
                    if (firstSlot_ && p <= firstFrom_) solveFirstFrom(p, f.o);
                    else solveRecursive(p, f);
                    flushLevelCounters(p);
                    budget -= fitsSeen_ - before;
                    if (stopped_) return Run::Stopped;
                    --depth_;
                    if (budget <= 0) {
                        if (depth_ < 0) return Run::Exhausted;
                        return Run::Budget;
                    }
                    continue;
                }
                f.set = select<Trace>(p, f);
                if (Trace) traceChoice(p, f);
                if (f.set < 0) {
                    if (Trace) traceRecord(trace::kNoFit, p, traceTarget_[depth_], 0);
                    pop();
                    continue;
                }
                f.word = 0;
                f.pending = available_[0] & setMasks_[static_cast<size_t>(f.set) * shapeWords_];
                f.stage = kShape;
            }
            if (f.stage == kShape) {
                // The shapes with copies left whose list at this cell is not empty: the
                // warehouse of solveFila (lines 4-9) as a bit mask, so empty lists and used
                // shapes cost nothing.
                while (f.pending == 0) {
                    if (++f.word >= shapeWords_) break;
                    f.pending = available_[f.word] & setMasks_[static_cast<size_t>(f.set) * shapeWords_ + f.word];
                }
                if (f.pending == 0) {
                    if (Trace && depth_ >= followed_) {
                        const int tried = traceCandidates_[depth_];
                        traceRecord(tried == 0 ? trace::kNoFit : trace::kExhausted, p, traceTarget_[depth_], tried);
                    }
                    pop();
                    continue;
                }
                const int s = f.word * 64 + __builtin_ctzll(f.pending);
                f.pending &= f.pending - 1;
                if (--copies_[s] == 0) available_[s >> 6] &= ~(1ULL << (s & 63));
                if (shapeParityClass_[s] >= 0) parityLeft_[shapeParityClass_[s]]--;
                const int* offsets = &sets_[static_cast<size_t>(f.set) * (shapeCount_ + 1)];
                f.shape = s;
                f.pos = offsets[s];
                f.end = offsets[s + 1];
                f.stage = kImage;
            }
            // kImage: try the images of the current shape (solveFila lines 10-13).
            bool descended = false;
            const Bits<W>* e = entryMask_.data() + f.pos;
            const Bits<W>* const end = entryMask_.data() + f.end;
            const Bits<W>* const first = e;
            while (e < end) {
                if (f.o.intersects(*e)) {
                    ++e;
                    continue;
                }
                if (budget <= 0 || (settings_.cancel && settings_.cancel->load(std::memory_order_relaxed))) {
                    attempts[p] += e - first;
                    f.pos = static_cast<int>(e - entryMask_.data());
                    return Run::Budget;
                }
                --budget;
                fits[p]++;
                placed_[pieces_ - p] = imageId_[entryImage_[e - entryMask_.data()]];
                Frame& child = frames_[depth_ + 1];
                child.o = f.o | *e;
                child.parity = f.parity - imageParity_[entryImage_[e - entryMask_.data()]];
                child.stage = kEnter;
                child.orderPos = f.orderPos;
                child.orderSlot = f.orderSlot;
                ++e;
                descended = true;
                break;
            }
            attempts[p] += e - first;
            f.pos = static_cast<int>(e - entryMask_.data());
            if (descended) {
                if (Trace) tracePlacement(trace::kPlace, p, placed_[depth_]);
                ++depth_;
                continue;
            }
            // Shape exhausted: undo the warehouse bookkeeping (solveFila lines 14-17).
            if (copies_[f.shape]++ == 0) available_[f.shape >> 6] |= 1ULL << (f.shape & 63);
            if (shapeParityClass_[f.shape] >= 0) parityLeft_[shapeParityClass_[f.shape]]++;
            f.stage = kShape;
        }
    }

    bool follow(const int* images, int count) override {
        for (int k = 0; k < count; ++k) {
            const int p = pieces_ - depth_;
            Frame& f = frames_[depth_];
            if (p <= 0 || f.stage != kEnter) return abandon();
            // The search itself would have cut this node (parity trigger): not a path of it.
            if (settings_.parity && !settings_.parity->achievable(parityLeft_.data(), f.parity)) return abandon();
            int local = -1;
            for (size_t i = 0; i < imageId_.size() && local < 0; ++i)
                if (imageId_[i] == images[k]) local = static_cast<int>(i);
            if (local < 0) return abandon();
            const int s = imageShape_[local];
            if (copies_[s] == 0 || f.o.intersects(imageMask_[local])) return abandon();
            // The level as kImage leaves it after trying its last image: when the child
            // returns, the shape is put back and nothing else is tried (no entries left, no
            // shapes pending, past the last shape word).
            if (--copies_[s] == 0) available_[s >> 6] &= ~(1ULL << (s & 63));
            if (shapeParityClass_[s] >= 0) parityLeft_[shapeParityClass_[s]]--;
            f.set = -1;
            f.shape = s;
            f.pos = f.end = 0;
            f.pending = 0;
            f.word = shapeWords_;
            f.stage = kImage;
            placed_[depth_] = images[k];
            Frame& child = frames_[depth_ + 1];
            child.o = f.o | imageMask_[local];
            child.parity = f.parity - imageParity_[local];
            child.stage = kEnter;
            child.orderSlot = -1;  // fixed orders find their place again from the start
            child.orderPos = 0;
            ++depth_;
            ++followed_;
        }
        return true;
    }

    int donate(const std::vector<int>& prefix, std::vector<std::vector<int>>& out, double* share) override {
        if (tracing_) return 0;
        const std::vector<double> weights = share ? levelWeights() : std::vector<double>{};
        for (int d = 0; d <= depth_; ++d) {
            Frame& f = frames_[d];
            // A level with a child in progress, or (the top) one stopped by the budget in the
            // middle of its list, is in kImage; kEnter has not chosen yet.
            if (f.stage != kImage) continue;
            const int p = pieces_ - d;
            long long examined = 0;
            int given = 0;
            forEachRemainingRange(d, [&](int begin, int end) {
                examined += end - begin;
                for (int i = begin; i < end; ++i) {
                    if (f.o.intersects(entryMask_[i])) continue;
                    std::vector<int> path = prefix;
                    path.insert(path.end(), placed_.begin(), placed_.begin() + d);
                    path.push_back(entryModelImage_[i]);
                    out.push_back(std::move(path));
                    ++given;
                }
            });
            (*settings_.attempts)[p] += examined;
            (*settings_.fits)[p] += given;
            // The share of the entries handed out; the non-fitting ones examined here are done
            // (no subtree), and fractionDone counts them so.
            if (share && f.set >= 0) *share += weights[d] * static_cast<double>(given) / levelEntries(d);
            // Nothing left to try at this level (as follow() leaves a path level).
            f.pos = f.end;
            f.pending = 0;
            f.word = shapeWords_;
            if (given > 0) return given;
        }
        return 0;
    }

    double fractionDone() const override {
        if (depth_ < 0) return 1.0;
        const std::vector<double> weights = levelWeights();
        double done = 0;
        for (int d = 0; d <= depth_; ++d) {
            const Frame& f = frames_[d];
            if (f.stage == kEnter || f.set < 0) continue;  // nothing chosen yet / a path level (one choice)
            long long remaining = 0;
            forEachRemainingRange(d, [&](int begin, int end) { remaining += end - begin; });
            const double entries = levelEntries(d);
            const long long inProgress = d < depth_ ? 1 : 0;  // the entry of the child being searched
            done += weights[d] * std::max(0.0, entries - static_cast<double>(remaining + inProgress)) / entries;
        }
        return std::min(1.0, done);
    }

    CostEstimate estimateCost(int probes, uint64_t seed) override {
        if (depth_ < 0) return CostEstimate{0, 0};  // follow() could not place its path: no subtree
        double sum = 0, sumSquares = 0;
        std::vector<int> fitting, taken;
        // From where start() and follow() left the stack: below a followed path, its subtree.
        for (int k = 0; k < probes; ++k) {
            Frame f = frames_[depth_];
            double product = 1, total = 0;
            for (int p = pieces_ - depth_; p > 0; --p) {
                const int set = select(p, f);
                total += product;  // the node itself
                if (set < 0) break;
                fitting.clear();
                long scanned = 0;
                forEachUsableShape(set, [&](int, int begin, int end) {
                    for (int i = begin; i < end; ++i)
                        if (!f.o.intersects(entryMask_[i])) fitting.push_back(i);
                    scanned += end - begin;
                    return true;
                });
                total += product * static_cast<double>(scanned);
                if (fitting.empty()) break;
                product *= static_cast<double>(fitting.size());
                // A uniform choice that ignores the list's order: the fitting image whose cells
                // hash least under this probe's and level's salt.
                const uint64_t salt = mix64(seed + 0x9e3779b97f4a7c15ULL * (static_cast<uint64_t>(k) * 64 + p));
                int i = fitting.front();
                uint64_t least = UINT64_MAX;
                for (int candidate : fitting) {
                    const uint64_t h = hashWords(entryMask_[candidate].w, W, salt);
                    if (h < least) least = h, i = candidate;
                }
                const int s = imageShape_[entryImage_[i]];
                if (--copies_[s] == 0) available_[s >> 6] &= ~(1ULL << (s & 63));
                taken.push_back(s);
                f.o = f.o | entryMask_[i];
            }
            for (auto it = taken.rbegin(); it != taken.rend(); ++it)
                if (copies_[*it]++ == 0) available_[*it >> 6] |= 1ULL << (*it & 63);
            taken.clear();
            sum += total;
            sumSquares += total * total;
        }
        CostEstimate e;
        e.mean = sum / probes;
        if (probes > 1) e.variance = std::max(0.0, (sumSquares - sum * e.mean) / (probes - 1)) / probes;
        return e;
    }

private:
    // Copies of each shape as level d saw them when it began (the shapes placed at levels d
    // and below put back).
    std::vector<int> copiesAtEntry(int d) const {
        std::vector<int> copies = copies_;
        for (int g = d; g <= depth_; ++g)
            if (frames_[g].stage == kImage) copies[frames_[g].shape]++;
        return copies;
    }
    // The entry ranges level d has still to try: the rest of the current shape's list, the
    // shapes still pending in the current mask word, then those of the later words that the
    // level could use.
    template <typename Fn>
    void forEachRemainingRange(int d, Fn fn) const {
        const Frame& f = frames_[d];
        fn(f.pos, f.end);
        if (f.set < 0 || f.word >= shapeWords_) return;
        const int* offsets = &sets_[static_cast<size_t>(f.set) * (shapeCount_ + 1)];
        for (uint64_t m = f.pending; m; m &= m - 1) {
            const int s = f.word * 64 + __builtin_ctzll(m);
            fn(offsets[s], offsets[s + 1]);
        }
        if (f.word + 1 >= shapeWords_) return;
        const std::vector<int> copies = copiesAtEntry(d);
        for (int s = (f.word + 1) * 64; s < shapeCount_; ++s)
            if (copies[s] > 0 && (setMasks_[static_cast<size_t>(f.set) * shapeWords_ + (s >> 6)] >> (s & 63) & 1))
                fn(offsets[s], offsets[s + 1]);
    }
    // Level d's candidates for fractionDone: the list entries of every shape it could use.
    double levelEntries(int d) const {
        const Frame& f = frames_[d];
        const int* offsets = &sets_[static_cast<size_t>(f.set) * (shapeCount_ + 1)];
        const std::vector<int> copies = copiesAtEntry(d);
        long long n = 0;
        for (int s = 0; s < shapeCount_; ++s)
            if (copies[s] > 0 && (setMasks_[static_cast<size_t>(f.set) * shapeWords_ + (s >> 6)] >> (s & 63) & 1))
                n += offsets[s + 1] - offsets[s];
        return static_cast<double>(std::max(1LL, n));
    }
    // Each level's weight: the product of 1/entries of the levels above (path levels: 1).
    std::vector<double> levelWeights() const {
        std::vector<double> w(static_cast<size_t>(depth_) + 2, 1.0);
        for (int d = 0; d <= depth_; ++d) {
            const Frame& f = frames_[d];
            w[d + 1] = f.stage == kEnter || f.set < 0 ? w[d] : w[d] / levelEntries(d);
        }
        return w;
    }

    // A cell's NOF index (ILSI): the cells whose occupancy selects one of its sets, and
    // where its sets start in Slot::setIndex.
    struct IndexCells {
        uint64_t gather = 0;  // W == 1: the index cells as a pext mask (ascending bits)
#if !defined(__BMI2__)
        MagicIndex magic;  // W == 1 without pext: the same cells by multiply and shift
#endif
        int base = 0;         // first entry in setIndex
        int count = 0;        // index cells (in Slot::indexBits)
    };
    struct Slot {
        Heuristic heuristic;
        std::vector<double> keys;            // fixed-order keys by model cell
        std::vector<int> order;              // bits in fill order
        std::vector<Bits<W>> pof;            // cells filled before this one (fixed orders)
        std::vector<IndexCells> index;       // per bit: the cells whose occupancy picks its set
        std::vector<std::array<int, kMaxIndexBits>> indexBits;  // ascending: z bit i = bit [i]
        bool useList = false;                // sets are built from list, else the cover lists
        std::vector<int> list, listStart;    // per bit: images its sets are built from
        std::vector<int> setIndex;           // -> offset of the set in sets_, -1 = not built
    };
    enum : uint8_t { kEnter, kShape, kImage };
    struct Frame {
        Bits<W> o;
        int set = -1;              // image list set id (see buildSet)
        uint64_t pending = 0;      // shapes of the current mask word still to try
        int word = 0, shape = 0, pos = 0, end = 0;
        int parity = 0;            // parity of the holes (parity trigger)
        int orderSlot = -1;        // fixed orders: in slot orderSlot's order, cells before
        int orderPos = 0;          // orderPos are filled
        uint8_t stage = kEnter;
    };

    // follow() failed: nothing will be searched (start() sets everything up again).
    bool abandon() {
        depth_ = -1;
        return false;
    }

    // start() on the region of the last start(): the search state as start() leaves it.
    void restartStack(const FilaInput& in) {
        followed_ = 0;
        for (int s = 0; s < model_.shapeCount(); ++s)
            if (localShapeOf_[s] >= 0) copies_[localShapeOf_[s]] = in.copiesLeft[s];
        available_.assign(shapeWords_, 0);
        for (int ls = 0; ls < shapeCount_; ++ls) available_[ls >> 6] |= 1ULL << (ls & 63);
        parityLeft_ = in.parityLeft;
        depth_ = 0;
        stopped_ = false;
        Frame& f = frames_[0];
        f.o = startO_;
        f.parity = in.holesParity;
        f.stage = kEnter;
        f.orderPos = 0;
        f.orderSlot = -1;
    }

    // solveFila (FILA article) as a recursion, for the last kRecursiveLevels levels.
    void solveRecursive(int p, Frame& f) {
        if (p == 0) {
            if (!settings_.onSolution(placed_.data(), pieces_)) stopped_ = true;
            return;
        }
        if (settings_.parity && !settings_.parity->achievable(parityLeft_.data(), f.parity)) {
            (*settings_.parityBacktracks)[p]++;
            return;
        }
        const int set = select(p, f);
        if (set < 0) return;
        long long examined = 0, fitted = 0;
        Frame child;
        const bool childIsFirst = firstSlot_ && p - 1 <= firstFrom_;
        const bool parity = settings_.parity != nullptr;
        forEachUsableShape(set, [&](int s, int begin, int end) __attribute__((always_inline)) {
            if (--copies_[s] == 0) available_[s >> 6] &= ~(1ULL << (s & 63));
            const int cls = shapeParityClass_[s];
            if (cls >= 0) parityLeft_[cls]--;
            examined += end - begin;
            // Which entries fit is computed for up to 64 entries at once without branches
            // (the fit test is the mispredicted branch of the plain loop), then the fitting
            // ones are visited in order.
            for (int chunk = begin; chunk < end && !stopped_; chunk += 64) {
                const int n = std::min(64, end - chunk);
                uint64_t fitMask = fitBits(entryMask_.data() + chunk, n, f.o);
                while (fitMask && !stopped_) {
                    const int i = chunk + __builtin_ctzll(fitMask);
                    fitMask &= fitMask - 1;
                    ++fitted;
                    placed_[pieces_ - p] = entryModelImage_[i];
                    child.o = f.o | entryMask_[i];
                    if (childIsFirst) {
                        solveFirstFrom(p - 1, child.o);
                        continue;
                    }
                    if (parity) child.parity = f.parity - imageParity_[entryImage_[i]];
                    child.orderSlot = f.orderSlot;  // the child's select moves these on
                    child.orderPos = f.orderPos;
                    solveRecursive(p - 1, child);
                }
            }
            if (cls >= 0) parityLeft_[cls]++;
            if (copies_[s]++ == 0) available_[s >> 6] |= 1ULL << (s & 63);
            return !stopped_;
        });
        attemptsAt_[p] += examined;
        fitsAt_[p] += fitted;
    }

    // The F heuristic's last levels (first open cell on every level up to P, no parity
    // trigger): solveFila stripped to what F needs, since this is where the 10x6 search
    // spends nearly all its time (about 2 million nodes). The cell is the lowest clear bit,
    // its set is picked by the NOF index (one pext with BMI2), the level is a template
    // argument, and per-level counters stay in member arrays until the subtree is done.
    template <int P>
    void solveFirst(const Bits<W>& o) {
        if (P >= 2 && deadCellCut_ && hasDeadCell(o)) return;
        const int set = imageListSet(*firstSlot_, o.lowestClear(), o);
        const int* offsets = &sets_[static_cast<size_t>(set) * (shapeCount_ + 1)];
        uint64_t shapes = available_[0] & setMasks_[set];
        while (shapes) {
            const int s = __builtin_ctzll(shapes);
            shapes &= shapes - 1;
            const uint64_t bit = 1ULL << s;
            if (--copies_[s] == 0) available_[0] &= ~bit;
            const int begin = offsets[s], end = offsets[s + 1];
            attemptsAt_[P] += end - begin;
            for (int i = begin; i < end; ++i) {
                const Bits<W>& m = entryMask_[i];
                if (o.intersects(m)) continue;
                ++fitsAt_[P];
                placed_[pieces_ - P] = entryModelImage_[i];
                if constexpr (P == 1) {
                    if (!settings_.onSolution(placed_.data(), pieces_)) stopped_ = true;
                } else {
                    solveFirst<P - 1>(o | m);
                }
                if (stopped_) break;
            }
            if (copies_[s]++ == 0) available_[0] |= bit;
            if (stopped_) return;
            offsets = &sets_[static_cast<size_t>(set) * (shapeCount_ + 1)];  // children may build sets
        }
    }

    // Dead-cell cut (the F levels of the automatic configuration): a hole whose neighbours
    // are all filled cannot be covered, as every piece left has two or more cells. Catches
    // the holes F would only reach later.
    __attribute__((always_inline)) bool hasDeadCell(const Bits<W>& o) const {
        if (shortShifts_) {
            // Word by word in scalar registers (clang otherwise builds the W > 1 shifts in
            // memory and reloads them as vectors: a store-forwarding stall per node).
            uint64_t holes[W];
            for (int i = 0; i < W; ++i) holes[i] = ~o.w[i] & boxMask_.w[i];
            uint64_t dead = 0;
            for (int i = 0; i < W; ++i) {
                uint64_t open = 0;
                for (int j = 0; j < boxDirections_; ++j) {
                    const int d = boxDirection_[j], k = shift_[d];
                    const uint64_t v = k > 0 ? (holes[i] >> k) | (i + 1 < W ? holes[i + 1] << (64 - k) : 0)
                                             : (holes[i] << -k) | (i > 0 ? holes[i - 1] >> (64 + k) : 0);
                    open |= v & valid_[d].w[i];
                }
                dead |= holes[i] & ~open;
            }
            return dead != 0;
        }
        const Bits<W> holes = ~o & boxMask_;
        Bits<W> open = Bits<W>::zero();
        for (int i = 0; i < boxDirections_; ++i) {
            const int d = boxDirection_[i];
            open = open | (holes.shifted(shift_[d]) & valid_[d]);
        }
        return (holes & ~open).any();
    }

    // solveFirst<p>(o) for a run-time p in 1..kRecursiveLevels.
    template <int P = kRecursiveLevels>
    void solveFirstFrom(int p, const Bits<W>& o) {
        if constexpr (P >= 1) {
            if (p == P) solveFirst<P>(o);
            else solveFirstFrom<P - 1>(p, o);
        }
    }

    // The recursive tail counts attempts and fits per level in attemptsAt_/fitsAt_ (no
    // pointer chasing per node); they reach the statistics when the subtree is done.
    void flushLevelCounters(int p) {
        for (int q = 1; q <= p; ++q) {
            (*settings_.attempts)[q] += attemptsAt_[q];
            (*settings_.fits)[q] += fitsAt_[q];
            fitsSeen_ += fitsAt_[q];
            attemptsAt_[q] = fitsAt_[q] = 0;
        }
    }

    // Extended NOF (beyond the FILA article): with a fixed order every image in cell b's
    // list lies on b and later cells, so its sets can also be indexed by the later cells
    // those images cover most often (ties: lowest bit). Appends to bits[0..k) up to `limit`
    // cells and returns the new count. Fewer non-fitting entries are scanned (10x6: 6.8M ->
    // 2.2M examined, 20% faster). Costs in proportion to the images at b, not to the
    // region: FILA starts at every DLX node of its depth. freq must be all zero (and is
    // left so); touched is scratch.
    int extendIndex(const Slot& slot, int b, int* bits, int k, int limit, std::vector<int>& freq,
                    std::vector<int>& touched) const {
        touched.clear();
        for (int i = slot.listStart[b]; i < slot.listStart[b + 1]; ++i)
            for (int w = 0; w < W; ++w)
                for (uint64_t m = imageMask_[slot.list[i]].w[w]; m; m &= m - 1) {
                    const int c = w * 64 + __builtin_ctzll(m);
                    if (freq[c]++ == 0) touched.push_back(c);
                }
        freq[b] = 0;
        for (int j = 0; j < k; ++j) freq[bits[j]] = 0;
        while (k < limit) {
            int best = -1;
            for (int c : touched)
                if (freq[c] > 0 && (best < 0 || freq[c] > freq[best] || (freq[c] == freq[best] && c < best))) best = c;
            if (best < 0) break;
            bits[k++] = best;
            freq[best] = 0;
        }
        for (int c : touched) freq[c] = 0;
        return k;
    }

    const MagicIndex& magicIndexFor(uint64_t gather) {
        auto known = magicCache_.find(gather);
        if (known == magicCache_.end()) known = magicCache_.emplace(gather, findMagicIndex(gather)).first;
        return known->second;
    }

    // Image list set for cell `b` under slot `h` and the current occupancy (NOF index).
    // Inlined into E's candidate loop, the rare build kept out of line: clang otherwise
    // made this a call per candidate (Tetris Cube, PT diamond: 1-3% faster).
    __attribute__((always_inline)) int imageListSet(Slot& h, int b, const Bits<W>& o) {
        const int z = indexState(h, b, o);
        int& idx = h.setIndex[h.index[b].base + z];
        if (idx < 0) idx = buildSet(h, b, o);
        return idx;
    }

    // The NOF index state (ILSI) of cell b: bit i = occupancy of h.indexBits[b][i].
    static int indexState(const Slot& h, int b, const Bits<W>& o) {
#if defined(__BMI2__)
        if constexpr (W == 1) return static_cast<int>(_pext_u64(o.w[0], h.index[b].gather));
#else
        if constexpr (W == 1)
            if (h.index[b].magic.found()) return h.index[b].magic.of(o.w[0]);
#endif
        int z = 0;
        for (int i = 0; i < h.index[b].count; ++i) z |= static_cast<int>(o.test(h.indexBits[b][i])) << i;
        return z;
    }

    // A set: per local shape s, entries [offsets[s], offsets[s+1]) with offsets at
    // sets_[id*(Q+1)], and a mask of the shapes whose list is not empty at
    // setMasks_[id*words]. The set excludes images meeting the occupied index cells of `o`.
    __attribute__((noinline)) int buildSet(const Slot& h, int b, const Bits<W>& o) {
        Bits<W> forbidden = h.pof[b];
        for (int i = 0; i < h.index[b].count; ++i)
            if (o.test(h.indexBits[b][i])) forbidden.set(h.indexBits[b][i]);
        entryMask_.resize(entryImage_.size());  // drop the padding (see kEntryPad)
        const int id = static_cast<int>(sets_.size() / (shapeCount_ + 1));
        const size_t at = sets_.size();
        sets_.resize(at + shapeCount_ + 1);
        setMasks_.resize(setMasks_.size() + shapeWords_, 0);
        uint64_t* mask = &setMasks_[static_cast<size_t>(id) * shapeWords_];
        int s = 0;
        const int* images = h.useList ? h.list.data() : coverList_.data();
        const int first = h.useList ? h.listStart[b] : coverStart_[b];
        const int last = h.useList ? h.listStart[b + 1] : coverStart_[b + 1];
        for (int i = first; i < last; ++i) {
            const int img = images[i];
            while (s <= imageShape_[img]) sets_[at + s++] = static_cast<int>(entryMask_.size());
            if (!imageMask_[img].intersects(forbidden)) {
                entryMask_.push_back(imageMask_[img]);
                entryImage_.push_back(img);
                entryModelImage_.push_back(imageId_[img]);
                mask[imageShape_[img] >> 6] |= 1ULL << (imageShape_[img] & 63);
            }
        }
        while (s <= shapeCount_) sets_[at + s++] = static_cast<int>(entryMask_.size());
        entryMask_.resize(entryImage_.size() + kEntryPad, Bits<W>::zero());
        return id;
    }

    // Calls f(shape, begin, end) for each shape with copies left whose list in `set` is not
    // empty (solveFila's warehouse intersected with the set's non-empty shapes); f returns
    // false to stop. Note f may change available_ for its own shape and restore it.
    template <class F>
    void forEachUsableShape(int set, F&& f) {
        const int* offsets = &sets_[static_cast<size_t>(set) * (shapeCount_ + 1)];
        for (int w = 0; w < shapeWords_; ++w) {
            uint64_t shapes = available_[w] & setMasks_[static_cast<size_t>(set) * shapeWords_ + w];
            while (shapes) {
                const int s = w * 64 + __builtin_ctzll(shapes);
                shapes &= shapes - 1;
                if (!f(s, offsets[s], offsets[s + 1])) return;
                offsets = &sets_[static_cast<size_t>(set) * (shapeCount_ + 1)];  // f may build lists
            }
        }
    }

    int countFits(int set, const Bits<W>& o, int limit) {
        int f = 0;
        forEachUsableShape(set, [&](int, int begin, int end) {
            // Early exit (FILA article) checked every kCountChunk entries: the chunk itself is
            // counted without branches (the fit test is unpredictable; the compiler
            // vectorises the chunk). Tetris Cube: 7.2 s -> 6.2 s.
            const Bits<W>* m = entryMask_.data();
            int i = begin;
            while (i < end) {
                const int n = std::min(end - i, kCountChunk);
                f += countFitting(m + i, n, o);
                i += n;
                if (f >= limit) return false;
            }
            return true;
        });
        return f;
    }

    // How many of m[0..n) fit in `o`: with AVX-512 a popcount of fitBits; with WebAssembly
    // SIMD and one word, per block of 8 entries the 32-bit halves tested (`i32x4.eq`),
    // narrowed twice to one byte each and read by one `i8x16.bitmask` (an entry fits when
    // both of its halves' bits are set), where fitBits' four `i64x2.bitmask` with their shifts
    // and ors took longer (Bedlam 0.93-0.96x, Tetris Cube 0.98-1.00x, bench/WASM.md);
    // otherwise a branch-free sum. With one word the sum runs over whole blocks of
    // kEntryBlock entries, the ones past n masked out (they are the next shape's or the padding): E's lists are
    // mostly 1 to 4 entries long (Tetris Cube: 190 million lists, 3.4 entries on average),
    // and a loop of that varying length mispredicts its exit nearly every time
    // (WebAssembly Tetris Cube: 6.1 s -> 5.4 s with this and the same in fitBits). The sum
    // is kept apart from fitBits on purpose: a popcount of fitBits there is 4% slower.
    static int countFitting(const Bits<W>* m, int n, const Bits<W>& o) {
#if defined(__AVX512F__)
        if constexpr (W == 1) return __builtin_popcountll(fitBits(m, n, o));
#elif defined(__wasm_simd128__)
        if constexpr (W == 1) {
            const v128_t occupied = wasm_i64x2_splat(static_cast<int64_t>(o.w[0]));
            const v128_t zero = wasm_i64x2_const_splat(0);
            static_assert(kEntryBlock == 8, "a block is the 16 bytes of one i8x16.bitmask");
            int f = 0;
            for (int k = 0; k < n; k += kEntryBlock) {  // (kEntryPad entries past n are readable)
                v128_t e[4];
                for (int j = 0; j < 4; ++j) e[j] = wasm_i32x4_eq(wasm_v128_and(wasm_v128_load(&m[k + 2 * j].w[0]), occupied), zero);
                const uint32_t b = static_cast<uint32_t>(wasm_i8x16_bitmask(
                    wasm_i8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(e[0], e[1]), wasm_i16x8_narrow_i32x4(e[2], e[3]))));
                const int left = n - k;
                const uint32_t live = left >= 8 ? 0xFFFFu : (1u << (2 * left)) - 1;
                f += __builtin_popcount(b & (b >> 1) & 0x5555u & live);
            }
            return f;
        }
#endif
        if constexpr (W == 1) {
            const uint64_t occupied = o.w[0];
            int f = 0;
            for (int k = 0; k < n; k += kEntryBlock)
                for (int j = 0; j < kEntryBlock; ++j) f += (j < n - k) & ((m[k + j].w[0] & occupied) == 0);
            return f;
        }
        int f = 0;
        for (int k = 0; k < n; ++k) f += !o.intersects(m[k]);
        return f;
    }

    // Bit k set when entry m[k] fits in `o` (k < n <= 64), without branches: the fit test is
    // the unpredictable branch of a plain loop. With AVX-512 and one word, eight entries per
    // test instruction; with WebAssembly SIMD, two per vector (entry & occupied == 0 as a lane
    // mask, its sign bits as two bits), a block of kEntryBlock entries per iteration, and the
    // bits past n (the next shape's entries or the padding) cleared at the end.
    static uint64_t fitBits(const Bits<W>* m, int n, const Bits<W>& o) {
#if defined(__AVX512F__)
        if constexpr (W == 1) {
            const __m512i occupied = _mm512_set1_epi64(static_cast<long long>(o.w[0]));
            uint64_t bits = 0;
            for (int k = 0; k < n; k += 8) {
                const __mmask8 live = static_cast<__mmask8>(n - k >= 8 ? 0xFF : (1u << (n - k)) - 1);
                const __m512i masks = _mm512_maskz_loadu_epi64(live, &m[k].w[0]);
                bits |= static_cast<uint64_t>(_mm512_mask_testn_epi64_mask(live, masks, occupied)) << k;
            }
            return bits;
        }
#elif defined(__wasm_simd128__)
        if constexpr (W == 1) {
            const v128_t occupied = wasm_i64x2_splat(static_cast<int64_t>(o.w[0]));
            const v128_t zero = wasm_i64x2_const_splat(0);
            uint64_t bits = 0;
            for (int k = 0; k < n; k += kEntryBlock) {
                uint32_t block = 0;
                for (int j = 0; j < kEntryBlock; j += 2) {
                    const v128_t masks = wasm_v128_load(&m[k + j].w[0]);
                    block |= wasm_i64x2_bitmask(wasm_i64x2_eq(wasm_v128_and(masks, occupied), zero)) << j;
                }
                bits |= static_cast<uint64_t>(block) << k;
            }
            return bits & (n >= 64 ? ~0ULL : (1ULL << n) - 1);
        }
#endif
        if constexpr (W == 1) {  // whole blocks, as in countFitting
            const uint64_t occupied = o.w[0];
            uint64_t bits = 0;
            for (int k = 0; k < n; k += kEntryBlock) {
                uint64_t block = 0;
                for (int j = 0; j < kEntryBlock; ++j)
                    block |= static_cast<uint64_t>((j < n - k) & ((m[k + j].w[0] & occupied) == 0)) << j;
                bits |= block << k;
            }
            return bits;
        }
        uint64_t bits = 0;
        for (int k = 0; k < n; ++k) bits |= static_cast<uint64_t>(!o.intersects(m[k])) << k;
        return bits;
    }

    // selectFila: the image list set to try next, or null for a dead end. With Record the
    // target cell's bit is left in selectedBit_ (the trace), also for a dead end.
    template <bool Record = false>
    int select(int p, Frame& f) {
        if constexpr (Record) selectedBit_ = -1;
        const int slot = slotAt_[p];
        Slot& h = slots_[slot];
        switch (h.heuristic.kind) {
            case HeuristicKind::First:
                if constexpr (Record) selectedBit_ = f.o.lowestClear();
                return imageListSet(h, f.o.lowestClear(), f.o);
            case HeuristicKind::Linear:
            case HeuristicKind::Angular:
            case HeuristicKind::Radial: {
                int i = f.orderSlot == slot ? f.orderPos : 0;
                while (f.o.test(h.order[i])) ++i;
                f.orderSlot = slot;  // every cell before i is filled, for the levels below too
                f.orderPos = i;
                if constexpr (Record) selectedBit_ = h.order[i];
                return imageListSet(h, h.order[i], f.o);
            }
            case HeuristicKind::Cornered: {
                // The first cell with the fewest open neighbours: E's first step alone. On the
                // last levels it picks nearly as well as E's fit counts at a fraction of the
                // cost (Tetris Cube, c for the last 3 pieces instead of f: 20% fewer fits).
                if (boxMode_) {
                    const Bits<W> cells = fewestOpenNeighbours(f.o);
                    for (int w = 0; w < W; ++w)
                        if (cells.w[w]) {
                            if constexpr (Record) selectedBit_ = w * 64 + __builtin_ctzll(cells.w[w]);
                            return imageListSet(h, w * 64 + __builtin_ctzll(cells.w[w]), f.o);
                        }
                    return -1;
                }
                int fewest = INT_MAX, cell = -1;
                f.o.forEachClear(cells_, [&](int b) {
                    const int n = f.o.countClearIn(nbMask_[b]);
                    if (n < fewest) fewest = n, cell = b;
                });
                if constexpr (Record) selectedBit_ = cell;
                return cell < 0 ? -1 : imageListSet(h, cell, f.o);
            }
            case HeuristicKind::Estimate: {
                // Cells with the fewest open neighbours, then the fewest fits among them.
                if (boxMode_) {
                    const Bits<W> cells = fewestOpenNeighbours(f.o);
                    return fewestFits<Record>(h, f, [&](auto&& visit) {
                        for (int w = 0; w < W; ++w)
                            for (uint64_t bits = cells.w[w]; bits; bits &= bits - 1)
                                if (!visit(w * 64 + __builtin_ctzll(bits))) return;
                    });
                }
                int fewest = INT_MAX;
                candidates_.clear();
                f.o.forEachClear(cells_, [&](int b) {
                    int n = f.o.countClearIn(nbMask_[b]);
                    if (n < fewest) {
                        fewest = n;
                        candidates_.clear();
                    }
                    if (n == fewest) candidates_.push_back(b);
                });
                return fewestFits<Record>(h, candidates_, f);
            }
            case HeuristicKind::Size: {
                candidates_.clear();
                f.o.forEachClear(cells_, [&](int b) { candidates_.push_back(b); });
                return fewestFits<Record>(h, candidates_, f);
            }
        }
        return -1;
    }

    // Box numbering: the holes with the fewest open neighbours, as a mask. The six
    // neighbour masks are added bit-sliced (two full adders, then the carries) into a 3-bit
    // count per cell.
    Bits<W> fewestOpenNeighbours(const Bits<W>& o) const {
        const Bits<W> holes = ~o & boxMask_;
        Bits<W> n[6];
        for (int d = 0; d < 6; ++d) n[d] = holes.shifted(shift_[d]) & valid_[d];
        const Bits<W> a = n[0] ^ n[1], b0 = a ^ n[2], c0 = (n[0] & n[1]) | (a & n[2]);
        const Bits<W> a2 = n[3] ^ n[4], b1 = a2 ^ n[5], c1 = (n[3] & n[4]) | (a2 & n[5]);
        const Bits<W> ones = b0 ^ b1, c2 = b0 & b1;
        const Bits<W> twos = c0 ^ c1 ^ c2, fours = (c0 & c1) | (c0 & c2) | (c1 & c2);
        for (int k = 0; k <= 6; ++k) {
            Bits<W> m = holes & ((k & 1) ? ones : ~ones) & ((k & 2) ? twos : ~twos) & ((k & 4) ? fours : ~fours);
            if (m.any()) return m;
        }
        return Bits<W>::zero();
    }

    // The set of the cell with the fewest fits (early exit at the best so far), or -1 when a
    // cell has none; forEachCell(visit) calls visit(bit) per candidate until it returns false.
    template <bool Record, class ForEachCell>
    int fewestFits(Slot& h, const Frame& f, ForEachCell&& forEachCell) {
        int best = -1;
        int bestFits = INT_MAX;
        forEachCell([&](int b) {
            const int set = imageListSet(h, b, f.o);
            const int n = countFits(set, f.o, bestFits);
            if (n >= bestFits) return true;
            if constexpr (Record) selectedBit_ = b;
            bestFits = n;
            best = n == 0 ? -1 : set;  // a hole nothing can fill
            return n > 1;              // 1: a forced move, no other cell can do better
        });
        return best;
    }
    template <bool Record>
    int fewestFits(Slot& h, const std::vector<int>& cells, const Frame& f) {
        return fewestFits<Record>(h, f, [&](auto&& visit) {
            for (int b : cells)
                if (!visit(b)) return;
        });
    }

    // Trace records (search/trace.hpp) for the levels settings_.traceLevel selects.
    void traceRecord(int op, int remaining, int a, int b) {
        if (trace::levelTraced(settings_.traceLevel, remaining)) settings_.onTrace(op, remaining, a, b);
    }
    // Instance of the copy of model image `image`'s shape that a placement takes: copy
    // (count - copies left) while the shape is still in the warehouse, one less once its
    // copies are decremented for the placement (`taken`).
    int instanceOf(int image, bool taken) const {
        const Shape& shape = model_.shapes[model_.images[image].shape];
        const int copy = shape.count - copies_[localShapeOf_[model_.images[image].shape]] - (taken ? 1 : 0);
        return shape.instances[std::max(0, std::min(copy, shape.count - 1))];
    }
    // kPlace / kRemove of model image `image` with `remaining` pieces left before the
    // placement (its shape's copies are decremented for it at both moments).
    void tracePlacement(int op, int remaining, int image) {
        if (trace::levelTraced(settings_.traceLevel, remaining))
            settings_.onTrace(op, remaining, instanceOf(image, true), image);
    }
    int boxCellOfBit(int bit) const { return model_.boxOfOpenCell[cellOfBit_[bit]]; }
    // The level just chose f.set (-1: a dead end) at selectedBit_: kChoose with the number of
    // images that fit, then one kCandidate per image in the order run() tries them (the
    // shapes in the warehouse whose list is not empty, each list in order).
    void traceChoice(int p, const Frame& f) {
        const int target = selectedBit_ >= 0 && selectedBit_ < cells_ && cellOfBit_[selectedBit_] >= 0
                               ? boxCellOfBit(selectedBit_) : -1;
        traceTarget_[depth_] = target;
        traceCandidates_[depth_] = 0;
        if (!trace::levelTraced(settings_.traceLevel, p)) return;
        traceScratch_.clear();
        if (f.set >= 0)
            forEachUsableShape(f.set, [&](int, int begin, int end) {
                for (int i = begin; i < end; ++i)
                    if (!f.o.intersects(entryMask_[i])) traceScratch_.push_back(entryModelImage_[i]);
                return true;
            });
        traceCandidates_[depth_] = static_cast<int>(traceScratch_.size());
        settings_.onTrace(trace::kChoose, p, target, static_cast<int>(traceScratch_.size()));
        for (int image : traceScratch_) settings_.onTrace(trace::kCandidate, p, instanceOf(image, false), image);
    }
    // The lowest hole with no open neighbour (the dead-cell cut's reason), -1 if none.
    int deadCellBit(const Bits<W>& o) const {
        const Bits<W> holes = ~o & boxMask_;
        Bits<W> open = Bits<W>::zero();
        for (int i = 0; i < boxDirections_; ++i) {
            const int d = boxDirection_[i];
            open = open | (holes.shifted(shift_[d]) & valid_[d]);
        }
        const Bits<W> dead = holes & ~open;
        for (int w = 0; w < W; ++w)
            if (dead.w[w]) return w * 64 + __builtin_ctzll(dead.w[w]);
        return -1;
    }

    const Model& model_;
    FilaSettings settings_;
    std::vector<std::array<int, 6>> neighbours_;  // model open cell -> neighbour cells
    std::vector<double> firstKey_;
    std::vector<Slot> slots_;
    std::vector<int> slotAt_;

    int cells_ = 0, pieces_ = 0, shapeCount_ = 0;
    bool boxMode_ = false;
    Bits<W> boxMask_, valid_[6];
    int shift_[6] = {0, 0, 0, 0, 0, 0};
    int boxDirection_[6] = {0, 0, 0, 0, 0, 0};  // directions with a neighbour somewhere in the box
    int boxDirections_ = 0;
    bool shortShifts_ = false;  // every neighbour shift is under a word (hasDeadCell)
    std::vector<int> cellOfBit_, bitOfCell_, regionBits_;
    std::vector<std::array<int, 6>> nbBits_;
    std::vector<Bits<W>> nbMask_;
    std::vector<int> localShapeOf_, copies_;
    std::vector<uint64_t> available_;  // shapes with copies left (solveFila's warehouse)
    int shapeWords_ = 1;
    std::vector<Bits<W>> imageMask_;
    std::vector<int> imageShape_, imageId_, imageParity_;
    std::vector<int> parityLeft_, shapeParityClass_;
    std::vector<int> coverStart_, coverList_;
    std::vector<int> sets_;
    std::vector<uint64_t> setMasks_;
    std::vector<Bits<W>> entryMask_;  // list entries: occupancy mask ...
    std::vector<int> entryImage_;     // ... and local image index
    std::vector<int> entryModelImage_;  // ... and model image id
    std::vector<Frame> frames_;
    std::vector<int> placed_;
    std::vector<int> candidates_;
    int depth_ = -1;
    bool stopped_ = false;      // a solution handler asked to stop (solution limit)
    bool tracing_ = false;      // settings_.onTrace is set: run() reports every step
    int followed_ = 0;          // levels follow() placed since the last start()
    int selectedBit_ = -1;      // select<true>'s target cell
    std::vector<int> traceTarget_, traceCandidates_;  // per depth: kChoose's target and count
    std::vector<int> traceScratch_;
    long long fitsSeen_ = 0;    // fits made by solveRecursive, for the slice budget
    static constexpr int kCountChunk = 16;
    // Without AVX-512, fit tests run over blocks of kEntryBlock entries, reading up to
    // kEntryPad entries past a list's end: entryMask_ keeps that many zero entries after the
    // last set (buildSet). Scalar: blocks of 4 (2 and 8 are slower in WebAssembly without
    // SIMD). WebAssembly SIMD: blocks of 8, four vectors, so that a list of up to 8 entries (most
    // of E's) is one iteration without a mispredicted loop exit (bench/WASM.md).
#if defined(__wasm_simd128__)
    static constexpr int kEntryBlock = 8;
#else
    static constexpr int kEntryBlock = 4;
#endif
    static constexpr int kEntryPad = kEntryBlock - 1;
    static_assert(kEntryBlock % 2 == 0, "the WebAssembly SIMD fit test takes entries in pairs");
    // MagicIndex per gather mask, kept across start()s: FILA restarts at every DLX node of
    // its depth, and the same cells come back (Tetris Cube: 300 masks, 30,000 lookups).
    std::unordered_map<uint64_t, MagicIndex> magicCache_;
    double tableBound_ = 0;     // start(): bytes the sets could take (see there)
    bool deadCellCut_ = false;  // box numbering and no monomino left: see solveFirst
    bool reuseTables_ = false;  // reuseTables(): start() keeps the tables for the same region
    FilaInput lastInput_;       // ... the last region set up
    Bits<W> startO_;            // start()'s occupancy at the root
    Slot* firstSlot_ = nullptr;  // the F slot when solveFirst can run, else null
    int firstFrom_ = 0;          // solveFirst runs while at most this many pieces remain
    long long attemptsAt_[kRecursiveLevels + 1] = {}, fitsAt_[kRecursiveLevels + 1] = {};
};

}  // namespace

std::unique_ptr<FilaEngine> makeFila(const Model& model, FilaSettings settings, int cells) {
    switch (filaCapacityFor(cells)) {
        case 64: return std::make_unique<Fila<1>>(model, std::move(settings));
        case 128: return std::make_unique<Fila<2>>(model, std::move(settings));
        case 256: return std::make_unique<Fila<4>>(model, std::move(settings));
        default: return nullptr;
    }
}

}  // namespace polycube
