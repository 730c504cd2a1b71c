// The WebAssembly build (web/wasm/) in Node: counts against the native CLI and the known
// values, error messages, cancellation, and an independent check of every solution grid.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, DEF_DIR, STEP, loadModule, makeChecker, openDef, readDef, runToEnd } from './helpers.js';
import { TRACE_OP } from '../../web/src/worker/protocol.js';

const PENTO = 'pentominoes_10x6.txt';

describe('wasm module', () => {
  let module;
  beforeAll(async () => {
    module = await loadModule();
  });

  it('reports its version and the StepState constants', () => {
    expect(module.Session.version()).toMatch(/\d+\.\d+/);
    expect([module.RUNNING, module.DONE, module.CANCELLED, module.FAILED, module.IDLE]).toEqual([0, 1, 2, 3, 4]);
    const s = new module.Session();
    expect(s.state()).toBe(STEP.IDLE);
    s.delete();
  });

  it('describes the 10x6 pentomino puzzle', async () => {
    const { session, puzzles } = await openDef(PENTO);
    expect(puzzles).toHaveLength(1);
    const p = puzzles[0];
    expect([p.xDim, p.yDim, p.zDim]).toEqual([10, 6, 1]);
    expect(p.pieces).toHaveLength(12);
    expect(p.instances).toHaveLength(12);
    expect(p.source).toBe(PENTO);
    for (const piece of p.pieces) expect(piece.cells).toHaveLength(5);
    session.delete();
  });
});

