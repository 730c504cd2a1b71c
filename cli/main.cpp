// polycube: the native command-line solver. Reads the reference solver's definition files
// and speaks its option language (see `polycube --help` and README.md).
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

#include "build_orders.hpp"
#include "files.hpp"
#include "jobs.hpp"
#include "memo_count.hpp"
#include "progress.hpp"
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

// Signals: SIGINT and SIGTERM alike, in every phase. While a puzzle is being solved (setup
// included) the handler only asks the solver to stop, and the main loop prints the partial
// statistics and the JSON line ("state":"cancelled") and exits 128 + signal. Anywhere else
// (reading, parsing: nothing partial to report, earlier output already flushed) the handler
// says so and exits at once. A second signal kills the program outright, unless it comes
// within kRepeatSeconds of the first: GNU timeout (which the README suggests) sends its signal
// to the process and then to its process group, so one stop arrives twice, microseconds apart
// (QA: with the first SA_RESETHAND handler, 1 run in 30 was killed outright by the second
// copy, its statistics, JSON line and checkpoint lost).
Solver* volatile activeSolver = nullptr;
ParallelSearch* volatile activeParallel = nullptr;  // -j N: every thread stops within a slice
MemoCounter* volatile activeMemo = nullptr;          // --memo
volatile std::sig_atomic_t solving = 0;
volatile std::sig_atomic_t interrupted = 0;  // the signal number
constexpr double kRepeatSeconds = 0.2;
double firstSignalAt = 0;  // only the handler reads and writes it (both signals block each other)

double monotonicSeconds() {  // clock_gettime is async-signal-safe
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

void onSignal(int sig) {
    const double now = monotonicSeconds();
    if (interrupted) {
        if (now - firstSignalAt < kRepeatSeconds) return;  // the same stop, sent twice
        signal(sig, SIG_DFL);  // a second Ctrl-C: killed by the signal at once
        raise(sig);
        return;
    }
    firstSignalAt = now;
    interrupted = sig;
    if (solving && (activeSolver || activeParallel || activeMemo)) {
        // atomic stores only: safe in a signal handler
        if (activeMemo) activeMemo->cancel();
        if (activeParallel) activeParallel->cancel();
        if (activeSolver) activeSolver->cancel();
        return;
    }
    static const char msg[] = "polycube: interrupted\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
    _exit(128 + sig);
}

void installSignalHandlers() {
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);  // the handler never interrupts itself
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = 0;  // no SA_RESTART: a blocking read() returns EINTR
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

std::string checkpointLockPath;  // the lock file held (CheckpointLock), removed by exitInterrupted too

// The lock of a checkpoint file: FILE.lock beside it, flock()ed exclusively. The kernel lets
// the lock go when the process ends however it ends (a kill too); the file is removed when
// the run ends normally, and a stale one (after a kill) takes the next lock as well as a new one.
class CheckpointLock {
public:
    CheckpointLock() = default;
    CheckpointLock(const CheckpointLock&) = delete;
    CheckpointLock& operator=(const CheckpointLock&) = delete;
    ~CheckpointLock() {
        if (fd_ < 0) return;
        unlink(path_.c_str());
        close(fd_);
        checkpointLockPath.clear();
    }
    // 0, or the exit status with `why` said.
    int take(const std::string& checkpoint, std::string& why) {
        path_ = checkpoint + ".lock";
        fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        struct stat st {};
        if (fd_ < 0 || fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
            why = "cannot use " + shownPath(path_) + ", the lock of the checkpoint: " + (fd_ < 0 ? std::strerror(errno) : "not a regular file");
            if (fd_ >= 0) close(fd_);
            fd_ = -1;
            return 1;
        }
        if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            why = shownPath(checkpoint) + " is in use by another polycube run (it holds " + shownPath(path_) +
                  "): wait for that run to end, or stop it, then --resume " + shownPath(checkpoint);
            close(fd_);
            fd_ = -1;  // (its file is the other run's: left alone)
            return 1;
        }
        checkpointLockPath = path_;
        return 0;
    }

private:
    std::string path_;
    int fd_ = -1;
};

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

// Writes that failed (a full disk, a closed pipe with SIGPIPE ignored) are an error: the
// output is the result. errno of the failing write, when known.
bool outputFailed(std::string& why) {
    errno = 0;
    std::cout.flush();
    if (std::cout.good()) return false;
    why = errno ? std::strerror(errno) : "write error";
    return true;
}

