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
struct PuzzleDef;

// Results waiting to be taken by the front end.
struct SessionBuffers {
    std::vector<int32_t> solutions;  // flat grids
    std::vector<int32_t> trace;      // 4 ints per event
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
    // (e.g. "-r", "-r L -u", "-o x:f=20"). Output-only CLI options are rejected.
    bool start(int index, const std::string& options);
    // Run the search for about `budget` placement attempts, then return.
    StepState step(double budget);
    // Stop the search; the next step() returns CANCELLED. Safe to call at any time.
    void cancel();
    StepState state() const { return state_; }

    // Solutions found since the last call, at most `max`, concatenated grids.
    std::vector<int32_t> takeSolutions(int max);
    int pendingSolutions() const;
    int cellCount() const;  // xDim*yDim*zDim of the started puzzle (grid length)

    // {"state","solutions","attempts","fits","seconds","remaining":[...],...}
    std::string statsJson() const;

    // Search-trace events since the last call (only when started with -t): flat records of
    // 4 ints [op(1 place, 2 remove), piecesRemaining, instanceIndex, imageIndex].
    std::vector<int32_t> takeTrace(int maxEvents);
    // Box cell indices of image `imageIndex` (for drawing trace events).
    std::vector<int32_t> imageCells(int imageIndex) const;

    const std::string& lastError() const { return error_; }
    static std::string version();

    // The editor's checks of definition text, parsed as a draft, without touching the loaded
    // puzzles or a running search (legal in every state). Format: session/draft.hpp.
    static std::string draftJson(const std::string& text, const std::string& sourceName);

private:
    std::unique_ptr<std::vector<PuzzleDef>> puzzles_;
    std::unique_ptr<Solver> solver_;
    SessionBuffers buffers_;
    StepState state_ = IDLE;
    std::string error_;
    int cellCount_ = 0;
};

}  // namespace polycube
