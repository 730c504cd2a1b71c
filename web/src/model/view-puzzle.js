// The puzzle model as the engine describes a parsed puzzle (Session.puzzleJson: pieces with the
// holes as the stationary piece '*' first, and instances), so the viewer and the legend draw a
// puzzle being edited exactly as they draw a loaded one. The order is the definition writer's
// ('*' first, then the pieces in model order), so instance indices agree with the engine's for
// the written text.
import { HOLE_NAME, boxCell } from './puzzle.js';

/** `slots`: the editor's colour slot per piece of `puzzle` (viewer/colors.js carryColourSlots), if any. */
export function viewPuzzle(puzzle, slots = null) {
  const pieces = [];
  if (puzzle.holes.length > 0) {
    pieces.push({ name: HOLE_NAME, stationary: true, count: 1, cells: puzzle.holes.map((h) => boxCell(puzzle, h)) });
  }
  puzzle.pieces.forEach((p, i) => {
    const piece = { name: p.name, stationary: p.stationary, count: p.count, cells: p.cells };
    if (slots && Number.isInteger(slots[i])) piece.colourSlot = slots[i];
    pieces.push(piece);
  });
  const instances = [];
  pieces.forEach((p, i) => {
    for (let k = 0; k < (p.stationary ? 1 : p.count); k++) instances.push({ name: p.name, piece: i, stationary: p.stationary });
  });
  return { title: puzzle.title, xDim: puzzle.xDim, yDim: puzzle.yDim, zDim: puzzle.zDim, oneSide: puzzle.oneSide, pieces, instances };
}
