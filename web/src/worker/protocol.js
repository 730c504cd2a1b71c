// Message protocol between the page and the solver worker (web/src/worker/solver.worker.js),
// and the worker-side handler that implements it over the WebAssembly Session.
//
// Every message is a plain object with a `type`. Requests from the page carry an `id`
// (any value the page chooses, unique per request; SolverClient uses 1, 2, 3, ...); every
// reply to a request repeats that `id`.
//
// worker -> page, once at startup
//   {type:'ready', version}                 the wasm module loaded; version = Session.version()
//   {type:'error', id:null, message}        the wasm module failed to load (every later request
//                                           is answered with an error too)
//
// page -> worker: load definition text (replaces loaded puzzles; cancels a running search)
//   {type:'load', id, text, source}
//   -> {type:'loaded', id, puzzles:[puzzle, ...]}   puzzle = parsed Session.puzzleJson(i):
//        {title, source, line, xDim, yDim, zDim, oneSide, volume,
//         pieces:[{name, stationary, count, cells:[[x,y,z],...]}],
//         instances:[{name, piece, stationary}]}
//   -> {type:'error', id, code, message}    the Session's refusal (code "bad-definition"),
//                                          message "source:line: ..."
//
// page -> worker: search puzzle number `puzzle` (index into `puzzles` of the last load)
//   {type:'solve', id, puzzle, options, maxSolutions?, stepBudget?, traceLimit?}
//     options       the CLI's solver option string, e.g. '-r', '-r L' ('' for none)
//     maxSolutions  stop after this many solutions (done reason 'limit'); a whole number >= 1
//     stepBudget    fixed placement attempts per slice (e.g. small, to animate a trace), a
//                   whole number >= 1, at most MAX_BUDGET; by default the budget adapts so
//                   that one slice takes ~15 ms. Either one of another type, NaN, negative or
//                   fractional is refused with an error (no search starts). Whatever the
//                   budget, the engine ends a slice after Session::kSliceSeconds (15 ms), so
//                   a cancel is seen within about that.
//     traceLimit    with -t: keep the first this many trace events and end the search there
//                   (done reason 'window'): later events, the solutions among them and the
//                   statistics after them are not sent (Session::setTraceLimit), so a replay
//                   window holds the same steps, solutions and counters on every run. A
//                   whole number >= 1 (refused otherwise, like stepBudget).
//   -> {type:'progress', id, stats}         at most ~10 per second; stats = parsed statsJson:
//                                           {state, solutions, attempts, fits, seconds, ...}
//   -> {type:'solutions', id, cellCount, count, grids}
//        grids: Int32Array of count*cellCount ints, solution k's grid at [k*cellCount, (k+1)*cellCount);
//        grid[x + xDim*(y + yDim*z)] = instance index covering that cell (puzzle.instances order).
//        Batched: one message per ~100 ms or 500 solutions (the buffer is transferred).
//   -> {type:'trace', id, events}           only when options contain -t: Int32Array of flat
//                                           records [op, piecesRemaining, a, b] (TRACE_OP
//                                           below; engine/search/trace.hpp says what a and b
//                                           are for each op)
//   -> {type:'done', id, reason, stats}     last message of the search; reason is 'finished'
//                                           (search exhausted), 'cancelled', 'limit' or
//                                           'window' (traceLimit reached).
//                                           Every solution is delivered before 'done'.
//   -> {type:'error', id, code, message}    bad puzzle index or options (the Session's refusal),
//                                           or the engine failed during the search
//   A new 'solve' or 'load' while a search runs ends that search first (done 'cancelled').
//
// page -> worker: stop a search
//   {type:'cancel', id}                     id = the solve request's id. Takes effect at once
//                                           (the search runs in slices and the worker yields to
//                                           its event loop between them): pending solutions are
//                                           flushed, then {type:'done', id, reason:'cancelled'}.
//                                           Ignored when that search already ended.
//
// Sharing one search among several workers (the worker pool, web/src/pool/solver-pool.js;
// Session's contract in engine/session/session.hpp):
// page -> worker: set up a search without searching
//   {type:'prepare', id, puzzle, options}   like 'solve' up to the end of the setup
//   -> {type:'prepared', id, fingerprint, splitRefusal, cellCount, stats}
//        fingerprint   16 hex digits naming the tree (equal in every worker of one search)
//        splitRefusal  why these options cannot be shared ('' when they can: then
//                      'subproblem' may follow)
//   -> {type:'done', id, reason:'cancelled', stats}  when cancelled during the setup
//   -> {type:'error', id, code, message}    bad puzzle index or options, or a failed setup
// page -> worker: may a kept checkpoint of the prepared search be resumed?
//   {type:'checkResume', id, checkpoint}    after 'prepared': checkpoint = {fingerprint,
//                                           doneShare, solutions, stats, pending:[{path, share}]}
//                                           (the pool's PieceBook.checkpoint() without its grids)
//   -> {type:'checked', id, problem, code}  problem: '' when it may be resumed, else what is
//                                           wrong (Session.checkResume: the command line's
//                                           checks, engine/parallel/piece_check.hpp); code:
//                                           its error code ('other-search': another search's
//                                           fingerprint; 'not-resumable': damage)
// page -> worker: search one piece of the prepared tree
//   {type:'subproblem', id, path, stepBudget?}  path: image ids placed at the first levels
//                                           ([]: the whole tree), at most MAX_PATH of them;
//                                           legal after 'prepared' or after the last
//                                           subproblem's 'done' reason 'finished'. Sent while
//                                           a subproblem runs, it waits and starts as soon as
//                                           that one finishes (the pool sends each worker its
//                                           next piece ahead: no round trip between pieces);
//                                           if that one does not finish, the waiting ones end
//                                           the same way (done 'cancelled', or the error).
//                                           A cancel of a waiting one ends it at once.
//                                           stepBudget: as for 'solve' (a fixed budget per
//                                           slice; tests drive a piece slice by slice so).
//   -> progress / solutions / done as for 'solve' (stats are the worker's totals over
//      every piece it searched since 'prepare'; fractionDone is this piece's)
// page -> worker: give work away
//   {type:'donate', id, search, max?}       search = the running subproblem's id; max: give at
//                                           most this many paths (a whole number; default all)
//   -> {type:'donated', id, paths, share}   the untried siblings at the shallowest open level
//                                           as paths, and their share of the piece's tree;
//                                           paths [] when there is nothing to give or the
//                                           search already ended. When nothing is open yet
//                                           (a piece whose first slices set it up), the answer
//                                           comes after the first slice that leaves something
//                                           to give, or when the piece ends
//   {type:'donate', id, search, drain}      drain (a number from 0 to 1): the running piece gives
//                                           away at once, level by level from the top, every
//                                           untried sibling, until it has given a level whose
//                                           paths are each under `drain` of the piece's tree (0:
//                                           every open level). What it keeps is then at most
//                                           one such path, so it ends soon and what it searched
//                                           is complete in itself: a checkpoint can keep it
//                                           (pool/pieces.js). Each level comes as {type:'donated',
//                                           id: search, paths, share} (the piece's own id), then
//                                           the answer {type:'donated', id, paths:[], share:0}.
//                                           When nothing is open yet, this waits as max does.
//                                           Not with max.
//
// page -> worker: questions about a partial packing (playing by hand; Session::startPlay)
//   {type:'play', id, puzzle, placements, question, limit?, fixed?, piece?}
//     placements  the pieces placed, in the order placed: flat [instance, cellCount, cells...,
//                 ...] (an Array or Int32Array of whole numbers, at most MAX_PLAY_INTS), cells
//                 as in the grids
//     question    'count' (ways to finish, at most limit: one more is "more than limit"),
//                 'hint' (one finish and the piece to show next), 'wrong' (the placed piece
//                 whose removal makes the rest completable) or 'where' (every place for
//                 `piece` that can be finished, with its ways to finish); the engine refuses
//                 other words
//     limit       a whole number >= 1 (count only; none: count every finish)
//     fixed       a whole number >= 0 (wrong only): the first `fixed` placements are the
//                 position's own (a challenge's start) and never named
//     piece       a whole number (where only): the piece instance to place; the engine
//                 refuses one out of range, stationary or placed
//   -> {type:'progress', id, stats}         stats = parsed Session.playJson while it runs
//   -> {type:'played', id, result}          result = parsed Session.playJson (its fields are
//                                           documented in engine/session/session.hpp)
//   -> {type:'done', id, reason:'cancelled', stats}   cancelled (or replaced by another request)
//   -> {type:'error', id, message}          bad fields, or a packing the engine refuses
//                                           ("placement 2 (piece L): ...")
//
// page -> worker: the editor's checks of definition text (a draft: volumes may differ), without
// touching the loaded puzzles or a running search
//   {type:'draft', id, text, source}        -> {type:'drafted', id, result}
//        result = parsed Session.draftJson (engine/session/draft.hpp):
//        {ok:true, puzzles:[{...puzzle, checks:{freeCells, pieceCells, images, sameShapes, parity, impossible, limit}}]}
//        or {ok:false, error:"source:line: ..."}
//
// page -> worker: checkpoint files (the command line's --checkpoint / --resume format, with the
// puzzle and options in it: engine/parallel/checkpoint.hpp), made from a kept search and read
// back by the engine's own codec (Session.checkpointFileJson / openCheckpointJson), without
// touching the loaded puzzles or a running search
//   {type:'checkpointFile', id, kept}       kept = {definition, source, puzzle, options,
//                                           checkpoint: the pool's PieceBook.checkpoint() with
//                                           its fingerprint, grids left out}
//   -> {type:'checkpointFile', id, result}  result = {ok:true, text} or {ok:false, error:{code, message}}
//   {type:'openCheckpoint', id, text, name} text: the file's contents, name: its file name
//   -> {type:'checkpointOpened', id, result}  result = {ok:true, format, definition, source,
//                                           puzzle, options, checkpoint:{fingerprint,
//                                           doneShare, solutions, stats, pending}} or
//                                           {ok:false, error:{code, message:"name:line: ..."}}
//
// page -> worker: the cells of every image of the search last started (to replay a trace)
//   {type:'imageTable', id}                 -> {type:'imageTable', id, offsets:Int32Array, cells:Int32Array}
//        image i covers box cells cells[offsets[i] .. offsets[i+1]); at most MAX_TABLE_CELLS cells
//
// page -> worker: cells of a placement image (for drawing trace events)
//   {type:'imageCells', id, image}          -> {type:'imageCells', id, cells:Int32Array}
//
// page -> worker: how to put a solution together by hand, one piece at a time (the "Build it"
// control; engine/assembly/build_order.hpp), without touching a running search
//   {type:'buildOrder', id, puzzle, grid}   puzzle: index into the last load's puzzles; grid: the
//                                           solution (Int32Array or array of whole numbers, at
//                                           most MAX_GRID_CELLS), laid out as 'solutions' sends
//   -> {type:'buildOrder', id, order}       order = parsed Session.buildOrderJson:
//        {ok:true, class:'above'|'sideways'|'interlocked'|'unsupported', flat, sideways,
//         interlocked:[instance...], steps:[{instance, name, slides:[{dir:[dx,dy,dz], distance}],
//         rests}], states}
//   -> {type:'error', id, message}          a grid of the wrong type, or the engine's reason
//                                           ("not a solution of this puzzle: ...", a bad index)
//
// page -> worker: solutions in the CLI's text (the engine's own formatter, output/format.hpp)
//   {type:'solutionsText', id, puzzle, grids, numbers}  grids: Int32Array (or array) of
//                                           numbers.length flat grids as 'solutions' sends them;
//                                           numbers: the number printed for each
//   -> {type:'solutionsText', id, text}     what `polycube` prints for them (without -q, -i)
//   -> {type:'error', id, message}          the engine's reason (a grid of the wrong size ...)
//
// worker -> page, after the engine trapped (a WebAssembly RuntimeError: out of memory, a bug)
//   {type:'restarted', message}             the module was thrown away and a fresh one loaded
//                                           (a trapped module keeps its leaked memory and can
//                                           fail again later); the last loaded definitions
//                                           were loaded again, so puzzle indices stay valid.
//                                           The request that was running got
//                                           {type:'error', id, message} with the same message.
//
// A message that is not an object or has no id is ignored (there is nobody to answer).
//
// The handler below has no worker globals in it, so tests drive it in Node with a fake
// postMessage (tests/js/protocol.test.js). (Over 600 lines: a third of it is this
// documentation, kept beside the one handler that implements it.)

