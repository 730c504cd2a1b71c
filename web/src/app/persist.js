// What the browser keeps between visits (localStorage): "My puzzles" (the person's own puzzles,
// as definition text) and the session (what was on screen: the puzzle being edited, the text
// box, the options), so nothing typed or drawn is lost by a reload or a bad load.
//
//   const saved = new Persist(window.localStorage, { guard });   // guard: reports a damaged store (below)
//   saved.puzzles();                       // [{id, title, text, savedAt}], newest first
//   saved.savePuzzle({ id?, title, text }) // -> id
//   saved.saveSession({...}); saved.session();
//   saved.saveSettings({ workers: 4 }); saved.settings();
//
// Storage can be missing, full or forbidden (private windows, quotas): every call is safe, and a
// failed write is reported through `lastError` rather than thrown. What is read back is checked
// (the checks below, one per key): a damaged value (cut short, of another shape, with entries
// or fields the page never writes) is set aside under a backup key before anything writes over
// it, reported through onIssue, and what can be read of it is used (storage-guard.js).
import { titleOf } from './format.js';
import { MAX_POOL_SIZE } from '../pool/solver-pool.js';
import { StorageGuard } from './storage-guard.js';

const PUZZLES_KEY = 'polycube.myPuzzles.v1';
const SESSION_KEY = 'polycube.session.v1';
const SETTINGS_KEY = 'polycube.settings.v1';
export const MAX_SAVED_PUZZLES = 200;
export const MAX_SAVED_TEXT = 512 * 1024; // characters of one puzzle's text
const MAX_TITLE = 200;
/** The title as My puzzles keeps it (an empty one named, at most MAX_TITLE characters). */
export const storedTitle = (title) => String(titleOf(title)).slice(0, MAX_TITLE);
const MAX_DATE = 8.64e15; // the latest time a Date holds (ms)

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isWhole = (v) => Number.isSafeInteger(v) && v >= 0;
const unknownKeys = (value, known) => Object.keys(value).filter((k) => !known.includes(k));
const shown = (keys) => keys.slice(0, 3).map((k) => `"${String(k).slice(0, 40)}"`).join(', ') + (keys.length > 3 ? ', …' : '');

/** {piece name: colour slot} as the page keeps it, or null when `value` is not one. */
export function plainSlots(value) {
  if (!isObject(value)) return null;
  const entries = Object.entries(value);
  if (entries.length > 10000 || !entries.every(([, v]) => Number.isInteger(v) && v >= 0 && v < 100000)) return null;
  return Object.fromEntries(entries);
}

// My puzzles: a list of {id, title, text, savedAt}, ids distinct. Bad entries are left out.
function checkPuzzles(list) {
  if (!Array.isArray(list)) return { value: [], problems: ['it is not a list of puzzles'] };
  const problems = [];
  const value = [];
  const ids = new Set();
  list.forEach((p, k) => {
    const at = `entry ${k + 1} of ${list.length}`;
    if (!isObject(p)) return problems.push(`${at} is not a puzzle`);
    const bad = ['id', 'title', 'text'].filter((f) => typeof p[f] !== 'string');
    if (bad.length) return problems.push(`${at} has no ${bad.join(', no ')} (as text)`);
    if (p.id === '' || p.id.length > 100) return problems.push(`${at} has no usable id`);
    if (ids.has(p.id)) return problems.push(`${at} repeats the id of an earlier one`);
    if (p.text.length > MAX_SAVED_TEXT) return problems.push(`${at} holds a text longer than ${MAX_SAVED_TEXT} characters`);
    if (p.savedAt !== undefined && !(p.savedAt >= 0 && p.savedAt <= MAX_DATE)) problems.push(`${at} has a bad date`);
    const extra = unknownKeys(p, ['id', 'title', 'text', 'savedAt']);
    if (extra.length) problems.push(`${at} has fields the page does not write (${shown(extra)})`);
    ids.add(p.id);
    value.push({ id: p.id, title: p.title.slice(0, MAX_TITLE), text: p.text, savedAt: p.savedAt >= 0 && p.savedAt <= MAX_DATE ? p.savedAt : 0 });
    return undefined;
  });
  if (value.length > MAX_SAVED_PUZZLES) problems.push(`it holds ${value.length} puzzles, more than the ${MAX_SAVED_PUZZLES} kept`);
  return { value: value.slice(0, MAX_SAVED_PUZZLES), problems };
}

