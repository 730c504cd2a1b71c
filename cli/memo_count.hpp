// --memo: counting a puzzle by the memoized search (engine/memo/memo_counter.hpp) instead of
// the enumerating one, for -q and --json counts.
//
//   if (std::string why = memoCommandLineConflict(p); !why.empty()) refuse(why);      // before any puzzle
//   ParallelMemo* volatile active = nullptr;                             // the signal handler's
//   status |= countByMemo(def, source, index, p.options, active, cpuAtStart, cpuSeconds, &reporter);
#pragma once
#include <memory>
#include <string>

#include "memo/count_race.hpp"
#include "memo/parallel_memo.hpp"
#include "progress.hpp"
#include "solver/options.hpp"

namespace polycube {

// Why the options cannot be counted by --memo ("" when they can), or why --memo-mb is out of
// place. Said at once, before any puzzle is read.
std::string memoCommandLineConflict(const OptionParse& p);

constexpr int kRaceLayersPastBudget = -2;

// Counts one puzzle (on -j N threads; one without -j) and prints what -i and --json ask for,
// and with `progress` (null: none) the progress line between runs of progressSeconds().
// `active` points to the counter while it runs (a signal handler may cancel it). Returns 0, 1
// (an error, said on standard error), or -1 when the count was cancelled (its statistics printed; the caller exits as interrupted).
// `choice`: the automatic choice's reason, printed by -i ("": --memo was given). `started`: the
// race's layered count, run on (null: a new count); should its layers pass the budget, nothing
// is printed and the result is kRaceLayersPastBudget (the caller enumerates after all).
int countByMemo(const PuzzleDef& def, const std::string& source, int index, const SolverOptions& options,
                ParallelMemo* volatile& active, double cpuAtStart, double (*cpuSeconds)(), ProgressReporter* progress,
                const std::string& choice = "", std::unique_ptr<ParallelMemo> started = nullptr);

// The race of a -q count the forecast left to the enumerating search (memo/count_race.hpp),
// on `threads` threads; `active` points to its probe while there is one (what a signal
// cancels beside the search). POLYCUBE_RACE_UNITS=attempts with one thread: the race measured
// in attempts, so it runs the same way every time (tests/cli/cli_race.sh).
std::unique_ptr<CountRace> makeCountRace(const PuzzleDef& def, const SolverOptions& options, int threads,
                                         ParallelMemo* volatile& active);
// -i's lines on a race the search finished ("" while nothing was decided).
std::string raceInfo(const CountRace& race);

}  // namespace polycube
