// How a run of the CLI stops: SIGINT and SIGTERM, the exit after one, and the lock of the
// checkpoint file that such an exit leaves clean.
//
//   installSignalHandlers();                  // once, before any puzzle is read
//   CheckpointLock lock;                      // held until the process ends
//   if (lock.take("run.ck", why)) ...         // another run holds it: said, exit 1
//   solving = 1; activeSolver = &solver;      // a signal now asks the solver to stop...
//   ... solver.step(...) ...                  // ...which ends Cancelled
//   if (interrupted) exitInterrupted();       // the statistics said: exit 128 + signal
//
// The handler is async-signal-safe: it stores atomics and flags only, or writes one line and
// _exits where nothing partial is to be reported (reading, parsing).
#pragma once
#include <csignal>
#include <string>

namespace polycube {

class Solver;
class ParallelSearch;
class ParallelMemo;

// What a signal stops: the one search running at the time (set by the run, cleared after).
extern Solver* volatile activeSolver;
extern ParallelSearch* volatile activeParallel;  // -j N: every thread stops within a slice
extern ParallelMemo* volatile activeMemo;          // --memo: every thread's counter polls its flag
extern volatile std::sig_atomic_t solving;      // 1 while a puzzle is set up or searched
extern volatile std::sig_atomic_t interrupted;  // the signal number, once one came

void installSignalHandlers();
// POLYCUBE_RAISE_AT=POINT: a test hook, see stopping.cpp.
void raiseAt(const char* point);
// After a signal, with everything said and written: exit 128 + signal at once (see stopping.cpp).
[[noreturn]] void exitInterrupted(const std::string& note = "");

// The lock of a checkpoint file: FILE.lock beside it, flock()ed exclusively. The kernel lets
// the lock go when the process ends however it ends (a kill too); the file is removed when
// the run ends normally (or by exitInterrupted), and a stale one (after a kill) takes the next
// lock as well as a new one.
class CheckpointLock {
public:
    CheckpointLock() = default;
    CheckpointLock(const CheckpointLock&) = delete;
    CheckpointLock& operator=(const CheckpointLock&) = delete;
    ~CheckpointLock();
    // 0, or the exit status with `why` said.
    int take(const std::string& checkpoint, std::string& why);

private:
    std::string path_;
    int fd_ = -1;
};

}  // namespace polycube
