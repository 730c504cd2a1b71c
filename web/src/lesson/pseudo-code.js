// The algorithms as a dozen lines of plain pseudo-code each, and which line a step of a replayed
// search executes: the plain recursive backtrack, de Bruijn's first empty cell, the most
// constrained cell (MCH), its estimate (EMCH) and Knuth's dancing links (DLX: choose a
// column, cover, for each row, recurse, uncover). Every trace event (engine/search/trace.hpp)
// is the work of one line, so the line lit and the animation meet at every step, forwards and
// backwards; the variables beside it (what is being filled, the ways left, the pieces placed)
// are read from the replay's state (trace/player.js).
//
//   const code = codeFor('dlx', { checks: usesChecks(recording) });  // {key, title, lines: [{id, text, depth}]}
//   const at = explainStep('dlx', player, puzzle);   // {line, loop, vars: [{name, value}], words}
//   algorithmOf('-r -b 12')                          // 'bruijn' (the pseudo-code for these options)
import { TRACE_FILTER_WORD as FILTERS, TRACE_OP } from '../worker/protocol.js';
import { cellLabel } from './cell-names.js';
import { parseOptions } from '../model/options.js';

// The skeleton shared by the backtracking searches; `choose` and `ways` say what each one picks.
// Line ids are what a step lights; `depth` is the line's indentation.
const skeleton = (title, choose, ways, loopWord) => [
  { id: 'start', text: `${title}:`, depth: 0 },
  { id: 'solution', text: 'if every piece is placed: a solution! back up', depth: 1 },
  { id: 'check', text: 'if a count shows the pieces left cannot fill the holes: back up', depth: 1 },
  { id: 'choose', text: choose, depth: 1 },
  { id: 'ways', text: ways, depth: 1 },
  { id: 'none', text: 'if there is no way: a dead end, back up', depth: 1 },
  { id: 'loop', text: `for each ${loopWord} in ways:`, depth: 1 },
  { id: 'place', text: `place it, then ${title} the rest`, depth: 2 },
  { id: 'remove', text: 'take it back', depth: 2 },
  { id: 'done', text: `every ${loopWord} has been tried: back up`, depth: 1 },
];

const CODE = {
  backtrack: {
    title: 'Backtracking',
    lines: skeleton('solve()', 'choose something to fill: an empty cell (or a piece to place)', 'ways ← every way a piece left can fill it', 'way'),
  },
  bruijn: {
    title: "De Bruijn's method: the first empty cell",
    lines: skeleton('fill()', 'cell ← the first empty cell, in a fixed order', 'ways ← every way a piece left covers that cell', 'way'),
  },
  mch: {
    title: 'Most constrained hole (MCH)',
    lines: skeleton('fill()', 'cell ← the empty cell with the fewest ways to fill it', 'ways ← every way a piece left covers that cell', 'way'),
  },
  emch: {
    title: 'Estimated most constrained hole (EMCH)',
    lines: skeleton('fill()', 'cell ← the empty cell with the fewest open neighbours (then fewest ways)', 'ways ← every way a piece left covers that cell', 'way'),
  },
  dlx: {
    title: "Dancing links (Knuth's Algorithm X)",
    lines: [
      { id: 'start', text: 'search():', depth: 0 },
      { id: 'solution', text: 'if no column is left: a solution! back up', depth: 1 },
      { id: 'check', text: 'if a count shows the pieces left cannot fill the holes: back up', depth: 1 },
      { id: 'choose', text: 'c ← the column with the fewest rows', depth: 1 },
      { id: 'none', text: 'if c has no row: a dead end, back up', depth: 1 },
      { id: 'ways', text: 'rows ← the rows of c (each a way to cover it)', depth: 1 },
      { id: 'loop', text: 'for each row r in rows:', depth: 1 },
      { id: 'place', text: "cover r's columns (the rows that clash with r leave), search()", depth: 2 },
      { id: 'remove', text: "uncover r's columns (those rows come back)", depth: 2 },
      { id: 'done', text: 'every row of c has been tried: back up', depth: 1 },
    ],
  },
};

