// Checkpoints: the state of a search split into pieces, written down so that it can stop
// (Ctrl-C, SIGTERM, a crash) and go on later with the same counts.
//
//   Checkpoint ck;                              // ParallelSearch fills it (setCheckpointHandler)
//   std::string text = encodeCheckpoint(ck);
//   Status st = writeFileAtomically("run.ck", text);        // write run.ck.tmp, fsync, rename
//   Result<Checkpoint> back = decodeCheckpoint(text, fingerprint, "run.ck");
//   ParallelSearch::create(..., &back.value)                // resume: only the pending pieces
//
// A checkpointed search is split into pieces up front (subproblems: paths from the root,
// parallel/subproblem.hpp), each searched whole by one thread; a piece's solutions are
// printed and its statistics added when it ends. The checkpoint holds the pieces not yet
// finished (those in progress included: they are searched again from their start) and the
// statistics and solution count of everything finished, so finished + pending always adds up
// to the whole tree: resumed, the totals equal one uninterrupted run's.
//
// Text format, a line each: "polycube-checkpoint 1", "fingerprint <16 hex>", "solutions
// <reported> <found> <redundant>", "done <share of the tree finished>", one "level <name>
// <counts>" per per-level counter, "pieces <n>", n lines "piece <share> <length> <image ids>",
// and "checksum <16 hex>" over everything before it. Errors name the file, the line and what
// is wrong; a checkpoint of another search (fingerprint) is refused saying so.
//
// Format 2 is format 1 with the search's origin after the pieces (CheckpointOrigin: the
// definition text, which puzzle of it, the options), so that the file alone resumes it
// (`polycube --resume FILE`, the page's Open): "options <bytes>", "source <bytes>" and
// "definition <bytes>" blocks (the key and byte count on a line, the bytes, a newline: the
// text may hold any byte) and "puzzle <index>", all under the checksum. A checkpoint without
// an origin (a --split job's pieces, a result's totals) is written as format 1; both are read.
// The whole format: docs/file-formats.md.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "solver/solver.hpp"

namespace polycube {

struct CheckpointPiece {
    std::vector<int> path;  // image ids from the root (parallel/subproblem.hpp)
    double share = 0;       // of the whole tree (Solver::fractionDone's weights)
};

// What a checkpoint was a search of: enough to set the search up again.
struct CheckpointOrigin {
    std::string source;      // the definition file's name (for messages)
    int puzzle = 0;          // which puzzle of `definition` (0: the first)
    std::string options;     // the search's options in the option language, one line ("-r")
    std::string definition;  // the definition file's text
};

struct Checkpoint {
    std::string fingerprint;              // searchFingerprint of the search
    SolverStats finished;                 // everything finished: solutions, found, per-level counters
    double doneShare = 0;                 // of the whole tree, finished
    std::vector<CheckpointPiece> pending;  // still to search
    std::optional<CheckpointOrigin> origin;  // format 2: the search's puzzle and options
    std::string source;                   // decodeCheckpoint's `source` (messages), not encoded
};

// A checkpoint's first word (the front ends tell such a file from a definition by it).
constexpr const char* kCheckpointMagic = "polycube-checkpoint";

// Counters (solutions, per-level counts) above this are refused: 2^60, a count that a search
// placing 10^9 pieces a second reaches in 36 years, and that leaves 8x its size of headroom
// in a long long for what a resumed search adds (a forged 2^63-1 would overflow there).
constexpr long long kMaxCheckpointCount = 1LL << 60;
// Shares add up to 1 within this: on Tetris Cube checkpoints, done + pieces is 1 within
// 7e-16 (149 pieces, the smallest 7.3e-7), so a dropped or changed piece of a share above
// it is seen.
constexpr double kShareTolerance = 1e-9;
// A checkpoint's text is at most this long: its pieces are about 16 per thread, tens of
// bytes each, so a larger file is not one to read (the CLI refuses it by its size, before
// reading it).
constexpr long long kMaxCheckpointBytes = 64LL << 20;
// An origin's parts: its definition is at most a definition file's limit (ParseLimits'
// maxInputBytes), its options one line of at most kMaxCheckpointOptionsBytes, its source name
// a path.
constexpr long long kMaxCheckpointDefinitionBytes = 16LL << 20;
constexpr long long kMaxCheckpointOptionsBytes = 4096;
constexpr long long kMaxCheckpointSourceBytes = 4096;
constexpr int kMaxCheckpointPuzzle = 100000;

std::string encodeCheckpoint(const Checkpoint& ck);
// `source` names the file in messages. Refused (besides another search's, damaged or cut
// short text): counters out of range (negative, over kMaxCheckpointCount, more solutions or
// redundant assemblies than assemblies found, per-level lists of different lengths), shares
// outside [0, 1] or adding up to more than the whole tree, and pieces that are not distinct,
// disjoint subtrees (a path equal to, or a prefix of, another: its subtree would be searched
// twice; the empty path beside others; an image twice on one path). A checkpoint may hold part
// of a search (--split's job files: some pieces, nothing done; their results: done, no
// pieces), so that done + pieces adds up to the whole tree is checkResume's.
// A format 2 origin is refused when its options are not a search's (parseSearchOptions: the
// command line's own options such as --checkpoint or --ordered are refused, saying which) or
// hold more than a line, or when a part passes its limit.
Result<Checkpoint> decodeCheckpoint(const std::string& text, const std::string& expectedFingerprint,
                                    const std::string& source);
// decodeCheckpoint's checks but the fingerprint's: for a checkpoint whose search is set up
// from its own origin (its fingerprint is compared once the search is: checkResume's callers).
Result<Checkpoint> readCheckpoint(const std::string& text, const std::string& source);
// What decoding cannot know: that `ck` fits `solver`'s puzzle (per-level lists of its length,
// or empty; paths of at most its piece count, of existing images that do not overlap) and,
// when `whole` (a search resumed from its checkpoint file, not a --split job's part), that
// its finished share and its pieces add up to the whole tree. Messages name ck.source.
// ParallelSearch::create checks a resumed checkpoint so, `whole` when options.resume is set
// (the CLI's --resume; --job clears it).
Status checkResume(const Checkpoint& ck, const Solver& solver, bool whole);
// Write `text` to `path` so that a reader sees the old file or the new one, never half of
// one: to path.tmp, flushed to disk, then renamed over path.
Status writeFileAtomically(const std::string& path, const std::string& text);
// The same for a text in parts, written one after the other (a --job result: its header, its
// solutions as they were kept, its checksum line: never copied into one string).
Status writeFileAtomically(const std::string& path, const std::vector<std::string_view>& parts);

}  // namespace polycube
