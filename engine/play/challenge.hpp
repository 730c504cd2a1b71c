// Challenges: start positions with exactly one way to finish, as in the booklets of Kanoodle or
// IQ Puzzler, made by the engine from a solution (tools/challenges.cpp writes the library's into
// def/challenges.json; tests/cpp/play_test.cpp checks each is unique).
//
//   std::vector<int> order = shuffledOrder(pieceCount, seed);
//   Result<Challenge> c = challengeFromSolution(def, solutionGrid, order);
//   c.value.given;        // the pieces placed at the start
//   c.value.placements;   // the size of the search that proves the finish unique (its grade)
//
// The position: the solution's pieces are given one by one in `order` until the completion is
// unique; then each given piece, the last given first, is taken away again if the completion
// stays unique without it. So no given piece is superfluous: a position with fewer pieces
// given has several finishes (from this solution and this order; another order may need fewer).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "play/play.hpp"
#include "puzzle/puzzle.hpp"

namespace polycube {

// Completions of `given` counted to the end (PlayQuery::Kind::Count run synchronously), for
// tools and tests: at most `limit` (capped: more), and the placement attempts it took.
struct CompletionCount {
    long long completions = 0;
    bool capped = false;
    long long placements = 0;
    std::vector<int> completion;  // the first one (def's instance numbering), empty: none
};
Result<CompletionCount> countCompletions(const PuzzleDef& def, const std::vector<Placement>& given, long long limit);

struct Challenge {
    std::vector<Placement> given;
    long long placements = 0;  // attempts of the search from the start position to its one finish
};

// `order`: the solution's mobile pieces (indices into placementsOfGrid(def, grid)) in the
// order they are given; every index once.
Result<Challenge> challengeFromSolution(const PuzzleDef& def, const std::vector<int>& grid, const std::vector<int>& order);

// 0 .. n-1 shuffled by std::mt19937_64(seed)'s raw output (Fisher-Yates): the same on every
// platform (std::shuffle is not).
std::vector<int> shuffledOrder(int n, uint64_t seed);

// The grade of a challenge from the size of its search: "starter" (under 200 placements),
// "junior" (under 2,000), "expert" (under 20,000), "master".
std::string challengeGrade(long long placements);

}  // namespace polycube
