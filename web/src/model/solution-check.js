// Is a grid (instance index per box cell, as the worker delivers solutions) a real solution of
// a puzzle? Used for solutions that arrive from outside (a share link): only a grid that passes
// is drawn as a solution. Independent of the engine: each mobile instance must cover a set of
// cells with its piece's shape (under the puzzle's rotations), each stationary piece exactly its
// cells, and every cell of the box be covered once.
import { shapeKey } from './puzzle.js';

/**
 * @param {{xDim:number, yDim:number, zDim:number, oneSide?:boolean,
 *          pieces:{name:string, stationary:boolean, cells:number[][]}[],
 *          instances:{piece:number, stationary:boolean}[]}} puzzle the engine's puzzle JSON
 * @param {ArrayLike<number>} grid
 * @returns {string|null} what is wrong, or null for a valid solution
 */
export function solutionGridProblem(puzzle, grid) {
  const { xDim: X, yDim: Y, zDim: Z } = puzzle;
  if (!grid || grid.length !== X * Y * Z) return `the solution has ${grid ? grid.length : 0} cells but the box has ${X * Y * Z}`;
  const cellsOf = puzzle.instances.map(() => []);
  for (let i = 0; i < grid.length; i++) {
    const v = grid[i];
    if (!Number.isInteger(v) || v < 0 || v >= puzzle.instances.length) return `cell ${i} is not covered by a piece of the puzzle`;
    cellsOf[v].push([i % X, Math.floor(i / X) % Y, Math.floor(i / (X * Y))]);
  }
  for (let k = 0; k < puzzle.instances.length; k++) {
    const inst = puzzle.instances[k];
    const piece = puzzle.pieces[inst.piece];
    const cells = cellsOf[k];
    if (inst.stationary) {
      const want = new Set(piece.cells.map((c) => c.join(',')));
      if (cells.length !== want.size || !cells.every((c) => want.has(c.join(',')))) return `the fixed piece ${piece.name} is not where the puzzle puts it`;
    } else if (cells.length !== piece.cells.length || shapeKey(cells, !!puzzle.oneSide) !== shapeKey(piece.cells, !!puzzle.oneSide)) {
      return `the cells given to piece ${piece.name} do not have its shape`;
    }
  }
  return null;
}