export const ALGORITHM_KEYS = Object.freeze(Object.keys(CODE));

/**
 * The pseudo-code of an algorithm: {key, title, lines}. The line of counting checks (parity,
 * volume, a cell walled in) is there only when the search makes them (`checks`).
 */
export function codeFor(key, { checks = false } = {}) {
  const c = CODE[key];
  if (!c) throw new Error(`no pseudo-code for '${key}': one of ${ALGORITHM_KEYS.join(', ')}`);
  return { key, title: c.title, lines: c.lines.filter((l) => checks || l.id !== 'check') };
}

/** Which pseudo-code tells the search run with these options ('backtrack' when no one rule does). */
export function algorithmOf(optionsText) {
  const { values, errors } = parseOptions(optionsText || '');
  if (errors && errors.length) return 'backtrack';
  if (values.bruijn !== null) return 'bruijn';
  if (values.mch !== null) return 'mch';
  if (values.emch !== null) return 'emch';
  if (values.order === 's' && values.fila === null) return 'dlx';
  return 'backtrack';
}

const CHECK_OPS = new Set([TRACE_OP.PARITY_TRIGGER, TRACE_OP.VOLUME_TRIGGER, TRACE_OP.DEAD_CELL]);

/** Whether a recording holds counting checks (parity, volume, walled-in cells): the code then shows their line. */
export function usesChecks(recording) {
  for (let i = 0; i < recording.length; i++) if (CHECK_OPS.has(recording.op(i))) return true;
  return false;
}

/** The line of an event (the loop line is lit beside 'place' and 'remove'). */
function lineOf(op) {
  switch (op) {
    case TRACE_OP.PLACE: return 'place';
    case TRACE_OP.REMOVE: return 'remove';
    case TRACE_OP.CHOOSE: return 'choose';
    case TRACE_OP.CANDIDATE: return 'ways';
    case TRACE_OP.SOLUTION: return 'solution';
    case TRACE_OP.NO_FIT:
    case TRACE_OP.FILTER_EMPTIED: return 'none';
    case TRACE_OP.EXHAUSTED: return 'done';
    case TRACE_OP.PARITY_TRIGGER:
    case TRACE_OP.VOLUME_TRIGGER:
    case TRACE_OP.DEAD_CELL: return 'check';
    default: return 'start';
  }
}

/**
 * What the step the player stands on executes: the line lit (`line`), the loop around it
 * (`loop`, or null), the variables' values and the step in words.
 * @param {string} key algorithm (ALGORITHM_KEYS)
 * @param {{current(): object|null, levels: object[], depth: number, closed?: Map}} player a TracePlayer
 * @param {{xDim, yDim, zDim, instances: {name}[]}} puzzle
 */
