// Search-trace records (-t K, Session::takeTrace, the web page's "watch the search"): the one
// place where the record format is defined. The page reads the ops and filters by name from
// web/src/generated/engine-rules.js, which tools/engine_rules.cpp writes from kOpNames and
// kFilterNames below.
//
// Every event is 4 ints: [op, remaining, a, b]. `remaining` = pieces left to place at the
// level the event belongs to (before its placement). A "target" is what a level branches
// on: a box cell index (x + xDim * (y + yDim * z)) when >= 0, or the piece instance
// -1 - target when < 0 (a DLX piece column: the next copy of that piece to place).
//
//   op                    a                      b
//   1  kPlace             instance               image       an image is placed
//   2  kRemove            instance               image       ... and taken back
//   3  kChoose            target                 candidates  the heuristic's pick at a level
//   4  kCandidate         instance               image       one per candidate, after kChoose,
//                                                            in the order they will be tried
//   5  kSolution          solution number        found       all pieces placed; number = the
//                         (0: dropped as redundant)          reported count, found = complete
//                                                            assemblies so far
//   6  kNoFit             target                 0           dead end: no image fits the target
//   7  kExhausted         target                 tried       dead end: every candidate was tried
//   8  kParityTrigger     holes' parity          0           dead end: parity backtrack trigger
//   9  kVolumeTrigger     box cell of the region region size dead end: volume backtrack trigger
//                         (its lowest open cell)             (flood-fill the open cells from
//                                                            the cell to draw the region)
//  10  kDeadCell          box cell               0           dead end: the dead-cell cut (a hole
//                                                            with no open neighbour)
//  11  kFilterEmptied     target                 filter      dead end: an image filter (kParity-
//                                                            Filter...) emptied the target's list
//
// A level's events: kChoose, its kCandidates, then for each candidate tried kPlace, the
// levels below, kRemove; the level ends with one dead-end event (kNoFit when there were no
// candidates, else kExhausted), unless the search stopped there (solution limit, cancel).
// Trigger dead ends (8, 9, 10) end a level before any kChoose. Levels where pieces are
// placed without branching, or a Monte Carlo trial cut, emit no dead end. kSolution comes
// at remaining 0 whenever tracing is on (whatever K).
#pragma once
#include <cstdint>

namespace polycube::trace {

enum Op : int32_t {
    kPlace = 1,
    kRemove = 2,
    kChoose = 3,
    kCandidate = 4,
    kSolution = 5,
    kNoFit = 6,
    kExhausted = 7,
    kParityTrigger = 8,
    kVolumeTrigger = 9,
    kDeadCell = 10,
    kFilterEmptied = 11,
};
constexpr int kRecordInts = 4;

// kFilterEmptied's b: which image filter (first seed article, "Image Filters").
enum Filter : int32_t { kParityFilter = 1, kVolumeFilter = 2, kFitFilter = 3 };

// The names the front ends use for the ops and filters (TRACE_OP.PLACE === 1 on the page).
struct Named {
    int32_t value;
    const char* name;
};
inline constexpr Named kOpNames[] = {
    {kPlace, "PLACE"},          {kRemove, "REMOVE"},       {kChoose, "CHOOSE"},
    {kCandidate, "CANDIDATE"},  {kSolution, "SOLUTION"},   {kNoFit, "NO_FIT"},
    {kExhausted, "EXHAUSTED"},  {kParityTrigger, "PARITY_TRIGGER"}, {kVolumeTrigger, "VOLUME_TRIGGER"},
    {kDeadCell, "DEAD_CELL"},   {kFilterEmptied, "FILTER_EMPTIED"},
};
inline constexpr Named kFilterNames[] = {{kParityFilter, "PARITY"}, {kVolumeFilter, "VOLUME"}, {kFitFilter, "FIT"}};

// Targets: a box cell, or a piece instance.
constexpr int32_t pieceTarget(int instance) { return -1 - instance; }

// Is the level's trace wanted under -t K? K > 0: K or more pieces remain; K < 0: exactly -K.
inline bool levelTraced(int traceLevel, int remaining) {
    return traceLevel > 0 ? remaining >= traceLevel : traceLevel < 0 && remaining == -traceLevel;
}

}  // namespace polycube::trace
