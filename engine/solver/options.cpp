#include "solver/options.hpp"

#include "common/text.hpp"
#include "memo/memo_counter.hpp"
#include "memo/memo_options.hpp"
#include "search/heuristics.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <sstream>

namespace polycube {

namespace {

enum class Arg { None, Required, Optional };

struct OptionSpec;
// A setter reads its own spec for its name and range (one place for each number the page shows).
using Setter = std::function<std::string(SolverOptions&, OptionParse&, const std::string* value, const OptionSpec& self)>;

struct OptionSpec {
    char shortName;  // 0: none
    const char* longName;
    Arg arg;
    bool tuning;     // chooses the algorithm by hand (disables the automatic configuration);
                     // constraints and Monte Carlo combine with the automatic choice
    OptionScope scope;
    const char* valueName;
    long long lo, hi;     // a whole-number value's range (lo > hi: not one whole number)
    const char* example;  // a value the option takes (nullptr: it takes none)
    const char* help;
    Setter set;
};

constexpr long long kPieceCount = 1000000;  // the largest piece threshold the options take
constexpr long long kFilterMax = 100000;

std::string displayName(const OptionSpec& s) {
    return s.shortName ? std::string("-") + s.shortName : std::string("--") + s.longName;
}

bool parseInt(const std::string& s, long long& out, long long lo, long long hi) {
    if (s.empty()) return false;
    const char* b = s.data();
    const char* e = b + s.size();
    auto [p, ec] = std::from_chars(b, e, out);
    return ec == std::errc() && p == e && out >= lo && out <= hi;
}

// A whole number in the option's own range.
std::string intValue(const std::string* v, const OptionSpec& self, int& out) {
    long long x;
    if (!v || !parseInt(*v, x, self.lo, self.hi))
        return displayName(self) + " needs a whole number from " + std::to_string(self.lo) + " to " +
               std::to_string(self.hi) + (v ? ", got '" + quoteText(*v) + "'" : "");
    out = static_cast<int>(x);
    return {};
}

// A filter: once when given alone, else a threshold in the option's range.
std::string filterValue(const std::string* v, const OptionSpec& self, int& out) {
    if (!v) {
        out = kFilterOnce;
        return {};
    }
    return intValue(v, self, out);
}

const std::vector<OptionSpec>& specs() {
    static const std::vector<OptionSpec> table = {
        {'h', "help", Arg::None, false, OptionScope::Program, nullptr, 1, 0, nullptr, "print this help and exit",
         [](SolverOptions&, OptionParse& p, const std::string*, const OptionSpec&) { p.help = true; return std::string(); }},
        {0, "version", Arg::None, false, OptionScope::Program, nullptr, 1, 0, nullptr, "print the version and exit",
         [](SolverOptions&, OptionParse& p, const std::string*, const OptionSpec&) { p.version = true; return std::string(); }},
        {'q', "quiet", Arg::None, false, OptionScope::Output, nullptr, 1, 0, nullptr, "do not print solutions",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.quiet = true; return std::string(); }},
        {'i', "info", Arg::None, false, OptionScope::Output, nullptr, 1, 0, nullptr, "print puzzle information and search statistics",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.info = true; return std::string(); }},
        {0, "json", Arg::None, false, OptionScope::Output, nullptr, 1, 0, nullptr,
         "after each puzzle print one JSON line {\"puzzle\",\"solutions\",\"placements\",\"seconds\",...}",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.json = true; return std::string(); }},
        {0, "build-order", Arg::None, false, OptionScope::CommandLine, nullptr, 1, 0, nullptr,
         "after each solution print how to put it together by hand, one piece at a time: lowered into the box "
         "from above, slid sideways where needed, or the pieces that interlock, and the face to put down when another "
         "way up goes in more easily (with --json one line per solution; the classes counted after the puzzle, with -q too)",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.buildOrder = true; return std::string(); }},
        {'j', "jobs", Arg::Required, false, OptionScope::Output, "N", 1, 4096, "4",
         "search on N threads (default: every core); 1: one thread, solutions in the one-thread order. "
         "-t, -s, -l and -u without -r always run on one thread; --memo runs on one unless -j is given",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec& self) { return intValue(v, self, o.threads); }},
        {0, "ordered", Arg::None, false, OptionScope::CommandLine, nullptr, 1, 0, nullptr,
         "with -j: print the solutions in the one-thread order, numbered as -j 1 numbers them (those found "
         "ahead of their turn wait in memory)",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.ordered = true; return std::string(); }},
        {0, "progress", Arg::None, false, OptionScope::CommandLine, nullptr, 1, 0, nullptr,
         "report progress on standard error (\"about 35% done, ~40 s left\"), rewritten in place when it is a "
         "terminal (the default there), one line a second otherwise",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.progress = true; return std::string(); }},
        {0, "checkpoint", Arg::Required, false, OptionScope::CommandLine, "FILE", 1, 0, "run.checkpoint",
         "write the remaining work to FILE every 5 seconds and when stopped (Ctrl-C, SIGTERM), to go on later with "
         "--resume; the search is split into pieces first (one puzzle per run)",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec&) {
             o.checkpoint = *v;
             return v->empty() ? std::string("--checkpoint: empty file name") : std::string();
         }},
        {0, "resume", Arg::Required, false, OptionScope::CommandLine, "FILE", 1, 0, "run.checkpoint",
         "go on from the checkpoint FILE, which holds the puzzle and the search options (or give the puzzle file and "
         "the same options too): prints the rest of the solutions, numbered on, and the totals; keeps checkpointing "
         "to FILE (or --checkpoint's). The page's kept searches download as such files",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec&) {
             o.resume = *v;
             return v->empty() ? std::string("--resume: empty file name") : std::string();
         }},
        {0, "split", Arg::Required, false, OptionScope::CommandLine, "N", 1, 100000, "8",
         "with --jobs-out DIR: split the search into N independent job files DIR/1.job ... (largest first) and "
         "DIR/0.result (what splitting searched), for `polycube --job` on other cores or machines; with --resume "
         "FILE: what the checkpoint FILE has left",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec& self) { return intValue(v, self, o.splitJobs); }},
        {0, "jobs-out", Arg::Required, false, OptionScope::CommandLine, "DIR", 1, 0, "jobs", "where --split writes its job files (created if missing)",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec&) {
             o.jobsOut = *v;
             return v->empty() ? std::string("--jobs-out: empty directory name") : std::string();
         }},
        {0, "job", Arg::Required, false, OptionScope::CommandLine, "FILE", 1, 0, "jobs/1.job",
         "search the job file FILE (made by --split; it holds the puzzle and the options) and write its result "
         "beside it (NAME.job: NAME.result, other names: FILE.result; solutions included unless -q)",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec&) {
             o.job = *v;
             return v->empty() ? std::string("--job: empty file name") : std::string();
         }},
        {0, "merge", Arg::Required, false, OptionScope::CommandLine, "DIR", 1, 0, "jobs",
         "print what one search would have printed from the results in DIR (-q, -i, --json as usual); a missing, "
         "duplicated or foreign result is an error",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec&) {
             o.merge = *v;
             return v->empty() ? std::string("--merge: empty directory name") : std::string();
         }},
        {0, "memo", Arg::None, false, OptionScope::Search, nullptr, 1, 0, nullptr,
         "count the solutions without listing them (on the command line with -q or --json), by a search that "
         "remembers how many ways each set of open cells and free pieces can be completed; exact with -r, -M, "
         "stationary pieces and copies; not with -u, -l, -t, -s, --checkpoint, --resume, --split, --job or the "
         "enumerating search's tuning and constraints; -j N: N threads",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.memo = true; return std::string(); }},
        {0, "no-memo", Arg::None, false, OptionScope::CommandLine, nullptr, 1, 0, nullptr,
         "with -q: enumerate the solutions to count them even where the memoized count (--memo) is expected to win, "
         "which a -q count otherwise chooses then, or switches to when its layers, run beside a long search, "
         "forecast a far shorter count (-i's COUNTING line says which way and why)",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.noMemo = true; return std::string(); }},
        {0, "memo-table", Arg::None, false, OptionScope::CommandLine, nullptr, 1, 0, nullptr,
         "with --memo: count by the depth-first search with a table instead of layer by layer: slower, but within any "
         "--memo-mb (a full table forgets entries) where the layers would need more; with -j N each thread counts parts "
         "of the count with its own table",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.memoTable = true; return std::string(); }},
        {0, "memo-mb", Arg::Required, false, OptionScope::Search, "N", kMemoMinMb, kMemoMaxMb, "64",
         "with --memo: its memory budget in MiB (default a quarter of the machine's memory, from 1024 to 16384; in the "
         "page a quarter of the engine's memory for a search); a count whose layers would pass it is counted by the "
         "table's search, within it (the count stays exact)",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec&) {
             long long mb;
             if (!v || !parseInt(*v, mb, kMemoMinMb, kMemoMaxMb))
                 return "--memo-mb needs a whole number of MiB from " + std::to_string(kMemoMinMb) + " to " +
                        std::to_string(kMemoMaxMb) + (v ? ", got '" + quoteText(*v) + "'" : "");
             o.memoMb = mb;
             return std::string();
         }},
        {0, "solution", Arg::Required, false, OptionScope::Search, "N", 1, INT64_MAX, "1000",
         "with --memo: once counted, list solution number N (1 is the first the memoized search meets) without listing "
         "the others",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec& self) {
             long long n;
             if (!v || !parseInt(*v, n, self.lo, self.hi))
                 return "--solution needs a solution number from 1 to " + std::to_string(self.hi) +
                        (v ? ", got '" + quoteText(*v) + "'" : "");
             o.solutionNumber = static_cast<uint64_t>(n);
             return std::string();
         }},
        {0, "random", Arg::Required, false, OptionScope::Search, "K[,SEED]", 1, 0, "10",
         "with --memo: once counted, list K distinct solutions drawn uniformly at random (every solution when there are "
         "fewer; K at most 10000), in the order of their numbers; the same SEED draws the same ones",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec&) {
             const std::string text = v ? *v : std::string();
             const size_t comma = text.find(',');
             long long k, seed = 0;
             const bool ok = parseInt(text.substr(0, comma), k, 1, kMaxRandomSolutions) &&
                             (comma == std::string::npos || parseInt(text.substr(comma + 1), seed, 0, INT64_MAX));
             if (!ok)
                 return "--random needs K[,SEED]: K solutions from 1 to " + std::to_string(kMaxRandomSolutions) +
                        ", SEED a whole number from 0, got '" + quoteText(text) + "'";
             o.randomSolutions = k;
             o.randomSeedGiven = comma != std::string::npos;
             o.randomSeed = static_cast<uint64_t>(seed);
             return std::string();
         }},
        {0, "placements", Arg::None, false, OptionScope::CommandLine, nullptr, 1, 0, nullptr,
         "with --memo: also count, for every placement of every piece, the solutions that keep it there (a table of "
         "piece, cells and count; in --json, \"placementCounts\"); on one thread, every subproblem kept within --memo-mb",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.placementCounts = true; return std::string(); }},
        {'r', "redundancyFilter", Arg::Optional, false, OptionScope::Search, "NAME", 1, 0, "L",
         "count rotationally unique solutions: constrain one uniquely shaped piece (NAME, or chosen automatically)",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec&) {
             o.redundancy = v ? Redundancy::Named : Redundancy::Auto;
             o.redundancyPiece = v ? *v : std::string();
             if (v && v->empty()) return std::string("-r: empty piece name");
             return std::string();
         }},
        {'u', "unique", Arg::None, false, OptionScope::Search, nullptr, 1, 0, nullptr, "filter out solutions that are rotations of solutions already found",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.unique = true; return std::string(); }},
        {'M', "mirror", Arg::None, false, OptionScope::Search, nullptr, 1, 0, nullptr,
         "also treat mirror images as the same solution (needs a piece set closed under mirroring)",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.mirror = true; return std::string(); }},
        {0, "no-orbits", Arg::None, false, OptionScope::Search, nullptr, 1, 0, nullptr,
         "without -r: find every solution by search, as the articles do, instead of searching for the unique ones "
         "and listing each one's distinct symmetric images (the same solutions and counts, in another order; many "
         "times slower)",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.orbits = false; return std::string(); }},
        {'o', "order", Arg::Required, true, OptionScope::Search, "H[=N]:...", 1, 0, "x:s=20",
         "ordering heuristics, each active when N or fewer pieces remain: s (fewest fits), f (first open cell), "
         "e (estimate), c (cornered: fewest open neighbours; s on DLX levels), l@a,b,c, x, y, z, X, Y, Z, xyz, a[@deg[,xc,yc]], A, R[@xc,yc,zc]; e.g. x:s=20",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec&) {
             // (an empty one is refused: it would read as "no -o given, but not automatic")
             if (v->empty()) return std::string("-o: empty: give one or more heuristics, e.g. -o s or -o x:s=20");
             o.order = *v;
             // Checked here, once, as a bad option (exit 2), rather than per puzzle when each
             // solver reads it: the syntax does not depend on the puzzle (thresholds above
             // its piece count are clamped there).
             Result<HeuristicSchedule> schedule = parseSchedule(*v, 1);
             return schedule.ok() ? std::string() : schedule.status.message;
         }},
        {'f', "fila", Arg::Required, true, OptionScope::Search, "N", 1, kPieceCount, "12", "switch to FILA when N pieces remain",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec& self) { return intValue(v, self, o.fila); }},
        {'n', "nof", Arg::None, true, OptionScope::Search, nullptr, 1, 0, nullptr, "neighbour occupancy filtering of FILA image lists",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.nof = true; return std::string(); }},
        {'b', "bruijn", Arg::Required, true, OptionScope::Search, "N", 1, kPieceCount, "12", "de Bruijn's algorithm (FILA, first open cell) when N pieces remain",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec& self) { return intValue(v, self, o.bruijn); }},
        {'m', "mch", Arg::Required, true, OptionScope::Search, "N", 1, kPieceCount, "12", "most constrained hole (FILA, fewest fits) when N pieces remain",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec& self) { return intValue(v, self, o.mch); }},
        {'e', "emch", Arg::Required, true, OptionScope::Search, "N", 1, kPieceCount, "12", "estimated most constrained hole (FILA, estimate) when N pieces remain",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec& self) { return intValue(v, self, o.emch); }},
        {'p', "parityBacktrack", Arg::None, false, OptionScope::Search, nullptr, 1, 0, nullptr, "backtrack when the remaining pieces cannot match the parity of the holes",
         [](SolverOptions& o, OptionParse&, const std::string*, const OptionSpec&) { o.parityBacktrack = true; return std::string(); }},
        {'v', "volumeBacktrack", Arg::Required, false, OptionScope::Search, "N", 1, kPieceCount, "5",
         "backtrack on an isolated region no set of remaining pieces can fill, while N or more pieces remain",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec& self) { return intValue(v, self, o.volumeBacktrack); }},
        {'P', "parityFilter", Arg::Optional, false, OptionScope::Search, "N", 1, kFilterMax, "5",
         "remove images that break the parity constraint (once, or after each placement while N or more pieces remain)",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec& self) { return filterValue(v, self, o.parityFilter); }},
        {'V', "volumeFilter", Arg::Optional, false, OptionScope::Search, "N", 1, kFilterMax, "5",
         "remove images that isolate an unfillable region (once, or after each placement while N or more pieces remain)",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec& self) { return filterValue(v, self, o.volumeFilter); }},
        {'F', "fitFilter", Arg::Optional, false, OptionScope::Search, "N", 1, kFilterMax, "5",
         "remove images after which a hole or piece has no fit, to a fixed point (once, or while N or more pieces remain)",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec& self) { return filterValue(v, self, o.fitFilter); }},
        {'t', "trace", Arg::Required, false, OptionScope::Search, "K", -100000, 100000, "3", "trace placements and removals while K or more pieces remain (-K: exactly K; 0: no trace)",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec& self) { return intValue(v, self, o.trace); }},
        {'s', "monteCarlo", Arg::Required, false, OptionScope::Search, "T,R,SEED", 1, 0, "100,2,7",
         "Monte Carlo sampling: T trials, each ending when a piece is removed with R pieces left; random seed SEED (with -l 1, a search by random restarts: one solution of a hard puzzle may come far sooner)",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec&) {
             std::vector<std::string> parts;
             std::stringstream ss(*v);
             std::string part;
             while (std::getline(ss, part, ',')) parts.push_back(part);
             long long t, r, seed = 0;
             if (parts.size() < 2 || parts.size() > 3 || !parseInt(parts[0], t, 1, 1000000000000LL) ||
                 !parseInt(parts[1], r, 0, 100000) || (parts.size() == 3 && !parseInt(parts[2], seed, 0, INT64_MAX)))
                 return std::string("-s needs T,R[,SEED] (trials, remaining pieces, seed), got '") + quoteText(*v) + "'";
             o.monteCarlo = {t, static_cast<int>(r), static_cast<uint64_t>(seed)};
             return std::string();
         }},
        {'l', "limit", Arg::Required, false, OptionScope::Search, "N", 1, INT64_MAX, "10", "stop after N solutions",
         [](SolverOptions& o, OptionParse&, const std::string* v, const OptionSpec&) {
             // Counts are 64-bit: any N up to 2^64 - 1 is taken. Solutions are counted in a
             // signed 64-bit integer, so an N past 2^63 - 1 cannot be reached: it is that.
             uint64_t x = 0;
             const char* b = v->data();
             const auto [end, ec] = std::from_chars(b, b + v->size(), x);
             if (ec == std::errc::result_out_of_range && end == b + v->size())
                 return std::string("-l: ") + quoteText(*v) + " is more than the largest count, 18446744073709551615";
             if (v->empty() || ec != std::errc() || end != b + v->size() || x == 0)
                 return std::string("-l needs a positive whole number, got '") + quoteText(*v) + "'";
             o.maxSolutions = static_cast<long long>(std::min<uint64_t>(x, INT64_MAX));
             return std::string();
         }},
    };
    return table;
}

