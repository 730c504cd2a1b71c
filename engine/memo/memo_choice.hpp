// The automatic choice between counting by enumeration and by the memoized counter, for a
// count that lists no solution (the command line's -q, neither --memo nor --no-memo).
//
//   double bound = memoSubproblemBound(model) * terms;             // terms: 1, or 1 + symmetries with -r
//   double e = bound * kMemoSubproblemCost < kMemoWorthWeighing ? estimate() : -1;
//   if (near(bound, e)) bound = std::min(bound, memoReachableBound(model, e / kMemoRefineShare) * terms);
//   MemoForecast f = forecastMemo(bound, e);
//   if (f.memoize) countByMemo(...); else search(...);   // f.reason says why, for -i
//
// The Solver's setup makes the forecast when the options leave the choice open
// (Solver::countingForecast); the command line acts on it.
//
// The enumerating search's cost is the automatic configuration's own Monte Carlo estimate
// (Knuth's estimator through FILA: nodes plus images scanned; solver/configuration_probes.hpp).
// The memoized counter's cost is bounded from above without searching: a subproblem is the
// sweep's position p (every earlier cell filled), which of the next span-1 cells are filled
// (span: the longest reach of an image along the sweep), and how many copies of each shape are
// left, whose cells must add up to what is filled. Summed over the positions, that bounds the
// subproblems of one term; the terms (-r's Burnside sums) multiply it. The memo is chosen only
// when that bound times the measured cost of a subproblem in units of the estimate is below the
// estimate, so a puzzle whose subproblems do not repeat keeps the enumerating search (the bound
// is far above its tree: 12 or more distinct pieces give 2^12 or more sets of pieces left).
#pragma once
#include <string>

#include "puzzle/model.hpp"

namespace polycube {

struct MemoForecast {
    double subproblemBound = 0;   // at most this many subproblems in all the terms
    bool reached = false;         // the bound counts only the frontiers the images reach
    double enumeratingCost = -1;  // the enumerating search's estimate (-1: none)
    bool memoize = false;
    std::string reason;           // one line for -i
};

// One memoized subproblem (a lookup, a store and the rows tried at its cell) costs about as
// much as this many units of the enumerating search's estimate (docs/memo.md, "The automatic
// choice", measures it).
constexpr double kMemoSubproblemCost = 40;
// A bound whose cost is past this many units is not weighed: the memoized count would take
// days, so the enumerating search's estimate is not worth making (12 distinct pieces and more).
constexpr double kMemoWorthWeighing = 1e13;

// The bound on the subproblems of one term of the memoized count (no search: the model's
// images and shapes). Reads every image once.
double memoSubproblemBound(const Model& model);

// A tighter bound: the same sum over only the frontiers the images can reach (a breadth-first
// pass along the sweep, pieces not counted), for about `work` image tests at most; -1 past
// that (or a frontier wider than 63 cells). The setup asks for it only when the first bound
// is near the estimate, with a share of the estimate as the work (kMemoRefineShare).
double memoReachableBound(const Model& model, long long work);
// Refine when the first bound's cost is within this factor of the estimate, spending at most
// the estimate divided by kMemoRefineShare (an image test costs about one estimate unit, so
// a puzzle the enumerating search keeps pays 2% at most).
constexpr double kMemoRefineRange = 1e4;
constexpr double kMemoRefineShare = 50;

// `bound`: on the subproblems of all the terms (one without -r; with -r, the bound times one
// plus the symmetries). `enumeratingCost` < 0: no estimate (FILA cannot start on the whole
// puzzle, or the bound is past kMemoWorthWeighing): the enumerating search.
// `reached`: the bound is memoReachableBound's (said in the reason).
MemoForecast forecastMemo(double bound, double enumeratingCost, bool reached = false);

}  // namespace polycube
