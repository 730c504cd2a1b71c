// What the page reads back from the browser's storage (localStorage) is checked before it is
// used, and a damaged value is never written over unread: its text is first copied to a backup
// key beside it ("<key>.damaged.<time>"), the page is told (an issue naming the store, what is
// wrong and what could be recovered), and what can be read is recovered: the complete entries
// of a list or the complete fields of a record cut short, the well-formed entries of a list
// with bad ones. The backups stay until the person downloads or deletes them (each load lists
// them again).
//
//   const guard = new StorageGuard(localStorage, { onIssue: (issue) => show(issue) });
//   const { value } = guard.read('polycube.myPuzzles.v1', { name: 'My puzzles', check });
//     check(parsed) -> { value, problems: [...] }: the usable part and what is wrong ([] when sound)
//   guard.writable(key)       // false while a damaged value could not be set aside
//   guard.backups()           // [{key, of, name, size, raw}] set aside (this load or earlier)
//   guard.removeBackup(key)
//
// Storage may be missing or refuse access: every call is safe.

export const DAMAGED_INFIX = '.damaged.';

/**
 * The value made of the complete elements of a JSON array, or the complete members of a JSON
 * object, whose text was cut short (undefined when the text does not start as one). Elements
 * that are themselves cut short are left out.
 */
export function completePrefix(text) {
  if (typeof text !== 'string') return undefined;
  const start = text.search(/\S/);
  if (start < 0 || (text[start] !== '[' && text[start] !== '{')) return undefined;
  const close = text[start] === '[' ? ']' : '}';
  let depth = 0;
  let quoted = false;
  let escaped = false;
  let lastEnd = -1; // the index after the last complete element at depth 1
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return undefined; // complete after all: not cut short (JSON.parse said why)
      if (depth === 1) lastEnd = i + 1;
    } else if (c === ',' && depth === 1) {
      lastEnd = i; // a scalar element or member ends here
    }
  }
  // (a comma inside a string of the last element can mislead the scan: a few earlier cuts)
  for (let end = lastEnd, tries = 0; end > start && tries < 50; end = text.lastIndexOf(',', end - 1), tries++) {
    try {
      return JSON.parse(`${text.slice(start, end).replace(/,\s*$/, '')}${close}`);
    } catch {
      // the last piece was a key without its value: one element less
    }
  }
  try {
    return JSON.parse(`${text[start]}${close}`);
  } catch {
    return undefined;
  }
}

function defaultNow() {
  return Date.now();
}

export class StorageGuard {
  /**
   * @param {Storage|null} storage
   * @param {{onIssue?: (issue: object) => void, now?: () => number}} [o]
   */
  constructor(storage, { onIssue = null, now = defaultNow } = {}) {
    this.storage = storage || null;
    this.onIssue = onIssue;
    this.now = now;
    this.frozen = new Set(); // keys whose damaged value could not be set aside: not written over
    this.seen = new Map();   // key -> the damaged text already reported this load
    this.names = new Map();  // key -> the store's name (for backups of earlier loads)
    this.issues = [];        // every issue reported this load
  }

  /**
   * The value of `key` (undefined when absent). A damaged value is set aside and reported once
   * per load, and what `check` recovers from it is returned.
   * @param {string} key
   * @param {{name: string, check: (parsed: any) => {value: any, problems: string[]}}} spec
   */
  read(key, { name, check }) {
    this.names.set(key, name);
    let raw;
    try {
      raw = this.storage ? this.storage.getItem(key) : null;
    } catch {
      return { value: undefined };
    }
    if (raw === null) return { value: undefined };
    let parsed;
    let problems;
    let value;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = undefined;
    }
    if (parsed !== undefined) {
      ({ value, problems } = check(parsed));
    } else {
      const prefix = completePrefix(raw);
      const cut = raw.trim() === '' ? 'it is empty' : prefix !== undefined ? 'its text is cut short' : 'it is not readable text of the page (not JSON)';
      if (prefix !== undefined) ({ value, problems } = check(prefix));
      else ({ value, problems } = { value: undefined, problems: [] });
      problems = [cut, ...problems];
    }
    if (problems.length === 0) return { value };
    if (this.seen.get(key) !== raw) {
      this.seen.set(key, raw);
      this.setAside(key, name, raw, problems, value);
    }
    return { value, damaged: true };
  }

  // Copy the damaged text to a backup key (unless an identical copy is kept already), then report.
  setAside(key, name, raw, problems, recovered) {
    let backupKey = this.backups().find((b) => b.of === key && b.raw === raw)?.key || '';
    if (!backupKey) {
      const stamp = new Date(this.now()).toISOString().replace(/[:.]/g, '-');
      backupKey = `${key}${DAMAGED_INFIX}${stamp}`;
      try {
        for (let n = 2; this.storage.getItem(backupKey) !== null; n++) backupKey = `${key}${DAMAGED_INFIX}${stamp}-${n}`;
        this.storage.setItem(backupKey, raw);
        this.frozen.delete(key);
      } catch {
        backupKey = '';
        this.frozen.add(key); // (storage full or refused) the damaged value stays where it is, unwritten
      }
    }
    const issue = {
      key, name, backupKey, size: raw.length, raw, problems,
      message: issueMessage({ key, name, backupKey, size: raw.length, problems, recovered }),
    };
    this.issues.push(issue);
    if (this.onIssue) this.onIssue(issue);
  }

  /** False while `key` holds a damaged value that could not be copied aside. */
  writable(key) {
    return !this.frozen.has(key);
  }

  /** Damaged values set aside, this load or earlier: [{key, of, name, size, raw, at}]. */
  backups() {
    const out = [];
    if (!this.storage) return out;
    try {
      for (let i = 0; i < this.storage.length; i++) {
        const key = this.storage.key(i);
        const at = key ? key.indexOf(DAMAGED_INFIX) : -1;
        if (at < 0) continue;
        const of = key.slice(0, at);
        const raw = this.storage.getItem(key) ?? '';
        out.push({ key, of, name: this.names.get(of) || of, size: raw.length, raw, at: key.slice(at + DAMAGED_INFIX.length) });
      }
    } catch {
      // storage refused: nothing listed
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : 1));
  }

  removeBackup(key) {
    if (!key.includes(DAMAGED_INFIX)) return false;
    try {
      this.storage.removeItem(key);
      return true;
    } catch {
      return false;
    }
  }
}

function issueMessage({ key, name, backupKey, size, problems, recovered }) {
  const what = problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : '');
  const kept = Array.isArray(recovered) ? ` ${recovered.length} ${recovered.length === 1 ? 'entry was' : 'entries were'} recovered.` : '';
  const where = backupKey
    ? ` Its text (${size.toLocaleString('en-US')} characters) is kept as "${backupKey}": download it to mend it, or delete it.`
    : ` Its text (${size.toLocaleString('en-US')} characters) could not be copied aside (the storage is full), so nothing is written over it: download it, then free some space.`;
  return `${name} ("${key}") could not be read back from this browser's storage as the page wrote it: ${what}.${kept}${where}`;
}
