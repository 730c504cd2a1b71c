// Checkpoints: the state of a search split into pieces, written down so that it can stop
// (Ctrl-C, SIGTERM, a crash) and go on later with the same counts (issue 10).
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
#pragma once
#include <string>
#include <vector>

#include "common/status.hpp"
#include "solver/solver.hpp"

namespace polycube {

struct CheckpointPiece {
    std::vector<int> path;  // image ids from the root (parallel/subproblem.hpp)
    double share = 0;       // of the whole tree (Solver::fractionDone's weights)
};

struct Checkpoint {
    std::string fingerprint;              // searchFingerprint of the search
    SolverStats finished;                 // everything finished: solutions, found, per-level counters
    double doneShare = 0;                 // of the whole tree, finished
    std::vector<CheckpointPiece> pending;  // still to search
};

std::string encodeCheckpoint(const Checkpoint& ck);
// `source` names the file in messages.
Result<Checkpoint> decodeCheckpoint(const std::string& text, const std::string& expectedFingerprint,
                                    const std::string& source);
// Write `text` to `path` so that a reader sees the old file or the new one, never half of
// one: to path.tmp, flushed to disk, then renamed over path.
Status writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace polycube
