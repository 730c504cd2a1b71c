// Actions: everything that changes the application state, and the only code that talks to the
// solver (SolverClient -> Web Worker -> WebAssembly). Panels call these; they never touch the
// solver or each other.
//
//   const actions = new Actions(store, { createClient: () => new SolverClient(), entries });
//   await actions.start();              // engine up, default puzzle loaded
//   actions.solve(); actions.cancel(); actions.showSolution(k);
//
// A little over 600 lines: the one place that talks to the solver (docs/architecture.md), in
// sections (engine, puzzles, options, solving, workers, browsing); what a section grew past
// lives beside it (kept-search-actions.js, options-actions.js, run-report.js).
import { SolutionStore } from '../ui/solution-store.js';
import { knownCount } from '../ui/library.js';
import { CUSTOM, NO_SOLUTIONS, PHASE } from './state.js';
import { isOptionsError, optionsRefusal, optionsSliceForText } from './options-actions.js';
import { finishMessage } from './run-report.js';
import { clampPoolSize } from '../pool/solver-pool.js';
import { CHECKPOINT_MS } from './saved-search.js';
import { enumeratingOptions, keptSearchActions } from './kept-search-actions.js';
import { saveNotice } from './persist.js';
import { ProjectionSpread, plural, timeLeft, titleOf } from './format.js';
import { replayOnStage } from './selectors.js';
import { applyColourSlots } from '../viewer/colors.js';
import { SearchLock } from './search-lock.js';

export const CUSTOM_SOURCE = 'custom.txt';

export const MINE_PREFIX = 'mine:'; // library picker value of a My puzzles entry

/** The options a search runs with: the panel's (or a comparison's) and a recording's own after them. */
export function searchOptions(base, extra = '') {
  return [base, extra].filter(Boolean).join(' ');
}
// How often the elapsed time and counters are redrawn while searching: every PROGRESS_MS at
// first, every LONG_PROGRESS_MS once the search has run LONG_SEARCH_SECONDS. Each redraw is a
// frame (style, layout, paint, composite: ~17 ms of CPU over the page's threads where it is
// drawn without a GPU), taken from the workers when they have every core: a 2-worker Tetris
// Cube in headless Chromium on 2 cores, the page's own threads took ~113 ms of CPU per second
// of search with 5 redraws a second throughout, ~95 ms so (README, Performance).
const PROGRESS_MS = 200;
const LONG_PROGRESS_MS = 500;
const LONG_SEARCH_SECONDS = 2;
export const redrawDelay = (elapsedSeconds) => (elapsedSeconds < LONG_SEARCH_SECONDS ? PROGRESS_MS : LONG_PROGRESS_MS);

function messageOf(err) {
  return err && err.message ? err.message : String(err);
}

export class Actions {
  /**
   * @param {import('./store.js').Store} store
   * @param {object} o
   * @param {() => object} o.createClient makes a SolverClient (tests may inject another)
   * @param {Array} o.entries the puzzle library (ui/library.js libraryEntries())
   * @param {string} o.defaultFile library file opened first
   * @param {import('./persist.js').Persist} [o.persist] where My puzzles are kept
   * @param {import('./saved-search.js').SavedSearches} [o.savedSearches] where a long search is kept
   */
  constructor(store, { createClient, entries, defaultFile, persist = null, savedSearches = null, searchLock = new SearchLock(null) }) {
    this.store = store;
    this.persist = persist;
    this.savedSearches = savedSearches;
    this.savedRecord = null; // the saved search offered for resuming (state.saved summarises it)
    this.resumeAsEnumerating = null; // a kept search refused as another search, to be tried as it ran (resumeSaved)
    this.searchLock = searchLock; // held while a kept search runs here (app/search-lock.js)
    this.createClient = createClient;
    this.entries = entries;
    this.defaultFile = defaultFile;
    this.client = null;
    this.engineText = null; // text the engine holds (null: unknown, reload before solving)
    this.runToken = 0;
    this.running = null;    // { id, token, timer }
  }

  get state() {
    return this.store.get();
  }

  currentPuzzle() {
    const s = this.state;
    return s.puzzles[s.puzzleIndex] || null;
  }

