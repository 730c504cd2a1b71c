// The partitioned count's tasks (parallel_memo.hpp): each term's search split at its first
// levels into independent subtrees, and a counter counting one such subtree.
#include <cstdint>
#include <vector>

#include "memo/memo_counter.hpp"

namespace polycube {

namespace {
// Levels a term is split at, at most: past them the subtrees are small enough to share out
// unevenly (the search's first levels branch 10 to 60 ways).
constexpr int kMaxSplitLevels = 6;
}  // namespace

// Splits every term level by level (the rows at the first open cell, as the search tries them)
// until it has `wanted` subtrees or kMaxSplitLevels levels. A row that completes the packing
// there is counted at once; a row that does not fit, has no copy left or walls off a pocket is
// settled too. Each subtree's weight is fractionDone's: the term's share over the rows at
// each level above it, so the weights of the tasks and of what was settled sum to 1.
MemoCounter::TaskPlan MemoCounter::splitTerms(int wanted) {
    TaskPlan plan;
    plan.termSums.assign(terms_.size(), 0);
    double left = 0;
    for (int t = 0; t < static_cast<int>(terms_.size()); ++t) {
        std::vector<Task> level{Task{t, {}, 1.0 / static_cast<double>(terms_.size())}};
        for (int depth = 0; depth < kMaxSplitLevels && !level.empty() && static_cast<int>(level.size()) < wanted; ++depth) {
            std::vector<Task> next;
            for (const Task& node : level) {
                if (stop_->load(std::memory_order_relaxed)) {
                    state_ = State::Cancelled;
                    return plan;
                }
                if (!resetTerm(t)) return plan;
                for (size_t i = 0; i < node.rows.size(); i += 2) sweep_.place(node.rows[i], node.rows[i + 1]);
                const int cell = sweep_.firstOpen(node.rows.empty() ? 0 : node.rows.back());
                const int begin = problem_.rowBegin[cell], end = problem_.rowBegin[cell + 1];
                for (int r = begin; r < end; ++r) {
                    ++stats_.attempts;
                    if (!sweep_.rowFits(r, cell)) continue;
                    ++stats_.placements;
                    sweep_.place(r, cell);
                    if (problem_.smallestPiece > 0 && sweep_.leavesPocket(r, cell)) {
                        ++stats_.pockets;
                    } else if (sweep_.firstOpen(cell) == problem_.cells) {
                        ++plan.termSums[t];  // every cell covered: a solution, as enter() counts it
                    } else {
                        Task child{t, node.rows, node.weight / (end - begin)};
                        child.rows.push_back(r);
                        child.rows.push_back(cell);
                        next.push_back(std::move(child));
                    }
                    sweep_.unplace(r, cell);
                }
            }
            level = std::move(next);
        }
        for (Task& task : level) {
            left += task.weight;
            plan.tasks.push_back(std::move(task));
        }
    }
    plan.settled = 1 - left;
    return plan;
}

// Counts the completions of `task` (a counter of the partitioned count: its own table, the
// setup's model and terms), resuming where the last call's budget ran out. True with `result`
// once counted; false when the budget ran out (call again) or the state is no longer Running.
bool MemoCounter::countTask(const Task& task, long long& budget, uint64_t& result) {
    if (depth_ < 0) {
        if (!resetTerm(task.term)) return false;
        for (size_t i = 0; i < task.rows.size(); i += 2) sweep_.place(task.rows[i], task.rows[i + 1]);
        taskOver_ = false;
        if (!enter(task.rows.empty() ? 0 : task.rows.back(), result)) return true;  // complete, or in the table
        depth_ = 0;
    }
    search(budget);
    takeTableStats();
    if (!taskOver_) return false;
    taskOver_ = false;
    result = taskResult_;
    return true;
}

}  // namespace polycube
