// One search on several threads (parallel/parallel_search.hpp, polycube -j): the same
// solutions (each checked by the independent checker, each numbered once) and the same
// statistics, level by level, as the one-thread run; cancel stops every thread; options
// that cannot be split run on one thread. And the CLI: -j 1/2/4 print the same summary.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <sched.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "parallel/parallel_search.hpp"
#include "test_support.hpp"

extern char** environ;

using namespace polycube;
using namespace polycube::testing;

namespace {

struct ParallelRun {
    Solver::State state = Solver::State::Running;
    SolverStats stats;
    std::vector<std::vector<int>> grids;
    std::vector<long long> numbers;
    int checkerFailures = 0;
    int threads = 0;
    long long subproblems = 0;
    std::string error;
};

ParallelRun runParallel(const PuzzleDef& def, const std::string& options, int threads, bool ordered = false) {
    ParallelRun out;
    auto made = ParallelSearch::create(def, optionsFrom(options), threads);
    if (!made.ok()) {
        out.error = made.status.message;
        return out;
    }
    ParallelSearch& p = *made.value;
    p.setOrdered(ordered);
    // Called under the search's lock: no locking here.
    p.setSolutionHandler([&](const Solution& s, long long number) {
        out.checkerFailures += !checkSolution(def, s.grid).ok;
        out.grids.push_back(s.grid);
        out.numbers.push_back(number);
    });
    out.state = p.run();
    out.stats = p.stats();
    out.threads = p.threads();
    out.subproblems = p.subproblems();
    out.error = p.error();
    return out;
}

void expectSameAsOneThread(const std::string& file, const std::string& options, long long solutions,
                           bool expectShared = false, bool proved = false) {
    PuzzleDef def = file.find("D:") == 0 ? parsePuzzle(file) : loadPuzzle(file);
    RunResult one = solve(def, options, true);
    ASSERT_TRUE(one.error.empty()) << one.error;
    EXPECT_EQ(one.count, solutions) << file << " " << options;
    std::sort(one.grids.begin(), one.grids.end());
    for (int threads : {2, 4}) {
        SCOPED_TRACE(file.substr(0, 40) + " " + options + " -j " + std::to_string(threads));
        ParallelRun r = runParallel(def, options, threads);
        ASSERT_TRUE(r.error.empty()) << r.error;
        EXPECT_EQ(r.state, Solver::State::Done);
        EXPECT_EQ(r.threads, proved ? 1 : threads);  // proved impossible: nothing to share
        expectSameStatistics(r.stats, one.stats);
        EXPECT_EQ(r.checkerFailures, 0);
        std::sort(r.grids.begin(), r.grids.end());
        EXPECT_TRUE(r.grids == one.grids) << "other solutions than one thread's";
        std::sort(r.numbers.begin(), r.numbers.end());
        for (size_t k = 0; k < r.numbers.size(); ++k) ASSERT_EQ(r.numbers[k], static_cast<long long>(k + 1));
        // The other threads ask for work from the start, so a search of more than a few
        // slices is shared.
        if (expectShared) EXPECT_GT(r.subproblems, 1);
    }
}

}  // namespace

TEST(Parallel, CorpusCountsAndStatisticsEqualOneThread) {
    expectSameAsOneThread("soma.txt", "-r", 480);
    expectSameAsOneThread("soma.txt", "", 11520);
    expectSameAsOneThread("pentominoes_10x6.txt", "-r", 2339, true);
    expectSameAsOneThread("pentominoes_1s_30x3.txt", "-r", 46, true);
    expectSameAsOneThread("pentominoes_8x8_hole.txt", "-r", 65, true);
    expectSameAsOneThread("soma.txt", "-r -u -M", 240);  // -u adds nothing to -r: split
}

TEST(Parallel, OtherAlgorithmsAndTinyPuzzles) {
    expectSameAsOneThread("pentominoes_10x6.txt", "-r -o s", 2339, true);
    expectSameAsOneThread("pentominoes_10x6.txt", "-r -b 11 -p", 2339, true);
    expectSameAsOneThread("soma.txt", "-r -o s -F=5 -V=6 -p", 480);
    expectSameAsOneThread("D:xDim=4:yDim=3:zDim=1\nC:name=A:count=4:layout=0 0 0, 1 0 0, 0 1 0\n~D\n", "-o s", 4);
    expectSameAsOneThread("hexominoes_rect_15x14.txt", "-r", 0, false, true);
}

