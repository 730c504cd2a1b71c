// The kept search's actions: the search kept in the browser for resuming after a reload
// (IndexedDB, app/saved-search.js), written down while it runs, offered, resumed, refused when
// it cannot be resumed (kept, said, until discarded) and followed across tabs. Methods of
// Actions (app/actions.js installs them on its prototype: one object, one state), kept in a
// file of their own.
import { CUSTOM, PHASE } from './state.js';
import { KEEP_AFTER_MS, SAVED_SEARCH_VERSION, savedSummary, validLightRecord, validSavedSearch } from './saved-search.js';
import { progressText } from './format.js';
import { parseOptions } from '../model/options.js';

/** What the offer says of a kept search it cannot resume (whatever its damage). */
function refusedSummary(record) {
  const r = record && typeof record === 'object' ? record : {};
  const text = (v) => (typeof v === 'string' ? v.slice(0, 200) : '');
  return { title: text(r.title) || 'a puzzle', options: text(r.options), fraction: 0, solutions: 0, savedAt: Number(r.savedAt) || 0, elapsed: 0 };
}

/** A stored value as text for a download: JSON where it can be (typed arrays as lists). */
function storedText(value) {
  try {
    return JSON.stringify(value, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : typeof v === 'bigint' ? String(v) : v), 1) ?? String(value);
  } catch {
    return String(value); // (a cycle)
  }
}

/** The file name a kept search downloads as: its definition file's name, .ck for .txt. */
export function checkpointFileName(sourceName) {
  const base = String(sourceName || 'search').split(/[\\/]/).pop().replace(/\.txt$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80);
  return `${base.replace(/^[-.]+/, '') || 'search'}.ck`;
}

