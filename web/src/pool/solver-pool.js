// SolverPool: one search spread over several solver workers, with the interface of
// SolverClient (../solver-client.js), so that the app's actions use either.
//
//   const pool = new SolverPool({ size: navigator.hardwareConcurrency, createClient: () => new SolverClient() });
//   await pool.ready; const puzzles = await pool.load(text, 'tetris.txt');
//   const { id, done } = pool.solve(0, '-r', { onSolutions, onProgress });
//   pool.checkpoint(id);          // what a later page needs to finish it (PieceBook.checkpoint)
//   pool.cancel(id);              // stops every worker at once
//   const { reason, stats } = await done;
//
// How (the browser side of engine/parallel/parallel_search.hpp, over messages instead of
// threads; protocol: ../worker/protocol.js 'prepare' / 'subproblem' / 'donate'):
//  0. the helpers start with the pool (and when its size grows) and load every puzzle as it
//     is opened, so that Solve finds them ready (setSize, load);
//  1. every worker sets up the same search ('prepare'; equal fingerprints = the same tree),
//     each as soon as it holds the puzzle (none waits for another's boot);
//  2. the first worker searches the whole tree; each worker takes the newest waiting piece
//     (depth first: pieces.js);
//     when none is left and a worker is on its last piece, the busiest worker is asked to
//     donate the untried siblings at its shallowest open level (dynamic load balancing, as
//     polycube -j: a few huge subtrees cannot leave workers idle);
//  3. a search still running after SPLIT_AFTER_MS is split for checkpoints: from then on,
//     each piece that has searched DRAIN_MS since it started (or since it was last drained)
//     is drained: it gives away its untried siblings level by level from the top until what
//     it keeps is about KEEP_MS of its own search ('donate' with drain), so it ends at once.
//     A checkpoint keeps a piece's results only once the piece and every piece it came from
//     have ended (pieces.js), so what a checkpoint loses stays within about DRAIN_MS of
//     search per worker (a reload 10 s into a long search keeps most of what was shown).
//     A short search is never split: on the default puzzle (10x6, ~0.07 s) a split into 32
//     pieces made the pool slower than one worker searching alone;
//  4. the search ends when no piece waits and none runs.
// Solutions stream to onSolutions as workers find them (the set is a one-worker run's, not
// the order); statistics are the sums of the workers' (stats.js); fractionDone is the pieces'
// weighted estimates (PieceBook). Searches that cannot be shared (sharingRefusal: -t, -s, -l,
// -u without -r, a solution limit or a fixed step budget) run on the first worker alone,
// exactly as SolverClient.solve. No SharedArrayBuffer: plain module workers, any static host.
// (Over 600 lines: one concern, the coordination of a shared search, with this header.)
import { parseOptions } from '../model/options.js';
import { PieceBook } from './pieces.js';
import { addStats, statsBetween } from './stats.js';

// A search running this long is split for checkpoints (it is kept once it has run
// KEEP_AFTER_MS, 2 s, and written every CHECKPOINT_MS, 5 s: app/saved-search.js); shorter ones
// never pay for the split.
export const SPLIT_AFTER_MS = 1000;
// From then on a piece that has searched this long is drained (header, 3): what a checkpoint
// loses is within about this much search per worker. Each drain costs the pieces it makes
// (a start and a round trip each): one-sided pentominoes 18x5 makes 10-25 a second per
// worker, ~0.5% of the Tetris Cube's work (CPU time, 2 workers).
export const DRAIN_MS = 1000;
// What a drained piece keeps: about this much of its own search (its speed measured on its
// fractionDone), so that it ends soon after; the levels below stay with it, not thousands of
// tiny pieces.
const KEEP_MS = 20;
const DRAIN_TICK_MS = 100;    // how often running pieces are looked at for draining
export const MAX_POOL_SIZE = 32;
const DONATE_RETRY_MS = 20;   // a busy worker with nothing to give is asked again after this
const DONATE_PER_IDLE = 2;    // paths asked of a busy worker per idle one
const PROGRESS_MS = 100;      // merged progress at most this often

/** The default number of workers: one per logical core the browser reports. */
export function defaultPoolSize() {
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency;
  return clampPoolSize(cores || 1);
}

export function clampPoolSize(n) {
  const v = Math.round(Number(n));
  return Number.isFinite(v) ? Math.max(1, Math.min(MAX_POOL_SIZE, v)) : 1;
}

