// polycube: the native command-line solver. Reads the reference solver's definition files
// and speaks its option language (see `polycube --help` and README.md). How a run stops
// (signals, the checkpoint's lock) is stopping.hpp; files of its own, files.hpp; many
// machines, jobs.hpp.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "build_orders.hpp"
#include "command_line.hpp"
#include "files.hpp"
#include "jobs.hpp"
#include "memo_count.hpp"
#include "progress.hpp"
#include "resume.hpp"
#include "stopping.hpp"
#include "output/format.hpp"
#include "parallel/checkpoint.hpp"
#include "parallel/parallel_search.hpp"
#include "puzzle/puzzle.hpp"
#include "solver/options.hpp"
#include "solver/solver.hpp"

using namespace polycube;

namespace {

// CPU time of the whole process so far, every thread, user and system (--json "cpuSeconds":
// what the threads cost, to the microsecond where GNU time counts in 10 ms steps).
double processCpuSeconds() {
    rusage u{};
    if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
    auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
    return seconds(u.ru_utime) + seconds(u.ru_stime);
}


// Between two checkpoints: 5 s, or POLYCUBE_CHECKPOINT_SECONDS (the tests take them often).
double checkpointSeconds() { return secondsFromEnv("POLYCUBE_CHECKPOINT_SECONDS", 0.01, 3600, 5.0); }

const char* stateName(Solver::State s) {
    switch (s) {
        case Solver::State::Running: return "running";
        case Solver::State::Done: return "done";
        case Solver::State::Cancelled: return "cancelled";
        case Solver::State::LimitReached: return "limit";
        case Solver::State::Failed: return "failed";
    }
    return "done";
}

}  // namespace

namespace {

// What one run of the command line searches with, decided before the first puzzle is read.
struct RunPlan {
    OptionParse p;
    int threads = 1;                 // -j (default every core)
    bool parallel = false;           // more than one thread, on a search that can be split
    std::string checkpointPath;      // --checkpoint, else the file --resume reads ("" neither)
    std::string resumeText;          // --resume's checkpoint
    // --resume FILE without a puzzle file: the puzzle and search options FILE holds (format 2)
    std::optional<CheckpointOrigin> embedded;
    CheckpointOrigin origin;         // what the checkpoints written hold of the puzzle being searched
    bool stderrTerminal = false;
    bool showProgress = false;
    bool checkpointing() const { return !checkpointPath.empty(); }
};

// More threads than cores share the cores: no faster, and each holds a solver (-j 4096 took
// seconds and gigabytes for what -j 2 does at once). Said, not refused: the tests run -j 4
// on 2 cores on purpose.
void warnAboutThreads(int threads) {
    if (const unsigned cores = std::thread::hardware_concurrency(); cores > 0 && threads > static_cast<int>(2 * cores))
        std::cerr << "polycube: -j " << threads << " is more threads than this machine's " << cores
                  << " cores: they share them, and the search is slower and takes more memory than with -j " << cores << "\n";
}

// -j, --checkpoint and --resume (parallel/checkpoint.hpp: the search in pieces, its remaining
// work written to the checkpoint file, the resumed one by default): 0, or the exit status
// with the reason said. The lock is taken here: one run per checkpoint (two --resume of one
// file at once would search the same pieces and write over each other's file).
int planRun(RunPlan& run, CheckpointLock& lock) {
    OptionParse& p = run.p;
    run.checkpointPath = !p.options.checkpoint.empty() ? p.options.checkpoint : p.options.resume;
    run.stderrTerminal = isatty(STDERR_FILENO) != 0;
    run.showProgress = p.options.progress || run.stderrTerminal;
    std::string why;
    if (!p.options.resume.empty()) {
        if (const int refused = readResume(p.options.resume, run.resumeText)) return refused;
        if (p.files.empty())
            if (const int refused = adoptOrigin(p, run.resumeText, run.embedded)) return refused;
    }
    if (p.files.empty() && !run.embedded) p.files.push_back("-");
    run.threads = p.options.threads > 0 ? p.options.threads : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    run.parallel = run.threads > 1 && whyNotSplittable(p.options).empty();
    if (!run.checkpointing()) return 0;
    if (const std::string why = whyNotSplittable(p.options); !why.empty()) {
        std::cerr << "polycube: " << (p.options.resume.empty() ? "--checkpoint" : "--resume")
                  << ": this search cannot be split into pieces (" << why << ")\n";
        return 2;
    }
    if (p.files.size() > 1) {
        std::cerr << "polycube: --checkpoint and --resume take one puzzle file (" << p.files.size() << " given)\n";
        return 2;
    }
    // Where checkpoints go: never over what is not a checkpoint, never over an earlier run's
    // checkpoint unless it is the one resumed, and writable now rather than at the end.
    const bool ownFile = run.checkpointPath == p.options.resume;
    int refused = checkReplaceable(run.checkpointPath, p.options.checkpoint.empty() ? "--resume" : "--checkpoint",
                                   kCheckpointKind, ownFile, why);
    if (!refused) refused = lock.take(run.checkpointPath, why);
    if (refused) std::cerr << "polycube: " << why << "\n";
    return refused;
}

// What a puzzle's search came to: what the endings every search shares need.
struct Ending {
    Solver::State state = Solver::State::Done;
    const Solver* primary = nullptr;  // the (first thread's) solver: -i and the JSON line
    SolverStats stats;
    int threads = 1;
    double idleSeconds = 0;
    std::string threadsInfo;          // -i: what the threads did
    std::string error;                // the search failed (the run's status 1, next puzzle)
    std::string checkpointError;      // a checkpoint could not be written (exit 1)
    bool writeFailed = false;         // a solution could not be written (exit 1)
    std::string interruptedNote;      // what became of the work when cancelled
};

constexpr int kNextPuzzle = -1;

// One puzzle of the run, searched.
struct PuzzleRun {
    const RunPlan& run;
    const PuzzleDef& def;
    const std::string& source;
    size_t index;        // in its file
    std::string label;   // the progress line's
    int& status;         // the run's exit status so far
    BuildOrders printed;
    double cpuAtStart = processCpuSeconds();
    std::string counting;  // the automatic choice's reason (-i's COUNTING), when it decided
    bool race = false;     // the enumerating search races the layered count (count_race.hpp)
    bool raceLost = false; // its layers passed the budget after it took over: enumerate

