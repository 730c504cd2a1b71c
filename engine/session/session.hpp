// Session: the engine's whole public surface for interactive front ends (the WebAssembly
// bindings, the web worker, tests). It is a state machine: every call is legal in the phases
// the table below names, and checked against it at entry. Errors are values; nothing throws.
//
//   Session s;
//   if (!s.load(text, "pentominoes.txt")) show(s.lastError());   // "pentominoes.txt:7: ..."
//   if (!s.start(0, "-r")) show(s.lastError());                  // reference option syntax
//   while (s.step(200000) == Session::RUNNING) {                 // one slice of the search
//       auto grids = s.takeSolutions(100);                       // new solutions, flat
//       ...; if (userPressedCancel) s.cancel();
//   }
//
// Phases and transitions
// ----------------------
//   EMPTY       no puzzles: a new Session, or the last load() failed
//   LOADED      puzzles loaded, no search (or the last start() failed)
//   SETTING_UP  start() succeeded; step() builds the model, tables and matrix in slices
//   READY       the setup is over and no search step was taken yet (a subproblem may start)
//   SEARCHING   the search (whole, or a subproblem's) runs in step() slices
//   FINISHED    the search ended: every solution found, or the -l limit reached
//   CANCELLED   cancel(), or the trace window (setTraceLimit) filled up
//   FAILED      the setup or the search failed (step() gives the failure again)
//
//   load ok -> LOADED, failed -> EMPTY (from any phase; a running search is dropped)
//   start ok -> SETTING_UP, failed -> LOADED (from any phase but EMPTY)
//   step: SETTING_UP -> SETTING_UP | READY | CANCELLED | FAILED
//         READY, SEARCHING -> SEARCHING | FINISHED | CANCELLED | FAILED
//         FINISHED, CANCELLED, FAILED: no change (step() answers the phase's StepState)
//   cancel: SETTING_UP, READY, SEARCHING -> CANCELLED; no change elsewhere
//   startSubproblem: READY, FINISHED -> SEARCHING (FINISHED when the puzzle is impossible)
//   startPlay ok -> SEARCHING, failed -> LOADED (from any phase but EMPTY)
//
// Legal calls (x legal; r legal once the setup finished, i.e. ready(); - an error value)
//
//   call             EMPTY LOADED SETTING_UP READY SEARCHING FINISHED CANCELLED FAILED
//   load               x     x       x        x      x         x        x        x
//   puzzleJson         -     x       x        x      x         x        x        x
//   buildOrderJson     -     x       x        x      x         x        x        x
//   start              -     x       x        x      x         x        x        x
//   step               -     -       x        x      x         x        x        x
//   setTraceLimit      -     -       x        x      -         -        -        -
//   splitRefusal       -     -       x        x      x         x        x        x
//   fingerprint        -     -       -        x      x         x        r        r
//   imageCells         -     -       -        x      x         x        r        r
//   imageShapes        -     -       -        x      x         x        r        r
//   instanceShapes     -     -       -        x      x         x        r        r
//   checkResume        -     -       -        x      x         x        r        r
//   startSubproblem    -     -       -        x      -         x        -        -
//   donateJson         -     -       -        -      x         -        -        -
//   startPlay          -     x       x        x      x         x        x        x
//   solutionsText      -     x       x        x      x         x        x        x
//   (While a play question is on, from startPlay until the next load or start, only load,
//   puzzleJson, buildOrderJson, start, step, startPlay and solutionsText are legal: it has no
//   search tree. The same for a memoized count, start() with --memo, and splitRefusal too: it
//   says why such a count is not shared.)
//   any phase, never failing, lastError() left as it was: cancel, state, phase, ready,
//   puzzleCount, cellCount, takeSolutions, pendingSolutions, takeTrace, statsJson, playJson,
//   traceLimitReached, lastError, errorCode, ok, and the static version, draftJson,
//   checkpointFileJson and openCheckpointJson.
//   (A drain or a query has nothing wrong to report in any phase; cancel races the end of a
//   search, so a late one is no error.)
//
// Every other call sets the error value at entry: errorCode() None and lastError() "" when it
// succeeds; otherwise the code (kIllegalCall for a call the table refuses in the phase) and a
// message naming the call, the phase and what is wrong. A call refused as illegal changes
// nothing. The WebAssembly bindings turn each such call's outcome into one reply shape,
// {ok:true, ...} or {ok:false, error:{code, message}} (bindings/embind.cpp).
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
class MemoCounter;
class PlayQuery;
struct SolverStats;
struct SolverOptions;
struct PuzzleDef;

// Results waiting to be taken by the front end.
struct SessionBuffers {
    std::vector<int32_t> solutions;  // flat grids
    std::vector<int32_t> trace;      // trace::kRecordInts (4) ints per event
};

