// --memo's rules, one source for the command line and the Session (the page): which options a
// memoized count refuses, the counter's settings from the options, and its table's budget in
// a Session, where it must fit the engine's memory budget for a search.
//
//   if (std::string why = memoConflict(options); !why.empty()) refuse(why);  // parseSearchOptions does
//   MemoSettings s = memoSettings(options);                                  // the CLI's
//   Result<long long> bytes = sessionMemoBytes(options, ModelLimits{});       // the Session's
#pragma once
#include <string>

#include "common/status.hpp"
#include "memo/memo_counter.hpp"
#include "solver/options.hpp"

namespace polycube {

// Why a memoized count cannot go with these options ("" when it can): the options that list,
// order or limit solutions, trace or sample the enumerating search, or tune its algorithm; or
// --memo-mb without --memo. (The CLI also wants -q or --json, since it would print nothing
// else: the Session lists nothing anyway.)
std::string memoConflict(const SolverOptions& o);

// Whether the automatic choice (memo/memo_choice.hpp) may count these options by the memoized
// search: neither --memo nor --no-memo nor --memo-mb given, and nothing memoConflict refuses.
// The caller adds that no solution is listed (the command line's -q or --json).
bool automaticMemoAllowed(const SolverOptions& o);

// The counter's settings: -r and its piece, -M, --memo-mb's budget (or defaultMemoBytes()), and
// the solutions to list (--solution, --random; without --random's SEED, a seed drawn here).
MemoSettings memoSettings(const SolverOptions& o);

// The budget without --memo-mb, natively: a quarter of this machine's memory, from 1 GiB to
// 16 GiB (one-sided pentominoes 6x15 layer by layer needs 1.9 GiB; a count whose layers pass
// the budget is counted by the slower table's search, so the budget is what decides whether
// such counts are fast). In WebAssembly, MemoSettings::kDefaultTableBytes (the Session has its
// own budget, sessionMemoBytes).
constexpr long long kMemoDefaultMostBytes = 16LL << 30;
long long defaultMemoBytes();

// In a Session, the table's budget: --memo-mb when given, refused above kSessionMemoShareMax of
// the search's memory budget (limits.maxTotalBytes: a table growing by doubling holds its old
// and new halves at once); otherwise kSessionMemoShare of that budget.
constexpr double kSessionMemoShare = 0.25;
constexpr double kSessionMemoShareMax = 0.5;
Result<long long> sessionMemoBytes(const SolverOptions& o, const ModelLimits& limits);
// The most --memo-mb may give in a Session (statsJson's "memo":{"mostBudgetBytes"}: the page
// offers more memory only below it).
long long sessionMostMemoBytes(const ModelLimits& limits);

}  // namespace polycube
