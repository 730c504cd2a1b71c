// SolverClient: the page's handle on the solver worker (protocol: ./worker/protocol.js).
//
//   const client = new SolverClient();          // or new SolverClient(workerOrUrl)
//   const { version } = await client.ready;
//   const puzzles = await client.load(text, 'pentominoes_10x6.txt');
//   const { id, done } = client.solve(0, '-r', {
//     onSolutions: ({ cellCount, count, grids }) => { ... },  // grids: Int32Array
//     onProgress: (stats) => { ... },
//   });
//   client.cancel(id);
//   const { reason, stats } = await done;       // reason: 'finished' | 'cancelled' | 'limit'
//
// Failures reject with an Error whose message is the engine's message ("file:line: ...") and
// whose `code` is the engine's error code ("bad-definition", "illegal-call", ...: Session's
// error values, engine/session/session.hpp) when the engine refused the request. A worker
// that failed for good (its module did not load, it crashed) sets `failure`: every later
// request rejects with it.
//
// Cancel is cooperative first: the engine answers between slices (15 ms). When no answer
// has come HARD_CANCEL_MS later (one DLX placement in a matrix of a million rows takes up to
// 100 ms in WebAssembly, a fresh module's memory growth ~200 ms), the worker is terminated
// and a new one started with the last definitions loaded again (puzzle indices stay valid):
// the search ends 'cancelled' with its last progress statistics (`stoppedOutright: true`),
// other requests to the old worker fail with a message saying so. Only for workers this
// client starts itself (a Worker passed in cannot be recreated).

import { MSG } from './worker/protocol.js';

/** The Error a request rejects with for the worker's error message (its code kept). */
function engineError(msg) {
  const error = new Error(msg.message);
  if (msg.code) error.code = msg.code;
  return error;
}

/** Milliseconds a cancelled search may take to answer before its worker is stopped outright. */
export const HARD_CANCEL_MS = 100;

export class SolverClient {
  /**
   * @param {Worker|string|URL|function(): Worker} [workerOrUrl] a Worker, the URL of
   *   solver.worker.js (started as a module worker) or a function that starts one. By default
   *   the bundled worker next to this file.
   */
  constructor(workerOrUrl) {
    if (workerOrUrl === undefined) {
      // Literal form, so that Vite finds and bundles the worker.
      this._createWorker = () => new Worker(new URL('./worker/solver.worker.js', import.meta.url), { type: 'module' });
    } else if (typeof workerOrUrl === 'string' || workerOrUrl instanceof URL) {
      this._createWorker = () => new Worker(workerOrUrl, { type: 'module' });
    } else if (typeof workerOrUrl === 'function') {
      this._createWorker = workerOrUrl; // a factory: () => a Worker-like object
    } else {
      this._createWorker = null;
    }
    this.worker = this._createWorker ? this._createWorker() : workerOrUrl;
    this.nextId = 1;
    this._lastLoad = null; // {text, source}: loaded again into a worker started after a hard cancel
    this.pending = new Map(); // id -> {resolve, reject, handlers}
    this.failure = ''; // why the worker failed for good ('' while it works)
    this.version = null;
    this.ready = new Promise((resolve, reject) => {
      this._readyResolve = resolve;
      this._readyReject = reject;
    });
    this.ready.catch(() => {}); // also surfaced through every request
    this._onMessage = (event) => this._handle(event.data);
    this._onError = (event) => {
      const message = `solver worker failed: ${event && event.message ? event.message : 'could not start'}`;
      this._failAll(message);
    };
    this.worker.addEventListener('message', this._onMessage);
    this.worker.addEventListener('error', this._onError);
  }

  /** Parse definition text; resolves to the puzzles (parsed puzzleJson objects). */
  load(text, source = '<input>') {
    this._lastLoad = { text, source };
    return this._request({ type: MSG.LOAD, text, source }).done.then((msg) => msg.puzzles);
  }