class Session {
public:
    // step()'s and state()'s answer: the phase as a front end running slices sees it (EMPTY,
    // LOADED: IDLE; SETTING_UP, READY, SEARCHING: RUNNING).
    enum StepState { RUNNING = 0, DONE = 1, CANCELLED = 2, FAILED = 3, IDLE = 4 };
    enum class Phase { kEmpty, kLoaded, kSettingUp, kReady, kSearching, kFinished, kCancelled, kFailed };
    enum class ErrorCode {
        kNone,
        kIllegalCall,    // the table refuses the call in this phase
        kBadArgument,    // a puzzle index, image, path or grid that does not exist
        kBadDefinition,  // load(): the definition text
        kBadOptions,     // start(): the option text
        kSearchFailed,   // the setup or the search failed (step() in FAILED)
        kNotResumable,   // checkResume(): the checkpoint is damaged (its pieces, shares, counters)
        kOtherSearch,    // checkResume(): the checkpoint is of another search (its fingerprint)
    };
    // The public calls the table checks, in its order (kCallCount: how many).
    enum class Call {
        kLoad, kPuzzleJson, kBuildOrderJson, kStart, kStep, kSetTraceLimit, kSplitRefusal,
        kFingerprint, kImageCells, kImageShapes, kInstanceShapes, kCheckResume, kStartSubproblem,
        kDonateJson, kStartPlay, kSolutionsText, kCallCount
    };
    static const char* phaseName(Phase p);      // "empty", "loaded", "setting up", ...
    static const char* errorCodeName(ErrorCode c);  // "illegal-call", "bad-argument", ...
    static const char* callName(Call c);        // "load", "puzzleJson", ...
    // Whether the table allows `call` in `phase`; afterSetup: the setup had finished when the
    // search was cancelled or failed (the table's "r").
    static bool legal(Call call, Phase phase, bool afterSetup);

    Session();
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    Phase phase() const { return phase_; }
    // The last checked call succeeded (errorCode() kNone).
    bool ok() const { return code_ == ErrorCode::kNone; }
    ErrorCode errorCode() const { return code_; }

    // Parse definition text (one or more puzzles). Replaces any loaded puzzles and stops
    // any running search.
    bool load(const std::string& text, const std::string& sourceName);
    int puzzleCount() const;
    // JSON description of puzzle `index` ("" and kBadArgument for an index not loaded):
    // {"title","source","line","xDim","yDim","zDim","oneSide","volume",
    //  "pieces":[{"name","stationary","count","cells":[[x,y,z],...]}],
    //  "instances":[{"name","piece":<index into pieces>,"stationary":bool}]}
    std::string puzzleJson(int index) const;

    // Prepare a search of puzzle `index` with options in the CLI's option language
    // (e.g. "-r", "-r L -u", "-o x:f=20"). The command line's own switches for its
    // terminal, files and output order (--help, --version, --ordered, --progress,
    // --checkpoint, --resume, --split, --jobs-out, --job, --merge, --build-order) are refused with a
    // message; -q, -i, --json and -j are accepted and change nothing here.
    // --memo (with --memo-mb N) counts without listing (memo/memo_counter.hpp), in the same
    // step() slices, phases and cancel: takeSolutions gives nothing, and statsJson gives the
    // count ("solutions", null until FINISHED), "fractionDone" and the table's figures
    // ("memo": lookups, hits, misses, entries, evictions, tableBytes, budgetBytes, terms).
    // The options that list, order or limit solutions are refused with --memo, with the
    // command line's messages (memo/memo_options.hpp memoConflict). Its table's budget is
    // --memo-mb, at most half the engine's memory for a search (ModelLimits::maxTotalBytes),
    // or by default a quarter of it.
    bool start(int index, const std::string& options);
    // Run the search (or its setup) for about `budget` placement attempts, at most
    // kSliceSeconds, then return. budget is clamped to [1, kMaxBudget] (NaN: 1).
    StepState step(double budget);
    static constexpr double kSliceSeconds = 0.015;  // the worker aims at 15 ms slices too
    static constexpr double kMaxBudget = 1e12;
    // Stop the search; the next step() returns CANCELLED. Safe to call at any time.
    void cancel();
    StepState state() const;
    // True once the started search's setup (model, tables, matrix: it runs in step() slices)
    // is over: imageCells, imageShapes and instanceShapes describe the search only from then.
    bool ready() const;

    // Solutions found since the last call, at most `max`, concatenated grids.
    std::vector<int32_t> takeSolutions(int max);
    int pendingSolutions() const;
    int cellCount() const;  // xDim*yDim*zDim of the started puzzle (grid length)