export function explainStep(key, player, puzzle) {
  const dlx = key === 'dlx';
  const ev = player.current();
  const pieceName = (i) => (puzzle.instances[i] ? puzzle.instances[i].name : '?');
  const targetWords = (t) => {
    if (dlx) return t >= 0 ? `column ${cellLabel(puzzle, t)} (a cell)` : `column ${pieceName(-1 - t)} (a piece)`;
    if (key === 'backtrack') return t >= 0 ? `cell ${cellLabel(puzzle, t)}` : `piece ${pieceName(-1 - t)}`;
    return t >= 0 ? cellLabel(puzzle, t) : `piece ${pieceName(-1 - t)}`;
  };
  const waysWord = dlx ? 'rows' : 'ways';
  const vars = [{ name: 'pieces placed', value: String(player.depth) }];
  const top = player.levels[player.levels.length - 1] || null;
  // the variable the code names what it fills: c (a column), cell, or "to fill" (a cell or a piece)
  const what = dlx ? 'c' : key === 'backtrack' ? 'to fill' : 'cell';
  const level = (lv) => {
    vars.push({ name: what, value: targetWords(lv.target) });
  };
  if (!ev) return { line: 'start', loop: null, vars, words: 'The start: the board is empty.' };
  const line = lineOf(ev.op);
  let loop = null;
  let words = '';
  switch (ev.op) {
    case TRACE_OP.CHOOSE:
      level(top);
      vars.push({ name: waysWord, value: `${ev.b}` });
      words = `${dlx ? 'The column' : 'What to fill'}: ${targetWords(ev.a)}, with ${ev.b} ${ev.b === 1 ? waysWord.slice(0, -1) : waysWord}.`;
      break;
    case TRACE_OP.CANDIDATE: {
      level(top);
      const k = top.candidates.length;
      vars.push({ name: waysWord, value: `${k} of ${top.count} listed` });
      words = `${dlx ? 'Row' : 'Way'} ${k} of ${top.count}: piece ${pieceName(ev.a)}.`;
      break;
    }
    case TRACE_OP.PLACE:
    case TRACE_OP.REMOVE: {
      loop = 'loop';
      if (top) {
        level(top);
        // (the way of a REMOVE is the one tried last: the level's count of tried ways includes it)
        vars.push({ name: 'trying', value: `${dlx ? 'row' : 'way'} ${top.tried} of ${top.count}` });
        vars.push({ name: waysWord, value: `${top.count - top.tried} of ${top.count} left` });
      }
      const name = pieceName(ev.a);
      vars.push({ name: dlx ? 'r' : 'piece', value: dlx ? `piece ${name} in one place` : name });
      if (dlx) {
        words = ev.op === TRACE_OP.PLACE ? `Take row r (piece ${name} in one place): cover its columns, so every row that clashes with it leaves; search on.`
          : `Give row r back (piece ${name}): uncover its columns, and the rows it pushed out come back.`;
      } else words = ev.op === TRACE_OP.PLACE ? `Place ${name}, then go on with the rest.` : `Take ${name} back.`;
      break;
    }
    case TRACE_OP.SOLUTION:
      vars.push({ name: 'solution', value: ev.a > 0 ? `number ${ev.a}` : 'a turned copy of one found before' });
      words = ev.a > 0 ? `Every piece is placed: solution ${ev.a}!` : 'Every piece is placed, but this is a turned copy of a solution counted before.';
      break;
    case TRACE_OP.NO_FIT:
      vars.push({ name: what, value: targetWords(ev.a) }, { name: waysWord, value: '0' });
      words = `No way to ${ev.a >= 0 ? 'fill' : 'place'} ${targetWords(ev.a)}: a dead end.`;
      break;
    case TRACE_OP.FILTER_EMPTIED:
      vars.push({ name: what, value: targetWords(ev.a) }, { name: waysWord, value: `0 (the ${FILTERS[ev.b] || ''} filter took them out)` });
      words = `The ${FILTERS[ev.b] || ''} filter left no way to ${ev.a >= 0 ? 'fill' : 'place'} ${targetWords(ev.a)}: a dead end.`;
      break;
    case TRACE_OP.EXHAUSTED:
      vars.push({ name: what, value: targetWords(ev.a) }, { name: waysWord, value: `all ${ev.b} tried` });
      words = `Every ${dlx ? 'row' : 'way'} for ${targetWords(ev.a)} has been tried: back up.`;
      break;
    case TRACE_OP.PARITY_TRIGGER:
      vars.push({ name: 'check', value: 'parity (the colours of the holes)' });
      words = 'The pieces left cannot match the checkerboard colours of the holes: back up.';
      break;
    case TRACE_OP.VOLUME_TRIGGER:
      vars.push({ name: 'check', value: `a region of ${ev.b} cells at ${cellLabel(puzzle, ev.a)}` });
      words = `A region of ${ev.b} cells that the pieces left cannot fill: back up.`;
      break;
    case TRACE_OP.DEAD_CELL:
      vars.push({ name: 'check', value: `${cellLabel(puzzle, ev.a)} walled in` });
      words = `${cellLabel(puzzle, ev.a)} is walled in: back up.`;
      break;
    default:
      words = `A step of kind ${ev.op}.`;
  }
  return { line, loop, vars, words };
}
