// Hostile puzzles and options (issue 11): every phase of a search, setup included, returns
// within its slice and honours cancel; memory is refused with a message before it is taken;
// FILA falls back to DLX when its tables would be too big; counts and budgets stay 64-bit.
// Each test runs under a watchdog that aborts the process when it hangs (these cases used to
// loop for hours inside one step()).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "constraints/symmetry.hpp"
#include "cpu_time.hpp"
#include "search/trace.hpp"
#include "session/session.hpp"
#include "test_support.hpp"

namespace polycube::testing {
namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
std::string hostile(const std::string& name) { return readFile(std::string(POLYCUBE_HOSTILE_DIR) + "/" + name); }

// Aborts the whole test binary if not disarmed within `seconds`: a hang fails fast.
class Watchdog {
public:
    explicit Watchdog(double seconds, std::string what) : what_(std::move(what)) {
        thread_ = std::thread([this, seconds] {
            std::unique_lock<std::mutex> lock(m_);
            if (!cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; })) {
                std::fprintf(stderr, "watchdog: %s did not finish in %.0f s\n", what_.c_str(), seconds);
                std::abort();
            }
        });
    }
    ~Watchdog() {
        {
            std::lock_guard<std::mutex> lock(m_);
            done_ = true;
        }
        cv_.notify_one();
        thread_.join();
    }

private:
    std::string what_;
    std::mutex m_;
    std::condition_variable cv_;
    bool done_ = false;
    std::thread thread_;
};

struct Case {
    const char* file;     // in tests/hostile/, or def/ when it starts with "def:"
    const char* options;
    const char* phase;    // where the cancel lands: "setup" or "search"
    int slices;           // Session: slices stepped in that phase before the cancel
    // Solver: the cancel comes at this placement of the search (from the trace handler), or,
    // when 0, `cancelCpu` CPU seconds into that phase's step() (a setup, or the root's filters
    // of minutes: no placement comes before the cancel).
    int placement;
    double cancelCpu;
};

std::string caseText(const Case& c) {
    const std::string f = c.file;
    return f.rfind("def:", 0) == 0 ? readDefFile(f.substr(4)) : hostile(f);
}

bool inPhase(const Session& s, const char* phase) {
    return s.statsJson().find(std::string("\"phase\":\"") + phase + "\"") != std::string::npos;
}

// The page's worker drives a Session in slices; a cancel arrives between two of them. The
// cancel comes a fixed number of slices into its phase; each step's budget is never reached,
// so the slice's time limit (kSliceSeconds) must end it, and the steps return in the phase
// named. After cancel() the next step does no work: the counters statsJson gives
// (placements, filtered rows, backtracks, trials) are what they were. How long a slice holds
// the thread (the aim: under 100 ms of CPU) depends on the machine, so a test does not bound
// it: bench/responsiveness.mjs measures it for these cases, on the same engine compiled to
// WebAssembly. Setup costs here (CPU): random100 about 2 s, tetriscube -r tens of ms.
const Case kSessionCases[] = {
    {"random100.txt", "", "setup", 10, 0, 0.05},                      // building 1.1 million images
    {"random60.txt", "", "search", 30, 3, 0},                         // placements of a few ms
    {"random60.txt", "-F1", "search", 30, 0, 0.05},                   // the fit filter over 400,000 rows
    {"def:hexomino_box_in_diamond.txt", "-P 3 -V 3 -F 5", "search", 30, 3, 0},  // filters after every placement
    {"def:tetriscube.txt", "-r", "setup", 1, 0, 0.005},               // -r probes (a few slices: cancelled in the first)
};

// What a step's work changes in statsJson, and nothing that measures time.
nlohmann::json countersOf(const std::string& statsJson) {
    const nlohmann::json j = nlohmann::json::parse(statsJson);
    nlohmann::json counters;
    for (const char* key : {"solutions", "found", "attemptsByRemaining", "fitsByRemaining", "monteCarloTrials", "parityBacktracks",
                            "volumeBacktracks", "parityFiltered", "volumeFiltered", "fitFiltered"})
        if (j.contains(key)) counters[key] = j[key];
    return counters;
}