    // {"state","solutions","attempts","fits","seconds","remaining":[...],...}. A listing whose
    // options a count alone could take also has "counting" and "countingForecast" {memoize,
    // subproblemBound, enumeratingEstimate} once set up: whether such a count (--memo) would be
    // the quicker way (memo/memo_choice.hpp; the page's counting hint). A --memo count's
    // "memo" (memo/memo_report.hpp) also has "mostBudgetBytes", the most --memo-mb may give here.
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
    // A window on the trace, between start() and the first search step: the search ends
    // once it has produced `events` trace events (the next step() returns CANCELLED, and
    // traceLimitReached() says why). Events after the window are dropped, and so are the
    // solutions whose events were dropped; statsJson() then gives the statistics as they
    // were at the window's last event. So a front end recording a search in a fixed window
    // gets the same window, solutions and counters on every run (the page's replay keeps
    // 1,000,000 steps: its cancel, sent when the window was full, landed when the worker had
    // traced on, or the whole search, and reported every solution of it). events <= 0: none.
    void setTraceLimit(double events);
    bool traceLimitReached() const { return traceFull_; }
    // Box cell indices of image `imageIndex` (for drawing trace events); kBadArgument past
    // the last image (imageShapes().size() of them).
    std::vector<int32_t> imageCells(int imageIndex) const;
    // The shape id of every image, and of every piece instance (-1: stationary), so that a
    // front end replaying a trace can tell which pieces could still cover a cell (the
    // watch panel's "what would the most-constrained-hole rule pick here").
    std::vector<int32_t> imageShapes() const;
    std::vector<int32_t> instanceShapes() const;

    // Sharing one search among several Sessions (the page's worker pool; the
    // protocol is web/src/worker/protocol.js, the coordinator web/src/pool/). Every Session
    // loads the same text and start()s the same puzzle and options, which gives the same tree
    // (compare fingerprint()s); then each searches pieces of it, paths from the root
    // (parallel/subproblem.hpp), and gives work away on request.
    //   splitRefusal()  after start(): why these options cannot be split ("" when they can;
    //                   parallel/subproblem.hpp whyNotSplittable), e.g. -t, -l.
    //   fingerprint()   once ready(): 16 hex digits naming the tree (puzzle, options, build).
    //   startSubproblem(path)  search only the subtree of `path` (image ids placed at the first
    //                   levels; empty: the whole tree), in READY or FINISHED (not after a
    //                   cancel: start() again); the phase becomes SEARCHING. Statistics keep
    //                   adding up across pieces (the path's own levels are not counted again).
    //                   kBadArgument when the path is malformed; a path of another tree ends
    //                   the search FAILED with a message.
    //   donateJson(maxPaths)  while SEARCHING, between step()s: give away the untried
    //                   siblings at the shallowest open level (Solver::donate; at most maxPaths
    //                   of them at a DLX level, < 1: all) as {"share":s,"paths":[[...],...]}:
    //                   this search will not try them, and s is their share of this piece's
    //                   tree (the weights of fractionDone). {"share":0,"paths":[]} when there
    //                   is nothing to give yet.
    //   checkResume(json)  once ready(): whether a checkpoint the front end kept of this
    //                   search (its pieces, shares and counters, as JSON: parallel/
    //                   piece_check.hpp) may be resumed; false and kNotResumable naming what
    //                   is wrong, or kOtherSearch when the checkpoint is of another search
    //                   (another puzzle, other options, another build: its fingerprint).
    //                   The command line's checks (parallel/checkpoint.hpp).
    std::string splitRefusal() const;
    std::string fingerprint() const;
    bool startSubproblem(const std::vector<int32_t>& path);
    std::string donateJson(int maxPaths = 0);
    bool checkResume(const std::string& checkpointJson);

    // How to put solution `grid` (a flat grid as takeSolutions gives) of puzzle `index` together
    // by hand, one piece at a time (assembly/build_order.hpp): {"ok":true,"class":"above"|
    // "sideways"|"interlocked"|"unsupported","flat","sideways","interlocked":[instances],
    // "steps":[{"instance","name","slides":[{"dir":[dx,dy,dz],"distance"}],"rests"}],"states"},
    // or "" and kBadArgument for a bad index or a grid that is not a solution of the puzzle.
    // A running search is not touched.
    std::string buildOrderJson(int index, const std::vector<int32_t>& grid) const;