void usage(std::ostream& os) {
    os << "Usage: polycube [OPTIONS] [FILE...]\n"
          "Find every way to pack the pieces of each puzzle defined in FILE (standard input\n"
          "when no file is given) into its box. Definition files use the reference polycube\n"
          "solver's format. Solutions print as layers of the box, bottom layer first.\n\n"
          "Options:\n"
       << optionsHelp()
       << "\nExamples:\n"
          "  polycube -q -r -i def/pentominoes_10x6.txt      count the 2339 unique solutions, with statistics\n"
          "  polycube -r L def/tetriscube.txt                Tetris Cube, constraining piece L\n"
          "  polycube -q -r --json def/*.txt                 one JSON summary line per puzzle\n";
}

// After a signal, once everything is said and written (statistics, the JSON line, the
// checkpoint): exit at once, without freeing every solver first (each thread's model and
// matrix: 50-100 ms on a big puzzle at -j 2, the other thread's setup joined first, measured
// 150-530 ms from Ctrl-C to exit on tests/hostile/random100.txt against 40-110 ms at -j 1).
// `note` says what became of the checkpoint when that is not the obvious (one written).
[[noreturn]] void exitInterrupted(const std::string& note = "") {
    std::cerr << "polycube: interrupted" << (note.empty() ? "" : ": ") << note << "\n";
    if (!checkpointLockPath.empty()) unlink(checkpointLockPath.c_str());  // (the lock itself goes with the process)
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(128 + (interrupted ? interrupted : SIGINT));
}

// Options that cannot go together, said at once (exit 2) instead of some being ignored:
// --merge, --job and --split are separate runs; a job file carries its puzzle and its search
// options (those of the split), so --job and --merge take only output and thread options.
std::string usageConflict(const OptionParse& p) {
    const SolverOptions& o = p.options;
    const int modes = !o.merge.empty() + !o.job.empty() + (o.splitJobs > 0);
    if (modes > 1) return "--merge, --job and --split are separate runs: give one of them";
    if (!o.jobsOut.empty() && o.splitJobs == 0) return "--jobs-out DIR goes with --split N (how many job files to write)";
    if (o.buildOrder && o.splitJobs > 0) return "--build-order prints with the solutions of a search run here: not with --split";
    if (o.splitJobs > 0 && (!o.checkpoint.empty() || !o.resume.empty()))
        return "--split writes job files, not checkpoints: --checkpoint and --resume do not go with it";
    if (o.job.empty() && o.merge.empty()) return "";
    const bool job = !o.job.empty();
    const char* mode = job ? "--job" : "--merge";
    if (!p.files.empty())
        return std::string(mode) + " takes no puzzle file (" + (job ? "the job file holds its puzzle" : "the job files hold the puzzle") +
               "): '" + shownPath(p.files.front()) + "'";
    for (const std::string& name : p.given) {
        const bool allowed = name == "quiet" || name == "info" || name == "json" || name == (job ? "job" : "merge") ||
                             (job && (name == "jobs" || name == "progress"));
        if (!allowed)
            return std::string(mode) + " uses the search options the split was made with: --" + name +
                   " cannot be given here (only -q, -i, --json" + (job ? ", -j, --progress" : "") + ")";
    }
    return "";
}

}  // namespace