describe('pentominoes 10x6', () => {
  let session;
  let puzzle;
  beforeAll(async () => {
    ({ session, puzzles: [puzzle] } = await openDef(PENTO));
  });
  afterAll(() => session?.delete());

  it('finds 2339 solutions with -r, the same count as the native CLI, and every grid is a valid tiling', () => {
    const check = makeChecker(puzzle);
    const seen = new Set();
    let bad = null;
    const r = runToEnd(session, 0, '-r', {
      budget: 20000, // many slices: exercises resuming the search
      onGrids(grids, count) {
        const n = grids.length / count;
        for (let k = 0; k < count; k++) {
          const grid = grids.subarray(k * n, (k + 1) * n);
          const err = check(grid);
          if (err && !bad) bad = err;
          seen.add(grid.join(','));
        }
      },
    });
    expect(bad).toBeNull();
    expect(r.state).toBe(STEP.DONE);
    expect(r.solutions).toBe(2339);
    expect(seen.size).toBe(2339); // no solution reported twice
    expect(r.slices).toBeGreaterThan(1);
    expect(r.stats.solutions).toBe(2339);
    expect(session.state()).toBe(STEP.DONE);

    expect(existsSync(CLI), `${CLI} missing: run bash scripts/build.sh`).toBe(true);
    const out = execFileSync(CLI, ['-q', '-r', '--json', `${DEF_DIR}/${PENTO}`], { encoding: 'utf8' });
    const cli = out
      .split('\n')
      .filter((line) => line.trim().startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(cli).toHaveLength(1);
    expect(cli[0].solutions).toBe(r.solutions);
  });

  it('finds 9356 solutions without -r, all valid', () => {
    const check = makeChecker(puzzle);
    let bad = null;
    const r = runToEnd(session, 0, '', {
      onGrids(grids, count) {
        const n = grids.length / count;
        for (let k = 0; k < count && !bad; k++) bad = check(grids.subarray(k * n, (k + 1) * n));
      },
    });
    expect(bad).toBeNull();
    expect(r.state).toBe(STEP.DONE);
    expect(r.solutions).toBe(9356);
  });

  it('counts a piece in parts right, and the editor\'s checks call no such puzzle impossible', async () => {
    // (the volume and pocket arguments must not assume whole pieces: "impossible" for this one)
    const text = 'D:xDim=3:yDim=1:zDim=1\nC:name=A:layout=0 0 0, 2 0 0\nC:name=B:layout=0 0 0\n~D\n';
    const module = await loadModule();
    const session = new module.Session();
    expect(session.load(text, 'parts.txt')).toEqual({ ok: true, puzzles: 1 });
    expect(runToEnd(session, 0, '').solutions).toBe(1);
    expect(runToEnd(session, 0, '-V').solutions).toBe(1);
    const draft = JSON.parse(module.Session.draftJson(text, 'parts.txt'));
    expect(draft.puzzles[0].checks.impossible).toBe('');
    session.delete();
  });

  it('returns solution grids as fresh, transferable Int32Arrays', () => {
    expect(session.start(0, '-r').ok).toBe(true);
    while (session.pendingSolutions() === 0 && session.step(50000).state === STEP.RUNNING);
    const grids = session.takeSolutions(1);
    expect(grids).toBeInstanceOf(Int32Array);
    expect(grids.length).toBe(session.cellCount());
    expect(grids.buffer.byteLength).toBe(60 * 4); // its own buffer, not a view of wasm memory
    const copy = structuredClone(grids, { transfer: [grids.buffer] });
    expect(copy.length).toBe(60);
    session.cancel();
  });

  it('rejects bad option strings and puzzle indices with a message', () => {
    const badOptions = session.start(0, '--definitely-not-an-option');
    expect(badOptions.ok).toBe(false);
    expect(badOptions.error.code).toBe('bad-options');
    expect(badOptions.error.message).toContain('--definitely-not-an-option');
    expect(session.start(5, '-r')).toEqual({ ok: false, error: { code: 'bad-argument', message: 'no puzzle number 5 (1 loaded)' } });
  });
});

describe('errors', () => {
  it('names the source and the line of a malformed definition', async () => {
    const module = await loadModule();
    const s = new module.Session();
    const text = ['# bad piece', 'D:xDim=2:yDim=1:zDim=1', 'C:name=A:layout=0 0', '~D', ''].join('\n');
    const loaded = s.load(text, 'bad.txt');
    expect(loaded.ok).toBe(false);
    expect(loaded.error.code).toBe('bad-definition');
    expect(loaded.error.message).toContain('bad.txt:3:');
    expect(s.puzzleCount()).toBe(0);
    s.delete();
  });

  it('survives garbage input', async () => {
    const module = await loadModule();
    const s = new module.Session();
    const loaded = s.load('\u0000\u00ff garbage :::: D:xDim=-1', 'junk.txt');
    expect(loaded.ok).toBe(false);
    expect(loaded.error.message).toMatch(/junk\.txt:\d+:/);
    expect(s.load('', 'empty.txt').ok).toBe(false);
    s.delete();
  });
});

describe('cancel', () => {
  it('stops a long search: the next step returns CANCELLED and no more solutions arrive', async () => {
    const { session } = await openDef('tetriscube.txt');
    expect(session.start(0, '').ok).toBe(true);
    for (let i = 0; i < 5; i++) expect(session.step(20000).state).toBe(STEP.RUNNING);
    session.takeSolutions(1 << 20); // whatever was found before the cancel
    session.cancel();
    expect(session.step(20000).state).toBe(STEP.CANCELLED);
    expect(session.state()).toBe(STEP.CANCELLED);
    expect(session.pendingSolutions()).toBe(0);
    expect(session.step(1e6).state).toBe(STEP.CANCELLED);
    expect(session.takeSolutions(100).length).toBe(0);
    // the session is reusable after a cancel
    expect(session.start(0, '-r').ok).toBe(true);
    expect(session.step(1000).state).toBe(STEP.RUNNING);
    session.delete();
  });
});

describe('search trace', () => {
  it('reports balanced place/remove events at the DLX and FILA levels, same search as without -t', async () => {
    const { session, puzzles: [puzzle] } = await openDef('soma.txt');
    const plain = runToEnd(session, 0, '-r');
    expect(session.start(0, '-r -t 1').ok).toBe(true);
    const pieces = puzzle.instances.filter((inst) => !inst.stationary).length;
    const stack = [];
    let places = 0;
    let filaEvents = 0; // the automatic configuration hands Soma to FILA when 6 pieces remain
    let bad = null;
    const drainTrace = () => {
      for (;;) {
        const events = session.takeTrace(4096);
        for (let i = 0; i < events.length; i += 4) {
          const [op, remaining, instance, image] = events.subarray(i, i + 4);
          if (remaining <= 6) filaEvents++;
          if (op === TRACE_OP.PLACE) {
            places++;
            if (remaining !== pieces - stack.length && !bad) bad = `place ${i / 4}: remaining ${remaining}`;
            stack.push([remaining, instance, image].join());
          } else if (op === TRACE_OP.REMOVE && stack.pop() !== [remaining, instance, image].join() && !bad) {
            bad = `remove ${i / 4} does not match the last place`;
          }
        }
        if (events.length < 4096 * 4) break;
      }
    };
    let state;
    do {
      state = session.step(5000).state;
      drainTrace();
    } while (state === STEP.RUNNING);
    const stats = JSON.parse(session.statsJson());
    expect(bad).toBeNull();
    expect(state).toBe(STEP.DONE);
    expect(stack).toHaveLength(0);
    expect(filaEvents).toBeGreaterThan(0);
    expect(places).toBe(stats.fits);
    expect(stats.solutions).toBe(480);
    expect(stats.configuration).toBe(plain.stats.configuration);
    expect(stats.fitsByRemaining).toEqual(plain.stats.fitsByRemaining);
    session.delete();
  });
});

// Every checked Session call replies in one shape through the bindings: {ok:true, ...} or
// {ok:false, error:{code, message}} (engine/session/session.hpp's table; bindings/embind.cpp).
describe('one error shape', () => {
  const illegal = (reply, call, phase) => {
    expect(reply.ok, `${call} while ${phase}`).toBe(false);
    expect(reply.error.code, `${call} while ${phase}`).toBe('illegal-call');
    expect(reply.error.message).toContain(call);
    expect(reply.error.message).toContain(phase);
  };

  it('refuses calls the table does not allow in the phase, and answers the allowed ones ok', async () => {
    const module = await loadModule();
    const s = new module.Session();
    expect(s.phase()).toBe('empty');
    illegal(s.puzzle(0), 'puzzleJson', 'empty');
    illegal(s.start(0, '-r'), 'start', 'empty');
    illegal(s.step(1), 'step', 'empty');
    expect(s.step(1).state).toBe(STEP.IDLE);
    expect(s.load(readDef('soma.txt'), 'soma.txt')).toEqual({ ok: true, puzzles: 1 });
    illegal(s.setTraceLimit(10), 'setTraceLimit', 'loaded'); // start() would wipe the window
    illegal(s.splitRefusal(), 'splitRefusal', 'loaded');
    expect(s.start(0, '-r -t 1')).toEqual({ ok: true });
    expect(s.phase()).toBe('setting up');
    illegal(s.imageCells(0), 'imageCells', 'setting up');
    illegal(s.imageShapes(), 'imageShapes', 'setting up');
    illegal(s.fingerprint(), 'fingerprint', 'setting up');
    illegal(s.donate(0), 'donateJson', 'setting up');
    expect(s.setTraceLimit(10)).toEqual({ ok: true });
    expect(s.splitRefusal().ok).toBe(true);
    let reply;
    do reply = s.step(1e6); while (reply.state === STEP.RUNNING);
    expect(reply).toEqual({ ok: true, state: STEP.CANCELLED }); // the 10-event window filled
    expect(s.phase()).toBe('cancelled');
    const shapes = s.imageShapes();
    expect(shapes.ok).toBe(true);
    expect(shapes.shapes).toBeInstanceOf(Int32Array);
    expect(s.imageCells(0).cells.length).toBeGreaterThanOrEqual(3); // a Soma piece: 3 or 4 cubes
    const past = s.imageCells(shapes.shapes.length);
    expect(past.ok).toBe(false);
    expect(past.error.code).toBe('bad-argument');
    illegal(s.startSubproblem([]), 'startSubproblem', 'cancelled');
    s.delete();
  });

  it('gives a failed search as an error reply of step, again on every later step', async () => {
    const { session } = await openDef('soma.txt');
    expect(session.start(0, '-r')).toEqual({ ok: true });
    while (!session.ready()) session.step(1e6);
    expect(session.phase()).toBe('ready');
    expect(session.fingerprint().fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(session.startSubproblem([0, 0])).toEqual({ ok: true }); // no path of this tree
    let reply;
    do reply = session.step(1e6); while (reply.state === STEP.RUNNING);
    expect(reply.ok).toBe(false);
    expect(reply.state).toBe(STEP.FAILED);
    expect(reply.error.code).toBe('search-failed');
    expect(reply.error.message).toContain('not a path of this search');
    expect(session.step(1)).toEqual(reply);
    expect(session.checkResume('{}').error.code).toBe('not-resumable'); // legal: the setup had finished
    session.delete();
  });
});
