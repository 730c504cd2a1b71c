// Share links: the state needed to reproduce the page (which puzzle, the solver options,
// the solution shown, a few view settings) in the address's fragment.
//
//   location.hash = encodeState(state);            // '#p1:' + base64url(deflate(JSON))
//   const r = decodeState(location.hash, { libraryFiles: ['soma.txt', ...] });
//   if (r.ok) use(r.state); else showMessage(r.error);   // r.error is plain text
//
// State (the only fields kept; anything else in a link is dropped):
//   { puzzle: {library: 'soma.txt', index: 0}     // a file of def/ and the puzzle in it (0-based)
//           | {definition: '<definition text>', index?: 0, colours?: [2, 0, 1]},
//             // a custom puzzle (index: which puzzle of the text, when given; colours: each
//             // mobile piece's colour slot in order, as the sender's editor had them)
//     options: '-r',                              // the solver's option string
//     solution?: {index: 1, grid: [...]},         // 1-based number, instance index per box cell
//     view?: {camera: [..], layer: 2, ...},       // small flat object, see VIEW_LIMITS;
//             // lesson: a lesson's id, lessonStep: its part (0-based), step: the replay's step
//     play?: {placed: [[3, 0, 1, 2, 10, 20], ...], given?: 2, challenge?: 'soma-1'} }
//             // a game played by hand (app/play-actions.js): each piece placed, in the order
//             // placed, as its instance index and box cells; the first `given` are a
//             // challenge's start (`challenge` names it)
//
// Links come from anyone, so decoding trusts nothing:
//   - the fragment is at most MAX_LINK_CHARS characters and must start with '#p1:' (a link of
//     another version is refused with its own message);
//   - the compressed bytes are inflated in small pushes (INFLATE_PUSH_BYTES) through fflate's
//     streaming Inflate, and inflation stops as soon as the output passes
//     MAX_DECOMPRESSED_BYTES: DEFLATE expands a byte to at most ~1032, so a decompression bomb
//     costs at most about MAX_DECOMPRESSED_BYTES + 1032 * INFLATE_PUSH_BYTES of memory;
//   - the text must be UTF-8 JSON; JSON.parse never evaluates code;
//   - every field is checked for type, range, array size and string length, and the state
//     returned is a fresh object built from the checked values only.
// A game's pieces are checked for their numbers here, and by the engine for being a packing of
// the puzzle (the page asks it before it counts: a piece of the wrong shape, out of the box or
// over another is refused with its reason).
// The strings returned (definition, options, library file, view strings) are still user text:
// show them with textContent, never innerHTML. The caller must also check what only it can:
// that the library file exists (pass libraryFiles), that the definition parses, and that a
// solution's grid fits the puzzle (solutionProblem()).
//
// Measured sizes (tests/js/link.test.js prints them), in characters of the fragment:
//   the 10x6 pentomino puzzle as a custom definition (646 characters of text written by
//   definition-writer.js), options '-r' and one solution: 398; the same without the
//   solution: 298; the Tetris Cube as a custom definition with a solution: 442; library
//   puzzles with a solution: 150 (soma.txt), 188 (pentominoes_10x6.txt).
//   A 60 MB decompression bomb (78,090 characters) is refused after inflating 1.04 MB (~11 ms).

import { Inflate, deflateSync } from 'fflate';

export const LINK_PREFIX = '#p1:';
export const MAX_LINK_CHARS = 100_000;
export const MAX_DECOMPRESSED_BYTES = 1_000_000;
export const INFLATE_PUSH_BYTES = 256;
export const MAX_DEFINITION_CHARS = 500_000;
export const MAX_OPTIONS_CHARS = 1000;
export const MAX_GRID_CELLS = 100_000; // the engine's box volume limit
export const MAX_INSTANCE_INDEX = 4999; // the engine's instance limit less one
export const MAX_PUZZLE_INDEX = 9999;
export const VIEW_LIMITS = Object.freeze({ keys: 16, keyChars: 32, stringChars: 100, arrayItems: 64 });
export const MAX_LESSON_STEP = 999;        // parts of one lesson, at most
export const MAX_REPLAY_STEP = 100_000_000; // a replay's step (a recording keeps at most a million)
const LESSON_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

export const MAX_CHALLENGE_CHARS = 120;

const LIBRARY_FILE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\.txt$/;
const CHALLENGE_ID = /^[A-Za-z0-9_.-]+$/;

// ---------------------------------------------------------------------------------------
// base64url (RFC 4648 section 5, no padding).

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** @param {Uint8Array} bytes */
export function toBase64Url(bytes) {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63];
  }
  return out;
}

