// Solver options in the reference solver's option language, shared by the CLI and the
// Session (so the web app and the CLI accept exactly the same words).
//
//   OptionParse r = parseOptions({"-q", "-r", "L", "-o", "x:f=20", "tetris.txt"}, fileExists);
//   if (!r.ok()) error(r.error);       // "-o: unknown heuristic 'q' in 'q=3'"
//   r.options.redundancy == Redundancy::Named; r.files == {"tetris.txt"}
//
// Syntax (as the reference's users type it): short options take values attached or as the
// next word (-f11, -f 11, -oe=11:f=3, -rL, -r L); long options as --name=value or --name
// value. Options whose value is optional (-r, -P, -V, -F) take the next word only when it
// is a value: for -r, a word that does not start with '-' and is not an existing file; for
// -P/-V/-F, a number. Flags without values can be bundled (-qi). "--" ends the options.
// The parser never throws.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace polycube {

enum class Redundancy { Off, Auto, Named };

// Filter thresholds: OFF, ONCE (before the search), or N: reapplied after every placement
// while at least N pieces remain.
constexpr int kFilterOff = -1;
constexpr int kFilterOnce = 0;

struct MonteCarlo {
    long long trials = 0;  // 0: off (64-bit everywhere: `long` is 32 bits in WebAssembly)
    int range = 0;    // a trial ends when, after removing a piece, `range` pieces remain
    uint64_t seed = 0;
};

struct SolverOptions {
    // Output (CLI only; rejected by the Session).
    bool quiet = false;
    bool info = false;
    bool json = false;
    int threads = 0;              // -j N: search on N threads (CLI only; 0 = every core)
    bool progress = false;        // --progress: progress lines on standard error (CLI only; on when it is a terminal)
    bool ordered = false;         // --ordered: -j N prints the solutions in the one-thread order (CLI only)
    std::string checkpoint;       // --checkpoint FILE: keep the remaining work there (CLI only)
    std::string resume;           // --resume FILE: go on from a checkpoint (CLI only)
    int splitJobs = 0;            // --split N: write N job files (with --jobs-out DIR) instead of searching (CLI only)
    std::string jobsOut;          // --jobs-out DIR
    std::string job;              // --job FILE: search one job file, write its result beside it (CLI only)
    std::string merge;            // --merge DIR: the summary of a split search from its results (CLI only)
    bool buildOrder = false;      // --build-order: print how to put each solution together (CLI only)
    bool memo = false;            // --memo: count by the memoized search (memo/memo_counter.hpp; memo_options.hpp its rules)
    long long memoMb = 0;         // --memo-mb N: its table's budget in MiB (0: not given, the default)
    bool memoTable = false;       // --memo-table: the memoized count by the table's search, not layer by layer
    bool noMemo = false;          // --no-memo: a count enumerates even where memoizing is expected to win (memo/memo_choice.hpp)
    uint64_t solutionNumber = 0;  // --solution N: with --memo, list solution number N (1-based) of the count
    long long randomSolutions = 0;  // --random K[,SEED]: with --memo, list K solutions drawn uniformly at random
    uint64_t randomSeed = 0;
    bool randomSeedGiven = false;
    bool placementCounts = false;  // --placements: with --memo, the solutions through each placement as well (CLI only)
    // No option sets it: the Session does, so that a front end that lists solutions can say
    // when counting alone would be quicker by the memoized counter (the counting forecast of
    // memo/memo_choice.hpp, made for a listing search too; nothing acts on it).
    bool forecastListing = false;
    // Symmetry handling.
    Redundancy redundancy = Redundancy::Off;
    std::string redundancyPiece;  // with Redundancy::Named
    bool unique = false;          // -u: drop solutions equivalent to one already found
    bool mirror = false;          // -M: also count mirror images as the same
    // --no-orbits: without -r, every solution by the search itself (the articles' way) instead
    // of the unique ones' symmetric images (AlgorithmPlan::orbits, docs/all-solutions.md).
    bool orbits = true;
    // Algorithms and heuristics.
    std::string order;            // -o schedule, "" = default
    int fila = -1;                // -f N: FILA when N pieces remain (-1 off)
    bool nof = false;             // -n: neighbour occupancy filtering
    int bruijn = -1, mch = -1, emch = -1;  // -b/-m/-e N: FILA with f/s/e heuristics at N
    // Constraints.
    bool parityBacktrack = false;       // -p
    int volumeBacktrack = -1;           // -v N (-1 off)
    int parityFilter = kFilterOff;      // -P[=N]
    int volumeFilter = kFilterOff;      // -V[=N]
    int fitFilter = kFilterOff;         // -F[=N]
    // Diagnostics.
    int trace = 0;                      // -t K
    MonteCarlo monteCarlo;              // -s T,R,SEED
    long long maxSolutions = 0;         // -l N: stop after N solutions (0: all)
    bool autoTune = true;               // false when an algorithm option (-f -o -n -b -m -e) was given
    // Not an option of the language: tests turn the weighting proofs (constraints/weighting.hpp)
    // off to check by a full search that every puzzle they call impossible has no solution.
    bool weightingProofs = true;
    // Not an option either: tests turn off FILA's tables shared below the root (Solver's
    // finishSetup) to check that the search places the same pieces without them.
    bool rootTables = true;
};

