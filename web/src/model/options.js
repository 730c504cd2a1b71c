// The engine's option language as plain values the page's controls can bind to, and back.
// The engine is the one judge: every text is read by its own parser (searchOptionsJson in
// engine/session/engine_rules.hpp, the one Session.start uses), and each control's flag,
// help and range come from its option table (web/src/generated/engine-rules.js). What lives
// here is only the page's side: which controls the form shows, their labels, and how a
// control's value is written as words.
//
//   useOptionParser(module.parseOptionsJson);   // once per thread, when the engine is loaded
//   const { values, rest, errors, splitRefusal } = parseOptions('-rL -M -l 10');
//   values.redundancy === true; values.redundancyPiece === 'L'; values.limit === 10
//   buildOptions({ ...values, mirror: false }, rest)   // '-r L -l 10'
//   CONTROLS.find((c) => c.key === 'limit').help     // the engine's help line
//
// Words no control covers (-q, --json, -j: the command line's output switches, which the
// engine takes and the page ignores) are kept in `rest`, so that buildOptions(values, rest)
// says the same thing as the text it came from.
import { ENGINE_RULES } from '../generated/engine-rules.js';

/**
 * @typedef {null|'once'|number} Filter  null: off; 'once': before the search; N: also after
 *   every placement while N or more pieces remain
 * @typedef {{
 *   redundancy: boolean, redundancyPiece: string,
 *   mirror: boolean, unique: boolean, limit: number|null, noOrbits: boolean,
 *   fila: number|null, order: string|null, nof: boolean,
 *   bruijn: number|null, mch: number|null, emch: number|null,
 *   parityBacktrack: boolean, volumeBacktrack: number|null,
 *   parityFilter: Filter, volumeFilter: Filter, fitFilter: Filter,
 *   monteCarlo: {trials: number, remaining: number, seed: string}|null,
 *   trace: number|null, info: boolean
 * }} OptionValues
 */

/** The engine's option table, by long name (generated; engine/solver/options.cpp). */
export const ENGINE_OPTIONS = Object.freeze(Object.fromEntries(ENGINE_RULES.options.map((o) => [o.long, o])));

let parseJson = null;

/**
 * Give this thread the engine's option parser (the wasm module's parseOptionsJson). The page
 * loads the engine on its main thread for this (main.js); tests/js/setup-engine.js does so
 * for the tests.
 * @param {(text: string) => string} fn
 */
export function useOptionParser(fn) {
  parseJson = fn;
}

function engineParse(text) {
  if (!parseJson) throw new Error('the engine is not loaded on this thread: call useOptionParser first');
  return JSON.parse(parseJson(text));
}

/** @returns {OptionValues} every control off: the engine's defaults (automatic algorithm). */
export function defaultOptionValues() {
  return {
    redundancy: false,
    redundancyPiece: '',
    mirror: false,
    unique: false,
    limit: null,
    memo: false,
    memoMb: null,
    solution: null,
    random: null,
    noOrbits: false,
    fila: null,
    order: null,
    nof: false,
    bruijn: null,
    mch: null,
    emch: null,
    parityBacktrack: false,
    volumeBacktrack: null,
    parityFilter: null,
    volumeFilter: null,
    fitFilter: null,
    monteCarlo: null,
    trace: null,
    info: false,
  };
}

// The form's controls in display order: the engine option each one sets, its kind ('flag'
// on/off, 'int' a whole number or off, 'text', 'filter' off / once / N, 'monteCarlo') and
// its label. Everything else about a control is the engine's.
const PAGE_CONTROLS = [
  ['redundancy', 'redundancyFilter', 'Counting', 'flag', 'Count rotations as one'],
  ['redundancyPiece', 'redundancyFilter', 'Counting', 'text', 'Piece to hold still'],
  ['mirror', 'mirror', 'Counting', 'flag', 'Count mirror images as one'],
  ['unique', 'unique', 'Counting', 'flag', 'Drop repeated solutions'],
  ['limit', 'limit', 'Counting', 'int', 'Stop after N solutions'],
  ['memo', 'memo', 'Counting', 'flag', 'Count only, by remembering subproblems'],
  ['memoMb', 'memo-mb', 'Counting', 'int', 'Memory for remembering, MiB'],
  ['solution', 'solution', 'Counting', 'int', 'Then show solution number N'],
  ['random', 'random', 'Counting', 'text', 'Then show K drawn at random'],
  ['noOrbits', 'no-orbits', 'Algorithm', 'flag', 'Find every rotation by search'],
  ['fila', 'fila', 'Algorithm', 'int', 'Switch to FILA at N pieces'],
  ['order', 'order', 'Algorithm', 'text', 'Heuristic schedule'],
  ['nof', 'nof', 'Algorithm', 'flag', 'Neighbour filtering (NOF)'],
  ['bruijn', 'bruijn', 'Algorithm', 'int', "de Bruijn's method at N pieces"],
  ['mch', 'mch', 'Algorithm', 'int', 'Most constrained hole at N pieces'],
  ['emch', 'emch', 'Algorithm', 'int', 'Estimated most constrained hole at N pieces'],
  ['parityBacktrack', 'parityBacktrack', 'Constraints', 'flag', 'Parity check'],
  ['volumeBacktrack', 'volumeBacktrack', 'Constraints', 'int', 'Volume check while N pieces remain'],
  ['parityFilter', 'parityFilter', 'Constraints', 'filter', 'Parity filter'],
  ['volumeFilter', 'volumeFilter', 'Constraints', 'filter', 'Volume filter'],
  ['fitFilter', 'fitFilter', 'Constraints', 'filter', 'Fit filter'],
  ['monteCarlo', 'monteCarlo', 'Diagnostics', 'monteCarlo', 'Monte Carlo estimate'],
  ['trace', 'trace', 'Diagnostics', 'int', 'Trace at K pieces'],
  ['info', 'info', 'Diagnostics', 'flag', 'Statistics'],
];

