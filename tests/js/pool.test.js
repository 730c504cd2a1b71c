// The worker pool (web/src/pool/) end to end in Node: SolverClients over fake workers running
// the real protocol host and wasm module. The workers share one thread here, so this proves
// the results (the same solutions, counts and statistics as one worker; checkpoints that add
// up exactly), not the speed (bench/parallel.mjs measures that in Chromium).
import { describe, expect, it, vi } from 'vitest';
import { SolverClient } from '../../web/src/solver-client.js';
import { CheckpointRefused, PoolRun, SolverPool, sharingRefusal } from '../../web/src/pool/solver-pool.js';
import { PieceBook } from '../../web/src/pool/pieces.js';
import { addStats, statsBetween } from '../../web/src/pool/stats.js';
import { SAVED_SEARCH_VERSION, validSavedSearch } from '../../web/src/app/saved-search.js';
import { hostSearchingPiece, makeChecker, makeFakeWorker, readDef, until } from './helpers.js';

// splitAfterMs 0: split into pieces from the start (the checkpoint machinery at work whatever
// the search's length); the pool's own default splits only searches still running after a
// second, a time the fake workers' shared thread makes unpredictable here.
function newPool(size, { splitAfterMs = 0, drainMs, stepBudget } = {}) {
  return new SolverPool({ size, splitAfterMs, drainMs, stepBudget, createClient: () => new SolverClient(() => makeFakeWorker()) });
}

function gridKeys(grids, count, cellCount) {
  const keys = [];
  for (let k = 0; k < count; k++) keys.push(Array.from(grids.subarray(k * cellCount, (k + 1) * cellCount)).join(','));
  return keys;
}

// Run to the end; stop (cancel) once `stopAfter` solutions came, if given.
async function runAll(pool, file, options, { stopAfter = Infinity, resume, onStop } = {}) {
  const puzzles = await pool.load(readDef(file), file);
  const keys = [];
  let id = null;
  let stopped = false;
  const started = pool.solve(0, options, {
    resume,
    onSolutions: ({ cellCount, count, grids }) => {
      keys.push(...gridKeys(grids, count, cellCount));
      if (keys.length >= stopAfter && !stopped) {
        stopped = true;
        if (onStop) onStop(pool.checkpoint(id));
        pool.cancel(id);
      }
    },
  });
  id = started.id;
  const result = await started.done;
  return { ...result, keys, puzzle: puzzles[0] };
}

const singles = new Map();
async function singleRun(file, options) {
  const key = `${file} ${options}`;
  if (!singles.has(key)) singles.set(key, runAll(newPool(1), file, `${options} -l 100000000`));
  return singles.get(key);
}

function expectSameSearch(shared, single) {
  const check = makeChecker(shared.puzzle);
  const bad = shared.keys.map((k) => check(k.split(',').map(Number))).filter(Boolean);
  expect(bad).toEqual([]);
  expect(new Set(shared.keys).size).toBe(shared.keys.length);
  expect([...shared.keys].sort()).toEqual([...single.keys].sort());
  expect(shared.stats.solutions).toBe(single.stats.solutions);
  expect(shared.stats.attempts).toBe(single.stats.attempts);
  expect(shared.stats.fits).toBe(single.stats.fits);
  expect(shared.stats.attemptsByRemaining).toEqual(single.stats.attemptsByRemaining);
}