/**
 * Why a search with these options runs on one worker ('' when it can be shared): what the
 * page asks of it (a solution count, a fixed step budget, a trace window), else the engine's
 * own answer (whyNotSplittable, through its option parser).
 */
export function sharingRefusal(options, handlers = {}) {
  if (handlers.maxSolutions > 0) return 'a solution limit';
  if (handlers.stepBudget > 0) return 'a fixed step budget';
  if (handlers.traceLimit > 0) return 'a trace window';
  const { errors, splitRefusal } = parseOptions(options);
  if (errors.length > 0) return 'options the engine will judge';
  return splitRefusal;
}

function messageOf(err) {
  return err && err.message ? err.message : String(err);
}

/**
 * A kept checkpoint the engine refused (Session.checkResume): the search was not resumed.
 * `code` is the engine's: 'other-search' (another search's fingerprint), 'not-resumable'.
 */
export class CheckpointRefused extends Error {
  constructor(message, code) {
    super(message);
    this.name = 'CheckpointRefused';
    this.code = code;
  }
}

export class SolverPool {
  /**
   * @param {{size?: number, createClient: () => object, splitAfterMs?: number, drainMs?: number, stepBudget?: number}} o
   *   createClient makes a SolverClient; splitAfterMs: when a running search is split for
   *   checkpoints; drainMs: how long a piece searches before it is drained (DRAIN_MS);
   *   stepBudget: a fixed budget for every slice of every piece (tests: the same work per
   *   slice on any machine; by default each worker adapts its budget to ~15 ms slices)
   */
  constructor({ size = defaultPoolSize(), createClient, splitAfterMs = SPLIT_AFTER_MS, drainMs = DRAIN_MS, stepBudget = 0 }) {
    this.createClient = createClient;
    this.splitAfterMs = splitAfterMs; // (tests: 0 splits at once, Infinity never)
    this.drainMs = drainMs;
    this.stepBudget = stepBudget;
    this.size = clampPoolSize(size);
    this.clients = [createClient()];
    this.ready = this.clients[0].ready;
    this.nextId = 1;
    this.runs = new Map(); // pool search id -> PoolRun, or {single: client, id}
    this._lastLoad = null;
    this._loaded = new WeakSet(); // clients holding _lastLoad
    this._loading = new WeakMap(); // client -> {load, done}: its load of a _lastLoad under way
  }

  get primary() {
    return this.clients[0];
  }

  /** Set when the first worker failed for good (the app then makes a new pool). */
  get failure() {
    return this.primary.failure;
  }

  /**
   * Workers used by the next search (the running one keeps its own). Missing helpers start
   * now and load the definitions, so that they are ready when Solve is pressed: a helper
   * started at Solve delayed every worker's start by ~0.1 s (2-worker Tetris Cube in headless
   * Chromium: the worker's boot and the puzzle's load), 4% of the search.
   */
  setSize(n) {
    this.size = clampPoolSize(n);
    if (this.runs.size === 0) this._trim(); // a running search keeps the workers it has
    this._grow();
  }

  async load(text, source = '<input>') {
    this._lastLoad = { text, source };
    this._loaded = new WeakSet();
    this._grow(); // (loads the new text into the helpers it starts)
    const loads = this.clients.map((c) => this._ensureLoaded(c));
    // the others parse the same text: their errors are the first one's (handled here, so
    // that none is reported as unhandled)
    const others = Promise.allSettled(loads.slice(1));
    const puzzles = await loads[0];
    await others;
    return puzzles;
  }

  _trim() {
    while (this.clients.length > this.size) this.clients.pop().terminate();
  }

  // Start the missing helpers, each loading the last definitions (a failure is reported by
  // the search that needs it).
  _grow() {
    while (this.clients.length < this.size) {
      const c = this.createClient();
      this.clients.push(c);
      if (this._lastLoad) this._ensureLoaded(c).catch(() => {});
    }
  }

  // Resolves once client c holds the last loaded definitions (one load per client and text).
  _ensureLoaded(c) {
    const want = this._lastLoad;
    if (!want || this._loaded.has(c)) return Promise.resolve(null);
    const pending = this._loading.get(c);
    if (pending && pending.load === want) return pending.done;
    const done = c.load(want.text, want.source).then((puzzles) => {
      if (this._lastLoad === want) this._loaded.add(c);
      return puzzles;
    });
    this._loading.set(c, { load: want, done });
    return done;
  }

