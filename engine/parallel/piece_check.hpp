// The checks of a checkpoint that a front end keeps in its own form (the page's worker pool
// keeps its search as JSON in the browser: web/src/pool/pieces.js, app/saved-search.js) before
// a search resumes from it: the command line's rules (parallel/checkpoint.hpp), run by the
// command line's own code, so that both refuse the same damage.
//
//   Status st = checkPieceBookJson(json, solver, "the kept search");   // solver: set up, at rest
//   if (!st.ok) show(st.message);   // "the kept search: piece 3 is the same as piece 1: ..."
//
// The JSON, as the page writes it (counters named as in statsJson, per-level lists from one
// piece left, output/format.cpp):
//   {"fingerprint": "<16 hex>", "doneShare": <share finished>, "solutions": <count>,
//    "stats": {"solutions", "found", "redundant", "attempts", "fits",
//              "attemptsByRemaining": [...], "fitsByRemaining", "parityBacktracks",
//              "volumeBacktracks", "parityFiltered", "volumeFiltered", "fitFiltered"},
//    "pending": [{"path": [<image id>, ...], "share": <share of the whole tree>}, ...]}
// Missing counters count as 0 (a checkpoint written before anything finished has none).
//
// Refused, with what is wrong: text that is not such an object (a field of another type, a
// count that is not a whole number); another search's fingerprint; counters out of range or
// that disagree (solutions and redundant assemblies not adding up to the assemblies found, the
// solution count beside the statistics' own, a total that is not the sum of its levels,
// per-level lists of another length than this puzzle's levels); shares outside [0, 1]; pending
// pieces that are not distinct, disjoint subtrees of this puzzle's tree (a path repeated, or
// the prefix of another; images that do not exist, overlap, or place a piece more often than
// the puzzle has it); and a finished share and pending shares that do not add up to the whole
// tree (a piece dropped or given twice, a share changed: "100% done" with pieces left).
//
// The same JSON is how the page holds a checkpoint file of the command line's format
// (parallel/checkpoint.hpp): pieceBookCheckpoint reads it into a Checkpoint, pieceBookJson
// writes one out, so the page never reads or writes that format itself.
#pragma once
#include <string>

#include "common/status.hpp"
#include "parallel/checkpoint.hpp"

namespace polycube {

class Solver;

// The page's JSON as a Checkpoint (no origin), with every check that needs no search: its
// fields' types and ranges, and decodeCheckpoint's (counts that agree, shares, distinct
// disjoint pieces). Its fingerprint is not compared with anything.
Result<Checkpoint> pieceBookCheckpoint(const std::string& json, const std::string& source);
// A Checkpoint in the page's JSON (its origin left out): the per-level lists from one piece
// left, the totals "attempts" and "fits" their sums, as statsJson writes them.
std::string pieceBookJson(const Checkpoint& ck);

// `solver`: the search the checkpoint is to resume (ready: its setup done). `source` names the
// checkpoint in messages. `otherSearch` (when given) is set when the refusal is for the
// fingerprint alone: a checkpoint of another search, which a front end may try against the
// search it ran (other options), where damage is final.
Status checkPieceBookJson(const std::string& json, const Solver& solver, const std::string& source, bool* otherSearch = nullptr);

}  // namespace polycube