  currentEntry() {
    const src = this.state.source;
    return src.kind === 'library' ? this.entries.find((e) => e.file === src.file) || null : null;
  }

  setPhase(phase, message) {
    this.store.update('run', message === undefined ? { phase } : { phase, message });
  }

  // ------------------------------------------------------------ engine

  /** The solver client; a new worker replaces one that died (e.g. out of memory). */
  async ensureClient() {
    if (this.client && !this.client.failure) return this.client;
    if (this.client) {
      try { this.client.terminate(); } catch { /* already gone */ }
    }
    this.engineText = null;
    this.client = this.createClient();
    if (this.client.setSize) this.client.setSize(this.state.settings.workers);
    const { version } = await this.client.ready;
    this.store.update('engine', { status: 'ready', version, error: '' });
    return this.client;
  }

  /** Bring up the engine; then open the default puzzle unless told not to (a link or a session will). */
  async start({ loadDefault = true } = {}) {
    this.setPhase(PHASE.LOADING, 'Loading the solver engine…');
    try {
      await this.ensureClient();
    } catch (err) {
      this.store.update('engine', { status: 'failed', error: messageOf(err) });
      this.setPhase(PHASE.ERROR, `The solver engine failed to load: ${messageOf(err)}`);
      // also at the top of the panel: nothing on the page works without the engine
      this.store.update('notice', `The solver engine failed to load: ${messageOf(err)}`);
      return false;
    }
    if (!loadDefault) return true;
    const first = this.entries.find((e) => e.file === this.defaultFile) || this.entries[0];
    if (!first) {
      this.store.update('definition', { open: true });
      this.setPhase(PHASE.ERROR, 'No puzzle library was bundled; paste a definition under Custom definition.');
      return false;
    }
    return this.selectLibrary(first.file);
  }

  // ------------------------------------------------------------ puzzles

  /** The editor's checks of definition text (never rejects: a failure is {ok:false, error}). */
  async draft(text, source) {
    try {
      await this.ensureClient();
      return await this.client.draft(text, source);
    } catch (err) {
      return { ok: false, error: messageOf(err) };
    }
  }

  /** How to put solution `grid` of the puzzle on screen together (the engine's build order),
   * the puzzle loaded again first when the engine no longer holds it. Rejects with the reason. */
  async buildOrder(grid) {
    await this.engineHoldsSource();
    return this.client.buildOrder(this.state.puzzleIndex, grid);
  }

  /** Solutions [{index, grid}] of the puzzle on screen in the text the CLI prints them in (the
   * engine's own formatter). Rejects with the engine's reason. */
  async solutionsText(list) {
    await this.engineHoldsSource();
    return this.client.solutionsText(this.state.puzzleIndex, list);
  }

  // The engine holds the definition on screen (loaded again when it no longer does).
  async engineHoldsSource() {
    const src = this.state.source;
    await this.ensureClient();
    if (this.engineText !== src.text) {
      await this.client.load(src.text, src.name);
      this.engineText = src.text;
    }
  }

  /** After saving one of My puzzles (in `persist`): why it was not kept, or which old one made room. */
  reportSave(persist = this.persist) {
    const notice = persist ? saveNotice(persist) : '';
    if (notice) this.store.update('notice', notice);
  }

  /** Forget one of My puzzles. */
  removeMine(id) {
    if (!this.persist) return;
    this.persist.removePuzzle(id);
    this.store.update('myPuzzles', this.persist.puzzles());
    if (this.state.source.kind === 'mine' && this.state.source.id === id) this.store.update('source', { kind: 'custom', id: '' });
  }

  /**
   * A link's colour slots (share/link.js puzzle.colours: one per mobile piece, in order) for
   * the one puzzle loaded from it: the pieces take the colours the sender saw.
   */
  useColourList(list) {
    const p = this.state.puzzles[0];
    if (!Array.isArray(list) || !p || this.state.puzzles.length !== 1) return;
    const mobile = p.pieces.filter((q) => !q.stationary);
    if (mobile.length !== list.length) return;
    const named = Object.fromEntries(mobile.map((q, k) => [q.name, list[k]]));
    this.store.replace({ puzzles: [applyColourSlots(p, named)], source: { ...this.state.source, colourSlots: named } });
  }

