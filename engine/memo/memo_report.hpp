// The memoized count's figures as JSON: one shape for the command line's --json line
// (cli/memo_count.cpp adds the puzzle and the CPU time) and the Session's statsJson (which adds
// the share done).
//
//   nlohmann::json j = memoCountJson(counter.setup(), counter.stats(), "done", count, threads);
#pragma once
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "memo/memo_counter.hpp"

namespace polycube {

const char* memoStateName(MemoCounter::State s);  // "running", "done", "cancelled", "failed"

// {"state","phase","solutions" (the count, or null before it is done),"placements","attempts",
//  "pockets","seconds","setupSeconds","searchSeconds","redundancyFilter","impossible"?,
//  "configuration","memo":{"lookups","hits","misses","entries","evictions","tableBytes",
//  "budgetBytes","terms","threads"}}
nlohmann::json memoCountJson(const MemoCounter& setup, const MemoStats& stats, const char* stateName,
                             std::optional<uint64_t> count, int threads);

}  // namespace polycube
