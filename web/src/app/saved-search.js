// A long search kept in the browser (IndexedDB) so that it survives a reload or a closed tab:
// the puzzle's text, the options, and the worker pool's checkpoint (PieceBook:
// the pieces still to search, what is done, the solutions found in it). One search is kept:
// the last one that ran long enough to be worth it.
//
//   const saved = new SavedSearches(indexedDB);       // null: nothing is kept (tests, old browsers)
//   await saved.save(record); await saved.load(); await saved.clear();
//   validSavedSearch(record)   // '' or what is wrong with it
//
// What comes back from storage is checked before anything uses it (validSavedSearch here, then
// the engine's checks of its pieces before a resume: pool/solver-pool.js): a damaged or foreign
// record is never searched, and never deleted unasked: the page says what is wrong and offers to
// discard it (or download it). A damaged journal is set aside like the page's other keys
// (storage-guard.js).
//
// The tabs of one browser hear of each other's changes (a BroadcastChannel): a kept search
// finished or discarded in one tab is no longer offered in another (which would search the
// rest again), and one kept anew is offered there.

import { StorageGuard } from './storage-guard.js';

const DB_NAME = 'polycube';
const STORE = 'searches';
const KEY = 'current';
export const SAVED_SEARCH_VERSION = 1;
/** How often a running shared search is written down (and at the end, when stopped). */
export const CHECKPOINT_MS = 5000;
/** A search is kept (when stopped, or as the page goes away) once it has run this long. Rule:
 * keep this below CHECKPOINT_MS, so that a reload a few seconds into a search finds it to
 * resume, and above the pool's split for checkpoints (pool/solver-pool.js SPLIT_AFTER_MS, 1 s). */
export const KEEP_AFTER_MS = 2000;

// Every save also writes the record without its solutions' grids to localStorage, which is
// synchronous: an IndexedDB write made as the page goes away (pagehide) is dropped now and then
// with the page even when committed at once (2 of 3 reloads of a loaded 2-core machine), while
// this small journal always lands. load() takes the newer of the two; the journal borrows the
// grids of the IndexedDB record of the same search (its confirmed solutions are a subset of the
// journal's, which counts the rest).
export const JOURNAL_KEY = 'polycube.savedSearch.journal.v1';

function defaultStorage() {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // refused (private windows, sandboxed frames)
  }
}

const CHANNEL = 'polycube-kept-search';

const sameSearch = (a, b) => a.text === b.text && a.options === b.options && a.puzzleIndex === b.puzzleIndex
  && a.checkpoint && b.checkpoint && a.checkpoint.fingerprint === b.checkpoint.fingerprint && a.checkpoint.cellCount === b.checkpoint.cellCount;

export class SavedSearches {
  /**
   * @param {IDBFactory|null} factory
   * @param {{storage?: Storage|null, guard?: StorageGuard, channel?: BroadcastChannel|null}} [o] where the
   *   journal is kept (localStorage by default), its guard, the channel to the other tabs
   */
  constructor(factory, { storage = defaultStorage(), guard = null, channel = defaultChannel() } = {}) {
    this.factory = factory || null;
    this.storage = factory ? storage : null;
    this.guard = guard || new StorageGuard(this.storage); // (the page shares one: main.js)
    this.db = null;
    this.handle = null; // the open database once open() has resolved (for saveNow)
    this.lastError = '';
    this.channel = factory ? channel : null;
    this.listeners = [];
    if (this.channel) this.channel.onmessage = (e) => this.listeners.forEach((fn) => fn(e.data));
  }

  /**
   * Hear of another tab's change of the kept search: fn({type: 'saved', record}) (the record
   * without its solutions' grids) or fn({type: 'cleared'}).
   */
  listen(fn) {
    this.listeners.push(fn);
  }

  tell(message) {
    try {
      if (this.channel) this.channel.postMessage(message);
    } catch {
      // (a record the channel cannot copy: the other tabs learn of it at their next load)
    }
  }