describe('worker pool', () => {
  it('finds exactly the solutions and statistics of one worker (DLX, 3 workers)', async () => {
    const single = await singleRun('pentominoes_10x6.txt', '-r');
    expect(single.keys.length).toBe(2339);
    const shared = await runAll(newPool(3), 'pentominoes_10x6.txt', '-r');
    expect(shared.reason).toBe('finished');
    expectSameSearch(shared, single);
    expect(shared.stats.workers).toBe(3);
    expect(shared.stats.pieces).toBeGreaterThan(3); // the first piece drained as it started
    expect(shared.stats.fractionDone).toBeCloseTo(1, 6);
  }, 240_000); // (a safety net: minutes where other programs take the cores)

  it('a search that ends before the split is due is shared by donation alone, in few pieces', async () => {
    const single = await singleRun('pentominoes_10x6.txt', '-r');
    // (a fixed work per slice: how often the second worker runs out of work is the same on any machine)
    const shared = await runAll(newPool(2, { splitAfterMs: Infinity, stepBudget: 20000 }), 'pentominoes_10x6.txt', '-r');
    expect(shared.reason).toBe('finished');
    expectSameSearch(shared, single);
    expect(shared.stats.pieces).toBeGreaterThan(1); // the second worker got work
    expect(shared.stats.pieces).toBeLessThan(32);   // not split into 16 per worker
    expect(shared.stats.fractionDone).toBeCloseTo(1, 6);
  }, 240_000); // (a safety net: minutes where other programs take the cores)

  it('a search still running when the split is due is split mid-search, and a checkpoint then adds up', async () => {
    const single = await singleRun('pentominoes_10x6.txt', '-r');
    const late = await runAll(newPool(2, { splitAfterMs: 30 }), 'pentominoes_10x6.txt', '-r');
    expectSameSearch(late, single);
    expect(late.stats.pieces).toBeGreaterThan(3);
    // Plain DLX (seconds here): stopped well after the split, the pieces that finished since
    // are kept; resumed, the two runs add up to one.
    const dlx = await singleRun('pentominoes_10x6.txt', '-r -o s');
    let checkpoint = null;
    await runAll(newPool(2, { splitAfterMs: 30 }), 'pentominoes_10x6.txt', '-r -o s', { stopAfter: 300, onStop: (ck) => { checkpoint = ck; } });
    expect(checkpoint.solutions).toBeGreaterThan(0);
    expect(checkpoint.pending.length).toBeGreaterThan(1);
    const second = await runAll(newPool(2), 'pentominoes_10x6.txt', '-r -o s', { resume: structuredClone(checkpoint) });
    const all = [...gridKeys(checkpoint.grids, checkpoint.solutions, checkpoint.cellCount), ...second.keys];
    expect(all.sort()).toEqual([...dlx.keys].sort());
    expect(second.stats.attempts).toBe(dlx.stats.attempts);
  }, 240_000); // (a safety net: minutes where other programs take the cores)

  it('shares FILA searches too (Soma, FILA on every level: -f 7, 2 workers)', async () => {
    const single = await singleRun('soma.txt', '-r -f 7');
    const shared = await runAll(newPool(2), 'soma.txt', '-r -f 7');
    expectSameSearch(shared, single);
    expect(shared.stats.pieces).toBeGreaterThan(2);
  }, 240_000); // (a safety net: minutes where other programs take the cores)

  it('runs searches that cannot be shared on one worker, as before', async () => {
    // the engine's own reasons (whyNotSplittable, through its option parser)
    expect(sharingRefusal('-t 1')).toMatch(/^-t: a trace is one ordered record/);
    expect(sharingRefusal('-r -l 5')).toMatch(/^-l: /);
    expect(sharingRefusal('-s 10,2')).toMatch(/^-s: /);
    expect(sharingRefusal('-u')).toMatch(/^-u: /);
    expect(sharingRefusal('-r -x')).toBe('options the engine will judge');
    expect(sharingRefusal('-r -u')).toBe('');
    expect(sharingRefusal('-r', { maxSolutions: 3 })).toBe('a solution limit');
    const pool = newPool(3);
    await pool.load(readDef('soma.txt'), 'soma.txt');
    let events = 0;
    const { done } = pool.solve(0, '-t 1 -l 2', { onTrace: (e) => { events += e.length; } });
    const result = await done;
    expect(result.stats.solutions).toBe(2);
    expect(events).toBeGreaterThan(0);
    expect(result.stats.workers).toBeUndefined(); // one worker's own statistics
  }, 240_000); // (a safety net: minutes where other programs take the cores)

  it('when the engine refuses to share what the page thought it could, the first worker searches alone', async () => {
    // (-t cannot be shared: the engine says so in 'prepared'; the page's own parse, which says
    // so first, is passed over by starting the shared search directly)
    const pool = newPool(2);
    await pool.load(readDef('soma.txt'), 'soma.txt');
    let events = 0;
    const result = await new PoolRun(pool, 0, '-t 1 -l 2', { onTrace: (e) => { events += e.length; } }).start();
    expect(result.stats.solutions).toBe(2);
    expect(events).toBeGreaterThan(0);
  }, 240_000); // (a safety net: minutes where other programs take the cores)

  it('a kept search whose options cannot be shared is refused, not searched whole again', async () => {
    // (its pieces and the solutions found before would otherwise be lost or counted twice)
    const pool = newPool(2);
    await pool.load(readDef('soma.txt'), 'soma.txt');
    const { done } = pool.solve(0, '-r -l 2', { resume: { fingerprint: '0', pending: [{ path: [], share: 1 }], solutions: 5, doneShare: 0, stats: {} } });
    await expect(done).rejects.toMatchObject({ name: 'CheckpointRefused', message: expect.stringMatching(/cannot be searched in pieces \(-l: /) });
  }, 240_000); // (a safety net: minutes where other programs take the cores)

  it('cancel stops every worker at once and the pool searches again afterwards', async () => {
    const pool = newPool(2);
    await pool.load(readDef('tetriscube.txt'), 'tetriscube.txt');
    let found = 0;
    const { id, done } = pool.solve(0, '', { onSolutions: ({ count }) => { found += count; } });
    // both workers searching (their pieces given by the first one's drain), solutions found
    await until(() => found > 0 && pool.runs.get(id).workers.every((w) => w.runs.length > 0));
    pool.cancel(id);
    const result = await done;
    expect(result.reason).toBe('cancelled');
    // every worker answered: nothing of the search is waiting for one
    expect(pool.clients.map((c) => c.pending.size)).toEqual([0, 0]);
    expect(pool.runs.size).toBe(0);
    const again = await runAll(pool, 'soma.txt', '-r');
    expect(again.reason).toBe('finished');
    expect(again.keys.length).toBe((await singleRun('soma.txt', '-r')).keys.length);
  }, 240_000); // (a safety net: minutes where other programs take the cores)

  it('a Cancel that has to stop a worker outright ends "cancelled" (bug: "Could not search: the solver was restarted…")', async () => {
    // A worker that says nothing more once a cancel is sent (as one busy with a slow placement):
    // the client stops it outright after HARD_CANCEL_MS. The pool's worker holds a piece and the
    // next one sent ahead: both are cancelled, and both end so.
    const made = [];
    const createClient = () => new SolverClient(() => {
      const worker = makeFakeWorker();
      const post = worker.postMessage;
      const listen = worker.addEventListener;
      const sent = [];
      worker.addEventListener = (type, fn) => listen(type, (e) => { if (!worker.stuck) fn(e); });
      worker.postMessage = (msg) => {
        sent.push(msg);
        if (msg.type === 'cancel' && made.length === 1) worker.stuck = true;
        else post(msg);
      };
      worker.terminate = () => { // (its searches stop here, as a terminated worker's would)
        for (const m of sent) if (m.type === 'subproblem' || m.type === 'prepare') post({ type: 'cancel', id: m.id });
      };
      made.push(worker);
      return worker;
    });
    const pool = new SolverPool({ size: 1, splitAfterMs: 0, createClient });
    await pool.load(readDef('tetriscube.txt'), 'tetriscube.txt');
    const { id, done } = pool.solve(0, '');
    await until(() => pool.runs.get(id).workers[0].runs.length === 2);
    pool.cancel(id);
    const result = await done; // (rejected before: the waiting piece failed with the restart)
    expect(result.reason).toBe('cancelled');
    expect(made.length).toBe(2); // the worker was replaced
    const again = await runAll(pool, 'soma.txt', '-r');
    expect(again.reason).toBe('finished');
    expect(again.keys.length).toBe(480);
    pool.terminate();
  }, 240_000); // (a safety net: minutes where other programs take the cores)

  it('a stopped search resumed from its checkpoint adds up to one run exactly', async () => {
    const single = await singleRun('pentominoes_10x6.txt', '-r');
    for (const stopAfter of [1, 700, 2000]) {
      let checkpoint = null;
      const first = await runAll(newPool(2), 'pentominoes_10x6.txt', '-r', { stopAfter, onStop: (ck) => { checkpoint = ck; } });
      expect(first.reason).toBe('cancelled');
      expect(checkpoint.fingerprint).toMatch(/^[0-9a-f]{16}$/);
      expect(checkpoint.pending.length).toBeGreaterThan(0);
      // a checkpoint as IndexedDB gives it back: structured-cloned
      const saved = structuredClone(checkpoint);
      const confirmed = gridKeys(saved.grids, saved.solutions, saved.cellCount);
      expect(saved.gridsComplete).toBe(true);
      expect(saved.grids).toBeInstanceOf(Uint8Array); // 12 pieces: a byte per cell
      const second = await runAll(newPool(3), 'pentominoes_10x6.txt', '-r', { resume: saved });
      expect(second.reason).toBe('finished');
      const all = [...confirmed, ...second.keys];
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual([...single.keys].sort());
      expect(second.stats.solutions).toBe(single.stats.solutions); // the totals carry on
      expect(second.stats.attempts).toBe(single.stats.attempts);
      expect(second.stats.fractionAtStart).toBeCloseTo(saved.doneShare, 12);
      expect(second.stats.fractionDone).toBeCloseTo(1, 6);
    }
  }, 480_000); // (a safety net: minutes where other programs take the cores)

  it('a damaged checkpoint is refused by the engine, naming the damage, and nothing is searched (bug: a piece twice counted 10,380 for the Tetris Cube)', async () => {
    let checkpoint = null;
    await runAll(newPool(2), 'pentominoes_10x6.txt', '-r', { stopAfter: 700, onStop: (ck) => { checkpoint = ck; } });
    expect(checkpoint.pending.length).toBeGreaterThan(1);
    const max53 = 2 ** 53 - 1;
    const damages = [
      ['a piece listed twice', (c) => { c.pending.push(c.pending[0]); }, /^the kept search: piece \d+ is the same as piece 1: it would be searched twice$/],
      ['a piece dropped', (c) => { c.pending.shift(); }, /^the kept search: the finished share .* add up to [\d.]+, not the whole search \(a piece missing or a share changed\)$/],
      ['a forged solution count', (c) => { c.solutions = max53; }, /its solution count \(9007199254740991\) is not its statistics' \(\d+\)/],
      ['forged counts that agree', (c) => { c.solutions = max53; c.stats.solutions = max53; c.stats.found = max53; }, /9007199254740991 assemblies found, but the last piece fitted only \d+ times/],
      ['"100% done" with pieces left', (c) => { c.doneShare = 1; }, /add up to [\d.]+, more than the whole search/],
      ['a share changed', (c) => { c.pending[0].share /= 2; }, /not the whole search/],
      ['an image of no piece', (c) => { c.pending[0].path = [...c.pending[0].path, 999999]; }, /piece 1: image 999999 does not exist in this puzzle/],
      ['a path inside another', (c) => { c.pending.push({ path: [...c.pending[0].path, 0], share: 0 }); }, /overlap: one's path begins with the other's/],
    ];
    for (const [what, spoil, message] of damages) {
      const c = structuredClone(checkpoint);
      spoil(c);
      const pool = newPool(2);
      await pool.load(readDef('pentominoes_10x6.txt'), 'pentominoes_10x6.txt');
      let delivered = 0;
      const { done } = pool.solve(0, '-r', { resume: c, onSolutions: ({ count }) => { delivered += count; } });
      const err = await done.then(() => null, (e) => e);
      expect(err, what).toBeInstanceOf(CheckpointRefused);
      expect(err.message, what).toMatch(message);
      expect(err.code, what).toBe('not-resumable'); // (damage: final, never tried with other options)
      expect(delivered, what).toBe(0);
      pool.terminate();
    }
  }, 480_000); // (a safety net: minutes where other programs take the cores)

  it('a checkpoint keeps most of what was shown, and loses at most the last few seconds (bug: 0 of 11,000-26,000 at a reload 9 s in)', async () => {
    // One-sided pentominoes 18x5 (minutes), the pool's own timings (split after 1 s, drains
    // every second). Before pieces were drained, the first piece kept a branch that had not
    // finished 7 s in here (9 s in a loaded browser): every checkpoint kept 0 solutions.
    // The pool's clock is the test's, and a fixed work per slice: 100 ms pass every 10 turns
    // of the event loop (the fake workers' slices), whatever the machine's load.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    try {
      const pool = new SolverPool({ size: 2, stepBudget: 5000, createClient: () => new SolverClient(() => makeFakeWorker()) });
      await pool.load(readDef('pentominoes_1s_18x5.txt'), '18x5');
      let shown = 0;
      const { id, done } = pool.solve(0, '-r', { onSolutions: ({ count }) => { shown += count; } });
      const tick = async () => {
        for (let k = 0; k < 10; k++) await new Promise((r) => setImmediate(r));
        await vi.advanceTimersByTimeAsync(100);
      };
      while (shown === 0) await tick(); // (the setup: time-bound slices, however many it takes)
      const t0 = performance.now();
      const samples = [];
      for (let t = 0; t <= 8; t = (performance.now() - t0) / 1000) {
        if (t >= 3) samples.push({ t, shown, kept: pool.checkpoint(id).solutions });
        await tick();
      }
      const last = pool.checkpoint(id);
      pool.cancel(id);
      await vi.advanceTimersByTimeAsync(1000);
      await done;
      expect(samples.length).toBeGreaterThan(10);
      for (const s of samples) {
        expect(s.shown).toBeGreaterThan(0);
        expect(s.kept, `at ${s.t.toFixed(1)} s`).toBeGreaterThanOrEqual(0.5 * s.shown);
        expect(s.kept).toBeLessThanOrEqual(s.shown);
        // the loss is bounded in time: everything shown 3 s earlier is kept
        const earlier = samples.filter((e) => e.t <= s.t - 3);
        if (earlier.length > 0) expect(s.kept, `at ${s.t.toFixed(1)} s`).toBeGreaterThanOrEqual(earlier[earlier.length - 1].shown);
      }
      // (what is searched again stays a short list: the pieces are taken newest first)
      expect(last.pending.length).toBeGreaterThan(0);
      expect(last.pending.length).toBeLessThan(1000);
    } finally {
      vi.useRealTimers();
    }
  }, 480_000); // (a safety net: minutes where other programs take the cores)

  it('a search drained many times, stopped and resumed, adds up to one run exactly', async () => {
    const single = await singleRun('pentominoes_10x6.txt', '-r -o s');
    let checkpoint = null;
    let shownAtStop = 0;
    const first = await runAll(newPool(2, { splitAfterMs: 50, drainMs: 50 }), 'pentominoes_10x6.txt', '-r -o s', {
      stopAfter: 1200, onStop: (ck) => { checkpoint = ck; },
    });
    shownAtStop = first.keys.length;
    expect(first.reason).toBe('cancelled');
    expect(first.stats.pieces).toBeGreaterThan(20); // drained again and again
    expect(checkpoint.solutions).toBeGreaterThanOrEqual(0.5 * Math.min(shownAtStop, 1200));
    const saved = structuredClone(checkpoint);
    const second = await runAll(newPool(3, { splitAfterMs: 0, drainMs: 50 }), 'pentominoes_10x6.txt', '-r -o s', { resume: saved });
    expect(second.reason).toBe('finished');
    const all = [...gridKeys(saved.grids, saved.solutions, saved.cellCount), ...second.keys];
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual([...single.keys].sort());
    expect(second.stats.solutions).toBe(single.stats.solutions);
    expect(second.stats.attempts).toBe(single.stats.attempts);
    expect(second.stats.attemptsByRemaining).toEqual(single.stats.attemptsByRemaining);
    expect(second.stats.fractionDone).toBeCloseTo(1, 6);
  }, 480_000); // (a safety net: minutes where other programs take the cores)

  it('options every worker refuses end the search with the engine\'s message (bug: it waited for ever)', async () => {
    const pool = newPool(3);
    await pool.load(readDef('pentominoes_10x6.txt'), 'p.txt');
    await expect(pool.solve(0, '-r Q').done).rejects.toThrow(/no piece named 'Q'/);
    expect(pool.runs.size).toBe(0);
    expect((await runAll(pool, 'soma.txt', '-r')).reason).toBe('finished'); // and it searches again
    await expect(pool.load('D:xDim=2\n~D\n', 'bad.txt')).rejects.toThrow(/^bad\.txt:/);
  }, 240_000); // (a safety net: minutes where other programs take the cores)

  it('refuses a checkpoint of another search with a clear message', async () => {
    let checkpoint = null;
    await runAll(newPool(2), 'pentominoes_10x6.txt', '-r', { stopAfter: 100, onStop: (ck) => { checkpoint = ck; } });
    const other = runAll(newPool(2), 'pentominoes_10x6.txt', '-r -M', { resume: checkpoint });
    await expect(other).rejects.toThrow(/^the kept search: a checkpoint of another search: its fingerprint [0-9a-f]{16} is not this search's [0-9a-f]{16} \(another puzzle, other options/);
    // the engine's code says which refusal it is (the page tries an old kept search with the options it ran with)
    await expect(other).rejects.toMatchObject({ name: 'CheckpointRefused', code: 'other-search' });
  }, 240_000); // (a safety net: minutes where other programs take the cores)
});

// The worker's side of a drain ('donate' with drain), driven without a page.
describe('draining a piece (for checkpoints)', () => {
  it('gives away the levels above a small branch, before its answer; the parts add up to the whole', async () => {
    const { host, messages, next } = await hostSearchingPiece();
    // asked before the piece has run a slice (nothing is open yet): drained after its first
    const minShare = 0.002;
    host.handleMessage({ type: 'donate', id: 4, search: 3, drain: minShare });
    for (const [id, drain] of [[5, -0.1], [6, 1.5], [7, 'x'], [8, NaN], [9, null]]) {
      host.handleMessage({ type: 'donate', id, search: 3, drain });
      expect((await next((m) => m.id === id)).message).toMatch(/drain must be a share from 0 to 1 \(got /);
    }
    host.handleMessage({ type: 'donate', id: 10, search: 3, drain: 0.5, max: 2 });
    expect((await next((m) => m.id === 10)).message).toMatch(/drain cannot be combined with max/);
    const answer = await next((m) => m.id === 4);
    expect(answer).toMatchObject({ type: 'donated', paths: [], share: 0 });
    // the levels came as the piece's own batches, before the answer, from the top down
    const at = messages.indexOf(answer);
    const batches = messages.slice(0, at).filter((m) => m.id === 3 && m.type === 'donated');
    expect(batches.length).toBeGreaterThan(1);
    const depths = batches.map((b) => b.paths[0].length);
    expect(depths).toEqual([...depths].sort((a, b) => a - b));
    // every level but the last has paths of at least minShare each: the last is the first under
    const each = batches.map((b) => b.share / b.paths.length);
    for (const e of each.slice(0, -1)) expect(e).toBeGreaterThanOrEqual(minShare);
    expect(each[each.length - 1]).toBeLessThan(minShare);
    const done = await next((m) => m.id === 3 && m.type === 'done');
    expect(done.reason).toBe('finished');
    // the piece and the paths it gave are the whole tree: each solution once
    let solutions = done.stats.solutions;
    let id = 100;
    for (const path of batches.flatMap((b) => b.paths)) {
      const before = solutions;
      host.handleMessage({ type: 'subproblem', id, path });
      const end = await next((m) => m.id === id && (m.type === 'done' || m.type === 'error'));
      expect(end.reason).toBe('finished');
      solutions = end.stats.solutions; // (the worker's totals since prepare)
      expect(solutions).toBeGreaterThanOrEqual(before);
      id++;
    }
    expect(solutions).toBe(2339);
    // a piece that already ended: nothing to give, the answer says so
    host.handleMessage({ type: 'donate', id: 11, search: 3, drain: 0 });
    expect(await next((m) => m.id === 11)).toMatchObject({ type: 'donated', paths: [], share: 0 });
  }, 240_000); // (a safety net: minutes where other programs take the cores)
});

describe('the pool\'s helpers', () => {
  // A pool whose workers record the requests they receive.
  function recordingPool(size, loaderFor = () => undefined) {
    const received = [];
    let made = 0;
    const pool = new SolverPool({
      size,
      createClient: () => {
        const k = made++;
        const worker = makeFakeWorker(loaderFor(k));
        const post = worker.postMessage;
        worker.postMessage = (msg) => {
          received.push({ worker: k, type: msg.type });
          post(msg);
        };
        return new SolverClient(() => worker);
      },
    });
    return { pool, received, made: () => made };
  }

  it('start and load each puzzle before Solve (a helper started at Solve delayed every worker)', async () => {
    const { pool, received, made } = recordingPool(3);
    await pool.load(readDef('soma.txt'), 'soma.txt');
    expect(made()).toBe(3);
    expect(received.filter((r) => r.type === 'load').map((r) => r.worker).sort()).toEqual([0, 1, 2]);
    pool.setSize(4); // a fourth starts at once with the same puzzle
    expect(made()).toBe(4);
    expect(received.filter((r) => r.type === 'load' && r.worker === 3)).toHaveLength(1);
    const before = received.length;
    const { done } = pool.solve(0, '-r');
    const result = await done;
    expect(result.stats.solutions).toBe(480);
    // nothing loaded again for the search: every worker already held the puzzle
    expect(received.slice(before).filter((r) => r.type === 'load')).toEqual([]);
    expect(result.stats.workers).toBe(4);
    pool.setSize(2);
    expect(pool.clients).toHaveLength(2);
    pool.terminate();
  });

  it('a helper that cannot load is left out; the first worker still searches', async () => {
    const broken = () => Promise.reject(new Error('no module here'));
    const { pool } = recordingPool(2, (k) => (k === 1 ? broken : undefined));
    await pool.load(readDef('soma.txt'), 'soma.txt');
    const result = await pool.solve(0, '-r').done;
    expect(result.reason).toBe('finished');
    expect(result.stats.solutions).toBe(480);
    pool.terminate();
  });
});

describe('a saved search read back from the browser', () => {
  const good = () => ({
    version: SAVED_SEARCH_VERSION, text: 'D:xDim=2\n~D\n', options: '-r', puzzleIndex: 0, source: { kind: 'custom' },
    title: 'X', sourceName: 'x.txt', elapsed: 12.5, savedAt: 1700000000000,
    checkpoint: {
      fingerprint: '0123456789abcdef', cellCount: 2, pending: [{ path: [3, 4], share: 0.5 }], doneShare: 0.5,
      solutions: 3, grids: Uint8Array.of(0, 1, 1, 0), stats: { solutions: 3 },
    },
  });
  it('is accepted when whole, and refused naming what is wrong otherwise', () => {
    expect(validSavedSearch(good())).toBe('');
    const cases = [
      [(r) => { r.version = 99; }, /another format/],
      [(r) => { r.text = ''; }, /text is missing/],
      [(r) => { r.puzzleIndex = -1; }, /puzzle number/],
      [(r) => { r.checkpoint.fingerprint = 'zz'; }, /no fingerprint/],
      [(r) => { r.checkpoint.pending = []; }, /nothing left/],
      [(r) => { r.checkpoint.pending[0].path = [1.5]; }, /piece 1 of the checkpoint is malformed/],
      [(r) => { r.checkpoint.pending[0].share = 2; }, /piece 1/],
      [(r) => { r.checkpoint.doneShare = NaN; }, /share done/],
      [(r) => { r.checkpoint.grids = [0, 1]; }, /kept solutions are malformed/],
      [(r) => { r.checkpoint.grids = Uint8Array.of(0, 1, 1); }, /kept solutions are malformed/],
      [(r) => { r.checkpoint.solutions = 1; }, /more solutions are kept than were counted/],
      [(r) => { r.checkpoint.stats = null; }, /statistics are missing/],
      // what the page never writes: a count past what a number holds exactly, fields of another version
      [(r) => { r.checkpoint.solutions = 2 ** 60; }, /solution count is not a whole number/],
      [(r) => { r.checkpoint.solutions = '3'; }, /solution count is not a whole number/],
      [(r) => { r.savedAt = 'NaN'; }, /date or time searched is not a number/],
      [(r) => { r.later = 1; }, /fields the page does not write \("later"\)/],
      [(r) => { r.checkpoint.extra = {}; }, /checkpoint has fields the page does not write \("extra"\)/],
      [(r) => { r.checkpoint = [1, 2]; }, /checkpoint is missing/],
    ];
    for (const [spoil, message] of cases) {
      const r = good();
      spoil(r);
      expect(validSavedSearch(r)).toMatch(message);
    }
    expect(validSavedSearch(null)).toBe('not a saved search');
    expect(validSavedSearch('x')).toBe('not a saved search');
    expect(validSavedSearch(Uint8Array.of(1, 2, 3))).toBe('not a saved search');
    expect(validSavedSearch([good()])).toBe('not a saved search');
  });
});

describe('pool pieces and statistics', () => {
  it('adds statistics level by level and takes differences', () => {
    const a = { solutions: 2, attempts: 10, attemptsByRemaining: [0, 4, 6] };
    const b = { solutions: 1, attempts: 3, attemptsByRemaining: [0, 1] };
    expect(addStats(addStats({}, a), b)).toEqual({ solutions: 3, attempts: 13, attemptsByRemaining: [0, 5, 6] });
    expect(statsBetween(a, b)).toEqual({ solutions: 1, attempts: 7, attemptsByRemaining: [0, 3, 6] });
  });

  it('keeps in a checkpoint only pieces whose whole ancestry finished', () => {
    const book = new PieceBook({ cellCount: 2 });
    const root = book.add([], 1, null);
    expect(book.next()).toBe(root);
    book.start(root);
    book.record(root, Int32Array.of(0, 1), 1);
    const a = book.add([5], 0.25, root);
    const b = book.add([6], 0.5, root);
    expect(book.next()).toBe(b); // biggest first
    book.start(b);
    book.record(b, Int32Array.of(1, 0), 1);
    book.finish(b, 1, { solutions: 1 });
    // the root still runs: searched again it would find b's solution again, so only root is pending
    let ck = book.checkpoint();
    expect(ck.pending).toEqual([{ path: [], share: 1 }]);
    expect(ck.solutions).toBe(0);
    book.finish(root, 0.25, { solutions: 1 });
    ck = book.checkpoint();
    expect(ck.pending).toEqual([{ path: [5], share: 0.25 }]);
    expect(ck.solutions).toBe(2);
    expect(Array.from(ck.grids)).toEqual([0, 1, 1, 0]);
    expect(ck.doneShare).toBeCloseTo(0.75, 12);
    expect(ck.stats.solutions).toBe(2);
    expect(book.next()).toBe(a);
  });

  it('folds a piece into the totals once it and its ancestry finished; a checkpoint looks at the others only', () => {
    const book = new PieceBook({ cellCount: 1 });
    const root = book.add([], 1, null);
    book.next();
    book.start(root);
    book.record(root, Int32Array.of(1), 1);
    // the root is drained: it gives two levels away and ends, which confirms it at once
    const a = book.add([1], 0.5, root);
    const b = book.add([2, 3], 0.25, root);
    book.finish(root, 0.25, { solutions: 1 });
    expect(book.pieces.has(root.id)).toBe(false);
    // b (taken first: newest first) is drained in turn; its child ends before b does
    expect(book.next()).toBe(b);
    book.start(b);
    const c = book.add([2, 3, 4], 0.125, b);
    expect(book.next()).toBe(c);
    book.start(c);
    book.record(c, Int32Array.of(2), 1);
    book.finish(c, 1, { solutions: 1 });
    let ck = book.checkpoint();
    // c waits for b (searched again, b would find c's solutions again)
    expect(ck.solutions).toBe(1);
    expect(ck.pending.map((p) => p.path)).toEqual([[1], [2, 3]]);
    expect(book.pieces.has(c.id)).toBe(true);
    book.record(b, Int32Array.of(3), 1);
    book.finish(b, 0.5, { solutions: 1 });
    // b's end confirms it and c: both folded
    expect([...book.pieces.keys()]).toEqual([a.id]);
    ck = book.checkpoint();
    expect(ck.solutions).toBe(3);
    expect(Array.from(ck.grids).sort()).toEqual([1, 2, 3]);
    expect(ck.stats.solutions).toBe(3);
    expect(ck.pending).toEqual([{ path: [1], share: 0.5 }]);
    expect(ck.doneShare).toBeCloseTo(0.25 + 0.125 + 0.125, 12);
    expect(book.fractionDone()).toBeCloseTo(0.5, 12);
    expect(book.made).toBe(4);
  });
});
