// A lesson's script against its recording: where each narrated step of the lesson stands in the
// replay, the numbers its narration quotes ("facts"), and the right answer to its check
// questions. Pure functions of the puzzle, the recording and the replay position, so that the
// words on screen are always computed from the search that is shown, never typed in by hand.
//
//   const positions = resolvePositions(lesson.steps, recording, { hole });  // replay step per lesson step
//   const facts = factsAt({ puzzle, player, table, summary, extra });      // {cell, ways, left, ...}
//   fill('It tried {tried} of {ways} ways.', facts)                        // 'It tried 2 of 9 ways.'
//   fill('a hole of {holeSize|cell}', facts)                              // 'a hole of 1 cell'
//
// Positions (a step's `at`), each searched from the previous step's position:
//   'start' | 'end' | 'same'
//   'hole' | 'holeFound' | 'holeCleared': the troublesome hole (given as `hole`, event indices
//     {made, found, cleared}): the step that made it, the dead end at it, the step that cleared it
//   { find: KIND, nth?: 1, before?: false } the nth event of KIND after the previous position
//     (step = its index + 1; before: the step just before that event)
//   { step: n } a replay step by number
// KINDs: choose, candidate, place, backUp (a piece taken back), deadEnd (any), noFit, allTried,
// solution, volume, parity.
import { TRACE_OP } from '../worker/protocol.js';
import { isDeadEnd } from '../trace/player.js';
import { cellName, targetName } from '../trace/explain.js';
import { mostConstrainedCell, waysToCover } from '../trace/position.js';
import { num, plural } from '../app/format.js';

export const FIND_KINDS = Object.freeze({
  choose: (op) => op === TRACE_OP.CHOOSE,
  candidate: (op) => op === TRACE_OP.CANDIDATE,
  place: (op) => op === TRACE_OP.PLACE,
  backUp: (op) => op === TRACE_OP.REMOVE,
  deadEnd: (op) => isDeadEnd(op),
  noFit: (op) => op === TRACE_OP.NO_FIT,
  allTried: (op) => op === TRACE_OP.EXHAUSTED,
  solution: (op, rec, i) => op === TRACE_OP.SOLUTION && rec.a(i) > 0,
  volume: (op) => op === TRACE_OP.VOLUME_TRIGGER,
  parity: (op) => op === TRACE_OP.PARITY_TRIGGER,
});

export const NAMED_POSITIONS = Object.freeze(['start', 'end', 'same', 'hole', 'holeFound', 'holeCleared']);
const HOLE_EVENTS = { hole: 'made', holeFound: 'found', holeCleared: 'cleared' };

/**
 * The replay step of each lesson step: [{step, found}] (found false: the position was not in the
 * recording, and the step stays where the previous one was). `hole`: the troublesome hole of the
 * recording ({made, found, cleared} as event indices), for the positions 'hole', 'holeFound', 'holeCleared'.
 */
export function resolvePositions(steps, rec, { hole = null } = {}) {
  let at = 0;
  return steps.map((s) => {
    const spec = s.at === undefined ? 'same' : s.at;
    let found = true;
    if (spec === 'start') at = 0;
    else if (spec === 'end') at = rec.length;
    else if (spec === 'same') { /* stays */ } else if (HOLE_EVENTS[spec]) {
      if (hole) at = Math.min(rec.length, hole[HOLE_EVENTS[spec]] + 1);
      else found = false;
    } else if (typeof spec === 'object' && Number.isInteger(spec.step)) {
      at = Math.min(Math.max(0, spec.step), rec.length);
      found = spec.step <= rec.length;
    } else if (typeof spec === 'object' && FIND_KINDS[spec.find]) {
      const test = FIND_KINDS[spec.find];
      let left = spec.nth || 1;
      let i = at;
      for (; i < rec.length; i++) if (test(rec.op(i), rec, i) && --left === 0) break;
      if (i < rec.length) at = spec.before ? i : i + 1;
      else found = false;
    } else found = false;
    return { step: at, found };
  });
}

/**
 * Prefix counts of the positions where the search got stuck: a dead end other than a level
 * whose every way was tried (that one is the search backing up, not a position where nothing
 * fits). stuck[k]: among the first k events.
 */
export function stuckBefore(rec) {
  const stuck = new Int32Array(rec.length + 1);
  for (let i = 0; i < rec.length; i++) {
    const op = rec.op(i);
    stuck[i + 1] = stuck[i] + (isDeadEnd(op) && op !== TRACE_OP.EXHAUSTED ? 1 : 0);
  }
  return stuck;
}

/** Nodes of the search tree after `step` events: the root and one per piece placed. */
export function nodesBefore(summary, step) {
  return 1 + summary.placementsBefore[Math.min(step, summary.steps)];
}

/**
 * The branch the replay is on (the last placement still on the board, down to the removal that
 * takes it back): {placed: pieces placed below it, solves: a board filled below it}, or null at
 * the root. "Will this branch lead to a solution?" is solves.
 */