  /** Open one of My puzzles (kept in the browser). */
  openMine(id, colourSlots = null) {
    const entry = this.state.myPuzzles.find((p) => p.id === id);
    if (!entry) return Promise.resolve(false);
    this.store.update('definition', { text: entry.text, error: '' });
    return this.loadText({ kind: 'mine', file: CUSTOM, id, title: entry.title, text: entry.text, name: `${entry.title || 'my puzzle'}.txt`, colourSlots });
  }

  /** Open a library file (or, for CUSTOM, the person's own definition). */
  async selectLibrary(file) {
    if (file.startsWith(MINE_PREFIX)) return this.openMine(file.slice(MINE_PREFIX.length));
    if (file === CUSTOM) {
      // The text box becomes the puzzle's source: keep what is shown, open the text to edit.
      this.store.update('definition', { open: true });
      this.store.update('source', { kind: 'custom', file: CUSTOM });
      return true;
    }
    const entry = this.entries.find((e) => e.file === file);
    if (!entry) return false;
    this.store.update('definition', { text: entry.text, error: '' });
    return this.loadText({ kind: 'library', file: entry.file, id: '', title: entry.title, text: entry.text, name: entry.file });
  }

  /** Load the text box's definition as the person's own puzzle. */
  loadDefinition(text = this.state.definition.text, name = CUSTOM_SOURCE) {
    this.store.update('definition', { text });
    return this.loadText({ kind: 'custom', file: CUSTOM, id: '', title: '', text, name });
  }

  /** Load definition text into the engine. Returns true on success. */
  async loadText(next) {
    this.stopRun();
    const own = next.kind !== 'library';
    this.setPhase(PHASE.LOADING, `Loading ${own ? next.title || 'your definition' : next.title}…`);
    let puzzles;
    try {
      await this.ensureClient();
      puzzles = await this.client.load(next.text, next.name);
    } catch (err) {
      this.engineText = null; // whatever the engine holds now, reload it before the next search
      if (own) {
        this.store.update('definition', { error: messageOf(err), open: true });
        this.setPhase(PHASE.ERROR, 'The custom definition has an error (see above). The previous puzzle is still shown.');
      } else {
        this.setPhase(PHASE.ERROR, `Could not load ${next.name}: ${messageOf(err)}`);
      }
      return false;
    }
    if (!puzzles || puzzles.length === 0) {
      this.engineText = null;
      if (own) {
        this.store.update('definition', { error: `${next.name}: no puzzle found (a puzzle starts with a D: line and ends with ~D)`, open: true });
      }
      this.setPhase(PHASE.ERROR, 'The definition holds no puzzle.');
      return false;
    }
    this.engineText = next.text;
    // a notice about what was shown before (a link that could not be read...) is no longer
    // about the page (it must not stay up over the next puzzle solved); later news comes after
    this.store.update('notice', '');
    if (next.kind === 'custom' && this.persist) {
      // the person's own text is kept in My puzzles from its first good load
      const title = titleOf(puzzles[0].title);
      const id = this.persist.savePuzzle({ title, text: next.text });
      if (id) next = { ...next, kind: 'mine', id, title };
      this.store.update('myPuzzles', this.persist.puzzles());
      this.reportSave(); // (a definition loaded while the storage is full is not kept: said)
    }
    // a puzzle from the editor keeps the colours it had there (next.colourSlots, by name)
    if (next.colourSlots && puzzles.length === 1) puzzles = [applyColourSlots(puzzles[0], next.colourSlots)];
    // a library puzzle goes by the library's name for it, not by its file's heading ("... Puzzle Definition")
    const entry = next.kind === 'library' && puzzles.length === 1 ? this.entries.find((e) => e.file === next.file) : null;
    if (entry && entry.title) puzzles = [{ ...puzzles[0], title: entry.title }];
    this.store.replace({ source: next, puzzles });
    if (own) this.store.update('definition', { error: '' });
    this.selectPuzzle(0);
    return true;
  }