TEST(Hostile, SessionSlicesStayShortAndCancelIsHonouredInEveryPhase) {
    for (const Case& c : kSessionCases) {
        SCOPED_TRACE(std::string(c.file) + " " + c.options);
        Watchdog dog(300, std::string("session case ") + c.file + " " + c.options);  // a hang guard only
        Session s;
        ASSERT_TRUE(s.load(caseText(c), c.file)) << s.lastError();
        ASSERT_TRUE(s.start(0, c.options)) << s.lastError();
        Session::StepState st = Session::RUNNING;
        // Into the phase, then `slices` slices of it.
        int inIt = 0;
        while (st == Session::RUNNING && inIt < c.slices) {
            st = s.step(1e12);
            if (inPhase(s, c.phase)) ++inIt;
        }
        ASSERT_EQ(st, Session::RUNNING) << s.lastError();
        EXPECT_TRUE(inPhase(s, c.phase)) << s.statsJson();
        const nlohmann::json before = countersOf(s.statsJson());
        s.cancel();
        EXPECT_EQ(s.step(1e12), Session::CANCELLED);
        EXPECT_EQ(countersOf(s.statsJson()), before) << "the step after cancel() searched on";
        EXPECT_NE(s.statsJson().find("\"state\":\"cancelled\""), std::string::npos);
    }
}

// The CLI cancels from a signal handler while Solver::step runs with no time limit: the flag
// must be polled in every phase, between setup units, before every placement and between the
// rows a filter checks. Where a case has a callback in its way, the cancel comes from there:
// the trace handler, on the stepping thread, at a placement of the search (its step starts
// after the setup ran to its end), where a signal could land too; then no placement and no
// filtered row may follow. Elsewhere a timer on this thread's CPU clock raises the signal
// `cancelCpu` seconds into the step (each setup, and random60's first fit filter, takes far
// more) and the handler cancels: the step returns cancelled with the setup unfinished (one
// that did not poll would run to its end first, and be ready()), or with no placement made
// (a filter that did not poll would go on for minutes: the watchdog ends the test). Counted,
// not timed: how soon the flag is seen depends on the cost of a unit, which
// bench/responsiveness.mjs measures.
TEST(Hostile, SolverCancelFromASignalHandlerIsSeenInEveryPhase) {
    for (const Case& c : kSessionCases) {
        SCOPED_TRACE(std::string(c.file) + " " + c.options);
        Watchdog dog(300, std::string("solver case ") + c.file + " " + c.options);  // a hang guard only
        ParseResult parsed = parseDefinitions(caseText(c), c.file);
        ASSERT_TRUE(parsed.ok());
        const bool inSearch = std::string(c.phase) == "search";
        // (-t 1: every level's events, the placements among them)
        std::unique_ptr<Solver> solver =
            Solver::begin(parsed.puzzles.front(), optionsFrom(std::string(c.options) + (c.placement > 0 ? " -t 1" : "")));
        if (inSearch)  // the whole setup: a step() before ready() returns when the setup ends
            while (!solver->ready()) ASSERT_EQ(solver->step(1LL << 40), Solver::State::Running) << solver->error();
        Solver::State st;
        if (c.placement == 0) {
            {
                CpuAlarm<Solver> alarm(*solver, c.cancelCpu);
                ASSERT_TRUE(alarm.armed()) << std::strerror(errno);
                while ((st = solver->step(1LL << 40)) == Solver::State::Running) {
                }
                ASSERT_TRUE(alarm.fired()) << "the step ended before the cancel";
            }
            EXPECT_EQ(st, Solver::State::Cancelled);
            EXPECT_EQ(solver->ready(), inSearch) << "the setup ran to its end after the cancel";
            if (inSearch) EXPECT_EQ(solver->stats().totalAttempts(), 0) << "the filter ran on to a placement";
            continue;
        }
        int placed = 0, placedAfter = 0;
        SolverStats atCancel;
        solver->setTraceHandler([&](const TraceEvent& e) {
            if (e.op != trace::kPlace) return;
            if (++placed == c.placement) {
                atCancel = solver->stats();
                solver->cancel();
            } else if (placed > c.placement) {
                ++placedAfter;
            }
        });
        while ((st = solver->step(1LL << 40)) == Solver::State::Running) {
        }
        ASSERT_GE(placed, c.placement) << "the search ended first";
        EXPECT_EQ(st, Solver::State::Cancelled);
        EXPECT_EQ(placedAfter, 0);
        EXPECT_EQ(workBetween(atCancel, solver->stats()), 0) << "placements or filtered rows after the cancel";
    }
}