  draft(text, source) { return this.primary.draft(text, source); }
  checkpointFile(kept) { return this.primary.checkpointFile(kept); }
  openCheckpoint(text, name) { return this.primary.openCheckpoint(text, name); }
  imageTable() { return this.primary.imageTable(); }
  buildOrder(puzzle, grid) { return this.primary.buildOrder(puzzle, grid); }
  solutionsText(puzzle, solutions) { return this.primary.solutionsText(puzzle, solutions); }
  imageCells(image) { return this.primary.imageCells(image); }

  terminate() {
    for (const run of this.runs.values()) if (run.stop) run.stop('cancelled');
    for (const c of this.clients) c.terminate();
  }

  /**
   * Workers for a search: `size` of them, each with a promise that it holds the last loaded
   * definitions (a search starts each worker as soon as its own load is done: none waits for
   * another's boot).
   */
  _workers() {
    this._trim();
    this._grow();
    return this.clients.map((client) => ({ client, loaded: this._ensureLoaded(client) }));
  }

  /**
   * Search puzzle `puzzle` with CLI options, shared among the workers (see the header).
   * handlers: as SolverClient.solve, plus resume: a checkpoint() of this search to finish.
   * @returns {{id: number, done: Promise<{reason: string, stats: object}>}}
   */
  solve(puzzle, options = '', handlers = {}) {
    const refusal = sharingRefusal(options, handlers);
    if (refusal && !handlers.resume) {
      const single = this.primary.solve(puzzle, options, handlers);
      const id = this.nextId++;
      this.runs.set(id, { single: this.primary, id: single.id });
      return { id, done: single.done.finally(() => this.runs.delete(id)) };
    }
    const id = this.nextId++;
    const run = new PoolRun(this, puzzle, options, handlers);
    this.runs.set(id, run);
    return { id, done: run.start().finally(() => this.runs.delete(id)) };
  }

  cancel(id) {
    const run = this.runs.get(id);
    if (!run) return;
    if (run.single) run.single.cancel(run.id);
    else run.stop('cancelled');
  }

  /** What a later page needs to finish search `id` (null when it is not a shared search). */
  checkpoint(id) {
    const run = this.runs.get(id);
    return run && run.checkpoint ? run.checkpoint() : null;
  }
}

// One shared search. (Exported for the tests, which start one directly where the page's own
// parse of the options already says it cannot be shared.)
export class PoolRun {
  constructor(pool, puzzle, options, handlers) {
    this.pool = pool;
    this.puzzle = puzzle;
    this.options = options;
    this.handlers = handlers;
    this.resume = handlers.resume || null;
    this.resumeChecked = false; // the engine accepted the checkpoint (checkResume)
    this.workers = [];
    this.book = null;
    this.fingerprint = '';
    this.stopping = null;       // 'cancelled' | 'failed' once stopping
    this.error = null;
    this.donating = false;      // a donate request is out
    this.retry = null;          // timer of the next donate request
    this.lastProgress = 0;
    this.donations = 0;
    this.idleSeconds = 0;        // prepared workers waiting for a piece, summed
    this.startedAt = performance.now();
    this.primaryStats = {};
    this.single = null;         // {id, done}: the first worker searching alone (runAlone)
    this.drainFirst = false;    // (splitAfterMs 0) the first piece is drained as it starts
    this.splitTimer = null;
    this.drainTimer = null;
  }

  start() {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    try {
      this.begin();
    } catch (err) {
      this.fail(err); // a worker could not even be started
    }
    return this.done;
  }

  begin() {
    const workers = this.pool._workers();
    this.workers = workers.map(({ client }, index) => ({
      // runs: the pieces sent to it, in order ({piece, id, base, began, since, draining}):
      // the first is being searched
      client, index, prepared: null, preparing: null, runs: [], latest: null, idleSince: 0,
    }));
    this.workers.forEach((w, k) => {
      workers[k].loaded.then(() => {
        if (this.stopping || this.settled || this.single) return this.settle();
        const prep = w.client.prepare(this.puzzle, this.options);
        w.preparing = prep.id;
        return prep.done.then((p) => this.onPrepared(w, p), (err) => this.onWorkerError(w, err));
      }, (err) => {
        // a helper that cannot load is left out; the first worker's failure ends the search
        this.onWorkerError(w, err);
      });
    });
  }