namespace {

int runCli(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    // -r's piece name is optional: the next word is its name unless it names a file. Any
    // existing path counts (/dev/stdin, a FIFO, <(...)), and so does any word with a '/',
    // which no piece name has: such a word is a file to read, even a missing one (its error
    // then names it as a file, not as an unknown piece).
    OptionParse p = parseOptions(args, [](const std::string& w) {
        std::error_code ec;
        return w.find('/') != std::string::npos || std::filesystem::exists(w, ec);
    });
    if (!p.ok()) {
        std::cerr << "polycube: " << p.error << "\n";
        return 2;
    }
    if (p.help || p.version) {
        if (p.help) usage(std::cout);
        else std::cout << "polycube " << POLYCUBE_VERSION << "\n";
        std::string why;
        if (outputFailed(why)) {
            std::cerr << "polycube: cannot write the output (" << why << ")\n";
            return 1;
        }
        return 0;
    }
    if (p.options.ordered && (!p.options.checkpoint.empty() || !p.options.resume.empty() || p.options.splitJobs > 0 ||
                              !p.options.jobsOut.empty() || !p.options.job.empty() || !p.options.merge.empty())) {
        std::cerr << "polycube: --ordered cannot be combined with --checkpoint, --resume, --split, --job or --merge "
                     "(their pieces report their solutions when each ends)\n";
        return 2;
    }
    std::string conflict = usageConflict(p);
    if (conflict.empty()) conflict = memoConflict(p);
    if (!conflict.empty()) {
        std::cerr << "polycube: " << conflict << "\n";
        return 2;
    }
    // (before the modes below too: a --job stopped by Ctrl-C says so and exits 130, leaving
    // no result; its files are written atomically)
    installSignalHandlers();
    // More threads than cores share the cores: no faster, and each holds a solver (QA: -j 4096
    // took 13.8 s and 3.7 GB for what -j 2 does in 0.04 s). Said, not refused: the tests run
    // -j 4 on 2 cores on purpose.
    if (const unsigned cores = std::thread::hardware_concurrency(); cores > 0 && p.options.threads > static_cast<int>(2 * cores))
        std::cerr << "polycube: -j " << p.options.threads << " is more threads than this machine's " << cores
                  << " cores: they share them, and the search is slower and takes more memory than with -j " << cores << "\n";
    // One search over many machines (cli/jobs.hpp).
    if (!p.options.merge.empty()) return mergeJobs(p);
    if (!p.options.job.empty()) return runJob(p);
    if (p.options.splitJobs > 0 || !p.options.jobsOut.empty()) return splitIntoJobs(p, args);
    if (p.files.empty()) p.files.push_back("-");
    std::ios::sync_with_stdio(false);

    // -j: threads for the searches that can be split (default every core).
    const int threads = p.options.threads > 0 ? p.options.threads
                                              : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    const bool parallel = threads > 1 && whyNotSplittable(p.options).empty();
    // --checkpoint / --resume (parallel/checkpoint.hpp): the search in pieces, its remaining
    // work written to the checkpoint file (the resumed one by default).
    const std::string checkpointPath = !p.options.checkpoint.empty() ? p.options.checkpoint : p.options.resume;
    const bool checkpointing = !checkpointPath.empty();
    if (checkpointing) {
        if (const std::string why = whyNotSplittable(p.options); !why.empty()) {
            std::cerr << "polycube: " << (p.options.resume.empty() ? "--checkpoint" : "--resume")
                      << ": this search cannot be split into pieces (" << why << ")\n";
            return 2;
        }
        if (p.files.size() > 1) {
            std::cerr << "polycube: --checkpoint and --resume take one puzzle file (" << p.files.size() << " given)\n";
            return 2;
        }
    }
    std::string resumeText;
    if (!p.options.resume.empty()) {
        // Said here, before the puzzle is set up: a FIFO or device, an empty file (not a fresh
        // start: the run would begin again silently), a file of another kind, one too large.
        OwnFile f;
        std::string error;
        if (!f.open(p.options.resume, kCheckpointKind, error) || !f.readAll(kMaxCheckpointBytes, resumeText, error)) {
            std::cerr << "polycube: --resume " << error << "\n";
            return 1;
        }
    }
    if (checkpointing) {
        // Where checkpoints go: never over what is not a checkpoint, never over an earlier run's
        // checkpoint unless it is the one resumed, and writable now rather than at the end.
        std::string why;
        const bool ownFile = checkpointPath == p.options.resume;
        if (const int refused = checkReplaceable(checkpointPath, p.options.checkpoint.empty() ? "--resume" : "--checkpoint",
                                                 kCheckpointKind, ownFile, why)) {
            std::cerr << "polycube: " << why << "\n";
            return refused;
        }
    }
    // One run per checkpoint (QA: two --resume of one file at once searched the same pieces and
    // wrote over each other's file): an exclusive lock on FILE.lock, held until the process ends.
    CheckpointLock lock;
    if (checkpointing) {
        std::string why;
        if (const int refused = lock.take(checkpointPath, why)) {
            std::cerr << "polycube: " << why << "\n";
            return refused;
        }
    }
    const bool stderrTerminal = isatty(STDERR_FILENO) != 0;
    const bool showProgress = p.options.progress || stderrTerminal;
    // Which puzzle a progress line is about, when a run has several.
    auto label = [&](const std::string& source, size_t index, size_t count) {
        if (p.files.size() == 1 && count == 1) return std::string("polycube: ");
        return "polycube: " + shownPath(source) + (count > 1 ? " #" + std::to_string(index + 1) : std::string()) + ": ";
    };

    int status = 0;
    std::string why;
    for (const std::string& file : p.files) {
        std::string text, error;
        if (!readWholeFile(file, ParseLimits{}.maxInputBytes, text, error)) {
            std::cerr << "polycube: " << error << "\n";
            status = 1;
            continue;
        }
        const std::string source = file == "-" ? "<stdin>" : file;
        ParseResult parsed = parseDefinitions(text, source);
        if (!parsed.ok()) {
            std::cerr << "polycube: " << parsed.error.format() << "\n";
            status = 1;
            continue;
        }
        if (checkpointing && parsed.puzzles.size() != 1) {
            std::cerr << "polycube: --checkpoint and --resume take one puzzle; " << shownPath(source) << " has " << parsed.puzzles.size() << "\n";
            return 2;
        }
        for (size_t i = 0; i < parsed.puzzles.size(); ++i) {
            const PuzzleDef& def = parsed.puzzles[i];
            const double cpuAtStart = processCpuSeconds();
            if (p.options.memo) {
                solving = 1;
                if (interrupted) exitInterrupted();
                const int counted = countByMemo(def, source, static_cast<int>(i), p.options, activeMemo, cpuAtStart, processCpuSeconds);
                solving = 0;
                if (outputFailed(why)) {
                    std::cerr << "polycube: cannot write the output (" << (why.empty() ? "write error" : why) << ")\n";
                    return 1;
                }
                if (counted < 0) exitInterrupted();
                status = std::max(status, counted);
                continue;
            }
            BuildOrders printed(def, p.options);  // each solution, and with --build-order how to build it
            // The other threads' solvers set up meanwhile, on threads of their own.
            std::unique_ptr<SearchThreads> others =
                parallel ? std::make_unique<SearchThreads>(def, p.options, threads - 1) : nullptr;
            // Setup runs in slices too (seconds for a big puzzle), so a signal there is seen.
            std::unique_ptr<Solver> owned = Solver::begin(def, p.options);
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
                std::cerr << "polycube: " << shownPath(source) << ":" << def.line << ": " << solver.error() << "\n";
                status = 1;
                continue;
            }
            if ((parallel || checkpointing) && solver.ready() && st == Solver::State::Running) {
                // The same output as one thread, except that solutions are numbered in the
                // order the threads find them. The first thread's solver is the one just set
                // up in slices (a signal during setup ends as above, with the JSON line).
                // activeSolver stays set until the threads' search is: a signal in between
                // is seen by `interrupted` below, never by an immediate exit without the JSON.
                std::unique_ptr<Checkpoint> resumed;
                if (!resumeText.empty()) {
                    Result<Checkpoint> decoded = decodeCheckpoint(resumeText, searchFingerprint(solver), shownPath(p.options.resume));
                    if (!decoded.ok()) {
                        solving = 0;
                        activeSolver = nullptr;
                        std::cerr << "polycube: " << decoded.status.message << "\n";
                        return 1;
                    }
                    resumed = std::make_unique<Checkpoint>(std::move(decoded.value));
                }
                Result<std::unique_ptr<ParallelSearch>> made =
                    ParallelSearch::create(def, p.options, threads, std::move(owned), resumed.get(), std::move(others));
                if (!made.ok()) {  // (the adopted solver is gone with it)
                    activeSolver = nullptr;
                    solving = 0;
                    std::cerr << "polycube: " << shownPath(source) << ":" << def.line << ": " << made.status.message << "\n";
                    status = 1;
                    continue;
                }
                ParallelSearch& search = *made.value;
                if (!search.threadCapNote().empty()) std::cerr << "polycube: " << search.threadCapNote() << "\n";
                if (p.options.info) {
                    if (!def.title.empty()) std::cout << "\n# " << def.title << "\n";
                    std::cout << formatInfo(search.primary());
                }
                if (printed.wanted()) {
                    search.setSolutionHandler(
                        [&](const Solution& s, long long number) { std::cout << printed.solution(s.grid, number); });
                    search.setOrdered(p.options.ordered);
                }
                ProgressReporter reporter(stderrTerminal, label(source, i, parsed.puzzles.size()), resumed ? resumed->doneShare : 0);
                if (showProgress)
                    search.setProgressHandler([&](double f, long long n) { reporter.report(f, n); }, progressSeconds());
                std::string checkpointError;
                if (checkpointing)
                    search.setCheckpointHandler(
                        [&](const Checkpoint& ck) {
                            const Status written = writeFileAtomically(checkpointPath, encodeCheckpoint(ck));
                            if (!written.ok && checkpointError.empty()) {
                                checkpointError = written.message;  // a checkpoint that cannot be kept: stop
                                search.cancel();
                            }
                        },
                        checkpointSeconds());
                activeParallel = &search;
                activeSolver = nullptr;
                solving = 1;
                if (interrupted) search.cancel();  // a signal before the threads started
                const Solver::State st = search.run();
                reporter.finish();
                solving = 0;
                activeParallel = nullptr;
                if (p.options.info) {
                    std::cout << formatStatistics(search.primary(), search.stats());
                    std::cout << "\n# Threads that shared the search, subproblems searched, times work was given away,\n"
                                 "# seconds the threads waited for work (summed):\n"
                              << "THREADS=" << search.threads() << "\nSUBPROBLEMS=" << search.subproblems()
                              << "\nDONATIONS=" << search.donations() << "\nIDLE_SECONDS=" << search.idleSeconds() << "\n";
                }
                if (p.options.json)
                    std::cout << printed.jsonSummary(summaryJson(search.primary(), search.stats(), source, static_cast<int>(i),
                                                                 stateName(st), search.threads(), search.idleSeconds(),
                                                                 processCpuSeconds() - cpuAtStart))
                              << "\n";
                else
                    std::cout << printed.countsLine();
                std::cout.flush();
                if (outputFailed(why)) {
                    std::cerr << "polycube: cannot write the output (" << (why.empty() ? "write error" : why) << ")\n";
                    return 1;
                }
                if (!search.error().empty()) {
                    std::cerr << "polycube: " << shownPath(source) << ":" << def.line << ": " << search.error() << "\n";
                    status = 1;
                    continue;
                }
                if (!checkpointError.empty()) {
                    std::cerr << "polycube: --checkpoint: " << checkpointError << "\n";
                    return 1;
                }
                // (QA: a checkpointed run stopped said only "interrupted": where its work went, and how to go on)
                if (st == Solver::State::Cancelled)
                    exitInterrupted(checkpointing ? "the remaining work is in " + shownPath(checkpointPath) +
                                                        "; go on with the same options and --resume " + shownPath(checkpointPath)
                                                  : std::string());
                continue;
            }
            if (p.options.info && solver.ready()) {
                if (!def.title.empty()) std::cout << "\n# " << def.title << "\n";
                std::cout << formatInfo(solver);
            }
            bool writeFailed = false;
            if (printed.wanted()) {
                solver.setSolutionHandler([&](const Solution& s) {
                    std::cout << printed.solution(s.grid, s.number);
                    if (!std::cout.good() && !writeFailed) {
                        writeFailed = true;  // nowhere to put the results: stop searching
                        solver.cancel();
                    }
                });
            }
            std::vector<int> current;
            long long traceCount = 0;
            if (p.options.trace != 0) {
                solver.setTraceHandler([&](const TraceEvent& e) {
                    std::cout << "TRACE " << ++traceCount << ": " << formatTraceEvent(solver, e);
                    if (e.op == trace::kPlace || e.op == trace::kRemove) {
                        if (e.op == trace::kPlace) current.push_back(e.b);
                        else if (!current.empty()) current.pop_back();
                        std::cout << formatSolution(def, solver.gridOf(current), traceCount) << "END TRACE\n";
                    } else {
                        std::cout << "\n";
                    }
                    if (!std::cout.good() && !writeFailed) {
                        writeFailed = true;
                        solver.cancel();
                    }
                });
            }
            ProgressReporter reporter(stderrTerminal, label(source, i, parsed.puzzles.size()));
            // With progress: slices of progressSeconds() (the clock is read between chunks; the
            // search is the same).
            const double slice = showProgress ? progressSeconds() : 0;
            while (st == Solver::State::Running && (st = solver.step(1LL << 40, slice)) == Solver::State::Running)
                if (showProgress) reporter.report(solver.fractionDone(), solver.stats().solutions);
            reporter.finish();
            if (p.options.info) std::cout << formatStatistics(solver);
            if (p.options.json)
                std::cout << printed.jsonSummary(summaryJson(solver, solver.stats(), source, static_cast<int>(i), stateName(st),
                                                             /*threads=*/ 1, /*idleSeconds=*/ 0, processCpuSeconds() - cpuAtStart))
                          << "\n";
            else
                std::cout << printed.countsLine();
            const bool failedNow = outputFailed(why) || writeFailed;
            solving = 0;
            activeSolver = nullptr;
            if (failedNow) {
                std::cerr << "polycube: cannot write the output (" << (why.empty() ? "write error" : why) << ")\n";
                return 1;
            }
            if (st == Solver::State::Failed) {  // e.g. -u's table at its memory limit
                std::cerr << "polycube: " << shownPath(source) << ":" << def.line << ": " << solver.error() << "\n";
                status = 1;
                continue;
            }
            if (st == Solver::State::Cancelled) {  // (also a -j search stopped in setup)
                // Stopped before the search began: nothing to resume, so nothing written, and a
                // checkpoint being resumed is left as it was.
                if (checkpointing && !solver.ready())
                    exitInterrupted("in the setup, before the search began: " +
                                    (p.options.resume.empty() ? "no checkpoint written (nothing searched yet)"
                                                              : shownPath(checkpointPath) + " is as it was"));
                exitInterrupted();
            }
        }
    }
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
