// The worker protocol (web/src/worker/protocol.js) and SolverClient (web/src/solver-client.js)
// end to end in Node: the real wasm module behind createSolverHost, a fake worker in between
// that structured-clones every message (transferring the listed buffers) like postMessage.
import { describe, expect, it, vi } from 'vitest';
import { FLUSH_INTERVAL_MS, FLUSH_MAX_SOLUTIONS, PROGRESS_INTERVAL_MS, TRACE_OP } from '../../web/src/worker/protocol.js';
import { HARD_CANCEL_MS, SolverClient } from '../../web/src/solver-client.js';
import { STEP, hostSearchingPiece, makeChecker, makeFakeWorker, makeHost, openDef, readDef, until } from './helpers.js';

describe('worker protocol', () => {
  it('announces ready with the engine version', async () => {
    const { next } = makeHost();
    const ready = await next((m) => m.type === 'ready');
    expect(ready.version).toMatch(/\d+\.\d+/);
  });

  it('reports a module that fails to load, and answers requests with that error', async () => {
    const { host, next } = makeHost(() => Promise.reject(new Error('no wasm here')));
    const err = await next((m) => m.type === 'error' && m.id === null);
    expect(err.message).toContain('no wasm here');
    host.handleMessage({ type: 'load', id: 7, text: '', source: 'x' });
    const reply = await next((m) => m.id === 7);
    expect(reply.type).toBe('error');
  });

  it('loads puzzles, and reports definition errors with their line', async () => {
    const { host, next } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('pentominoes_10x6.txt'), source: 'pentominoes_10x6.txt' });
    const loaded = await next((m) => m.id === 1);
    expect(loaded.type).toBe('loaded');
    expect(loaded.puzzles).toHaveLength(1);
    expect(loaded.puzzles[0].xDim).toBe(10);

    host.handleMessage({ type: 'load', id: 2, text: 'D:xDim=2:yDim=1:zDim=1\n\nC:name=A:layout=0 0\n~D\n', source: 'bad.txt' });
    const err = await next((m) => m.id === 2);
    expect(err.type).toBe('error');
    expect(err.code).toBe('bad-definition'); // the engine's error value, passed on whole
    expect(err.message).toContain('bad.txt:3:');
  });

  it('prepares, searches pieces and donates for the worker pool; refuses what is out of order', async () => {
    const { host, messages, next } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('pentominoes_10x6.txt'), source: 'p.txt' });
    await next((m) => m.id === 1);
    host.handleMessage({ type: 'subproblem', id: 2, path: [] });
    expect((await next((m) => m.id === 2)).message).toMatch(/no prepared search/);
    host.handleMessage({ type: 'prepare', id: 3, puzzle: 0, options: '-r' });
    // (a prepare that takes a while may report progress first: on a loaded machine it did)
    const prepared = await next((m) => m.id === 3 && m.type !== 'progress');
    expect(prepared).toMatchObject({ type: 'prepared', splitRefusal: '', cellCount: 60 });
    expect(prepared.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    for (const [id, path] of [[4, 'x'], [5, [1.5]], [6, [-1]], [7, new Array(5000).fill(0)]]) {
      host.handleMessage({ type: 'subproblem', id, path });
      expect((await next((m) => m.id === id)).message).toMatch(/path must be a list of at most 4096 image numbers/);
    }
    // A small fixed budget per slice: the piece cannot end in the slice that first opens its
    // levels (it had, now and then on a loaded machine, before the drain was answered).
    host.handleMessage({ type: 'subproblem', id: 8, path: [], stepBudget: 2000 });
    host.handleMessage({ type: 'donate', id: 14, search: 8, drain: 0 }); // (once a slice has opened levels)
    // every open level comes as 8's own batches, then the answer (how many levels were open
    // depends on where the slices ended: the paths are taken from all of them)
    await next((m) => m.id === 14);
    const batches = messages.filter((m) => m.id === 8 && m.type === 'donated');
    expect(batches.length).toBeGreaterThan(0);
    for (const b of batches) expect(b.share).toBeGreaterThan(0);
    const given = batches.flatMap((b) => b.paths);
    expect(given.length).toBeGreaterThan(1);
    // sent while 8 runs: it waits, and starts when 8 finishes
    host.handleMessage({ type: 'subproblem', id: 9, path: given[0] });
    host.handleMessage({ type: 'subproblem', id: 20, path: given[1] });
    host.handleMessage({ type: 'cancel', id: 20 }); // a waiting one ends at once
    expect(await next((m) => m.id === 20)).toMatchObject({ type: 'done', reason: 'cancelled' });
    const done = await next((m) => m.id === 8 && m.type === 'done');
    expect(done.reason).toBe('finished');
    expect(done.stats.solutions).toBeLessThan(2339); // what was given away is not searched here
    const nine = await next((m) => m.id === 9 && m.type === 'done');
    expect(nine.reason).toBe('finished');
    expect(nine.stats.solutions).toBeGreaterThan(done.stats.solutions); // the worker's totals go on
    host.handleMessage({ type: 'solve', id: 21, puzzle: 0, options: '-r' }); // not a piece: refused while it runs
    host.handleMessage({ type: 'subproblem', id: 22, path: [] });
    expect((await next((m) => m.id === 22)).message).toMatch(/a search is running|no prepared search/);
    host.handleMessage({ type: 'cancel', id: 21 });
    await next((m) => m.id === 21 && m.type === 'done');
    host.handleMessage({ type: 'prepare', id: 23, puzzle: 0, options: '-r' });
    await next((m) => m.id === 23 && m.type !== 'progress'); // (a prepare may say its progress first)
    // a piece whose running predecessor is cancelled ends cancelled too
    host.handleMessage({ type: 'subproblem', id: 24, path: [] });
    host.handleMessage({ type: 'subproblem', id: 25, path: [] });
    host.handleMessage({ type: 'cancel', id: 24 });
    expect(await next((m) => m.id === 25)).toMatchObject({ type: 'done', reason: 'cancelled' });
    host.handleMessage({ type: 'donate', id: 10, search: 8 });
    expect(await next((m) => m.id === 10)).toMatchObject({ type: 'donated', paths: [], share: 0 });
    host.handleMessage({ type: 'prepare', id: 11, puzzle: 0, options: '-r' });
    await next((m) => m.id === 11 && m.type !== 'progress');
    host.handleMessage({ type: 'prepare', id: 12, puzzle: 0, options: '-t 1' });
    expect((await next((m) => m.id === 12 && m.type !== 'progress')).splitRefusal).toMatch(/-t/);
    host.handleMessage({ type: 'subproblem', id: 13, path: [] });
    expect((await next((m) => m.id === 13)).message).toMatch(/cannot be split/);
  });

  it('checks a kept checkpoint against the prepared search (the engine\'s checks), only between searches', async () => {
    const { host, next } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('pentominoes_10x6.txt'), source: 'p.txt' });
    await next((m) => m.id === 1);
    host.handleMessage({ type: 'checkResume', id: 2, checkpoint: {} });
    expect((await next((m) => m.id === 2)).message).toMatch(/prepare the search first/);
    host.handleMessage({ type: 'prepare', id: 3, puzzle: 0, options: '-r' });
    const { fingerprint } = await next((m) => m.id === 3 && m.type !== 'progress');
    const whole = { fingerprint, doneShare: 0, solutions: 0, stats: {}, pending: [{ path: [], share: 1 }] };
    host.handleMessage({ type: 'checkResume', id: 4, checkpoint: whole });
    expect(await next((m) => m.id === 4)).toMatchObject({ type: 'checked', problem: '', code: '' });
    host.handleMessage({ type: 'checkResume', id: 5, checkpoint: { ...whole, pending: [whole.pending[0], whole.pending[0]] } });
    expect(await next((m) => m.id === 5)).toMatchObject({ problem: expect.stringMatching(/^the kept search: piece 2 is the same as piece 1/), code: 'not-resumable' });
    host.handleMessage({ type: 'checkResume', id: 7, checkpoint: { ...whole, fingerprint: '0123456789abcdef' } });
    expect(await next((m) => m.id === 7)).toMatchObject({ problem: expect.stringMatching(/a checkpoint of another search/), code: 'other-search' });
    host.handleMessage({ type: 'checkResume', id: 6, checkpoint: 'garbage' });
    expect((await next((m) => m.id === 6)).problem).toMatch(/^the kept search: not a checkpoint/);
  });

  it('answers a donation asked before a piece\'s first slice after it, with at most max paths', async () => {
    const { host, next } = await hostSearchingPiece();
    // nothing is open before the piece's first slice: the answer waits for it
    host.handleMessage({ type: 'donate', id: 9, search: 3, max: 2 });
    const early = await next((m) => m.id === 9);
    expect(early.type).toBe('donated');
    expect(early.paths).toHaveLength(2);
    expect(early.share).toBeGreaterThan(0);
    host.handleMessage({ type: 'donate', id: 7, search: 3, max: 1 });
    expect((await next((m) => m.id === 7)).paths).toHaveLength(1);
    const done = await next((m) => m.id === 3 && m.type === 'done');
    expect(done.reason).toBe('finished');
    expect(done.stats.solutions).toBeLessThan(2339); // what was given away is not searched here
    // a piece that already ended has nothing to give: the answer says so
    host.handleMessage({ type: 'donate', id: 8, search: 3 });
    expect(await next((m) => m.id === 8)).toMatchObject({ type: 'donated', paths: [], share: 0 });
  });

  it('checks a draft for the editor without touching the loaded puzzle or a running search', async () => {
    const { host, next } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('pentominoes_10x6.txt'), source: 'pentominoes_10x6.txt' });
    await next((m) => m.id === 1);
    host.handleMessage({ type: 'solve', id: 2, puzzle: 0, options: '-r' });
    // a 3x2 board with one straight tromino: a search would refuse it (3 of 6 cells covered)
    host.handleMessage({ type: 'draft', id: 3, text: 'D:xDim=3:yDim=2:zDim=1\nC:name=I:layout=0 0 0, 1 0 0, 2 0 0\n~D\n', source: 'mine.txt' });
    const drafted = await next((m) => m.id === 3);
    expect(drafted.type).toBe('drafted');
    expect(drafted.result.ok).toBe(true);
    expect(drafted.result.puzzles[0].checks).toMatchObject({ freeCells: 6, pieceCells: 3, images: [2], parity: '' });
    host.handleMessage({ type: 'draft', id: 4, text: 'D:xDim=3:yDim=2\n~D\n', source: 'mine.txt' });
    const bad = await next((m) => m.id === 4);
    expect(bad.result.ok).toBe(false);
    expect(bad.result.error).toMatch(/^mine\.txt:1:/);
    const done = await next((m) => m.id === 2 && m.type === 'done');
    expect(done.reason).toBe('finished');
    expect(done.stats.solutions).toBe(2339); // the search went on undisturbed
  });

  it('delivers every trace event, however many a slice makes (bug: the transfer emptied the chunk and the rest waited)', async () => {
    // the engine's own trace of this search, drained in one thread
    const { session } = await openDef('pentominoes_10x6.txt');
    expect(session.start(0, '-b 12 -l 20 -t 1').ok).toBe(true);
    let want = 0;
    while (session.step(1e6).state === STEP.RUNNING);
    for (let e = session.takeTrace(1 << 20); e.length > 0; e = session.takeTrace(1 << 20)) want += e.length / 4;
    session.delete();
    expect(want).toBeGreaterThan(3 * 65536); // several full chunks per slice
    const { host, messages, next } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('pentominoes_10x6.txt'), source: 'p.txt' });
    await next((m) => m.id === 1);
    host.handleMessage({ type: 'solve', id: 2, puzzle: 0, options: '-b 12 -l 20 -t 1' });
    const done = await next((m) => m.id === 2 && (m.type === 'done' || m.type === 'error'));
    expect(done.type).toBe('done');
    let got = 0, solutions = 0;
    for (const m of messages) {
      if (m.type !== 'trace' || m.id !== 2) continue;
      got += m.events.length / 4;
      for (let i = 0; i < m.events.length; i += 4) if (m.events[i] === TRACE_OP.SOLUTION) solutions++;
    }
    expect(got).toBe(want);
    expect(solutions).toBe(20);
  });

  it('ends a traced search at its traceLimit: exactly that many events, the solutions among them, reason window', async () => {
    const { host, messages, next } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('pentominoes_10x6.txt'), source: 'p.txt' });
    await next((m) => m.id === 1);
    const window = 200000;
    const runs = [];
    for (const id of [2, 3]) {
      host.handleMessage({ type: 'solve', id, puzzle: 0, options: '-r -t 1', traceLimit: window });
      const done = await next((m) => m.id === id && (m.type === 'done' || m.type === 'error'));
      expect(done.type).toBe('done');
      expect(done.reason).toBe('window');
      let events = 0, inWindow = 0, solutions = 0;
      for (const m of messages) {
        if (m.id !== id) continue;
        if (m.type === 'solutions') solutions += m.count;
        if (m.type !== 'trace') continue;
        events += m.events.length / 4;
        for (let i = 0; i < m.events.length; i += 4) if (m.events[i] === TRACE_OP.SOLUTION && m.events[i + 2] > 0) inWindow++;
      }
      expect(events).toBe(window);
      expect(inWindow).toBeGreaterThan(0);
      expect(solutions).toBe(inWindow); // (the 10x6 has 2,339: the rest is beyond the window)
      expect(done.stats.solutions).toBe(inWindow);
      runs.push({ inWindow, attempts: done.stats.attempts });
    }
    expect(runs[1]).toEqual(runs[0]); // the same window every time
    for (const bad of [0, -3, 1.5, '100', NaN]) {
      host.handleMessage({ type: 'solve', id: 9, puzzle: 0, options: '-r -t 1', traceLimit: bad });
      const m = await next((x) => x.id === 9);
      expect(m.type).toBe('error');
      expect(m.message).toMatch(/^traceLimit must be a whole number of at least 1/);
      messages.length = 0;
    }
  });

  it('answers the image table asked right after solve once the setup is over (bug: an empty table, so the replay drew nothing)', async () => {
    const { session } = await openDef('pentominoes_10x6.txt');
    expect(session.start(0, '-b 12 -l 5 -t 1').ok).toBe(true);
    while (session.step(1e6).state === STEP.RUNNING);
    let images = 0;
    while (session.imageCells(images).ok) images++;
    session.delete();
    expect(images).toBeGreaterThan(1000);
    const { host, next } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('pentominoes_10x6.txt'), source: 'p.txt' });
    await next((m) => m.id === 1);
    host.handleMessage({ type: 'solve', id: 2, puzzle: 0, options: '-b 12 -l 5 -t 1' });
    host.handleMessage({ type: 'imageTable', id: 3 }); // before any slice has run
    const table = await next((m) => m.id === 3);
    expect(table.type).toBe('imageTable');
    expect(table.offsets.length - 1).toBe(images);
    expect(table.imageShapes.length).toBe(images);
    expect(table.instanceShapes.length).toBe(12);
    // a search that ends before its setup is over refuses the request instead of hanging
    host.handleMessage({ type: 'solve', id: 4, puzzle: 0, options: '-r' });
    host.handleMessage({ type: 'imageTable', id: 5 });
    host.handleMessage({ type: 'cancel', id: 4 });
    const refused = await next((m) => m.id === 5);
    expect(refused.type === 'error' ? refused.message : 'answered').toMatch(/setup was complete|answered/);
  });

  it('streams batched, valid solutions of the 10x6 pentomino puzzle and finishes', async () => {
    const { host, messages, next } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('pentominoes_10x6.txt'), source: 'p.txt' });
    const { puzzles } = await next((m) => m.id === 1);
    const t0 = performance.now();
    host.handleMessage({ type: 'solve', id: 2, puzzle: 0, options: '-r' });
    const done = await next((m) => m.id === 2 && (m.type === 'done' || m.type === 'error'));
    const elapsed = performance.now() - t0;
    expect(done.type).toBe('done');
    expect(done.reason).toBe('finished');
    expect(done.stats.solutions).toBe(2339);

    const mine = messages.filter((m) => m.id === 2);
    expect(mine[mine.length - 1]).toBe(done); // nothing after done
    const batches = mine.filter((m) => m.type === 'solutions');
    const check = makeChecker(puzzles[0]);
    let total = 0;
    for (const b of batches) {
      expect(b.grids).toBeInstanceOf(Int32Array);
      expect(b.cellCount).toBe(60);
      expect(b.grids.length).toBe(b.count * b.cellCount);
      for (let k = 0; k < b.count; k++) expect(check(b.grids.subarray(k * 60, (k + 1) * 60))).toBeNull();
      total += b.count;
    }
    expect(total).toBe(2339);
    // batched, not one message per solution: by count (FLUSH_MAX_SOLUTIONS) or by time (FLUSH_INTERVAL_MS)
    expect(batches.length).toBeLessThanOrEqual(Math.ceil(2339 / FLUSH_MAX_SOLUTIONS) + elapsed / FLUSH_INTERVAL_MS + 2);
    const progress = mine.filter((m) => m.type === 'progress');
    expect(progress.length).toBeLessThanOrEqual(elapsed / PROGRESS_INTERVAL_MS + 2);
    for (const p of progress) expect(p.stats).toHaveProperty('attempts');
  });

  it('forwards an impossibility proof with its certificate (issue 12): done at once, 0 solutions', async () => {
    const { host, messages, next } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('impossible/two_t_tetrominoes.txt'), source: 't.txt' });
    await next((m) => m.id === 1);
    host.handleMessage({ type: 'solve', id: 2, puzzle: 0, options: '-r' });
    const done = await next((m) => m.id === 2 && (m.type === 'done' || m.type === 'error'));
    expect(done.type).toBe('done');
    expect(done.reason).toBe('finished');
    expect(done.stats.solutions).toBe(0);
    expect(done.stats.attempts).toBe(0);
    expect(done.stats.impossibleBy).toBe('corner cells');
    expect(done.stats.impossible).toMatch(/^impossible by corner cells: the board has 5 corner cells .* at most 4 of them between them/);
    expect(messages.filter((m) => m.id === 2 && m.type === 'solutions')).toHaveLength(0);
  });

  it('stops at maxSolutions with reason limit', async () => {
    const { host, messages, next } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('pentominoes_10x6.txt'), source: 'p.txt' });
    await next((m) => m.id === 1);
    host.handleMessage({ type: 'solve', id: 2, puzzle: 0, options: '', maxSolutions: 10 });
    const done = await next((m) => m.id === 2 && m.type === 'done');
    expect(done.reason).toBe('limit');
    const total = messages.filter((m) => m.id === 2 && m.type === 'solutions').reduce((n, m) => n + m.count, 0);
    expect(total).toBe(10);
  });

  it('cancels a long search at once and sends nothing after done', async () => {
    const { host, messages, next, idle, slices } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('tetriscube.txt'), source: 'tetriscube.txt' });
    await next((m) => m.id === 1);
    host.handleMessage({ type: 'solve', id: 2, puzzle: 0, options: '' });
    await next((m) => m.id === 2 && m.type === 'progress'); // running for a while
    const before = slices();
    host.handleMessage({ type: 'cancel', id: 2 });
    const done = await next((m) => m.id === 2 && m.type === 'done');
    expect(done.reason).toBe('cancelled');
    expect(done.afterSlices).toBe(before); // answered at once, not after another slice
    const count = messages.length;
    await idle(); // the slice queued before the cancel ran, and did nothing
    expect(messages.length).toBe(count);
    // a cancel for a search that already ended is ignored
    host.handleMessage({ type: 'cancel', id: 2 });
    await idle();
    expect(messages.length).toBe(count);
  });

  it('yields between slices: a message queued behind a running search is handled after one slice', async () => {
    const { host, next, slices } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('tetriscube.txt'), source: 'tetriscube.txt' });
    await next((m) => m.id === 1);
    host.handleMessage({ type: 'solve', id: 2, puzzle: 0, options: '' });
    await next((m) => m.id === 2 && m.type === 'progress'); // its budget adapted for a while
    // delivered as a worker gets it: a task queued after the slice under way
    const before = slices();
    setImmediate(() => host.handleMessage({ type: 'load', id: 3, text: readDef('soma.txt'), source: 'soma.txt' }));
    const done = await next((m) => m.id === 2 && m.type === 'done');
    expect(done.reason).toBe('cancelled'); // a load ends the running search
    const loaded = await next((m) => m.id === 3);
    expect(loaded.type).toBe('loaded');
    expect(loaded.afterSlices - before).toBeLessThanOrEqual(1);
  });

  it('reports bad options and unknown messages as errors', async () => {
    const { host, next } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('soma.txt'), source: 'soma.txt' });
    await next((m) => m.id === 1);
    host.handleMessage({ type: 'solve', id: 2, puzzle: 0, options: '--no-such-option' });
    expect(await next((m) => m.id === 2)).toMatchObject({ type: 'error', code: 'bad-options' });
    host.handleMessage({ type: 'solve', id: 3, puzzle: 9, options: '-r' });
    expect(await next((m) => m.id === 3)).toMatchObject({ type: 'error', code: 'bad-argument', message: 'no puzzle number 9 (1 loaded)' });
    host.handleMessage({ type: 'frobnicate', id: 4 });
    const unknown = await next((m) => m.id === 4);
    expect(unknown.type).toBe('error');
    expect(unknown.message).toContain('frobnicate');
  });
});