TEST(Parallel, UnsplittableOptionsRunOnOneThread) {
    PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    ParallelRun limited = runParallel(def, "-r -l 5", 4);
    EXPECT_EQ(limited.threads, 1);
    EXPECT_EQ(limited.state, Solver::State::LimitReached);
    EXPECT_EQ(limited.stats.solutions, 5);
    EXPECT_EQ(limited.numbers, (std::vector<long long>{1, 2, 3, 4, 5}));
    auto made = ParallelSearch::create(def, optionsFrom("-u"), 4);
    ASSERT_TRUE(made.ok());
    EXPECT_EQ(made.value->threads(), 1);
    EXPECT_NE(made.value->splitRefusal().find("-u"), std::string::npos);
}

TEST(Parallel, OrderedPrintsTheOneThreadSequence) {
    // --ordered: the same solutions in the same order, numbered alike, as one thread; over
    // DLX levels (plain DLX: donations at every level), FILA's explicit stack (-f 7: FILA
    // from the root) and the default configurations.
    const std::vector<std::pair<std::string, std::string>> cases{
        {"pentominoes_10x6.txt", "-r"}, {"soma.txt", ""}, {"pentominoes_8x8_hole.txt", "-r -o s"}, {"soma.txt", "-r -f 7"},
        {"pentominoes_1s_30x3.txt", "-r"}, {"pentominoes_8x8_hole.txt", "-r"}};
    for (const auto& [file, options] : cases) {
        if (kReducedRun && file == "pentominoes_10x6.txt") continue;
        PuzzleDef def = loadPuzzle(file);
        RunResult one = solve(def, options, true);
        for (int threads : {2, 4}) {
            SCOPED_TRACE(file + " " + options + " -j " + std::to_string(threads));
            ParallelRun r = runParallel(def, options, threads, true);
            ASSERT_TRUE(r.error.empty()) << r.error;
            EXPECT_EQ(r.threads, threads);
            ASSERT_EQ(r.grids.size(), one.grids.size());
            EXPECT_TRUE(r.grids == one.grids) << "not the one-thread order";
            for (size_t k = 0; k < r.numbers.size(); ++k) ASSERT_EQ(r.numbers[k], static_cast<long long>(k + 1));
            EXPECT_GT(r.subproblems, 1);  // it was shared
        }
    }
}

TEST(Parallel, AdoptsSolversSetUpBeforeThePrimary) {
    // As the CLI does: the other threads' setups start, then the primary is set up, then the
    // search adopts both. Same statistics as one thread; setups made for another thread count
    // are left unused (each thread then sets up its own).
    PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    RunResult one = solve(def, "-r");
    for (int made : {1, 3}) {
        SCOPED_TRACE("setups for " + std::to_string(made) + " threads, 2 searching");
        auto setups = std::make_unique<SearchThreads>(def, optionsFrom("-r"), made);
        auto primary = Solver::create(def, optionsFrom("-r"));
        ASSERT_TRUE(primary.ok());
        auto search = ParallelSearch::create(def, optionsFrom("-r"), 2, std::move(primary.value), nullptr, std::move(setups));
        ASSERT_TRUE(search.ok());
        EXPECT_EQ(search.value->run(), Solver::State::Done);
        EXPECT_TRUE(search.value->error().empty()) << search.value->error();
        EXPECT_EQ(search.value->threads(), 2);
        expectSameStatistics(search.value->stats(), one.stats);
    }
}

