// CountRace: the automatic choice's race (memo_choice.hpp, raceDecision). While the enumerating
// search counts a puzzle the forecast left to it, a layered count probes beside it on one
// thread, within a share of what the search has spent; when the probe's layers forecast that
// they finish the count far sooner, the search is to stop and the layered count goes on alone,
// on every thread. The front end runs the search and asks between its slices:
//
//   CountRace race(def, memoSettings(options), threads, CountRace::Measure::Clock);
//   race.onProbe([](ParallelMemo* p) { activeMemo = p; });   // what a signal cancels
//   while (solver.step(kRaceSliceAttempts) == Running)
//       if (race.between(solver.stats().totalAttempts(), solver.fractionDone())) break;
//   if (race.switched()) count(race.takeMemo());   // run on to its end; else the search's count
//
// Measure::Clock: what each side has spent is read from the clock, the probe's seconds and the
// search's (the wall clock since the race began times the threads, less the probe's), since an
// attempt of the layered count costs from half (one-sided pentominoes) to three times (the
// Tetris Cube) one of the search's. Measure::Attempts: both in attempts (the search's, given
// to between(); the probe's converted by RaceRules::layerAttemptCost), so the race runs the
// same way every time (the tests'; POLYCUBE_RACE_UNITS=attempts on the command line).
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "memo/memo_choice.hpp"
#include "memo/parallel_memo.hpp"
#include "puzzle/puzzle.hpp"

namespace polycube {

// The one-thread search's slices while it races (placement attempts): about a tenth of a
// second, so the probe's share keeps step with it.
constexpr long long kRaceSliceAttempts = 1 << 22;
// -j N: the period of the race's reading (seconds), in the slices of the search's first thread.
constexpr double kRaceSeconds = 0.1;

class CountRace {
public:
    enum class Measure { Clock, Attempts };
    // `settings`: the count's (memoSettings of the options); its budget bounds the probe's layers.
    CountRace(const PuzzleDef& def, const MemoSettings& settings, int threads, Measure measure,
              const RaceRules& rules = RaceRules{});
    // Called with the probe when it is made and with null when it is given up.
    void onProbe(std::function<void(ParallelMemo*)> hook) { onProbe_ = std::move(hook); }
    // Between two slices of the search, with its placement attempts so far (read by
    // Measure::Attempts only) and its share done: the probe's share run. True when the search
    // should stop: the probe finished the count, or its layers are to finish it (switched()).
    bool between(double searchAttempts, double searchDone);
    bool switched() const { return switched_; }
    // The layered count, to be run to its end on the threads (once switched()).
    std::unique_ptr<ParallelMemo> takeMemo();
    // One line for -i once the race is decided (switched, or the probe given up), else "".
    const std::string& why() const { return why_; }
    // One line for -i at the search's end: why(), or where the race stood when the search
    // finished with the probe still beside it (raceStanding); "" when no probe ran.
    std::string outcome() const;

private:
    void drop(const std::string& why);
    void setProbe(std::unique_ptr<ParallelMemo> probe);

    PuzzleDef def_;
    MemoSettings settings_;
    int threads_;
    Measure measure_;
    RaceRules rules_;
    std::function<void(ParallelMemo*)> onProbe_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::unique_ptr<ParallelMemo> probe_;
    double probeSpent_ = 0;
    RaceReading last_;  // the last reading weighed (outcome)
    bool over_ = false;  // given up (its layers passed the budget, or cancelled): the search alone
    bool switched_ = false;
    std::string why_;
};

}  // namespace polycube
