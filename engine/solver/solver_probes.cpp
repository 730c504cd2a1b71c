// The automatic configuration's measurements (Knuth 1975, "Estimating the efficiency of
// backtrack programs"): Monte Carlo probes through FILA that say whether the search is short,
// which uniquely shaped piece -r should constrain, and which column the root branches on.
// Run in the setup's bounded units (solver_setup.cpp), and once at the root (search).
#include "solver/solver.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <sstream>

#include "common/hash.hpp"

namespace polycube {

// The probes' estimate (list entries examined, about 50 per microsecond natively) below which
// a search counts as short (~0.5 s): the other -r candidates are not probed (probeSome), and
// FILA's tables serve every root image (finishSetup).
constexpr double kShortSearchCost = 3e7;

void Solver::estimateWholeSearch() {
    // The automatic configuration's first question: is the search short? Knuth's estimator
    // through FILA started once on the whole puzzle, from its own root (64 probes; with -r
    // divided by the symmetries the filter removes). A short search is not probed for the -r
    // piece (probeSome) and shares FILA's tables below the root with E too (finishSetup).
    // It replaced, for that question, a pass of 40 probes under every kept image of the
    // first -r candidate, which took 10% of a millisecond puzzle (Soma figures, hexominoes
    // in 7x6); a long search still gets that pass first (the Tetris Cube and Bedlam choose
    // as before).
    constexpr int kProbes = 64;
    constexpr uint64_t kSeed = 4242;
    const int pieces = model_.mobileCount();
    if (!algo_.automatic || !fila_ || algo_.filaAt != pieces - 1 || !impossible_.empty() || options_.monteCarlo.trials > 0) return;
    if (pieces <= kShortSearchPieces) return;  // short whatever the estimate (knownShort)
    if (probe_.input.openCells.empty()) fillWholePuzzleInput();
    if (!probe_.input.openCells.empty() && fila_->start(probe_.input)) {
        const double reduced = planActive_ ? std::max<double>(1, static_cast<double>(symmetries_.size())) : 1;
        probe_.screenEstimate = fila_->estimateCost(kProbes, kSeed).mean / reduced;
    }
    if (!probe_.active) {
        probe_.input = FilaInput{};
        fila_->reuseTables(filaReuse_);
    }
}

bool Solver::knownShort() const {
    return (algo_.automatic && model_.mobileCount() <= kShortSearchPieces) ||
           (probe_.screenEstimate >= 0 && probe_.screenEstimate < kShortSearchCost);
}

void Solver::beginProbes(std::vector<RedundancyPlan> candidates) {
    // Which uniquely shaped piece to constrain matters (FILA article: L instead of G makes
    // the Tetris Cube 3 times faster) and no simple rule predicts it (the largest, most
    // compact piece is best for the Tetris Cube, the one with fewest images for Bedlam). So
    // when the search looks long, estimate each candidate's search cost with Monte Carlo
    // probes through the configured algorithms and keep the cheapest. One pass of probes
    // per probeSome() call, so setup stays in bounded slices.
    probe_.active = false;
    if (!fila_ || algo_.filaAt != model_.mobileCount() - 1) return;
    // A short search is not probed (probeSome): known here for a few pieces, without the
    // whole puzzle's FILA input the probes would need.
    if (algo_.automatic && model_.mobileCount() <= kShortSearchPieces) return;
    probe_.candidates = std::move(candidates);
    if (probe_.candidates.size() < 2) return;
    probe_.active = true;
    probe_.next = -1;  // the first call decides whether to probe at all
    fillWholePuzzleInput();
    probe_.tallies.assign(probe_.candidates.size(), ProbeTally{});
    probe_.refinements = 0;
}

const std::vector<double>& Solver::fillOrder() {
    if (fillOrder_.empty()) {
        Heuristic first;
        first.kind = HeuristicKind::First;
        fillOrder_ = cellKeys(first, model_);
    }
    return fillOrder_;
}

void Solver::fillWholePuzzleInput() {
    // FILA's input for the whole puzzle, every image in: the probes place a candidate's kept
    // images on it with follow() (a piece of its own shape places no other image of it).
    // What fillFilaInput would read off a matrix of every image, without building one: the
    // cells in the header list's order (DlxMatrix::begin: "first open cell" order), every
    // image in its column's order (by id: the model groups them by shape), every copy.
    probe_.input = FilaInput{};
    if (model_.openCellCount() > fila_->capacity()) return;
    const std::vector<double>& order = fillOrder();
    probe_.input.openCells.resize(model_.openCellCount());
    std::iota(probe_.input.openCells.begin(), probe_.input.openCells.end(), 0);
    std::stable_sort(probe_.input.openCells.begin(), probe_.input.openCells.end(),
                     [&](int a, int b) { return order[a] < order[b]; });
    probe_.input.images.resize(model_.images.size());
    std::iota(probe_.input.images.begin(), probe_.input.images.end(), 0);
    probe_.input.copiesLeft.resize(model_.shapeCount());
    for (int s = 0; s < model_.shapeCount(); ++s) probe_.input.copiesLeft[s] = model_.shapes[s].count;
    probe_.input.pieces = model_.mobileCount();
    probe_.input.holesParity = holesParity_;
    probe_.input.parityLeft = parityLeft_;
    fila_->reuseTables(true);
}

bool Solver::probeSome() {
    // Knuth's estimator is unbiased but heavy-tailed: one pass of 40 probes per kept image
    // put the Tetris Cube's L anywhere in 1.2e8-3.9e8 and Bedlam's X in 1.2e8-5.7e8 as the
    // file was rewritten. So every candidate gets a screening pass of 40 probes per kept
    // image, then the contenders (not clearly costlier than the cheapest, by two standard
    // errors of the difference) get passes of 160, pooled by probe count, the least-probed
    // first, until one stands apart. A pass costs mostly its FILA starts (one per kept image,
    // tables built each time), hardly its probes, hence few long passes. Refinement is paid
    // for by the search it saves: one pass per 2e7 of the cheapest estimate (~0.4 s of
    // search natively), at most 24.
    constexpr int kScreenProbes = 40, kProbes = 160, kMaxRefinements = 24;
    constexpr double kCostPerRefinement = 2e7;
    constexpr uint64_t kSeed = 12345;
    const int n = static_cast<int>(probe_.candidates.size());
    auto pass = [&](int c, int probes) {
        ProbeTally& t = probe_.tallies[c];
        const CostEstimate e = estimateSearchCost(probe_.candidates[c], probes,
                                                  mix64(kSeed + static_cast<uint64_t>(t.probes)));
        if (e.mean < 0) {
            t.estimate = e;
        } else {
            // Pooling: means weighted by their probe counts.
            const double p = t.probes, q = probes;
            t.estimate.mean = (p * t.estimate.mean + q * e.mean) / (p + q);
            t.estimate.variance = (p * p * t.estimate.variance + q * q * e.variance) / ((p + q) * (p + q));
        }
        t.probes += probes;
    };
    if (probe_.next < 0 && knownShort()) {
        endProbes();  // a short search by the whole puzzle's estimate (estimateWholeSearch)
        return false;
    }
    if (probe_.next < 0) {
        // The first candidate's screening decides whether to probe at all: a short search
        // (under ~0.5 s) keeps it, as probing the others would cost more than it could save.
        pass(0, kScreenProbes);
        probe_.next = 1;
        const double first = probe_.tallies[0].estimate.mean;
        probe_.screenEstimate = first;
        if (first >= 0 && first < kShortSearchCost) {
            endProbes();
            return false;
        }
        return true;
    }
    if (probe_.next < n) {
        pass(probe_.next++, kScreenProbes);
        return true;
    }
    int best = -1;
    for (int c = 0; c < n; ++c)
        if (probe_.tallies[c].estimate.mean >= 0 && (best < 0 || probe_.tallies[c].estimate.mean < probe_.tallies[best].estimate.mean))
            best = c;
    if (best >= 0) {
        const CostEstimate& b = probe_.tallies[best].estimate;
        auto contender = [&](const ProbeTally& t) {
            return t.estimate.mean >= 0 && t.estimate.mean - b.mean < 2 * std::sqrt(t.estimate.variance + b.variance);
        };
        int next = -1, contenders = 0;
        for (int c = 0; c < n; ++c) {
            const ProbeTally& t = probe_.tallies[c];
            if (!contender(t)) continue;
            ++contenders;
            if (next < 0 || t.probes < probe_.tallies[next].probes) next = c;
        }
        const int allowed = static_cast<int>(std::min<double>(kMaxRefinements, b.mean / kCostPerRefinement));
        if (contenders > 1 && probe_.refinements < allowed) {
            ++probe_.refinements;
            pass(next, kProbes);
            return true;
        }
        std::string notes;
        for (int c = 0; c < n; ++c) {
            const ProbeTally& t = probe_.tallies[c];
            if (t.estimate.mean < 0) continue;
            std::ostringstream v;
            v << std::setprecision(2) << t.estimate.mean;
            notes += (notes.empty() ? "" : ", ") + model_.shapes[probe_.candidates[c].shape].name + " " + v.str();
            if (t.probes > kScreenProbes) notes += " (" + std::to_string(t.probes) + " probes)";
        }
        plan_ = std::move(probe_.candidates[best]);
        plan_.description += "; chosen by Monte Carlo probes, estimated cost: " + notes;
    }
    endProbes();
    return false;
}

void Solver::endProbes() {
    probe_.candidates.clear();
    probe_.tallies.clear();
    probe_.input = FilaInput{};
    fila_->reuseTables(filaReuse_);
}

CostEstimate Solver::estimateSearchCost(const RedundancyPlan& plan, int probesPerImage, uint64_t seed) {
    // DLX places the constrained piece first (it has the fewest images), then FILA searches
    // below each of its kept images: estimate FILA's cost under each and add them up. Each
    // image's probes are salted by its cells, not its id, so the estimate does not depend on
    // how the puzzle is written.
    const CostEstimate none{-1, 0};
    CostEstimate total;
    auto salt = [&](int image) { return probeSalt(image, seed); };
    if (!probe_.input.openCells.empty() && model_.shapes[plan.shape].count == 1) {
        // FILA started once on the whole puzzle (every candidate's input: a piece of its own
        // shape places no other image of that shape), its tables kept, and each kept image
        // placed on it by follow(): one build of the tables instead of one per kept image
        // (hexominoes 01-09 in 7x6: the probes took 40% of the default's time).
        return estimateBelow(probe_.input, plan.keptImages, probesPerImage, seed);
    }
    std::vector<char> enabled(model_.images.size(), 1);
    for (int i : plan.removedImages) enabled[i] = 0;
    DlxMatrix dlx;
    dlx.build(model_, enabled);
    const int col = dlx.columnOfShape(plan.shape);
    const int cellsLeft = model_.openCellCount() - model_.shapes[plan.shape].size;
    if (cellsLeft > fila_->capacity()) return none;
    for (int image : plan.keptImages) {
        const int row = dlx.rowOfImage(image);
        int node = dlx.down(col);
        while (node != col && dlx.rowOf(node) != row) node = dlx.down(node);
        if (node == col) continue;
        dlx.coverChosen(col);
        dlx.selectRow(node);
        holesParity_ -= model_.images[image].parity;
        fillFilaInput(dlx, model_.mobileCount() - 1);
        holesParity_ += model_.images[image].parity;
        const bool started = fila_->start(filaInput_);
        if (started) total += fila_->estimateCost(probesPerImage, salt(image));
        dlx.unselectRow(node);
        dlx.uncoverChosen(col);
        if (!started) return none;  // FILA's tables would be too big: no estimate
    }
    return total;
}

uint64_t Solver::probeSalt(int image, uint64_t seed) {
    // Salted by the image's cells in fill order (as FILA numbers them), not by cell ids, which
    // follow the way the box is written.
    const std::vector<double>& order = fillOrder();
    std::vector<int64_t> ranks;
    for (int c : model_.images[image].cells) ranks.push_back(static_cast<int64_t>(order[c]));
    std::sort(ranks.begin(), ranks.end());
    return hashWords(ranks.data(), ranks.size(), seed);
}

CostEstimate Solver::estimateBelow(const FilaInput& input, const std::vector<int>& images, int probes, uint64_t seed) {
    // FILA started on `input` (its tables kept: reuseTables must be on), each image placed on
    // it by follow() and `probes` probes below it, salted by the image's cells; summed. Mean
    // -1 when FILA's tables for `input` would pass their limit.
    CostEstimate total;
    for (int image : images) {
        if (!fila_->start(input)) return CostEstimate{-1, 0};
        if (fila_->follow(&image, 1)) total += fila_->estimateCost(probes, probeSalt(image, seed));
    }
    return total;
}

int Solver::chooseRootByProbes(int heuristicColumn, long long& budget) {
    // Flat boards with holes and long 3-D searches: branch first on the heuristic's column
    // (min-fit: a cell beside a hole, a corner the volume filter thinned, the piece with the
    // fewest images) or on the constrained piece, whichever Knuth's estimator finds
    // cheaper: FILA started on the root's region (rootFilaInput_), each
    // row of the column placed by follow(), 160 probes below it, seeded by its cells (the same
    // choice in every subproblem and worker, and however the puzzle is written). The piece must
    // be clearly cheaper (under 0.7x) to be chosen, so near-ties keep min-fit's tree. 40 probes
    // were too few: with the box turned, 8x8 without the middle of each side estimated the
    // piece at 0.73x of min-fit's column (0.33-0.39x as written); with 160, 0.23-0.56x (its
    // placements: 0.32x). They cost ~2 ms on these boards (12-15 ms searches).
    // Measured: 8x8 without the middle of each side 0.42M placements with the piece against
    // 1.33M; 7x9 minus 3 cells and 8x8 with a hole at 2,2 keep the cell (1.17M and 2.27M with
    // the piece against 0.39M and 1.14M).
    constexpr int kProbes = 160;
    constexpr uint64_t kSeed = 777;
    fila_->reuseTables(true);
    auto cost = [&](int column) {
        std::vector<int> images;
        for (int node = dlx_.down(column); node != column; node = dlx_.down(node))
            images.push_back(dlx_.imageOfRow(dlx_.rowOf(node)));
        budget -= static_cast<long long>(images.size()) * kProbes * model_.mobileCount();
        return estimateBelow(rootFilaInput_, images, kProbes, kSeed).mean;
    };
    const double heuristic = cost(heuristicColumn), piece = cost(root_.constrainedColumn);
    fila_->reuseTables(filaReuse_);
    root_.estimates[0] = heuristic;
    root_.estimates[1] = piece;
    return heuristic >= 0 && piece >= 0 && piece < 0.7 * heuristic ? 1 : 0;
}

}  // namespace polycube
