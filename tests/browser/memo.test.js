// --memo in the page, as a person uses it in headless Chromium: the option typed (or the
// control ticked) counts the puzzle with the engine's memoized counter on one worker; the count
// is the command line's, and no solution is listed to browse; a listing option beside it is
// marked with the engine's message. A listing that a count alone would finish at once (the
// engine's counting forecast) offers "Count only", which stops it and counts.
//   npx vitest run --config tests/browser/vitest.config.js tests/browser/memo.test.js
// Needs web/wasm/ (bash scripts/build.sh wasm). Screenshots: tests/output/browser/memo-*.png.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { CLI, usePage } from './page-driver.js';
import { repoRoot } from './server.js';

const env = usePage({ width: 1400, height: 860 });
let page;
beforeAll(() => { page = env.page; });

/** Scroll the side panel so that `selector` is in view, then shoot at 1400x860 and 390x844. */
async function shots(name, selector = '#status') {
  for (const [tag, vp] of [['desktop', { width: 1400, height: 860 }], ['phone', { width: 390, height: 844 }]]) {
    await page.setViewportSize(vp);
    await page.locator(selector).scrollIntoViewIfNeeded();
    await env.ui.shot(`memo-${name}-${tag}.png`);
  }
  await page.setViewportSize({ width: 1400, height: 860 });
}