/** How an engine option is written: '-f N', '-P[=N]', '--json'. */
function flagOf(o) {
  const name = o.short ? `-${o.short}` : `--${o.long}`;
  if (o.arg === 'required') return `${name} ${o.valueName}`;
  if (o.arg === 'optional') return `${name}[=${o.valueName}]`;
  return name;
}

/**
 * The controls, in display order: key (OptionValues), option (the engine's long name), group,
 * kind, label; from the engine: flag, help, tuning (sets the algorithm by hand), min/max (the
 * accepted range of a whole-number value; a limit is capped at what a JavaScript number counts).
 */
export const CONTROLS = Object.freeze(PAGE_CONTROLS.map(([key, option, group, kind, label]) => {
  const o = ENGINE_OPTIONS[option];
  if (!o) throw new Error(`the engine has no option --${option} for the control ${key}`);
  const c = { key, option, group, kind, label, flag: flagOf(o), help: o.help, tuning: o.tuning };
  if (o.min !== null) {
    c.min = o.min;
    c.max = Math.min(o.max, Number.MAX_SAFE_INTEGER);
  }
  return Object.freeze(c);
}));

/** True when no algorithm option is set: the solver then configures itself. */
export function isAutomatic(values) {
  return CONTROLS.every((c) => !c.tuning || values[c.key] === null || values[c.key] === false);
}

/** `values` with every algorithm option off: the solver configures itself. */
export function automaticValues(values) {
  const off = defaultOptionValues();
  const out = { ...values };
  for (const c of CONTROLS) if (c.tuning) out[c.key] = off[c.key];
  return out;
}

/** Words for an output option the page keeps as typed (-q, --json, -j 4). */
function restWord({ name, value }) {
  const o = ENGINE_OPTIONS[name];
  const flag = o.short ? `-${o.short}` : `--${o.long}`;
  return value === null ? flag : `${flag} ${value}`;
}

const HAS_CONTROL = new Set(CONTROLS.map((c) => c.option));

function valuesOf(o) {
  const n = (v) => (v === null ? null : Number(v));
  return {
    redundancy: o.redundancy !== 'off',
    redundancyPiece: o.redundancyPiece,
    mirror: o.mirror,
    unique: o.unique,
    limit: n(o.limit),
    memo: o.memo,
    memoMb: o.memoMb,
    solution: n(o.solution),
    random: o.random,
    noOrbits: o.orbits === false,
    fila: o.fila,
    order: o.order,
    nof: o.nof,
    bruijn: o.bruijn,
    mch: o.mch,
    emch: o.emch,
    parityBacktrack: o.parityBacktrack,
    volumeBacktrack: o.volumeBacktrack,
    parityFilter: o.parityFilter,
    volumeFilter: o.volumeFilter,
    fitFilter: o.fitFilter,
    monteCarlo: o.monteCarlo && { trials: o.monteCarlo.trials, remaining: o.monteCarlo.range, seed: o.monteCarlo.seed },
    trace: o.trace === 0 ? null : o.trace,
    info: o.info,
  };
}

/**
 * Parse an option string with the engine's parser.
 * @param {string} text
 * @returns {{values: OptionValues, rest: string, errors: string[], splitRefusal: string}}
 *   rest: words without a control (e.g. '-q --json'); errors: the engine's message (at most
 *   one: it stops at the first error); splitRefusal: why a search with these options cannot
 *   be shared between workers ('' when it can; the engine's whyNotSplittable)
 */
