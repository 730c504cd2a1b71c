#include "memo/memo_choice.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "memo/cover_problem.hpp"

namespace polycube {

double memoSubproblemBound(const Model& model) {
    const int cells = model.openCellCount();
    if (cells == 0) return 1;
    const std::vector<int> order = sweepOrder(model);
    // span: how far past its first cell (in the sweep) an image reaches. A piece placed before
    // position p starts before p, so the cells it fills past p lie in the next span - 1.
    int span = 1;
    for (const Image& image : model.images) {
        int lo = cells, hi = -1;
        for (int c : image.cells) lo = std::min(lo, order[c]), hi = std::max(hi, order[c]);
        if (hi >= lo) span = std::max(span, hi - lo + 1);
    }
    // sets[k]: the ways to choose how many copies of each shape are placed, their cells adding
    // up to k (a bounded knapsack, in doubles: the figures only compare).
    std::vector<double> sets(static_cast<size_t>(cells) + 1, 0.0);
    sets[0] = 1;
    for (const Shape& shape : model.shapes) {
        std::vector<double> next(sets.size(), 0.0);
        for (int k = 0; k <= cells; ++k) {
            if (sets[k] == 0) continue;
            for (int c = 0; c <= shape.count && k + c * shape.size <= cells; ++c) next[k + c * shape.size] += sets[k];
        }
        sets.swap(next);
    }
    // binomial[j] = C(window, j) for the window of span - 1 cells after the position.
    const int window = span - 1;
    std::vector<double> binomial(static_cast<size_t>(window) + 1, 1.0);
    for (int j = 1; j <= window; ++j) binomial[j] = binomial[j - 1] * (window - j + 1) / j;
    double bound = 0;
    for (int p = 0; p < cells; ++p) {
        const int reach = std::min(window, cells - 1 - p);  // the window ends with the box
        for (int j = 0; j <= reach; ++j) {
            // C(reach, j) profiles with j cells filled; binomial[] is for the whole window.
            double profiles = 1;
            if (reach == window) profiles = binomial[j];
            else for (int i = 1; i <= j; ++i) profiles = profiles * (reach - i + 1) / i;
            bound += profiles * sets[p + j];
        }
    }
    return std::max(bound, 1.0);
}

MemoForecast forecastMemo(double bound, double enumeratingCost) {
    MemoForecast f;
    f.subproblemBound = bound;
    f.enumeratingCost = enumeratingCost;
    char line[256];
    if (enumeratingCost < 0) {
        std::snprintf(line, sizeof line, "enumerating: at most %.3g subproblems to remember, %s", bound,
                      bound * kMemoSubproblemCost >= kMemoWorthWeighing
                          ? "too many to weigh against the enumerating search"
                          : "and no estimate of the enumerating search (FILA cannot start on the whole puzzle)");
        f.reason = line;
        return f;
    }
    f.memoize = bound * kMemoSubproblemCost < enumeratingCost;
    std::snprintf(line, sizeof line, "%s: at most %.3g subproblems to remember, x %g %s the enumerating search's estimate %.3g",
                  f.memoize ? "memoized" : "enumerating", bound, kMemoSubproblemCost, f.memoize ? "<" : ">=",
                  enumeratingCost);
    f.reason = line;
    return f;
}

}  // namespace polycube
