// Words and places for trace events: what a step of the search did, in plain language, and
// which cells it concerns (for the page to highlight). Pure functions of the puzzle and events.
import { TRACE_FILTER_WORD as FILTERS, TRACE_OP } from '../worker/protocol.js';
import { plural } from '../app/format.js';
import { cellName } from '../lesson/cell-names.js';

// cells are named by the coordinates drawn on the board's edges (lesson/cell-names.js)
export { cellName };

export function targetName(puzzle, target) {
  if (target >= 0) return cellName(puzzle, target);
  const inst = puzzle.instances[-1 - target];
  return `piece ${inst ? inst.name : '?'}`;
}

const pieceName = (puzzle, instance) => (puzzle.instances[instance] ? puzzle.instances[instance].name : '?');

/** What a level does to its target: a cell is filled, a piece (target < 0) is placed. */
export const targetVerb = (target) => (target >= 0 ? 'fill' : 'place');

/** One sentence for an event. */
export function describe(puzzle, ev) {
  if (!ev) return 'The start: an empty board.';
  // ev.remaining (engine/search/trace.hpp): pieces left to place at the event's level, before its
  // placement -- so a kPlace leaves one fewer, and a kChoose is made with all of them still to place
  const toPlace = `${plural(ev.remaining, 'piece')} left to place`;
  const target = () => targetName(puzzle, ev.a);
  switch (ev.op) {
    case TRACE_OP.PLACE: {
      const after = ev.remaining - 1;
      return `Place ${pieceName(puzzle, ev.a)} (${after > 0 ? `${plural(after, 'piece')} left to place` : 'the last piece'}).`;
    }
    case TRACE_OP.REMOVE: return `Take ${pieceName(puzzle, ev.a)} back.`;
    case TRACE_OP.CHOOSE: return `Choose ${target()}: ${ev.b} way${ev.b === 1 ? '' : 's'} to ${targetVerb(ev.a)} it (${toPlace}).`;
    case TRACE_OP.CANDIDATE: return `Candidate: ${pieceName(puzzle, ev.a)}.`;
    case TRACE_OP.SOLUTION: return ev.a > 0 ? `Solution ${ev.a}!` : 'All pieces placed, but this is a turned copy of a solution already counted.';
    case TRACE_OP.NO_FIT: return ev.a >= 0 ? `Dead end: no piece fits ${target()}.` : `Dead end: ${target()} fits nowhere.`;
    // (b: the ways the level offered, all tried now: said in words, as a bare "(4)" reads as a riddle)
    case TRACE_OP.EXHAUSTED: return ev.b === 1
      ? `Dead end: the only way to ${targetVerb(ev.a)} ${target()} has been tried.`
      : `Dead end: all ${ev.b} ways to ${targetVerb(ev.a)} ${target()} have been tried.`;
    case TRACE_OP.PARITY_TRIGGER: return 'Dead end by parity: the pieces left cannot match the checkerboard colours of the holes.';
    case TRACE_OP.VOLUME_TRIGGER: return `Dead end by volume: a region of ${plural(ev.b, 'cell')} that no combination of the pieces left can fill.`;
    case TRACE_OP.DEAD_CELL: return `Dead end: ${cellName(puzzle, ev.a)} is walled in.`;
    case TRACE_OP.FILTER_EMPTIED: return `Dead end: the ${FILTERS[ev.b] || ''} filter left no way to ${targetVerb(ev.a)} ${target()}.`;
    default: return `Step of kind ${ev.op}.`;
  }
}

/** A short label for a dead end, drawn on the board ('' for other events). */
export function deadEndLabel(ev) {
  switch (ev && ev.op) {
    case TRACE_OP.NO_FIT: return 'nothing fits here';
    case TRACE_OP.EXHAUSTED: return 'all tried';
    case TRACE_OP.PARITY_TRIGGER: return 'parity';
    case TRACE_OP.VOLUME_TRIGGER: return `region of ${ev.b}`;
    case TRACE_OP.DEAD_CELL: return 'walled in';
    case TRACE_OP.FILTER_EMPTIED: return 'filtered out';
    default: return '';
  }
}

/** Open cells of the region containing `cell` on a board (grid: -1 open; holes: Set of box cells). */
export function regionOf(puzzle, grid, holes, cell) {
  const { xDim: X, yDim: Y, zDim: Z } = puzzle;
  const n = X * Y * Z;
  if (scratch.seen.length < n) scratch = { seen: new Uint32Array(n), stack: new Int32Array(n), stamp: 0 };
  const { seen, stack } = scratch;
  const stamp = ++scratch.stamp;
  const open = (c) => grid[c] === -1 && !holes.has(c);
  if (!open(cell)) return [];
  const out = [cell];
  seen[cell] = stamp;
  let top = 0;
  stack[top++] = cell;
  const visit = (c) => {
    if (seen[c] !== stamp && open(c)) { seen[c] = stamp; stack[top++] = c; out.push(c); }
  };
  while (top > 0) {
    const c = stack[--top];
    const x = c % X, y = Math.floor(c / X) % Y, z = Math.floor(c / (X * Y));
    if (x > 0) visit(c - 1);
    if (x < X - 1) visit(c + 1);
    if (y > 0) visit(c - X);
    if (y < Y - 1) visit(c + X);
    if (z > 0) visit(c - X * Y);
    if (z < Z - 1) visit(c + X * Y);
  }
  return out;
}

// reused by regionOf: a visit stamp per cell (no allocation per call) and the flood-fill stack
let scratch = { seen: new Uint32Array(0), stack: new Int32Array(0), stamp: 0 };