export const keptSearchActions = {
  /**
   * Write the running shared search down (IndexedDB), once it has run KEEP_AFTER_MS: called
   * by its timer (every CHECKPOINT_MS), by cancel, by stopRun and when the page is hidden or closed.
   */
  saveRunning() {
    const run = this.running;
    if (!run || !this.savedSearches || !this.client.checkpoint) return undefined;
    const elapsed = (performance.now() - run.startedAt) / 1000;
    if (!run.saved && elapsed * 1000 < KEEP_AFTER_MS) return undefined; // short searches are not kept
    const checkpoint = this.client.checkpoint(run.id);
    if (!checkpoint || checkpoint.pending.length === 0) return undefined;
    // The browser keeps one unfinished search. Another one kept is not replaced by a search
    // begun afresh (a Solve of another puzzle, or Solve instead of Resume, would lose a kept
    // search of hours without a word), unless this is the same search and has gone further.
    if (this.refusedRecord) {
      if (!run.keepRefused) {
        run.keepRefused = true;
        this.store.update('notice', 'This search is not kept across a reload: the browser holds a kept search that cannot be resumed. '
          + 'Discard that one (its message is above the status) to keep the next search instead.');
      }
      return undefined;
    }
    const kept = this.savedRecord;
    if (kept && !run.saved) {
      const same = kept.text === run.source.text && kept.puzzleIndex === run.index && kept.options === run.options;
      if (!(same && checkpoint.doneShare > kept.checkpoint.doneShare)) {
        if (!run.keepRefused) {
          run.keepRefused = true;
          const summary = savedSummary(kept);
          this.store.update('notice', `This search is not kept across a reload: the browser keeps one unfinished search, and it holds `
            + `${summary.title}${summary.options ? ` with ${summary.options}` : ''} (${progressText(summary.fraction, 0)} done). `
            + 'Discard that one (its offer comes back when this search stops) to keep the next search instead.');
        }
        return undefined;
      }
    }
    if (!run.saved) this.searchLock.hold(); // kept from now: one tab runs it
    run.saved = true;
    const puzzle = this.state.puzzles[run.index];
    const record = {
      version: SAVED_SEARCH_VERSION,
      text: run.source.text,
      sourceName: run.source.name,
      source: { kind: run.source.kind, file: run.source.file, id: run.source.id, title: run.source.title },
      puzzleIndex: run.index,
      title: (puzzle && puzzle.title) || run.source.title || 'your puzzle',
      options: run.options,
      elapsed: run.elapsedBefore + elapsed,
      savedAt: Date.now(),
      checkpoint,
    };
    this.savedRecord = record;
    return this.savedSearches.save(record).then(() => {
      if (this.savedSearches.lastError) this.store.update('notice', this.savedSearches.lastError);
      // offered for resuming once it has stopped (state.saved is drawn when not running),
      // unless it was finished or discarded while it was being written (the search that ended
      // meanwhile cleared it: offering it again would search its rest a second time)
      if (this.savedRecord === record) this.store.replace({ saved: savedSummary(record) });
    });
  },

  /** Look for a search kept in the browser (at start-up). */
  async checkSaved() {
    if (!this.savedSearches) return;
    const record = await this.savedSearches.load();
    if (record === undefined) return;
    const problem = validSavedSearch(record);
    if (problem) {
      this.refuseSaved(record, problem);
      return;
    }
    this.savedRecord = record;
    this.store.replace({ saved: savedSummary(record) });
  },

  /**
   * A kept search that cannot be resumed (damaged, or refused by the engine's checks): it stays
   * kept, untouched (no search of this page replaces it), until the person discards it; the
   * offer says why instead of offering to resume.
   */
  refuseSaved(record, problem) {
    this.savedRecord = null;
    this.refusedRecord = record;
    this.store.replace({ saved: { ...refusedSummary(record), refused: problem.replace(/^the kept search: /, '') } });
  },

  /** Forget the kept search. */
  discardSaved() {
    this.savedRecord = null;
    this.refusedRecord = null;
    this.store.replace({ saved: null });
    return this.savedSearches ? this.savedSearches.clear() : Promise.resolve();
  },

  /** The kept search as it is stored (to mend or report a damaged one), as text. */
  savedText() {
    return storedText(this.refusedRecord || this.savedRecord);
  },

  /**
   * Another tab kept a search (the record without its grids) or finished or discarded the kept
   * one: this tab's offer follows, so that it never offers (and searches again) what another
   * tab has finished.
   */
  savedChangedElsewhere(message) {
    if (!message || typeof message !== 'object') return;
    if (message.type === 'cleared') {
      this.savedRecord = null;
      this.refusedRecord = null;
      this.store.replace({ saved: null });
    } else if (message.type === 'saved' && !validLightRecord(message.record) && !(this.running && this.running.saved)) {
      this.savedRecord = message.record; // (its grids are read from storage when resumed)
      this.refusedRecord = null;
      this.store.replace({ saved: savedSummary(message.record) });
    }
  },

  /**
   * The kept search as a checkpoint file of the command line's format, written by the engine
   * (its puzzle and options in it): {name, text, command} or {error}. `polycube --resume NAME`
   * finishes it, or the page's Open a file... (openCheckpointFile).
   */
  async savedCheckpointFile() {
    const record = this.savedRecord;
    if (!record) return { error: 'No search is kept in the browser.' };
    const { pending, doneShare, stats, solutions, fingerprint } = record.checkpoint;
    try {
      await this.ensureClient();
      const kept = { definition: record.text, source: record.sourceName || 'puzzle.txt', puzzle: record.puzzleIndex, options: record.options, checkpoint: { fingerprint, doneShare, solutions, stats, pending } };
      const made = await this.client.checkpointFile(kept);
      if (!made.ok) return { error: made.error.message };
      const name = checkpointFileName(record.sourceName);
      return { name, text: made.text, command: `polycube --resume ${name}` };
    } catch (err) {
      return { error: err && err.message ? err.message : String(err) };
    }
  },

  /**
   * Open a checkpoint file (the command line's --checkpoint, or a kept search downloaded): the
   * engine reads it (refusing a damaged one, saying where), its puzzle is loaded and its options
   * set, and it becomes the search kept in the browser, offered for Resume. The browser keeps
   * one unfinished search: another one kept is never replaced unasked. True when offered.
   */
  async openCheckpointFile(text, name) {
    const refuse = (message) => {
      this.setPhase(PHASE.ERROR, `${name} was not opened: ${message}`);
      return false;
    };
    if (this.running) return refuse('a search is running (stop it first).');
    if (this.savedRecord || this.refusedRecord) {
      return refuse('the browser keeps another unfinished search (see above). Resume it, or discard it (download it first to keep it), then open the file again.');
    }
    let opened;
    try {
      await this.ensureClient();
      opened = await this.client.openCheckpoint(text, name);
    } catch (err) {
      return refuse(err && err.message ? err.message : String(err));
    }
    if (!opened.ok) return refuse(`${opened.error.message}.`);
    const ck = opened.checkpoint;
    if (ck.pending.length === 0) {
      return refuse(`its search is finished (${ck.solutions} ${ck.solutions === 1 ? 'solution' : 'solutions'}): nothing is left to search.`);
    }
    this.store.update('definition', { text: opened.definition, error: '' });
    // a library puzzle opens as itself (not as a copy among My puzzles)
    const entry = this.entries.find((e) => e.text === opened.definition);
    const next = entry
      ? { kind: 'library', file: entry.file, id: '', title: entry.title, text: entry.text, name: entry.file }
      : { kind: 'custom', file: CUSTOM, id: '', title: '', text: opened.definition, name: opened.source || name };
    if (!(await this.loadText(next))) return false;
    const puzzles = this.state.puzzles;
    if (opened.puzzle >= puzzles.length) return refuse(`it is of puzzle ${opened.puzzle + 1} of its definition, which has ${puzzles.length}.`);
    this.selectPuzzle(opened.puzzle);
    this.setOptionsText(opened.options);
    const puzzle = puzzles[opened.puzzle];
    const src = this.state.source;
    const record = {
      version: SAVED_SEARCH_VERSION,
      text: opened.definition,
      sourceName: next.name,
      source: { kind: src.kind, file: src.file, id: src.id, title: src.title },
      puzzleIndex: opened.puzzle,
      title: puzzle.title || next.name,
      options: opened.options,
      elapsed: 0,
      savedAt: Date.now(),
      // its solutions are counted, not kept (the command line printed them)
      checkpoint: {
        ...ck, doneShare: Math.min(1, ck.doneShare), grids: new Uint8Array(0), gridsComplete: ck.solutions === 0,
        cellCount: puzzle.xDim * puzzle.yDim * puzzle.zDim,
      },
    };
    const problem = validSavedSearch(record);
    if (problem) return refuse(`${problem}.`);
    this.savedRecord = record;
    if (this.savedSearches) await this.savedSearches.save(record);
    this.store.replace({ saved: savedSummary(record) });
    this.store.update('notice', `Opened ${name}: ${opened.options ? `the search with ${opened.options}` : 'the search'} of ${record.title}, `
      + 'kept in the browser and ready to resume (the solutions it found before are counted, not shown).');
    return true;
  },

  /** Open the kept search's puzzle and options and search on from where it stopped. */
  async resumeSaved() {
    if (!this.savedRecord || this.running) return false;
    if (!(await this.searchLock.hold())) {
      this.setPhase(PHASE.ERROR, 'The kept search is running in another tab or window: it goes on there (close that tab to resume it here).');
      return false;
    }
    // As it is stored now: another tab may have searched on, finished or discarded it.
    const record = this.savedSearches ? await this.savedSearches.load() : this.savedRecord;
    const problem = record === undefined ? '' : validSavedSearch(record);
    if (record === undefined || problem) {
      this.searchLock.release();
      if (problem) this.refuseSaved(record, problem);
      else this.discardSaved();
      this.setPhase(PHASE.ERROR, problem ? `The kept search could not be resumed: ${problem}.` : 'The kept search was finished or discarded in another tab or window.');
      return false;
    }
    this.savedRecord = record;
    const src = record.source;
    this.store.update('definition', { text: record.text, error: '' });
    const next = { kind: src.kind, file: src.file || '', id: src.id || '', title: src.title || '', text: record.text, name: record.sourceName || 'saved.txt' };
    if (!(await this.loadText(next))) {
      this.searchLock.release();
      return false;
    }
    if (record.puzzleIndex >= this.state.puzzles.length) {
      this.searchLock.release();
      const problem = `it is of puzzle ${record.puzzleIndex + 1} of its file, which has ${this.state.puzzles.length}`;
      this.refuseSaved(record, problem);
      this.setPhase(PHASE.ERROR, `The kept search could not be resumed: ${problem}.`);
      return false;
    }
    this.selectPuzzle(record.puzzleIndex);
    this.setOptionsText(record.options);
    await this.solve(null, { resume: record });
    if (this.resumeAsEnumerating === record) {
      // refused as another search, and kept before every solution was listed from the unique
      // ones: resumed as the search it was (searchRefused left it kept and unsaid for this)
      this.resumeAsEnumerating = null;
      const options = enumeratingOptions(record);
      this.setOptionsText(options);
      await this.solve(null, { resume: { ...record, options, retryOf: record } });
    }
    if (!this.running) this.searchLock.release(); // (ended, or refused before it began)
    return true;
  },
};

/**
 * The options that resume `record` as the search it ran, when they are not its own: a search for
 * every solution (no -r) kept before the engine listed them as the unique ones' distinct images
 * searched every branch, its pieces are of that tree, and today that search is asked with
 * --no-orbits (docs/all-solutions.md). null for any other record, and for one already retried.
 */
export function enumeratingOptions(record) {
  if (record.retryOf) return null;
  const { values, errors } = parseOptions(record.options);
  if (errors.length || values.redundancy || values.noOrbits) return null;
  return `${String(record.options).trim()} --no-orbits`.trim();
}
