// The engine's option language (engine/solver/options.cpp is the authority; README "Options")
// as plain values the page's controls can bind to, and back.
//
//   const { values, rest, errors } = parseOptions('-rL -M -l 10');
//   values.redundancy === true; values.redundancyPiece === 'L'; values.limit === 10
//   buildOptions({ ...values, mirror: false }, rest)   // '-r L -l 10'
//   CONTROLS.find((c) => c.key === 'limit').help     // one line of plain English
//
// The parser follows the engine's word rules exactly: words split on white space with "..."
// quoting; short options bundle (-pM) and take values attached or as the next word (-f11,
// -f 11, -f=11); long options --name=value or --name value; -r takes the next word as a
// piece name unless it starts with '-'; -P/-V/-F take the next word only when it is a number;
// '--' ends the options. Like the engine it stops at the first error. Words the controls do
// not cover (-q, --json: command-line output switches the page ignores) are kept in `rest`
// so that buildOptions(values, rest) says the same thing as the text it came from.
// The engine still has the last word (e.g. on an -o schedule's syntax, or a piece name that
// is not in the puzzle): Session.start's error is shown as well.

/**
 * @typedef {null|'once'|number} Filter  null: off; 'once': before the search; N: also after
 *   every placement while N or more pieces remain
 * @typedef {{
 *   redundancy: boolean, redundancyPiece: string,
 *   mirror: boolean, unique: boolean, limit: number|null,
 *   fila: number|null, order: string|null, nof: boolean,
 *   bruijn: number|null, mch: number|null, emch: number|null,
 *   parityBacktrack: boolean, volumeBacktrack: number|null,
 *   parityFilter: Filter, volumeFilter: Filter, fitFilter: Filter,
 *   monteCarlo: {trials: number, remaining: number, seed: string}|null,
 *   trace: number|null, info: boolean
 * }} OptionValues
 */