// Monte Carlo trials that place nothing used to loop for hours inside one step() (the
// restart took no budget). Such a puzzle is now proved impossible before the search (a piece
// that fits nowhere), so to test the restart itself the proofs are turned off here.
TEST(Hostile, MonteCarloTrialsThatPlaceNothingAreChargedAndCancelled) {
    Watchdog dog(300, "Monte Carlo restarts");
    const PuzzleDef def = parsePuzzle(hostile("nofit.txt"));
    SolverOptions o = optionsFrom("-s 1000000000000,0");
    o.weightingProofs = false;
    std::unique_ptr<Solver> s = Solver::begin(def, o);
    while (!s->ready()) ASSERT_EQ(s->step(1000), Solver::State::Running);
    // Returns: each restart is charged at least one unit of the budget.
    EXPECT_EQ(s->step(1000), Solver::State::Running);
    EXPECT_GT(s->stats().monteCarloTrials, 10);
    EXPECT_LE(s->stats().monteCarloTrials, 1000);
    EXPECT_EQ(s->stats().totalAttempts(), 0);
    // Cancelled from a signal handler while step runs without a budget or time limit, after
    // 50 ms of this thread's CPU in it: each restart polls the flag, so the step returns (a
    // restart that did not would go on for ever: the watchdog ends the test).
    {
        CpuAlarm<Solver> alarm(*s, 0.05);
        ASSERT_TRUE(alarm.armed());
        EXPECT_EQ(s->step(1LL << 40), Solver::State::Cancelled);
        ASSERT_TRUE(alarm.fired());
    }
    // With the proofs (the default) the same puzzle ends before searching.
    Session session;
    ASSERT_TRUE(session.load(hostile("nofit.txt"), "nofit.txt"));
    ASSERT_TRUE(session.start(0, "-s 1000000000000,0"));
    Session::StepState st;
    while ((st = session.step(1e9)) == Session::RUNNING) {
    }
    EXPECT_EQ(st, Session::DONE);
    EXPECT_NE(session.statsJson().find("fits nowhere"), std::string::npos);
}

TEST(Hostile, TooLargeForMemoryIsRefusedWithSizeAndLimit) {
    Watchdog dog(300, "random165 refusal");
    Session s;
    ASSERT_TRUE(s.load(hostile("random165.txt"), "random165.txt"));
    ASSERT_TRUE(s.start(0, ""));
    Session::StepState st;
    while ((st = s.step(1e12)) == Session::RUNNING) {
    }
    EXPECT_EQ(st, Session::FAILED);
    // The exact count, the estimate and the limit, before a byte of it was taken.
    EXPECT_NE(s.lastError().find("3,510,776 piece placements"), std::string::npos) << s.lastError();
    EXPECT_NE(s.lastError().find("1031 MiB"), std::string::npos) << s.lastError();
    EXPECT_NE(s.lastError().find("limit of 768 MiB"), std::string::npos) << s.lastError();
    // Counted, not built: the solver refuses before it has a model (memoryBytes() is 0 until
    // the model is built).
    std::unique_ptr<Solver> solver = Solver::begin(parsePuzzle(hostile("random165.txt")), SolverOptions{});
    while (solver->step(1LL << 40) == Solver::State::Running) {
    }
    EXPECT_EQ(solver->state(), Solver::State::Failed);
    EXPECT_EQ(solver->memoryBytes(), 0);
    // The session stays usable.
    ASSERT_TRUE(s.load(readDefFile("soma.txt"), "soma.txt"));
    ASSERT_TRUE(s.start(0, "-r"));
    while ((st = s.step(1e12)) == Session::RUNNING) {
    }
    EXPECT_EQ(st, Session::DONE);
    EXPECT_NE(s.statsJson().find("\"solutions\":480"), std::string::npos);
}