  selectPuzzle(index) {
    this.stopRun();
    const i = Math.max(0, Math.min(this.state.puzzles.length - 1, index | 0));
    this.store.replace({
      puzzleIndex: i,
      solutions: NO_SOLUTIONS,
      view: { ...this.state.view, explode: 0 },
    });
    this.store.update('run', { phase: PHASE.READY, message: 'Ready. Press Solve to find every solution.', stats: null, elapsed: 0, reason: '' });
  }

  // ------------------------------------------------------------ options

  setOptionsText(text) {
    this.store.update('options', optionsSliceForText(text)); // parse errors marked at once
  }

  // ------------------------------------------------------------ solving

  /**
   * Search the puzzle on screen with the options. For watching the search (watch-actions.js):
   * `trace` adds trace options (e.g. '-t 1'), may replace the panel's options (baseOptions),
   * receives the trace batches (onTrace) and, once the search has started, the cells of every
   * image (onImageTable); `trace.window` ends the search at that many trace events (the
   * worker's traceLimit: done reason 'window').
   */
  async solve(trace = null, { resume = null } = {}) {
    if (this.running || this.state.puzzles.length === 0) return;
    const plan = this.planSearch(trace);
    if (!plan) return;
    const before = this.beforeSearch(trace);
    if (!(await this.engineHoldsPuzzle(plan.src))) return;
    const store = this.storeFor(plan.puzzle, resume);
    const token = ++this.runToken;
    const started = this.startSearch(plan, store, token, trace, resume);
    if (!started) return;
    this.beginRun(plan, started, token, store, trace, resume);
    let result;
    try {
      result = await started.done;
    } catch (err) {
      if (token === this.runToken) this.searchRefused(err, before, store, resume);
      return;
    }
    if (token !== this.runToken) return; // superseded (another puzzle was loaded meanwhile)
    this.searchEnded(result, plan, store, before, started.traceEvents);
  }

  /**
   * What to search: the puzzle on screen with the panel's options (a comparison recording,
   * watch-actions.js, runs other algorithm options: trace.baseOptions), or null when the
   * options are refused: bad options never start a search and never clear the solutions found.
   */
  planSearch(trace) {
    const base = trace && typeof trace.baseOptions === 'string' ? trace.baseOptions : this.state.options.text.trim();
    const refusal = optionsRefusal(this.state.options);
    if (refusal) {
      this.setPhase(PHASE.ERROR, refusal);
      return null;
    }
    return {
      src: this.state.source, index: this.state.puzzleIndex, puzzle: this.currentPuzzle(),
      options: searchOptions(base, trace ? trace.options : ''),
    };
  }

  /**
   * What the search replaces, for when the engine refuses it: the solutions and the run's
   * counters. And the solution on the stage, shown again once this search has found it
   * (showAgain), when this search was not asked for to see new solutions: a recording of the
   * search (the replay closes back onto it), or the first Solve after a link's solution.
   * Another Solve starts at its own first solution. Solutions belong to the puzzle on screen
   * (selectPuzzle clears them); not when a replay's step was on the stage instead.
   */
  beforeSearch(trace) {
    const solutions = this.state.solutions;
    const keepShown = (trace || solutions.linked) && solutions.store && solutions.shown >= 0
      && solutions.shown < solutions.store.stored && !replayOnStage(this.state);
    return { solutions, run: this.state.run, shownGrid: keepShown ? Int32Array.from(solutions.store.get(solutions.shown)) : null };
  }

  /** Whether the engine holds the puzzle's text, loading it again when it lost it (e.g. a custom definition failed to load since). */
  async engineHoldsPuzzle(src) {
    if (this.client && !this.client.failure && this.engineText === src.text) return true;
    this.setPhase(PHASE.LOADING, 'Reloading the puzzle…');
    try {
      await this.ensureClient();
      await this.client.load(src.text, src.name);
      this.engineText = src.text;
      return true;
    } catch (err) {
      this.setPhase(PHASE.ERROR, `Could not reload the puzzle: ${messageOf(err)}`);
      return false;
    }
  }

  /** The search's solution store; a resumed search's starts with the solutions it had found (those it kept; the rest are counted). */
  storeFor(puzzle, resume) {
    const store = new SolutionStore(puzzle.xDim * puzzle.yDim * puzzle.zDim, puzzle.instances.length);
    if (resume) {
      const ck = resume.checkpoint;
      const kept = ck.grids.length / ck.cellCount;
      if (ck.cellCount === store.cellCount) store.add(ck.grids, kept);
      else store.countUnstored(kept);
      store.countUnstored(ck.solutions - kept);
    }
    return store;
  }