import { ENGINE_RULES } from '../generated/engine-rules.js';

export const MSG = Object.freeze({
  READY: 'ready',
  ERROR: 'error',
  LOAD: 'load',
  LOADED: 'loaded',
  SOLVE: 'solve',
  PROGRESS: 'progress',
  SOLUTIONS: 'solutions',
  TRACE: 'trace',
  DONE: 'done',
  CANCEL: 'cancel',
  IMAGE_CELLS: 'imageCells',
  DRAFT: 'draft',
  DRAFTED: 'drafted',
  IMAGE_TABLE: 'imageTable',
  RESTARTED: 'restarted',
  PREPARE: 'prepare',
  PREPARED: 'prepared',
  SUBPROBLEM: 'subproblem',
  DONATE: 'donate',
  DONATED: 'donated',
  PLAY: 'play',
  PLAYED: 'played',
  BUILD_ORDER: 'buildOrder',
  CHECK_RESUME: 'checkResume',
  CHECKED: 'checked',
  SOLUTIONS_TEXT: 'solutionsText',
  CHECKPOINT_FILE: 'checkpointFile',
  OPEN_CHECKPOINT: 'openCheckpoint',
  CHECKPOINT_OPENED: 'checkpointOpened',
});

// Search-trace records: ENGINE_RULES.trace.recordInts ints each, [op, remaining, a, b], with
// the ops and the filters a FILTER_EMPTIED names as engine/search/trace.hpp defines and
// documents them (generated: tools/engine_rules.cpp).
export const TRACE_OP = ENGINE_RULES.trace.ops;
export const TRACE_FILTER = ENGINE_RULES.trace.filters;
/** A filter's name in words, by its number: TRACE_FILTER_WORD[1] === 'parity'. */
export const TRACE_FILTER_WORD = Object.freeze(
  Object.fromEntries(Object.entries(TRACE_FILTER).map(([name, value]) => [value, name.toLowerCase()])),
);

