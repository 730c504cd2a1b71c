// Ordering heuristics and their schedule (the -o option).
//
//   Result<HeuristicSchedule> s = parseSchedule("x:s=20", pieceCount);
//   const Heuristic& h = s.value.at(remainingPieces);   // x while > 20 remain, then s
//   std::vector<double> keys = cellKeys(h, model);      // fixed-order heuristics: smaller first
//
// Heuristics (first seed article, "Ordering Heuristics"; FILA article, "selectFila"):
//   s  fewest fits (Knuth's min-fit; MCH in FILA)       f  first open cell (Fletcher/de Bruijn)
//   e  estimate: fewest open neighbours, then fewest fits (EMCH; FILA only, DLX treats it as s)
//   c  cornered: the first cell (in f's order) with the fewest open neighbours, fits not
//      counted (beyond the articles: e without its costly second step; FILA only, DLX: s)
//   l@a,b,c  smallest a*x+b*y+c*z first; shorthands x y z (l@1,0,0 ...), X Y Z (largest
//            first), xyz (l@1,1,1)
//   a[@deg[,xc,yc]]  counter-clockwise sweep around (xc,yc) starting at deg; A clockwise
//   R[@xc,yc,zc]     farthest from the centre first
// In DLX every heuristic first takes a column with 0 or 1 rows (a dead end or a forced move).
// "First open cell" scans the shortest box dimension fastest (Fletcher's column order on the
// 10x6 board), then the next shortest.
#pragma once
#include <string>
#include <vector>

#include "common/status.hpp"
#include "puzzle/model.hpp"

namespace polycube {

enum class HeuristicKind { Size, First, Estimate, Cornered, Linear, Angular, Radial };

struct Heuristic {
    HeuristicKind kind = HeuristicKind::Size;
    double a = 0, b = 0, c = 0;   // linear coefficients
    double degrees = 0;           // angular start
    bool clockwise = false;
    bool hasCenter = false;
    double xc = 0, yc = 0, zc = 0;
    std::string text;             // as written, for -i output
    // Fixed-order heuristics always pick the first open cell of a precomputed order.
    bool fixedOrder() const { return kind == HeuristicKind::First || kind == HeuristicKind::Linear ||
                                     kind == HeuristicKind::Angular || kind == HeuristicKind::Radial; }
};

struct HeuristicSchedule {
    struct Entry {
        int threshold;  // active when remaining pieces <= threshold (until a smaller entry)
        Heuristic heuristic;
    };
    std::vector<Entry> entries;  // descending thresholds; the first covers every count
    const Heuristic& at(int remaining) const;
    std::string describe() const;
};

Result<Heuristic> parseHeuristic(const std::string& text);
// "H[=N]:H[=N]..." An entry without N applies from the start. Empty text: s throughout.
Result<HeuristicSchedule> parseSchedule(const std::string& text, int pieceCount);
// parseSchedule in two steps: the entries as written (thresholds capped at pieceCount; none
// for empty text), and the schedule of any entries (in descending thresholds, the largest
// covering the start; no entries: s throughout).
Result<std::vector<HeuristicSchedule::Entry>> parseScheduleEntries(const std::string& text, int pieceCount);
HeuristicSchedule makeSchedule(std::vector<HeuristicSchedule::Entry> entries, int pieceCount);
// Per open cell, the heuristic's priority: cells with smaller keys are filled first.
std::vector<double> cellKeys(const Heuristic& h, const Model& model);

}  // namespace polycube
