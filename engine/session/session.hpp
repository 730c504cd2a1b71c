// Session: the engine's whole public surface for interactive front ends (the WebAssembly
// bindings, the web worker, tests). Errors are values: every call that can fail returns
// false (or FAILED) and leaves a message in lastError(); nothing throws.
//
//   Session s;
//   if (!s.load(text, "pentominoes.txt")) show(s.lastError());   // "pentominoes.txt:7: ..."
//   if (!s.start(0, "-r")) show(s.lastError());                  // reference option syntax
//   while (s.step(200000) == Session::RUNNING) {                 // one slice of the search
//       auto grids = s.takeSolutions(100);                       // new solutions, flat
//       ...; if (userPressedCancel) s.cancel();
//   }
//
// Solutions are grids: for each box cell, index = x + xDim * (y + yDim * z), the piece
// instance covering it (instanceIndex order of puzzle.hpp; stationary pieces included).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace polycube {

class Solver;
struct SolverStats;
struct PuzzleDef;

// Results waiting to be taken by the front end.
struct SessionBuffers {
    std::vector<int32_t> solutions;  // flat grids
    std::vector<int32_t> trace;      // trace::kRecordInts (4) ints per event
};

class Session {
public:
    enum StepState { RUNNING = 0, DONE = 1, CANCELLED = 2, FAILED = 3, IDLE = 4 };

    Session();
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // Parse definition text (one or more puzzles). Replaces any loaded puzzles and stops
    // any running search.
    bool load(const std::string& text, const std::string& sourceName);
    int puzzleCount() const;
    // JSON description of puzzle `index`:
    // {"title","source","line","xDim","yDim","zDim","oneSide","volume",
    //  "pieces":[{"name","stationary","count","cells":[[x,y,z],...]}],
    //  "instances":[{"name","piece":<index into pieces>,"stationary":bool}]}
    std::string puzzleJson(int index) const;

    // Prepare a search of puzzle `index` with options in the CLI's option language
    // (e.g. "-r", "-r L -u", "-o x:f=20"). The command line's own switches for its
    // terminal, files and output order (--help, --version, --ordered, --progress,
    // --checkpoint, --resume, --split, --jobs-out, --job, --merge, --build-order) are refused with a
    // message; -q, -i, --json and -j are accepted and change nothing here.
    bool start(int index, const std::string& options);
    // Run the search (or its setup) for about `budget` placement attempts, at most
    // kSliceSeconds, then return. budget is clamped to [1, kMaxBudget] (NaN: 1).
    StepState step(double budget);
    static constexpr double kSliceSeconds = 0.015;  // the worker aims at 15 ms slices too
    static constexpr double kMaxBudget = 1e12;
    // Stop the search; the next step() returns CANCELLED. Safe to call at any time.
    void cancel();
    StepState state() const { return state_; }
    // True once the started search's setup (model, tables, matrix: it runs in step() slices)
    // is over: imageCells, imageShapes and instanceShapes describe the search only from then.
    bool ready() const;

    // Solutions found since the last call, at most `max`, concatenated grids.
    std::vector<int32_t> takeSolutions(int max);
    int pendingSolutions() const;
    int cellCount() const;  // xDim*yDim*zDim of the started puzzle (grid length)

    // {"state","solutions","attempts","fits","seconds","remaining":[...],...}
    std::string statsJson() const;

    // Search-trace events since the last call (only when started with -t K), at most
    // maxEvents: flat records of 4 ints [op, remaining, a, b] (search/trace.hpp):
    //   op 1 place      a instanceIndex   b imageIndex    (remaining: pieces left before it)
    //   op 2 remove     a instanceIndex   b imageIndex    (takes back the last place)
    //   op 3 choose     a target          b candidates    (a level's pick; then the candidates)
    //   op 4 candidate  a instanceIndex   b imageIndex    (one per candidate, in trying order)
    //   op 5 solution   a solution number (0: redundant)  b complete assemblies so far
    //   dead ends, each ending a level:
    //   op 6 no fit     a target          b 0             (no image fits the target)
    //   op 7 exhausted  a target          b tried         (every candidate was tried)
    //   op 8 parity     a holes' parity   b 0             (parity backtrack trigger)
    //   op 9 volume     a box cell        b region size   (volume trigger; flood-fill the open
    //                                                      cells from the cell for the region)
    //   op 10 dead cell a box cell        b 0             (dead-cell cut: a hole walled in)
    //   op 11 filtered  a target          b filter        (1 parity, 2 volume, 3 fit filter)
    // target: box cell index when >= 0, else piece instance -1 - target (a DLX piece column).
    // Only the levels -t K selects (K > 0: remaining >= K; K < 0: remaining == -K); solution
    // events always. Traced FILA levels search on the explicit stack (README: -t).
    std::vector<int32_t> takeTrace(int maxEvents);
    // A window on the trace, after start() (which takes any window away): the search ends
    // once it has produced `events` trace events (the next step() returns CANCELLED, and
    // traceLimitReached() says why). Events after the window are dropped, and so are the
    // solutions whose events were dropped; statsJson() then gives the statistics as they
    // were at the window's last event. So a front end recording a search in a fixed window
    // gets the same window, solutions and counters on every run (the page's replay keeps
    // 1,000,000 steps: its cancel, sent when the window was full, landed when the worker had
    // traced on, or the whole search, and reported every solution of it). events <= 0: none.
    void setTraceLimit(double events);
    bool traceLimitReached() const { return traceFull_; }
    // Box cell indices of image `imageIndex` (for drawing trace events).
    std::vector<int32_t> imageCells(int imageIndex) const;
    // The shape id of every image, and of every piece instance (-1: stationary), so that a
    // front end replaying a trace can tell which pieces could still cover a cell (the
    // watch panel's "what would the most-constrained-hole rule pick here"). Empty when idle.
    std::vector<int32_t> imageShapes() const;
    std::vector<int32_t> instanceShapes() const;

