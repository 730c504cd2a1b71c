// PuzzleDef helpers and instance expansion (the parser lives in parser.cpp).
#include "puzzle/puzzle.hpp"

namespace polycube {

int PuzzleDef::mobileVolume() const {
    long long v = 0;
    for (const PieceDef& p : pieces)
        if (!p.stationary) v += static_cast<long long>(p.cells.size()) * p.count;
    return static_cast<int>(v);
}

int PuzzleDef::stationaryVolume() const {
    long long v = 0;
    for (const PieceDef& p : pieces)
        if (p.stationary) v += static_cast<long long>(p.cells.size()) * p.count;
    return static_cast<int>(v);
}

int PuzzleDef::instanceCount() const {
    int n = 0;
    for (const PieceDef& p : pieces) n += p.count;
    return n;
}

std::vector<PieceInstanceRef> expandInstances(const PuzzleDef& def) {
    std::vector<PieceInstanceRef> out;
    out.reserve(static_cast<size_t>(def.instanceCount() > 0 ? def.instanceCount() : 0));
    for (int i = 0; i < static_cast<int>(def.pieces.size()); ++i)
        for (int c = 0; c < def.pieces[i].count; ++c) out.push_back({i, c});
    return out;
}

}  // namespace polycube
