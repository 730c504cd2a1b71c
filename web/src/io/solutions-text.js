// Export of found solutions as JSON, with its parser. (The CLI's text of the same solutions
// is written by the engine itself: Actions.solutionsText, Session::solutionsText.)
//
//   const json = solutionsToJson({puzzle: puzzleJson, definition, options: '-r', solutions});
//   const r = parseSolutionsJson(json);   // {ok: true, value} | {ok: false, error}
//
// `puzzleJson` is the engine's description of the loaded puzzle (Session.puzzleJson, see
// web/src/worker/protocol.js): dimensions and `instances` (names in instance order). A grid is
// what the worker delivers: grid[x + xDim*(y + yDim*z)] = instance index covering the cell
// (-1 for none).
import { LIMITS } from '../model/puzzle.js';

/**
 * @typedef {{xDim: number, yDim: number, zDim: number, instances: {name: string}[]}} EnginePuzzle
 * @typedef {{index: number, grid: ArrayLike<number>}} FoundSolution  index: 1-based number
 */

/**
 * Cells covered by each instance of a grid: [{name, cells: [[x,y,z], ...]}] in instance order
 * (cells in box index order).
 * @param {EnginePuzzle} puzzle
 * @param {ArrayLike<number>} grid
 */
export function instanceCells(puzzle, grid) {
  const { xDim, yDim } = puzzle;
  const pieces = puzzle.instances.map((i) => ({ name: i.name, cells: [] }));
  for (let index = 0; index < grid.length; index++) {
    const inst = grid[index];
    if (!(inst >= 0 && inst < pieces.length)) continue;
    const x = index % xDim;
    const y = Math.floor(index / xDim) % yDim;
    const z = Math.floor(index / (xDim * yDim));
    pieces[inst].cells.push([x, y, z]);
  }
  return pieces;
}

export const SOLUTIONS_FORMAT = 'polycube-solutions';
export const SOLUTIONS_VERSION = 1;

/**
 * The JSON export:
 *   {format: 'polycube-solutions', version: 1,
 *    puzzle: {title, xDim, yDim, zDim, oneSide, definition, instances: [name, ...]},
 *    options: '-r',
 *    solutions: [{index, grid: [...], pieces: [{name, cells: [[x,y,z], ...]}]}]}
 * `definition` is the puzzle's definition text (so the file can be loaded again).
 * @param {{puzzle: EnginePuzzle & {title?: string, oneSide?: boolean}, definition: string,
 *          options: string, solutions: FoundSolution[]}} data
 * @returns {string}
 */
export function solutionsToJson({ puzzle, definition, options, solutions }) {
  const out = {
    format: SOLUTIONS_FORMAT,
    version: SOLUTIONS_VERSION,
    puzzle: {
      title: puzzle.title ?? '',
      xDim: puzzle.xDim,
      yDim: puzzle.yDim,
      zDim: puzzle.zDim,
      oneSide: puzzle.oneSide === true,
      definition,
      instances: puzzle.instances.map((i) => i.name),
    },
    options,
    solutions: solutions.map((s) => ({ index: s.index, grid: Array.from(s.grid), pieces: instanceCells(puzzle, s.grid) })),
  };
  return `${JSON.stringify(out)}\n`;
}

class FormatError extends Error {}
const bad = (message) => {
  throw new FormatError(message);
};

/**
 * Read a JSON export back, checking it completely: types and ranges, every grid of box size
 * with instance indices, and every piece list equal to what its grid says.
 * @param {string} text
 * @returns {{ok: true, value: object} | {ok: false, error: string}}
 */
export function parseSolutionsJson(text) {
  let v;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON: ${e.message}` };
  }
  try {
    if (!v || typeof v !== 'object' || Array.isArray(v)) bad('the file is not a JSON object');
    if (v.format !== SOLUTIONS_FORMAT) bad(`not a solutions file (format is not '${SOLUTIONS_FORMAT}')`);
    if (v.version !== SOLUTIONS_VERSION) bad(`solutions file version ${JSON.stringify(v.version)} is not supported (this page reads version 1)`);
    const p = v.puzzle;
    if (!p || typeof p !== 'object') bad('puzzle is missing');
    for (const k of ['xDim', 'yDim', 'zDim']) if (!Number.isInteger(p[k]) || p[k] < 1 || p[k] > LIMITS.maxDimension) bad(`puzzle.${k} must be a whole number from 1 to ${LIMITS.maxDimension}`);
    const cellCount = p.xDim * p.yDim * p.zDim;
    if (cellCount > LIMITS.maxBoxVolume) bad(`the puzzle box has more than ${LIMITS.maxBoxVolume} cells`);
    if (typeof p.title !== 'string') bad('puzzle.title must be text');
    if (typeof p.definition !== 'string') bad('puzzle.definition must be text');
    if (typeof p.oneSide !== 'boolean') bad('puzzle.oneSide must be true or false');
    if (!Array.isArray(p.instances) || !p.instances.every((n) => typeof n === 'string')) bad('puzzle.instances must be a list of names');
    if (typeof v.options !== 'string') bad('options must be text');
    if (!Array.isArray(v.solutions)) bad('solutions must be a list');
    const puzzle = { xDim: p.xDim, yDim: p.yDim, zDim: p.zDim, instances: p.instances.map((name) => ({ name })) };
    v.solutions.forEach((s, k) => {
      const at = `solutions[${k}]`;
      if (!s || typeof s !== 'object') bad(`${at} is not an object`);
      if (!Number.isSafeInteger(s.index) || s.index < 1) bad(`${at}.index must be a whole number of at least 1`);
      if (!Array.isArray(s.grid) || s.grid.length !== cellCount) bad(`${at}.grid must have ${cellCount} cells`);
      const i = s.grid.findIndex((c) => !Number.isInteger(c) || c < -1 || c >= p.instances.length);
      if (i >= 0) bad(`${at}.grid[${i}] is not an instance index`);
      if (JSON.stringify(s.pieces) !== JSON.stringify(instanceCells(puzzle, s.grid))) bad(`${at}.pieces do not match its grid`);
    });
    return { ok: true, value: v };
  } catch (e) {
    if (e instanceof FormatError) return { ok: false, error: e.message };
    throw e;
  }
}