describe('--memo in the page', () => {
  test('typed: Soma -r counts 480 and 10x6 -r 2339, none listed', async () => {
    for (const [file, want] of [['soma.txt', 480], ['pentominoes_10x6.txt', 2339]]) {
      await env.ui.pickLibrary(file);
      await page.fill('#opt-text', '--memo -r');
      await page.click('#solve');
      expect(await env.ui.waitState(['done', 'error', 'cancelled'], 120_000)).toBe('done');
      expect(await env.ui.solutionCount()).toBe(want);
      expect(await page.textContent('#status')).toContain(`Finished: counted ${want.toLocaleString('en-US')} solutions`);
      expect(await page.textContent('#status')).toContain('none listed to browse');
      expect((await env.ui.hooks()).solutionsShown).toBe(0);
      expect(await page.textContent('#nav-none')).toBe(`${want.toLocaleString('en-US')} counted, none listed`);
      await shots(file.replace('.txt', ''));
    }
  });

  test('the control writes --memo, its budget --memo-mb; a limit beside it is marked with the engine\'s message', async () => {
    await page.fill('#opt-text', '-r');
    await page.check('#opt-memo');
    expect(await page.inputValue('#opt-text')).toBe('-r --memo');
    await page.fill('#opt-memoMb', '64');
    expect(await page.inputValue('#opt-text')).toBe('-r --memo --memo-mb 64');
    await page.click('#solve');
    expect(await env.ui.waitState(['done', 'error', 'cancelled'], 120_000)).toBe('done');
    expect(await env.ui.solutionCount()).toBe(2339);
    await shots('controls', '#opt-memoMb');
    await page.fill('#opt-text', '-r --memo -l 5');
    await page.waitForFunction(() => !document.getElementById('opt-text-error').hidden, null, { timeout: 10_000 });
    expect(await page.textContent('#opt-text-error')).toContain('--memo cannot be combined with -l');
    await shots('refused', '#opt-text');
  });

  test('a listing of 32 dominoes offers "Count only", which stops it and counts 12,988,816; 10x6 offers nothing', async () => {
    expect(await env.ui.loadDefinition(fs.readFileSync(path.join(repoRoot, 'def/copies/dominoes_8x8.txt'), 'utf8'))).toBe('ready');
    await page.fill('#opt-text', '');
    expect(await page.isHidden('#count-hint')).toBe(true);
    await page.click('#solve');
    // the forecast comes with the first statistics of the listing, long before its end
    await page.waitForSelector('#count-hint:not([hidden])', { timeout: 60_000 });
    expect(await env.ui.state()).toBe('running');
    const hint = await page.textContent('#count-hint');
    expect(hint).toMatch(/^Only need the number\? Counting without listing .* at most [\d,]+ to remember here, where listing takes about [\d.]+[MBK] steps\. Count only$/);
    await shots('count-hint', '#count-hint');
    await page.click('#count-instead');
    await page.waitForFunction(() => /^Finished: counted 12,988,816 solutions/.test(document.getElementById('status').textContent), null, { timeout: 120_000 });
    expect(await page.inputValue('#opt-text')).toBe('--memo');
    expect(await page.isHidden('#count-hint')).toBe(true);
    expect(await env.ui.solutionCount()).toBe(12988816);
    await shots('counted-instead');
    // distinct pieces: a count alone would enumerate too; the listing offers nothing
    await env.ui.pickLibrary('pentominoes_10x6.txt');
    await page.fill('#opt-text', '-r');
    await page.click('#solve');
    expect(await env.ui.waitState(['done', 'error', 'cancelled'], 120_000)).toBe('done');
    const forecast = await page.evaluate(() => window.__polycube.state().run.stats.countingForecast);
    expect(forecast.memoize).toBe(false);
    expect(await page.isHidden('#count-hint')).toBe(true);
  });

  test('a count whose layers pass its memory offers "List instead", which stops it and lists with --memo and its budget taken out', async () => {
    await env.ui.pickLibrary('tetriscube.txt');
    await page.fill('#opt-text', '-r --memo --memo-mb 16');
    await page.click('#solve');
    // the Tetris Cube's layers pass 16 MiB within a few seconds; the table's search goes on
    await page.waitForSelector('#list-hint:not([hidden])', { timeout: 60_000 });
    expect(await env.ui.state()).toBe('running');
    expect(await page.isHidden('#count-hint')).toBe(true);
    expect(await page.textContent('#list-hint')).toMatch(/^Remembering needs more memory here than its 16 MiB: the count goes on with a table that forgets .* Listing finds the same count .*\. List instead$/);
    const memo = await page.evaluate(() => window.__polycube.state().run.stats.memo);
    expect(memo.fallbackTerms).toBeGreaterThan(0);
    await shots('list-hint', '#list-hint');
    await page.click('#list-instead');
    await page.waitForFunction(() => (window.__polycube.state().solutions.total || 0) > 0, null, { timeout: 120_000 });
    expect(await page.inputValue('#opt-text')).toBe('-r');
    expect(await env.ui.state()).toBe('running');
    expect(await page.isHidden('#list-hint')).toBe(true);
    await shots('listed-instead');
    await page.click('#cancel');
    expect(await env.ui.waitState(['done', 'cancelled'], 60_000)).toMatch(/done|cancelled/);
  });

  test('--random 5,7 after a count shows five of the 12,988,816 tilings with their numbers; --solution shows one', async () => {
    expect(await env.ui.loadDefinition(fs.readFileSync(path.join(repoRoot, 'def/copies/dominoes_8x8.txt'), 'utf8'))).toBe('ready');
    await page.fill('#opt-text', '--memo');
    await page.fill('#opt-random', '5,7');
    expect(await page.inputValue('#opt-text')).toBe('--memo --random 5,7');
    await page.click('#solve');
    expect(await env.ui.waitState(['done', 'error', 'cancelled'], 120_000)).toBe('done');
    expect(await page.textContent('#status')).toContain('Finished: counted 12,988,816 solutions');
    expect(await page.textContent('#status')).toContain('and showing 5 drawn at random.');
    expect(await page.textContent('#solution-total')).toBe('5');
    const first = await page.textContent('#store-note');
    expect(first).toMatch(/^This is solution number [\d,]+ of the 12,988,816 counted/);
    await shots('random');
    await page.click('#next');
    const second = await page.textContent('#store-note');
    expect(second).not.toBe(first);
    // the same seed draws the same five: the numbers are the command line's
    const cli = execFileSync(CLI, ['--memo', '--random', '5,7', path.join(repoRoot, 'def/copies/dominoes_8x8.txt')], { encoding: 'utf8' });
    const numbers = [...cli.matchAll(/SOLUTION (\d+)/g)].map((m) => Number(m[1]).toLocaleString('en-US'));
    expect(numbers).toHaveLength(5);
    expect(first).toContain(`number ${numbers[0]} of`);
    expect(second).toContain(`number ${numbers[1]} of`);
    // one by its number
    await page.fill('#opt-random', '');
    await page.fill('#opt-solution', '1000000');
    expect(await page.inputValue('#opt-text')).toBe('--memo --solution 1000000');
    await page.click('#solve');
    expect(await env.ui.waitState(['done', 'error', 'cancelled'], 120_000)).toBe('done');
    expect(await page.textContent('#status')).toContain('and showing solution number 1,000,000.');
    expect(await page.textContent('#store-note')).toContain('This is solution number 1,000,000 of the 12,988,816 counted');
    expect((await env.ui.hooks()).solutionsShown).toBeGreaterThan(0);
    await shots('solution-number', '#store-note');
    // past the count: the engine's message
    await page.fill('#opt-solution', '20000000');
    await page.click('#solve');
    expect(await env.ui.waitState(['done', 'error', 'cancelled'], 120_000)).toBe('error');
    expect(await page.textContent('#status')).toContain('--solution 20000000: the puzzle has 12,988,816 solutions');
  });
});
