// Draft checks: what the page's puzzle editor shows next to a puzzle while it is being edited,
// computed without searching.
//
//   std::string j = draftJson(text, "my-puzzle.txt");
//   // {"ok":true,"puzzles":[{<puzzleJson fields>, "checks":{...}}, ...]}
//   // {"ok":false,"error":"my-puzzle.txt:3: ..."}
//
// The text is parsed as a draft (ParseLimits::requireExactCover = false): the pieces' volume may
// differ from the free cells and a puzzle may have no mobile piece yet, so the editor can follow
// text that a search would still refuse. Every other error is reported as the parser reports it.
//
// "checks" of each puzzle:
//   freeCells    cells of the box not taken by stationary pieces (holes included as '*')
//   pieceCells   cells of the mobile pieces, copies included
//   images       per piece (puzzle "pieces" order): the number of places its shape fits in the
//                space (0: fits nowhere), or null for a stationary piece
//   sameShapes   groups of piece indices whose shapes are equal under the allowed rotations
//                (the solver treats them as interchangeable copies)
//   parity       when freeCells == pieceCells: "" or the solver's impossible-by-parity reason
//   impossible   when freeCells == pieceCells and parity is "": "" or the certificate of another
//                cell weighting (constraints/weighting.hpp), as the solver reports it
//   limit        "" or why images were not counted (the draft is too large to analyse quickly)
#pragma once
#include <string>

namespace polycube {

std::string draftJson(const std::string& text, const std::string& sourceName);

}  // namespace polycube