  open() {
    if (!this.factory) return Promise.resolve(null);
    if (!this.db) {
      this.db = new Promise((resolve, reject) => {
        let request;
        try {
          request = this.factory.open(DB_NAME, 1);
        } catch (err) {
          reject(err);
          return;
        }
        request.onupgradeneeded = () => request.result.createObjectStore(STORE);
        request.onsuccess = () => {
          this.handle = request.result;
          resolve(request.result);
        };
        request.onerror = () => reject(request.error);
        request.onblocked = () => reject(new Error('the browser storage is blocked by another tab'));
      }).catch((err) => {
        this.lastError = `The browser refused its storage (${err && err.message ? err.message : err}): a search cannot be kept for resuming after a reload.`;
        this.db = null;
        return null;
      });
    }
    return this.db;
  }

  async run(mode, fn) {
    const db = this.handle || (await this.open());
    if (!db) return undefined;
    return this.transact(db, mode, fn);
  }

  transact(db, mode, fn) {
    return new Promise((resolve) => {
      try {
        const tx = db.transaction(STORE, mode);
        const request = fn(tx.objectStore(STORE));
        // Committed at once rather than when the task ends: a write made as the page goes away
        // (pagehide) was otherwise dropped with the page before it committed.
        if (mode === 'readwrite' && typeof tx.commit === 'function') tx.commit();
        tx.oncomplete = () => resolve(request.result);
        tx.onerror = () => {
          this.lastError = `The search could not be kept in the browser (${tx.error && tx.error.name === 'QuotaExceededError' ? 'its storage is full' : tx.error}): a reload will not offer to resume it.`;
          resolve(undefined);
        };
        tx.onabort = tx.onerror;
      } catch (err) {
        this.lastError = `The search could not be kept in the browser (${err && err.message ? err.message : err}): a reload will not offer to resume it.`;
        resolve(undefined);
      }
    });
  }

  save(record) {
    const light = withoutGrids(record);
    this.writeJournal(light);
    this.tell({ type: 'saved', record: light });
    return this.run('readwrite', (s) => s.put(record, KEY));
  }

  writeJournal(light) {
    if (!this.storage || !this.guard.writable(JOURNAL_KEY)) return;
    try {
      this.storage.setItem(JOURNAL_KEY, JSON.stringify(light));
    } catch {
      // storage full or refused: the IndexedDB record is still written
    }
  }

  /** The journal when it is sound (a damaged one is set aside and reported: storage-guard.js). */
  journal() {
    return this.guard.read(JOURNAL_KEY, { name: 'The journal of the kept search', check: checkJournal }).value || null;
  }

  /**
   * The newest record kept: IndexedDB's, or the journal when it was written later; undefined
   * when none is kept. A damaged record (any value the page does not write, null included)
   * comes back as it is, for the page to say so.
   */
  async load() {
    const j = this.journal(); // (read first: a damaged journal is reported in any case)
    const record = await this.run('readonly', (s) => s.get(KEY));
    // a damaged record is the page's to report (and the person's to discard): a journal
    // standing in for it would let the next save write over it unsaid
    if (record !== undefined && validSavedSearch(record)) return record;
    if (!j || !(Number(j.savedAt) > (record ? Number(record.savedAt) || 0 : 0))) return record;
    const ck = record && sameSearch(record, j) && record.checkpoint.grids && record.checkpoint.grids.length / record.checkpoint.cellCount <= j.checkpoint.solutions
      ? record.checkpoint.grids
      : new Uint8Array(0);
    return { ...j, checkpoint: { ...j.checkpoint, grids: ck } };
  }

  clear() {
    try {
      if (this.storage && this.guard.writable(JOURNAL_KEY)) this.storage.removeItem(JOURNAL_KEY);
    } catch {
      // refused: nothing was kept there either
    }
    this.tell({ type: 'cleared' });
    return this.run('readwrite', (s) => s.delete(KEY));
  }
}

function defaultChannel() {
  try {
    return typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
  } catch {
    return null;
  }
}

/** The record without its solutions' grids (the journal's and the other tabs' copy). */
function withoutGrids(record) {
  const { grids, ...rest } = record.checkpoint || {};
  return { ...record, checkpoint: { ...rest, gridsComplete: false } };
}

/** validSavedSearch of a record without its grids (the journal's, another tab's). */
export function validLightRecord(r) {
  const light = r && typeof r === 'object' && r.checkpoint && typeof r.checkpoint === 'object' && r.checkpoint.grids === undefined;
  return validSavedSearch(light ? { ...r, checkpoint: { ...r.checkpoint, grids: new Uint8Array(0) } } : r);
}