// Session.step() results (Session::StepState).
export const STEP = ENGINE_RULES.stepStates;

export const SLICE_TARGET_MS = 15;       // aim for one step() slice per this many ms
// The page redraws its counters at most 5 times a second (app/actions.js), so a worker tells
// its progress and sends its solutions at most as often: every message costs the page's main
// thread ~0.3 ms, which a worker pool on every core takes from the workers.
export const PROGRESS_INTERVAL_MS = 200; // at most ~5 progress messages per second
export const FLUSH_INTERVAL_MS = 200;    // solutions batched for at most this long ...
export const FLUSH_MAX_SOLUTIONS = 500;  // ... or this many solutions
const INITIAL_BUDGET = 20000;
const MIN_BUDGET = 100;
export const MAX_BUDGET = 1e9;
const TAKE_CHUNK = 4096;                 // solutions per takeSolutions() call
const TRACE_CHUNK = 65536;               // trace events per message
export const MAX_TABLE_CELLS = 20_000_000; // image table cells (80 MB) sent for replaying a trace
export const MAX_GRID_CELLS = ENGINE_RULES.limits.maxBoxVolume; // a build order's grid: the engine's largest box
export const MAX_PATH = 4096;            // placements in a subproblem's path (more pieces than any puzzle the engine accepts)
// placements of a play request: two ints a piece (5,000 at most) and a cell each (a box's at most)
export const MAX_PLAY_INTS = 2 * 5000 + MAX_GRID_CELLS;

// Yield to the event loop between slices. MessageChannel avoids setTimeout's 4 ms clamp.
export function defaultSchedule() {
  if (typeof MessageChannel === 'function') {
    const channel = new MessageChannel();
    const queue = [];
    channel.port1.onmessage = () => queue.shift()();
    return (fn) => {
      queue.push(fn);
      channel.port2.postMessage(0);
    };
  }
  if (typeof setImmediate === 'function') return (fn) => setImmediate(fn);
  return (fn) => setTimeout(fn, 0);
}