export function branchBelow(rec, step) {
  let depth = 0;
  let from = -1;
  for (let i = step - 1; i >= 0 && from < 0; i--) {
    const op = rec.op(i);
    if (op === TRACE_OP.REMOVE) depth++;
    else if (op === TRACE_OP.PLACE) {
      if (depth === 0) from = i;
      else depth--;
    }
  }
  if (from < 0) return null;
  let placed = 0;
  let solves = false;
  depth = 0;
  for (let i = from + 1; i < rec.length; i++) {
    const op = rec.op(i);
    if (op === TRACE_OP.SOLUTION) solves = true;
    else if (op === TRACE_OP.PLACE) { placed++; depth++; } else if (op === TRACE_OP.REMOVE && depth-- === 0) break;
  }
  return { placed, solves };
}

/** The cell the recorded search fills next after `step` (its next CHOOSE of a cell), or -1. */
export function nextCell(rec, step) {
  for (let i = step; i < rec.length; i++) {
    const op = rec.op(i);
    if (op === TRACE_OP.CHOOSE) return rec.a(i);
    if (op === TRACE_OP.PLACE || op === TRACE_OP.REMOVE) return -1; // placed without choosing
  }
  return -1;
}

/**
 * The facts a narration may quote, at the player's position. Every value is a number, a
 * boolean or plain text; numbers are written with thousands separators by fill().
 *   ctx: {puzzle, player, table, summary, names?: (cell) => string, extra?: {}}; summary is
 *   trace/summary.js summarise() of the recording, with stuckBefore() as summary.stuckBefore
 */
export function factsAt({ puzzle, player, table, summary, names = null, extra = {} }) {
  const name = names || ((cell) => cellName(puzzle, cell));
  const level = player.levels[player.levels.length - 1] || null;
  const ev = player.current();
  const facts = {
    pieces: puzzle.instances.filter((i) => !i.stationary).length,
    cells: openCount(puzzle),
    step: player.step,
    steps: player.length,
    onBoard: player.depth,
    nodes: nodesBefore(summary, player.step),
    totalNodes: 1 + summary.placements,
    solutions: summary.solutionsBefore[player.step],
    totalSolutions: summary.solutions,
    deadEnds: summary.deadEndsBefore[player.step],
    totalDeadEnds: summary.deadEnds,
  };
  if (summary.stuckBefore) {
    facts.stuck = summary.stuckBefore[player.step];
    facts.totalStuck = summary.stuckBefore[summary.steps];
  }
  if (level) {
    facts.ways = level.count;
    facts.tried = level.tried;
    facts.left = Math.max(0, level.count - level.tried);
    if (level.target >= 0) facts.cell = name(level.target);
    facts.target = level.target >= 0 ? name(level.target) : targetName(puzzle, level.target);
  }
  if (ev && (ev.op === TRACE_OP.PLACE || ev.op === TRACE_OP.REMOVE || ev.op === TRACE_OP.CANDIDATE)) {
    const inst = puzzle.instances[ev.a];
    if (inst) facts.piece = inst.name;
  }
  if (ev && isDeadEnd(ev.op) && ev.a >= 0 && ev.op !== TRACE_OP.PARITY_TRIGGER) facts.deadCell = name(ev.a);
  if (ev && ev.op === TRACE_OP.VOLUME_TRIGGER) facts.region = ev.b;
  if (table && table.imageShapes) {
    const pick = mostConstrainedCell(waysToCover(table, player.grid));
    if (pick) {
      facts.mchCell = name(pick.cell);
      facts.mchWays = pick.ways;
    }
  }
  return { ...facts, ...extra };
}

function openCount(puzzle) {
  let closed = 0;
  puzzle.instances.forEach((inst) => { if (inst.stationary) closed += puzzle.pieces[inst.piece].cells.length; });
  return puzzle.xDim * puzzle.yDim * puzzle.zDim - closed;
}

// {name}, or {name|noun}: the number with its noun, singular or plural ({holeSize|cell}: "1 cell")
const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*)(?:\|([a-z][a-z -]*))?\}/g;

/** The names a text quotes ({name}). */
export const placeholders = (text) => [...String(text).matchAll(PLACEHOLDER)].map((m) => m[1]);

/**
 * The text with each {name} replaced by facts[name] (numbers with separators); a fact the
 * position does not have reads as '?', which the lesson checks (lesson/lessons.js checkLesson)
 * and the tests walk make sure never happens in the page's own lessons.
 */
export function fill(text, facts) {
  return String(text).replace(PLACEHOLDER, (_, key, noun) => {
    const v = facts[key];
    if (v === undefined || v === null) return '?';
    if (typeof v === 'number') return noun ? plural(v, noun) : num(v);
    if (typeof v === 'boolean') return v ? 'yes' : 'no';
    return String(v);
  });
}