bool isNumber(const std::string& s) {
    long long x;
    return parseInt(s, x, INT64_MIN, INT64_MAX);
}

}  // namespace

std::vector<std::string> splitWords(const std::string& text, std::string* error) {
    std::vector<std::string> out;
    std::string cur;
    bool inWord = false, quoted = false;
    for (char c : text) {
        if (c == '"') {
            quoted = !quoted;
            inWord = true;
        } else if (!quoted && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
            if (inWord) out.push_back(cur);
            cur.clear();
            inWord = false;
        } else {
            cur += c;
            inWord = true;
        }
    }
    if (inWord) out.push_back(cur);
    // An unbalanced quote would silently swallow the rest of the line into one word.
    if (quoted && error) *error = "unbalanced \" in the options (a quoted word must end with \")";
    return out;
}

OptionParse parseOptions(const std::vector<std::string>& args, const std::function<bool(const std::string&)>& isFile) {
    OptionParse p;
    auto apply = [&](const OptionSpec& s, const std::string* value) {
        std::string err = s.set(p.options, p, value, s);
        if (s.tuning) p.options.autoTune = false;
        if (!err.empty() && p.error.empty()) p.error = err;
        p.given.push_back(s.longName);
        p.givenValues.push_back(value ? std::optional<std::string>(*value) : std::nullopt);
    };
    auto optionalTakes = [&](const OptionSpec& s, const std::string& next) {
        if (next.empty() || next[0] == '-') return false;
        if (s.shortName == 'r') return !isFile(next);
        return isNumber(next);
    };
    bool optionsEnded = false;
    for (size_t i = 0; i < args.size() && p.ok(); ++i) {
        const std::string& a = args[i];
        if (optionsEnded || a.size() < 2 || a[0] != '-') {
            p.files.push_back(a);
            continue;
        }
        if (a == "--") {
            optionsEnded = true;
            continue;
        }
        if (a[1] == '-') {
            std::string name = a.substr(2), value;
            bool hasValue = false;
            if (auto eq = name.find('='); eq != std::string::npos) {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
                hasValue = true;
            }
            const OptionSpec* spec = nullptr;
            for (const auto& s : specs())
                if (name == s.longName) spec = &s;
            if (!spec) {
                p.error = "unknown option '--" + quoteText(name) + "' (see --help)";
                break;
            }
            if (spec->arg == Arg::None) {
                if (hasValue) p.error = "option --" + quoteText(name) + " takes no value";
                else apply(*spec, nullptr);
            } else if (hasValue) {
                apply(*spec, &value);
            } else if (spec->arg == Arg::Required) {
                if (i + 1 >= args.size()) p.error = "option --" + quoteText(name) + " needs a value (" + spec->valueName + ")";
                else apply(*spec, &args[++i]);
            } else if (i + 1 < args.size() && optionalTakes(*spec, args[i + 1])) {
                apply(*spec, &args[++i]);
            } else {
                apply(*spec, nullptr);
            }
            continue;
        }
        // Short options, possibly bundled or with an attached value.
        for (size_t k = 1; k < a.size() && p.ok(); ++k) {
            const OptionSpec* spec = nullptr;
            for (const auto& s : specs())
                if (s.shortName == a[k]) spec = &s;
            if (!spec) {
                p.error = std::string("unknown option '-") + a[k] + "' (see --help)";
                break;
            }
            if (spec->arg == Arg::None) {
                apply(*spec, nullptr);
                continue;
            }
            std::string rest = a.substr(k + 1);
            if (!rest.empty() && rest[0] == '=') rest = rest.substr(1);
            if (!rest.empty()) {
                apply(*spec, &rest);
            } else if (spec->arg == Arg::Required) {
                if (i + 1 >= args.size())
                    p.error = std::string("option -") + a[k] + " needs a value (" + spec->valueName + ")";
                else
                    apply(*spec, &args[++i]);
            } else if (i + 1 < args.size() && optionalTakes(*spec, args[i + 1])) {
                apply(*spec, &args[++i]);
            } else {
                apply(*spec, nullptr);
            }
            break;  // the rest of the word was this option's value
        }
    }
    // -M changes what -r and -u count as one solution; alone it would change nothing and
    // the count would silently include mirror images.
    if (p.ok() && p.options.mirror && p.options.redundancy == Redundancy::Off && !p.options.unique)
        p.error = "-M counts a solution and its mirror image as one, which only -r and -u count: give -r or -u with it";
    return p;
}