/** @returns {OptionValues} every control off: the engine's defaults (automatic algorithm). */
export function defaultOptionValues() {
  return {
    redundancy: false,
    redundancyPiece: '',
    mirror: false,
    unique: false,
    limit: null,
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

/**
 * The controls, in display order, with a one-line explanation each. kind: 'flag' (on/off),
 * 'int' (a whole number or off), 'text', 'filter' (off / once / N), 'monteCarlo'.
 * min/max: the engine's accepted range.
 */
export const CONTROLS = Object.freeze([
  { key: 'redundancy', flag: '-r', group: 'Counting', kind: 'flag', label: 'Count rotations as one',
    help: 'A solution and its turned copies (the whole puzzle rotated) are counted once, by fixing the position of one piece.' },
  { key: 'redundancyPiece', flag: '-r NAME', group: 'Counting', kind: 'text', label: 'Piece to hold still',
    help: 'The piece whose turns are limited to count rotations once: empty lets the solver choose (auto), or give a piece name.' },
  { key: 'mirror', flag: '-M', group: 'Counting', kind: 'flag', label: 'Count mirror images as one',
    help: 'A solution and its mirror image are counted once (only for piece sets that contain the mirror image of every piece).' },
  { key: 'unique', flag: '-u', group: 'Counting', kind: 'flag', label: 'Drop repeated solutions',
    help: 'Remember every solution and drop any that is a rotation of one already found (slower; uses memory).' },
  { key: 'limit', flag: '-l N', group: 'Counting', kind: 'int', min: 1, max: Number.MAX_SAFE_INTEGER, label: 'Stop after N solutions',
    help: 'Stop the search once this many solutions have been found.' },
  { key: 'fila', flag: '-f N', group: 'Algorithm', kind: 'int', min: 1, max: 1000000, label: 'Switch to FILA at N pieces',
    help: 'Search with dancing links (DLX) first, then switch to the FILA algorithm when this many pieces remain to be placed.' },
  { key: 'order', flag: '-o H[=N]:...', group: 'Algorithm', kind: 'text', label: 'Heuristic schedule',
    help: 'Which cell or piece to fill next, by pieces remaining: s fewest fits, f first open cell, e estimate, c cornered, x/y/z sweeps; e.g. x:s=20.' },
  { key: 'nof', flag: '-n', group: 'Algorithm', kind: 'flag', label: 'Neighbour filtering (NOF)',
    help: "FILA skips placements that would leave a neighbouring open cell impossible to fill." },
  { key: 'bruijn', flag: '-b N', group: 'Algorithm', kind: 'int', min: 1, max: 1000000, label: "de Bruijn's method at N pieces",
    help: 'When this many pieces remain, fill the first open cell in sweep order (FILA with heuristic f).' },
  { key: 'mch', flag: '-m N', group: 'Algorithm', kind: 'int', min: 1, max: 1000000, label: 'Most constrained hole at N pieces',
    help: 'When this many pieces remain, fill the open cell with the fewest ways to cover it (FILA with heuristic s).' },
  { key: 'emch', flag: '-e N', group: 'Algorithm', kind: 'int', min: 1, max: 1000000, label: 'Estimated most constrained hole at N pieces',
    help: 'When this many pieces remain, fill the open cell estimated hardest to cover (FILA with heuristic e).' },
  { key: 'parityBacktrack', flag: '-p', group: 'Constraints', kind: 'flag', label: 'Parity check',
    help: 'Back up as soon as the remaining pieces cannot match the chessboard colouring of the open cells.' },
  { key: 'volumeBacktrack', flag: '-v N', group: 'Constraints', kind: 'int', min: 1, max: 1000000, label: 'Volume check while N pieces remain',
    help: 'Back up when a closed-off region cannot be filled by any set of remaining pieces, while at least this many remain.' },
  { key: 'parityFilter', flag: '-P[=N]', group: 'Constraints', kind: 'filter', min: 1, max: 100000, label: 'Parity filter',
    help: 'Remove placements that break the parity balance: once before the search, or again after each placement while N or more pieces remain.' },
  { key: 'volumeFilter', flag: '-V[=N]', group: 'Constraints', kind: 'filter', min: 1, max: 100000, label: 'Volume filter',
    help: 'Remove placements that cut off a region no remaining pieces can fill: once, or again while N or more pieces remain.' },
  { key: 'fitFilter', flag: '-F[=N]', group: 'Constraints', kind: 'filter', min: 1, max: 100000, label: 'Fit filter',
    help: 'Remove placements after which some cell or piece has no fit left, repeated until nothing changes: once, or while N or more remain.' },
  { key: 'monteCarlo', flag: '-s T,R,SEED', group: 'Diagnostics', kind: 'monteCarlo', label: 'Monte Carlo estimate',
    help: 'Instead of a full search, run T random trials (each ends when a piece is removed with R left) to estimate the search size; SEED repeats a run.' },
  { key: 'trace', flag: '-t K', group: 'Diagnostics', kind: 'int', min: -100000, max: 100000, label: 'Trace at K pieces',
    help: 'Record each placement and removal while K or more pieces remain (a negative K: exactly K), to watch the search.' },
  { key: 'info', flag: '-i', group: 'Diagnostics', kind: 'flag', label: 'Statistics',
    help: 'Report the chosen configuration and per-level counts of attempts, fits and filters.' },
]);

/** True when no algorithm option is set: the solver then configures itself (README). */
export function isAutomatic(values) {
  return values.fila === null && values.order === null && !values.nof && values.bruijn === null && values.mch === null && values.emch === null;
}

// ---------------------------------------------------------------------------------------
// Words.

/**
 * The engine's splitWords (engine/solver/options.cpp): white space separates words; '"'
 * toggles quoting and is dropped; a quoted empty string is a word.
 * @param {string} text
 * @returns {string[]}
 */
export function splitWords(text) {
  const out = [];
  let cur = '';
  let inWord = false;
  let quoted = false;
  for (const c of text) {
    if (c === '"') {
      quoted = !quoted;
      inWord = true;
    } else if (!quoted && (c === ' ' || c === '\t' || c === '\n' || c === '\r')) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) out.push(cur);
  return out;
}

// std::from_chars on a long long, then a range check: optional '-', digits, nothing else.
function parseWhole(text, lo, hi) {
  if (!/^-?[0-9]+$/.test(text)) return null;
  const v = BigInt(text);
  if (v < BigInt(lo) || v > BigInt(hi)) return null;
  return v;
}

const INT64_MAX = '9223372036854775807';

function intSetter(key, flag, lo = 1, hi = 1000000) {
  return (values, v) => {
    const n = v === null ? null : parseWhole(v, lo, hi);
    if (n === null) return `${flag} needs a whole number from ${lo} to ${hi}${v === null ? '' : `, got '${v}'`}`;
    values[key] = Number(n);
    return '';
  };
}

function filterSetter(key, flag) {
  return (values, v) => {
    if (v === null) {
      values[key] = 'once';
      return '';
    }
    return intSetter(key, flag, 1, 100000)(values, v);
  };
}

function flagSetter(key) {
  return (values) => {
    values[key] = true;
    return '';
  };
}

const CLI_ONLY = '--help and --version are command-line options, not search options';
// The command line's own switches for its terminal and files: named as such, not as unknown.
const commandLineOnly = (name, arg) => ({
  s: null, l: name, arg, error: `--${name} is an option of the polycube command line, not a search option`,
});

// The engine's option table: short name, long name, argument (none / required / optional),
// and what it sets. `rest`: kept verbatim (no control; the page ignores them).
const SPECS = [
  { s: 'h', l: 'help', arg: 'none', error: CLI_ONLY },
  { s: null, l: 'version', arg: 'none', error: CLI_ONLY },
  { s: 'q', l: 'quiet', arg: 'none', rest: true },
  { s: 'i', l: 'info', arg: 'none', set: flagSetter('info') },
  { s: null, l: 'json', arg: 'none', rest: true },
  // -j N: the CLI's threads (the page searches in one worker; kept as typed).
  { s: 'j', l: 'jobs', arg: 'required', rest: true },
  commandLineOnly('ordered', 'none'),
  commandLineOnly('progress', 'none'),
  commandLineOnly('checkpoint', 'required'),
  commandLineOnly('resume', 'required'),
  commandLineOnly('split', 'required'),
  commandLineOnly('jobs-out', 'required'),
  commandLineOnly('job', 'required'),
  commandLineOnly('merge', 'required'),
  commandLineOnly('build-order', 'none'),
  {
    s: 'r', l: 'redundancyFilter', arg: 'optional',
    set: (values, v) => {
      values.redundancy = true;
      values.redundancyPiece = v ?? '';
      return v === '' ? '-r: empty piece name' : '';
    },
  },
  { s: 'u', l: 'unique', arg: 'none', set: flagSetter('unique') },
  { s: 'M', l: 'mirror', arg: 'none', set: flagSetter('mirror') },
  {
    s: 'o', l: 'order', arg: 'required',
    set: (values, v) => {
      // (the engine's words: engine/solver/options.cpp)
      if (v === '') return '-o: empty: give one or more heuristics, e.g. -o s or -o x:s=20';
      const bad = scheduleError(v);
      if (bad) return bad;
      values.order = v;
      return '';
    },
  },
  { s: 'f', l: 'fila', arg: 'required', set: intSetter('fila', '-f') },
  { s: 'n', l: 'nof', arg: 'none', set: flagSetter('nof') },
  { s: 'b', l: 'bruijn', arg: 'required', set: intSetter('bruijn', '-b') },
  { s: 'm', l: 'mch', arg: 'required', set: intSetter('mch', '-m') },
  { s: 'e', l: 'emch', arg: 'required', set: intSetter('emch', '-e') },
  { s: 'p', l: 'parityBacktrack', arg: 'none', set: flagSetter('parityBacktrack') },
  { s: 'v', l: 'volumeBacktrack', arg: 'required', set: intSetter('volumeBacktrack', '-v') },
  { s: 'P', l: 'parityFilter', arg: 'optional', set: filterSetter('parityFilter', '-P') },
  { s: 'V', l: 'volumeFilter', arg: 'optional', set: filterSetter('volumeFilter', '-V') },
  { s: 'F', l: 'fitFilter', arg: 'optional', set: filterSetter('fitFilter', '-F') },
  { s: 't', l: 'trace', arg: 'required', set: intSetter('trace', '-t', -100000, 100000) },
  {
    s: 's', l: 'monteCarlo', arg: 'required',
    set: (values, v) => {
      const parts = v.split(',');
      // std::getline drops one trailing empty field: "5,3," is ["5", "3"].
      if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
      const t = parts.length >= 2 && parts.length <= 3 ? parseWhole(parts[0], 1, 1000000000000) : null;
      const r = t !== null ? parseWhole(parts[1], 0, 100000) : null;
      const seed = parts.length === 3 ? parseWhole(parts[2], 0, INT64_MAX) : 0n;
      if (t === null || r === null || seed === null) return `-s needs T,R[,SEED] (trials, remaining pieces, seed), got '${v}'`;
      values.monteCarlo = { trials: Number(t), remaining: Number(r), seed: parts.length === 3 ? String(seed) : '' };
      return '';
    },
  },
  {
    s: 'l', l: 'limit', arg: 'required',
    set: (values, v) => {
      const n = parseWhole(v, 1, INT64_MAX);
      if (n === null) return `-l needs a positive whole number, got '${v}'`;
      if (n > BigInt(Number.MAX_SAFE_INTEGER)) return `-l ${v} is larger than this page can count (${Number.MAX_SAFE_INTEGER})`;
      values.limit = Number(n);
      return '';
    },
  },
];

// std::getline's split: one trailing empty field is dropped ("s:" is ["s"]; "" is []).
function getlineSplit(text, separator) {
  if (text === '') return [];
  const parts = text.split(separator);
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

// As the engine quotes what was typed (engine/common/text.hpp quoteText: 40 bytes there).
const quoted = (s) => (s.length <= 40 ? s : `${s.slice(0, 40)}... (${s.length} characters)`);

// strtod's whole-word numbers (decimal or hexadecimal, finite), as parseNumbers reads a
// heuristic's arguments (engine/search/heuristics.cpp).
const DECIMAL = /^[ \t\n\v\f\r]*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const HEXADECIMAL = /^[ \t\n\v\f\r]*[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?\d+)?$/;
function heuristicNumbers(args) {
  const out = [];
  for (const part of getlineSplit(args, ',')) {
    let v = NaN;
    if (DECIMAL.test(part)) v = Number(part.trim());
    else if (HEXADECIMAL.test(part)) {
      const m = part.trim().match(/^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)(?:[pP]([+-]?\d+))?$/);
      const digits = m[2] + m[3];
      v = (m[1] === '-' ? -1 : 1) * parseInt(digits, 16) * 2 ** (Number(m[4] || 0) - 4 * m[3].length);
    }
    if (!Number.isFinite(v)) return null;
    out.push(v);
  }
  return out;
}

const KNOWN_HEURISTICS = 's f e c l@a,b,c x y z X Y Z xyz a[@deg[,xc,yc]] A R[@xc,yc,zc]';

/** Why `text` is not a heuristic (engine/search/heuristics.cpp parseHeuristic), or ''. */
function heuristicError(text) {
  const at = text.indexOf('@');
  const name = at < 0 ? text : text.slice(0, at), args = at < 0 ? '' : text.slice(at + 1);
  const nums = args === '' ? [] : heuristicNumbers(args);
  if (nums === null) return `bad numbers after '@' in heuristic '${quoted(text)}'`;
  const noArgs = args === '';
  if ('sSfFeEcC'.includes(name) && name.length === 1 && noArgs) return '';
  if (name === 'l') return nums.length === 3 ? '' : `heuristic l needs l@a,b,c, got '${quoted(text)}'`;
  if (noArgs && ['x', 'y', 'z', 'X', 'Y', 'Z', 'xyz'].includes(name)) return '';
  if (name === 'a' || name === 'A') {
    return [0, 1, 3].includes(nums.length) ? '' : `heuristic ${name} takes @deg or @deg,xc,yc, got '${quoted(text)}'`;
  }
  if (name === 'R') return [0, 3].includes(nums.length) ? '' : `heuristic R takes @xc,yc,zc, got '${quoted(text)}'`;
  return `unknown heuristic '${quoted(text)}' (known: ${KNOWN_HEURISTICS})`;
}

/**
 * Why an -o schedule is refused, in the engine's words (engine/search/heuristics.cpp
 * parseSchedule, which options.cpp calls as the option is read), or ''. Checked here so that
 * a bad schedule is marked as it is typed, not only when Solve reaches the engine (QA: -o zz).
 * tests/js/options.test.js holds the two to the same verdicts on generated schedules.
 */
export function scheduleError(text) {
  for (const item of getlineSplit(text, ':')) {
    if (item === '') return `-o: empty entry in '${quoted(text)}'`;
    const eq = item.indexOf('=');
    const name = eq < 0 ? item : item.slice(0, eq);
    if (eq >= 0) {
      const n = item.slice(eq + 1);
      if (!/^-?\d+$/.test(n) || Number(n) < 1 || Number(n) > 1000000) return `-o: '${quoted(item)}' needs a positive piece count after '='`;
    }
    const bad = heuristicError(name);
    if (bad) return `-o: ${bad}`;
  }
  return '';
}

function isNumber(word) {
  return /^-?[0-9]+$/.test(word) && parseWhole(word, '-9223372036854775808', INT64_MAX) !== null;
}

/**
 * Parse an option string.
 * @param {string} text
 * @returns {{values: OptionValues, rest: string, errors: string[]}}
 *   rest: words without a control (e.g. '-q --json'); errors: at most one message (the
 *   engine stops at the first error too), empty when the engine's parser accepts the text
 */
export function parseOptions(text) {
  const values = defaultOptionValues();
  const rest = [];
  let error = '';
  const words = splitWords(String(text ?? ''));
  const apply = (spec, value, word) => {
    if (spec.error) error = spec.error;
    else if (spec.rest) rest.push(word);
    else error = spec.set(values, value);
  };
  const optionalTakes = (spec, next) => {
    if (next === undefined || next === '' || next[0] === '-') return false;
    return spec.s === 'r' ? true : isNumber(next);
  };
  let optionsEnded = false;
  for (let i = 0; i < words.length && !error; i++) {
    const a = words[i];
    if (optionsEnded || a.length < 2 || a[0] !== '-') {
      error = `unexpected word '${a}' in the options`;
      break;
    }
    if (a === '--') {
      optionsEnded = true;
      continue;
    }
    if (a[1] === '-') {
      let name = a.slice(2);
      let value = null;
      const eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.slice(eq + 1);
        name = name.slice(0, eq);
      }
      const spec = SPECS.find((s) => s.l === name);
      if (!spec) {
        error = `unknown option '--${name}'`;
      } else if (spec.arg === 'none') {
        if (value !== null) error = `option --${name} takes no value`;
        else apply(spec, null, a);
      } else if (value !== null) {
        apply(spec, value, a);
      } else if (spec.arg === 'required') {
        if (i + 1 >= words.length) error = `option --${name} needs a value`;
        else {
          i++;
          apply(spec, words[i], `${a} ${words[i]}`);
        }
      } else if (optionalTakes(spec, words[i + 1])) {
        i++;
        apply(spec, words[i], `${a} ${words[i]}`);
      } else {
        apply(spec, null, a);
      }
      continue;
    }
    for (let k = 1; k < a.length && !error; k++) {
      const spec = SPECS.find((s) => s.s === a[k]);
      if (!spec) {
        error = `unknown option '-${a[k]}'`;
        break;
      }
      if (spec.arg === 'none') {
        apply(spec, null, `-${a[k]}`);
        continue;
      }
      let value = a.slice(k + 1);
      if (value.startsWith('=')) value = value.slice(1);
      if (value !== '') {
        apply(spec, value, `-${a.slice(k)}`);
      } else if (spec.arg === 'required') {
        if (i + 1 >= words.length) error = `option -${a[k]} needs a value`;
        else {
          i++;
          apply(spec, words[i], `-${a[k]} ${words[i]}`);
        }
      } else if (optionalTakes(spec, words[i + 1])) {
        i++;
        apply(spec, words[i], `-${a[k]} ${words[i]}`);
      } else {
        apply(spec, null, `-${a[k]}`);
      }
      break; // the rest of the word was this option's value
    }
  }
  // As the engine (engine/solver/options.cpp): alone, -M would change nothing.
  if (!error && values.mirror && !values.redundancy && !values.unique)
    error = '-M counts a solution and its mirror image as one, which only -r and -u count: give -r or -u with it';
  return { values, rest: rest.join(' '), errors: error ? [error] : [] };
}

// A word the engine's splitWords keeps as one word and gives back unchanged.
function wordProblem(word, what) {
  if (word === '' || /[\s"]/.test(word)) return `${what} must be one word without spaces or '"'`;
  return null;
}

/**
 * What is wrong with `values` (each message names the control), or [] when buildOptions will
 * produce a string the engine's option parser accepts.
 * @param {OptionValues} values
 * @returns {{key: string, message: string}[]}
 */
export function optionProblems(values) {
  const problems = [];
  for (const c of CONTROLS) {
    const v = values[c.key];
    if (c.kind === 'flag') {
      if (typeof v !== 'boolean') problems.push({ key: c.key, message: `${c.label}: must be on or off` });
    } else if (c.kind === 'int') {
      if (v !== null && (!Number.isSafeInteger(v) || v < c.min || v > c.max)) {
        problems.push({ key: c.key, message: `${c.label}: needs a whole number from ${c.min} to ${c.max}` });
      }
    } else if (c.kind === 'filter') {
      if (v !== null && v !== 'once' && (!Number.isSafeInteger(v) || v < c.min || v > c.max)) {
        problems.push({ key: c.key, message: `${c.label}: off, once, or a whole number from ${c.min} to ${c.max}` });
      }
    } else if (c.key === 'redundancyPiece') {
      if (typeof v !== 'string') problems.push({ key: c.key, message: `${c.label}: must be text` });
      else if (v !== '') {
        const p = wordProblem(v, c.label) || (v.startsWith('-') ? `${c.label}: a piece name cannot start with '-' here` : null);
        if (p) problems.push({ key: c.key, message: p });
      }
    } else if (c.key === 'order') {
      if (v !== null) {
        const p = typeof v !== 'string' ? `${c.label}: must be text` : wordProblem(v, c.label);
        if (p) problems.push({ key: c.key, message: p });
      }
    } else if (c.key === 'monteCarlo' && v !== null) {
      const ok =
        v && Number.isSafeInteger(v.trials) && v.trials >= 1 && v.trials <= 1e12 &&
        Number.isSafeInteger(v.remaining) && v.remaining >= 0 && v.remaining <= 100000 &&
        typeof v.seed === 'string' && (v.seed === '' || parseWhole(v.seed, 0, INT64_MAX) !== null);
      if (!ok) problems.push({ key: c.key, message: `${c.label}: trials 1 to 10^12, pieces left 0 to 100000, seed empty or a whole number` });
    }
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
  if (v.redundancy) words.push(v.redundancyPiece ? `-r ${v.redundancyPiece}` : '-r');
  if (v.mirror) words.push('-M');
  if (v.unique) words.push('-u');
  if (v.limit !== null) words.push(`-l ${v.limit}`);
  if (v.fila !== null) words.push(`-f ${v.fila}`);
  if (v.order !== null) words.push(`-o ${v.order}`);
  if (v.nof) words.push('-n');
  if (v.bruijn !== null) words.push(`-b ${v.bruijn}`);
  if (v.mch !== null) words.push(`-m ${v.mch}`);
  if (v.emch !== null) words.push(`-e ${v.emch}`);
  if (v.parityBacktrack) words.push('-p');
  if (v.volumeBacktrack !== null) words.push(`-v ${v.volumeBacktrack}`);
  for (const [key, flag] of [['parityFilter', '-P'], ['volumeFilter', '-V'], ['fitFilter', '-F']]) {
    if (v[key] === 'once') words.push(flag);
    else if (v[key] !== null) words.push(`${flag} ${v[key]}`);
  }
  if (v.monteCarlo) {
    const m = v.monteCarlo;
    words.push(`-s ${m.trials},${m.remaining}${m.seed !== '' ? `,${m.seed}` : ''}`);
  }
  if (v.trace !== null) words.push(`-t ${v.trace}`);
  if (v.info) words.push('-i');
  if (rest && rest.trim()) words.push(rest.trim());
  return words.join(' ');
}
