// Session::solutionsText: the page's "solutions as text" is the CLI's own printout.
#include <cmath>
#include <string>
#include <vector>

#include "output/format.hpp"
#include "puzzle/puzzle.hpp"
#include "session/session.hpp"

namespace polycube {

std::string Session::solutionsText(int index, const std::vector<int32_t>& grids, const std::vector<double>& numbers) const {
    // (an error value and "" for what cannot be printed: errorJson below)
    const auto errorJson = [this](const std::string& message) {
        fail(ErrorCode::kBadArgument, "solutionsText: " + message);
        return std::string();
    };
    if (!enter(Call::kSolutionsText)) return std::string();
    if (index < 0 || index >= puzzleCount())
        return errorJson("no puzzle number " + std::to_string(index) + " (" + std::to_string(puzzleCount()) + " loaded)");
    const PuzzleDef& def = (*puzzles_)[index];
    const size_t cells = static_cast<size_t>(def.boxVolume());
    if (grids.size() != cells * numbers.size())
        return errorJson(std::to_string(grids.size()) + " grid cells for " + std::to_string(numbers.size()) +
                         " solutions of " + std::to_string(cells) + " cells each");
    const int instances = def.instanceCount();
    std::string text;
    std::vector<int> grid(cells);
    for (size_t k = 0; k < numbers.size(); ++k) {
        // Solution numbers are counts: whole, from 1, within a double's exact integers.
        const double n = numbers[k];
        if (!(n >= 1 && n <= 9007199254740992.0) || std::floor(n) != n)
            return errorJson("solution " + std::to_string(k) + ": its number is not a whole number from 1");
        for (size_t c = 0; c < cells; ++c) {
            const int32_t v = grids[k * cells + c];
            if (v < -1 || v >= instances)
                return errorJson("solution " + std::to_string(k) + ": cell " + std::to_string(c) + " holds " +
                                 std::to_string(v) + ", which is no piece of the puzzle's " +
                                 std::to_string(instances));
            grid[c] = v;
        }
        text += formatSolution(def, grid, static_cast<long long>(n));
    }
    return text;
}

}  // namespace polycube
