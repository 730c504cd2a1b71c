// The subproblem guide (solver/subproblem_guide.hpp): check and start a path, follow it
// through the DLX levels and FILA's, give untried siblings away, and weigh the work done.
#include "solver/subproblem_guide.hpp"

#include <algorithm>

namespace polycube {

Status SubproblemGuide::check(const std::vector<int>& path, int pieces, int imageCount) {
    if (static_cast<int>(path.size()) > pieces)
        return Status::error("subproblem: a path of " + std::to_string(path.size()) + " placements, but the puzzle has " +
                             std::to_string(pieces) + " pieces");
    for (int image : path)
        if (image < 0 || image >= imageCount)
            return Status::error("subproblem: image " + std::to_string(image) + " does not exist in this puzzle");
    return Status::success();
}

void SubproblemGuide::begin(const std::vector<int>& path, const SolverStats& stats) {
    path_ = path;
    size_ = static_cast<int>(path.size());
    followed_ = 0;
    donatedShare_ = 0;
    error_.clear();
    statsBefore_ = stats;
}

void SubproblemGuide::follow(Frame& f, const DlxMatrix& dlx, int depth) {
    // Try only the path's image (it must be a row of the chosen column, as it was in the
    // search that handed the path out), and nothing after it.
    const int image = path_[depth];
    for (int node = dlx.down(f.col); node != f.col; node = dlx.down(node))
        if (dlx.imageOfRow(dlx.rowOf(node)) == image) {
            f.node = node;
            f.stop = dlx.down(node);
            ++followed_;
            return;
        }
    if (error_.empty())
        error_ = "the subproblem's path is not a path of this search (image " + std::to_string(image) +
                 " is not a candidate at its level)";
    f.node = f.col;  // nothing to try: the level ends, and with it the search
}

void SubproblemGuide::followInFila(FilaEngine& fila, int depth) {
    // FILA places the rest of the path on its own stack.
    const int n = size_ - depth;
    if (fila.follow(path_.data() + depth, n)) {
        followed_ += n;
    } else if (error_.empty()) {
        error_ = "the subproblem's path is not a path of this search (FILA could not place it)";
    }
}

void SubproblemGuide::endSlice(SolverStats& stats, int pieces, bool done) {
    if (size_ == 0) return;
    // The path's levels (more pieces left than at the subtree's root) were replayed, not
    // searched: their counters go back to what they were before this subproblem. Idempotent,
    // so it runs after every slice and the statistics are right between slices too.
    const int above = pieces - size_;
    auto restore = [&](std::vector<long long>& v, const std::vector<long long>& before) {
        for (size_t r = above + 1; r < v.size() && r < before.size(); ++r) v[r] = before[r];
    };
    SolverStats::forEachLevelCounter(stats, statsBefore_, restore);
    if (done && followed_ < size_ && error_.empty())
        error_ = "the subproblem's path is not a path of this search (a level on it was a dead end)";
}

double SubproblemGuide::treeFractionDone(const Position& at) const {
    double done = 0, weight = 1;
    for (int d = 0; d <= at.depth; ++d) {
        const Frame& f = at.frames[d];
        if (f.stage == Frame::kFila) {
            done += weight * at.fila->fractionDone();
            break;
        }
        if (f.stage != Frame::kNext && f.stage != Frame::kReturn) break;  // the top level has not chosen yet
        if (d < size_) continue;                                          // a path level: its one choice
        // The column's own list stays whole while it is covered: its rows are the choices.
        int index = 0, n = 0;
        for (int node = at.dlx.down(f.col); node != f.col; node = at.dlx.down(node), ++n)
            if (node == f.node) index = n;
        if (f.node == f.col) index = n;
        // kReturn below the top: f.node's subtree is in progress; at the top it has just ended.
        if (f.stage == Frame::kReturn && d == at.depth) ++index;
        if (n == 0) break;
        done += weight * index / n;
        weight /= n;
    }
    return std::min(1.0, done);
}

int SubproblemGuide::donate(const Position& at, SolverStats& stats, std::vector<std::vector<int>>& out, double* share,
                            int maxPaths, Cut& cut) {
    double weight = 1;  // of the level's whole list, as in treeFractionDone
    double given = 0;
    // The shallowest level with untried siblings: the biggest pieces of work (work stealing
    // takes from the top of the tree, so a few donations keep every thread busy).
    for (int d = 0; d <= at.depth; ++d) {
        const Frame& f = at.frames[d];
        if (f.stage == Frame::kFila) {
            // FILA's paths begin with the root it followed, if it did.
            const std::vector<int> prefix(at.placed.begin(), at.placed.begin() + d - at.filaFollowed);
            double filaShare = 0;
            const int n = at.fila->donate(prefix, out, &filaShare);
            given = weight * filaShare;
            donatedShare_ += given;
            if (share) *share = given;
            return n;
        }
        // kNext: f.node is next (not yet placed); kReturn: f.node is placed. Either way
        // the untried rows are those after it, up to f.stop.
        const bool open = f.stage == Frame::kNext || f.stage == Frame::kReturn;
        int rows = 0;
        if (open && d >= size_)
            for (int node = at.dlx.down(f.col); node != f.col; node = at.dlx.down(node)) ++rows;
        if (!open || f.node == f.stop) {
            if (open && rows > 0) weight /= rows;
            continue;
        }
        const int remaining = at.pieces - d;
        // The last maxPaths untried rows go; this search stops before the first of them.
        int untried = 0;
        for (int node = at.dlx.down(f.node); node != f.stop; node = at.dlx.down(node)) ++untried;
        int first = at.dlx.down(f.node);
        for (int skip = untried - std::max(1, maxPaths); skip > 0; --skip) first = at.dlx.down(first);
        int n = 0;
        for (int node = first; node != f.stop; node = at.dlx.down(node)) {
            std::vector<int> path(at.placed.begin(), at.placed.begin() + d);
            path.push_back(at.dlx.imageOfRow(at.dlx.rowOf(node)));
            out.push_back(std::move(path));
            // Counted as kNext would have (a DLX row in the column fits: attempt and fit).
            stats.attempts[remaining]++;
            stats.fits[remaining]++;
            ++n;
        }
        if (n > 0) {
            cut.level = d;
            cut.stop = first;
            given = rows > 0 ? weight * n / rows : 0;
            donatedShare_ += given;
            if (share) *share = given;
            return n;
        }
        if (rows > 0) weight /= rows;
    }
    return 0;
}

}  // namespace polycube