    // Sharing one search among several Sessions (the page's worker pool, issue 10; the
    // protocol is web/src/worker/protocol.js, the coordinator web/src/pool/). Every Session
    // loads the same text and start()s the same puzzle and options, which gives the same tree
    // (compare fingerprint()s); then each searches pieces of it, paths from the root
    // (parallel/subproblem.hpp), and gives work away on request.
    //   splitRefusal()  after start(): why these options cannot be split ("" when they can;
    //                   parallel/subproblem.hpp whyNotSplittable), e.g. -t, -l.
    //   fingerprint()   once ready(): 16 hex digits naming the tree (puzzle, options, build);
    //                   empty before.
    //   startSubproblem(path)  search only the subtree of `path` (image ids placed at the first
    //                   levels; empty: the whole tree). Legal once ready() and either before
    //                   any search step or after the last search ended DONE (not after a
    //                   cancel: start() again); state becomes RUNNING. Statistics keep adding
    //                   up across pieces (the path's own levels are not counted again).
    //                   false + lastError() when illegal or the path is malformed; a path
    //                   of another tree ends the search FAILED with a message.
    //   donateJson(maxPaths)  while RUNNING and ready(), between step()s: give away the
    //                   untried siblings at the shallowest open level (Solver::donate; at
    //                   most maxPaths of them at a DLX level, < 1: all) as
    //                   {"share":s,"paths":[[...],...]}: this search will not try them, and
    //                   s is their share of this piece's tree (the weights of fractionDone).
    //                   {"share":0,"paths":[]} when there is nothing to give (or illegal).
    //   checkResume(json)  once ready(): whether a checkpoint the front end kept of this
    //                   search (its pieces, shares and counters, as JSON: parallel/
    //                   piece_check.hpp) may be resumed; false + lastError() naming what is
    //                   wrong. The command line's checks (parallel/checkpoint.hpp).
    std::string splitRefusal() const;
    std::string fingerprint() const;
    bool startSubproblem(const std::vector<int32_t>& path);
    std::string donateJson(int maxPaths = 0);
    bool checkResume(const std::string& checkpointJson);

    // How to put solution `grid` (a flat grid as takeSolutions gives) of puzzle `index` together
    // by hand, one piece at a time (assembly/build_order.hpp): {"ok":true,"class":"above"|
    // "sideways"|"interlocked"|"unsupported","flat","sideways","interlocked":[instances],
    // "steps":[{"instance","name","slides":[{"dir":[dx,dy,dz],"distance"}],"rests"}],"states"},
    // or {"ok":false,"error":...} for a bad index or a grid that is not a solution of the puzzle.
    // Legal in every state (a running search is not touched).
    std::string buildOrderJson(int index, const std::vector<int32_t>& grid) const;

    const std::string& lastError() const { return error_; }
    static std::string version();

    // The editor's checks of definition text, parsed as a draft, without touching the loaded
    // puzzles or a running search (legal in every state). Format: session/draft.hpp.
    static std::string draftJson(const std::string& text, const std::string& sourceName);

    // Solutions of puzzle `index` in the text the CLI prints them in (output/format.hpp
    // formatSolution, the same code): `grids` holds numbers.size() flat grids as takeSolutions
    // gives them, numbers[k] the number printed for grid k. {"ok":true,"text":...}, or
    // {"ok":false,"error":...} for a bad index, a grid of the wrong size or a cell that names no
    // piece. Legal in every state (a running search is not touched). (session/solution_text.cpp)
    std::string solutionsTextJson(int index, const std::vector<int32_t>& grids, const std::vector<double>& numbers) const;

private:
    std::unique_ptr<std::vector<PuzzleDef>> puzzles_;
    std::unique_ptr<Solver> solver_;
    SessionBuffers buffers_;
    StepState state_ = IDLE;
    std::string error_;
    int cellCount_ = 0;
    double traceLimit_ = 0;   // setTraceLimit
    double traceCount_ = 0;   // trace events produced by this search
    bool traceFull_ = false;  // the window is full: later events and their solutions are dropped
    std::unique_ptr<SolverStats> windowStats_;  // the statistics at the window's last event
};

}  // namespace polycube
