// "The troublesome hole" (first seed article, Figure 4: the de Bruijn algorithm makes a hole at
// step 2 that cannot be filled, and does not clear it until step 195). For a recorded search:
// each dead end at a cell is traced back to the placement that walled its region in, and forward
// to the removal of that placement (when the hole is finally cleared); the span between them is
// search spent below a position that could never be completed -- when the recording says so:
// a position below which the board was filled (a solution) was completed, whatever dead ends
// lie below it too, and the end of a level whose choices led to solutions is no hole at all.
import { TRACE_OP } from '../worker/protocol.js';
import { regionOf } from './explain.js';

/**
 * Event i completes the board: the engine's SOLUTION event (also a turned copy of a solution
 * already counted, a = 0: all pieces were placed all the same) or, for engines that do not emit
 * it, the placement of the last piece.
 */
export function isCompletion(rec, i) {
  const op = rec.op(i);
  if (op === TRACE_OP.SOLUTION) return true;
  return op === TRACE_OP.PLACE && rec.remaining(i) === 1 && !(i + 1 < rec.length && rec.op(i + 1) === TRACE_OP.SOLUTION);
}

/** Prefix counts of completions: done[k] = boards filled among the first k events (length n + 1). */
export function completionsBefore(rec) {
  const n = rec.length;
  const done = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) done[i + 1] = done[i] + (isCompletion(rec, i) ? 1 : 0);
  return done;
}

/** The first completion among events [from, to) given the prefix counts, or -1. */
function firstCompletion(done, from, to) {
  if (to <= from || done[to] === done[from]) return -1;
  let lo = from, hi = to - 1; // smallest j in [from, to) with done[j + 1] > done[from]
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (done[mid + 1] > done[from]) hi = mid; else lo = mid + 1;
  }
  return lo;
}

/** The last completion among events [from, to) given the prefix counts, or -1. */
function lastCompletion(done, from, to) {
  if (to <= from || done[to] === done[from]) return -1;
  let lo = from, hi = to - 1; // smallest j in [from, to) with done[j + 1] === done[to]
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (done[mid + 1] === done[to]) hi = mid; else lo = mid + 1;
  }
  return lo;
}

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
 * it), with the longest span from made to cleared among those below which the board was never
 * filled; null when there is none.
 */
export async function worstHole(puzzle, rec, cellsOf, { maxDeadEnds = 3000, pauseEvery = 150, pause = () => new Promise((r) => setTimeout(r, 0)) } = {}) {
  const match = matchingRemoves(rec);
  const done = completionsBefore(rec);
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
      // the board was filled below the maker: a position that was completed is no hole
      if (done[end] > done[maker.step + 1]) continue;
      if (!best || end - maker.step > best.cleared - best.made) best = { made: maker.step, found: i, cleared: end, cell, clearedInRecord: cleared >= 0 };
    }
  }
  return best;
}

// dead ends that concern the region of one cell (ev.a), and can be traced to the step that made it
const AT_CELL = new Set([TRACE_OP.NO_FIT, TRACE_OP.EXHAUSTED, TRACE_OP.DEAD_CELL, TRACE_OP.VOLUME_TRIGGER]);

/**
 * What the dead end the player has just replayed (its current event) says about a hole. The
 * recording's matching removes and completion counts (matchingRemoves, completionsBefore) are
 * passed in, computed once per recording length. Returns {kind, ...}, event indices 0-based:
 *   'none'       the current step is no dead end
 *   'notAtCell'  a dead end about no one cell's region (parity, a filter, a piece to place): {op}
 *   'branchEnd'  every way to fill the target (a cell, or a piece: -1 - instance) was tried and
 *                the board was filled below some of them: the end of a branch after solutions, no
 *                hole. {target, level (its CHOOSE), found, completions, last (the last completion)}
 *   'fromStart'  the region was this small before any piece was placed: {cell, size, found}
 *   'completed'  the region took this shape at `made`, but the board was filled below that
 *                position: {made, found, cleared, clearedInRecord, cell, size, completions, first}
 *   'hole'       the board was never filled below `made` in the recording (clearedInRecord:
 *                nor will be, the placement was taken back): {made, found, cleared, clearedInRecord, cell, size}
 * (a dead end at a cell whose level had no solutions is traced like a hole: 'every way to fill
 * it failed' is a region the position could not complete)
 */
export function explainDeadEnd(puzzle, player, { match, done }) {
  const ev = player.current();
  if (!ev || !(AT_CELL.has(ev.op) || ev.op === TRACE_OP.PARITY_TRIGGER || ev.op === TRACE_OP.FILTER_EMPTIED)) return { kind: 'none' };
  const found = ev.index;
  if (ev.op === TRACE_OP.EXHAUSTED) {
    // the level this dead end closes (the player keeps it to reopen it when stepping back)
    const level = player.closed.get(found);
    if (level && level.at >= 0 && done[found] > done[level.at]) {
      return { kind: 'branchEnd', target: ev.a, level: level.at, found, completions: done[found] - done[level.at], last: lastCompletion(done, level.at, found) };
    }
  }
  if (!AT_CELL.has(ev.op) || ev.a < 0) return { kind: 'notAtCell', op: ev.op };
  const cell = ev.a;
  const holes = stationaryCells(puzzle);
  const size = regionOf(puzzle, player.grid, holes, cell).length;
  // the placements on the board, oldest first
  const stack = [];
  for (let i = 0; i < player.step; i++) {
    const op = player.rec.op(i);
    if (op === TRACE_OP.PLACE) stack.push({ step: i, image: player.rec.b(i), instance: player.rec.a(i) });
    else if (op === TRACE_OP.REMOVE) stack.pop();
  }
  const maker = holeMaker(puzzle, (image) => player.cellsOf(image), stack, cell, size, holes);
  if (!maker) return { kind: 'fromStart', cell, size, found };
  const made = maker.step;
  const removed = made < match.length ? match[made] : -1;
  const cleared = removed < 0 ? player.length : removed;
  const base = { made, found, cleared, clearedInRecord: removed >= 0, cell, size };
  const completions = done[cleared] - done[made + 1];
  if (completions > 0) return { kind: 'completed', ...base, completions, first: firstCompletion(done, made + 1, cleared) };
  return { kind: 'hole', ...base };
}