// The placements are counted before any is stored, and the counting stops as soon as a count
// limit is passed (4,000 random 16-cell pieces in a 40^3 box were refused after counting all
// their 4.9 billion placements, 37.7 s): the 10x6 box's 2,056 placements, with the limits
// injected, stop the count at a row past 1,000 placements or 5,000 cells.
TEST(Hostile, PlacementCountingStopsAtItsLimits) {
    const PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    ModelLimits few;
    few.maxImages = 1000;
    ModelBuilder images(def, few);
    while (images.step(1000) == ModelBuilder::Running) {
    }
    EXPECT_EQ(images.error(), "puzzle too large: more than 1,000 piece placements, the limit (counting stopped there, before any was stored)");
    EXPECT_LE(images.imageCount(), 1000 + def.xDim);  // one row of translations past it at most
    ModelLimits small;
    small.maxImageCells = 5000;
    ModelBuilder cells(def, small);
    while (cells.step(1000) == ModelBuilder::Running) {
    }
    EXPECT_NE(cells.error().find("its piece placements have more than 5,000 cells in all, the limit"), std::string::npos) << cells.error();
    EXPECT_LE(cells.imageCellCount(), 5000 + 5 * def.xDim);
}

TEST(Hostile, ModelMemoryEstimateIsCloseToTheMatrixItDescribes) {
    // The estimate must not be optimistic: compare it with the bytes the vectors hold.
    Result<Model> m = Model::build(loadPuzzle("tetriscube.txt"));
    ASSERT_TRUE(m.ok());
    long long cells = 0, held = 0;
    for (const Image& img : m.value.images) {
        cells += static_cast<long long>(img.cells.size());
        held += static_cast<long long>(sizeof(Image) + img.cells.capacity() * sizeof(int));
    }
    const long long images = static_cast<long long>(m.value.images.size());
    EXPECT_GE(modelBytes(images, cells), held);
    DlxMatrix dlx;
    dlx.build(m.value, std::vector<char>(m.value.images.size(), 1));
    EXPECT_GE(matrixBytes(images, cells, dlx.columnCount()), dlx.nodeCount() * 16);
}

TEST(Hostile, FilaFallsBackToDlxWhenItsTablesWouldPassTheLimit) {
    // With no memory left for FILA's tables every FILA start is refused and DLX searches
    // instead: the same 2339 solutions, the configuration says so.
    Watchdog dog(300, "FILA fallback");
    PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    ModelLimits tight;
    tight.maxTotalBytes = 0;
    std::unique_ptr<Solver> s = Solver::begin(def, optionsFrom("-r"), tight);
    while (s->step(1LL << 40) == Solver::State::Running) {
    }
    EXPECT_EQ(s->state(), Solver::State::Done);
    EXPECT_EQ(s->stats().solutions, 2339);
    EXPECT_GT(s->stats().filaRefused, 0);
    EXPECT_NE(s->configurationDescription().find("FILA refused"), std::string::npos);
    // With the normal limit FILA runs (and is not refused) on the same puzzle.
    RunResult normal = solve(def, "-r");
    EXPECT_EQ(normal.count, 2339);
    EXPECT_EQ(normal.stats.filaRefused, 0);
}

