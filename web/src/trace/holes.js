// "The troublesome hole" (first seed article, Figure 4: the de Bruijn algorithm makes a hole at
// step 2 that cannot be filled, and does not clear it until step 195). For a recorded search:
// each dead end at a cell is traced back to the placement that walled its region in, and forward
// to the removal of that placement (when the hole is finally cleared); the span between them is
// search spent below a position that could never be completed.
import { TRACE_OP } from '../worker/protocol.js';
import { regionOf } from './explain.js';

/** For each PLACE event index, the index of the REMOVE that takes it back (-1: never, in the record). */
export function matchingRemoves(rec) {
  const n = rec.length;
  const d = rec.data; // records of RECORD_INTS ints: op first (a plain loop: 1M events in a few ms)
  const match = new Int32Array(n).fill(-1);
  const stack = new Int32Array(1024);
  let top = 0;
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    const op = d[o];
    if (op === TRACE_OP.PLACE) { if (top < stack.length) stack[top] = i; top++; }
    else if (op === TRACE_OP.REMOVE && top > 0) { top--; if (top < stack.length) match[stack[top]] = i; }
  }
  return match;
}

/** Box cells taken by stationary pieces (never open). */
export function stationaryCells(puzzle) {
  const set = new Set();
  puzzle.instances.forEach((inst) => {
    if (!inst.stationary) return;
    for (const [x, y, z] of puzzle.pieces[inst.piece].cells) set.add(x + puzzle.xDim * (y + puzzle.yDim * z));
  });
  return set;
}

/**
 * The placement that made the hole of a dead end at `cell`, given the placements on the board
 * (oldest first, [{step, instance, image}]): the earliest after which the cell's region was
 * already as small as it is at the dead end. Returns that entry and its position, or null.
 */
export function holeMaker(puzzle, cellsOf, stack, cell, size, holes) {
  const grid = new Int32Array(puzzle.xDim * puzzle.yDim * puzzle.zDim).fill(-1);
  for (let k = 0; k < stack.length; k++) {
    const p = stack[k];
    for (const c of cellsOf(p.image)) grid[c] = p.instance;
    if (grid[cell] === -1 && regionOf(puzzle, grid, holes, cell).length <= size) return { ...p, depth: k };
  }
  return null;
}

/**
 * The most troublesome hole among the first `maxDeadEnds` dead ends at a cell (about 1 s of work
 * for 3,000 on the 10x6 board: it pauses every `pauseEvery` dead ends so the page stays responsive): {made, found,
 * cleared, cell} as event indices (the PLACE that made it, the dead end, the REMOVE that cleared
 * it), with the longest span from made to cleared; null when there is none.
 */
export async function worstHole(puzzle, rec, cellsOf, { maxDeadEnds = 3000, pauseEvery = 150, pause = () => new Promise((r) => setTimeout(r, 0)) } = {}) {
  const match = matchingRemoves(rec);
  const holes = stationaryCells(puzzle);
  const stack = [];
  const grid = new Int32Array(puzzle.xDim * puzzle.yDim * puzzle.zDim).fill(-1);
  let best = null;
  let seen = 0;
  for (let i = 0; i < rec.length && seen < maxDeadEnds; i++) {
    const op = rec.op(i);
    if (op === TRACE_OP.PLACE) {
      const p = { step: i, instance: rec.a(i), image: rec.b(i) };
      stack.push(p);
      for (const c of cellsOf(p.image)) grid[c] = p.instance;
    } else if (op === TRACE_OP.REMOVE) {
      const p = stack.pop();
      if (p) for (const c of cellsOf(p.image)) grid[c] = -1;
    } else if ((op === TRACE_OP.NO_FIT || op === TRACE_OP.DEAD_CELL) && rec.a(i) >= 0) {
      seen++;
      if (seen % pauseEvery === 0) await pause();
      const cell = rec.a(i);
      const size = regionOf(puzzle, grid, holes, cell).length;
      if (size === 0) continue;
      const maker = holeMaker(puzzle, cellsOf, stack, cell, size, holes);
      if (!maker) continue;
      const cleared = match[maker.step];
      const end = cleared < 0 ? rec.length : cleared;
      if (!best || end - maker.step > best.cleared - best.made) best = { made: maker.step, found: i, cleared: end, cell, clearedInRecord: cleared >= 0 };
    }
  }
  return best;
}
