// Search traces (-t K) at DLX and FILA levels: balanced, replayable, and with the same
// configuration and statistics as the search without -t.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_support.hpp"

using namespace polycube;
using namespace polycube::testing;

namespace {

struct Placed {
    int image, instance, remaining;
};

// Runs a search with a trace handler and checks the events as they come (with -t 1, where
// every level is traced): each place is taken back by exactly one remove, in stack order,
// with the same remaining count and instance; instances number the copies of a shape in
// the order they are placed; at each reported solution the placed images are exactly the
// solution's images.
struct TraceRun {
    long long count = 0, places = 0, removes = 0;
    long long filaEvents = 0;  // events with `filaAt` or fewer pieces remaining
    long long solutionsChecked = 0;
    int failures = 0;
    std::string firstFailure;
    std::vector<TraceEvent> events;  // kept when requested
    std::vector<Placed> stack;       // placed and not yet removed at the end
    SolverStats stats;
    std::string configuration;
    Solver::State state = Solver::State::Running;
};

TraceRun traceRun(const PuzzleDef& def, const std::string& options, int filaAt, bool keepEvents = false,
                  long long slice = 1 << 20) {
    TraceRun out;
    auto created = Solver::create(def, optionsFrom(options));
    EXPECT_TRUE(created.ok()) << created.status.message;
    if (!created.ok()) return out;
    Solver& s = *created.value;
    const Model& model = s.model();
    const int pieces = s.pieceCount();
    const bool everyLevel = s.options().trace == 1;
    auto fail = [&](const std::string& what) {
        if (out.failures++ == 0) out.firstFailure = what + " (event " + std::to_string(out.places + out.removes) + ")";
    };
    s.setTraceHandler([&](const TraceEvent& e) {
        if (keepEvents) out.events.push_back(e);
        if (e.remaining <= filaAt) out.filaEvents++;
        if (e.image < 0 || e.image >= static_cast<int>(model.images.size())) return fail("image out of range");
        const int shape = model.images[e.image].shape;
        if (e.op == 1) {
            out.places++;
            if (everyLevel) {
                if (e.remaining != pieces - static_cast<int>(out.stack.size())) fail("place: remaining does not match the depth");
                int before = 0;
                for (const Placed& p : out.stack) before += model.images[p.image].shape == shape;
                if (before >= static_cast<int>(model.shapes[shape].instances.size()) ||
                    e.instance != model.shapes[shape].instances[before])
                    fail("place: instance is not the next copy of its shape");
            }
            out.stack.push_back({e.image, e.instance, e.remaining});
        } else if (e.op == 2) {
            out.removes++;
            if (out.stack.empty()) return fail("remove with nothing placed");
            const Placed top = out.stack.back();
            out.stack.pop_back();
            if (top.image != e.image || top.instance != e.instance || top.remaining != e.remaining)
                fail("remove does not match the last place");
        } else {
            fail("unknown op");
        }
    });
    s.setSolutionHandler([&](const Solution& sol) {
        if (!everyLevel) return;
        std::vector<int> placed;
        for (const Placed& p : out.stack) placed.push_back(p.image);
        std::vector<int> images = sol.images;
        std::sort(placed.begin(), placed.end());
        std::sort(images.begin(), images.end());
        if (placed != images) fail("solution " + std::to_string(sol.number) + " is not what the trace placed");
        out.solutionsChecked++;
    });
    while ((out.state = s.step(slice)) == Solver::State::Running) {
    }
    out.count = s.stats().solutions;
    out.stats = s.stats();
    out.configuration = s.configurationDescription();
    return out;
}

// The counts must not depend on tracing.
void expectSameStats(const SolverStats& a, const SolverStats& b, const std::string& what) {
    EXPECT_EQ(a.solutions, b.solutions) << what;
    EXPECT_EQ(a.found, b.found) << what;
    EXPECT_EQ(a.fits, b.fits) << what;
    EXPECT_EQ(a.attempts, b.attempts) << what;
    EXPECT_EQ(a.parityBacktracks, b.parityBacktracks) << what;
}

}  // namespace

TEST(Trace, FilaLevelsAreTracedAndReplayTheSolutions) {
    struct Case {
        const char* file;
        const char* options;
        int filaAt;
        long long expected;
    };
    for (Case c : {Case{"pentominoes_8x8_hole.txt", "-r -f 11 -n -o s:f=11", 11, 65},
                   Case{"pentominoes_8x8_hole.txt", "-r -f 11 -o s:f=11", 11, 65},
                   Case{"pentominoes_8x8_hole.txt", "-r -f 11 -n -o s:e=11:f=3", 11, 65},
                   Case{"pentominoes_8x8_hole.txt", "-r -f 12 -n -o f", 12, 65},
                   Case{"pentominoes_8x8_hole.txt", "-r -f 11 -n -o s:e=11:f=3 -p", 11, 65},
                   Case{"soma.txt", "-r -f 6 -n -o s:e=6:f=3", 6, 480},
                   Case{"soma.txt", "-r -f 7 -o f", 7, 480},
                   Case{"soma.txt", "-r -f 6 -o s:x=6", 6, 480},
                   Case{"soma.txt", "-r -e 6", 6, 480},
                   Case{"soma.txt", "-r -m 4", 4, 480}}) {
        const std::string what = std::string(c.file) + " " + c.options;
        PuzzleDef def = loadPuzzle(c.file);
        TraceRun t = traceRun(def, std::string(c.options) + " -t 1", c.filaAt);
        EXPECT_EQ(t.failures, 0) << what << ": " << t.firstFailure;
        EXPECT_EQ(t.count, c.expected) << what;
        EXPECT_EQ(t.solutionsChecked, c.expected) << what;
        EXPECT_GT(t.filaEvents, 0) << what;
        EXPECT_EQ(t.places, t.removes) << what;
        EXPECT_TRUE(t.stack.empty()) << what;
        EXPECT_EQ(t.places, t.stats.totalFits()) << what;  // with -t 1 every fit is a traced place
        expectSameStats(t.stats, solve(def, c.options).stats, what);
    }
}

