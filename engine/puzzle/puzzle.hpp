// Puzzle definitions: what a definition file says, before any search structure is built.
//
//   ParseResult r = parseDefinitions(text, "tetris.txt");
//   if (!r.ok()) { std::cerr << r.error.format() << '\n'; return 1; }
//   for (const PuzzleDef& p : r.puzzles) ...
//
// Piece instances: a PieceDef with count N stands for N interchangeable copies. Everything
// that numbers pieces (solutions, the checker, the web page) uses instanceIndex order:
// definition order, each PieceDef expanded to `count` consecutive instances.
#pragma once
#include <string>
#include <vector>

#include "geometry/geometry.hpp"

namespace polycube {

struct PieceDef {
    std::string name;
    bool stationary = false;
    Cells cells;    // stationary: absolute box coordinates; mobile: as written (shape only matters)
    int count = 1;  // extension `count=N`: N interchangeable copies
    int line = 0;   // 1-based line of the C directive or the L block
};

struct PuzzleDef {
    std::string source;  // file name or "<stdin>"
    int line = 0;        // line of the D directive
    std::string title;   // first non-empty line of the nearest block of comment lines before the D directive (may be empty)
    int xDim = 0, yDim = 0, zDim = 0;
    bool oneSide = false;
    std::vector<PieceDef> pieces;  // in definition order

    int boxVolume() const { return xDim * yDim * zDim; }
    int mobileVolume() const;
    int stationaryVolume() const;
    int instanceCount() const;  // sum of counts
};

// One entry per piece instance, in instanceIndex order.
struct PieceInstanceRef {
    int defIndex;  // index into PuzzleDef::pieces
    int copy;      // 0..count-1
};
std::vector<PieceInstanceRef> expandInstances(const PuzzleDef& def);

struct ParseError {
    std::string source;
    int line = 0;          // 1-based; 0 when the error is about the whole input
    std::string lineText;  // the offending line as written (may be empty)
    std::string message;
    // "tetris.txt:7: C directive: layout must be a list of x y z triplets\n    C:name=A:layout=1 2"
    std::string format() const;
};

struct ParseResult {
    std::vector<PuzzleDef> puzzles;
    bool failed = false;
    ParseError error;
    bool ok() const { return !failed; }
};

// Limits that keep hostile input from exhausting memory. Exceeding one is a parse error.
// Integers in a definition beyond +-kMaxDefInteger are refused; a title (and a quoted line in
// an error) is cut to kMaxTitleChars characters.
constexpr long kMaxDefInteger = 1000000;
constexpr size_t kMaxTitleChars = 200;

struct ParseLimits {
    int maxDimension = 1000;        // per axis
    long maxBoxVolume = 100000;     // cells
    int maxPieceCells = 10000;      // cells in one piece
    int maxInstances = 5000;        // piece instances in one puzzle
    size_t maxInputBytes = 16u << 20;
    // false for the page's editor drafts: the pieces' volume may differ from the free cells and
    // a puzzle may have no mobile piece yet (a search still needs both; Session::load keeps true).
    bool requireExactCover = true;
};

// Parse every puzzle in `text`. Stops at the first error. Validates what the format
// document requires: syntax, dimensions, piece names, stationary pieces inside the box and
// not overlapping, oneSide only with zDim=1, total piece volume == box volume.
ParseResult parseDefinitions(const std::string& text, const std::string& sourceName,
                             const ParseLimits& limits = ParseLimits{});

}  // namespace polycube