  /**
   * Search puzzle `puzzle` of the last load with CLI options (e.g. '-r').
   * @param {number} puzzle
   * @param {string} [options]
   * @param {{onSolutions?: Function, onProgress?: Function, onTrace?: Function,
   *          maxSolutions?: number, stepBudget?: number, traceLimit?: number}} [handlers]
   * @returns {{id: number, done: Promise<{reason: string, stats: object}>}}
   */
  solve(puzzle, options = '', handlers = {}) {
    // (a kept search's pieces are checked and searched by SolverPool: here it would be searched
    // whole, its solutions found before counted twice)
    if (handlers.resume) throw new Error('SolverClient.solve: a kept search is resumed through SolverPool');
    const msg = { type: MSG.SOLVE, puzzle, options };
    if (handlers.maxSolutions > 0) msg.maxSolutions = handlers.maxSolutions;
    if (handlers.stepBudget > 0) msg.stepBudget = handlers.stepBudget;
    if (handlers.traceLimit > 0) msg.traceLimit = handlers.traceLimit;
    const { id, done } = this._request(msg, handlers);
    const entry = this.pending.get(id);
    if (entry) entry.search = true;
    return { id, done: done.then((m) => ({ reason: m.reason, stats: m.stats })) };
  }

  /**
   * Set up a search of `puzzle` without searching (the worker pool: web/src/pool/). Resolves
   * to {fingerprint, splitRefusal, cellCount, stats}, or {cancelled: true} when cancel(id) came first.
   * @returns {{id: number, done: Promise<object>}}
   */
  prepare(puzzle, options = '') {
    const { id, done } = this._request({ type: MSG.PREPARE, puzzle, options });
    const entry = this.pending.get(id);
    if (entry) entry.search = true;
    return {
      id,
      done: done.then((m) => (m.type === MSG.DONE ? { cancelled: true, stats: m.stats }
        : { fingerprint: m.fingerprint, splitRefusal: m.splitRefusal, cellCount: m.cellCount, stats: m.stats })),
    };
  }

  /**
   * Search one piece (a path from the root) of the prepared search; handlers as for solve,
   * plus onDonated({paths, share}) for the paths it gives away when drained (drain below).
   * @returns {{id: number, done: Promise<{reason: string, stats: object}>}}
   */
  subproblem(path, handlers = {}) {
    const msg = { type: MSG.SUBPROBLEM, path };
    if (handlers.stepBudget > 0) msg.stepBudget = handlers.stepBudget;
    const { id, done } = this._request(msg, handlers);
    const entry = this.pending.get(id);
    if (entry) entry.search = true;
    return { id, done: done.then((m) => ({ reason: m.reason, stats: m.stats })) };
  }

  /**
   * Whether a kept checkpoint (the pool's PieceBook.checkpoint(), grids left out) may resume the
   * search prepared last: resolves to {problem, code}, both '' when it may, else what is wrong
   * with it and the engine's error code ('other-search', 'not-resumable').
   */
  checkResume(checkpoint) {
    return this._request({ type: MSG.CHECK_RESUME, checkpoint }).done.then((m) => ({ problem: m.problem, code: m.code }));
  }

  /** Ask running subproblem `search` for at most `max` paths of work (0: all it can give):
   * resolves to {paths, share} (paths [] when none). */
  donate(search, max = 0) {
    return this._request({ type: MSG.DONATE, search, ...(max > 0 ? { max } : {}) }).done.then((m) => ({ paths: m.paths, share: m.share }));
  }

  /** Ask running subproblem `search` to drain: give away its untried branches, shallowest
   * first, until what it keeps is under `minShare` of it (0..1); they come to its onDonated
   * handler before this resolves. */
  drain(search, minShare) {
    return this._request({ type: MSG.DONATE, search, drain: minShare }).done.then(() => undefined);
  }

