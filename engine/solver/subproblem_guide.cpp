// Solver's subproblem guide (engine/parallel/: several threads, workers or machines share one
// tree): start a subproblem (a path from the root), follow its path through the DLX levels
// and FILA's, give untried siblings away (donate), and say how much of the tree is done
// (fractionDone, Knuth's weighted backtrack estimate).
#include "solver/solver.hpp"

#include <algorithm>

namespace polycube {

Status Solver::startSubproblem(const std::vector<int>& path) {
    if (options_.monteCarlo.trials > 0) return Status::error("a Monte Carlo run (-s) cannot be split into subproblems");
    const int pieces = model_.mobileCount();
    if (static_cast<int>(path.size()) > pieces)
        return Status::error("subproblem: a path of " + std::to_string(path.size()) + " placements, but the puzzle has " +
                             std::to_string(pieces) + " pieces");
    for (int image : path)
        if (image < 0 || image >= static_cast<int>(model_.images.size()))
            return Status::error("subproblem: image " + std::to_string(image) + " does not exist in this puzzle");
    // At rest: nothing searched yet (level 0 not entered), or the last tree exhausted, which
    // leaves the matrix and every counter of the position as at the start.
    const bool fresh = state_ == State::Running && depth_ == 0 && frames_[0].stage == kEnter;
    const bool finished = state_ == State::Done && depth_ < 0;
    if (!impossible_.empty()) return Status::success();  // proved impossible: no tree at all
    if (!fresh && !finished) return Status::error("subproblem: this solver is in the middle of a search");
    filaReuse_ = true;
    if (fila_) fila_->reuseTables(true);  // sibling subproblems often restart FILA on one region
    sub_.path = path;
    sub_.size = static_cast<int>(path.size());
    sub_.followed = 0;
    sub_.donatedShare = 0;
    sub_.error.clear();
    sub_.statsBefore = stats_;
    state_ = State::Running;
    depth_ = 0;
    frames_[0] = Frame{};
    return Status::success();
}

void Solver::followGuide(Frame& f) {
    // A path level: try only the path's image (it must be a row of the chosen column, as it
    // was in the search that handed the path out), and nothing after it.
    const int image = sub_.path[depth_];
    for (int node = dlx_.down(f.col); node != f.col; node = dlx_.down(node))
        if (dlx_.imageOfRow(dlx_.rowOf(node)) == image) {
            f.node = node;
            f.stop = dlx_.down(node);
            ++sub_.followed;
            return;
        }
    if (sub_.error.empty())
        sub_.error = "the subproblem's path is not a path of this search (image " + std::to_string(image) +
                      " is not a candidate at its level)";
    f.node = f.col;  // nothing to try: the level ends, and with it the search
}

void Solver::followGuideInFila() {
    // The rest of the path is on FILA's levels: FILA places it on its own stack.
    const int n = sub_.size - depth_;
    if (fila_->follow(sub_.path.data() + depth_, n)) {
        sub_.followed += n;
    } else if (sub_.error.empty()) {
        sub_.error = "the subproblem's path is not a path of this search (FILA could not place it)";
    }
}

void Solver::guardStatistics() {
    // The path's levels (more pieces left than at the subtree's root) were replayed: their
    // counters go back to what they were before this subproblem. Idempotent, so it runs at
    // the end of every step() and the statistics are right between slices too.
    const int above = model_.mobileCount() - sub_.size;
    auto restore = [&](std::vector<long long>& v, const std::vector<long long>& before) {
        for (size_t r = above + 1; r < v.size() && r < before.size(); ++r) v[r] = before[r];
    };
    SolverStats::forEachLevelCounter(stats_, sub_.statsBefore, restore);
}

double Solver::fractionDone() const {
    if (state_ == State::Done) return 1.0 - sub_.donatedShare;
    if (setup_ != kSetReady) return 0.0;
    if (options_.monteCarlo.trials > 0)
        return std::min(1.0, static_cast<double>(stats_.monteCarloTrials) / static_cast<double>(options_.monteCarlo.trials));
    double done = 0, weight = 1;
    for (int d = 0; d <= depth_; ++d) {
        const Frame& f = frames_[d];
        if (f.stage == kFila) {
            done += weight * fila_->fractionDone();
            break;
        }
        if (f.stage != kNext && f.stage != kReturn) break;  // the top level has not chosen yet
        if (d < sub_.size) continue;                        // a path level: its one choice
        // The column's own list stays whole while it is covered: its rows are the choices.
        int index = 0, n = 0;
        for (int node = dlx_.down(f.col); node != f.col; node = dlx_.down(node), ++n)
            if (node == f.node) index = n;
        if (f.node == f.col) index = n;
        // kReturn below the top: f.node's subtree is in progress; at the top it has just ended.
        if (f.stage == kReturn && d == depth_) ++index;
        if (n == 0) break;
        done += weight * index / n;
        weight /= n;
    }
    return std::min(1.0, done);
}

int Solver::donate(std::vector<std::vector<int>>& out, double* share, int maxPaths) {
    if (state_ != State::Running || options_.monteCarlo.trials > 0 || options_.trace != 0) return 0;
    const int pieces = model_.mobileCount();
    double weight = 1;  // of the level's whole list, as in fractionDone
    double given = 0;
    // The shallowest level with untried siblings: the biggest pieces of work (work stealing
    // takes from the top of the tree, so a few donations keep every thread busy).
    for (int d = 0; d <= depth_; ++d) {
        Frame& f = frames_[d];
        if (f.stage == kFila) {
            // FILA's paths begin with the root it followed, if it did.
            const std::vector<int> prefix(placed_.begin(), placed_.begin() + d - filaFollowed_);
            double filaShare = 0;
            const int n = fila_->donate(prefix, out, &filaShare);
            given = weight * filaShare;
            sub_.donatedShare += given;
            if (share) *share = given;
            return n;
        }
        // kNext: f.node is next (not yet placed); kReturn: f.node is placed. Either way
        // the untried rows are those after it, up to f.stop.
        const bool open = f.stage == kNext || f.stage == kReturn;
        int rows = 0;
        if (open && d >= sub_.size)
            for (int node = dlx_.down(f.col); node != f.col; node = dlx_.down(node)) ++rows;
        if (!open || f.node == f.stop) {
            if (open && rows > 0) weight /= rows;
            continue;
        }
        const int remaining = pieces - d;
        // The last maxPaths untried rows go; this search stops before the first of them.
        int untried = 0;
        for (int node = dlx_.down(f.node); node != f.stop; node = dlx_.down(node)) ++untried;
        int first = dlx_.down(f.node);
        for (int skip = untried - std::max(1, maxPaths); skip > 0; --skip) first = dlx_.down(first);
        int n = 0;
        for (int node = first; node != f.stop; node = dlx_.down(node)) {
            std::vector<int> path(placed_.begin(), placed_.begin() + d);
            path.push_back(dlx_.imageOfRow(dlx_.rowOf(node)));
            out.push_back(std::move(path));
            // Counted as kNext would have (a DLX row in the column fits: attempt and fit).
            stats_.attempts[remaining]++;
            stats_.fits[remaining]++;
            ++n;
        }
        if (n > 0) {
            f.stop = first;
            given = rows > 0 ? weight * n / rows : 0;
            sub_.donatedShare += given;
            if (share) *share = given;
            return n;
        }
        if (rows > 0) weight /= rows;
    }
    return 0;
}

}  // namespace polycube
