// Subproblems: pieces of one search tree that can be written down, sent elsewhere (another
// thread, a job file, another machine) and searched there.
//
//   std::string fp = searchFingerprint(solver);              // puzzle + options + build
//   std::string line = encodeSubproblem(fp, {images});      // "polycube-subproblem 1 <fp> 3 17 402 9"
//   Result<Subproblem> back = decodeSubproblem(line, fp);    // refused when fp differs
//   other.startSubproblem(back.value.path);                  // search that subtree only
//
// A subproblem is a path from the root of the search: the model image ids placed at the
// first levels, in order (Solver::startSubproblem, Solver::donate). Image ids are
// deterministic for a puzzle definition, but a path only means something to a search of
// the same puzzle with the same options by the same engine (the order of the levels, the
// heuristics, the redundancy filter's piece all shape the tree), hence the fingerprint.
#pragma once
#include <string>
#include <vector>

#include "common/status.hpp"
#include "solver/options.hpp"

namespace polycube {

class Solver;

struct Subproblem {
    std::vector<int> path;  // image ids placed at levels 0, 1, ... (empty: the whole tree)
};

// 16 hex digits: a hash of the engine version and the subproblem format, the compiled
// model (every image's shape and cells, so image ids mean the same thing), the options
// that shape the tree and the configuration the solver chose for them (automatic
// algorithms, the -r piece picked by probes). Equal fingerprints: the same tree.
std::string searchFingerprint(const Solver& solver);

std::string encodeSubproblem(const std::string& fingerprint, const Subproblem& sub);
// Errors name what is wrong: not a subproblem, another format version, a fingerprint for
// another puzzle/options/build, a malformed path.
Result<Subproblem> decodeSubproblem(const std::string& text, const std::string& expectedFingerprint);

// Why a search with these options cannot be split over threads or jobs; empty when it can.
// -t (one ordered trace), -s (Monte Carlo trials are sequential random restarts), -l (which
// N solutions, and the statistics up to them, depend on the order of the search) and -u
// without -r (it remembers the solutions seen, so which of two equivalent solutions is
// reported depends on the order). Such searches run on one thread.
std::string whyNotSplittable(const SolverOptions& options);

}  // namespace polycube
