#include "memo/count_race.hpp"

#include <algorithm>

namespace polycube {

namespace {
using Clock = std::chrono::steady_clock;
// The probe's slices (image attempts) under the clock: short next to a reading's period and
// to its first allowance (2.5% of half a second), so its share is kept to within a slice even
// where an attempt is dear (solid 2x5x6 -r -M: 130-170 ns at first, so that a slice of 2^18
// took 35-45 ms, three times the allowance, in a search of one second).
constexpr long long kProbeSlice = 1 << 16;
}  // namespace

CountRace::CountRace(const PuzzleDef& def, const MemoSettings& settings, int threads, Measure measure,
                     const RaceRules& rules)
    : def_(def), settings_(settings), threads_(std::max(threads, 1)), measure_(measure), rules_(rules) {
    // Layers or nothing: the table's search is no match for a search the forecast chose.
    settings_.layersOnly = true;
    settings_.layered = true;
    settings_.threads = 1;
    settings_.solutionNumber = 0;
    settings_.randomSolutions = 0;
}

void CountRace::setProbe(std::unique_ptr<ParallelMemo> probe) {
    if (onProbe_) onProbe_(probe.get());  // (before the old one goes: nothing points to it then)
    probe_ = std::move(probe);
}

void CountRace::drop(const std::string& why) {
    over_ = true;
    why_ = why;
    setProbe(nullptr);  // (its memory back to the search)
}

bool CountRace::between(double searchAttempts, double searchDone) {
    if (over_ || switched_) return switched_;
    const bool clock = measure_ == Measure::Clock;
    RaceReading reading;
    reading.searchSpent = clock ? std::chrono::duration<double>(Clock::now() - start_).count() * threads_ - probeSpent_
                                : searchAttempts;
    reading.searchDone = searchDone;
    reading.clock = clock;
    reading.probeSpent = probeSpent_;
    reading.maxBytes = settings_.maxTableBytes;
    if (probe_) reading.probe = probe_->setup().layerOutlook();
    const RaceDecision d = raceDecision(reading, rules_);
    last_ = reading;
    if (d.move == RaceMove::Search) return false;
    if (d.move == RaceMove::Switch) {
        switched_ = true;
        why_ = d.why;
        return true;
    }
    if (!probe_) setProbe(ParallelMemo::begin(def_, settings_, 1));
    MemoCounter::State st = MemoCounter::State::Running;
    if (clock) {
        const auto t0 = Clock::now();
        double spent = 0;
        while (st == MemoCounter::State::Running && spent < d.allowance) {
            long long budget = kProbeSlice;
            st = probe_->step(budget);
            spent = std::chrono::duration<double>(Clock::now() - t0).count();
        }
        probeSpent_ += spent;
    } else {
        const long long attempts = std::max<long long>(1, static_cast<long long>(d.allowance / rules_.layerAttemptCost));
        long long budget = attempts;
        st = probe_->step(budget);
        probeSpent_ += static_cast<double>(attempts - budget) * rules_.layerAttemptCost;
    }
    switch (st) {
        case MemoCounter::State::Running: return false;
        case MemoCounter::State::Done:
            switched_ = true;
            why_ = "memoized: the layered count, probing beside the enumerating search, finished first";
            return true;
        case MemoCounter::State::Failed: drop("enumerating: the layered count beside it stopped: " + probe_->error()); return false;
        case MemoCounter::State::Cancelled: drop(""); return false;
    }
    return false;
}

std::string CountRace::outcome() const {
    if (!why_.empty() || !probe_) return why_;
    // (the probe's figures as of now, the search's as of the last reading)
    RaceReading now = last_;
    now.probeSpent = probeSpent_;
    now.probe = probe_->setup().layerOutlook();
    return raceStanding(now, rules_);
}

std::unique_ptr<ParallelMemo> CountRace::takeMemo() {
    if (probe_) probe_->addThreads(threads_);
    if (onProbe_) onProbe_(nullptr);
    return std::move(probe_);
}

}  // namespace polycube
