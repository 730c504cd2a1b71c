// Cells named by the coordinates drawn on the board's edges, as on a chessboard: columns by
// letters from the left (A, B, ... Z, AA, AB, ...), rows by numbers from the bottom (the views
// draw y up, row 1 nearest the viewer), and the layers of a box by numbers from the bottom.
// The words of the replay (trace/explain.js), the board's edge labels (viewer/watch-layer.js,
// panels/mini-board.js) and the lessons all name cells through here, so a name on screen is
// always one a person can find on the board.
//
//   cellCoords(puzzle, 14)      // {x: 2, y: 2, z: 0} (puzzle: {xDim, yDim, zDim})
//   cellLabel(puzzle, 14)       // 'C3'   ('C3 in layer 2' in a box)
//   squareLabel(puzzle, 14)     // 'C3'   (without the layer)
//   cellName(puzzle, 14)        // 'cell C3'
//   columnLabel(27)             // 'AB'
//   rowLabel(0)                 // '1'
//   layerLabel(1)               // 'layer 2'
//   edgeLabels(puzzle)          // {columns: ['A', ...], rows: ['1', ...], layers: ['layer 1', ...]}

/** The letters of column x (0-based), spreadsheet style: A..Z, AA..AZ, BA, ... */
export function columnLabel(x) {
  let n = Math.floor(x);
  if (!(n >= 0)) return '?';
  let out = '';
  do {
    out = String.fromCharCode(65 + (n % 26)) + out;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return out;
}

/** The number of row y (0-based, from the bottom). */
export const rowLabel = (y) => String(Math.floor(y) + 1);

/** The words of layer z (0-based, from the bottom). */
export const layerLabel = (z) => `layer ${Math.floor(z) + 1}`;

/** Box coordinates of a cell index (x + xDim * (y + yDim * z), engine/search/trace.hpp). */
export function cellCoords(puzzle, cell) {
  const { xDim, yDim } = puzzle;
  return { x: cell % xDim, y: Math.floor(cell / xDim) % yDim, z: Math.floor(cell / (xDim * yDim)) };
}

/** 'B3', or 'B3 in layer 2' in a box of more than one layer. */
export function cellLabel(puzzle, cell) {
  if (!Number.isInteger(cell) || cell < 0 || cell >= puzzle.xDim * puzzle.yDim * puzzle.zDim) return '?';
  const { z } = cellCoords(puzzle, cell);
  const square = squareLabel(puzzle, cell);
  return puzzle.zDim > 1 ? `${square} in ${layerLabel(z)}` : square;
}

/** 'B3' whatever the layer (where the layer is said apart, as over a layer's columns). */
export function squareLabel(puzzle, cell) {
  const { x, y } = cellCoords(puzzle, cell);
  return `${columnLabel(x)}${rowLabel(y)}`;
}

/** 'cell B3' (in a sentence). */
export const cellName = (puzzle, cell) => `cell ${cellLabel(puzzle, cell)}`;

/** The labels along the edges: one per column, row and (in a box) layer, in coordinate order. */
export function edgeLabels(puzzle) {
  const seq = (n, f) => Array.from({ length: n }, (_, i) => f(i));
  return {
    columns: seq(puzzle.xDim, columnLabel),
    rows: seq(puzzle.yDim, rowLabel),
    layers: puzzle.zDim > 1 ? seq(puzzle.zDim, layerLabel) : [],
  };
}
