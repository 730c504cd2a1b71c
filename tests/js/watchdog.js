// The worker watchdog's cases: searches and setups that, unsliced, would hold a worker's event
// loop for seconds. reliability.test.js checks what is deterministic about them (the cancel is
// answered between slices, no slice runs after it, in the phase named); bench/responsiveness.mjs
// times the longest block of the event loop for each (the 100 ms aim), which a test cannot do
// without depending on the machine's load.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { MSG } from '../../web/src/worker/protocol.js';
import { ROOT, makeHost, readDef } from './helpers.js';

export const hostile = (file) => readFileSync(path.join(ROOT, 'tests/hostile', file), 'utf8');

export const WATCHDOG_CASES = [
  { name: 'setup of 1.1 million images', text: () => hostile('random100.txt'), options: '', phase: 'setup' },
  // A DLX placement is not divisible: its cost grows with column length x row length^2.
  // 60 random 10-cell pieces (400,000 rows); with 1.1 million rows (random100.txt) one
  // placement is the longest indivisible unit (README, Limits).
  { name: 'search with slow placements', text: () => hostile('random60.txt'), options: '', phase: 'search' },
  { name: 'fit filter over 400,000 rows', text: () => hostile('random60.txt'), options: '-F1', phase: 'search' },
  { name: 'Monte Carlo trials of one placement each', text: () => readDef('pentominoes_10x6.txt'), options: '-s 1000000000000,12', phase: 'search' },
  { name: 'filters after every placement', text: () => readDef('hexomino_box_in_diamond.txt'), options: '-P 3 -V 3 -F 5', phase: 'search' },
  { name: '-r probes', text: () => readDef('tetriscube.txt'), options: '-r', phase: 'setup' },
  // the whole setup before the cancel: the -r choice maps every image of every piece by
  // every symmetry (a piece per unit)
  { name: 'a whole -r setup of 400,000 images', text: () => hostile('random60.txt'), options: '-r', phase: 'search' },
  { name: 'a huge fixed stepBudget', text: () => readDef('tetriscube.txt'), options: '-r L', phase: 'search', stepBudget: 1e9 },
];

// The event loop thread's CPU time where Linux gives it (/proc/thread-self/schedstat,
// nanoseconds on a CPU): the process's (process.cpuUsage, the fallback) also counts V8's
// threads compiling the WebAssembly's hot code and collecting garbage.
const THREAD_CLOCK = '/proc/thread-self/schedstat';
let threadClock = null;
const cpuMs = () => {
  if (threadClock === null) {
    try {
      readFileSync(THREAD_CLOCK);
      threadClock = true;
    } catch {
      threadClock = false;
    }
  }
  if (threadClock) return Number(readFileSync(THREAD_CLOCK, 'utf8').split(' ')[0]) / 1e6;
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

// The longest the event loop was blocked while `run` ran (what a cancel waits for in a
// worker), in the thread's CPU time and in wall time, read by a 2 ms timer.
export async function longestBlock(run) {
  let last = performance.now();
  let lastCpu = cpuMs();
  const longest = { wall: 0, cpu: 0 };
  const tick = () => {
    const t = performance.now();
    const c = cpuMs();
    longest.wall = Math.max(longest.wall, t - last);
    longest.cpu = Math.max(longest.cpu, Math.min(c - lastCpu, t - last));
    last = t;
    lastCpu = c;
  };
  const timer = setInterval(tick, 2);
  try {
    await run();
  } finally {
    clearInterval(timer);
    tick();
  }
  return longest;
}

let nextId = 1;
// Load the case's text, solve with its options, and send cancel once the search is in its
// phase (as a worker gets it: between slices): in the setup, after its first slice; in the
// search, once the worker has said the search began. `measure` wraps the solve (longestBlock
// in the benchmark). Answers the final message, the slices before the cancel and after it,
// and what `measure` answered.
export async function cancelCase({ text, options, stepBudget, phase }, measure = (run) => run()) {
  const { host, next, slices, idle } = makeHost();
  await next((m) => m.type === MSG.READY);
  const loadId = nextId++;
  host.handleMessage({ type: MSG.LOAD, id: loadId, text: text(), source: 'watchdog.txt' });
  const loaded = await next((m) => m.id === loadId);
  if (loaded.type !== MSG.LOADED) throw new Error(`the case did not load: ${loaded.message}`);
  const id = nextId++;
  let done;
  let startedAt = 0;
  let cancelledAfter = 0;
  const measured = await measure(async () => {
    startedAt = slices();
    host.handleMessage({ type: MSG.SOLVE, id, puzzle: 0, options, ...(stepBudget ? { stepBudget } : {}) });
    const ended = next((m) => m.id === id && (m.type === MSG.DONE || m.type === MSG.ERROR));
    if (phase === 'setup') {
      while (slices() < startedAt + 1) await new Promise((r) => setImmediate(r));
    } else {
      await next((m) => m.id === id && ((m.type === MSG.PROGRESS && m.stats && m.stats.phase === 'search') || m.type === MSG.DONE || m.type === MSG.ERROR));
    }
    cancelledAfter = slices();
    host.handleMessage({ type: MSG.CANCEL, id });
    done = await ended;
  });
  await idle();
  return { done, measured, slicesBeforeCancel: cancelledAfter - startedAt, slicesAfterCancel: done.afterSlices - cancelledAfter };
}
