// Shared helpers for the vitest suites: load the WebAssembly build (web/wasm/, made by
// scripts/build.sh) in Node, drive a Session in slices, and check solution grids.
import { TraceRecording } from '../../web/src/trace/recording.js';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DEF_DIR = path.join(ROOT, 'def');
export const WASM_GLUE = path.join(ROOT, 'web/wasm/polycube.mjs');
export const WASM_BINARY = path.join(ROOT, 'web/wasm/polycube.wasm');
export const CLI = path.join(ROOT, 'build/cli/polycube');

import { STEP, createSolverHost } from '../../web/src/worker/protocol.js'; // one copy of the step states

export { STEP };

let modulePromise = null;

// The glue is built for web/worker; in Node its fetch() of the .wasm URL fails, so the bytes
// are passed in as wasmBinary (see docs/toolchain notes).
export function loadModule() {
  if (!modulePromise) {
    modulePromise = (async () => {
      if (!existsSync(WASM_GLUE) || !existsSync(WASM_BINARY)) {
        throw new Error(`${WASM_GLUE} or ${WASM_BINARY} is missing: run bash scripts/build.sh`);
      }
      const { default: createPolycube } = await import(/* @vite-ignore */ WASM_GLUE);
      return createPolycube({ wasmBinary: readFileSync(WASM_BINARY) });
    })();
  }
  return modulePromise;
}

export function readDef(file) {
  return readFileSync(path.join(DEF_DIR, file), 'utf8');
}

/**
 * A checked Session call's reply ({ok:true, ...} or {ok:false, error:{code, message}}: the
 * bindings' one error shape), returned when ok, else thrown as an Error with the code.
 */
export function must(reply) {
  if (reply.ok) return reply;
  const error = new Error(reply.error.message);
  error.code = reply.error.code;
  throw error;
}

/** Load `file` from def/ into a new Session; returns {session, puzzles}. */
export async function openDef(file) {
  const module = await loadModule();
  const session = new module.Session();
  const loaded = session.load(readDef(file), file);
  if (!loaded.ok) {
    session.delete();
    must(loaded);
  }
  const puzzles = [];
  for (let i = 0; i < session.puzzleCount(); i++) puzzles.push(must(session.puzzle(i)).puzzle);
  return { session, puzzles };
}

/**
 * Run puzzle `index` with `options` to the end in step() slices.
 * onGrids(Int32Array, count) receives every batch of solutions (optional).
 * Returns {state, solutions, slices, stats}.
 */
export function runToEnd(session, index, options, { budget = 100000, onGrids } = {}) {
  must(session.start(index, options));
  const cellCount = session.cellCount();
  let solutions = 0;
  let slices = 0;
  let state;
  const drain = () => {
    while (session.pendingSolutions() > 0) {
      const grids = session.takeSolutions(1000);
      const count = grids.length / cellCount;
      if (count === 0) break;
      solutions += count;
      if (onGrids) onGrids(grids, count);
    }
  };
  do {
    state = session.step(budget).state;
    slices++;
    drain();
  } while (state === STEP.RUNNING);
  drain();
  return { state, solutions, slices, stats: JSON.parse(session.statsJson()) };
}

// ---------------------------------------------------------------------------------------
// Independent solution checker.

// The 24 proper rotations of 3-space as signed permutation matrices (det +1).
function rotations3d() {
  const perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
  const out = [];
  for (const p of perms) {
    for (let signs = 0; signs < 8; signs++) {
      const m = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
      for (let r = 0; r < 3; r++) m[r][p[r]] = signs & (1 << r) ? -1 : 1;
      const det =
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
        m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
        m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
      if (det === 1) out.push(m);
    }
  }
  return out;
}
const ROT24 = rotations3d();
// oneSide puzzles: rotations about the z axis only.
const ROT_Z = ROT24.filter((m) => m[2][2] === 1);

function normalise(cells) {
  const min = [0, 1, 2].map((k) => Math.min(...cells.map((c) => c[k])));
  return cells
    .map((c) => [c[0] - min[0], c[1] - min[1], c[2] - min[2]])
    .map((c) => c.join(','))
    .sort()
    .join(' ');
}

/** Set of normalised cell-set keys a mobile piece may take. */
export function orientationKeys(cells, oneSide) {
  const keys = new Set();
  for (const m of oneSide ? ROT_Z : ROT24) {
    keys.add(normalise(cells.map((c) => [0, 1, 2].map((r) => m[r][0] * c[0] + m[r][1] * c[1] + m[r][2] * c[2]))));
  }
  return keys;
}

