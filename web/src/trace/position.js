// What a position of a replayed search offers: for every open cell, how many placements of the
// pieces still off the board could cover it now. The most-constrained-hole rule (MCH, the
// first seed article) fills the cell with the fewest next; a cell with none is a hole that no
// piece can fill, so MCH backs up at once where first-open-cell order (de Bruijn) may go on
// placing pieces around it for thousands of steps (lesson 1).
//
//   const ways = waysToCover(table, player.grid);  // Int32Array per box cell, -1 if not open
//   const pick = mostConstrainedCell(ways);        // {cell, ways} or null when the board is full

/**
 * @param {{offsets: Int32Array, cells: Int32Array, imageShapes: Int32Array, instanceShapes: Int32Array}} table
 *   the image table of the recorded search (worker IMAGE_TABLE)
 * @param {Int32Array} grid piece instance per box cell, -1 where empty (TracePlayer.grid)
 * @returns {Int32Array} per box cell: the placements that fit and cover it (-1: filled or not in the space)
 */
export function waysToCover(table, grid) {
  const { offsets, cells, imageShapes, instanceShapes } = table;
  const ways = new Int32Array(grid.length).fill(-1);
  // pieces still to place, by shape
  const left = new Map();
  instanceShapes.forEach((shape) => { if (shape >= 0) left.set(shape, (left.get(shape) || 0) + 1); });
  const placed = new Set();
  for (const inst of grid) if (inst >= 0) placed.add(inst);
  for (const inst of placed) {
    const shape = instanceShapes[inst];
    if (shape >= 0) left.set(shape, left.get(shape) - 1);
  }
  // the open cells are those some placement covers; the empty ones start at 0 ways
  for (let k = 0; k < cells.length; k++) if (grid[cells[k]] === -1) ways[cells[k]] = 0;
  const images = offsets.length - 1;
  for (let image = 0; image < images; image++) {
    if (!(left.get(imageShapes[image]) > 0)) continue;
    let fits = true;
    for (let k = offsets[image]; k < offsets[image + 1]; k++) if (grid[cells[k]] !== -1) { fits = false; break; }
    if (!fits) continue;
    for (let k = offsets[image]; k < offsets[image + 1]; k++) ways[cells[k]]++;
  }
  return ways;
}

/** The open cell with the fewest ways to be covered (the first such in cell order), or null. */
export function mostConstrainedCell(ways) {
  let best = -1;
  for (let c = 0; c < ways.length; c++) if (ways[c] >= 0 && (best < 0 || ways[c] < ways[best])) best = c;
  return best < 0 ? null : { cell: best, ways: ways[best] };
}