// One field of a record: `ok(value)` says whether it is sound; unsound ones are left out.
// `optional`: the fields a record may lack (written by later versions of the page only).
function checkRecord(record, fields, what, optional = []) {
  if (!isObject(record)) return { value: null, problems: [`it is not ${what}`] };
  const problems = [];
  const value = {};
  for (const [key, ok] of Object.entries(fields)) {
    if (record[key] === undefined) {
      if (!optional.includes(key)) problems.push(`its "${key}" is missing`);
      continue;
    }
    if (ok(record[key])) value[key] = record[key];
    else problems.push(`its "${key}" is not what the page writes`);
  }
  const extra = unknownKeys(record, Object.keys(fields));
  if (extra.length) problems.push(`it has fields the page does not write (${shown(extra)})`);
  return { value, problems };
}

const optionalString = (v) => v === undefined || typeof v === 'string';
const slotsOrNull = (v) => v === null || v === undefined || plainSlots(v) !== null;
const SESSION_FIELDS = {
  source: (v) => isObject(v) && ['library', 'mine', 'custom'].includes(v.kind) && optionalString(v.file) && optionalString(v.id)
    && slotsOrNull(v.colourSlots) && unknownKeys(v, ['kind', 'file', 'id', 'colourSlots']).length === 0,
  puzzleIndex: isWhole,
  options: (v) => typeof v === 'string',
  definition: (v) => v === null || typeof v === 'string',
  editor: (v) => isObject(v) && typeof v.active === 'boolean' && optionalString(v.savedId) && slotsOrNull(v.colourSlots)
    && unknownKeys(v, ['active', 'savedId', 'colourSlots']).length === 0,
  lessonBefore: (v) => v === null || (isObject(v) && typeof v.lesson === 'string' && typeof v.options === 'string'),
  // the puzzle on screen that the browser could not keep (link-sync.js): said after a reload
  lost: (v) => v === null || (isObject(v) && typeof v.title === 'string' && isWhole(v.size) && ['tooLarge', 'notKept'].includes(v.why)),
};
const SETTINGS_FIELDS = {
  workers: (v) => Number.isInteger(v) && v >= 1 && v <= MAX_POOL_SIZE,
};

const STORES = {
  [PUZZLES_KEY]: { name: 'My puzzles', check: checkPuzzles },
  [SESSION_KEY]: { name: 'The last session (what was on screen)', check: (v) => checkRecord(v, SESSION_FIELDS, 'a session record', ['lost']) },
  [SETTINGS_KEY]: { name: 'The settings', check: (v) => checkRecord(v, SETTINGS_FIELDS, 'a settings record') },
};

export class Persist {
  /**
   * @param {Storage|null} storage
   * @param {{guard?: StorageGuard}} [o] where a damaged store is reported (storage-guard.js)
   */
  constructor(storage, { guard = null } = {}) {
    this.storage = storage || null;
    this.guard = guard || new StorageGuard(this.storage); // (the page shares one: main.js)
    this.lastError = '';   // why the last write failed, as a sentence for a notice ('' when it worked)
    this.lastDropped = ''; // the title of a puzzle dropped by the last savePuzzle to stay within MAX_SAVED_PUZZLES
  }

  /** Every key's value checked now (at start-up: a damaged one is set aside and reported at once). */
  checkAll() {
    for (const key of Object.keys(STORES)) this.read(key, undefined);
  }

  read(key, fallback) {
    const { value } = this.guard.read(key, STORES[key]);
    return value === undefined || value === null ? fallback : value;
  }