  onPrepared(w, p) {
    w.preparing = null;
    if (this.single) return undefined; // the search runs on the first worker alone
    if (p.cancelled || this.stopping) return this.settle();
    if (w.index === 0) {
      if (p.splitRefusal) {
        // a kept search is pieces of a split tree: one whose options can no longer be split is
        // refused, not searched whole again (the solutions found before would count twice)
        if (this.resume) return this.fail(new CheckpointRefused(`the kept search: its options cannot be searched in pieces (${p.splitRefusal})`, 'not-resumable'));
        return this.runAlone();
      }
      if (this.resume && !this.resumeChecked) return this.checkResume(w, p);
      this.fingerprint = p.fingerprint;
      this.primaryStats = p.stats || {};
      this.book = new PieceBook({ cellCount: p.cellCount, resume: this.resume });
      if (this.resume) for (const piece of this.resume.pending) this.book.add(piece.path, piece.share, null);
      else this.book.add([], 1, null);
      if (this.pool.splitAfterMs <= 0) {
        this.drainFirst = true; // (no piece runs yet: the first is drained as it starts)
        this.startDraining();
      } else if (Number.isFinite(this.pool.splitAfterMs)) this.splitTimer = setTimeout(() => this.startDraining(), this.pool.splitAfterMs);
      for (const other of this.workers) if (other.prepared && other.fingerprintPending) this.adopt(other);
    }
    w.prepared = p;
    if (w.index !== 0 && !this.book) {
      w.fingerprintPending = true; // checked once the first worker answers
      return undefined;
    }
    return this.adopt(w);
  }

  // A kept checkpoint is resumed only once the engine has checked it against the search the
  // first worker prepared (its fingerprint, pieces, shares and counters: a piece listed twice
  // had counted its solutions twice, a forged count or share was taken as it was).
  checkResume(w, p) {
    const { pending, doneShare, solutions, stats, fingerprint } = this.resume;
    return w.client.checkResume({ fingerprint, doneShare, solutions, stats, pending }).then(({ problem, code }) => {
      if (this.stopping || this.settled) return this.settle();
      if (problem) return this.fail(new CheckpointRefused(problem, code));
      this.resumeChecked = true;
      return this.onPrepared(w, p);
    }, (err) => this.onWorkerError(w, err));
  }

  // The engine says these options cannot be shared (sharingRefusal did not know): the first
  // worker searches alone, as SolverClient.solve.
  runAlone() {
    for (const w of this.workers) if (w.preparing !== null) w.client.cancel(w.preparing);
    try {
      this.single = this.pool.primary.solve(this.puzzle, this.options, this.handlers);
    } catch (err) {
      this.settled = true;
      this.reject(err);
      return;
    }
    this.single.done.then((result) => {
      this.settled = true;
      this.resolve(result);
    }, (err) => {
      this.settled = true;
      this.reject(err);
    });
  }

  // A prepared worker joins (its tree must be the first worker's).
  adopt(w) {
    w.fingerprintPending = false;
    if (w.prepared.fingerprint !== this.fingerprint) {
      return this.fail(new Error(`internal: worker ${w.index + 1} set up the search differently`));
    }
    w.latest = w.prepared.stats || {};
    w.idleSince = performance.now();
    return this.dispatch();
  }

  // The search has run SPLIT_AFTER_MS: every running piece is drained now, and from now on
  // each one that has searched DRAIN_MS (drainTick).
  startDraining() {
    this.splitTimer = null;
    if (this.stopping || this.settled || !this.book) return;
    for (const w of this.workers) if (this.searching(w)) this.drain(w, w.runs[0]);
    this.drainTimer = setInterval(() => this.drainTick(), Math.min(DRAIN_TICK_MS, Math.max(1, this.pool.drainMs / 4)));
  }

  searching(w) {
    return !w.dead && w.runs.length > 0 && w.runs[0].id !== null && !w.runs[0].draining;
  }

  drainTick() {
    if (this.stopping || this.settled) return;
    const t = performance.now();
    for (const w of this.workers) if (this.searching(w) && t - w.runs[0].since >= this.pool.drainMs) this.drain(w, w.runs[0]);
  }

  // Ask the piece w is searching to give away all but about KEEP_MS of what it has left (its
  // levels come to runPiece's onDonated): it ends soon, and with it the wait of every piece
  // it gave away before for a checkpoint to keep them.
  drain(w, run) {
    run.draining = true;
    const { piece } = run;
    const ms = performance.now() - run.began;
    // its speed, in shares of itself per ms by its own estimate (0 before its first progress:
    // then every open level goes)
    const minShare = piece.fraction > 0 && ms > 0 ? Math.min(1, (piece.fraction / ms) * KEEP_MS) : 0;
    w.client.drain(run.id, minShare).then(() => {
      run.draining = false;
      run.since = performance.now(); // still running: drained again after another DRAIN_MS
    }, () => {
      run.draining = false; // the piece's own request reports a failure of the worker
    });
  }

