// Output: solutions in the reference solver's brief layout, -i statistics, JSON summaries.
//
//   std::cout << formatSolution(def, sol.grid, sol.number);
//   // # --- SOLUTION 1 ---
//   // L L L F F F N N N N      (rows from y = yDim-1 down to 0; z layers side by side)
//   std::cout << formatInfo(solver) << formatStatistics(solver);
//   std::cout << summaryJson(solver, "def/soma.txt", 0).dump() ...
#pragma once
#include <string>
#include <vector>

#include "puzzle/puzzle.hpp"

namespace polycube {

class Solver;
struct SolverStats;
struct TraceEvent;

std::string formatSolution(const PuzzleDef& def, const std::vector<int>& grid, long long number);
std::string formatInfo(const Solver& solver);         // before the search (-i)
std::string formatStatistics(const Solver& solver);   // after the search (-i)
// The same with other statistics (a search split over threads: the merged figures).
std::string formatStatistics(const Solver& solver, const SolverStats& stats);
// One search-trace event (search/trace.hpp) as the words of -t, without a newline, e.g.
// "choose cell 3,1,0 with 5 pieces left: 4 candidates", "dead end with 4 pieces left:
// volume trigger, region of 3 cells at 0,2,0".

std::string formatTraceEvent(const Solver& solver, const TraceEvent& event);
// One-line JSON: {"puzzle","file","index","title","solutions","placements","fits","seconds",...}
std::string summaryJson(const Solver& solver, const std::string& file, int index, const std::string& stateName);
// With `threads` > 1 (a search shared by threads: stats are the merged figures, seconds the
// wall time) the line also has "threads" and "idleSeconds" (time the threads waited for work);
// with `cpuSeconds` >= 0, "cpuSeconds" (the CLI: the process's CPU time for this puzzle, every
// thread, user and system).
std::string summaryJson(const Solver& solver, const SolverStats& stats, const std::string& file, int index,
                        const std::string& stateName, int threads = 1, double idleSeconds = 0,
                        double cpuSeconds = -1);
// Live statistics for the Session: {"state","solutions","attempts","fits","seconds",...}
std::string statsJson(const Solver& solver, const std::string& stateName);
// The same with other statistics than the solver's own (a trace window's: Session::setTraceLimit).
std::string statsJson(const Solver& solver, const SolverStats& stats, const std::string& stateName);
// {"title","source","line","xDim",...,"pieces":[...],"instances":[...]} (see session.hpp)
std::string puzzleJson(const PuzzleDef& def);

}  // namespace polycube
