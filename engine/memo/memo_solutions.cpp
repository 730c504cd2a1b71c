// Solutions of a memoized count by number (MemoSettings::solutionNumber, randomSolutions): the
// count of one term is the sum, over the rows tried at the root's first open cell, of the
// counts of the subproblems they leave, and so on down: the solutions are the paths of the
// search in the order it tries rows, so solution n (0-based) is reached by walking down,
// skipping each subtree whose count is at most what is left of n. The subtrees' counts are the
// table's (a hit at once for a remembered subproblem) or counted again (a forgotten or
// unremembered one) by the counter's own search (countTask), so a walk costs about the pieces
// times the rows at a cell in lookups when the table kept the count's subproblems.
#include <algorithm>
#include <random>
#include <set>

#include "common/text.hpp"
#include "memo/memo_counter.hpp"
#include "puzzle/model.hpp"

namespace polycube {

namespace {

// Uniform in [0, n) (n > 0) from a 64-bit generator, without the bias of a modulo: draws past
// the largest multiple of n are drawn again.
uint64_t uniformBelow(std::mt19937_64& rng, uint64_t n) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do x = rng();
    while (x >= limit);
    return x % n;
}

}  // namespace

// The numbers to list, once the count is known; false (the counter failed) when they cannot be.
bool MemoCounter::planPicks() {
    if (terms_.size() != 1) {
        fail("--solution and --random list solutions of a count of solutions; with -r this count is of classes, a sum of " +
             std::to_string(terms_.size()) + " Burnside terms (" + termsDescription() + "), none of them a list: drop -r");
        return false;
    }
    if (settings_.solutionNumber > 0) {
        if (settings_.solutionNumber > count_) {
            fail("--solution " + std::to_string(settings_.solutionNumber) + ": the puzzle has " +
                 formatCount(static_cast<long long>(std::min<uint64_t>(count_, INT64_MAX))) + " solution" + (count_ == 1 ? "" : "s"));
            return false;
        }
        picks_.push_back(settings_.solutionNumber - 1);
    } else if (static_cast<uint64_t>(settings_.randomSolutions) >= count_) {
        for (uint64_t n = 0; n < count_; ++n) picks_.push_back(n);  // every one (fewer than asked)
    } else {
        // Floyd's sampling: k distinct numbers of [0, count), each set of k equally likely.
        std::mt19937_64 rng(settings_.seed);
        std::set<uint64_t> chosen;
        const uint64_t k = static_cast<uint64_t>(settings_.randomSolutions);
        for (uint64_t j = count_ - k; j < count_; ++j) {
            const uint64_t t = uniformBelow(rng, j + 1);
            if (!chosen.insert(t).second) chosen.insert(j);
        }
        picks_.assign(chosen.begin(), chosen.end());
    }
    if (picks_.empty()) return true;  // no solution to list
    pickNext_ = 0;
    taskMode_ = true;  // the walk counts subtrees as tasks: their results are the walk's, not a term's
    phase_ = kPicking;
    return true;
}

// Lists picks until about `budget` attempts are spent; false when the counter stopped (failed,
// cancelled).
bool MemoCounter::pickSome(long long& budget) {
    while (budget > 0 && pickNext_ < picks_.size()) {
        const long long before = stats_.attempts;
        std::vector<int> images;
        if (!walkTo(picks_[pickNext_], images)) return false;
        picked_.push_back({picks_[pickNext_] + 1, model_.gridOf(images)});
        ++pickNext_;
        ++stats_.picked;
        budget -= std::max(1LL, stats_.attempts - before);
    }
    if (pickNext_ == picks_.size()) phase_ = kFinished;
    return true;
}

std::vector<uint64_t> MemoCounter::pickedNumbers() const {
    std::vector<uint64_t> out;
    for (size_t i = 0; i < pickNext_ && i < picks_.size(); ++i) out.push_back(picks_[i] + 1);
    return out;
}

// The images of solution n (0-based) of the one term.
bool MemoCounter::walkTo(uint64_t n, std::vector<int>& images) {
    std::vector<int> path;  // row, then its cell, ... (a Task's rows)
    struct Choice {
        int row = 0;
        bool complete = false;  // the row covers the last open cells
    };
    std::vector<Choice> choices;
    for (;;) {
        // The walk's state: the path placed from the root.
        if (!resetTerm(0)) return false;
        for (size_t i = 0; i < path.size(); i += 2) sweep_.place(path[i], path[i + 1]);
        const int cell = sweep_.firstOpen(path.empty() ? 0 : path.back());
        if (cell == problem_.cells) break;
        // The rows the search tries here, as it tries them (copies left, fit, no pocket).
        choices.clear();
        for (int r = problem_.rowBegin[cell]; r < problem_.rowBegin[cell + 1]; ++r) {
            ++stats_.attempts;
            if (!sweep_.rowFits(r, cell)) continue;
            sweep_.place(r, cell);
            if (!(problem_.smallestPiece > 0 && sweep_.leavesPocket(r, cell))) choices.push_back({r, sweep_.firstOpen(cell) == problem_.cells});
            sweep_.unplace(r, cell);
        }
        bool down = false;
        for (const Choice& c : choices) {
            uint64_t below = 1;  // a row that completes the packing: one solution
            if (!c.complete) {
                Task task{0, path, 0};
                task.rows.push_back(c.row);
                task.rows.push_back(cell);
                for (long long budget = 1LL << 30; !countTask(task, budget, below); budget = 1LL << 30)
                    if (state_ != State::Running) return false;
            }
            if (n < below) {
                path.push_back(c.row);
                path.push_back(cell);
                down = true;
                break;
            }
            n -= below;
        }
        if (!down) {
            fail("internal error: a solution number past the subtrees' counts");
            return false;
        }
    }
    images.clear();
    for (size_t i = 0; i < path.size(); i += 2) images.push_back(problem_.image[path[i]]);
    return true;
}

}  // namespace polycube