  // Give waiting pieces to idle workers; ask for donations when none wait; end when all done.
  dispatch() {
    if (this.stopping || !this.book) return;
    const ready = this.workers.filter((w) => w.prepared && !w.fingerprintPending && !w.dead);
    for (const w of ready) {
      if (w.runs.length > 0) continue;
      const piece = this.book.next();
      if (!piece) break;
      this.runPiece(w, piece);
    }
    // Each busy worker gets its next piece ahead (it starts without a round trip to the page)
    // while there are more waiting pieces than workers that could want one.
    for (const w of ready) {
      if (w.runs.length !== 1 || this.book.queue.length <= ready.length) continue;
      this.runPiece(w, this.book.next());
    }
    if (this.book.idle) {
      this.finish();
      return;
    }
    // Work is asked for ahead, as soon as a worker is on its last piece, not once it is idle:
    // the donor answers between its slices (up to 15 ms), which an idle worker waited out
    // (10x6 on 2 workers: ~15 ms of a 70 ms search, twice).
    const needy = ready.some((w) => w.runs.length <= 1);
    if (needy && this.book.queue.length === 0 && !this.donating && !this.retry) this.askForWork(ready);
  }

  // Send `piece` to worker w: it starts at once, or after the one w is searching.
  runPiece(w, piece) {
    this.book.start(piece);
    // began: when it started searching (for a piece sent ahead, when the one before ended);
    // since: the same, then its last drain
    const run = { piece, id: null, base: null, began: 0, since: 0, draining: false };
    const now = w.runs.length === 0;
    if (now) {
      this.idleSeconds += (performance.now() - w.idleSince) / 1000;
      run.base = w.latest;
      run.began = run.since = performance.now();
    }
    w.runs.push(run);
    const sub = w.client.subproblem(piece.path, {
      stepBudget: this.pool.stepBudget,
      onSolutions: ({ cellCount, count, grids }) => {
        if (this.stopping === 'failed') return;
        this.book.record(piece, grids, count);
        if (this.handlers.onSolutions) this.handlers.onSolutions({ cellCount, count, grids });
      },
      onProgress: (stats) => {
        w.latest = stats;
        this.book.progress(piece, stats.fractionDone);
        if (w.index === 0) this.primaryStats = stats;
        this.reportProgress();
      },
      onDonated: (given) => this.addGiven(piece, given),
    });
    run.id = sub.id;
    if (now && this.drainFirst) {
      // (splitAfterMs 0, tests) the first piece is drained as it starts: its first slice
      this.drainFirst = false;
      this.drain(w, run);
    }
    sub.done.then(({ reason, stats }) => {
      this.ended(w, run);
      if (stats) w.latest = stats;
      if (w.index === 0 && stats) this.primaryStats = stats;
      if (w.runs.length > 0) {
        const next = w.runs[0];
        next.base = w.latest; // the next one starts from here
        next.began = next.since = performance.now();
      } else w.idleSince = performance.now();
      if (reason === 'finished') {
        this.book.finish(piece, stats ? stats.fractionDone : 1, statsBetween(w.latest, run.base || w.latest));
        this.reportProgress();
        if (this.stopping) this.settle(); // it ended before the cancel reached it
        else this.dispatch();
      } else {
        this.book.abandon(piece);
        w.dead = true; // a cancelled worker must be prepared again
        this.settle();
      }
    }, (err) => {
      this.ended(w, run);
      this.book.abandon(piece);
      this.onWorkerError(w, err);
    });
  }

  ended(w, run) {
    const at = w.runs.indexOf(run);
    if (at >= 0) w.runs.splice(at, 1);
  }

  addGiven(piece, { paths, share }) {
    if (!Array.isArray(paths) || paths.length === 0) return;
    this.donations++;
    for (const path of paths) this.book.add(path, (piece.share * share) / paths.length, piece);
    this.dispatch();
  }

