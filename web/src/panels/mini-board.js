// A small flat drawing of a board position on a canvas (the watch panel's side-by-side
// comparison): each cell in its piece's colour, empty cells a shade lighter than the card with
// an outline (at step 0 every cell is empty: drawn in the card's own colour, the boards had
// looked blank), closed cells grey, the level's target cell framed. A 3-D box is drawn as its layers side by side, bottom first.
// With `coords`, the column letters under the board and the row numbers left of it (and each
// layer's number over it), as cells are named in words (lesson/cell-names.js).
//
//   drawMiniBoard(canvas, puzzle, grid, colourOfInstance, { target, width: 150, coords: true });
import { STATIONARY_COLOR } from '../viewer/colors.js';
import { edgeLabels } from '../lesson/cell-names.js';

const GAP = 4; // pixels between layers
// Empty cells: lighter than the watch card (styles.css --card #182135), so an empty board shows.
const EMPTY_FILL = '#26304a';
const EMPTY_EDGE = '#3e4c72';

/**
 * @param {HTMLCanvasElement} canvas
 * @param {{xDim:number, yDim:number, zDim:number}} puzzle
 * @param {Int32Array} grid instance per box cell, -1 where empty
 * @param {(instance:number) => string} colourOf CSS colour of a piece instance
 * @param {{target?: number, closed?: Set<number>, width?: number}} opts
 */
export function drawMiniBoard(canvas, puzzle, grid, colourOf, { target = -1, closed = new Set(), width = 150, coords = false } = {}) {
  const { xDim, yDim, zDim } = puzzle;
  // room for the coordinates: a margin left, one under, and (a box) one over for the layers
  const font = coords ? Math.max(9, Math.min(14, Math.floor((width - GAP * (zDim - 1)) / (xDim * zDim) * 0.55))) : 0;
  const left = coords ? font * 1.6 : 0, under = coords ? font * 1.5 : 0, over = coords && zDim > 1 ? font * 1.5 : 0;
  const size = Math.max(2, Math.floor((width - left - GAP * (zDim - 1)) / (xDim * zDim)));
  const w = left + size * xDim * zDim + GAP * (zDim - 1), h = over + size * yDim + under;
  const dpr = (typeof window !== 'undefined' && window.devicePixelRatio) || 1;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
    canvas.style.width = `${w}px`;
    canvas.style.height = `${h}px`;
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const origin = (cell) => {
    const x = cell % xDim, y = Math.floor(cell / xDim) % yDim, z = Math.floor(cell / (xDim * yDim));
    return [left + z * (xDim * size + GAP) + x * size, over + (yDim - 1 - y) * size]; // y up, as in the 3-D view
  };
  for (let c = 0; c < grid.length; c++) {
    const [px, py] = origin(c);
    const empty = !closed.has(c) && grid[c] < 0;
    ctx.fillStyle = closed.has(c) ? STATIONARY_COLOR : empty ? EMPTY_FILL : colourOf(grid[c]);
    ctx.fillRect(px + 0.5, py + 0.5, size - 1, size - 1);
    if (empty && size >= 4) {
      ctx.strokeStyle = EMPTY_EDGE;
      ctx.lineWidth = 1;
      ctx.strokeRect(px + 1, py + 1, size - 2, size - 2);
    }
  }
  if (coords) drawCoordinates(ctx, puzzle, { left, over, size, font });
  if (target >= 0 && target < grid.length) {
    const [px, py] = origin(target);
    ctx.strokeStyle = '#ffd23f';
    ctx.lineWidth = 2;
    ctx.strokeRect(px + 1, py + 1, size - 2, size - 2);
  }
}

/** The column letters under each layer, the row numbers left of the first, the layers' numbers over them. */
function drawCoordinates(ctx, puzzle, { left, over, size, font }) {
  const { xDim, yDim, zDim } = puzzle;
  const { columns, rows, layers } = edgeLabels(puzzle);
  ctx.font = `600 ${font}px system-ui, sans-serif`;
  ctx.fillStyle = '#9aa8c2';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const bottom = over + size * yDim;
  for (let z = 0; z < zDim; z++) {
    const x0 = left + z * (xDim * size + GAP);
    columns.forEach((t, x) => ctx.fillText(t, x0 + (x + 0.5) * size, bottom + font * 0.8));
    if (layers.length) ctx.fillText(layers[z], x0 + (xDim * size) / 2, over / 2);
  }
  rows.forEach((t, y) => ctx.fillText(t, left / 2, over + (yDim - 1 - y + 0.5) * size));
}