TEST(Trace, CopiesAreNumberedAcrossTheSwitchToFila) {
    // Four L trominoes and two I trominoes: DLX places some copies of a shape, FILA the rest.
    PuzzleDef def = parsePuzzle(
        "D:xDim=6:yDim=3:zDim=1\n"
        "C:name=L:count=4:layout=0 0 0, 1 0 0, 0 1 0\n"
        "C:name=I:count=2:layout=0 0 0, 1 0 0, 2 0 0\n~D\n");
    const long long expected = solve(def, "-o s").count;
    ASSERT_GT(expected, 0);
    for (const char* opts : {"-f 1 -o f", "-f 2 -o f", "-f 3 -n -o s:e=3", "-f 4 -o s:s=4", "-f 6 -n -o f", ""}) {
        TraceRun t = traceRun(def, std::string(opts) + " -t 1", 6);
        EXPECT_EQ(t.failures, 0) << opts << ": " << t.firstFailure;
        EXPECT_EQ(t.count, expected) << opts;
        EXPECT_EQ(t.solutionsChecked, expected) << opts;
        EXPECT_TRUE(t.stack.empty()) << opts;
    }
}

TEST(Trace, LevelFilterAndSlicesAtFilaLevels) {
    PuzzleDef def = loadPuzzle("pentominoes_8x8_hole.txt");
    const std::string opts = "-r -f 11 -n -o s:e=11:f=3";
    TraceRun all = traceRun(def, opts + " -t 1", 11, true);
    ASSERT_EQ(all.failures, 0) << all.firstFailure;
    // Short slices (resuming FILA mid-level) give the same events.
    TraceRun sliced = traceRun(def, opts + " -t 1", 11, true, 7);
    EXPECT_EQ(sliced.failures, 0) << sliced.firstFailure;
    ASSERT_EQ(sliced.events.size(), all.events.size());
    for (size_t i = 0; i < all.events.size(); ++i) {
        const TraceEvent &a = all.events[i], &b = sliced.events[i];
        ASSERT_TRUE(a.op == b.op && a.remaining == b.remaining && a.instance == b.instance && a.image == b.image)
            << "event " << i;
    }
    // -t K and -t -K select the same events as the full trace.
    for (int k : {12, 11, 9, 3, 1, -12, -11, -5, -1}) {
        TraceRun t = traceRun(def, opts + " -t " + std::to_string(k), 11, true);
        EXPECT_EQ(t.failures, 0) << k << ": " << t.firstFailure;
        EXPECT_TRUE(t.stack.empty()) << k;
        std::vector<TraceEvent> want;
        for (const TraceEvent& e : all.events)
            if (k > 0 ? e.remaining >= k : e.remaining == -k) want.push_back(e);
        ASSERT_EQ(t.events.size(), want.size()) << k;
        EXPECT_FALSE(want.empty()) << k;
        for (size_t i = 0; i < want.size(); ++i) {
            const TraceEvent &a = want[i], &b = t.events[i];
            ASSERT_TRUE(a.op == b.op && a.remaining == b.remaining && a.instance == b.instance && a.image == b.image)
                << "-t " << k << " event " << i;
        }
    }
}

TEST(Trace, SolutionLimitLeavesAValidPrefix) {
    PuzzleDef def = loadPuzzle("pentominoes_8x8_hole.txt");
    TraceRun t = traceRun(def, "-r -f 11 -n -o s:f=11 -l 3 -t 1", 11);
    EXPECT_EQ(t.state, Solver::State::LimitReached);
    EXPECT_EQ(t.failures, 0) << t.firstFailure;
    EXPECT_EQ(t.count, 3);
    EXPECT_EQ(t.solutionsChecked, 3);
    EXPECT_LE(t.stack.size(), 12u);  // trailing removes may be missing, as with DLX
}

TEST(Trace, AutomaticConfigurationIsTheSameWithTracing) {
    PuzzleDef def = loadPuzzle("pentominoes_10x6.txt");
    auto plain = Solver::create(def, optionsFrom("-r"));
    ASSERT_TRUE(plain.ok());
    TraceRun t = traceRun(def, "-r -t 1", 11);
    EXPECT_EQ(t.configuration, plain.value->configurationDescription());
    EXPECT_NE(t.configuration.find("FILA when 11 pieces remain"), std::string::npos) << t.configuration;
    EXPECT_EQ(t.failures, 0) << t.firstFailure;
    EXPECT_EQ(t.count, 2339);
    EXPECT_EQ(t.solutionsChecked, 2339);
    EXPECT_GT(t.filaEvents, 0);
    EXPECT_EQ(t.places, t.removes);
    EXPECT_EQ(t.places, t.stats.totalFits());
    expectSameStats(t.stats, solve(def, "-r").stats, "10x6 -r");
    // A 3-D puzzle (E heuristic in FILA) with a level filter.
    PuzzleDef soma = loadPuzzle("soma.txt");
    TraceRun s = traceRun(soma, "-r -t 5", 6);
    EXPECT_EQ(s.failures, 0) << s.firstFailure;
    EXPECT_EQ(s.count, 480);
    EXPECT_GT(s.filaEvents, 0);
    EXPECT_TRUE(s.stack.empty());
    expectSameStats(s.stats, solve(soma, "-r").stats, "soma -r");
}
