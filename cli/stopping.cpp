// How a run of the CLI stops (stopping.hpp).
#include "stopping.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "common/text.hpp"
#include "memo/parallel_memo.hpp"
#include "parallel/parallel_search.hpp"
#include "solver/solver.hpp"

namespace polycube {

// Signals: SIGINT and SIGTERM alike, in every phase. While a puzzle is being solved (setup
// included) the handler only asks the solver to stop, and the main loop prints the partial
// statistics and the JSON line ("state":"cancelled") and exits 128 + signal. Anywhere else
// (reading, parsing: nothing partial to report, earlier output already flushed) the handler
// says so and exits at once. A second signal kills the program outright, unless it comes
// within kRepeatSeconds of the first: GNU timeout (which the README suggests) sends its signal
// to the process and then to its process group, so one stop arrives twice, microseconds apart
// (a handler reset by the first signal, SA_RESETHAND, let 1 run in 30 be killed by the second
// copy, its statistics, JSON line and checkpoint lost: so the first signal's handler stays).
Solver* volatile activeSolver = nullptr;
ParallelSearch* volatile activeParallel = nullptr;  // -j N: every thread stops within a slice
ParallelMemo* volatile activeMemo = nullptr;          // --memo: every thread's counter polls its flag
volatile std::sig_atomic_t solving = 0;
volatile std::sig_atomic_t interrupted = 0;  // the signal number
namespace {

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

}  // namespace

// POLYCUBE_RAISE_AT=POINT (tests/cli/cli_reliability.sh, cli_jobs.sh): the run raises SIGINT
// at that named point: where the handler's target passes from the setup's solver to the
// threads' search (setup-done, search-made, search-starting), and where a split has written its
// first job file (split-writing). A signal from outside cannot be timed to land in such a
// window, and one landing there must still end the run as any stop does (the partial
// statistics and the JSON line; no job in the split's directory). Read once; unset costs
// nothing.
void raiseAt(const char* point) {
    static const char* const wanted = std::getenv("POLYCUBE_RAISE_AT");
    if (wanted != nullptr && std::strcmp(wanted, point) == 0) raise(SIGINT);
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

namespace {
std::string lockHeld;  // the lock file held now (CheckpointLock), removed by exitInterrupted too
}  // namespace

CheckpointLock::~CheckpointLock() {
    if (fd_ < 0) return;
    unlink(path_.c_str());
    close(fd_);
    lockHeld.clear();
}

int CheckpointLock::take(const std::string& checkpoint, std::string& why) {
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
    lockHeld = path_;
    return 0;
}

// After a signal, once everything is said and written (statistics, the JSON line, the
// checkpoint): exit at once, without freeing every solver first (each thread's model and
// matrix: 50-100 ms on a big puzzle at -j 2, the other thread's setup joined first, measured
// 150-530 ms from Ctrl-C to exit on tests/hostile/random100.txt against 40-110 ms at -j 1).
// `note` says what became of the checkpoint when that is not the obvious (one written).
[[noreturn]] void exitInterrupted(const std::string& note) {
    std::cerr << "polycube: interrupted" << (note.empty() ? "" : ": ") << note << "\n";
    if (!lockHeld.empty()) unlink(lockHeld.c_str());  // (the lock itself goes with the process)
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(128 + (interrupted ? interrupted : SIGINT));
}

}  // namespace polycube