  /** The search asked of the client ({id, done, traceEvents}), or null with the phase saying why not. */
  startSearch(plan, store, token, trace, resume) {
    const counted = { traceEvents: 0 };
    const handlers = {
      onSolutions: ({ grids, count }) => {
        if (token !== this.runToken) return;
        store.add(grids, count);
        // Solutions reach the page with the counters (tick, every redrawDelay), the first one
        // too, not with every worker's batch: each redraw costs style, layout, paint and a
        // composite (software-rendered without a GPU), and at ~40 batches a second from two
        // workers that took a third of a core from the search (bench/POOL.md). Drawn at once,
        // a solution in 3-D where WebGL runs on the CPU took that time from the workers of a
        // short search; a search shorter than a tick now draws once, at its end (finishRun).
        const live = this.running && this.running.token === token; // (not yet: a client that answers at once)
        if (live) this.running.solutionsPending = true;
        else this.publishSolutions(store);
      },
      onProgress: (stats) => {
        if (token !== this.runToken) return;
        this.lastStats = stats;
      },
      onTrace: (events) => {
        if (token !== this.runToken) return;
        counted.traceEvents += events.length / 4;
        if (trace) trace.onTrace(events);
      },
    };
    if (resume) handlers.resume = resume.checkpoint;
    if (trace && trace.window > 0) handlers.traceLimit = trace.window;
    let started;
    try {
      started = this.client.solve(plan.index, plan.options, handlers);
    } catch (err) {
      this.setPhase(PHASE.ERROR, `Could not start the search: ${messageOf(err)}`);
      return null;
    }
    // the worker answers in order: the table is of the search just started
    if (trace) this.client.imageTable().then(trace.onImageTable, (err) => trace.onImageTable(null, messageOf(err)));
    return { id: started.id, done: started.done, get traceEvents() { return counted.traceEvents; } };
  }

  /** The run is on: its counters' timer, its checkpoints in the browser, the panels told (one change for both slices). */
  beginRun(plan, started, token, store, trace, resume) {
    this.lastStats = null;
    const startedAt = performance.now();
    this.running = {
      id: started.id, token, timer: 0, startedAt, options: plan.options, index: plan.index, source: plan.src,
      saved: Boolean(resume), elapsedBefore: resume ? Number(resume.elapsed) || 0 : 0,
    };
    this.scheduleTick(this.running);
    if (this.savedSearches && this.client.checkpoint) {
      this.running.checkpointTimer = setInterval(() => this.saveRunning(), CHECKPOINT_MS);
    }
    const resumedNote = resume ? ` (resumed: ${plural(store.total, 'solution')} found before)` : '';
    const { options } = plan;
    this.store.replace({
      solutions: { ...NO_SOLUTIONS, store, total: store.total, shown: store.stored > 0 ? 0 : -1 },
      run: {
        ...this.state.run,
        phase: PHASE.RUNNING, message: `Searching${options ? ` with ${options}` : ''}…${resumedNote}`,
        stats: null, startedAt, elapsed: 0, reason: '', options, leftRange: null,
        // a resumed search: the time searched before (the counters and the last line add it)
        elapsedBefore: this.running.elapsedBefore,
      },
    });
  }

  /**
   * The engine refused the search: a kept search that may not be resumed stays kept, for the
   * person to discard; refused options are marked; the solutions found before, and their
   * counters, come back when this search found none.
   */
  searchRefused(err, before, store, resume) {
    this.finishRun();
    const message = messageOf(err);
    const restore = () => this.store.replace({ solutions: { ...before.solutions, revision: before.solutions.revision + 1 } });
    if (resume && err && err.name === 'CheckpointRefused') {
      restore();
      if (err.code === 'other-search' && enumeratingOptions(resume)) {
        this.resumeAsEnumerating = resume; // (resumeSaved tries it once more, as it ran)
        return;
      }
      this.refuseSaved(resume.retryOf || resume, message); // (as it is kept)
      this.setPhase(PHASE.ERROR, `The kept search could not be resumed: ${message.replace(/^the kept search: /, '')}. It was not searched, and it is still kept (see above).`);
      return;
    }
    const aboutOptions = isOptionsError(message);
    if (aboutOptions) this.store.update('options', { error: message, errorKey: 'engine' });
    if (store.total === 0) {
      restore();
      const { stats, elapsed, elapsedBefore } = before.run;
      this.store.update('run', { stats, elapsed, elapsedBefore: elapsedBefore || 0 });
    }
    this.setPhase(PHASE.ERROR, aboutOptions
      ? `The solver refused the options: ${message}. The solutions found before are kept.`
      : `Could not search: ${message}`);
  }

