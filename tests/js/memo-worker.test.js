// --memo in the page: the worker (web/src/worker/protocol.js over the real wasm Session) counts
// with the memoized counter, its count in the 'done' statistics, no solutions listed; the pool
// runs such a count on one worker (the engine says it cannot be shared); options that list or
// limit solutions are refused with the engine's own message. A listing carries what a count
// alone would choose (the engine's counting forecast), which the page's counting hint reads.
import { describe, expect, it } from 'vitest';
import { countingHint, listingHint } from '../../web/src/app/selectors.js';
import { mib } from '../../web/src/app/format.js';
import { MSG } from '../../web/src/worker/protocol.js';
import { SolverClient } from '../../web/src/solver-client.js';
import { SolverPool, sharingRefusal } from '../../web/src/pool/solver-pool.js';
import { loadModule, makeFakeWorker, makeHost, readDef } from './helpers.js';

async function memoCountInWorker(file, options) {
  const { host, next, messages } = makeHost();
  await next((m) => m.type === MSG.READY);
  host.handleMessage({ type: MSG.LOAD, id: 'load', text: readDef(file), source: file });
  await next((m) => m.id === 'load');
  host.handleMessage({ type: MSG.SOLVE, id: 'count', puzzle: 0, options });
  const done = await next((m) => m.id === 'count' && (m.type === MSG.DONE || m.type === MSG.ERROR));
  const listed = messages.filter((m) => m.id === 'count' && m.type === MSG.SOLUTIONS);
  const progress = messages.filter((m) => m.id === 'count' && m.type === MSG.PROGRESS);
  return { done, listed, progress };
}

describe('--memo in the worker', () => {
  for (const [file, want] of [['soma.txt', 480], ['pentominoes_10x6.txt', 2339]]) {
    it(`counts ${file} -r: ${want}, listing none`, async () => {
      const { done, listed, progress } = await memoCountInWorker(file, '--memo -r');
      expect(done.type, done.message).toBe(MSG.DONE);
      expect(done.reason).toBe('finished');
      expect(done.stats.solutions).toBe(want);
      expect(done.stats.fractionDone).toBe(1);
      // counted layer by layer, within the worker's budget
      expect(done.stats.memo.subproblems).toBeGreaterThan(0);
      expect(done.stats.memo.layeredTerms).toBeGreaterThan(0);
      expect(done.stats.memo.fallbackTerms).toBe(0);
      expect(done.stats.memo.budgetBytes).toBeGreaterThan(0);
      expect(done.stats.memo.layerBytes).toBeLessThanOrEqual(done.stats.memo.budgetBytes);
      expect(listed).toEqual([]);
      for (const p of progress) expect(p.stats.solutions).toBeNull(); // no partial count
    }, 240_000); // (a safety net)
  }

  it('a listing says when a count alone would be memoized; the counting hint reads it while it runs', async () => {
    const { done: copies, listed } = await memoCountInWorker('copies/dominoes_7x6.txt', '');
    expect(copies.type, copies.message).toBe(MSG.DONE);
    expect(copies.stats.solutions).toBe(31529);
    expect(listed.length).toBeGreaterThan(0); // (a listing still lists)
    const f = copies.stats.countingForecast;
    expect(f.memoize).toBe(true);
    expect(copies.stats.counting).toMatch(/^memoized: /);
    expect(countingHint({ run: { phase: 'running', stats: copies.stats } })).toEqual({ subproblems: f.subproblemBound, steps: f.enumeratingEstimate });
    expect(countingHint({ run: { phase: 'cancelled', stats: copies.stats } })).not.toBeNull();
    expect(countingHint({ run: { phase: 'done', stats: copies.stats } })).toBeNull(); // (over: nothing to offer)
    // distinct pieces: a count alone enumerates too, and a count has no forecast
    const { done: distinct } = await memoCountInWorker('pentominoes_10x6.txt', '-r');
    expect(distinct.stats.countingForecast.memoize).toBe(false);
    expect(countingHint({ run: { phase: 'running', stats: distinct.stats } })).toBeNull();
    const { done: counted } = await memoCountInWorker('copies/dominoes_7x6.txt', '--memo');
    expect(counted.stats.solutions).toBe(31529);
    expect(counted.stats.countingForecast).toBeUndefined();
  }, 240_000); // (a safety net)

  it('a count whose layers passed its memory offers listing (the listing hint), one within it nothing', async () => {
    const { done: over } = await memoCountInWorker('pentominoes_10x6.txt', '--memo -r --memo-mb 1');
    expect(over.type, over.message).toBe(MSG.DONE);
    expect(over.stats.solutions).toBe(2339); // (the table's search, exact within its 1 MiB)
    expect(over.stats.memo.fallbackTerms).toBeGreaterThan(0);
    expect(over.stats.memo.mostBudgetBytes).toBe(768 * 2 ** 20); // (half the engine's 1.5 GiB for a search)
    expect(listingHint({ run: { phase: 'running', stats: over.stats } })).toEqual({ budgetBytes: 1 << 20, more: true });
    const atMost = { ...over.stats, memo: { ...over.stats.memo, budgetBytes: over.stats.memo.mostBudgetBytes } };
    expect(listingHint({ run: { phase: 'running', stats: atMost } })).toEqual({ budgetBytes: 768 * 2 ** 20, more: false });
    expect(listingHint({ run: { phase: 'cancelled', stats: over.stats } })).not.toBeNull();
    expect(listingHint({ run: { phase: 'done', stats: over.stats } })).toBeNull();
    expect(mib(over.stats.memo.budgetBytes)).toBe('1 MiB');
    expect(mib(1536 * 2 ** 20)).toBe('1.5 GiB');
    const { done: within } = await memoCountInWorker('pentominoes_10x6.txt', '--memo -r');
    expect(within.stats.memo.fallbackTerms).toBe(0);
    expect(listingHint({ run: { phase: 'running', stats: within.stats } })).toBeNull();
    const { done: listing } = await memoCountInWorker('soma.txt', '-r');
    expect(listingHint({ run: { phase: 'running', stats: listing.stats } })).toBeNull();
  }, 240_000); // (a safety net)

  it('refuses a listing option with --memo with the engine\'s message', async () => {
    const engine = await loadModule();
    for (const options of ['--memo -l 5', '--memo -u', '--memo -t 2', '--memo-mb 64']) {
      const { done } = await memoCountInWorker('soma.txt', options);
      expect(done.type, options).toBe(MSG.ERROR);
      const judged = JSON.parse(engine.parseOptionsJson(options));
      expect(judged.ok).toBe(false);
      expect(done.message).toContain(judged.error);
    }
    const { done } = await memoCountInWorker('soma.txt', '--memo -l 5');
    expect(done.message).toContain('--memo cannot be combined with -l');
  }, 240_000);

  it('runs on one worker of the pool: the engine says a memoized count is not shared', async () => {
    expect(sharingRefusal('--memo -r')).toMatch(/^--memo: /);
    const pool = new SolverPool({ size: 2, splitAfterMs: 0, createClient: () => new SolverClient(() => makeFakeWorker()) });
    await pool.load(readDef('soma.txt'), 'soma.txt');
    const result = await pool.solve(0, '--memo -r', { onSolutions: () => { throw new Error('a memoized count lists nothing'); } }).done;
    expect(result.stats.solutions).toBe(480);
  }, 240_000);
});
