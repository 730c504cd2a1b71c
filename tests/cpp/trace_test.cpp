// Search traces (-t K) at DLX and FILA levels: balanced, replayable, and with the same
// configuration and statistics as the search without -t.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "output/format.hpp"
#include "search/trace.hpp"
#include "session/session.hpp"
#include "test_support.hpp"

using namespace polycube;
using namespace polycube::testing;

namespace {

struct Placed {
    int image, instance, remaining;
};

// A level being traced: its kChoose and candidates, and how many of them were placed.
struct OpenLevel {
    int remaining = -1, target = 0, candidates = 0, placed = 0;
    std::vector<int> images;  // kCandidate images, in order
};

// Runs a search with a trace handler and replays the events as they come (search/trace.hpp).
// With -t 1 (every level traced): each place is taken back by exactly one remove, in stack
// order, with the same remaining count and instance; instances number the copies of a shape
// in the order they are placed; a level's kChoose is followed by exactly its candidates, the
// places at that level are those candidates in order, and the level ends with kExhausted
// (all tried) or kNoFit (none) or a trigger; at each reported solution the placed images are
// exactly the solution's images, and kSolution numbers the reported solutions.
struct TraceRun {
    long long count = 0, places = 0, removes = 0;
    long long filaEvents = 0;  // events with `filaAt` or fewer pieces remaining
    long long solutionsChecked = 0, solutionEvents = 0;
    long long byOp[16] = {};
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
    std::vector<OpenLevel> levels;  // everyLevel: the levels with a kChoose still open
    long long lastSolutionEvent = 0;
    auto fail = [&](const std::string& what) {
        if (out.failures++ == 0)
            out.firstFailure = what + " (event " + std::to_string(out.events.size() + (keepEvents ? 0 : out.byOp[0])) + ")";
    };
    auto validImage = [&](int image) { return image >= 0 && image < static_cast<int>(model.images.size()); };
    auto validTarget = [&](int target) {
        return target >= 0 ? target < model.boxCellCount() && model.openCellOfBox[target] >= 0
                           : -1 - target < static_cast<int>(model.instances.size());
    };
    auto depthOk = [&](int remaining) { return !everyLevel || remaining == pieces - static_cast<int>(out.stack.size()); };
    // A dead end ends the level at the current depth (and its kChoose, if any).
    auto endLevel = [&](const TraceEvent& e) {
        if (!depthOk(e.remaining)) fail("dead end: remaining does not match the depth");
        if (!everyLevel) return;
        if (!levels.empty() && levels.back().remaining == e.remaining) {
            const OpenLevel& l = levels.back();
            if (e.op == trace::kExhausted && (l.candidates == 0 || l.placed != l.candidates || e.b != l.candidates ||
                                              e.a != l.target))
                fail("exhausted: not every candidate was tried");
            if (e.op == trace::kNoFit && (l.candidates != 0 || e.a != l.target)) fail("no fit with candidates");
            if (e.op == trace::kFilterEmptied && (l.candidates != 0 || e.a != l.target)) fail("filter emptied with candidates");
            levels.pop_back();
        } else if (e.op == trace::kExhausted || e.op == trace::kNoFit || e.op == trace::kFilterEmptied) {
            fail("dead end of a level without kChoose");
        }
    };
    s.setTraceHandler([&](const TraceEvent& e) {
        if (keepEvents) out.events.push_back(e);
        else out.byOp[0]++;
        if (e.op > 0 && e.op < 16) out.byOp[e.op]++;
        if (e.remaining <= filaAt && e.op != trace::kSolution) out.filaEvents++;
        switch (e.op) {
            case trace::kPlace: {
                if (!validImage(e.b)) return fail("image out of range");
                const int shape = model.images[e.b].shape;
                out.places++;
                if (everyLevel) {
                    if (!depthOk(e.remaining)) fail("place: remaining does not match the depth");
                    int before = 0;
                    for (const Placed& p : out.stack) before += model.images[p.image].shape == shape;
                    if (before >= static_cast<int>(model.shapes[shape].instances.size()) ||
                        e.a != model.shapes[shape].instances[before])
                        fail("place: instance is not the next copy of its shape");
                    if (levels.empty() || levels.back().remaining != e.remaining) {
                        fail("place without kChoose");
                    } else {
                        OpenLevel& l = levels.back();
                        if (l.placed >= l.candidates || l.images[l.placed] != e.b) fail("place is not the next candidate");
                        l.placed++;
                    }
                }
                out.stack.push_back({e.b, e.a, e.remaining});
                break;
            }
            case trace::kRemove: {
                out.removes++;
                if (out.stack.empty()) return fail("remove with nothing placed");
                const Placed top = out.stack.back();
                out.stack.pop_back();
                if (top.image != e.b || top.instance != e.a || top.remaining != e.remaining)
                    fail("remove does not match the last place");
                break;
            }
            case trace::kChoose:
                if (!depthOk(e.remaining)) fail("choose: remaining does not match the depth");
                if (!validTarget(e.a)) fail("choose: target out of range");
                if (e.b < 0) fail("choose: negative candidate count");
                if (everyLevel) {
                    if (!levels.empty() && levels.back().remaining <= e.remaining) fail("choose: previous level not ended");
                    levels.push_back({e.remaining, e.a, e.b, 0, {}});
                }
                break;
            case trace::kCandidate:
                if (!validImage(e.b)) return fail("candidate image out of range");
                if (everyLevel) {
                    if (levels.empty() || levels.back().remaining != e.remaining ||
                        static_cast<int>(levels.back().images.size()) >= levels.back().candidates)
                        return fail("candidate outside its kChoose");
                    const int shape = model.images[e.b].shape;
                    int before = 0;
                    for (const Placed& p : out.stack) before += model.images[p.image].shape == shape;
                    if (e.a != model.shapes[shape].instances[std::min(before, model.shapes[shape].count - 1)])
                        fail("candidate: instance is not the next copy of its shape");
                    // The cell target lies in every candidate; a piece target is its shape.
                    const OpenLevel& l = levels.back();
                    const Image& img = model.images[e.b];
                    if (l.target >= 0 && std::find(img.cells.begin(), img.cells.end(), model.openCellOfBox[l.target]) ==
                                             img.cells.end())
                        fail("candidate does not cover the target cell");
                    if (l.target < 0 && model.instances[-1 - l.target].shape != shape) fail("candidate is not the target piece");
                    levels.back().images.push_back(e.b);
                }
                break;
            case trace::kSolution:
                out.solutionEvents++;
                if (e.remaining != 0) fail("solution: remaining is not 0");
                if (everyLevel && static_cast<int>(out.stack.size()) != pieces) fail("solution with pieces unplaced");
                if (e.a != 0 && e.a != out.count + 1) fail("solution number out of order");
                lastSolutionEvent = e.a;
                if (e.a > 0) out.count++;
                break;
            case trace::kNoFit:
            case trace::kExhausted:
            case trace::kFilterEmptied:
                if (!validTarget(e.a)) fail("dead end: target out of range");
                if (e.op == trace::kFilterEmptied && (e.b < trace::kParityFilter || e.b > trace::kFitFilter))
                    fail("unknown filter");
                endLevel(e);
                break;
            case trace::kParityTrigger: endLevel(e); break;
            case trace::kVolumeTrigger:
            case trace::kDeadCell:
                if (!validTarget(e.a) || e.a < 0) fail("dead end: cell out of range");
                if (model.openCellOfBox[e.a] >= 0) {
                    bool covered = false;
                    for (const Placed& p : out.stack)
                        for (int c : model.images[p.image].cells) covered |= c == model.openCellOfBox[e.a];
                    if (covered && everyLevel) fail("dead end: the cell named is covered");
                }
                if (e.op == trace::kVolumeTrigger && e.b <= 0) fail("volume trigger: empty region");
                endLevel(e);
                break;
            default: fail("unknown op " + std::to_string(e.op));
        }
    });
    s.setSolutionHandler([&](const Solution& sol) {
        if (lastSolutionEvent != sol.number) fail("solution " + std::to_string(sol.number) + " has no kSolution event");
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
    if (out.count != s.stats().solutions) fail("kSolution events do not count the solutions");
    if (out.state == Solver::State::Done && everyLevel && !levels.empty()) fail("a level was never ended");
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
        EXPECT_EQ(t.solutionEvents, t.stats.found) << what;
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
        ASSERT_TRUE(a.op == b.op && a.remaining == b.remaining && a.a == b.a && a.b == b.b)
            << "event " << i;
    }
    // -t K and -t -K select the same events as the full trace.
    for (int k : {12, 11, 9, 3, 1, -12, -11, -5, -1}) {
        TraceRun t = traceRun(def, opts + " -t " + std::to_string(k), 11, true);
        EXPECT_EQ(t.failures, 0) << k << ": " << t.firstFailure;
        EXPECT_TRUE(t.stack.empty()) << k;
        std::vector<TraceEvent> want;
        for (const TraceEvent& e : all.events)
            if (e.op == trace::kSolution || (k > 0 ? e.remaining >= k : e.remaining == -k)) want.push_back(e);
        ASSERT_EQ(t.events.size(), want.size()) << k;
        EXPECT_FALSE(want.empty()) << k;
        for (size_t i = 0; i < want.size(); ++i) {
            const TraceEvent &a = want[i], &b = t.events[i];
            ASSERT_TRUE(a.op == b.op && a.remaining == b.remaining && a.a == b.a && a.b == b.b)
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

// Golden traces (tests/golden/trace/cases.json): tiny puzzles whose every event is fixed,
// the same list the WebAssembly test (tests/js/trace.test.js) checks through Session.
namespace {

struct GoldenCase {
    std::string name, puzzle, options;
};

std::vector<GoldenCase> goldenCases() {
    std::ifstream in(std::string(POLYCUBE_GOLDEN_DIR) + "/trace/cases.json");
    std::stringstream text;
    text << in.rdbuf();
    std::vector<GoldenCase> out;
    const nlohmann::json j = nlohmann::json::parse(text.str());
    for (const auto& c : j.at("cases")) out.push_back({c.at("name"), c.at("puzzle"), c.at("options")});
    return out;
}

PuzzleDef goldenPuzzle(const std::string& file) {
    std::ifstream in(std::string(POLYCUBE_GOLDEN_DIR) + "/trace/" + file);
    std::stringstream text;
    text << in.rdbuf();
    return parsePuzzle(text.str());
}

// "op remaining a b" per line; '#' starts a comment.
std::vector<std::array<int, 4>> readEvents(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::array<int, 4>> out;
    std::string line;
    while (std::getline(in, line)) {
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::array<int, 4> e{};
        if (words >> e[0] >> e[1] >> e[2] >> e[3]) out.push_back(e);
    }
    return out;
}

}  // namespace

TEST(TraceGolden, TinyPuzzlesEventByEvent) {
    const std::vector<GoldenCase> cases = goldenCases();
    ASSERT_GE(cases.size(), 6u);
    const bool update = std::getenv("POLYCUBE_UPDATE_GOLDEN") != nullptr;
    for (const GoldenCase& c : cases) {
        const PuzzleDef def = goldenPuzzle(c.puzzle);
        TraceRun t = traceRun(def, c.options + " -t 1", 1000, true);
        EXPECT_EQ(t.failures, 0) << c.name << ": " << t.firstFailure;
        EXPECT_EQ(t.state, Solver::State::Done) << c.name;
        EXPECT_TRUE(t.stack.empty()) << c.name;
        expectSameStats(t.stats, solve(def, c.options).stats, c.name);
        const std::string path = std::string(POLYCUBE_GOLDEN_DIR) + "/trace/" + c.name + ".events";
        auto created = Solver::create(def, optionsFrom(c.options));
        ASSERT_TRUE(created.ok()) << c.name;
        if (update) {
            std::ofstream out(path);
            out << "# " << c.puzzle << " " << c.options << " -t 1: op remaining a b (engine/search/trace.hpp)\n";
            for (const TraceEvent& e : t.events)
                out << e.op << " " << e.remaining << " " << e.a << " " << e.b << "  # "
                    << formatTraceEvent(*created.value, e) << "\n";
            continue;
        }
        const std::vector<std::array<int, 4>> want = readEvents(path);
        ASSERT_FALSE(want.empty()) << "no golden events in " << path;
        EXPECT_EQ(t.events.size(), want.size()) << c.name;
        for (size_t i = 0; i < std::min(want.size(), t.events.size()); ++i) {
            const TraceEvent& e = t.events[i];
            ASSERT_EQ((std::array<int, 4>{e.op, e.remaining, e.a, e.b}), want[i])
                << c.name << " event " << i + 1 << ": got " << formatTraceEvent(*created.value, e);
        }
    }
}

// Every algorithm and constraint traces a replayable search with the same statistics as
// without -t, and the dead-end causes each one can produce show up.
TEST(Trace, EveryAlgorithmExplainsItsSteps) {
    struct Case {
        const char* file;
        const char* options;
        std::vector<int> mustHave;  // trace ops that must occur
    };
    const std::vector<Case> cases = {
        {"soma.txt", "-r -o s", {trace::kChoose, trace::kNoFit, trace::kExhausted}},
        {"soma.txt", "-r -o f", {trace::kChoose, trace::kNoFit, trace::kExhausted}},
        {"soma.txt", "-r -o e", {trace::kChoose, trace::kExhausted}},
        {"soma.txt", "-r -o x", {trace::kChoose, trace::kNoFit}},
        {"soma.txt", "-r -b 6", {trace::kNoFit, trace::kExhausted}},
        {"soma.txt", "-r -m 6", {trace::kNoFit, trace::kExhausted}},
        {"soma.txt", "-r -e 6", {trace::kNoFit, trace::kExhausted}},
        {"soma.txt", "-r -f 6 -n -o s:c=6", {trace::kNoFit, trace::kExhausted}},
        {"soma.txt", "-r", {trace::kNoFit, trace::kExhausted}},
        {"pentominoes_8x8_hole.txt", "-r -o s -p", {trace::kParityTrigger, trace::kExhausted}},
        {"pentominoes_8x8_hole.txt", "-r -f 11 -n -o s:f=11 -p", {trace::kParityTrigger, trace::kNoFit}},
        {"pentominoes_8x8_hole.txt", "-r -o s -v 6 -l 20", {trace::kVolumeTrigger}},
        {"pentominoes_8x8_hole.txt", "-r -o s -V=9 -l 20", {trace::kFilterEmptied}},
        {"pentominoes_8x8_hole.txt", "-r -o s -F=9 -l 20", {trace::kFilterEmptied}},
        {"pentominoes_8x8_hole.txt", "-r -o s -P=9 -l 20", {trace::kChoose}},
        {"pentominoes_10x6.txt", "-r -l 30", {trace::kDeadCell, trace::kNoFit}},
    };
    for (const Case& c : cases) {
        const std::string what = std::string(c.file) + " " + c.options;
        PuzzleDef def = loadPuzzle(c.file);
        TraceRun t = traceRun(def, std::string(c.options) + " -t 1", 1000);
        EXPECT_EQ(t.failures, 0) << what << ": " << t.firstFailure;
        EXPECT_EQ(t.places, t.stats.totalFits()) << what;
        EXPECT_EQ(t.solutionEvents, t.stats.found) << what;
        for (int op : c.mustHave) EXPECT_GT(t.byOp[op], 0) << what << ": no event " << op;
        if (t.state == Solver::State::Done) {
            EXPECT_TRUE(t.stack.empty()) << what;
            expectSameStats(t.stats, solve(def, c.options).stats, what);
        }
    }
}

// Session::setTraceLimit (the page's replay window): the first N events of the whole trace,
// the solutions among them and no others, the statistics as they were then; the same on
// every run, whatever the slices (the page's cancel had landed after 0 to 1,200,000 more).
TEST(Trace, AWindowKeepsItsEventsSolutionsAndStatisticsExactly) {
    // (Soma in the reduced run: 64,000 events instead of 10x6's 1.3 million)
    const std::string file = kReducedRun ? "soma.txt" : "pentominoes_10x6.txt";
    const int count = kReducedRun ? 480 : 2339;
    const size_t window = kReducedRun ? 20000 : 300000;
    const std::string text = readDefFile(file);
    struct Run {
        std::vector<int32_t> events;
        int solutions = 0;
        nlohmann::json stats;
        Session::StepState state = Session::IDLE;
        bool full = false;
    };
    auto run = [&](double limit, double budget) {
        Session s;
        EXPECT_TRUE(s.load(text, file));
        EXPECT_TRUE(s.start(0, "-r -t 1"));
        s.setTraceLimit(limit);
        Run r;
        while ((r.state = s.step(budget)) == Session::RUNNING) {
            std::vector<int32_t> e = s.takeTrace(1 << 20);
            r.events.insert(r.events.end(), e.begin(), e.end());
        }
        std::vector<int32_t> e = s.takeTrace(1 << 30);
        r.events.insert(r.events.end(), e.begin(), e.end());
        r.solutions = static_cast<int>(s.takeSolutions(1 << 30).size()) / s.cellCount();
        r.stats = nlohmann::json::parse(s.statsJson());
        r.full = s.traceLimitReached();
        return r;
    };
    const Run whole = run(0, 1e9);
    ASSERT_EQ(whole.state, Session::DONE);
    EXPECT_FALSE(whole.full);
    EXPECT_EQ(whole.solutions, count);
    ASSERT_GT(whole.events.size() / 4, window);
    const Run a = run(window, 1e9), b = run(window, 997);  // one slice a chunk, or thousands
    for (const Run* r : {&a, &b}) {
        EXPECT_EQ(r->state, Session::CANCELLED);
        EXPECT_TRUE(r->full);
        ASSERT_EQ(r->events.size(), window * 4);
        EXPECT_TRUE(std::equal(r->events.begin(), r->events.end(), whole.events.begin()));
        int inWindow = 0;
        for (size_t i = 0; i < window; ++i)
            if (r->events[i * 4] == trace::kSolution && r->events[i * 4 + 2] > 0) ++inWindow;
        EXPECT_GT(inWindow, 0);
        EXPECT_LT(inWindow, count);
        EXPECT_EQ(r->solutions, inWindow);
        EXPECT_EQ(r->stats.at("solutions").get<int>(), inWindow);
    }
    EXPECT_EQ(a.stats.at("attempts"), b.stats.at("attempts"));
    EXPECT_EQ(a.stats.at("attemptsByRemaining"), b.stats.at("attemptsByRemaining"));
    EXPECT_LT(a.stats.at("attempts").get<double>(), whole.stats.at("attempts").get<double>());
    // a window the search does not fill: the whole search, as without one
    const Run roomy = run(1e12, 1e9);
    EXPECT_EQ(roomy.state, Session::DONE);
    EXPECT_FALSE(roomy.full);
    EXPECT_EQ(roomy.solutions, count);
    EXPECT_EQ(roomy.events, whole.events);
}