/**
 * @param {string} text
 * @returns {Uint8Array|null} null when `text` is not base64url or has an impossible length
 */
export function fromBase64Url(text) {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? DECODE[c] : -1;
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 255;
    }
  }
  return out.subarray(0, o);
}

// ---------------------------------------------------------------------------------------
// Capped inflation.

/**
 * Inflate raw DEFLATE `bytes`, stopping as soon as the output passes `cap` bytes.
 * @param {Uint8Array} bytes
 * @param {number} cap
 * @returns {{ok: true, bytes: Uint8Array, produced: number} |
 *           {ok: false, reason: 'cap'|'truncated'|'corrupt', produced: number}}
 *   produced: bytes inflated before stopping (bounded by cap + ~1032 * INFLATE_PUSH_BYTES)
 */
export function inflateCapped(bytes, cap) {
  const chunks = [];
  let produced = 0;
  let over = false;
  let finished = false;
  const inflater = new Inflate((chunk, final) => {
    produced += chunk.length;
    if (produced > cap) {
      over = true;
      return;
    }
    chunks.push(chunk);
    if (final) finished = true;
  });
  try {
    for (let i = 0; i < bytes.length && !over; i += INFLATE_PUSH_BYTES) {
      const end = Math.min(bytes.length, i + INFLATE_PUSH_BYTES);
      inflater.push(bytes.subarray(i, end), end === bytes.length);
    }
    if (bytes.length === 0) inflater.push(new Uint8Array(0), true);
  } catch (e) {
    // fflate's error code 0 is 'unexpected EOF': the data stops before the stream's end.
    if (!over) return { ok: false, reason: e && e.code === 0 ? 'truncated' : 'corrupt', produced };
  }
  if (over) return { ok: false, reason: 'cap', produced };
  if (!finished) return { ok: false, reason: 'truncated', produced };
  const out = new Uint8Array(produced);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return { ok: true, bytes: out, produced };
}

// ---------------------------------------------------------------------------------------
// Schema.

class SchemaError extends Error {}

function schemaFail(message) {
  throw new SchemaError(message);
}

const isPlainObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function checkString(value, field, maxChars, { allowNewlines = false } = {}) {
  if (typeof value !== 'string') schemaFail(`${field} must be text`);
  if (value.length > maxChars) schemaFail(`${field} is longer than ${maxChars} characters`);
  if (CONTROL.test(value) || (!allowNewlines && /[\r\n\t]/.test(value))) schemaFail(`${field} contains control characters`);
  return value;
}

function checkInt(value, field, lo, hi) {
  if (!Number.isSafeInteger(value) || value < lo || value > hi) {
    schemaFail(`${field} must be a whole number from ${lo} to ${hi}`);
  }
  return value;
}

function checkPuzzle(p, { libraryFiles } = {}) {
  if (!isPlainObject(p)) schemaFail('puzzle must be an object');
  const hasLibrary = p.library !== undefined;
  const hasDefinition = p.definition !== undefined;
  if (hasLibrary === hasDefinition) schemaFail('puzzle must name either a library file or a definition, not both or neither');
  if (hasLibrary) {
    const file = checkString(p.library, 'puzzle.library', 104);
    if (!LIBRARY_FILE.test(file)) schemaFail('puzzle.library is not the name of a puzzle file (name.txt)');
    if (libraryFiles && !libraryFiles.includes(file)) schemaFail(`puzzle.library names a file the library does not have: ${file}`);
    const index = p.index === undefined ? 0 : checkInt(p.index, 'puzzle.index', 0, MAX_PUZZLE_INDEX);
    return { library: file, index };
  }
  const text = checkString(p.definition, 'puzzle.definition', MAX_DEFINITION_CHARS, { allowNewlines: true });
  if (text.trim() === '') schemaFail('puzzle.definition is empty');
  // A text may hold several puzzles: index picks one (kept only when the link has it).
  const out = { definition: text };
  if (p.index !== undefined) out.index = checkInt(p.index, 'puzzle.index', 0, MAX_PUZZLE_INDEX);
  if (p.colours !== undefined) {
    if (!Array.isArray(p.colours) || p.colours.length > MAX_INSTANCE_INDEX + 1) schemaFail(`puzzle.colours must be a list of at most ${MAX_INSTANCE_INDEX + 1} numbers`);
    out.colours = p.colours.map((c, i) => checkInt(c, `puzzle.colours[${i}]`, 0, MAX_INSTANCE_INDEX));
  }
  return out;
}