    // Play (engine/play/play.hpp): questions about the pieces a person has placed in puzzle
    // `index`, answered by a search in step() slices like start()'s (cancel() and state() too;
    // it replaces any search, as start() does).
    //   placements  flat [instance, cellCount, cell, ..., instance, cellCount, ...], in the
    //               order they were placed; cells are box indices as in the grids
    //   kind        "count": completions, at most `limit` (< 1: all; one more is "more than
    //               limit"); "hint": one completion and the piece of it to show next; "wrong":
    //               the placed piece whose removal makes the rest completable; "where": below
    //   fixed       ("wrong") the first `fixed` placements are the position's own (a
    //               challenge's start): never named
    //   piece       ("where") the piece to place (an instance not placed): "where": every
    //               place for it that can be finished, with the completions that keep it there
    // false and kBadArgument for a bad index or kind, or placements that are no partial packing
    // ("placement 2 (piece L): its cells are not the piece's shape"). A play query has no setup:
    // it goes straight to SEARCHING, and step() ends it FINISHED, CANCELLED or FAILED as a
    // search. playJson() (any phase, never failing): the answer,
    // and the progress meanwhile ("{}" when no play query was started):
    //   {"kind","state","placed","placements","fractionDone",
    //    count/hint: "completionsSoFar"; done: "completions","capped","limit","exact" (a count
    //    past its limit made whole by the memoized counter: "completions" is then the count)
    //    wrong: "fixed","checks","checksPlanned"; done: "completable", "culprit" (placement index, -1:
    //           none), "culpritInstance", "keep" (-1, or how many of the first placements can
    //           be finished when no single piece is to blame)
    //    done: "completion" (a grid, or null), "hint" ({"instance","cells"} or null)
    //    where: "piece"; done: "completions" (the position's), "places" ([{"cells","completions"}],
    //           the most completions first; only the places that can be finished), and no
    //           "completion" or "hint"
    //    failed: "error"}
    bool startPlay(int index, const std::vector<int32_t>& placements, const std::string& kind, double limit,
                   int fixed = 0, int piece = -1);
    std::string playJson() const;

    const std::string& lastError() const { return error_; }
    static std::string version();

    // The editor's checks of definition text, parsed as a draft, without touching the loaded
    // puzzles or a running search (legal in every state). Format: session/draft.hpp.
    static std::string draftJson(const std::string& text, const std::string& sourceName);

    // Checkpoint files (parallel/checkpoint.hpp, format 2: the command line's --checkpoint and
    // --resume files, with their puzzle and options), made from and read into the JSON the page
    // keeps (parallel/piece_check.hpp), by the command line's own codec; legal in every state,
    // touching nothing (session/checkpoint_file.hpp). Errors are in the JSON, in the one shape
    // of the other calls' replies, {"ok":false,"error":{"code":"bad-argument","message"}}:
    //   checkpointFileJson({"definition","source","puzzle","options","checkpoint"}) ->
    //       {"ok":true,"text"} | error
    //   openCheckpointJson(text, fileName) -> {"ok":true,"format","definition","source",
    //       "puzzle","options","checkpoint"} | error (message "fileName:line: ...")
    static std::string checkpointFileJson(const std::string& keptJson);
    static std::string openCheckpointJson(const std::string& text, const std::string& fileName);

    // Solutions of puzzle `index` in the text the CLI prints them in (output/format.hpp
    // formatSolution, the same code): `grids` holds numbers.size() flat grids as takeSolutions
    // gives them, numbers[k] the number printed for grid k. "" and kBadArgument for a bad
    // index, a grid of the wrong size or a cell that names no piece. A running search is not
    // touched. (session/solution_text.cpp)
    std::string solutionsText(int index, const std::vector<int32_t>& grids, const std::vector<double>& numbers) const;

private:
    // The table's check at a call's entry: clears the error value, or sets kIllegalCall.
    bool enter(Call call) const;
    bool fail(ErrorCode code, std::string message) const;  // sets the error value; false
    void dropSearch();
    // start() and startPlay()'s common beginning: the call checked, any search or play query
    // dropped, LOADED; kBadArgument for a puzzle index not loaded.
    bool startAfresh(Call call, int index);
    bool startMemo(const PuzzleDef& def, const SolverOptions& options);
    StepState stepMemo(long long budget);

    std::unique_ptr<std::vector<PuzzleDef>> puzzles_;
    std::unique_ptr<Solver> solver_;
    std::unique_ptr<PlayQuery> play_;  // startPlay's query (never at the same time as solver_)
    std::unique_ptr<MemoCounter> memo_;  // start() with --memo (never at the same time as solver_ or play_)
    SessionBuffers buffers_;
    Phase phase_ = Phase::kEmpty;
    mutable ErrorCode code_ = ErrorCode::kNone;
    mutable std::string error_;
    std::string failure_;  // FAILED: the setup's or the search's message
    int cellCount_ = 0;
    double traceLimit_ = 0;   // setTraceLimit
    double traceCount_ = 0;   // trace events produced by this search
    bool traceFull_ = false;  // the window is full: later events and their solutions are dropped
    std::unique_ptr<SolverStats> windowStats_;  // the statistics at the window's last event
};

}  // namespace polycube
