#include "search/dlx.hpp"

#include <algorithm>
#include <climits>

#include "search/heuristics.hpp"

namespace polycube {

namespace {
// A circular doubly linked list: head, then `order`, then back to head.
void linkCircular(std::vector<int>& next, std::vector<int>& prev, int head, const std::vector<int>& order) {
    int last = head;
    for (int n : order) {
        next[last] = n;
        prev[n] = last;
        last = n;
    }
    next[last] = head;
    prev[head] = last;
}
}  // namespace

void DlxMatrix::build(const Model& m, const std::vector<char>& enabled) {
    begin(m, enabled);
    while (!buildSome(m, enabled, 1LL << 40)) {
    }
}

void DlxMatrix::begin(const Model& m, const std::vector<char>& enabled) {
    cellColumns_ = m.openCellCount();
    columns_ = cellColumns_ + m.shapeCount();
    // The header list's order breaks chooseColumn's ties (the first of equally good columns
    // wins): the cells in the order "first open cell" fills the box (shortest dimension
    // fastest), then the shapes by their canonical cells. Ties then follow neither the cell
    // numbering (x fastest) nor the file's piece order, so the same puzzle written another
    // way branches the same way (by cell ids, a 10x5 board of tetrominoes and pentominoes
    // takes 2x the placements of the same board written 5x10: -r's kept images make the
    // corners unequal, and a tie between two of them would go by cell id).
    Heuristic first;
    first.kind = HeuristicKind::First;
    const std::vector<double> fill = cellKeys(first, m);
    std::vector<int> order(columns_);
    for (int c = 0; c < columns_; ++c) order[c] = c;
    std::stable_sort(order.begin(), order.begin() + cellColumns_, [&](int a, int b) { return fill[a] < fill[b]; });
    std::stable_sort(order.begin() + cellColumns_, order.end(), [&](int a, int b) {
        return m.shapes[a - cellColumns_].cells < m.shapes[b - cellColumns_].cells;
    });
    left_.resize(columns_ + 1);
    right_.resize(columns_ + 1);
    linkCircular(right_, left_, columns_, order);  // columns_: the root
    len_.assign(columns_, 0);
    count_.assign(columns_, 1);
    for (int s = 0; s < m.shapeCount(); ++s) count_[cellColumns_ + s] = m.shapes[s].count;

    // Exact sizes up front: growing by doubling would hold old and new arrays at once (the
    // peak memory of a big matrix, 1.5x its size).
    size_t rows = 0, nodes = columns_;
    for (size_t i = 0; i < m.images.size(); ++i)
        if (enabled[i]) rows++, nodes += m.images[i].cells.size() + 1;
    // Reserved for every node at once; each buildSome chunk extends them by what it writes,
    // then writes in place. (Sized all at once, the zero-filling of a big matrix's fresh pages
    // would be one long unit: over 100 ms for the 12 million nodes of tests/hostile/random100.txt.)
    for (auto* v : {&up_, &down_, &colOfNode_, &rowOfNode_}) {
        v->clear();
        v->shrink_to_fit();
        v->reserve(nodes);
        v->resize(columns_);
    }
    for (int c = 0; c < columns_; ++c) {
        up_[c] = down_[c] = c;
        colOfNode_[c] = c;
        rowOfNode_[c] = -1;
    }
    builtNodes_ = columns_;
    imageOfRow_.clear();
    imageOfRow_.reserve(rows);
    rowStart_.clear();
    rowStart_.reserve(rows + 1);
    rowOfImage_.assign(m.images.size(), -1);
    nextImage_ = 0;
}

bool DlxMatrix::buildSome(const Model& m, const std::vector<char>& enabled, long long work) {
    // This chunk: the images [nextImage_, chunkEnd) and the nodes they write, their cells and
    // shape nodes (within what begin() reserved, so the arrays do not move and the pointers
    // below stay valid).
    const int images = static_cast<int>(m.images.size());
    int chunkEnd = nextImage_;
    size_t chunkNodes = 0;
    for (; chunkEnd < images && work > 0; ++chunkEnd) {
        if (!enabled[chunkEnd]) continue;
        chunkNodes += m.images[chunkEnd].cells.size() + 1;
        work -= static_cast<long long>(m.images[chunkEnd].cells.size()) + 1;
    }
    for (auto* v : {&up_, &down_, &colOfNode_, &rowOfNode_}) v->resize(static_cast<size_t>(builtNodes_) + chunkNodes);
    int* const up = up_.data();
    int* const down = down_.data();
    int* const colOfNode = colOfNode_.data();
    int* const rowOfNode = rowOfNode_.data();
    int* const len = len_.data();
    int node = builtNodes_;
    auto append = [&](int col, int row) {  // at the bottom of column col
        up[node] = up[col];
        down[node] = col;
        down[up[col]] = node;
        up[col] = node;
        colOfNode[node] = col;
        rowOfNode[node] = row;
        len[col]++;
        ++node;
    };
    for (; nextImage_ < chunkEnd; ++nextImage_) {
        const int i = nextImage_;
        if (!enabled[i]) continue;
        int row = static_cast<int>(imageOfRow_.size());
        imageOfRow_.push_back(i);
        rowOfImage_[i] = row;
        rowStart_.push_back(node);
        for (int cell : m.images[i].cells) append(cell, row);
        append(cellColumns_ + m.images[i].shape, row);
    }
    builtNodes_ = node;
    if (nextImage_ < images) return false;
    rowStart_.push_back(node);
    return true;
}

int DlxMatrix::chooseColumn(const std::vector<int>& rank) const {
    int best = -1, forced = -1;
    int bestRank = INT_MAX, bestLen = INT_MAX;
    for (int c = right_[columns_]; c != columns_; c = right_[c]) {
        const int l = len_[c];
        if (c >= cellColumns_) {
            const int need = count_[c];
            if (l < need) return -1;  // not enough images left for the copies
            if (need > 1) continue;   // never branch on a shape with several copies left
        } else if (l == 0) {
            return -1;
        }
        if (l == 1) {  // a forced move; keep scanning in case some column is dead
            if (forced < 0) forced = c;
            continue;
        }
        const int r = rank[c];
        if (r == INT_MAX) continue;  // this heuristic takes such columns only when forced
        if (r < bestRank || (r == bestRank && l < bestLen)) {
            best = c;
            bestRank = r;
            bestLen = l;
        }
    }
    return forced >= 0 ? forced : best;
}

void DlxMatrix::unlinkRowExcept(int node) {
    const int row = rowOfNode_[node];
    for (int j = rowStart_[row], end = rowStart_[row + 1]; j < end; ++j) {
        if (j == node) continue;
        up_[down_[j]] = up_[j];
        down_[up_[j]] = down_[j];
        len_[colOfNode_[j]]--;
    }
}

void DlxMatrix::relinkRowExcept(int node) {
    const int row = rowOfNode_[node];
    for (int j = rowStart_[row + 1] - 1, begin = rowStart_[row]; j >= begin; --j) {
        if (j == node) continue;
        len_[colOfNode_[j]]++;
        up_[down_[j]] = j;
        down_[up_[j]] = j;
    }
}

void DlxMatrix::cover(int col) {
    right_[left_[col]] = right_[col];
    left_[right_[col]] = left_[col];
    for (int i = down_[col]; i != col; i = down_[i]) unlinkRowExcept(i);
}

void DlxMatrix::uncover(int col) {
    for (int i = up_[col]; i != col; i = up_[i]) relinkRowExcept(i);
    right_[left_[col]] = col;
    left_[right_[col]] = col;
}

void DlxMatrix::coverChosen(int col) {
    // Cell columns and shape columns with one copy left are covered completely.
    if (--count_[col] == 0) cover(col);
}

void DlxMatrix::uncoverChosen(int col) {
    if (count_[col]++ == 0) uncover(col);
}

void DlxMatrix::selectRow(int node) {
    const int row = rowOfNode_[node];
    for (int j = rowStart_[row], end = rowStart_[row + 1]; j < end; ++j) {
        if (j == node) continue;
        const int col = colOfNode_[j];
        // A shape column with copies left stays in the matrix; this row already left it
        // when the chosen column was covered.
        if (--count_[col] == 0) cover(col);
    }
}

void DlxMatrix::unselectRow(int node) {
    const int row = rowOfNode_[node];
    for (int j = rowStart_[row + 1] - 1, begin = rowStart_[row]; j >= begin; --j) {
        if (j == node) continue;
        const int col = colOfNode_[j];
        if (count_[col]++ == 0) uncover(col);
    }
}

void DlxMatrix::hideRow(int row) {
    for (int j = rowStart_[row], end = rowStart_[row + 1]; j < end; ++j) {
        up_[down_[j]] = up_[j];
        down_[up_[j]] = down_[j];
        len_[colOfNode_[j]]--;
    }
}

void DlxMatrix::unhideRow(int row) {
    for (int j = rowStart_[row + 1] - 1, begin = rowStart_[row]; j >= begin; --j) {
        len_[colOfNode_[j]]++;
        up_[down_[j]] = j;
        down_[up_[j]] = j;
    }
}

bool DlxMatrix::rowLeavesDeadColumn(int row) {
    hideRow(row);
    const int begin = rowStart_[row], end = rowStart_[row + 1];
    for (int j = begin; j < end; ++j)
        if (--count_[colOfNode_[j]] == 0) cover(colOfNode_[j]);
    bool dead = false;
    for (int c = right_[columns_]; c != columns_ && !dead; c = right_[c]) dead = len_[c] < count_[c];
    for (int j = end - 1; j >= begin; --j)
        if (count_[colOfNode_[j]]++ == 0) uncover(colOfNode_[j]);
    unhideRow(row);
    return dead;
}

bool DlxMatrix::rowLive(int row) const {
    const int shapeNode = rowStart_[row + 1] - 1;
    const int col = colOfNode_[shapeNode];
    if (count_[col] == 0) return false;
    // Linked iff its neighbours point back at it.
    return down_[up_[shapeNode]] == shapeNode;
}

void DlxMatrix::shuffle(std::mt19937_64& rng) {
    std::vector<int> nodes;
    for (int c = 0; c < columns_; ++c) {
        nodes.clear();
        for (int n = down_[c]; n != c; n = down_[n]) nodes.push_back(n);
        // Fisher-Yates on the generator's raw 64-bit output, not std::shuffle: libstdc++ (the
        // CLI) and libc++ (the WebAssembly build) implement std::shuffle differently, so one
        // seed gave other Monte Carlo trials in the browser than on the command line. The
        // modulo bias (column sizes are tiny next to 2^64) is negligible.
        for (size_t i = nodes.size(); i > 1; --i) std::swap(nodes[i - 1], nodes[rng() % i]);
        linkCircular(down_, up_, c, nodes);
    }
}

}  // namespace polycube
