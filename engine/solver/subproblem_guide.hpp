// The subproblem guide: what turns one Solver's search into a piece of a shared tree
// (engine/parallel/: several threads, workers or machines). A subproblem is a path from the
// root (image ids placed at the first levels); the guide holds it, steers the DLX driver down
// it level by level (and FILA, when the path goes on below FILA's start), gives untried
// siblings away (donate), and weighs how much of the tree is done (fractionDone).
//
//   SubproblemGuide guide;
//   if (Status st = SubproblemGuide::check(path, pieces, imageCount); !st.ok) return st;
//   guide.begin(path, stats);                       // the solver at rest
//   ... in the driver, at a level's choice:  if (guide.onPath(depth)) guide.follow(frame, dlx, depth);
//   ... after each slice:                    guide.endSlice(stats, pieces, done);
//   ... between slices:                      guide.donate(position, stats, out, &share, maxPaths, cut);
//
// It owns the path and its bookkeeping only; the search's stack, matrix and FILA engine are
// the driver's, read through SubproblemGuide::Position between slices. onPath() is the one
// call in the driver's loop: inline, a comparison.
#pragma once
#include <string>
#include <vector>

#include "common/status.hpp"
#include "search/dlx.hpp"
#include "search/fila.hpp"
#include "solver/search_frame.hpp"
#include "solver/solver_stats.hpp"

namespace polycube {

class SubproblemGuide {
public:
    using Frame = solver_parts::Frame;

    // The search as the guide sees it between slices: the driver's stack down to `depth`,
    // the matrix, FILA (null when not configured) and the images placed so far. `filaFollowed`
    // counts FILA's levels that the driver placed too (FILA started at the root's region).
    struct Position {
        const std::vector<Frame>& frames;
        int depth;
        const DlxMatrix& dlx;
        FilaEngine* fila;
        const std::vector<int>& placed;
        int filaFollowed;
        int pieces;
    };

    // A path a puzzle of `pieces` pieces and `imageCount` images can hold (not yet whether
    // the search can follow it: that shows when it does).
    static Status check(const std::vector<int>& path, int pieces, int imageCount);
    // Follow `path` from now on; `stats` as they are before the subtree, so that the path's
    // replayed levels are not counted twice (endSlice).
    void begin(const std::vector<int>& path, const SolverStats& stats);

    // The level at `depth` is on the path: its one choice is the path's image.
    bool onPath(int depth) const { return depth < size_; }
    bool active() const { return size_ > 0; }
    // A path level: only the path's image of the chosen column (f.col) is tried.
    void follow(Frame& f, const DlxMatrix& dlx, int depth);
    // The rest of the path is on FILA's levels, started at `depth`.
    void followInFila(FilaEngine& fila, int depth);
    // After each slice: the path's levels' counters back to what they were before the
    // subtree, and (the search `done`) a path that ended short of its last level named.
    void endSlice(SolverStats& stats, int pieces, bool done);

    // The share of this search's tree that is done, by Knuth's weighted backtrack estimate
    // (Knuth 1975; Kilby, Slaney, Thiebaux, Walsh 2006): at every open level the share of
    // its candidates already searched, weighted by 1/(candidates) of each level above (path
    // levels: 1), FILA's levels included.
    double treeFractionDone(const Position& at) const;
    // Where the driver's level stops after a donation: frames[level].stop = stop (the
    // driver owns its stack; the guide only reads it).
    struct Cut {
        int level = -1;  // -1: no DLX level gave rows (none, or FILA gave them)
        int stop = -1;
    };
    // Give away the untried siblings of the shallowest level that has any (see
    // Solver::donate): counted as tried in `stats`, their share added to donatedShare().
    int donate(const Position& at, SolverStats& stats, std::vector<std::vector<int>>& out, double* share, int maxPaths,
               Cut& cut);

    double donatedShare() const { return donatedShare_; }
    const std::string& error() const { return error_; }

private:
    std::vector<int> path_;
    double donatedShare_ = 0;  // of this search's tree, given away by donate()
    int size_ = 0;             // path_.size(): checked once per DLX level entry
    int followed_ = 0;         // the path's placements made so far
    std::string error_;
    SolverStats statsBefore_;
};

}  // namespace polycube