function checkSolution(s) {
  if (!isPlainObject(s)) schemaFail('solution must be an object');
  const index = checkInt(s.index, 'solution.index', 1, Number.MAX_SAFE_INTEGER);
  if (!Array.isArray(s.grid)) schemaFail('solution.grid must be a list of numbers');
  if (s.grid.length === 0 || s.grid.length > MAX_GRID_CELLS) schemaFail(`solution.grid must have 1 to ${MAX_GRID_CELLS} cells`);
  const grid = new Array(s.grid.length);
  for (let i = 0; i < s.grid.length; i++) {
    const v = s.grid[i];
    if (!Number.isInteger(v) || v < -1 || v > MAX_INSTANCE_INDEX) {
      schemaFail(`solution.grid[${i}] must be a piece number from -1 to ${MAX_INSTANCE_INDEX}`);
    }
    grid[i] = v;
  }
  return { index, grid };
}

function checkPlay(p) {
  if (!isPlainObject(p)) schemaFail('play must be an object');
  if (!Array.isArray(p.placed) || p.placed.length > MAX_INSTANCE_INDEX + 1) schemaFail(`play.placed must be a list of at most ${MAX_INSTANCE_INDEX + 1} pieces`);
  let cells = 0;
  const placed = p.placed.map((q, i) => {
    const field = `play.placed[${i}]`;
    if (!Array.isArray(q) || q.length < 2) schemaFail(`${field} must be a piece number followed by its cells`);
    cells += q.length - 1;
    if (cells > MAX_GRID_CELLS) schemaFail(`play.placed has more than ${MAX_GRID_CELLS} cells`);
    return q.map((v, k) => (k === 0 ? checkInt(v, `${field}[0]`, 0, MAX_INSTANCE_INDEX) : checkInt(v, `${field}[${k}]`, 0, MAX_GRID_CELLS - 1)));
  });
  const out = { placed };
  if (p.given !== undefined) out.given = checkInt(p.given, 'play.given', 0, placed.length);
  if (p.challenge !== undefined) {
    const id = checkString(p.challenge, 'play.challenge', MAX_CHALLENGE_CHARS);
    if (!CHALLENGE_ID.test(id)) schemaFail('play.challenge is not the name of a challenge');
    out.challenge = id;
  }
  return out;
}

function checkViewValue(v, field) {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) schemaFail(`${field} must be a finite number`);
    return v;
  }
  if (typeof v === 'string') return checkString(v, field, VIEW_LIMITS.stringChars);
  schemaFail(`${field} must be a number, text or true/false`);
  return undefined;
}

function checkView(view) {
  if (!isPlainObject(view)) schemaFail('view must be an object');
  const keys = Object.keys(view);
  if (keys.length > VIEW_LIMITS.keys) schemaFail(`view has more than ${VIEW_LIMITS.keys} settings`);
  const out = {};
  for (const key of keys) {
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key) || key.length > VIEW_LIMITS.keyChars) schemaFail('view has a setting with an invalid name');
    const v = view[key];
    const field = `view.${key}`;
    if (Array.isArray(v)) {
      if (v.length > VIEW_LIMITS.arrayItems) schemaFail(`${field} has more than ${VIEW_LIMITS.arrayItems} items`);
      out[key] = v.map((x, i) => checkViewValue(x, `${field}[${i}]`));
    } else {
      out[key] = checkViewValue(v, field);
    }
  }
  // the settings a lesson's link names are checked for what they mean, not only their type
  if (out.lesson !== undefined && (typeof out.lesson !== 'string' || !LESSON_ID.test(out.lesson))) schemaFail('view.lesson is not the name of a lesson');
  if (out.lessonStep !== undefined) checkInt(out.lessonStep, 'view.lessonStep', 0, MAX_LESSON_STEP);
  if (out.step !== undefined) checkInt(out.step, 'view.step', 0, MAX_REPLAY_STEP);
  return out;
}

/**
 * Check a state against the schema; returns a fresh copy holding only the known fields.
 * Throws an Error whose message names the field when the state is not valid.
 * @param {unknown} state
 * @param {{libraryFiles?: string[]}} [context]
 */
export function checkState(state, context = {}) {
  if (!isPlainObject(state)) schemaFail('the state must be an object');
  const out = { puzzle: checkPuzzle(state.puzzle, context) };
  out.options = state.options === undefined ? '' : checkString(state.options, 'options', MAX_OPTIONS_CHARS);
  if (state.solution !== undefined) out.solution = checkSolution(state.solution);
  if (state.view !== undefined) out.view = checkView(state.view);
  if (state.play !== undefined) out.play = checkPlay(state.play);
  return out;
}

/**
 * What is wrong with a decoded solution for a loaded puzzle, or null: the grid must have one
 * entry per box cell and name instances the puzzle has.
 * @param {{grid: number[]}} solution
 * @param {number} cellCount box cells of the puzzle
 * @param {number} instanceCount piece instances of the puzzle (stationary ones included)
 */