  /**
   * The search ended: a finished search needs no resuming (nor does one kept of the same
   * search, stopped earlier); a stopped one was written down by cancel(). The last line, the
   * solution shown before, the trace events counted.
   */
  searchEnded(result, plan, store, before, traceEvents) {
    const wasSaved = this.running.saved;
    const { cancelledAt, startedAt } = this.running;
    this.finishRun();
    const kept = this.savedRecord;
    const sameSearch = kept && kept.text === plan.src.text && kept.puzzleIndex === plan.index && kept.options === plan.options;
    if (result.reason === 'finished' && (wasSaved || sameSearch)) this.discardSaved();
    this.finishedSearch(result, store, startedAt, plan.options, cancelledAt);
    this.showAgain(before.shownGrid, store);
    this.store.update('run', { traceEvents });
  }

  finishedSearch(result, store, startedAt, options, cancelledAt = 0) {
    const stats = (result && result.stats) || this.lastStats || {};
    let elapsed = typeof stats.seconds === 'number' ? stats.seconds : (performance.now() - startedAt) / 1000;
    // Cancelled: the time until Cancel was pressed, not until the last worker answered (more
    // workers than cores answer a second or more later: it read "Cancelled after 7.3 s" for
    // a Cancel pressed at 3 s).
    if (result.reason === 'cancelled' && cancelledAt > 0) elapsed = Math.min(elapsed, (cancelledAt - startedAt) / 1000);
    const total = Math.max(store.total, stats.solutions || 0);
    this.store.update('solutions', { total, revision: this.state.solutions.revision + 1 });
    const phase = result.reason === 'cancelled' ? PHASE.CANCELLED : PHASE.DONE;
    // the limit (-l inside the options ends as 'finished'), impossible puzzles, -s
    const message = finishMessage({
      reason: result.reason, total, elapsed, options, stats, before: this.state.run.elapsedBefore || 0,
      known: knownCount(this.currentEntry(), options), compareKnown: this.state.puzzles.length === 1,
    });
    this.store.update('run', { phase, message, stats, elapsed, reason: result.reason });
  }

  // The stage goes back to the solution it showed before the search, among those found (solving
  // from a link that showed one, or recording the search, must not jump to solution 1), unless
  // the person browsed meanwhile.
  showAgain(grid, store) {
    if (!grid || this.state.solutions.store !== store || this.state.solutions.shown !== 0) return;
    const k = store.indexOf(grid);
    if (k > 0) this.store.update('solutions', { shown: k });
  }

  // The next redraw of the counters of search `running` (redrawDelay), while it runs.
  scheduleTick(running) {
    const elapsed = (performance.now() - running.startedAt) / 1000;
    running.timer = setTimeout(() => {
      if (this.running !== running) return;
      this.scheduleTick(running); // first: a redraw that throws must not stop the next ones
      this.tick();
    }, redrawDelay(elapsed));
  }

  /** Redraw the live counters (the workers report progress ~5 times a second). */
  tick() {
    const run = this.state.run;
    if (run.phase !== PHASE.RUNNING) return;
    const elapsed = (performance.now() - run.startedAt) / 1000;
    const stats = this.lastStats || {};
    let leftRange = null;
    if (this.running && typeof stats.fractionDone === 'number') {
      const spread = this.running.spread || (this.running.spread = new ProjectionSpread());
      spread.add(elapsed, timeLeft(stats.fractionDone, elapsed, stats.fractionAtStart));
      leftRange = spread.range(elapsed);
    }
    const next = { ...run, stats: this.lastStats, elapsed, leftRange };
    if (this.running && this.running.solutionsPending) {
      this.running.solutionsPending = false;
      this.store.replace({ run: next, solutions: this.solutionsPublished() }); // one redraw for both
    } else {
      this.store.replace({ run: next });
    }
  }

