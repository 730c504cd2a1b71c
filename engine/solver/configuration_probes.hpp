// The automatic configuration's Monte Carlo probes (Knuth 1975, "Estimating the efficiency of
// backtrack programs"), through FILA: is the search short, which uniquely shaped piece -r
// constrains, and which column the root branches on. The Solver's setup runs them in its
// bounded units; the DLX driver asks for the root's choice once, when the search reaches it.
//
//   ConfigurationProbes probes;
//   probes.estimateWholeSearch(ctx, symmetriesRemoved);    // setup: is the search short?
//   probes.begin(ctx, candidates);                         // setup: several -r candidates
//   while (probes.step(ctx, plan)) {}                      // one pass of probes per unit
//   bool shortSearch = probes.knownShort(automatic, pieces);
//   int choice = probes.chooseRoot(ctx, dlx, rootInput, column, pieceColumn, budget, estimates);
//
// It owns the probes' tallies, the whole puzzle's FILA input and the cells' fill order; the
// model and the FILA engine are the Solver's, lent through Context for each call.
#pragma once
#include <cstdint>
#include <vector>

#include "constraints/symmetry.hpp"
#include "puzzle/model.hpp"
#include "search/dlx.hpp"
#include "search/fila.hpp"

namespace polycube {

class ConfigurationProbes {
public:
    // What the probes use of the Solver's setup: the model, FILA (its tables reused during
    // the probes, then set back to `reuseTables`), the open cells' parity and the parity
    // classes' piece counts before any placement.
    struct Context {
        const Model& model;
        FilaEngine& fila;
        int holesParity;
        const std::vector<int>& parityLeft;
        bool reuseTables;
    };

    // The whole puzzle's cost, FILA started once from its own root, divided by `reduced`
    // (the symmetries -r removes). Only for the automatic configuration with FILA below the
    // root (the caller checks).
    void estimateWholeSearch(const Context& ctx, double reduced);
    // The search is short: by its piece count or by estimateWholeSearch's figure.
    bool knownShort(bool automatic, int pieces) const;
    // The same figure for the memoized count's automatic choice (memo/memo_choice.hpp), made
    // now if estimateWholeSearch made none (FILA not below the root): kept apart from
    // knownShort's, so the enumerating search is configured as without it. -1: none (the
    // whole puzzle is past FILA's capacity, or its tables past their limit).
    double estimateForMemoChoice(const Context& ctx, double reduced);
    // Probe the -r candidates (redundancyCandidates' list) when the search looks long:
    // active() until step() has chosen. `filaBelowRoot`: FILA searches below the root.
    void begin(const Context& ctx, std::vector<RedundancyPlan> candidates, bool automatic, bool filaBelowRoot);
    bool active() const { return active_; }
    // One pass of probes; false once over, `plan` then the cheapest candidate (unchanged when
    // the search is short or no candidate could be estimated).
    bool step(const Context& ctx, RedundancyPlan& plan);
    // Nothing will be searched (proved impossible): no piece to choose.
    void stop(const Context& ctx);
    // The root's column: 1 the constrained piece's (`pieceColumn`), 0 the heuristic's
    // (`heuristicColumn`), by probes below each of their rows on FILA started on `rootInput`;
    // their estimates in `estimates` (heuristic's, piece's). Charged to `budget`.
    int chooseRoot(const Context& ctx, const DlxMatrix& dlx, const FilaInput& rootInput, int heuristicColumn,
                   int pieceColumn, long long& budget, double estimates[2]);

private:
    struct Tally {
        CostEstimate estimate;  // pooled over the passes so far (mean < 0: none possible)
        int probes = 0;         // per kept image, over those passes
    };
    void end(const Context& ctx);
    double estimateFromRoot(const Context& ctx, double reduced);
    void fillWholePuzzleInput(const Context& ctx);
    const std::vector<double>& fillOrder(const Model& model);
    uint64_t probeSalt(const Model& model, int image, uint64_t seed);
    // Monte Carlo cost of searching with `plan` as the redundancy filter (FILA below the
    // constrained piece); mean < 0: no estimate (FILA's tables would be too big).
    CostEstimate estimateSearchCost(const Context& ctx, const RedundancyPlan& plan, int probesPerImage, uint64_t seed);
    CostEstimate estimateBelow(const Context& ctx, const FilaInput& input, const std::vector<int>& images, int probes,
                               uint64_t seed);

    bool active_ = false;  // choosing the -r piece by Monte Carlo probes
    std::vector<RedundancyPlan> candidates_;
    std::vector<Tally> tallies_;
    int refinements_ = 0;
    int next_ = -1;
    FilaInput input_;             // the whole puzzle, FILA started once (begin)
    double screenEstimate_ = -1;  // the first estimate of the search's cost (-1: none)
    bool screenTried_ = false;    // estimateWholeSearch ran (its figure may still be -1)
    std::vector<double> fillOrder_;  // cells' keys in fill order (fillOrder(): computed once)
};

}  // namespace polycube
