// The automatic choice between counting by enumeration and by the memoized counter, for a
// count that lists no solution (the command line's -q, neither --memo nor --no-memo).
//
//   double bound = memoSubproblemBound(model) * terms;             // terms: 1, or 1 + symmetries with -r
//   double e = bound * kMemoSubproblemCost < kMemoWorthWeighing ? estimate() : -1;
//   if (near(bound, e)) bound = std::min(bound, memoReachableBound(model, e / kMemoRefineShare) * terms);
//   MemoForecast f = forecastMemo(bound, e);
//   if (f.memoize) countByMemo(...); else search(...);   // f.reason says why, for -i
//   // and while it searches, raceDecision (below, run by memo/count_race.hpp) may switch
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
#include <vector>

#include "memo/memo_counter.hpp"
#include "puzzle/model.hpp"

namespace polycube {

struct MemoForecast {
    double subproblemBound = 0;   // at most this many subproblems in all the terms
    bool reached = false;         // the bound counts only the frontiers the images reach
    double enumeratingCost = -1;  // the enumerating search's estimate (-1: none)
    bool memoize = false;
    // Not memoized, but the layered count may race the enumerating search (raceDecision):
    // every count the forecast weighs (a short search is not weighed).
    bool raceable = false;
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

// The layered count's subproblems in all its layers, forecast from its first layers (-1: too
// few layers done to tell). `sizes[p]`: the distinct subproblems of layer p, for the layers
// done (in order), of `positions` in all. The growth per layer is measured over the last two periods of `period`
// layers (the sweep's cross-section: the sizes repeat with it) and carried on to the middle of
// the sweep; the layers after the middle shrink as they grew (a box's layers rise towards its
// middle, where the most frontiers and sets of pieces meet, and fall after it). Measured on
// the one-sided pentominoes 18x5 (1 M subproblems done: 3.2e7 forecast, 3.8e7 counted) and
// 6x15 (3 M done: 2.1e8, 1.8e8), the pentominoes 10x6 (0.3 M: 7.7e5, 1.0e6).
// `peak` (optional): the largest layer's subproblems, forecast the same way.
double forecastLayers(const std::vector<long long>& sizes, int positions, int period, double* peak = nullptr);

// The share of a layered pass done, for its progress: `expanded` subproblems (those of the
// layers `sizes` opened so far, the last one perhaps in part) over the layers' total. Counting
// each layer as an equal share runs far ahead, as the layers rise towards the sweep's middle
// (one-sided 18x5 said 44% at a sixth of its time). The total: in the sweep's first half,
// forecastLayers'; past the middle, the layers still to come taken as the mirror image of
// those done around the largest so far (a box's layers fall after their peak about as they
// rose: past the middle of 18x5 this total is 0.62x to 1.25x the true one, where
// forecastLayers, which carries the last growth on, says up to 2.2x). Until the forecast can
// tell (two cross-sections of layers), `byLayers`: the layers' share.
double layeredShareDone(const std::vector<long long>& sizes, double expanded, double byLayers, int positions, int period);

// The race (a count the forecast leaves to the enumerating search; memo/count_race.hpp runs it).
// The bound above cannot tell a count the layers finish in seconds (one-sided pentominoes
// 18x5: 3.8e7 subproblems against a bound of 1.4e12) from one whose layers pass any budget (the
// Tetris Cube), and the enumerating search's estimate misjudges long searches most (18x5:
// 7e7 units estimated, 1e10 done). So a count the forecast leaves to the enumerating search
// also runs the layered count beside it, as a probe: once the search has spent the rules'
// start, the probe may spend their share of what the search has spent, in the same units.
// When the probe's layers forecast (forecastLayers) that the rest of the layered count costs, at the
// probe's own rate, less than 1 / margin of what the search's share done says it has left,
// and its largest layer within 1 / budgetFit of the budget, the search is stopped and the
// layered count goes on alone, on every thread (with the rest but not yet the peak in favour,
// the probe's share is promisingShare until the peak's forecast settles). A probe whose
// layers pass the memory budget is dropped (MemoSettings::layersOnly). So a search that ends
// before the rules' start is untouched, and one the layers cannot beat loses at most their
// share (2.5%: the Tetris Cube on two threads 1.02x; one-sided pentominoes 18x5 4 s, was 37).
struct RaceRules {
    double share = 0.025;
    double margin = 3;
    // The search's spending before the probe starts: placement attempts (one thread), or CPU
    // seconds of the threads (-j N, read from the clock: the threads' attempts are their own).
    double startAttempts = 3e7;
    double startSeconds = 0.5;
    // An image attempt of the layered count costs about this many of the enumerating search's
    // placement attempts (one-sided pentominoes 16x5: 8.4 ns against 33 ns; the Tetris Cube:
    // 53 ns against 18 ns): only the test's measure (CountRace::Measure::Attempts) reads it.
    double layerAttemptCost = 0.5;
    // The switch wants the largest layer forecast at most 1 / budgetFit of the budget.
    double budgetFit = 2;
    // When the layers' rest already beats the search's by the margin but their largest layer
    // is not yet forecast within the budget's 1 / budgetFit, only within hopeFactor times the
    // budget (early forecasts run high, up to 2.2x: docs/memo.md), the probe may spend this
    // share instead, so that its forecast settles sooner: one-sided 6x15 without -r waited
    // some 30 s for it at 2.5%. Its work is not lost when it switches (the probe is the count
    // that goes on); when it does not, the search has paid this share while the peak stayed
    // in doubt.
    double promisingShare = 0.25;
    double hopeFactor = 2.5;
};

struct RaceReading {
    double searchSpent = 0;     // what the enumerating search has spent (attempts or seconds)
    double searchDone = 0;      // its share done (the progress line's), 0 to 1
    bool clock = false;         // searchSpent and probeSpent are seconds (else attempts)
    double probeSpent = 0;      // what the probe has spent, in the search's units
    MemoCounter::LayerOutlook probe;  // the probe's layers
    long long maxBytes = 0;     // their budget
};
enum class RaceMove {
    Search,   // the search alone for now
    Probe,    // the probe may spend `allowance` more
    Switch,   // stop the search, the layered count goes on alone
};
struct RaceDecision {
    RaceMove move = RaceMove::Search;
    double allowance = 0;  // (Probe) in the search's units
    std::string why;       // (Switch) one line for -i's COUNTING
};
RaceDecision raceDecision(const RaceReading& r, const RaceRules& rules = RaceRules{});
// Where a race stands when the search ended with the probe still beside it (neither switched
// nor given up): one line for -i's COUNTING_PROBE, with the figures the next decision would
// have weighed (what the probe counted and spent, its forecast, the two rests), so that a
// count left to the search says why. "" when the probe never ran.
std::string raceStanding(const RaceReading& r, const RaceRules& rules = RaceRules{});

}  // namespace polycube