  write(key, value) {
    if (!this.storage) {
      this.lastError = 'This browser keeps no storage for the page: nothing is kept after a reload (Download puzzle keeps a puzzle as a file).';
      return false;
    }
    if (!this.guard.writable(key)) {
      this.lastError = `${STORES[key].name} ("${key}") could not be read back as the page wrote it, nor copied aside (the storage is full): nothing is written over it until it is downloaded and space is freed.`;
      return false;
    }
    try {
      this.storage.setItem(key, JSON.stringify(value));
      this.lastError = '';
      return true;
    } catch (err) {
      const why = err && err.name === 'QuotaExceededError' ? 'its storage for this page is full' : String(err && err.message ? err.message : err);
      this.lastError = `The browser could not save (${why}): what changed since is not kept after a reload. Download puzzle keeps a puzzle as a file.`;
      return false;
    }
  }

  /** My puzzles, newest first (of a damaged list, the entries that could be read). */
  puzzles() {
    return this.read(PUZZLES_KEY, []);
  }

  /** Save (or update, by id) one of my puzzles; returns its id, or '' when it could not be kept. */
  savePuzzle({ id, title, text }) {
    if (typeof text !== 'string' || text.length > MAX_SAVED_TEXT) {
      const size = typeof text === 'string' ? ` (${text.length.toLocaleString('en-US')} characters)` : '';
      this.lastError = `This puzzle's text${size} is longer than My puzzles keeps (${MAX_SAVED_TEXT.toLocaleString('en-US')} characters): `
        + 'it is not kept in the browser, and a reload will not bring it back. Download puzzle keeps it as a file.';
      return '';
    }
    const list = this.puzzles();
    // the same text saved again (a link opened twice, a file imported twice) keeps one entry
    if (!id) id = (list.find((p) => p.text === text) || {}).id;
    const key = id || `p${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    const entry = { id: key, title: storedTitle(title), text, savedAt: Date.now() };
    const rest = list.filter((p) => p.id !== key);
    const kept = [entry, ...rest];
    // (the oldest goes to make room; the caller says which: nothing leaves without a word)
    this.lastDropped = kept.length > MAX_SAVED_PUZZLES ? kept.slice(MAX_SAVED_PUZZLES).map((p) => p.title).join('", "') : '';
    return this.write(PUZZLES_KEY, kept.slice(0, MAX_SAVED_PUZZLES)) ? key : '';
  }

  /** True when a `storage` event's key is My puzzles' (written by another tab or window). */
  static isPuzzlesKey(key) {
    return key === PUZZLES_KEY;
  }

  removePuzzle(id) {
    return this.write(PUZZLES_KEY, this.puzzles().filter((p) => p.id !== id));
  }

  /** The last session (its sound fields), or null. */
  session() {
    return this.read(SESSION_KEY, null);
  }

  saveSession(snapshot) {
    return this.write(SESSION_KEY, snapshot);
  }

  /** The person's settings ({workers}); {} when none were saved. */
  settings() {
    return this.read(SETTINGS_KEY, {});
  }

  saveSettings(patch) {
    return this.write(SETTINGS_KEY, { ...this.settings(), ...patch });
  }
}

/** The page's storage, or null where the browser refuses it. A full storage is still one:
 * what it holds is read (so it is not probed by a write, which a full one refuses: that would
 * hide every saved puzzle), and writes
 * report that it is full (lastError). */
export function browserStorage() {
  try {
    const s = window.localStorage;
    s.getItem('polycube.probe');
    return s;
  } catch {
    return null;
  }
}

/** The notice after saving one of my puzzles: why it was not kept, or which old one made room. */
export function saveNotice(persist) {
  if (persist.lastError) return persist.lastError;
  if (persist.lastDropped) return `My puzzles keeps the ${MAX_SAVED_PUZZLES} newest: "${persist.lastDropped}" made room (download a puzzle to keep it as a file).`;
  return '';
}
