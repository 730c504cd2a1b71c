// A cancel at a fixed point of a thread's work, for the tests whose code has no callback in its
// way (a setup, a filter pass): CpuAlarm, a timer on the thread's CPU clock. On a shared machine
// a thread can wait seconds for a CPU, so wall time says nothing about how far the work is; the
// CPU time the thread used does. The tests count what happens after the cancel rather than
// bound its time (docs/testing.md: tests never depend on time); wall clocks appear in them only
// as hang guards (Watchdog) of many seconds.
#pragma once
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace polycube::testing {

inline double secondsOf(const timespec& ts) { return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9; }

// This thread's CPU time, in seconds.
inline double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return secondsOf(ts);
}

// Runs `Cancel::cancel()` from a signal handler on the thread that made the alarm once that
// thread has used `cpuSeconds` more CPU time: the way the CLI's SIGINT handler cancels a
// Solver::step running on its thread, but at a point fixed in the work done (a timer on the
// thread's CPU clock), not in wall time, so it lands in the same phase however loaded the
// machine is. cancelledAt() is the thread's CPU time when the handler ran (0: not yet).
// One alarm at a time (the handler reaches it through a static pointer).
template <class Target>
class CpuAlarm {
public:
    CpuAlarm(Target& target, double cpuSeconds) {
        target_.store(&target);
        cancelledAt_.store(0);
        struct sigaction sa {};
        sa.sa_handler = &CpuAlarm::onSignal;
        sa.sa_flags = SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(kSignal, &sa, &previous_);
        sigevent sev{};
        sev.sigev_notify = SIGEV_THREAD_ID;
        sev.sigev_signo = kSignal;
        sev._sigev_un._tid = gettid();
        armed_ = timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &timer_) == 0;
        if (armed_) {
            itimerspec when{};
            const double at = cpuSeconds > 1e-6 ? cpuSeconds : 1e-6;
            when.it_value.tv_sec = static_cast<time_t>(at);
            when.it_value.tv_nsec = static_cast<long>((at - static_cast<double>(when.it_value.tv_sec)) * 1e9);
            armed_ = timer_settime(timer_, 0, &when, nullptr) == 0;
        }
    }
    ~CpuAlarm() {
        timer_delete(timer_);
        sigaction(kSignal, &previous_, nullptr);
        target_.store(nullptr);
    }
    CpuAlarm(const CpuAlarm&) = delete;
    CpuAlarm& operator=(const CpuAlarm&) = delete;

    bool armed() const { return armed_; }
    bool fired() const { return cancelledAt_.load() > 0; }
    double cancelledAt() const { return cancelledAt_.load(); }

private:
    static constexpr int kSignal = SIGUSR2;
    // Async-signal-safe: clock_gettime, and the target's cancel() is a relaxed atomic store.
    static void onSignal(int) {
        const double now = threadCpuSeconds();
        if (Target* t = target_.load()) t->cancel();
        cancelledAt_.store(now);
    }
    static inline std::atomic<Target*> target_{nullptr};
    static inline std::atomic<double> cancelledAt_{0};
    static_assert(std::atomic<double>::is_always_lock_free, "the handler stores a double");
    timer_t timer_{};
    bool armed_ = false;
    struct sigaction previous_ {};
};

}  // namespace polycube::testing