export function parseOptions(text) {
  const r = engineParse(String(text ?? ''));
  if (!r.ok) return { values: defaultOptionValues(), rest: '', errors: [r.error], splitRefusal: '' };
  const values = valuesOf(r.options);
  // The page counts solutions in JavaScript numbers.
  if (values.limit !== null && BigInt(r.options.limit) > BigInt(Number.MAX_SAFE_INTEGER)) {
    const error = `-l ${r.options.limit} is larger than this page can count (${Number.MAX_SAFE_INTEGER})`;
    return { values: defaultOptionValues(), rest: '', errors: [error], splitRefusal: '' };
  }
  const rest = r.given.filter((g) => !HAS_CONTROL.has(g.name)).map(restWord).join(' ');
  return { values, rest, errors: [], splitRefusal: r.splitRefusal };
}

// A word the engine's word splitter keeps as one word and gives back unchanged.
function wordProblem(word, what) {
  if (word === '' || /[\s"]/.test(word)) return `${what} must be one word without spaces or '"'`;
  return null;
}

// The words a control's value is written as ('' when off), in the short form.
function controlWords(c, v) {
  const o = ENGINE_OPTIONS[c.option];
  const flag = o.short ? `-${o.short}` : `--${o.long}`;
  if (c.key === 'redundancyPiece') return '';
  if (c.key === 'redundancy') return v ? flag : '';
  if (c.kind === 'flag') return v ? flag : '';
  if (c.kind === 'filter' && v === 'once') return flag;
  if (c.key === 'monteCarlo') return v ? `${flag} ${v.trials},${v.remaining}${v.seed !== '' ? `,${v.seed}` : ''}` : '';
  return v === null ? '' : `${flag} ${v}`;
}

// Whether a value has the shape its control's kind writes (the engine judges the rest).
function shapeProblem(c, v) {
  if (c.kind === 'flag') return typeof v === 'boolean' ? null : `${c.label}: must be on or off`;
  if (c.kind === 'int') return v === null || Number.isSafeInteger(v) ? null : `${c.label}: needs a whole number`;
  if (c.kind === 'filter') return v === null || v === 'once' || Number.isSafeInteger(v) ? null : `${c.label}: off, once, or a whole number`;
  if (c.key === 'redundancyPiece') {
    if (typeof v !== 'string') return `${c.label}: must be text`;
    if (v === '') return null;
    return wordProblem(v, c.label) || (v.startsWith('-') ? `${c.label}: a piece name cannot start with '-' here` : null);
  }
  if (c.key === 'order' || c.key === 'random') {
    if (v === null) return null;
    return typeof v !== 'string' ? `${c.label}: must be text` : wordProblem(v, c.label);
  }
  if (c.key === 'monteCarlo' && v !== null) {
    const ok = v && Number.isSafeInteger(v.trials) && Number.isSafeInteger(v.remaining) && typeof v.seed === 'string' &&
      (v.seed === '' || /^[0-9]+$/.test(v.seed));
    return ok ? null : `${c.label}: trials, pieces left and an optional seed, each a whole number`;
  }
  return null;
}

/**
 * What is wrong with `values` (each message names the control), or [] when buildOptions will
 * produce a string the engine's option parser accepts control by control. Each control's
 * words are read by the engine, whose message (its range, its schedule syntax) is shown.
 * @param {OptionValues} values
 * @returns {{key: string, message: string}[]}
 */
export function optionProblems(values) {
  const problems = [];
  for (const c of CONTROLS) {
    const v = values[c.key];
    const shape = shapeProblem(c, v);
    if (shape) {
      problems.push({ key: c.key, message: shape });
      continue;
    }
    // (a flag has no value to judge; -M alone is judged with the others, by parseOptions, and so
    // is --memo-mb without --memo: its value is judged beside --memo)
    if (c.kind === 'flag') continue;
    let words = c.key === 'redundancyPiece' ? (v ? `-r ${v}` : '') : controlWords(c, v);
    if (['memoMb', 'solution', 'random'].includes(c.key) && words) words = `--memo ${words}`;
    if (!words) continue;
    const { errors } = parseOptions(words);
    if (errors.length) problems.push({ key: c.key, message: `${c.label}: ${errors[0]}` });
  }
  return problems;
}

/**
 * The option string for `values` (plus `rest`, appended as it is). Canonical form: short
 * options in CONTROLS order, values as separate words ('-r L -l 10 -P 5'). Throws a
 * RangeError listing optionProblems() when a value cannot be written.
 * @param {OptionValues} values
 * @param {string} [rest]
 * @returns {string}
 */
export function buildOptions(values, rest = '') {
  const v = { ...defaultOptionValues(), ...values };
  const problems = optionProblems(v);
  if (problems.length) throw new RangeError(`buildOptions: ${problems.map((p) => p.message).join('; ')}`);
  const words = [];
  for (const c of CONTROLS) {
    if (c.key === 'redundancy' && v.redundancy && v.redundancyPiece) words.push(`-r ${v.redundancyPiece}`);
    else {
      const w = controlWords(c, v[c.key]);
      if (w) words.push(w);
    }
  }
  if (rest && rest.trim()) words.push(rest.trim());
  return words.join(' ');
}