OptionParse parseSearchOptions(const std::string& text) {
    OptionParse p;
    std::string quoteError;
    const std::vector<std::string> words = splitWords(text, &quoteError);
    if (!quoteError.empty()) {
        p.error = quoteError;
        return p;
    }
    p = parseOptions(words, [](const std::string&) { return false; });
    if (!p.ok()) return p;
    if (!p.files.empty()) {
        p.error = "unexpected word '" + quoteText(p.files.front()) + "' in the options";
        return p;
    }
    for (const std::string& name : p.given) {
        const OptionSpec* spec = nullptr;
        for (const auto& s : specs())
            if (name == s.longName) spec = &s;
        if (spec->scope == OptionScope::Program) {
            p.error = "--help and --version are command-line options, not search options";
            return p;
        }
        if (spec->scope == OptionScope::CommandLine) {
            p.error = "--" + name + " is an option of the polycube command line, not a search option";
            return p;
        }
    }
    p.error = memoConflict(p.options);  // (the command line checks the same, memo/memo_options.hpp)
    if (p.ok() && p.options.memo) {
        // (the Session's table must fit the engine's memory for a search; the command line's
        // has the machine's)
        const Result<long long> bytes = sessionMemoBytes(p.options, ModelLimits{});
        if (!bytes.ok()) p.error = bytes.status.message;
    }
    return p;
}

