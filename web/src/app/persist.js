// What the browser keeps between visits (localStorage): "My puzzles" (the person's own puzzles,
// as definition text) and the session (what was on screen: the puzzle being edited, the text
// box, the options), so nothing typed or drawn is lost by a reload or a bad load.
//
//   const saved = new Persist(window.localStorage);
//   saved.puzzles();                       // [{id, title, text, savedAt}], newest first
//   saved.savePuzzle({ id?, title, text }) // -> id
//   saved.saveSession({...}); saved.session();
//   saved.saveSettings({ workers: 4 }); saved.settings();
//
// Storage can be missing, full or forbidden (private windows, quotas): every call is safe, and a
// failed write is reported through `lastError` rather than thrown.
import { titleOf } from './format.js';

const PUZZLES_KEY = 'polycube.myPuzzles.v1';
const SESSION_KEY = 'polycube.session.v1';
const SETTINGS_KEY = 'polycube.settings.v1';
export const MAX_SAVED_PUZZLES = 200;
export const MAX_SAVED_TEXT = 512 * 1024; // characters of one puzzle's text

export class Persist {
  /** @param {Storage|null} storage */
  constructor(storage) {
    this.storage = storage || null;
    this.lastError = '';   // why the last write failed, as a sentence for a notice ('' when it worked)
    this.lastDropped = ''; // the title of a puzzle dropped by the last savePuzzle to stay within MAX_SAVED_PUZZLES
  }

  read(key, fallback) {
    try {
      const raw = this.storage ? this.storage.getItem(key) : null;
      return raw ? JSON.parse(raw) : fallback;
    } catch {
      return fallback; // unreadable or corrupted: start afresh rather than fail
    }
  }

  write(key, value) {
    if (!this.storage) {
      this.lastError = 'This browser keeps no storage for the page: nothing is kept after a reload (Download puzzle keeps a puzzle as a file).';
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

  /** My puzzles, newest first; entries that are not of the expected shape are skipped. */
  puzzles() {
    const list = this.read(PUZZLES_KEY, []);
    if (!Array.isArray(list)) return [];
    return list.filter((p) => p && typeof p.id === 'string' && typeof p.text === 'string' && typeof p.title === 'string');
  }

  /** Save (or update, by id) one of my puzzles; returns its id, or '' when it could not be kept. */
  savePuzzle({ id, title, text }) {
    if (typeof text !== 'string' || text.length > MAX_SAVED_TEXT) {
      this.lastError = `the puzzle's text is longer than ${MAX_SAVED_TEXT} characters and was not saved`;
      return '';
    }
    const list = this.puzzles();
    // the same text saved again (a link opened twice, a file imported twice) keeps one entry
    if (!id) id = (list.find((p) => p.text === text) || {}).id;
    const key = id || `p${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    const entry = { id: key, title: String(titleOf(title)).slice(0, 200), text, savedAt: Date.now() };
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

  session() {
    const s = this.read(SESSION_KEY, null);
    return s && typeof s === 'object' ? s : null;
  }

  saveSession(snapshot) {
    return this.write(SESSION_KEY, snapshot);
  }

  /** The person's settings ({workers}); {} when none were saved. */
  settings() {
    const s = this.read(SETTINGS_KEY, {});
    return s && typeof s === 'object' && !Array.isArray(s) ? s : {};
  }

  saveSettings(patch) {
    return this.write(SETTINGS_KEY, { ...this.settings(), ...patch });
  }
}

/** The page's storage, or null where the browser refuses it. A full storage is still one:
 * what it holds is read (QA: probed by a write, a full one hid every saved puzzle), and writes
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
