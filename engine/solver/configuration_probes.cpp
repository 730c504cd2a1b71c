// The automatic configuration's Monte Carlo probes (solver/configuration_probes.hpp): whether
// the search is short, which uniquely shaped piece -r constrains, and which column the root
// branches on.
#include "solver/configuration_probes.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <sstream>

#include "common/hash.hpp"
#include "solver/configuration.hpp"
#include "solver/fila_input.hpp"

namespace polycube {

// The probes' estimate (list entries examined, about 50 per microsecond natively) below which
// a search counts as short (~0.5 s): the other -r candidates are not probed (step), and
// FILA's tables serve every root image (finishSetup).
constexpr double kShortSearchCost = 3e7;

double ConfigurationProbes::estimateFromRoot(const Context& ctx, double reduced) {
    // Knuth's estimator through FILA started once on the whole puzzle, from its own root:
    // 64 probes, divided by the symmetries -r removes. FILA's tables are set back afterwards
    // unless the -r candidates' probes (active_) go on with the same input.
    constexpr int kProbes = 64;
    constexpr uint64_t kSeed = 4242;
    double estimate = -1;
    if (input_.openCells.empty()) fillWholePuzzleInput(ctx);
    if (!input_.openCells.empty() && ctx.fila.start(input_)) estimate = ctx.fila.estimateCost(kProbes, kSeed).mean / reduced;
    if (!active_) {
        input_ = FilaInput{};
        ctx.fila.reuseTables(ctx.reuseTables);
    }
    return estimate;
}

void ConfigurationProbes::estimateWholeSearch(const Context& ctx, double reduced) {
    // The automatic configuration's first question: is the search short? A short search is
    // not probed for the -r piece (step) and shares FILA's tables below the root with E too
    // (Solver::finishSetup). It replaced, for that question, a pass of 40 probes under every
    // kept image of the first -r candidate, which took 10% of a millisecond puzzle (Soma
    // figures, hexominoes in 7x6); a long search still gets that pass first (the Tetris Cube
    // and Bedlam choose as before).
    if (ctx.model.mobileCount() <= kShortSearchPieces) return;  // short whatever the estimate (knownShort)
    screenEstimate_ = estimateFromRoot(ctx, reduced);
    screenTried_ = true;
}

double ConfigurationProbes::estimateForMemoChoice(const Context& ctx, double reduced) {
    // (an estimate that could not be made once, FILA refusing the whole puzzle, is not tried again)
    return screenTried_ ? screenEstimate_ : estimateFromRoot(ctx, reduced);
}

bool ConfigurationProbes::knownShort(bool automatic, int pieces) const {
    return (automatic && pieces <= kShortSearchPieces) || (screenEstimate_ >= 0 && screenEstimate_ < kShortSearchCost);
}

void ConfigurationProbes::begin(const Context& ctx, std::vector<RedundancyPlan> candidates, bool automatic,
                                bool filaBelowRoot) {
    // Which uniquely shaped piece to constrain matters (FILA article: L instead of G makes
    // the Tetris Cube 3 times faster) and no simple rule predicts it (the largest, most
    // compact piece is best for the Tetris Cube, the one with fewest images for Bedlam). So
    // when the search looks long, estimate each candidate's search cost with Monte Carlo
    // probes through the configured algorithms and keep the cheapest. One pass of probes
    // per step() call, so setup stays in bounded slices.
    active_ = false;
    if (!filaBelowRoot) return;
    // A short search is not probed (step): known here for a few pieces, without the whole
    // puzzle's FILA input the probes would need.
    if (automatic && ctx.model.mobileCount() <= kShortSearchPieces) return;
    candidates_ = std::move(candidates);
    if (candidates_.size() < 2) return;
    active_ = true;
    next_ = -1;  // the first call decides whether to probe at all
    fillWholePuzzleInput(ctx);
    tallies_.assign(candidates_.size(), Tally{});
    refinements_ = 0;
}

const std::vector<double>& ConfigurationProbes::fillOrder(const Model& model) {
    if (fillOrder_.empty()) {
        Heuristic first;
        first.kind = HeuristicKind::First;
        fillOrder_ = cellKeys(first, model);
    }
    return fillOrder_;
}

void ConfigurationProbes::fillWholePuzzleInput(const Context& ctx) {
    // FILA's input for the whole puzzle, every image in: the probes place a candidate's kept
    // images on it with follow() (a piece of its own shape places no other image of it).
    // What fillFilaInput would read off a matrix of every image, without building one: the
    // cells in the header list's order (DlxMatrix::begin: "first open cell" order), every
    // image in its column's order (by id: the model groups them by shape), every copy.
    const Model& model = ctx.model;
    input_ = FilaInput{};
    if (model.openCellCount() > ctx.fila.capacity()) return;
    const std::vector<double>& order = fillOrder(model);
    input_.openCells.resize(model.openCellCount());
    std::iota(input_.openCells.begin(), input_.openCells.end(), 0);
    std::stable_sort(input_.openCells.begin(), input_.openCells.end(), [&](int a, int b) { return order[a] < order[b]; });
    input_.images.resize(model.images.size());
    std::iota(input_.images.begin(), input_.images.end(), 0);
    input_.copiesLeft.resize(model.shapeCount());
    for (int s = 0; s < model.shapeCount(); ++s) input_.copiesLeft[s] = model.shapes[s].count;
    input_.pieces = model.mobileCount();
    input_.holesParity = ctx.holesParity;
    input_.parityLeft = ctx.parityLeft;
    ctx.fila.reuseTables(true);
}

bool ConfigurationProbes::step(const Context& ctx, RedundancyPlan& plan) {
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
    const int n = static_cast<int>(candidates_.size());
    auto pass = [&](int c, int probes) {
        Tally& t = tallies_[c];
        const CostEstimate e = estimateSearchCost(ctx, candidates_[c], probes,
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
    if (next_ < 0 && screenEstimate_ >= 0 && screenEstimate_ < kShortSearchCost) {
        end(ctx);  // a short search by the whole puzzle's estimate (estimateWholeSearch)
        return false;
    }
    if (next_ < 0) {
        // The first candidate's screening decides whether to probe at all: a short search
        // (under ~0.5 s) keeps it, as probing the others would cost more than it could save.
        pass(0, kScreenProbes);
        next_ = 1;
        const double first = tallies_[0].estimate.mean;
        screenEstimate_ = first;
        if (first >= 0 && first < kShortSearchCost) {
            end(ctx);
            return false;
        }
        return true;
    }
    if (next_ < n) {
        pass(next_++, kScreenProbes);
        return true;
    }
    int best = -1;
    for (int c = 0; c < n; ++c)
        if (tallies_[c].estimate.mean >= 0 && (best < 0 || tallies_[c].estimate.mean < tallies_[best].estimate.mean))
            best = c;
    if (best >= 0) {
        const CostEstimate& b = tallies_[best].estimate;
        auto contender = [&](const Tally& t) {
            return t.estimate.mean >= 0 && t.estimate.mean - b.mean < 2 * std::sqrt(t.estimate.variance + b.variance);
        };
        int next = -1, contenders = 0;
        for (int c = 0; c < n; ++c) {
            const Tally& t = tallies_[c];
            if (!contender(t)) continue;
            ++contenders;
            if (next < 0 || t.probes < tallies_[next].probes) next = c;
        }
        const int allowed = static_cast<int>(std::min<double>(kMaxRefinements, b.mean / kCostPerRefinement));
        if (contenders > 1 && refinements_ < allowed) {
            ++refinements_;
            pass(next, kProbes);
            return true;
        }
        std::string notes;
        for (int c = 0; c < n; ++c) {
            const Tally& t = tallies_[c];
            if (t.estimate.mean < 0) continue;
            std::ostringstream v;
            v << std::setprecision(2) << t.estimate.mean;
            notes += (notes.empty() ? "" : ", ") + ctx.model.shapes[candidates_[c].shape].name + " " + v.str();
            if (t.probes > kScreenProbes) notes += " (" + std::to_string(t.probes) + " probes)";
        }
        plan = std::move(candidates_[best]);
        plan.description += "; chosen by Monte Carlo probes, estimated cost: " + notes;
    }
    end(ctx);
    return false;
}

void ConfigurationProbes::stop(const Context& ctx) {
    if (!active_) return;
    active_ = false;
    end(ctx);
}

void ConfigurationProbes::end(const Context& ctx) {
    candidates_.clear();
    tallies_.clear();
    input_ = FilaInput{};
    ctx.fila.reuseTables(ctx.reuseTables);
}

CostEstimate ConfigurationProbes::estimateSearchCost(const Context& ctx, const RedundancyPlan& plan, int probesPerImage,
                                                     uint64_t seed) {
    // DLX places the constrained piece first (it has the fewest images), then FILA searches
    // below each of its kept images: estimate FILA's cost under each and add them up. Each
    // image's probes are salted by its cells, not its id, so the estimate does not depend on
    // how the puzzle is written.
    const CostEstimate none{-1, 0};
    CostEstimate total;
    const Model& model = ctx.model;
    if (!input_.openCells.empty() && model.shapes[plan.shape].count == 1) {
        // FILA started once on the whole puzzle (every candidate's input: a piece of its own
        // shape places no other image of that shape), its tables kept, and each kept image
        // placed on it by follow(): one build of the tables instead of one per kept image
        // (hexominoes 01-09 in 7x6: the probes took 40% of the default's time).
        return estimateBelow(ctx, input_, plan.keptImages, probesPerImage, seed);
    }
    std::vector<char> enabled(model.images.size(), 1);
    for (int i : plan.removedImages) enabled[i] = 0;
    DlxMatrix dlx;
    dlx.build(model, enabled);
    const int col = dlx.columnOfShape(plan.shape);
    const int cellsLeft = model.openCellCount() - model.shapes[plan.shape].size;
    if (cellsLeft > ctx.fila.capacity()) return none;
    FilaInput input;
    for (int image : plan.keptImages) {
        const int row = dlx.rowOfImage(image);
        int node = dlx.down(col);
        while (node != col && dlx.rowOf(node) != row) node = dlx.down(node);
        if (node == col) continue;
        dlx.coverChosen(col);
        dlx.selectRow(node);
        fillFilaInput(input, dlx, model, model.mobileCount() - 1, ctx.holesParity - model.images[image].parity, ctx.parityLeft);
        const bool started = ctx.fila.start(input);
        if (started) total += ctx.fila.estimateCost(probesPerImage, probeSalt(model, image, seed));
        dlx.unselectRow(node);
        dlx.uncoverChosen(col);
        if (!started) return none;  // FILA's tables would be too big: no estimate
    }
    return total;
}

uint64_t ConfigurationProbes::probeSalt(const Model& model, int image, uint64_t seed) {
    // Salted by the image's cells in fill order (as FILA numbers them), not by cell ids, which
    // follow the way the box is written.
    const std::vector<double>& order = fillOrder(model);
    std::vector<int64_t> ranks;
    for (int c : model.images[image].cells) ranks.push_back(static_cast<int64_t>(order[c]));
    std::sort(ranks.begin(), ranks.end());
    return hashWords(ranks.data(), ranks.size(), seed);
}

CostEstimate ConfigurationProbes::estimateBelow(const Context& ctx, const FilaInput& input, const std::vector<int>& images,
                                               int probes, uint64_t seed) {
    // FILA started on `input` (its tables kept: reuseTables must be on), each image placed on
    // it by follow() and `probes` probes below it, salted by the image's cells; summed. Mean
    // -1 when FILA's tables for `input` would pass their limit.
    CostEstimate total;
    for (int image : images) {
        if (!ctx.fila.start(input)) return CostEstimate{-1, 0};
        if (ctx.fila.follow(&image, 1)) total += ctx.fila.estimateCost(probes, probeSalt(ctx.model, image, seed));
    }
    return total;
}

int ConfigurationProbes::chooseRoot(const Context& ctx, const DlxMatrix& dlx, const FilaInput& rootInput,
                                    int heuristicColumn, int pieceColumn, long long& budget, double estimates[2]) {
    // Flat boards with holes and long 3-D searches: branch first on the heuristic's column
    // (min-fit: a cell beside a hole, a corner the volume filter thinned, the piece with the
    // fewest images) or on the constrained piece, whichever Knuth's estimator finds
    // cheaper: FILA started on the root's region (rootInput), each
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
    ctx.fila.reuseTables(true);
    auto cost = [&](int column) {
        std::vector<int> images;
        for (int node = dlx.down(column); node != column; node = dlx.down(node))
            images.push_back(dlx.imageOfRow(dlx.rowOf(node)));
        budget -= static_cast<long long>(images.size()) * kProbes * ctx.model.mobileCount();
        return estimateBelow(ctx, rootInput, images, kProbes, kSeed).mean;
    };
    const double heuristic = cost(heuristicColumn), piece = cost(pieceColumn);
    ctx.fila.reuseTables(ctx.reuseTables);
    estimates[0] = heuristic;
    estimates[1] = piece;
    return heuristic >= 0 && piece >= 0 && piece < 0.7 * heuristic ? 1 : 0;
}

}  // namespace polycube