    PuzzleRun(const RunPlan& run, const PuzzleDef& def, const std::string& source, size_t index, std::string label, int& status)
        : run(run), def(def), source(source), index(index), label(std::move(label)), status(status), printed(def, run.p.options) {}
    // The search failed: said with the puzzle's place, the run's status 1, the next puzzle.
    int failed(const std::string& message) {
        std::cerr << "polycube: " << shownPath(source) << ":" << def.line << ": " << message << "\n";
        status = 1;
        return kNextPuzzle;
    }
};

// The endings every search shares, once: -i's statistics, the JSON line or the counts line,
// then the output's failure (exit 1), the search's error (status 1, the next puzzle), a
// checkpoint not written (exit 1), a cancel (exit 128 + signal, the note said). Returns the
// exit status, or kNextPuzzle.
int endPuzzle(const Ending& e, PuzzleRun& r) {
    const OptionParse& p = r.run.p;
    if (p.options.info) std::cout << formatStatistics(*e.primary, e.stats) << e.threadsInfo;
    if (p.options.json)
        std::cout << r.printed.jsonSummary(summaryJson(*e.primary, e.stats, r.source, static_cast<int>(r.index),
                                                       stateName(e.state), e.threads, e.idleSeconds,
                                                       processCpuSeconds() - r.cpuAtStart))
                  << "\n";
    else
        std::cout << r.printed.countsLine();
    std::string why;
    const bool failedNow = outputFailed(why) || e.writeFailed;
    solving = 0;
    activeSolver = nullptr;
    activeParallel = nullptr;
    if (failedNow) {
        std::cerr << "polycube: cannot write the output (" << (why.empty() ? "write error" : why) << ")\n";
        return 1;
    }
    if (!e.error.empty()) return r.failed(e.error);
    if (!e.checkpointError.empty()) {
        std::cerr << "polycube: --checkpoint: " << e.checkpointError << "\n";
        return 1;
    }
    if (e.state == Solver::State::Cancelled) exitInterrupted(e.interruptedNote);
    return kNextPuzzle;
}

// The header -i prints before a search.
void printInfo(const PuzzleRun& r, const Solver& solver) {
    if (!r.def.title.empty()) std::cout << "\n# " << r.def.title << "\n";
    std::cout << formatInfo(solver);
    if (!r.counting.empty())
        std::cout << "\n# How the count is made (the automatic choice; --memo memoizes):\nCOUNTING=" << r.counting << "\n";
}

// A count by the memoized search (--memo, or the automatic choice with `r.counting` its reason).
// The exit status, or kNextPuzzle.
// `started`: the race's layered count, to be run on (null: a new one).
int countPuzzleByMemo(PuzzleRun& r, std::unique_ptr<ParallelMemo> started = nullptr) {
    solving = 1;
    if (interrupted) exitInterrupted();
    ProgressReporter reporter(r.run.stderrTerminal, r.label);
    const int counted = countByMemo(r.def, r.source, static_cast<int>(r.index), r.run.p.options, activeMemo, r.cpuAtStart,
                                    processCpuSeconds, r.run.showProgress ? &reporter : nullptr, r.counting, std::move(started));
    solving = 0;
    std::string why;
    if (outputFailed(why)) {
        std::cerr << "polycube: cannot write the output (" << (why.empty() ? "write error" : why) << ")\n";
        return 1;
    }
    if (counted == kRaceLayersPastBudget) return counted;
    if (counted < 0) exitInterrupted();
    r.status = std::max(r.status, counted);
    return kNextPuzzle;
}

int solvePuzzle(PuzzleRun& r);

// The race stopped the enumerating search: the layered count goes on (-i: under a note). Should
// its layers pass the budget after all (their forecast fell short), the puzzle is searched
// again from the start, without a race.
int switchToMemo(PuzzleRun& r, CountRace& race) {
    activeSolver = nullptr;
    activeParallel = nullptr;
    const bool info = r.run.p.options.info;
    if (info) std::cout << "\n# The enumerating search stopped: the layered count goes on (the automatic choice's race)\n";
    r.counting = race.why();
    const int counted = countPuzzleByMemo(r, race.takeMemo());
    if (counted != kRaceLayersPastBudget) return counted;
    if (info) std::cout << "\n# The layered count passed its budget (--memo-mb): the enumerating search starts again\n";
    r.raceLost = true;
    return solvePuzzle(r);
}

// -j N or --checkpoint: the threads share the search, starting from the solver set up here
// (the first thread's). The same output as one thread, except that solutions are numbered in
// the order the threads find them. activeSolver stays set until the threads' search is: a
// signal in between is seen by `interrupted`, never by an immediate exit without the JSON line.
int searchInPieces(PuzzleRun& r, std::unique_ptr<Solver> owned, std::unique_ptr<SearchThreads> others) {
    const RunPlan& run = r.run;
    const SolverOptions& o = run.p.options;
    std::unique_ptr<Checkpoint> resumed;
    if (!run.resumeText.empty()) {
        Result<Checkpoint> decoded = decodeCheckpoint(run.resumeText, searchFingerprint(*owned), shownPath(o.resume));
        if (!decoded.ok()) {
            solving = 0;
            activeSolver = nullptr;
            std::cerr << "polycube: " << decoded.status.message << "\n";
            if (owned->listsOrbits() && decoded.status.message.find("fingerprint") != std::string::npos)
                std::cerr << "polycube: (a checkpoint of all solutions written before they were listed as the unique "
                             "ones' symmetric images resumes with --no-orbits)\n";
            return 1;
        }
        resumed = std::make_unique<Checkpoint>(std::move(decoded.value));
    }
    Result<std::unique_ptr<ParallelSearch>> made =
        ParallelSearch::create(r.def, o, run.threads, std::move(owned), resumed.get(), std::move(others));
    // The search takes the signal before the adopted solver lets go of it: in between, the
    // handler would find nothing to cancel and exit at once, without the JSON line.
    if (made.ok()) activeParallel = made.value.get();
    activeSolver = nullptr;  // the adopted solver is the search's now, or gone with it
    raiseAt("search-made");
    if (!made.ok()) {
        solving = 0;
        return r.failed(made.status.message);
    }
    ParallelSearch& search = *made.value;
    if (!search.threadCapNote().empty()) std::cerr << "polycube: " << search.threadCapNote() << "\n";
    if (o.info) printInfo(r, search.primary());
    if (r.printed.wanted()) {
        search.setSolutionHandler([&](const Solution& s, long long number) { std::cout << r.printed.solution(s.grid, number); });
        search.setOrdered(o.ordered);
    }
    ProgressReporter reporter(run.stderrTerminal, r.label, resumed ? resumed->doneShare : 0);
    // Racing (never with checkpoints): the first thread reads the race every kRaceSeconds, the
    // progress line as before.
    std::unique_ptr<CountRace> race =
        r.race && !run.checkpointing() ? makeCountRace(r.def, o, run.threads, activeMemo) : nullptr;
    if (race)
        search.setProgressHandler(
            [&](double f, long long n) {
                if (race->between(-1, f)) search.cancel();
                if (run.showProgress) reporter.reportAtMost(progressSeconds(), f, n);
            },
            kRaceSeconds);
    else if (run.showProgress)
        search.setProgressHandler([&](double f, long long n) { reporter.report(f, n); }, progressSeconds());
    Ending e;
    if (run.checkpointing())
        search.setCheckpointHandler(
            [&](const Checkpoint& ck) {
                // (format 2: the file alone resumes the search, here or in the page)
                Checkpoint whole = ck;
                whole.origin = run.origin;
                const Status written = writeFileAtomically(run.checkpointPath, encodeCheckpoint(whole));
                if (!written.ok && e.checkpointError.empty()) {
                    e.checkpointError = written.message;  // a checkpoint that cannot be kept: stop
                    search.cancel();
                }
            },
            checkpointSeconds());
    if (interrupted) search.cancel();  // a signal before the threads started
    raiseAt("search-starting");
    e.state = search.run();
    reporter.finish();
    if (race && race->switched() && !interrupted) return switchToMemo(r, *race);

    e.primary = &search.primary();
    e.stats = search.stats();
    e.threads = search.threads();
    e.idleSeconds = search.idleSeconds();
    std::ostringstream threadsInfo;
    threadsInfo << "\n# Threads that shared the search, subproblems searched, times work was given away,\n"
                   "# seconds the threads waited for work (summed):\n"
                << "THREADS=" << search.threads() << "\nSUBPROBLEMS=" << search.subproblems()
                << "\nDONATIONS=" << search.donations() << "\nIDLE_SECONDS=" << search.idleSeconds() << "\n";
    e.threadsInfo = threadsInfo.str();
    if (race && o.info) e.threadsInfo += raceInfo(*race);
    e.error = search.error();
    // A checkpointed run that is stopped says where its work went, and how to go on.
    if (run.checkpointing())
        e.interruptedNote = "the remaining work is in " + shownPath(run.checkpointPath) + " (with the puzzle and its search options); go on with polycube --resume " +
                            shownPath(run.checkpointPath);
    return endPuzzle(e, r);
}

// One thread: the solver set up here searches in slices (of progressSeconds() with progress:
// the clock is read between chunks; the search is the same), printing each solution, and with
// -t each trace event, as it comes.
int searchInOneThread(PuzzleRun& r, Solver& solver) {
    const RunPlan& run = r.run;
    const SolverOptions& o = run.p.options;
    if (o.info && solver.ready()) printInfo(r, solver);
    Ending e;
    if (r.printed.wanted()) {
        solver.setSolutionHandler([&](const Solution& s) {
            std::cout << r.printed.solution(s.grid, s.number);
            if (!std::cout.good() && !e.writeFailed) {
                e.writeFailed = true;  // nowhere to put the results: stop searching
                solver.cancel();
            }
        });
    }
    std::vector<int> current;
    long long traceCount = 0;
    if (o.trace != 0) {
        solver.setTraceHandler([&](const TraceEvent& t) {
            std::cout << "TRACE " << ++traceCount << ": " << formatTraceEvent(solver, t);
            if (t.op == trace::kPlace || t.op == trace::kRemove) {
                if (t.op == trace::kPlace) current.push_back(t.b);
                else if (!current.empty()) current.pop_back();
                std::cout << formatSolution(r.def, solver.gridOf(current), traceCount) << "END TRACE\n";
            } else {
                std::cout << "\n";
            }
            if (!std::cout.good() && !e.writeFailed) {
                e.writeFailed = true;
                solver.cancel();
            }
        });
    }
    ProgressReporter reporter(run.stderrTerminal, r.label);
    const double slice = run.showProgress ? progressSeconds() : 0;
    // Racing: slices of attempts (with POLYCUBE_RACE_UNITS=attempts and no progress line, which
    // reads the clock, the race runs the same way every time).
    std::unique_ptr<CountRace> race = r.race ? makeCountRace(r.def, o, 1, activeMemo) : nullptr;
    Solver::State st = solver.state();
    while (st == Solver::State::Running &&
           (st = solver.step(race ? kRaceSliceAttempts : 1LL << 40, slice)) == Solver::State::Running) {
        if (race && race->between(static_cast<double>(solver.stats().totalAttempts()), solver.fractionDone())) break;
        if (run.showProgress) reporter.reportAtMost(race ? slice : 0, solver.fractionDone(), solver.stats().solutions);
    }
    reporter.finish();
    if (race && race->switched() && !interrupted) return switchToMemo(r, *race);
    if (race && o.info) e.threadsInfo = raceInfo(*race);
    e.state = st;
    e.primary = &solver;
    e.stats = solver.stats();
    if (st == Solver::State::Failed) e.error = solver.error();  // e.g. -u's table at its memory limit
    // (also a -j search stopped in its setup) Stopped before the search began: nothing to
    // resume, so nothing written, and a checkpoint being resumed is left as it was.
    if (st == Solver::State::Cancelled && run.checkpointing() && !solver.ready())
        e.interruptedNote = "in the setup, before the search began: " +
                            (o.resume.empty() ? "no checkpoint written (nothing searched yet)"
                                              : shownPath(run.checkpointPath) + " is as it was");
    return endPuzzle(e, r);
}

// One puzzle: its setup in slices (seconds for a big puzzle, so a signal there is seen), while
// with -j the other threads' solvers set up on threads of their own; then the search, by the
// threads or by one. The exit status, or kNextPuzzle.
int solvePuzzle(PuzzleRun& r) {
    const RunPlan& run = r.run;
    std::unique_ptr<SearchThreads> others =
        run.parallel ? std::make_unique<SearchThreads>(r.def, run.p.options, run.threads - 1) : nullptr;
    std::unique_ptr<Solver> owned = Solver::begin(r.def, run.p.options);
    Solver& solver = *owned;
    activeSolver = &solver;
    solving = 1;
    if (interrupted) solver.cancel();  // a signal between the puzzles
    Solver::State st = Solver::State::Running;
    while (!solver.ready() && (st = solver.step(1LL << 40)) == Solver::State::Running) {
    }
    if (st == Solver::State::Failed) {
        solving = 0;
        activeSolver = nullptr;
        return r.failed(solver.error());
    }
    raiseAt("setup-done");
    // A count without a listing: memoized when the forecast expects it to win (memo/memo_choice.hpp).
    if (st == Solver::State::Running && solver.ready())
        if (const MemoForecast* forecast = solver.countingForecast()) {
            r.counting = forecast->reason;
            r.race = !forecast->memoize && forecast->raceable && !r.raceLost;
            if (r.raceLost) r.counting += "; the layered count beside it took over, then passed its budget: searched again";
            if (forecast->memoize) {
                others.reset();  // the other threads' solvers are not needed
                activeSolver = nullptr;
                owned.reset();
                return countPuzzleByMemo(r);
            }
        }
    if ((run.parallel || run.checkpointing()) && solver.ready() && st == Solver::State::Running)
        return searchInPieces(r, std::move(owned), std::move(others));
    return searchInOneThread(r, solver);
}

// The puzzles of one file, or its error said (the run's status 1). Checkpoints take one puzzle.
// `text`: the file's text, read here.
int readPuzzles(const RunPlan& run, const std::string& file, std::string& text, ParseResult& parsed, int& status) {
    std::string error;
    if (!readWholeFile(file, ParseLimits{}.maxInputBytes, text, error)) {
        std::cerr << "polycube: " << error << "\n";
        status = 1;
        return kNextPuzzle;
    }
    parsed = parseDefinitions(text, file == "-" ? "<stdin>" : file);
    if (!parsed.ok()) {
        std::cerr << "polycube: " << parsed.error.format() << "\n";
        status = 1;
        return kNextPuzzle;
    }
    if (run.checkpointing() && parsed.puzzles.size() != 1) {
        std::cerr << "polycube: --checkpoint and --resume take one puzzle; " << shownPath(file == "-" ? "<stdin>" : file)
                  << " has " << parsed.puzzles.size() << "\n";
        return 2;
    }
    return 0;
}

// --resume FILE without a puzzle file: the puzzle FILE holds, searched on from its pieces. The
// exit status, or kNextPuzzle (status: the run's so far).
int resumeEmbedded(RunPlan& run, int& status) {
    const CheckpointOrigin& origin = *run.embedded;
    const std::string name = shownPath(run.p.options.resume);
    ParseResult parsed = parseDefinitions(origin.definition, origin.source);
    if (!parsed.ok()) {
        std::cerr << "polycube: " << name << ": its puzzle: " << parsed.error.format() << "\n";
        return 1;
    }
    if (origin.puzzle >= static_cast<int>(parsed.puzzles.size())) {
        std::cerr << "polycube: " << name << ": it is of puzzle " << origin.puzzle + 1 << " of its definition, which has "
                  << parsed.puzzles.size() << "\n";
        return 1;
    }
    run.origin = origin;
    const size_t index = static_cast<size_t>(origin.puzzle);
    PuzzleRun puzzle(run, parsed.puzzles[index], origin.source, index, "polycube: ", status);
    return solvePuzzle(puzzle);
}

int runCli(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    RunPlan run;
    if (const int ended = readCommandLine(args, run.p); ended >= 0) return ended;
    OptionParse& p = run.p;
    // (before the modes below too: a --job stopped by Ctrl-C says so and exits 130, leaving
    // no result; its files are written atomically)
    installSignalHandlers();
    warnAboutThreads(p.options.threads);
    // One search over many machines (cli/jobs.hpp).
    if (!p.options.merge.empty()) return mergeJobs(p);
    if (!p.options.job.empty()) return runJob(p);
    if (p.options.splitJobs > 0 || !p.options.jobsOut.empty()) return splitIntoJobs(p, args);
    std::ios::sync_with_stdio(false);
    CheckpointLock lock;  // held until the process ends
    if (const int refused = planRun(run, lock)) return refused;
    int status = 0;
    if (run.embedded) {
        if (const int ended = resumeEmbedded(run, status); ended != kNextPuzzle) return ended;
    }
    for (const std::string& file : p.files) {
        ParseResult parsed;
        std::string text;
        if (const int read = readPuzzles(run, file, text, parsed, status)) {
            if (read == kNextPuzzle) continue;
            return read;
        }
        const std::string source = file == "-" ? "<stdin>" : file;
        const size_t count = parsed.puzzles.size();
        // (the file's name without its directories: a checkpoint is passed on to other machines)
        run.origin = CheckpointOrigin{std::filesystem::path(source).filename().string(), 0, searchOptionsText(p), std::move(text)};
        for (size_t i = 0; i < count; ++i) {
            run.origin.puzzle = static_cast<int>(i);
            // Which puzzle a progress line is about, when a run has several.
            const std::string label = p.files.size() == 1 && count == 1
                                          ? std::string("polycube: ")
                                          : "polycube: " + shownPath(source) + (count > 1 ? " #" + std::to_string(i + 1) : std::string()) + ": ";
            PuzzleRun puzzle(run, parsed.puzzles[i], source, i, label, status);
            // --memo: counted without enumerating (memo/memo_counter.hpp)
            const int ended = p.options.memo ? countPuzzleByMemo(puzzle) : solvePuzzle(puzzle);
            if (ended != kNextPuzzle) return ended;
        }
    }
    std::string why;
    if (outputFailed(why)) {
        std::cerr << "polycube: cannot write the output (" << why << ")\n";
        return 1;
    }
    return status;
}

}  // namespace

// The last resort: whatever runs out of memory or fails unforeseen ends with a message and
// exit status 1, never an abort (exit 134) with "terminate called". (stdio, which allocates
// nothing here.)
int main(int argc, char** argv) {
    try {
        return runCli(argc, argv);
    } catch (const std::bad_alloc&) {
        std::cout.flush();
        std::cerr.flush();
        std::fputs("polycube: out of memory (under a memory limit such as ulimit -v, or the machine's): stopped\n", stderr);
    } catch (const std::exception& e) {
        std::cout.flush();
        std::cerr.flush();
        std::fprintf(stderr, "polycube: internal error: %s\n", e.what());
    }
    return 1;
}