function errorMessage(e) {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The worker side of the protocol.
 * @param {object} opts
 * @param {() => Promise<object>} opts.loadModule resolves to the Emscripten module (createPolycube(...))
 * @param {(msg: object, transfer?: Transferable[]) => void} opts.postMessage
 * @param {(fn: () => void) => void} [opts.schedule] run fn after yielding to the event loop
 * @param {() => number} [opts.now] milliseconds
 * @returns {{handleMessage(msg: object): void, ready: Promise<boolean>}}
 */
export function createSolverHost({ loadModule, postMessage, schedule = defaultSchedule(), now = () => performance.now() }) {
  let module = null;
  let session = null;
  let loadFailed = null; // error message when the module failed to load
  let queued = [];       // requests received before the module was ready
  let job = null;        // the running search
  let tablesWaiting = []; // image-table requests waiting for the running search's setup
  let lastLoad = null;   // {text, source} of the last successful load (reloaded after a restart)
  let prepared = false;  // the session's search was set up by 'prepare' (subproblems may follow)
  let nextPieces = [];   // subproblem requests waiting for the running one ({id, path})
  // The slice budget the last piece adapted to: the next piece starts from it, not from
  // INITIAL_BUDGET (the engine's speed on this puzzle does not change from piece to piece;
  // ramping up again cost each piece a few short slices, each a trip through the event loop).
  let pieceBudget = INITIAL_BUDGET;

  async function boot() {
    try {
      module = await loadModule();
      session = new module.Session();
      prepared = false;
      if (lastLoad) session.load(lastLoad.text, lastLoad.source);
      return true;
    } catch (e) {
      loadFailed = `could not load the solver module: ${errorMessage(e)}`;
      return false;
    }
  }

  // Announce the outcome, then answer the requests that waited (in the same task, so a
  // request sent after the announcement is answered in order).
  function drain(announce) {
    const pending = queued;
    queued = null;
    if (loadFailed !== null) postMessage({ type: MSG.ERROR, id: null, message: loadFailed });
    else announce();
    for (const msg of pending) dispatch(msg);
  }

  const ready = (async () => {
    await boot();
    drain(() => postMessage({ type: MSG.READY, version: module.Session.version() }));
    return loadFailed === null;
  })();

  // The engine never throws (errors are values), so an exception out of the module is a trap:
  // WebAssembly out of memory, an abort, a bug. Such a module is unusable and keeps the memory
  // it took, so throw it away, load a fresh one (requests wait in the queue meanwhile) and load
  // the last definitions again. The request that was running gets an error saying so.
  function crashed(id, e) {
    const message = `the solver stopped with an internal error (${errorMessage(e)}); it was restarted, ` +
      'try a smaller puzzle or other options';
    const running = job;
    job = null;
    if (running && running.id !== id) postMessage({ type: MSG.ERROR, id: running.id, message });
    if (running && running.donation) postMessage({ type: MSG.ERROR, id: running.donation.id, message });
    for (const waiting of tablesWaiting) postMessage({ type: MSG.ERROR, id: waiting, message });
    tablesWaiting = [];
    for (const piece of nextPieces) postMessage({ type: MSG.ERROR, id: piece.id, message });
    nextPieces = [];
    try {
      if (session) session.delete();
    } catch {
      // a trapped module may fail here too: it is being replaced anyway
    }
    session = null;
    module = null;
    if (id !== undefined) postMessage({ type: MSG.ERROR, id, message });
    if (queued) return; // already restarting
    queued = [];
    boot().then(() => drain(() => postMessage({ type: MSG.RESTARTED, message })));
  }
  // Every checked Session call replies {ok:true, ...} or {ok:false, error:{code, message}}
  // (bindings/embind.cpp). This is the one place a refusal becomes the protocol's error
  // message (its code included); true when `reply` was one.
  function refused(id, reply) {
    if (reply.ok) return false;
    postMessage({ type: MSG.ERROR, id, code: reply.error.code, message: reply.error.message });
    return true;
  }

  function handleMessage(msg) {
    if (queued) queued.push(msg);
    else dispatch(msg);
  }

  function dispatch(msg) {
    // A message without an id (or not an object) has nobody to answer: an error with id null
    // would read as "the module failed to load" and stop the page's client for good.
    if (!msg || typeof msg !== 'object' || msg.id === undefined || msg.id === null) return;
    const id = msg.id;
    if (loadFailed !== null) {
      if (msg && msg.type !== MSG.CANCEL) postMessage({ type: MSG.ERROR, id, message: loadFailed });
      return;
    }
    try {
      switch (msg && msg.type) {
        case MSG.LOAD: return onLoad(id, msg);
        case MSG.SOLVE: return onSolve(id, msg);
        case MSG.PREPARE: return onPrepare(id, msg);
        case MSG.SUBPROBLEM: return onSubproblem(id, msg);
        case MSG.DONATE: return onDonate(id, msg);
        case MSG.PLAY: return onPlay(id, msg);
        case MSG.CHECK_RESUME: return onCheckResume(id, msg);
        case MSG.CANCEL: return onCancel(id);
        case MSG.DRAFT:
          return postMessage({
            type: MSG.DRAFTED, id,
            result: JSON.parse(module.Session.draftJson(String(msg.text ?? ''), String(msg.source ?? '<input>'))),
          });
        case MSG.CHECKPOINT_FILE:
          return onCheckpointFile(id, msg);
        case MSG.OPEN_CHECKPOINT:
          return postMessage({
            type: MSG.CHECKPOINT_OPENED, id,
            result: JSON.parse(module.Session.openCheckpointJson(typeof msg.text === 'string' ? msg.text : '', String(msg.name ?? ''))),
          });
        case MSG.IMAGE_TABLE:
          return onImageTable(id);
        case MSG.IMAGE_CELLS: {
          const reply = session.imageCells(msg.image | 0);
          return refused(id, reply) || postMessage({ type: MSG.IMAGE_CELLS, id, cells: reply.cells });
        }
        case MSG.BUILD_ORDER:
          return onBuildOrder(id, msg);
        case MSG.SOLUTIONS_TEXT:
          return onSolutionsText(id, msg);
        default:
          return postMessage({ type: MSG.ERROR, id, message: `unknown message type: ${String(msg && msg.type).slice(0, 40)}` });
      }
    } catch (e) {
      crashed(id, e);
    }
  }

  function onLoad(id, { text, source }) {
    cancelJob();
    const def = { text: String(text ?? ''), source: String(source ?? '<input>') };
    const loaded = session.load(def.text, def.source);
    if (refused(id, loaded)) {
      lastLoad = null;
      return;
    }
    lastLoad = def;
    prepared = false;
    const puzzles = [];
    for (let i = 0; i < loaded.puzzles; i++) puzzles.push(session.puzzle(i).puzzle);
    postMessage({ type: MSG.LOADED, id, puzzles });
  }

  // A positive whole number, or undefined/null when absent; anything else is an error message.
  function wholeNumber(value, name, max) {
    if (value === undefined || value === null) return { value: undefined };
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      const shown = typeof value === 'number' ? String(value) : typeof value;
      return { error: `${name} must be a whole number of at least 1 (got ${shown.slice(0, 40)})` };
    }
    return { value: Math.min(value, max) };
  }

  function onSolve(id, msg) {
    cancelJob();
    const limitField = wholeNumber(msg.maxSolutions, 'maxSolutions', Number.MAX_SAFE_INTEGER);
    const budgetField = wholeNumber(msg.stepBudget, 'stepBudget', MAX_BUDGET);
    const windowField = wholeNumber(msg.traceLimit, 'traceLimit', Number.MAX_SAFE_INTEGER);
    const fieldError = limitField.error || budgetField.error || windowField.error;
    if (fieldError) {
      postMessage({ type: MSG.ERROR, id, message: fieldError });
      return;
    }
    if (!startSession(id, msg)) return;
    if (windowField.value && refused(id, session.setTraceLimit(windowField.value))) return;
    runJob(newJob(id, { limit: limitField.value, fixedBudget: budgetField.value }));
  }

  function onPlay(id, msg) {
    cancelJob();
    const list = msg.placements;
    const listOk = (Array.isArray(list) || list instanceof Int32Array) && list.length <= MAX_PLAY_INTS &&
      Array.prototype.every.call(list, (v) => Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff);
    const limitField = wholeNumber(msg.limit, 'limit', Number.MAX_SAFE_INTEGER);
    const fixed = msg.fixed === undefined ? 0 : msg.fixed;
    const piece = msg.piece === undefined ? -1 : msg.piece;
    const error = !listOk ? `play: placements must be a list of at most ${MAX_PLAY_INTS} whole numbers`
      : typeof msg.question !== 'string' ? 'play: the question must be text (count, hint, wrong or where)'
        : !(Number.isInteger(fixed) && fixed >= 0 && fixed <= MAX_PLAY_INTS) ? 'play: fixed must be a whole number of at least 0'
          : !(Number.isInteger(piece) && piece >= -1 && piece <= 0x7fffffff) ? 'play: piece must be a whole number (a piece of the puzzle)'
            : limitField.error;
    if (error) {
      postMessage({ type: MSG.ERROR, id, message: error });
      return;
    }
    const index = Number.isInteger(msg.puzzle) ? msg.puzzle : -1;
    if (refused(id, session.startPlay(index, Int32Array.from(list), msg.question.slice(0, 100), limitField.value || 0, fixed, piece))) return;
    prepared = false;
    runJob(newJob(id, { kind: 'play' }));
  }

  // A slice of a play question: its progress now and then, its answer at the end.
  function afterPlaySlice(current, stepped) {
    const st = stepped.state;
    const result = () => JSON.parse(session.playJson());
    if (st === STEP.RUNNING) {
      const t = now();
      if (t - current.lastProgress >= PROGRESS_INTERVAL_MS) {
        current.lastProgress = t;
        postMessage({ type: MSG.PROGRESS, id: current.id, stats: result() });
      }
      schedule(() => runSlice(current));
      return;
    }
    job = null;
    if (st === STEP.DONE) postMessage({ type: MSG.PLAYED, id: current.id, result: result() });
    else if (st === STEP.CANCELLED) postMessage({ type: MSG.DONE, id: current.id, reason: 'cancelled', stats: result() });
    else if (!refused(current.id, stepped)) postMessage({ type: MSG.ERROR, id: current.id, message: `play failed (step state ${st})` });
  }

  function startSession(id, msg) {
    const index = Number.isInteger(msg.puzzle) ? msg.puzzle : -1;
    prepared = false;
    return !refused(id, session.start(index, String(msg.options ?? '')));
  }

  function newJob(id, { limit, fixedBudget, kind = 'solve', budget = INITIAL_BUDGET } = {}) {
    const t = now();
    return {
      id,
      kind,             // 'solve' | 'prepare' (ends when the setup is over) | 'subproblem' | 'play'
      cellCount: session.cellCount(),
      limit: limit || Infinity,
      found: 0,
      batch: [],        // Int32Arrays not yet posted
      batchCount: 0,
      lastFlush: t,
      lastProgress: t,
      budget: fixedBudget || budget,
      fixedBudget: fixedBudget || 0,
      donation: null,   // a donate request waiting for this piece to open a level ({id, max} or {id, drain})
    };
  }

  function runJob(current) {
    job = current;
    schedule(() => runSlice(current));
  }

  function onPrepare(id, msg) {
    cancelJob();
    if (!startSession(id, msg)) return;
    pieceBudget = INITIAL_BUDGET; // another search: its own speed
    runJob(newJob(id, { kind: 'prepare' }));
  }

  // The setup is over (or ended otherwise): answer the prepare request.
  function endPrepare(current, stepped) {
    job = null;
    if (refused(current.id, stepped)) return;
    if (stepped.state === STEP.CANCELLED) {
      postMessage({ type: MSG.DONE, id: current.id, reason: 'cancelled', stats: stats() });
      return;
    }
    const print = session.fingerprint();
    const refusal = session.splitRefusal();
    if (refused(current.id, print) || refused(current.id, refusal)) return;
    prepared = true;
    postMessage({
      type: MSG.PREPARED, id: current.id, fingerprint: print.fingerprint, splitRefusal: refusal.refusal,
      cellCount: session.cellCount(), stats: stats(),
    });
  }

  function onSubproblem(id, msg) {
    const path = msg.path;
    const valid = Array.isArray(path) && path.length <= MAX_PATH && path.every((v) => Number.isInteger(v) && v >= 0 && v <= 0x7fffffff);
    if (!valid) {
      postMessage({ type: MSG.ERROR, id, message: `subproblem: the path must be a list of at most ${MAX_PATH} image numbers` });
      return;
    }
    const budgetField = wholeNumber(msg.stepBudget, 'stepBudget', MAX_BUDGET);
    if (budgetField.error) {
      postMessage({ type: MSG.ERROR, id, message: budgetField.error });
      return;
    }
    const piece = { id, path, fixedBudget: budgetField.value };
    if (job && job.kind === 'subproblem') {
      nextPieces.push(piece); // starts as soon as the running piece ends (no round trip to the page)
      return;
    }
    if (job) {
      postMessage({ type: MSG.ERROR, id, message: 'subproblem: a search is running in this worker' });
      return;
    }
    startPiece(piece);
  }

  function startPiece({ id, path, fixedBudget }) {
    if (!prepared) {
      postMessage({ type: MSG.ERROR, id, message: 'subproblem: no prepared search (send prepare first)' });
      return false;
    }
    if (refused(id, session.startSubproblem(path))) return false;
    runJob(newJob(id, { kind: 'subproblem', budget: pieceBudget, fixedBudget }));
    return true;
  }

  // Whether the page's kept checkpoint of the prepared search may be resumed (the engine's
  // checks of its pieces, shares and counters). Only between searches: the session's own
  // search must be set up and at rest.
  function onCheckResume(id, msg) {
    if (!prepared || job) {
      postMessage({ type: MSG.ERROR, id, message: 'checkResume: prepare the search first (and nothing may be running)' });
      return;
    }
    let text;
    try {
      text = JSON.stringify(msg.checkpoint);
    } catch (e) {
      text = '';
    }
    const checked = typeof text === 'string' ? session.checkResume(text) : { ok: false, error: { code: 'not-resumable', message: 'the kept search: not a checkpoint' } };
    postMessage({ type: MSG.CHECKED, id, problem: checked.ok ? '' : checked.error.message, code: checked.ok ? '' : checked.error.code });
  }

  // A kept search as a checkpoint file: the engine reads the fields (a value of another type is
  // its to refuse, saying which).
  function onCheckpointFile(id, msg) {
    let text;
    try {
      text = JSON.stringify(msg.kept);
    } catch (e) {
      text = '';
    }
    const result = typeof text === 'string' ? JSON.parse(module.Session.checkpointFileJson(text)) : { ok: false, error: { code: 'bad-argument', message: 'the kept search: not a kept search' } };
    postMessage({ type: MSG.CHECKPOINT_FILE, id, result });
  }

  // The running piece ended: the next waiting one starts, or (it did not finish) every waiting
  // one ends the same way: done 'cancelled', or an error with `message`.
  function afterPiece(finished, message = '') {
    const waiting = nextPieces;
    nextPieces = [];
    if (finished) {
      while (waiting.length > 0 && !startPiece(waiting.shift()));
      nextPieces = waiting;
      return;
    }
    for (const piece of waiting) {
      if (message) postMessage({ type: MSG.ERROR, id: piece.id, message });
      else postMessage({ type: MSG.DONE, id: piece.id, reason: 'cancelled', stats: stats() });
    }
  }

  function onDonate(id, msg) {
    const running = job && job.kind === 'subproblem' && job.id === msg.search && session.phase() === 'searching';
    if (msg.drain !== undefined) {
      const d = msg.drain;
      if (msg.max !== undefined) {
        postMessage({ type: MSG.ERROR, id, message: 'donate: drain cannot be combined with max' });
        return;
      }
      if (typeof d !== 'number' || !(d >= 0 && d <= 1)) {
        const shown = typeof d === 'number' ? String(d) : typeof d;
        postMessage({ type: MSG.ERROR, id, message: `donate: drain must be a share from 0 to 1 (got ${shown.slice(0, 40)})` });
        return;
      }
      if (running && drainLevels(job, d) === 0 && !job.donation) {
        job.donation = { id, drain: d }; // nothing open yet: drained once a slice opens a level
        return;
      }
      postMessage({ type: MSG.DONATED, id, paths: [], share: 0 });
      return;
    }
    const max = Number.isInteger(msg.max) && msg.max > 0 ? Math.min(msg.max, 1 << 20) : 0;
    const given = running ? session.donate(max) : { ok: true, share: 0, paths: [] };
    if (refused(id, given)) return;
    if (given.paths.length === 0 && running && !job.donation) {
      // Nothing open to give yet (a piece that has just started has entered no level): answered
      // once a slice leaves something to give, rather than make the page come back later (its
      // retry timer and round trip left a worker idle ~30 ms of a 70 ms 10x6 search).
      job.donation = { id, max };
      return;
    }
    postMessage({ type: MSG.DONATED, id, paths: given.paths, share: given.share });
  }

  // Answer the donate request that waited for the piece to have something to give: what there
  // is after this slice, or nothing when the piece has ended (the page asks again later or
  // elsewhere). While the running piece has nothing to give (its first slices may only set it
  // up: FILA's tables, or a slice cut short by the clock on a busy machine; or only FILA's
  // recursive last levels are open), the request waits on: answered empty after such a slice,
  // a drain left the piece to search all it had.
  function answerDonation(current) {
    const waiting = current.donation;
    if (!waiting) return;
    const open = job === current && session.phase() === 'searching';
    if (waiting.drain !== undefined) {
      if (open && drainLevels(current, waiting.drain) === 0) return; // still nothing open: wait on
      current.donation = null;
      postMessage({ type: MSG.DONATED, id: waiting.id, paths: [], share: 0 });
      return;
    }
    const given = open ? session.donate(waiting.max) : { ok: true, share: 0, paths: [] };
    if (given.ok && open && given.paths.length === 0) return; // nothing open yet: wait on
    current.donation = null;
    if (refused(waiting.id, given)) return;
    postMessage({ type: MSG.DONATED, id: waiting.id, paths: given.paths, share: given.share });
  }

  // 'donate' with drain: give away the open levels from the top, each as the piece's own
  // 'donated' batch, until one whose paths are each under minShare of the piece (what the
  // piece keeps is then at most one of them: it ends soon). The deepest levels, thousands of
  // paths of a few placements each, stay with the piece: each piece costs a start and a
  // round trip to the page. Returns the number of levels given.
  function drainLevels(current, minShare) {
    let levels = 0;
    for (;;) {
      const given = session.donate(0);
      if (!given.ok || given.paths.length === 0) return levels;
      levels++;
      postMessage({ type: MSG.DONATED, id: current.id, paths: given.paths, share: given.share });
      if (given.share / given.paths.length < minShare) return levels;
    }
  }

  function onBuildOrder(id, { puzzle, grid }) {
    const cells = grid instanceof Int32Array ? grid : Array.isArray(grid) && grid.every(Number.isInteger) ? Int32Array.from(grid) : null;
    if (!Number.isInteger(puzzle) || puzzle < 0) {
      postMessage({ type: MSG.ERROR, id, message: 'buildOrder: puzzle must be the index of a loaded puzzle' });
      return;
    }
    if (!cells || cells.length > MAX_GRID_CELLS) {
      postMessage({ type: MSG.ERROR, id, message: `buildOrder: grid must be a list of at most ${MAX_GRID_CELLS} whole numbers (a solution)` });
      return;
    }
    const order = session.buildOrder(puzzle, cells);
    if (!refused(id, order)) postMessage({ type: MSG.BUILD_ORDER, id, order });
  }

  function onSolutionsText(id, { puzzle, grids, numbers }) {
    const cells = grids instanceof Int32Array ? grids : Array.isArray(grids) && grids.every(Number.isInteger) ? Int32Array.from(grids) : null;
    if (!Number.isInteger(puzzle) || puzzle < 0 || !cells || !Array.isArray(numbers) || !numbers.every(Number.isFinite)) {
      postMessage({ type: MSG.ERROR, id, message: 'solutionsText: needs a puzzle index, grids of whole numbers and a number for each' });
      return;
    }
    const r = session.solutionsText(puzzle, cells, numbers);
    if (!refused(id, r)) postMessage({ type: MSG.SOLUTIONS_TEXT, id, text: r.text });
  }

  // The image table describes the started search only once its setup (which runs in step()
  // slices) is over: a request made before that (the page asks right after solve) waits for it
  // (tablesWaiting), and is refused if the search ends first.
  function onImageTable(id) {
    if (job && !session.ready()) {
      tablesWaiting.push(id);
      return;
    }
    sendImageTable(id);
  }

  function answerWaitingTables() {
    if (tablesWaiting.length === 0) return;
    const ids = tablesWaiting;
    tablesWaiting = [];
    for (const id of ids) {
      if (session.ready()) sendImageTable(id);
      else postMessage({ type: MSG.ERROR, id, message: 'the search ended before its setup was complete: there is no image table' });
    }
  }

  // Image ids are dense from 0 to imageShapes' length.
  function sendImageTable(id) {
    const imageShapes = session.imageShapes();
    const instanceShapes = session.instanceShapes();
    if (refused(id, imageShapes) || refused(id, instanceShapes)) return;
    const offsets = [0];
    const parts = [];
    let total = 0;
    for (let i = 0; i < imageShapes.shapes.length; i++) {
      const reply = session.imageCells(i);
      if (refused(id, reply)) return;
      const cells = reply.cells;
      total += cells.length;
      if (total > MAX_TABLE_CELLS) {
        postMessage({ type: MSG.ERROR, id, message: `the puzzle has too many placements to replay (more than ${MAX_TABLE_CELLS} cells)` });
        return;
      }
      parts.push(cells);
      offsets.push(total);
    }
    const cells = new Int32Array(total);
    let at = 0;
    for (const p of parts) { cells.set(p, at); at += p.length; }
    const table = Int32Array.from(offsets);
    const images = imageShapes.shapes;
    const instances = instanceShapes.shapes;
    postMessage({ type: MSG.IMAGE_TABLE, id, offsets: table, cells, imageShapes: images, instanceShapes: instances },
      [table.buffer, cells.buffer, images.buffer, instances.buffer]);
  }

  function onCancel(id) {
    const waiting = nextPieces.findIndex((p) => p.id === id);
    if (waiting >= 0) {
      nextPieces.splice(waiting, 1);
      postMessage({ type: MSG.DONE, id, reason: 'cancelled', stats: stats() });
      return;
    }
    if (!job || (id !== null && id !== job.id)) return; // already ended: nothing to do
    cancelJob();
  }

  // Stop the running search (if any) at once and end it.
  function cancelJob() {
    if (!job) return;
    session.cancel();
    endJob(session.state() === STEP.DONE ? 'finished' : 'cancelled'); // DONE: the search had just finished
  }

  function runSlice(current) {
    if (job !== current) return; // ended (cancelled, replaced) while this slice was queued
    let stepped;
    let st;
    try {
      const t0 = now();
      stepped = session.step(current.budget);
      st = stepped.state;
      const dt = now() - t0;
      // (a slice cut short by the search's end says nothing of the engine's speed)
      if (!current.fixedBudget && st === STEP.RUNNING) {
        adaptBudget(current, dt);
        if (current.kind === 'subproblem') pieceBudget = current.budget;
      }
      if (current.kind === 'play') {
        afterPlaySlice(current, stepped);
        return;
      }
      if (current.kind === 'prepare' && (st !== STEP.RUNNING || session.ready())) {
        endPrepare(current, stepped);
        return;
      }
      answerDonation(current);
      collect(current);
    } catch (e) {
      crashed(current.id, e);
      return;
    }
    if (current.found >= current.limit && st === STEP.RUNNING) {
      session.cancel();
      endJob('limit');
      return;
    }
    switch (st) {
      case STEP.RUNNING: {
        if (session.ready()) answerWaitingTables();
        const t = now();
        if (current.batchCount > 0 && t - current.lastFlush >= FLUSH_INTERVAL_MS) flush(current);
        if (t - current.lastProgress >= PROGRESS_INTERVAL_MS) {
          current.lastProgress = t;
          postMessage({ type: MSG.PROGRESS, id: current.id, stats: stats() });
        }
        schedule(() => runSlice(current));
        return;
      }
      case STEP.DONE:
        // solutions left in the session beyond maxSolutions: the limit cut the search short
        endJob(current.found >= current.limit && session.pendingSolutions() > 0 ? 'limit' : 'finished');
        return;
      case STEP.CANCELLED:
        endJob(session.traceLimitReached() ? 'window' : 'cancelled');
        return;
      default: {
        flush(current);
        job = null;
        answerWaitingTables();
        const message = stepped.ok ? `search failed (step state ${st})` : stepped.error.message;
        if (!refused(current.id, stepped)) postMessage({ type: MSG.ERROR, id: current.id, message });
        afterPiece(false, message);
      }
    }
  }

  function adaptBudget(current, dt) {
    let factor;
    if (dt < 0.5) factor = 4;
    else factor = Math.min(4, Math.max(0.25, SLICE_TARGET_MS / dt));
    current.budget = Math.min(MAX_BUDGET, Math.max(MIN_BUDGET, Math.round(current.budget * factor)));
  }

  // Move new solutions (up to the limit) and trace events out of the session.
  function collect(current) {
    while (current.found < current.limit && session.pendingSolutions() > 0) {
      const max = Math.min(TAKE_CHUNK, current.limit - current.found);
      const grids = session.takeSolutions(max);
      const count = current.cellCount > 0 ? grids.length / current.cellCount : 0;
      if (count === 0) break;
      current.batch.push(grids);
      current.batchCount += count;
      current.found += count;
      if (current.batchCount >= FLUSH_MAX_SOLUTIONS) flush(current);
    }
    // Trace events exist only when the search was started with -t.
    for (;;) {
      const events = session.takeTrace(TRACE_CHUNK);
      const ints = events.length; // read before the transfer: it detaches the buffer (length 0)
      if (ints === 0) break;
      postMessage({ type: MSG.TRACE, id: current.id, events }, [events.buffer]);
      if (ints < TRACE_CHUNK * 4) break;
    }
  }

  function flush(current) {
    current.lastFlush = now();
    if (current.batchCount === 0) return;
    let grids;
    if (current.batch.length === 1) grids = current.batch[0];
    else {
      grids = new Int32Array(current.batchCount * current.cellCount);
      let offset = 0;
      for (const part of current.batch) {
        grids.set(part, offset);
        offset += part.length;
      }
    }
    const count = current.batchCount;
    current.batch = [];
    current.batchCount = 0;
    postMessage(
      { type: MSG.SOLUTIONS, id: current.id, cellCount: current.cellCount, count, grids },
      [grids.buffer],
    );
  }

  function stats() {
    try {
      return JSON.parse(session.statsJson());
    } catch {
      return {};
    }
  }

  // End the running search (if any): deliver its remaining solutions, then 'done'.
  function endJob(reason) {
    const current = job;
    if (!current) return;
    job = null;
    collect(current);
    flush(current);
    answerDonation(current); // (nothing to give: it ended)
    answerWaitingTables(); // before DONE: the page's replay needs the table of this search
    postMessage({ type: MSG.DONE, id: current.id, reason, stats: stats() });
    if (current.kind === 'subproblem') afterPiece(reason === 'finished');
  }

  return { handleMessage, ready };
}