describe('SolverClient', () => {
  it('loads, solves with callbacks, and cancels', async () => {
    const client = new SolverClient(makeFakeWorker());
    const { version } = await client.ready;
    expect(version).toMatch(/\d+\.\d+/);

    const puzzles = await client.load(readDef('soma.txt'), 'soma.txt');
    expect(puzzles[0].zDim).toBe(3);
    let count = 0;
    let progress = 0;
    const { id, done } = client.solve(0, '-r', {
      onSolutions: ({ count: n, grids, cellCount }) => {
        expect(grids.length).toBe(n * cellCount);
        count += n;
      },
      onProgress: () => progress++,
    });
    expect(typeof id).toBe('number');
    const result = await done;
    expect(result.reason).toBe('finished');
    expect(count).toBe(480);
    expect(result.stats.solutions).toBe(480);

    await client.load(readDef('tetriscube.txt'), 'tetriscube.txt');
    let cancelled = false;
    const long = client.solve(0, '', { onSolutions: () => { if (!cancelled) client.cancel(long.id); cancelled = true; } });
    expect((await long.done).reason).toBe('cancelled');
    client.terminate();
  });

  it('replaces a worker that does not answer a cancel within HARD_CANCEL_MS, and loads the definitions again', async () => {
    // The clock of the hard cancel is the test's (the fake workers' slices run on real
    // setImmediate): it is stopped outright exactly when HARD_CANCEL_MS has passed, whatever
    // the machine's load.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // The first worker drops cancels, as one busy with a 100 ms placement would not read them.
      const made = [];
      const factory = () => {
        const worker = makeFakeWorker();
        const post = worker.postMessage;
        const sent = [];
        worker.postMessage = (msg) => {
          sent.push(msg);
          if (made.length === 1 && msg.type === 'cancel') return;
          post(msg);
        };
        worker.terminate = () => {
          worker.terminated = true;
          post({ type: 'cancel', id: sent.find((m) => m.type === 'solve').id }); // stop its CPU
        };
        worker.sent = sent;
        made.push(worker);
        return worker;
      };
      const client = new SolverClient(factory);
      await client.ready;
      await client.load(readDef('tetriscube.txt'), 'tetriscube.txt');
      let progress = 0;
      let found = 0;
      const long = client.solve(0, '', { onProgress: () => progress++, onSolutions: ({ count }) => { found += count; } });
      await until(() => found > 0); // running
      client.cancel(long.id);
      let result = null;
      long.done.then((r) => { result = r; });
      await vi.advanceTimersByTimeAsync(HARD_CANCEL_MS - 1);
      expect(result).toBe(null); // still waiting for the worker
      await vi.advanceTimersByTimeAsync(1);
      await until(() => result !== null);
      expect(result.reason).toBe('cancelled');
      expect(result.stats.stoppedOutright).toBe(true);
      if (progress > 0) expect(result.stats.phase).toBeTruthy(); // the last progress statistics
      expect(made.length).toBe(2);
      expect(made[0].terminated).toBe(true);
      expect(made[1].sent[0]).toMatchObject({ type: 'load', source: 'tetriscube.txt' });
      // The new worker searches the same puzzle (index 0 of the definitions loaded again).
      let delivered = 0;
      const again = client.solve(0, '-r L', { maxSolutions: 1, onSolutions: ({ count }) => { delivered += count; } });
      const r2 = await again.done;
      expect(r2.reason).toBe('limit');
      expect(delivered).toBe(1);
      // A worker that answers (before the hard cancel's time) is kept.
      let quickFound = 0;
      const quick = client.solve(0, '-r L', { onSolutions: ({ count }) => { quickFound += count; } });
      await until(() => quickFound > 0);
      client.cancel(quick.id);
      expect((await quick.done).stats.stoppedOutright).toBeUndefined();
      await vi.advanceTimersByTimeAsync(HARD_CANCEL_MS * 10);
      expect(made.length).toBe(2);
      client.terminate();
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejects with the engine message', async () => {
    const client = new SolverClient(makeFakeWorker());
    await client.ready;
    await expect(client.load('D:xDim=1:yDim=1:zDim=1\n\nC:name=A:layout=0 0\n~D\n', 'oops.txt')).rejects.toThrow(/oops\.txt:3:/);
    await client.load(readDef('soma.txt'), 'soma.txt');
    await expect(client.solve(0, '--bogus').done).rejects.toMatchObject({ code: 'bad-options', message: expect.stringContaining('--bogus') });
    expect(client.failure).toBe(''); // a refused request leaves the worker usable
    client.terminate();
  });

  it('rejects ready and requests when the module cannot load', async () => {
    const client = new SolverClient(makeFakeWorker(() => Promise.reject(new Error('missing module'))));
    await expect(client.ready).rejects.toThrow(/missing module/);
    await expect(client.load('x', 'y')).rejects.toThrow(/missing module/);
    expect(client.failure).toMatch(/missing module/); // failed for good: the app makes a new client
  });
});