TEST(Parallel, SetupsCancelledOrDroppedEndWithinASlice) {
    // The other threads' setups poll SearchThreads' cancel between their slices and stop
    // there, rather than running to their end first. Seen in what comes out, not timed:
    // random100's setup (1.1 million images, seconds of CPU) cannot have ended when cancel()
    // follows the constructor, so a cancelled setup gives no solver. (The second slot waits for
    // the first solver's size, which never comes.) Dropped unused, SearchThreads cancels them
    // the same way and joins them.
    std::ifstream in(std::string(POLYCUBE_HOSTILE_DIR) + "/random100.txt", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const PuzzleDef big = parsePuzzle(text.str());
    {
        SearchThreads cancelled(big, SolverOptions{}, 2);
        cancelled.cancel();
        EXPECT_TRUE(cancelled.take(0) == nullptr) << "a setup ran to its end after cancel()";
        EXPECT_TRUE(cancelled.take(1) == nullptr);
        EXPECT_EQ(cancelled.setupError(0), "");
    }
    { SearchThreads dropped(big, SolverOptions{}, 2); }
    // Taken whole: a ready solver of the same search as one set up directly.
    PuzzleDef def = loadPuzzle("bedlam.txt");
    SearchThreads whole(def, optionsFrom("-r"), 1);
    std::unique_ptr<Solver> ready = whole.take(0);
    ASSERT_TRUE(ready && ready->ready());
    auto direct = Solver::create(def, optionsFrom("-r"));
    ASSERT_TRUE(direct.ok());
    EXPECT_EQ(searchFingerprint(*ready), searchFingerprint(*direct.value));
}

TEST(Parallel, SearchThreadsRunTheirTaskAfterTheirSetup) {
    // ParallelSearch::run hands each thread its part of the search (no thread is made when the
    // search starts): the task runs on the thread that set the solver up, after that setup.
    PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    SearchThreads threads(def, optionsFrom("-r"), 2);
    std::atomic<int> ready{0};
    std::vector<std::thread::id> ran(2);
#if defined(__linux__)
    // Each starts on another CPU than its maker's, then gets every CPU of the process back.
    cpu_set_t all;
    ASSERT_EQ(sched_getaffinity(0, sizeof(all), &all), 0);
    std::atomic<int> narrowed{0};
#endif
    for (int k = 0; k < 2; ++k) {
        threads.runOn(k, [&, k] {
#if defined(__linux__)
            cpu_set_t mine;
            if (sched_getaffinity(0, sizeof(mine), &mine) != 0 || !CPU_EQUAL(&mine, &all)) narrowed.fetch_add(1);
#endif
            ran[static_cast<size_t>(k)] = std::this_thread::get_id();
            std::unique_ptr<Solver> s = threads.take(k);
            if (s && s->ready()) ready.fetch_add(1);
        });
    }
    threads.waitForTasks();
    EXPECT_EQ(ready.load(), 2);
#if defined(__linux__)
    EXPECT_EQ(narrowed.load(), 0);
#endif
    EXPECT_NE(ran[0], std::this_thread::get_id());
    EXPECT_NE(ran[0], ran[1]);
}

TEST(Parallel, CancelStopsEveryThread) {
    // Plain DLX on 10x6 on four threads, cancelled by thread 0 between two of its slices (from
    // the progress handler) once every thread has reported a solution, so that all four are in
    // the middle of a piece: run() comes back cancelled, with part of the statistics, and the
    // other threads stop at their next placement (cancel() sets their solvers' flags), so each
    // reports at most the one solution that placement may complete. A thread that went on to
    // the end of its piece would report many. (Parallel.CancelReachesEveryThreadsSolverAtItsNextPlacement
    // counts a thread's placements after the cancel.)
    PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    bool landed = false;
    // A thread that waited for a CPU until the others had shared out the whole tree reports
    // nothing: then the run ends without the cancel, and runs again.
    for (int run = 0; run < 10 && !landed; ++run) {
        auto made = ParallelSearch::create(def, optionsFrom("-r -o s"), 4);
        ASSERT_TRUE(made.ok());
        ParallelSearch& p = *made.value;
        ASSERT_EQ(p.threads(), 4);
        std::set<std::thread::id> finders;  // under the search's lock, as the counts below
        std::atomic<int> finderCount{0};
        std::atomic<bool> cancelled{false};
        long long reportedAfter = 0;
        p.setSolutionHandler([&](const Solution&, long long) {
            if (cancelled.load()) ++reportedAfter;
            if (finders.insert(std::this_thread::get_id()).second) finderCount.fetch_add(1);
        });
        p.setProgressHandler(
            [&](double, long long) {
                if (finderCount.load() < p.threads() || cancelled.exchange(true)) return;
                p.cancel();
            },
            0);
        const Solver::State st = p.run();
        if (!cancelled.load()) {
            EXPECT_EQ(st, Solver::State::Done);
            continue;
        }
        landed = true;
        EXPECT_EQ(st, Solver::State::Cancelled);
        EXPECT_TRUE(p.error().empty()) << p.error();
        EXPECT_LT(p.stats().solutions, 2339);
        EXPECT_LE(reportedAfter, p.threads() - 1) << "solutions reported after cancel()";
        // The threads' own statistics add up to the whole.
        SolverStats sum;
        for (int k = 0; k < p.threads(); ++k) sum.add(p.threadStats(k));
        EXPECT_EQ(sum.totalAttempts(), p.stats().totalAttempts());
        EXPECT_EQ(sum.solutions, p.stats().solutions);
    }
    EXPECT_TRUE(landed) << "in 10 runs, never did every thread report a solution";
}

namespace {

// Whether runCli sent its SIGINT (not when the CLI ended before its first progress line).
struct Interrupted {
    bool sent = false;
};

// Runs the CLI, returns its standard output and exit status. With `interrupt`, SIGINT once
// the search runs: the CLI gets --progress (lines every 50 ms, which come from the search
// alone with more than one thread) and the signal follows its first line on standard error.
std::string runCli(std::vector<std::string> args, int& status, Interrupted* interrupt = nullptr) {
    char path[] = "/tmp/polycube_parallel_test_XXXXXX";
    const int fd = mkstemp(path);
    char errPath[] = "/tmp/polycube_parallel_test_err_XXXXXX";
    const int errFd = mkstemp(errPath);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fd, 1);
    if (interrupt) {
        posix_spawn_file_actions_adddup2(&actions, errFd, 2);
        args.insert(args.begin(), "--progress");
    }
    std::vector<std::string> all{POLYCUBE_CLI};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env{"POLYCUBE_PROGRESS_SECONDS=0.05"};
    for (char** e = environ; *e; ++e) env.push_back(*e);
    std::vector<char*> envp;
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    pid_t pid = 0;
    if (posix_spawn(&pid, POLYCUBE_CLI, &actions, nullptr, argv.data(), envp.data()) != 0) {
        status = -1;
        return "";
    }
    int ws = 0;
    bool reaped = false;
    if (interrupt) {
        // Until the first progress line (polled every 10 ms, a hang guard of 300 s; the CLI may
        // end first).
        for (int k = 0; k < 30000 && lseek(errFd, 0, SEEK_END) == 0; ++k) {
            if (waitpid(pid, &ws, WNOHANG) == pid) {
                reaped = true;
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        if (!reaped) {
            kill(pid, SIGINT);
            interrupt->sent = true;
        }
    }
    if (!reaped) waitpid(pid, &ws, 0);
    status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    posix_spawn_file_actions_destroy(&actions);
    std::string out;
    if (FILE* f = std::fopen(path, "rb")) {
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
        std::fclose(f);
    }
    close(fd);
    unlink(path);
    close(errFd);
    unlink(errPath);
    return out;
}

// The summary without the timings and the thread count.
std::string withoutTimes(std::string json) {
    for (const char* key : {"\"searchSeconds\":", "\"seconds\":", "\"setupSeconds\":", "\"threads\":", "\"idleSeconds\":",
                            "\"cpuSeconds\":"}) {
        size_t at;
        while ((at = json.find(key)) != std::string::npos) {
            size_t end = json.find_first_of(",}", at);
            json.erase(at, end - at + (json[end] == ',' ? 1 : 0));
        }
    }
    return json;
}

}  // namespace

TEST(Parallel, CliJobsGiveTheSameSummary) {
    const std::string dir = POLYCUBE_DEF_DIR;
    std::vector<std::string> files{dir + "/soma.txt", dir + "/pentominoes_10x6.txt", dir + "/pentominoes_8x8_hole.txt"};
    std::string reference;
    for (const char* j : {"1", "2", "4"}) {
        std::vector<std::string> args{"-q", "-r", "--json", "-j", j};
        args.insert(args.end(), files.begin(), files.end());
        int status = 0;
        const std::string out = runCli(args, status);
        EXPECT_EQ(status, 0);
        EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 3) << out;
        EXPECT_NE(out.find("\"solutions\":2339"), std::string::npos);
        // The process's CPU for each puzzle (bench/parallel.mjs reads it): there, and positive.
        const size_t cpu = out.find("\"cpuSeconds\":");
        ASSERT_NE(cpu, std::string::npos) << out;
        EXPECT_GT(std::stod(out.substr(cpu + 13)), 0.0) << out;
        if (std::string(j) != "1") EXPECT_NE(out.find("\"threads\":" + std::string(j)), std::string::npos) << out;
        if (reference.empty()) reference = withoutTimes(out);
        else EXPECT_EQ(withoutTimes(out), reference) << "-j " << j;
    }
    // Solutions printed by several threads: each whole, numbered 1..N once.
    int status = 0;
    const std::string out = runCli({"-r", "-j", "3", dir + "/pentominoes_8x8_hole.txt"}, status);
    EXPECT_EQ(status, 0);
    std::set<int> numbers;
    for (size_t at = 0; (at = out.find("# --- SOLUTION ", at)) != std::string::npos; at += 10)
        numbers.insert(std::atoi(out.c_str() + at + 15));
    EXPECT_EQ(numbers.size(), 65u);
    EXPECT_EQ(*numbers.begin(), 1);
    EXPECT_EQ(*numbers.rbegin(), 65);
    // --ordered: byte for byte what one thread prints
    const std::string one = runCli({"-r", "-j", "1", dir + "/pentominoes_10x6.txt"}, status);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(runCli({"-r", "-j", "3", "--ordered", dir + "/pentominoes_10x6.txt"}, status), one);
    EXPECT_EQ(status, 0);
    // ... and refused where pieces report when they end
    runCli({"-r", "--ordered", "--checkpoint", "/tmp/polycube-ordered-refused.ck", dir + "/soma.txt"}, status);
    EXPECT_EQ(status, 2);
}

TEST(Parallel, CliInterruptStopsAllThreads) {
    // Bedlam takes seconds on two threads; SIGINT once the search runs: exit status 130, and
    // the JSON line says cancelled, with part of the count (19186 solutions in all). A signal
    // that stopped only the first thread's solver would let run() end as done once the other
    // thread had searched the rest. How soon each thread stops is counted, not timed, in
    // Parallel.CancelReachesEveryThreadsSolverAtItsNextPlacement.
    int status = 0;
    Interrupted sigint;
    const std::string out =
        runCli({"-q", "-r", "--json", "-j", "2", std::string(POLYCUBE_DEF_DIR) + "/bedlam.txt"}, status, &sigint);
    ASSERT_TRUE(sigint.sent) << "the search ended first";
    EXPECT_EQ(status, 130);
    EXPECT_NE(out.find("\"state\":\"cancelled\""), std::string::npos) << out;
    EXPECT_NE(out.find("\"threads\":2"), std::string::npos) << out;
    const size_t at = out.find("\"solutions\":");
    ASSERT_NE(at, std::string::npos) << out;
    EXPECT_LT(std::stoll(out.substr(at + 12)), 19186) << out;
}

TEST(Parallel, CancelReachesEveryThreadsSolverAtItsNextPlacement) {
    // cancel() stops every thread at its next placement, not at the end of its slice: it sets
    // the flag of each searching thread's own solver, which the DLX loop polls before every
    // placement. A slice alone is not enough: its budget is in units whose cost the solver
    // estimates, and where a placement costs milliseconds (5000 1x20 bars in a 1000x100 box)
    // a thread that saw cancel only between its slices went on for a second. Counted, not
    // timed: a thread cancels from its own solution handler, in the middle of a slice, and its
    // statistics there and at the end say how many placements it made after the cancel: none.
    // Thread 1 (whose solver only the propagation reaches) and thread 0 (the caller's), at
    // their 1st, 10th and 30th solution. Plain DLX (-o s): FILA's last levels run as a
    // recursion that polls cancel between its subtrees only.
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    const std::thread::id caller = std::this_thread::get_id();  // thread 0 runs on run()'s caller
    for (int thread : {1, 0}) {
        for (int nth : {1, 10, 30}) {
            SCOPED_TRACE("thread " + std::to_string(thread) + ", solution " + std::to_string(nth));
            // The other thread may take most of the tree (it came first, or this one waited
            // for a CPU): then the run ends before this thread's nth solution, and runs again.
            bool landed = false;
            for (int run = 0; run < 10 && !landed; ++run) {
                auto made = ParallelSearch::create(def, optionsFrom("-r -o s"), 2);
                ASSERT_TRUE(made.ok()) << made.status.message;
                ParallelSearch& p = *made.value;
                ASSERT_EQ(p.threads(), 2);
                int seen = 0;
                long long reportedAfter = 0;
                SolverStats atCancel;
                // Called on the finding thread, under the search's lock.
                p.setSolutionHandler([&](const Solution&, long long) {
                    if ((std::this_thread::get_id() == caller) != (thread == 0)) return;
                    if (landed) {
                        ++reportedAfter;
                        return;
                    }
                    if (++seen < nth) return;
                    atCancel = p.threadStats(thread);
                    landed = true;
                    p.cancel();
                });
                const Solver::State st = p.run();
                if (!landed) {
                    EXPECT_EQ(st, Solver::State::Done);
                    continue;
                }
                EXPECT_EQ(st, Solver::State::Cancelled);
                EXPECT_TRUE(p.error().empty()) << p.error();
                EXPECT_EQ(workBetween(atCancel, p.threadStats(thread)), 0) << "placements after cancel()";
                EXPECT_EQ(reportedAfter, 0);
                EXPECT_LT(p.stats().solutions, 2339);
            }
            EXPECT_TRUE(landed) << "the thread never reached its solution " << nth << " in 10 runs";
        }
    }
}
