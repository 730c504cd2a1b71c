// polycube --build-order: each solution printed with how to put it together by hand, one piece
// at a time (engine/assembly/build_order.hpp), and the classes counted for the puzzle.
//
//   BuildOrders out(def, options);
//   solver.setSolutionHandler([&](const Solution& s) { std::cout << out.solution(s.grid, s.number); });
//   std::cout << out.jsonSummary(summaryJson(...)) << "\n";   // --json: "buildOrders" added
//   std::cout << out.countsLine();                            // text: "# build orders of ..."
#pragma once
#include <map>
#include <string>
#include <vector>

#include "puzzle/puzzle.hpp"
#include "solver/options.hpp"

namespace polycube {

class BuildOrders {
public:
    BuildOrders(const PuzzleDef& def, const SolverOptions& options) : def_(def), options_(options) {}
    // Whether solutions need a handler at all (printed, or their build orders counted).
    bool wanted() const { return !options_.quiet || options_.buildOrder; }
    // What to print for one solution: the solution unless -q; with --build-order its order (as
    // "# " lines, or with --json as one line {"solution":n,"buildOrder":{...}}, none with -q).
    std::string solution(const std::vector<int>& grid, long long number);
    // After the puzzle, with --json: `summary` (the JSON line, no newline) with
    // "buildOrders":{"above","sideways","interlocked","unsupported","groups":{size:solutions},
    // "bestWayUp":{"above",...: the classes with the best face down},"states","maxStates"} added (the sets of pieces the order searches expanded, in all and at
    // most for one solution; "exhausted" when a search stopped at its limit); unchanged without
    // --build-order.
    std::string jsonSummary(const std::string& summary) const;
    // After the puzzle, without --json: the counts as a "# " line ("" without --build-order).
    std::string countsLine() const;

private:
    const PuzzleDef& def_;
    const SolverOptions& options_;
    long long counts_[4] = {0, 0, 0, 0};  // by BuildClass
    long long best_[4] = {0, 0, 0, 0};    // by BuildClass the best way up (BuildOrder::turned)
    long long failed_ = 0;                 // solutions whose order could not be made (never expected)
    long long states_ = 0, maxStates_ = 0; // sets of pieces the order searches expanded: in all, at most for one
    long long exhausted_ = 0;              // solutions whose search stopped at its limit
    std::map<int, long long> groups_;      // interlocked group size -> solutions
};

}  // namespace polycube