/** Prepare a checker for a puzzle (parsed puzzleJson). check(grid) returns null or an error string. */
export function makeChecker(puzzle) {
  const { xDim, yDim, zDim } = puzzle;
  const cellCount = xDim * yDim * zDim;
  const pieceKeys = puzzle.pieces.map((p) => (p.stationary ? null : orientationKeys(p.cells, puzzle.oneSide)));
  const stationaryKeys = puzzle.pieces.map((p) => (p.stationary ? p.cells.map((c) => c.join(',')).sort().join(' ') : null));
  const n = puzzle.instances.length;
  return function check(grid) {
    if (grid.length !== cellCount) return `grid has ${grid.length} cells, expected ${cellCount}`;
    const cellsOf = Array.from({ length: n }, () => []);
    for (let i = 0; i < cellCount; i++) {
      const v = grid[i];
      if (!(v >= 0 && v < n)) return `cell ${i} holds ${v}, not an instance index`;
      const x = i % xDim;
      const y = Math.floor(i / xDim) % yDim;
      const z = Math.floor(i / (xDim * yDim));
      cellsOf[v].push([x, y, z]);
    }
    for (let k = 0; k < n; k++) {
      const inst = puzzle.instances[k];
      const piece = puzzle.pieces[inst.piece];
      const cells = cellsOf[k];
      if (cells.length !== piece.cells.length) {
        return `instance ${k} (${inst.name}) covers ${cells.length} cells, its piece has ${piece.cells.length}`;
      }
      if (piece.stationary) {
        const key = cells.map((c) => c.join(',')).sort().join(' ');
        if (key !== stationaryKeys[inst.piece]) return `stationary instance ${k} (${inst.name}) moved`;
      } else if (!pieceKeys[inst.piece].has(normalise(cells))) {
        return `instance ${k} (${inst.name}) is not a rotation/translation of its piece`;
      }
    }
    return null;
  };
}

/** Run with options (which include -t) and record the whole trace and the solutions. */
export async function record(file, options, { window = 0 } = {}) {
  return recordText(readDef(file), file, options, { window });
}

/**
 * record() for a definition's text; `window`: keep only the first so many trace records (the
 * search ends there, Session::setTraceLimit), else the whole trace (up to 2,000,000 records).
 */
export async function recordText(text, name, options, { window = 0 } = {}) {
  const module = await loadModule();
  const session = new module.Session();
  const loaded = session.load(text, name);
  if (!loaded.ok) {
    session.delete();
    must(loaded);
  }
  const puzzles = [must(session.puzzle(0)).puzzle];
  must(session.start(0, options));
  if (window > 0) must(session.setTraceLimit(window));
  const cellCount = session.cellCount();
  const rec = new TraceRecording(window > 0 ? window : 2_000_000);
  const solutions = [];
  let state;
  let stepped;
  do {
    stepped = session.step(5000);
    state = stepped.state;
    for (;;) {
      const ev = session.takeTrace(65536);
      if (ev.length === 0) break;
      rec.append(ev);
    }
    while (session.pendingSolutions() > 0) {
      const grids = session.takeSolutions(1000);
      for (let k = 0; k < grids.length / cellCount; k++) solutions.push(grids.slice(k * cellCount, (k + 1) * cellCount));
    }
  } while (state === STEP.RUNNING);
  if (state !== STEP.DONE && !(window > 0 && state === STEP.CANCELLED)) throw new Error(`${name} ${options}: the search ended in state ${state}: ${stepped.ok ? '' : stepped.error.message}`);
  // the image table, as the worker builds it
  const offsets = [0];
  const cells = [];
  const imageShapes = must(session.imageShapes()).shapes;
  for (let i = 0; i < imageShapes.length; i++) {
    cells.push(...must(session.imageCells(i)).cells);
    offsets.push(cells.length);
  }
  const table = { offsets: Int32Array.from(offsets), cells: Int32Array.from(cells), imageShapes, instanceShapes: must(session.instanceShapes()).shapes };
  session.delete();
  return { rec, solutions, puzzle: puzzles[0], cellCount, table };
}


// A Worker look-alike connecting a SolverClient to a worker host (web/src/worker/protocol.js) in
// the same thread, structured-cloning every message (transferring the listed buffers) like postMessage.
export function makeFakeWorker(loader = loadModule) {
  const listeners = { message: [], error: [] };
  let host;
  const worker = {
    addEventListener: (type, fn) => listeners[type].push(fn),
    removeEventListener: (type, fn) => listeners[type].splice(listeners[type].indexOf(fn), 1),
    postMessage: (msg) => {
      const copy = structuredClone(msg);
      setImmediate(() => host.handleMessage(copy));
    },
    terminate() {},
  };
  host = createSolverHost({
    loadModule: loader,
    postMessage: (msg, transfer) => {
      const copy = structuredClone(msg, { transfer: transfer || [] });
      setImmediate(() => listeners.message.forEach((fn) => fn({ data: copy })));
    },
    schedule: (fn) => setImmediate(fn),
  });
  return worker;
}

