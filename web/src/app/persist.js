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

const PUZZLES_KEY = 'polycube.myPuzzles.v1';
const SESSION_KEY = 'polycube.session.v1';
const SETTINGS_KEY = 'polycube.settings.v1';
export const MAX_SAVED_PUZZLES = 200;
export const MAX_SAVED_TEXT = 512 * 1024; // characters of one puzzle's text

export class Persist {
  /** @param {Storage|null} storage */
  constructor(storage) {
    this.storage = storage || null;
    this.lastError = '';
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
      this.lastError = 'this browser keeps no local storage for the page';
      return false;
    }
    try {
      this.storage.setItem(key, JSON.stringify(value));
      this.lastError = '';
      return true;
    } catch (err) {
      this.lastError = `could not save in the browser (${err && err.name === 'QuotaExceededError' ? 'storage full' : err && err.message ? err.message : err})`;
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
    const entry = { id: key, title: String(title || 'Untitled puzzle').slice(0, 200), text, savedAt: Date.now() };
    const rest = list.filter((p) => p.id !== key);
    return this.write(PUZZLES_KEY, [entry, ...rest].slice(0, MAX_SAVED_PUZZLES)) ? key : '';
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

/** The page's storage, or null where the browser refuses it. */
export function browserStorage() {
  try {
    const s = window.localStorage;
    const probe = '__polycube_probe__';
    s.setItem(probe, '1');
    s.removeItem(probe);
    return s;
  } catch {
    return null;
  }
}