  /** The solutions slice with what `store` (the running search's) holds now. */
  solutionsPublished(store = this.state.solutions.store) {
    const sol = this.state.solutions;
    return { ...sol, total: store.total, revision: sol.revision + 1, shown: sol.shown < 0 && store.stored > 0 ? 0 : sol.shown };
  }

  publishSolutions(store) {
    if (this.running) this.running.solutionsPending = false;
    this.store.replace({ solutions: this.solutionsPublished(store) });
  }

  finishRun() {
    const pending = this.running && this.running.solutionsPending;
    if (this.running) {
      clearTimeout(this.running.timer);
      clearInterval(this.running.checkpointTimer);
    }
    this.running = null;
    this.searchLock.release(); // (a kept search ran here: another tab may resume it now)
    if (pending) this.publishSolutions();
  }

  /**
   * The counting hint's "Count only": the listing stops, and the same puzzle is counted by
   * remembering subproblems (--memo, set in the options, where the person sees it and can undo it).
   * @param {{setControl: (key: string, value: unknown) => void}} options the options' actions
   */
  countInstead(options) {
    return this.solveAgainWith(options, true);
  }

  /**
   * The listing hint's "List instead": the count whose layers passed its memory stops, and the
   * same puzzle is listed (--memo taken out of the options, where the person sees it).
   * @param {{setControl: (key: string, value: unknown) => void}} options the options' actions
   */
  listInstead(options) {
    return this.solveAgainWith(options, false);
  }

  /** Steps: stop the search running (kept, as any cancelled one), set or take out --memo, solve. */
  async solveAgainWith(options, memo) {
    if (this.running) {
      const stopped = new Promise((resolve) => {
        const off = this.store.subscribe(['run'], () => {
          if (!this.running) off(), resolve();
        });
      });
      this.cancel();
      await stopped;
    }
    // (what only a memoized count takes goes with --memo: the text would be refused with it)
    if (!memo) for (const key of ['memoMb', 'solution', 'random']) options.setControl(key, null);
    options.setControl('memo', memo);
    await this.solve();
  }

  cancel() {
    if (!this.running) return;
    if (!this.running.cancelledAt) this.running.cancelledAt = performance.now();
    this.store.update('run', { message: 'Cancelling…' });
    this.saveRunning(); // a search kept in the browser is kept as it stops
    this.client.cancel(this.running.id);
  }

  /** End a running search without waiting (the puzzle is being replaced). */
  stopRun() {
    if (!this.running) return;
    this.saveRunning();
    this.client.cancel(this.running.id);
    this.runToken++;
    this.finishRun();
  }

  // ------------------------------------------------------------ workers and saved searches

  /** Solver workers sharing the next searches (kept in the browser). */
  setWorkers(n) {
    const workers = clampPoolSize(n);
    this.store.update('settings', { workers });
    if (this.persist) this.persist.saveSettings({ workers });
    if (this.client && this.client.setSize) this.client.setSize(workers);
  }

  // ------------------------------------------------------------ browsing

  showSolution(k) {
    const sol = this.state.solutions;
    if (!sol.store || sol.store.stored === 0) return;
    const shown = Math.max(0, Math.min(sol.store.stored - 1, k | 0));
    this.store.update('solutions', { shown });
  }

  stepSolution(delta) {
    const sol = this.state.solutions;
    if (!sol.store || sol.store.stored === 0) return;
    this.showSolution((sol.shown < 0 ? 0 : sol.shown) + delta);
  }

  lastSolution() {
    const sol = this.state.solutions;
    if (sol.store) this.showSolution(sol.store.stored - 1);
  }

  setView(patch) {
    this.store.update('view', patch);
  }
}

// The kept search's actions (saveRunning, checkSaved, resumeSaved, discardSaved, ...): methods
// of Actions, in a file of their own.
Object.assign(Actions.prototype, keptSearchActions);