  /**
   * Ask about a partial packing (protocol 'play'): `placements` flat [instance, cellCount,
   * cells..., ...], `question` 'count' | 'hint' | 'wrong' | 'where'; handlers.limit (count: at
   * most this many finishes), handlers.fixed (wrong: the first placements never named),
   * handlers.piece (where: the piece to place),
   * handlers.onProgress(result so far). Resolves to the engine's answer (parsed
   * Session.playJson), or {cancelled: true} when cancel(id) or another request came first.
   * @returns {{id: number, done: Promise<object>}}
   */
  play(puzzle, placements, question, handlers = {}) {
    const msg = { type: MSG.PLAY, puzzle, placements, question };
    if (handlers.limit > 0) msg.limit = handlers.limit;
    if (handlers.fixed > 0) msg.fixed = handlers.fixed;
    if (Number.isInteger(handlers.piece) && handlers.piece >= 0) msg.piece = handlers.piece;
    const { id, done } = this._request(msg, handlers);
    const entry = this.pending.get(id);
    if (entry) entry.search = true;
    return { id, done: done.then((m) => (m.type === MSG.DONE ? { cancelled: true } : m.result)) };
  }

  /** Stop search `id` (its done promise then resolves with reason 'cancelled'), within
   * HARD_CANCEL_MS whatever the engine is doing. */
  cancel(id) {
    this.worker.postMessage({ type: MSG.CANCEL, id });
    const entry = this.pending.get(id);
    if (!entry || !entry.search) return;
    entry.cancelled = true;
    if (!this._createWorker || entry.hardCancel) return;
    entry.hardCancel = setTimeout(() => this._stopOutright(id), HARD_CANCEL_MS);
  }

  /** The worker did not answer a cancel in time: replace it (see the header). */
  _stopOutright(id) {
    const cancelled = this.pending.get(id);
    if (!cancelled) return;
    this.worker.removeEventListener('message', this._onMessage);
    this.worker.removeEventListener('error', this._onError);
    this.worker.terminate();
    // Every search cancelled meanwhile ends cancelled: the pool cancels a worker's running piece
    // and the one waiting behind it, and both are the Cancel's, not a failure. Other requests
    // fail, saying why.
    for (const [pendingId, entry] of this.pending) {
      clearTimeout(entry.hardCancel);
      if (pendingId === id || entry.cancelled) {
        entry.resolve({ type: MSG.DONE, reason: 'cancelled', stats: { ...(entry.lastStats || {}), stoppedOutright: true } });
      } else {
        entry.reject(new Error('the solver was restarted to stop a search at once; try again'));
      }
    }
    this.pending.clear();
    this.worker = this._createWorker();
    this.worker.addEventListener('message', this._onMessage);
    this.worker.addEventListener('error', this._onError);
    // The new worker parses the same definitions first (its answer has no pending entry).
    if (this._lastLoad) this.worker.postMessage({ type: MSG.LOAD, id: this.nextId++, ...this._lastLoad });
  }

  /**
   * The editor's checks of definition text parsed as a draft (volumes may differ), without
   * touching the loaded puzzles: {ok:true, puzzles:[{...puzzle, checks}]} | {ok:false, error}.
   */
  draft(text, source = '<input>') {
    return this._request({ type: MSG.DRAFT, text, source }).done.then((m) => m.result);
  }

  /**
   * A kept search ({definition, source, puzzle, options, checkpoint}) as a checkpoint file of
   * the command line's format, written by the engine: resolves to {ok:true, text} or
   * {ok:false, error}.
   */
  checkpointFile(kept) {
    return this._request({ type: MSG.CHECKPOINT_FILE, kept }).done.then((m) => m.result);
  }

  /**
   * A checkpoint file read by the engine: resolves to {ok:true, definition, source, puzzle,
   * options, checkpoint} or {ok:false, error:{code, message}} (protocol 'openCheckpoint').
   */
  openCheckpoint(text, name) {
    return this._request({ type: MSG.OPEN_CHECKPOINT, text, name }).done.then((m) => m.result);
  }

  /** The cells of every image of the search last started, and the shape of each image and piece
   * instance: {offsets, cells, imageShapes, instanceShapes} (Int32Arrays). */
  imageTable() {
    return this._request({ type: MSG.IMAGE_TABLE }).done.then((m) => ({ offsets: m.offsets, cells: m.cells, imageShapes: m.imageShapes, instanceShapes: m.instanceShapes }));
  }

  /** How to put solution `grid` of puzzle `puzzle` together by hand (the engine's build order:
   * worker/protocol.js 'buildOrder'); rejects with the engine's reason for a grid that is not a solution. */
  buildOrder(puzzle, grid) {
    return this._request({ type: MSG.BUILD_ORDER, puzzle, grid }).done.then((m) => m.order);
  }