TEST(Hostile, UniqueFilterMemoryIsBoundedAndItsLimitNamed) {
    // -u remembers every unique solution (a 128-bit hash each): maxBytes / 32 of them, the
    // table and the one it replaces while growing within maxBytes. Past that the search stops
    // with an error naming the limit instead of growing without bound; below it, the count is
    // exact. Both for FILA's solutions (the default configuration) and DLX's (-o s). At a
    // power of two (as the default 256 MiB: 8,388,608 promised) the doubling table stopped at
    // half: 64 KiB kept 1,024, 256 MiB 4,194,304.
    Watchdog dog(300, "-u memory");
    PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    for (const char* words : {"-u", "-u -o s"}) {
        for (long long limit : {64LL << 10}) {
            SCOPED_TRACE(std::string(words) + ", limit " + std::to_string(limit));
            ModelLimits small;
            small.maxUniqueBytes = limit;
            std::unique_ptr<Solver> s = Solver::begin(def, optionsFrom(words), small);
            while (s->step(1LL << 40) == Solver::State::Running) {
            }
            const long long kept = limit / 32;  // 2,048 of the 2,339
            EXPECT_EQ(s->state(), Solver::State::Failed);
            EXPECT_EQ(s->stats().solutions, kept);
            EXPECT_NE(s->error().find("after " + std::to_string(kept) + " of them its table reached the limit of " + formatBytes(limit)),
                      std::string::npos)
                << s->error();
            EXPECT_NE(s->error().find("-r counts"), std::string::npos);
        }
    }
    // The default limit holds them all: the 2339 classes, each reported once.
    RunResult all = solve(def, "-u");
    EXPECT_EQ(all.count, 2339);
    EXPECT_EQ(all.stats.redundant, 3 * 2339);
}

// The -u table itself, with its limit injected: distinct solutions (two dominoes and 96
// monominoes in a 1x100 strip, no symmetries: each pair of domino places its own class) up
// to capacity(), then Full; the tables never took more than the limit, even while growing.
// The default keeps 8,388,608.
TEST(Hostile, UniqueFilterKeepsMaxBytesOver32WithinItsLimit) {
    EXPECT_EQ(UniqueFilter().capacity(), 8388608u);
    PuzzleDef strip = parsePuzzle("D:xDim=100:yDim=1:zDim=1\nC:name=D:count=2:layout=0 0 0, 1 0 0\n"
                                  "C:name=m:count=96:layout=0 0 0\n~D\n");
    Result<Model> built = Model::build(strip);
    ASSERT_TRUE(built.ok()) << built.status.message;
    const Model& m = built.value;
    const int domino = m.shapes[0].size == 2 ? 0 : 1, monomino = 1 - domino;
    auto solution = [&](int p, int q) {  // dominoes at cells p, p+1 and q, q+1 (q > p + 1)
        std::vector<int> placed = {m.findImage(domino, {p, p + 1}), m.findImage(domino, {q, q + 1})};
        for (int c = 0; c < 100; ++c)
            if (c != p && c != p + 1 && c != q && c != q + 1) placed.push_back(m.findImage(monomino, {c}));
        return placed;
    };
    const std::vector<Symmetry> none;
    for (long long limit : {16LL << 10, 24LL << 10, 64LL << 10, 96LL << 10, 128LL << 10}) {
        SCOPED_TRACE(limit);
        UniqueFilter f(limit);
        SolutionCoder coder(m);
        size_t inserted = 0;
        UniqueFilter::Insert last = UniqueFilter::Insert::New;
        for (int p = 0; p + 1 < 100 && last != UniqueFilter::Insert::Full; ++p)
            for (int q = p + 2; q + 1 < 100 && last != UniqueFilter::Insert::Full; ++q) {
                last = f.insert(solution(p, q), none, coder);
                ASSERT_NE(last, UniqueFilter::Insert::Seen) << p << " " << q;
                if (last == UniqueFilter::Insert::New) ++inserted;
            }
        EXPECT_EQ(last, UniqueFilter::Insert::Full);
        EXPECT_EQ(inserted, static_cast<size_t>(limit / 32));
        EXPECT_EQ(f.size(), inserted);
        EXPECT_LE(f.peakBytes(), limit);
        EXPECT_LE(f.bytes(), limit);
        EXPECT_EQ(f.insert(solution(0, 2), none, coder), UniqueFilter::Insert::Seen);  // still remembered
    }
}

