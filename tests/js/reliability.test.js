// The worker: every phase of a search (setup included) yields to the event loop between
// slices, so a cancel is honoured before the next one; bad stepBudget / maxSolutions values are
// refused; a trapped module is replaced by a fresh one and the page is told. The real
// WebAssembly module behind createSolverHost, as in the worker.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_BUDGET, MSG } from '../../web/src/worker/protocol.js';
import { WASM_BINARY, WASM_GLUE, makeHost, readDef } from './helpers.js';
import { WATCHDOG_CASES, cancelCase, hostile } from './watchdog.js';

let nextId = 1;

describe('worker watchdog: a cancel is honoured between slices, in every phase', () => {
  // How long the slices are (the 100 ms aim) is a measurement: bench/responsiveness.mjs times
  // each case's longest block of the event loop. Here what does not depend on the machine: the
  // work is split into slices (a phase that ran as one slice would have ended before the
  // cancel: another phase, or 'done'), and the cancel is answered before any further slice.
  for (const c of WATCHDOG_CASES) {
    it(`${c.name} (${c.options || 'default'})`, async () => {
      const { done, slicesBeforeCancel, slicesAfterCancel } = await cancelCase(c);
      expect(done.type).toBe(MSG.DONE);
      expect(done.reason).toBe('cancelled');
      expect(done.stats.phase).toBe(c.phase);
      expect(slicesBeforeCancel).toBeGreaterThanOrEqual(1);
      expect(slicesAfterCancel).toBe(0);
    }, 240_000); // (a safety net)
  }

  it('a puzzle too large for memory is refused with the size and the limit', async () => {
    const { host, next } = makeHost();
    await next((m) => m.type === MSG.READY);
    host.handleMessage({ type: MSG.LOAD, id: 'big', text: hostile('random165.txt'), source: 'random165.txt' });
    await next((m) => m.id === 'big');
    host.handleMessage({ type: MSG.SOLVE, id: 'big-solve', puzzle: 0, options: '' });
    const reply = await next((m) => m.id === 'big-solve' && (m.type === MSG.ERROR || m.type === MSG.DONE));
    expect(reply.type).toBe(MSG.ERROR);
    expect(reply.message).toMatch(/3,510,776 piece placements \(\d{1,3}(,\d{3})* cells\) need about 1031 MiB of memory, more than the limit of 768 MiB/);
    // The same module still solves what fits.
    host.handleMessage({ type: MSG.LOAD, id: 'soma', text: readDef('soma.txt'), source: 'soma.txt' });
    await next((m) => m.id === 'soma');
    host.handleMessage({ type: MSG.SOLVE, id: 'soma-solve', puzzle: 0, options: '-r' });
    const soma = await next((m) => m.id === 'soma-solve' && m.type === MSG.DONE);
    expect(soma.stats.solutions).toBe(480);
  }, 240_000); // (a safety net: minutes where other programs take the cores)
});

describe('worker input checks', () => {
  it('refuses stepBudget and maxSolutions that are not whole numbers of at least 1', async () => {
    const { host, next } = makeHost();
    await next((m) => m.type === MSG.READY);
    host.handleMessage({ type: MSG.LOAD, id: 'l', text: readDef('soma.txt'), source: 'soma.txt' });
    await next((m) => m.id === 'l');
    const bad = [
      { stepBudget: NaN }, { stepBudget: -5 }, { stepBudget: 0 }, { stepBudget: 2.5 }, { stepBudget: '100' },
      { stepBudget: Infinity }, { maxSolutions: 0.5 }, { maxSolutions: -1 }, { maxSolutions: NaN }, { maxSolutions: '3' },
    ];
    for (const fields of bad) {
      const id = `bad-${JSON.stringify(fields)}-${nextId++}`;
      host.handleMessage({ type: MSG.SOLVE, id, puzzle: 0, options: '-r', ...fields });
      const reply = await next((m) => m.id === id);
      expect(reply.type, JSON.stringify(fields)).toBe(MSG.ERROR);
      expect(reply.message).toMatch(/(stepBudget|maxSolutions) must be a whole number of at least 1/);
    }
    // Valid ones: a budget far past the maximum is clamped, a limit is honoured.
    host.handleMessage({ type: MSG.SOLVE, id: 'ok', puzzle: 0, options: '-r', stepBudget: MAX_BUDGET * 1e6, maxSolutions: 7 });
    const done = await next((m) => m.id === 'ok' && m.type === MSG.DONE);
    expect(done.reason).toBe('limit');
  }, 240_000); // (a safety net: minutes where other programs take the cores)
});

describe('a trapped module is replaced', () => {
  it('answers the running request with an error, tells the page, reloads the definitions and works again', async () => {
    // A fresh module per load, as the worker's import does; the first one traps on its
    // third step (as a WebAssembly RuntimeError: out of memory, unreachable).
    const { default: createPolycube } = await import(/* @vite-ignore */ WASM_GLUE);
    const wasmBinary = readFileSync(WASM_BINARY);
    let loads = 0;
    const loader = async () => {
      const module = await createPolycube({ wasmBinary });
      if (++loads === 1) {
        const step = module.Session.prototype.step;
        let calls = 0;
        module.Session.prototype.step = function trapping(budget) {
          if (++calls === 3) throw new WebAssembly.RuntimeError('memory access out of bounds');
          return step.call(this, budget);
        };
      }
      return module;
    };
    const { host, next, messages } = makeHost(loader);
    await next((m) => m.type === MSG.READY);
    host.handleMessage({ type: MSG.LOAD, id: 'l', text: readDef('tetriscube.txt'), source: 'tetriscube.txt' });
    await next((m) => m.id === 'l');
    host.handleMessage({ type: MSG.SOLVE, id: 's1', puzzle: 0, options: '-r L' });
    const err = await next((m) => m.id === 's1' && m.type === MSG.ERROR);
    expect(err.message).toMatch(/internal error \(memory access out of bounds\); it was restarted/);
    const restarted = await next((m) => m.type === MSG.RESTARTED);
    expect(restarted.message).toBe(err.message);
    expect(loads).toBe(2);
    // The puzzles were loaded again: puzzle 0 is still the Tetris Cube.
    host.handleMessage({ type: MSG.SOLVE, id: 's2', puzzle: 0, options: '-r L', maxSolutions: 3 });
    const done = await next((m) => m.id === 's2' && m.type === MSG.DONE);
    expect(done.reason).toBe('limit');
    expect(messages.filter((m) => m.type === MSG.ERROR && m.id === null)).toHaveLength(0);
  }, 240_000); // (a safety net: minutes where other programs take the cores)
});