struct OptionParse {
    SolverOptions options;
    std::vector<std::string> files;
    bool help = false;
    bool version = false;
    std::string error;  // empty when ok
    std::vector<std::string> given;  // the long names of the options given, in order (repeats kept)
    std::vector<std::optional<std::string>> givenValues;  // the value each of `given` took
    bool ok() const { return error.empty(); }
};

// `isFile` tells whether a word names an existing file (used by -r's lookahead); the
// Session passes a predicate that always answers false.
OptionParse parseOptions(const std::vector<std::string>& args,
                         const std::function<bool(const std::string&)>& isFile);
// Split a command-line-like string on whitespace (no quoting rules beyond "..."). With
// `error`, an unbalanced quote is reported there.
std::vector<std::string> splitWords(const std::string& text, std::string* error = nullptr);
std::string optionsHelp();

// Where an option belongs: the program itself (--help, --version), the command line's files,
// terminal and threads (refused by a Session), the CLI's output (taken by a Session, changing
// nothing it counts), or the search itself.
enum class OptionScope { Program, CommandLine, Output, Search };

// One option of the language as the front ends show it (the page's form and help are built
// from these: tools/engine_rules.cpp writes them out).
struct OptionRule {
    char shortName = 0;  // 0: none
    std::string longName;
    std::string arg;     // "none", "required" or "optional"
    bool tuning = false; // chooses the algorithm by hand (the automatic configuration is off)
    OptionScope scope = OptionScope::Search;
    std::string valueName;  // "N", "FILE", ...; "" when it takes no value
    bool ranged = false;    // the value is one whole number from lo to hi
    long long lo = 0, hi = 0;
    std::string example;    // a value the option takes ("" when it takes none)
    std::string help;
};
std::vector<OptionRule> optionRules();

// A search's option text under the Session's rules: the option language, no file names, no
// program or command-line options. The error names the word at fault.
OptionParse parseSearchOptions(const std::string& text);
// The search options (OptionScope::Search) of a parse, in the order given, as text that
// parseSearchOptions reads back to the same search ("-r L -o x:s=20"): what a checkpoint
// keeps of a command line.
std::string searchOptionsText(const OptionParse& p);
// The options of a parse whose scope `keep` accepts, in the order given, as arguments that
// parseOptions reads back to the same settings ("--jobs=2", "--quiet"): how a front end
// carries one part of a command line over to options read from elsewhere (cli/resume.cpp).
std::vector<std::string> optionArguments(const OptionParse& p, const std::function<bool(OptionScope)>& keep);

}  // namespace polycube