TEST(Hostile, MonteCarloTrialCountsAreSixtyFourBit) {
    // 2^31 and 2^32 + 1 trials mean what they say (they wrapped to negative and to 1 where
    // `long` is 32 bits, as in WebAssembly).
    SolverOptions o = optionsFrom("-s 4294967297,0");
    EXPECT_EQ(o.monteCarlo.trials, 4294967297LL);
    o = optionsFrom("-s 2147483648,0");
    EXPECT_EQ(o.monteCarlo.trials, 2147483648LL);
    // A run with more trials than fit in 32 bits does not end after one trial.
    o = optionsFrom("-s 4294967297,0");
    o.weightingProofs = false;  // (nofit.txt is proved impossible otherwise)
    std::unique_ptr<Solver> s = Solver::begin(parsePuzzle(hostile("nofit.txt")), o);
    Solver::State st = Solver::State::Running;
    for (int k = 0; k < 100 && st == Solver::State::Running; ++k) st = s->step(1000);
    EXPECT_EQ(st, Solver::State::Running);
    EXPECT_GT(s->stats().monteCarloTrials, 1000);
}

TEST(Hostile, SessionClampsBudgetsAndTrace) {
    Session s;
    ASSERT_TRUE(s.load(readDefFile("soma.txt"), "soma.txt"));
    ASSERT_TRUE(s.start(0, "-r -t 1"));
    Watchdog dog(300, "NaN budgets");
    const double nan = std::nan("");
    // NaN, negative and infinite budgets: each step returns (NaN used to spin), those under 1
    // as a budget of 1: at most one placement, once the search is past the root's filters (a
    // slice of the infinite ones ends by its time).
    auto fits = [&s] {
        const nlohmann::json stats = nlohmann::json::parse(s.statsJson());
        long long n = 0;
        for (const auto& f : stats["fitsByRemaining"]) n += f.get<long long>();
        return n;
    };
    while (fits() == 0) ASSERT_EQ(s.step(1000), Session::RUNNING);
    for (double b : {nan, -5.0, 0.0, 0.5, nan, -5.0, 0.0, 0.5, 1e300, std::numeric_limits<double>::infinity()}) {
        const long long before = fits();
        s.step(b);
        if (!(b >= 1)) EXPECT_LE(fits() - before, 1) << b;
    }
    Session::StepState st;
    while ((st = s.step(1e9)) == Session::RUNNING) {
    }
    EXPECT_EQ(st, Session::DONE);
    // takeTrace(2^30): in events, so no overflow to an empty answer in 32-bit size_t.
    std::vector<int32_t> trace = s.takeTrace(1 << 30);
    EXPECT_GT(trace.size(), 1000u);
    EXPECT_EQ(trace.size() % 4, 0u);
}

TEST(Hostile, OptionErrorsAreShortAndQuotesMustBalance) {
    Session s;
    ASSERT_TRUE(s.load(readDefFile("soma.txt"), "soma.txt"));
    const std::string huge(100000, 'x');
    for (const std::string& options : {"-l " + huge, "--" + huge, "-s " + huge, "-o " + huge, "-r " + huge, huge}) {
        bool ok = s.start(0, options);
        Session::StepState st = ok ? s.step(1e9) : Session::FAILED;
        while (st == Session::RUNNING) st = s.step(1e9);
        EXPECT_EQ(st, Session::FAILED) << options.substr(0, 20);
        EXPECT_LT(s.lastError().size(), 200u) << s.lastError().substr(0, 300);
        EXPECT_NE(s.lastError().find("100000 characters"), std::string::npos) << s.lastError().substr(0, 300);
    }
    EXPECT_FALSE(s.start(0, "-r \"L"));
    EXPECT_NE(s.lastError().find("unbalanced"), std::string::npos);
    EXPECT_TRUE(s.start(0, "-r \"L\""));  // balanced quotes are fine
}

}  // namespace
}  // namespace polycube::testing