export function solutionProblem(solution, cellCount, instanceCount) {
  if (solution.grid.length !== cellCount) {
    return `the link's solution has ${solution.grid.length} cells but the puzzle has ${cellCount}`;
  }
  const bad = solution.grid.findIndex((v) => v >= instanceCount);
  if (bad >= 0) return `the link's solution names piece ${solution.grid[bad]} but the puzzle has ${instanceCount} pieces`;
  return null;
}

// ---------------------------------------------------------------------------------------
// Encode and decode.

/**
 * The fragment for `state` ('#p1:...'). Throws when the state is not valid (the message names
 * the field) or when the link would be longer than MAX_LINK_CHARS (decodeState would refuse it).
 * @param {object} state
 * @returns {string}
 */
export function encodeState(state) {
  let clean;
  try {
    clean = checkState(state);
  } catch (e) {
    throw new TypeError(`encodeState: ${e.message}`);
  }
  const json = new TextEncoder().encode(JSON.stringify(clean));
  if (json.length > MAX_DECOMPRESSED_BYTES) {
    throw new RangeError(`encodeState: the state is ${json.length} bytes, more than a link may hold (${MAX_DECOMPRESSED_BYTES})`);
  }
  const link = LINK_PREFIX + toBase64Url(deflateSync(json, { level: 9 }));
  if (link.length > MAX_LINK_CHARS) {
    throw new RangeError(`encodeState: the link would be ${link.length} characters, more than ${MAX_LINK_CHARS}`);
  }
  return link;
}

/** Plain messages for each way a link can be unusable (the UI shows them as text). */
export const LINK_ERRORS = Object.freeze({
  empty: 'The address holds no puzzle link.',
  notALink: 'The address does not hold a puzzle link (a link starts with #p1:).',
  version: (v) => `This link was made by another version of the page (format p${v}); this page reads p1 links.`,
  tooLong: (n) => `The link is too long (${n} characters; at most ${MAX_LINK_CHARS}).`,
  notBase64: 'The link is damaged: it contains characters a link cannot have.',
  truncated: 'The link is cut short: copy the whole link and try again.',
  corrupt: 'The link is damaged: its data cannot be decompressed.',
  bomb: `The link unpacks to more than ${MAX_DECOMPRESSED_BYTES / 1_000_000} MB and was refused.`,
  notJson: 'The link is damaged: its contents are not readable.',
  schema: (m) => `The link does not describe a puzzle this page can show: ${m}.`,
});

/**
 * Read a fragment made by encodeState. Never throws.
 * @param {string} hash location.hash ('#p1:...'; the leading '#' is optional)
 * @param {{libraryFiles?: string[]}} [context] libraryFiles: the files of def/ the page has
 * @returns {{ok: true, state: object} | {ok: false, error: string}}
 */
export function decodeState(hash, context = {}) {
  if (typeof hash !== 'string' || hash === '' || hash === '#') return { ok: false, error: LINK_ERRORS.empty };
  if (hash.length > MAX_LINK_CHARS) return { ok: false, error: LINK_ERRORS.tooLong(hash.length) };
  const text = hash.startsWith('#') ? hash : `#${hash}`;
  const m = /^#p([0-9]{1,6}):/.exec(text);
  if (!m) return { ok: false, error: LINK_ERRORS.notALink };
  if (m[1] !== '1') return { ok: false, error: LINK_ERRORS.version(m[1]) };
  const body = text.slice(m[0].length);
  const bytes = fromBase64Url(body);
  // (a length no encoding gives, with every character one a link has: the link is cut short)
  if (bytes === null) return { ok: false, error: fromBase64Url(body.slice(0, -1)) ? LINK_ERRORS.truncated : LINK_ERRORS.notBase64 };
  if (bytes.length === 0) return { ok: false, error: LINK_ERRORS.truncated };
  const inflated = inflateCapped(bytes, MAX_DECOMPRESSED_BYTES);
  if (!inflated.ok) {
    const error = { cap: LINK_ERRORS.bomb, truncated: LINK_ERRORS.truncated, corrupt: LINK_ERRORS.corrupt }[inflated.reason];
    return { ok: false, error };
  }
  let value;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inflated.bytes));
  } catch {
    return { ok: false, error: LINK_ERRORS.notJson };
  }
  try {
    return { ok: true, state: checkState(value, context) };
  } catch (e) {
    if (e instanceof SchemaError) return { ok: false, error: LINK_ERRORS.schema(e.message) };
    return { ok: false, error: LINK_ERRORS.notJson };
  }
}