  /** Solutions [{index, grid}] of puzzle `puzzle` in the text the CLI prints them in (the
   * engine's own formatter: worker/protocol.js 'solutionsText'). */
  solutionsText(puzzle, solutions) {
    const cellCount = solutions.length ? solutions[0].grid.length : 0;
    const grids = new Int32Array(cellCount * solutions.length);
    solutions.forEach((s, k) => grids.set(s.grid, k * cellCount));
    return this._request({ type: MSG.SOLUTIONS_TEXT, puzzle, grids, numbers: solutions.map((s) => s.index) }).done.then((m) => m.text);
  }

  /** Box cell indices of placement image `image` (for drawing trace events). */
  imageCells(image) {
    return this._request({ type: MSG.IMAGE_CELLS, image }).done.then((m) => m.cells);
  }

  terminate() {
    this.worker.removeEventListener('message', this._onMessage);
    this.worker.removeEventListener('error', this._onError);
    if (typeof this.worker.terminate === 'function') this.worker.terminate();
    this._failAll('solver worker terminated');
  }

  _request(msg, handlers = {}) {
    const id = this.nextId++;
    let entry;
    const done = new Promise((resolve, reject) => {
      entry = { resolve, reject, handlers };
    });
    if (this.failure) entry.reject(new Error(this.failure));
    else {
      this.pending.set(id, entry);
      this.worker.postMessage({ ...msg, id });
    }
    return { id, done };
  }

  _handle(msg) {
    if (!msg || typeof msg !== 'object') return;
    if (msg.type === MSG.READY) {
      this.version = msg.version;
      this._readyResolve({ version: msg.version });
      return;
    }
    if (msg.type === MSG.RESTARTED) {
      // The engine trapped and the worker loaded a fresh module (the running request got an
      // error saying so); whoever wants to know sets onRestart.
      if (typeof this.onRestart === 'function') this.onRestart(msg.message);
      return;
    }
    if (msg.type === MSG.ERROR && (msg.id === null || msg.id === undefined)) {
      this._failAll(msg.message);
      return;
    }
    const entry = this.pending.get(msg.id);
    if (!entry) return;
    const { handlers } = entry;
    switch (msg.type) {
      case MSG.PROGRESS:
        entry.lastStats = msg.stats;
        if (handlers.onProgress) handlers.onProgress(msg.stats);
        break;
      case MSG.SOLUTIONS:
        if (handlers.onSolutions) handlers.onSolutions({ cellCount: msg.cellCount, count: msg.count, grids: msg.grids });
        break;
      case MSG.TRACE:
        if (handlers.onTrace) handlers.onTrace(msg.events);
        break;
      case MSG.DONATED:
        if (entry.search) {
          // a draining subproblem's paths (its own id); a donate request's answer otherwise
          if (handlers.onDonated) handlers.onDonated({ paths: msg.paths, share: msg.share });
          break;
        }
        this.pending.delete(msg.id);
        entry.resolve(msg);
        break;
      case MSG.ERROR:
        this.pending.delete(msg.id);
        clearTimeout(entry.hardCancel);
        entry.reject(engineError(msg));
        break;
      case MSG.LOADED:
      case MSG.CHECKED:
      case MSG.PREPARED:
      case MSG.DRAFTED:
      case MSG.IMAGE_TABLE:
      case MSG.BUILD_ORDER:
      case MSG.SOLUTIONS_TEXT:
      case MSG.CHECKPOINT_FILE:
      case MSG.CHECKPOINT_OPENED:
      case MSG.DONE:
      case MSG.IMAGE_CELLS:
      case MSG.PLAYED:
        this.pending.delete(msg.id);
        clearTimeout(entry.hardCancel);
        entry.resolve(msg);
        break;
      default:
        break;
    }
  }

  _failAll(message) {
    this.failure = this.failure || message;
    this._readyReject(new Error(message));
    for (const [, entry] of this.pending) {
      clearTimeout(entry.hardCancel);
      entry.reject(new Error(message));
    }
    this.pending.clear();
  }
}
