#include "solver/configuration.hpp"

#include <algorithm>

#include "search/fila.hpp"
#include <utility>
#include <vector>

namespace polycube {

namespace {

Heuristic heuristic(HeuristicKind kind, const char* text) {
    Heuristic h;
    h.kind = kind;
    h.text = text;
    return h;
}

// The counter-clockwise sweep from 160 degrees around the box's centre.
Heuristic sweepFrom160() {
    Heuristic h = heuristic(HeuristicKind::Angular, "a@160");
    h.degrees = 160;
    return h;
}

}  // namespace

PuzzleFacts PuzzleFacts::of(const Model& model) {
    PuzzleFacts f;
    f.pieces = model.mobileCount();
    f.xDim = model.xDim;
    f.yDim = model.yDim;
    f.zDim = model.zDim;
    f.openCells = model.openCellCount();
    f.boxCells = model.boxCellCount();
    const int inParts = model.disconnectedShape();
    if (inParts >= 0) f.pieceInParts = model.shapes[inParts].name;
    return f;
}

Result<AlgorithmPlan> planAlgorithms(const SolverOptions& options, const PuzzleFacts& facts) {
    const int pieces = facts.pieces;
    const int scheduleLength = std::max(pieces, 1);
    AlgorithmPlan plan;
    // Constraints (first seed article): thresholds as "apply while at least N pieces remain";
    // a filter given without N runs once, before the search (at the full piece count).
    auto filterAt = [&](int setting) { return setting == kFilterOff ? INT_MAX : setting == kFilterOnce ? pieces : setting; };
    plan.parityFilterAt = filterAt(options.parityFilter);
    plan.volumeFilterAt = filterAt(options.volumeFilter);
    plan.fitFilterAt = filterAt(options.fitFilter);
    plan.volumeBacktrackAt = options.volumeBacktrack > 0 ? options.volumeBacktrack : INT_MAX;
    plan.parityBacktrack = options.parityBacktrack;
    plan.nof = options.nof;
    plan.filaAt = options.fila;
    Result<std::vector<HeuristicSchedule::Entry>> given = parseScheduleEntries(options.order, scheduleLength);
    if (!given.ok()) return Result<AlgorithmPlan>::error(given.status);
    std::vector<HeuristicSchedule::Entry> entries = std::move(given.value);
    // The first seed article's algorithm thresholds: de Bruijn, MCH and EMCH are FILA with
    // the f, s and e heuristics (FILA article, "selectFila"), after any -o entries.
    auto addLegacy = [&](int at, HeuristicKind kind, const char* text) {
        if (at <= 0) return;
        plan.filaAt = std::max(plan.filaAt, at);
        entries.push_back({std::min(at, scheduleLength), heuristic(kind, text)});
    };
    addLegacy(options.mch, HeuristicKind::Size, "s");
    addLegacy(options.emch, HeuristicKind::Estimate, "e");
    addLegacy(options.bruijn, HeuristicKind::First, "f");

    if (options.autoTune && pieces >= 2) {
        // The default configuration, the same with and without -t (FILA levels are traced
        // too). Every choice below was measured (docs/algorithms.md, bench/):
        // - a one-time volume filter (first seed article, P-13, OP-2) costs about a millisecond
        //   and removes images that wall off unfillable pockets (30x3 one-sided 17x faster);
        // - small puzzles: DLX places the first piece (the one constrained by -r), then FILA
        //   with NOF (FILA article, Table 1): F on full flat boxes, E in 3-D and on irregular
        //   boards, then c (E without its fit counts) for the last 2 pieces (Tetris Cube and
        //   Bedlam a little faster than with F for the last 3); on flat boxes c is slower
        //   than F (10x6: 1.4x);
        // - irregular boards with 15 or more pieces: the volume filter is reapplied while 4
        //   fewer pieces than the start remain, with DLX, and FILA takes over below (the FILA
        //   article's PT case: 5x faster on the 13x13 diamond);
        // - more than 20 pieces: pack along an angular sweep with DLX until 15 pieces remain
        //   (the first seed article's box-in-a-diamond: a@160 then min-fit; E/F below in FILA),
        //   with one-time parity and volume filters. Fewest-fits and radial orders found no
        //   solution of the box-in-a-diamond in a minute; the sweep finds about two a second.
        const bool flat = facts.zDim == 1 || facts.yDim == 1 || facts.xDim == 1;
        const bool fullBox = facts.openCells == facts.boxCells;
        plan.nof = true;
        // Beyond the articles: extended NOF for fixed orders (10x6: 20% faster, Tetris Cube
        // unchanged) and the dead-cell cut on the last F levels (10x6: 12% fewer nodes).
        // Explicit options keep the articles' algorithms exactly.
        // Not above 20 pieces: FILA then starts at every DLX node of its depth and building
        // the extended index each time costs more than it saves (box-in-a-diamond). Nor at 8
        // pieces or fewer, where building it costs more than the nodes it saves: the F-order
        // puzzles among those of def/ 4-11% faster without it (hexominoes 01-09 in 7x6 with
        // 20,042 placements instead of 8,140), the others the same search.
        plan.extendedIndex = pieces <= 20 && pieces > kShortSearchPieces ? kMaxIndexBits : 0;
        plan.automatic = true;
        // Not on a search of at most kShortSearchPieces pieces: there the filter costs more
        // than the placements it saves (all 19 such puzzles of def/ 0-16% faster without it,
        // with 0-20% more placements; with more pieces it pays: the family benchmark's other
        // puzzles 5% slower in sum without it).
        if (plan.volumeFilterAt == INT_MAX && pieces > kShortSearchPieces) plan.volumeFilterAt = pieces;
        // A one-time parity filter (first seed article, "Image Filters"): a lookup per image,
        // the same search where no image's parity is out of reach (10x6, Tetris Cube,
        // Bedlam), and fewer placements where some are: Soma 38k -> 21k, the Soma figures
        // 1.1-1.9x faster (bench/FAMILIES.md, `auto+P`).
        if (plan.parityFilterAt == INT_MAX) plan.parityFilterAt = pieces;
        const HeuristicSchedule::Entry minFit{scheduleLength, heuristic(HeuristicKind::Size, "s")};
        if (pieces > 20) {
            plan.filaAt = 15;
            entries = {{scheduleLength, sweepFrom160()},
                       {std::min(15, scheduleLength), heuristic(HeuristicKind::Estimate, "e")},
                       {3, heuristic(HeuristicKind::First, "f")}};
        } else if (!fullBox && pieces >= 15) {
            plan.filaAt = pieces - 4;
            plan.volumeFilterAt = std::min(plan.volumeFilterAt, plan.filaAt);
            entries = {minFit, {plan.filaAt, heuristic(HeuristicKind::Estimate, "e")}, {3, heuristic(HeuristicKind::First, "f")}};
        } else {
            plan.filaAt = pieces - 1;
            // DLX's one level places the piece -r constrains. Left to min-fit, the root could
            // branch on a corner cell with fewer rows instead (the one-time volume filter thins
            // the corners), and FILA would then start with the constrained piece still to place.
            // Measured (placements, default -r): 12x5 pentominoes 6.1M -> 2.2M, 15x4 1.6M ->
            // 0.54M, hexominoes 12x5 1.1M -> 0.21M, tetrominoes+pentominoes 10x5 25.7M -> 6.6M,
            // Soma roof 36k -> 13k; Tetris Cube, Bedlam, 10x6 unchanged (they branched on it
            // already). On flat boards with holes either can be better: a cell beside a hole
            // (7x9 minus 3 cells: 0.39M against 1.17M; 8x8 with a hole at 2,2: 1.14M against
            // 2.27M) or the piece (8x8 without the middle of each side: 0.42M against 1.33M),
            // so there Monte Carlo probes choose (chooseRootByProbes). In 3-D too: solid
            // pentominoes in 5x4x3 branch best on I's 12 images (with Y constrained: 0.49G
            // placements against 0.90G on Y's 56), so a long 3-D search lets the probes choose
            // and a short one keeps the piece (finishSetup). A forced move (a column of one
            // row) still comes first.
            plan.rootOnConstrainedPiece = flat && fullBox;
            plan.rootByProbes = !plan.rootOnConstrainedPiece;
            plan.rootProbesWhenLong = !flat;
            // A long thin full box (a cross-section of at most 6 cells: 10x3x2, 8x2x2) fills like
            // a strip, column by column: F as on flat boxes. Solid pentominoes in 10x3x2: F 1.75x
            // faster than E (0.94 M and 1.0 M attempts: E's fit counting costs 2.5x per node);
            // in 6x5x2 (a section of 10) F is 4.6x slower than E, in 5x4x3 5.6x.
            int dims[3] = {facts.xDim, facts.yDim, facts.zDim};
            std::sort(dims, dims + 3);
            const bool thinBox = fullBox && dims[0] * dims[1] <= 6;
            const bool useE = (!flat || !fullBox) && !thinBox;
            if (useE)
                entries = {minFit, {plan.filaAt, heuristic(HeuristicKind::Estimate, "e")},
                           {std::min(2, plan.filaAt), heuristic(HeuristicKind::Cornered, "c")}};
            else
                entries = {minFit, {plan.filaAt, heuristic(HeuristicKind::First, "f")}};
        }
        // Filters reapplied while N or more pieces remain, and the volume trigger, work on the
        // DLX matrix: leave those levels to DLX.
        for (int at : {options.volumeBacktrack, options.parityFilter, options.volumeFilter, options.fitFilter})
            if (at > 0) plan.filaAt = std::min(plan.filaAt, at - 1);
    }
    if (plan.filaAt > pieces) plan.filaAt = pieces;
    // The unique solutions' images instead of the whole tree: only where the search is the
    // automatic configuration's own. -r and -u ask for classes, not every solution; -t
    // (Watch) shows the search as it runs, which must be the tree of every solution; Monte
    // Carlo's trials sample the tree they are asked about; explicit algorithm options
    // reproduce the articles' search (their placements and statistics) exactly; --no-orbits
    // asks for the old path by name (tests compare the two).
    plan.orbits = plan.automatic && options.orbits && options.redundancy == Redundancy::Off && !options.unique &&
                  options.trace == 0 && options.monteCarlo.trials == 0;
    plan.schedule = makeSchedule(std::move(entries), scheduleLength);
    // A piece whose cells do not all touch face to face can lie across two regions of open
    // cells: the volume filter and trigger (a region must hold whole pieces) would cut
    // solutions. They are off for such puzzles, asked for or chosen (infoText says so).
    // The dead-cell cut likewise: a hole with no open neighbour can still take a piece in
    // parts (one part a single cell).
    plan.deadCellCut = plan.automatic && facts.pieceInParts.empty();
    if (!facts.pieceInParts.empty()) {
        if (plan.volumeFilterAt != INT_MAX || plan.volumeBacktrackAt != INT_MAX) plan.volumeOffFor = facts.pieceInParts;
        plan.volumeFilterAt = INT_MAX;
        plan.volumeBacktrackAt = INT_MAX;
    }
    return Result<AlgorithmPlan>::success(std::move(plan));
}

}  // namespace polycube