std::string searchOptionsText(const OptionParse& p) {
    std::string out;
    for (size_t k = 0; k < p.given.size() && k < p.givenValues.size(); ++k) {
        const OptionSpec* spec = nullptr;
        for (const auto& s : specs())
            if (p.given[k] == s.longName) spec = &s;
        if (!spec || spec->scope != OptionScope::Search) continue;
        if (!out.empty()) out += ' ';
        out += spec->shortName ? std::string("-") + spec->shortName : std::string("--") + spec->longName;
        if (!p.givenValues[k]) continue;
        const std::string& v = *p.givenValues[k];
        const bool spaced = v.find_first_of(" \t\n\r") != std::string::npos || v.empty();
        const std::string word = spaced ? "\"" + v + "\"" : v;
        // An optional value is the next word only when it does not look like an option.
        if (spec->arg == Arg::Optional && !v.empty() && v[0] == '-') out += spec->shortName ? word : "=" + word;
        else out += ' ' + word;
    }
    return out;
}

std::vector<std::string> optionArguments(const OptionParse& p, const std::function<bool(OptionScope)>& keep) {
    std::vector<std::string> out;
    for (size_t k = 0; k < p.given.size() && k < p.givenValues.size(); ++k) {
        const auto spec = std::find_if(specs().begin(), specs().end(), [&](const OptionSpec& s) { return s.longName == p.given[k]; });
        if (spec == specs().end() || !keep(spec->scope)) continue;
        // The long name with its value after '=': one word, read back whatever the value looks like.
        out.push_back(std::string("--") + spec->longName + (p.givenValues[k] ? "=" + *p.givenValues[k] : std::string()));
    }
    return out;
}