// The journal holds a record without grids (they come from the IndexedDB record, or none).
function checkJournal(j) {
  const problem = validLightRecord(j);
  return problem ? { value: null, problems: [problem] } : { value: j, problems: [] };
}

const isWhole = (v) => Number.isSafeInteger(v) && v >= 0;
const isShare = (v) => typeof v === 'number' && v >= 0 && v <= 1;
const RECORD_KEYS = ['version', 'text', 'sourceName', 'source', 'puzzleIndex', 'title', 'options', 'elapsed', 'savedAt', 'checkpoint'];
const CHECKPOINT_KEYS = ['pending', 'doneShare', 'stats', 'solutions', 'grids', 'gridsComplete', 'fingerprint', 'cellCount'];
const extraKeys = (value, known) => Object.keys(value).filter((k) => !known.includes(k)).slice(0, 3).map((k) => `"${k.slice(0, 40)}"`).join(', ');

/**
 * '' when `record` has the shape of a saved search this page can resume, else what is wrong
 * with it. Its pieces, shares and counters are the engine's to judge (Session.checkResume, as
 * the search resumes).
 */
export function validSavedSearch(record) {
  if (!record || typeof record !== 'object' || Array.isArray(record) || ArrayBuffer.isView(record)) return 'not a saved search';
  if (record.version !== SAVED_SEARCH_VERSION) return `a saved search of another format (${String(record.version).slice(0, 20)})`;
  const extra = extraKeys(record, RECORD_KEYS);
  if (extra) return `fields the page does not write (${extra})`;
  if (typeof record.text !== 'string' || record.text.length === 0) return 'the puzzle text is missing';
  if (typeof record.options !== 'string') return 'the options are missing';
  if (!isWhole(record.puzzleIndex)) return 'the puzzle number is not a whole number';
  if (!record.source || typeof record.source !== 'object') return 'the puzzle source is missing';
  if (!(Number.isFinite(record.savedAt) && record.savedAt >= 0) || !(Number.isFinite(record.elapsed) && record.elapsed >= 0)) return 'its date or time searched is not a number';
  const ck = record.checkpoint;
  if (!ck || typeof ck !== 'object' || Array.isArray(ck)) return 'the checkpoint is missing';
  const extraCk = extraKeys(ck, CHECKPOINT_KEYS);
  if (extraCk) return `the checkpoint has fields the page does not write (${extraCk})`;
  if (typeof ck.fingerprint !== 'string' || !/^[0-9a-f]{16}$/.test(ck.fingerprint)) return 'the checkpoint has no fingerprint';
  if (!isWhole(ck.cellCount) || ck.cellCount === 0) return 'the checkpoint has no grid size';
  if (!Array.isArray(ck.pending) || ck.pending.length === 0) return 'the checkpoint has nothing left to search';
  for (const [k, piece] of ck.pending.entries()) {
    if (!piece || !Array.isArray(piece.path) || !piece.path.every(isWhole) || !isShare(piece.share)) return `piece ${k + 1} of the checkpoint is malformed`;
  }
  if (!isShare(ck.doneShare)) return 'the share done is not between 0 and 1';
  if (!isWhole(ck.solutions)) return 'the solution count is not a whole number';
  const typed = ck.grids instanceof Uint8Array || ck.grids instanceof Uint16Array || ck.grids instanceof Int32Array;
  if (!typed || ck.grids.length % ck.cellCount !== 0) return 'the kept solutions are malformed';
  if (ck.grids.length / ck.cellCount > ck.solutions) return 'more solutions are kept than were counted';
  if (!ck.stats || typeof ck.stats !== 'object' || Array.isArray(ck.stats)) return 'the statistics are missing';
  return '';
}

/** What the page shows of a saved search before resuming it. */
export function savedSummary(record) {
  return {
    title: String(record.title || 'a puzzle').slice(0, 200),
    options: record.options,
    fraction: record.checkpoint.doneShare,
    solutions: record.checkpoint.solutions,
    savedAt: Number(record.savedAt) || 0,
    elapsed: Number(record.elapsed) || 0,
  };
}
