// Helpers shared by the C++ tests: load golden definition files, run a solver to the end,
// collect solutions (each validated by the independent checker).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "check/checker.hpp"
#include "memo/memo_options.hpp"
#include "puzzle/puzzle.hpp"
#include "solver/options.hpp"
#include "session/session.hpp"
#include "solver/solver.hpp"

namespace polycube::testing {

// True in the AddressSanitizer build (scripts/test.sh runs the C++ tests there a second time,
// where a search is 5-20x slower), and in any build compiled with -DPOLYCUBE_TEST_REDUCED
// (how the reduced suite's line coverage is compared with the whole suite's: docs/testing.md).
// Tests with several puzzles then leave out their largest ones, which the optimised build
// runs; their smaller cases go through the same code.
// (-DPOLYCUBE_TEST_FULL: the whole sizes under the sanitizers too, as scripts/nightly.sh runs.)
#if defined(POLYCUBE_TEST_FULL)
inline constexpr bool kReducedRun = false;
#elif defined(__SANITIZE_ADDRESS__) || defined(POLYCUBE_TEST_REDUCED)
inline constexpr bool kReducedRun = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kReducedRun = true;
#else
inline constexpr bool kReducedRun = false;
#endif
#else
inline constexpr bool kReducedRun = false;
#endif

// Step a Session whose start() was accepted until its setup is over (or it stopped).
inline void stepUntilReady(Session& s) {
    while (!s.ready() && s.step(1e6) == Session::RUNNING) {
    }
}

// A search split over threads or subproblems must count exactly as one whole run: the totals
// and every per-level counter (SolverStats::forEachLevelCounter lists them).
// A puzzle of def/ and options, for tests that loop over a few of them.
struct DefCase {
    const char* file;
    const char* options;
};

inline void expectSameStatistics(const SolverStats& got, const SolverStats& want) {
    EXPECT_EQ(got.solutions, want.solutions);
    EXPECT_EQ(got.found, want.found);
    EXPECT_EQ(got.redundant, want.redundant);
    SolverStats::forEachLevelCounter(got, want, [](const auto& a, const auto& b) { EXPECT_EQ(a, b); });
}

inline std::string readDefFile(const std::string& name) {
    std::ifstream in(std::string(POLYCUBE_DEF_DIR) + "/" + name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline PuzzleDef loadPuzzle(const std::string& file, int index = 0) {
    ParseResult r = parseDefinitions(readDefFile(file), file);
    EXPECT_TRUE(r.ok()) << r.error.format();
    if (!r.ok() || index >= static_cast<int>(r.puzzles.size())) return {};
    return r.puzzles[index];
}

// Every count of the corpus's fast tier (def/catalog.json, each confirmed by the enumerating
// search): fn(file, def, options, count), inside a SCOPED_TRACE naming the file and options.
template <class Fn>
void forEachFastCount(Fn fn) {
    const nlohmann::json catalog = nlohmann::json::parse(readDefFile("catalog.json"));
    for (const auto& entry : catalog) {
        if (entry["tier"] != "fast") continue;
        const std::string file = entry["file"].get<std::string>();
        const PuzzleDef def = loadPuzzle(file);
        for (const auto& [options, count] : entry["counts"].items()) {
            SCOPED_TRACE(file + " " + options);
            fn(file, def, options, count.get<uint64_t>());
        }
    }
}

inline PuzzleDef parsePuzzle(const std::string& text) {
    ParseResult r = parseDefinitions(text, "test");
    EXPECT_TRUE(r.ok()) << r.error.format();
    return r.ok() ? r.puzzles.front() : PuzzleDef{};
}

inline SolverOptions optionsFrom(const std::string& words) {
    OptionParse p = parseOptions(splitWords(words), [](const std::string&) { return false; });
    EXPECT_TRUE(p.ok()) << p.error;
    return p.options;
}

// The memoized counter's settings for option text, as the CLI reads them, with a table budget.
inline MemoSettings memoSettingsFrom(const std::string& options, long long bytes = MemoSettings::kDefaultTableBytes) {
    MemoSettings s = memoSettings(optionsFrom(options));
    s.maxTableBytes = bytes;
    return s;
}

// The same for the table's search (MemoSettings::layered off): what lists solutions by number,
// what -j partitions, and what counts a term whose layers pass the budget.
inline MemoSettings tableSettingsFrom(const std::string& options, long long bytes = MemoSettings::kDefaultTableBytes) {
    MemoSettings s = memoSettingsFrom(options, bytes);
    s.layered = false;
    return s;
}

// Work a solver did between two readings of its statistics, for tests that count what
// happens after a cancel instead of timing it: how much its per-level counters (placements
// tried and fitted, rows the image filters hid, backtrack triggers) grew. A subproblem's path
// levels, replayed in its first slice, go back to their counts at the end of that slice
// (Solver::startSubproblem), so they only shrink; the search below the path counts at the
// levels below them.
inline long long workBetween(const SolverStats& before, const SolverStats& after) {
    long long n = 0;
    SolverStats::forEachLevelCounter(after, before, [&n](const std::vector<long long>& a, const std::vector<long long>& b) {
        for (size_t r = 0; r < a.size(); ++r) n += std::max(0LL, a[r] - (r < b.size() ? b[r] : 0LL));
    });
    return n;
}

struct RunResult {
    long long count = 0;
    std::vector<std::vector<int>> grids;  // kept when requested
    SolverStats stats;
    std::string error;
    int checkerFailures = 0;
    std::string firstCheckerFailure;
};

// Runs to completion in slices of `slice` attempts; every solution goes through the checker.
inline RunResult solve(const PuzzleDef& def, const std::string& options, bool keepGrids = false,
                       long long slice = 1 << 20) {
    RunResult out;
    auto created = Solver::create(def, optionsFrom(options));
    if (!created.ok()) {
        out.error = created.status.message;
        return out;
    }
    Solver& s = *created.value;
    s.setSolutionHandler([&](const Solution& sol) {
        CheckResult c = checkSolution(def, sol.grid);
        if (!c.ok && out.checkerFailures++ == 0) out.firstCheckerFailure = c.message;
        if (keepGrids) out.grids.push_back(sol.grid);
    });
    while (s.step(slice) == Solver::State::Running) {
    }
    out.count = s.stats().solutions;
    out.stats = s.stats();
    return out;
}

}  // namespace polycube::testing