// A worker host (web/src/worker/protocol.js) driven directly, recording every message it
// posts, structured-cloned (transferring the listed buffers) like postMessage, stamped with
// receivedAt (performance.now()) and afterSlices (the worker's slices run before it). next(pred) resolves to the first message, sent so far or
// later, matching pred; it rejects when the module failed to load, or after `ms` without one.
export function makeHost(loader = loadModule) {
  const messages = [];
  const waiters = [];
  const fatal = () => messages.find((m) => m.type === 'error' && m.id === null);
  // The worker's slices (and anything else it schedules), counted: a test waits for the worker
  // to be idle, or counts the slices between two messages, instead of reading a clock.
  let scheduled = 0;
  let ran = 0;
  const host = createSolverHost({
    loadModule: loader,
    postMessage(msg, transfer) {
      const copy = structuredClone(msg, { transfer: transfer || [] });
      copy.receivedAt = performance.now();
      copy.afterSlices = ran;
      messages.push(copy);
      for (const w of [...waiters]) {
        if (w.pred(copy)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(copy);
        } else if (copy.type === 'error' && copy.id === null) {
          waiters.splice(waiters.indexOf(w), 1); // the module failed to load: fail fast
          w.reject(new Error(copy.message));
        }
      }
    },
    schedule: (fn) => {
      scheduled++;
      setImmediate(() => {
        scheduled--;
        ran++;
        fn();
      });
    },
  });
  /** Resolves once nothing the worker scheduled is left to run (a search ended, nothing queued). */
  const idle = async () => {
    while (scheduled > 0) await new Promise((r) => setImmediate(r));
  };
  const next = (pred, ms = 120_000) =>
    new Promise((resolve, reject) => {
      const found = messages.find(pred);
      if (found) return resolve(found);
      if (fatal()) return reject(new Error(fatal().message));
      // (what was awaited and the last messages: a timeout on a loaded CI machine says where)
      const timer = setTimeout(() => {
        const last = messages.slice(-6).map((m) => `${m.type} #${m.id}${m.reason ? ` (${m.reason})` : ''}`).join(', ');
        reject(new Error(`no message ${pred} within ${ms} ms; the last ones: ${last || 'none'}`));
      }, ms);
      waiters.push({
        pred,
        resolve: (m) => { clearTimeout(timer); resolve(m); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
    });
  return { host, messages, next, idle, slices: () => ran };
}

// makeHost with `file` loaded (message id 1) and its search prepared with `options` (id 2),
// then the whole tree started as piece 3: a running piece to donate from or drain.
export async function hostSearchingPiece(file = 'pentominoes_10x6.txt', options = '-r') {
  const h = makeHost();
  h.host.handleMessage({ type: 'load', id: 1, text: readDef(file), source: file });
  await h.next((m) => m.id === 1);
  h.host.handleMessage({ type: 'prepare', id: 2, puzzle: 0, options });
  await h.next((m) => m.id === 2 && m.type !== 'progress');
  h.host.handleMessage({ type: 'subproblem', id: 3, path: [] });
  return h;
}

/**
 * The rows of a puzzle's exact-cover matrix (the images of its image table) still in the
 * matrix on a board, by brute force: every cell of the image empty, and a copy of its piece
 * not yet on the board. (The lesson's matrix model keeps them by counters; this is its check.)
 */
export function uncoveredRows(table, grid) {
  const copies = new Map(), placed = new Map();
  Array.from(table.instanceShapes).forEach((s) => { if (s >= 0) copies.set(s, (copies.get(s) || 0) + 1); });
  for (const inst of new Set(Array.from(grid).filter((v) => v >= 0))) {
    const s = table.instanceShapes[inst];
    placed.set(s, (placed.get(s) || 0) + 1);
  }
  const out = [];
  for (let r = 0; r + 1 < table.offsets.length; r++) {
    const s = table.imageShapes[r];
    if ((placed.get(s) || 0) >= copies.get(s)) continue;
    let free = true;
    for (let k = table.offsets[r]; k < table.offsets[r + 1]; k++) if (grid[table.cells[k]] !== -1) free = false;
    if (free) out.push(r);
  }
  return out;
}

/** Resolves once `cond()` holds, looked at after each turn of the event loop (the fake workers' slices). */
export async function until(cond) {
  while (!cond()) await new Promise((r) => setImmediate(r));
}