std::vector<OptionRule> optionRules() {
    std::vector<OptionRule> out;
    for (const auto& s : specs()) {
        OptionRule r;
        r.shortName = s.shortName;
        r.longName = s.longName;
        r.arg = s.arg == Arg::None ? "none" : s.arg == Arg::Required ? "required" : "optional";
        r.tuning = s.tuning;
        r.scope = s.scope;
        r.valueName = s.valueName ? s.valueName : "";
        r.ranged = s.lo <= s.hi;
        r.lo = s.lo;
        r.hi = s.hi;
        r.example = s.example ? s.example : "";
        r.help = s.help;
        out.push_back(r);
    }
    return out;
}

std::string optionsHelp() {
    std::ostringstream os;
    for (const auto& s : specs()) {
        std::string left = "  ";
        left += s.shortName ? std::string("-") + s.shortName + ", " : std::string("    ");
        left += std::string("--") + s.longName;
        if (s.valueName) left += s.arg == Arg::Optional ? std::string("[=") + s.valueName + "]" : std::string(" ") + s.valueName;
        os << left;
        if (left.size() < 30) os << std::string(30 - left.size(), ' ');
        else os << "\n" << std::string(30, ' ');
        os << s.help << "\n";
    }
    return os.str();
}

}  // namespace polycube