  // The busiest worker (biggest share of the tree left, as far as its estimate tells) gives
  // away the untried siblings at its shallowest open level.
  // (ready: the workers that can search)
  askForWork(ready) {
    let donor = null;
    let most = -1;
    for (const w of ready) {
      if (w.runs.length === 0 || w.runs[0].id === null) continue;
      const { piece } = w.runs[0];
      const left = piece.share * (1 - piece.fraction);
      if (left > most) { most = left; donor = w; }
    }
    // (a worker alone on its last piece would only split its own work)
    if (!donor || !ready.some((w) => w !== donor && w.runs.length <= 1)) return;
    const { piece, id } = donor.runs[0];
    this.donating = true;
    // A few paths per idle worker (or one asking ahead): every piece costs a start in the
    // engine (FILA's tables)
    const idle = ready.filter((w) => w.runs.length === 0).length;
    donor.client.donate(id, DONATE_PER_IDLE * Math.max(1, idle)).then((given) => {
      this.donating = false;
      if (given.paths.length > 0) {
        this.addGiven(piece, given);
        return;
      }
      // nothing to give right now (e.g. only FILA's last levels are open): ask again shortly
      this.retry = setTimeout(() => {
        this.retry = null;
        this.dispatch();
      }, DONATE_RETRY_MS);
    }, () => {
      this.donating = false; // the donor's own request reports its failure
      this.dispatch();
    });
  }

  mergedStats() {
    const summed = addStats({}, this.book ? this.book.base.stats : {});
    for (const w of this.workers) if (w.latest && w.prepared) addStats(summed, statsBetween(w.latest, w.prepared.stats || {}));
    const seconds = (performance.now() - this.startedAt) / 1000;
    return {
      ...this.primaryStats,
      ...summed,
      seconds,
      searchSeconds: seconds,
      fractionDone: this.book ? this.book.fractionDone() : 0,
      fractionAtStart: this.resume ? this.resume.doneShare : 0,
      workers: this.workers.length,
      pieces: this.book ? this.book.made : 0,
      donations: this.donations,
      idleSeconds: this.idleSeconds,
      state: this.stopping === 'cancelled' ? 'cancelled' : this.book && this.book.idle ? 'done' : 'running',
    };
  }

  reportProgress() {
    const t = performance.now();
    if (t - this.lastProgress < PROGRESS_MS || !this.handlers.onProgress) return;
    this.lastProgress = t;
    this.handlers.onProgress(this.mergedStats());
  }

  checkpoint() {
    if (!this.book || !this.fingerprint) return null;
    return { ...this.book.checkpoint(), fingerprint: this.fingerprint, cellCount: this.book.cellCount };
  }

  onWorkerError(w, err) {
    w.dead = true;
    w.preparing = null;
    if (this.single) return; // a helper's prepare, no longer needed
    // (cancelling: a worker stopped outright fails what it was asked besides; the search ends cancelled)
    if (this.stopping === 'cancelled') {
      this.settle();
      return;
    }
    // A helper that cannot set up (e.g. out of memory) is left out; an error of the first
    // worker or during a piece (its solutions were already reported) stops the search.
    if (w.index !== 0 && !w.prepared && !this.stopping) {
      this.dispatch();
      return;
    }
    // every worker holds the whole puzzle: a worker that ran out of memory may be one too many
    const trap = this.workers.length > 1 && /internal error/.test(messageOf(err));
    this.fail(trap ? new Error(`${messageOf(err)} (each of the ${this.workers.length} workers holds the whole search: fewer workers need less memory)`) : err);
    this.settle(); // the last worker to answer ends the search
  }

  fail(err) {
    if (this.stopping === 'failed') return;
    this.error = err instanceof Error ? err : new Error(messageOf(err));
    this.stop('failed');
  }

  // Stop every worker; the search ends (settle) once each has answered.
  stop(how) {
    if (this.single) {
      this.pool.primary.cancel(this.single.id);
      return;
    }
    if (this.stopping === 'failed' || (this.stopping && how === 'cancelled')) return;
    this.stopping = how;
    clearTimeout(this.retry);
    this.retry = null;
    clearTimeout(this.splitTimer);
    clearInterval(this.drainTimer);
    for (const w of this.workers) {
      for (const run of [...w.runs].reverse()) w.client.cancel(run.id); // the waiting one first
      if (w.preparing !== null) w.client.cancel(w.preparing);
    }
    this.settle();
  }

  settle() {
    if (!this.stopping || this.settled) return;
    if (this.workers.some((w) => w.runs.length > 0 || w.preparing !== null)) return;
    this.settled = true;
    if (this.stopping === 'failed') this.reject(this.error);
    else this.resolve({ reason: 'cancelled', stats: this.mergedStats() });
  }

  finish() {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.retry);
    clearTimeout(this.splitTimer);
    clearInterval(this.drainTimer);
    for (const w of this.workers) if (w.preparing !== null) w.client.cancel(w.preparing); // slow helpers not needed
    this.resolve({ reason: 'finished', stats: this.mergedStats() });
  }
}
