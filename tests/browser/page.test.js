// The web page, driven as a person would: headless Debian Chromium via playwright-core.
//   npx vitest run --config tests/browser/vitest.config.js
// Needs web/wasm/ built (bash scripts/build.sh wasm); builds and serves the page itself.
// Screenshots go to tests/output/browser/.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { driver, OUT } from './page-driver.js';
import { launchBrowser, repoRoot, startServer } from './server.js';

// (screenshots go to page-driver.js's OUT)

let server;
let browser;
let page;
const consoleErrors = [];
const foreignRequests = [];

let ui; // the shared driver (page-driver.js), once the page is open
const state = () => ui.state();
const waitState = (states, timeout) => ui.waitState(states, timeout);
const solutionCount = () => ui.solutionCount();
const hooks = () => ui.hooks();
const pickLibrary = (file) => ui.pickLibrary(file);
const shot = (name) => ui.shot(name);

async function solutionIndex() {
  return Number((await page.textContent('#solution-index')).replace(/\D/g, ''));
}

beforeAll(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  server = await startServer();
  browser = await launchBrowser();
  page = browser.context.pages()[0] || (await browser.context.newPage());
  ui = driver(page);
  page.on('console', (msg) => { if (msg.type() === 'error') consoleErrors.push(msg.text()); });
  page.on('pageerror', (err) => consoleErrors.push(String(err)));
  const origin = new URL(server.url).origin;
  browser.context.on('request', (req) => {
    const u = req.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) foreignRequests.push(u);
  });
  await page.goto(server.url);
}, 120_000);

afterAll(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

describe('polycube web page', () => {
  test('opens with the 10x6 pentomino board drawn and ready', async () => {
    expect(await waitState(['ready', 'error'], 30_000)).toBe('ready');
    const h = await hooks();
    expect(h.puzzle).toMatchObject({ xDim: 10, yDim: 6, zDim: 1, pieces: 12 });
    expect(await page.inputValue('#library')).toBe('pentominoes_10x6.txt');
    expect(await page.textContent('#stage-title')).toMatch(/10x6/);
    expect(await page.isChecked('#opt-r')).toBe(true);
    expect(h.piecesDrawn).toBe(0); // the empty board
    // the board itself is drawn
    const s = await page.evaluate(() => window.__polycube.sample());
    expect(s.drawnFraction).toBeGreaterThan(0.05);
    // multisampled on a GPU, not where the CPU draws (headless Chromium without one: SwiftShader)
    expect(s.renderer).not.toBe('');
    expect(s.multisampled).toBe(!/SwiftShader|llvmpipe|softpipe/i.test(s.renderer));
    // every library file is offered
    const files = await page.$$eval('#library option', (os) => os.map((o) => o.value));
    const defs = fs.readdirSync(path.join(repoRoot, 'def')).filter((f) => f.endsWith('.txt'));
    for (const f of defs) expect(files).toContain(f);
    await shot('01-ready-10x6-board.png');
  });

  test('solves 10x6 with -r: 2339 solutions, drawn, browsable', async () => {
    await page.click('#solve');
    expect(await waitState(['done', 'error'], 60_000)).toBe('done');
    expect(await solutionCount()).toBe(2339);
    expect(await page.textContent('#status')).toMatch(/2,339 solutions/);
    expect(await page.textContent('#solution-total')).toBe('2,339');
    const h = await hooks();
    expect(h.piecesDrawn).toBe(12);
    expect(h.solutionsShown).toBeGreaterThan(0);
    expect(await solutionIndex()).toBe(1);
    const s = await page.evaluate(() => window.__polycube.sample());
    expect(s.drawnFraction).toBeGreaterThan(0.1);
    expect(s.colours).toBeGreaterThan(12); // 12 piece colours, shaded
    await shot('02-solved-10x6.png');

    await page.click('#next');
    expect(await solutionIndex()).toBe(2);
    await page.click('#next');
    expect(await solutionIndex()).toBe(3);
    await page.click('#prev');
    expect(await solutionIndex()).toBe(2);
    // the view clicked (not reached by Tab, where the arrows turn it: view.test.js)
    await page.locator('#viewport').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('ArrowRight');
    expect(await solutionIndex()).toBe(3);
    await page.keyboard.press('End');
    expect(await solutionIndex()).toBe(2339);
    await page.keyboard.press('ArrowRight'); // stays on the last
    expect(await solutionIndex()).toBe(2339);
    await page.keyboard.press('Home');
    expect(await solutionIndex()).toBe(1);
    expect((await hooks()).piecesDrawn).toBe(12);

    // Solve again: the view goes from the last solution to the new first one, never through
    // the empty board (a search that finds nothing for a redraw, ~200 ms, clears it)
    await page.click('#next');
    const before = await hooks();
    await page.click('#solve');
    expect(await waitState(['done', 'error'], 60_000)).toBe('done');
    const after = await hooks();
    expect(after.emptyBoardsShown).toBe(before.emptyBoardsShown);
    expect(after.solutionsShown).toBeGreaterThan(before.solutionsShown);
    expect(await solutionIndex()).toBe(1);
    expect(after.piecesDrawn).toBe(12);
  });

  test('a malformed custom definition shows a clear error and keeps the text', async () => {
    const bad = [
      '# my puzzle',
      'D:xDim=3:yDim=3:zDim=3',
      'C:name=A:layout=0 0 0, 1 0 0',
      'C:name=B:layout=0 0 0, 1 0',
      '~D',
      '',
    ].join('\n');
    await page.click('#custom summary');
    await page.fill('#def-text', bad);
    await page.click('#def-load');
    await page.waitForSelector('#def-error:not([hidden])', { timeout: 10_000 });
    const msg = await page.textContent('#def-error-text');
    expect(msg).toMatch(/custom\.txt:4:/);
    expect(msg).toContain('C:name=B:layout=0 0 0, 1 0');
    expect(await page.inputValue('#def-text')).toBe(bad);
    expect(await state()).toBe('error');
    expect(await page.isVisible('#def-error')).toBe(true);
    await shot('03-custom-definition-error.png');

    // the page still works: fix the text and load it
    const good = ['# Domino pair', 'D:xDim=2:yDim=2:zDim=1', 'C:name=A:layout=0 0 0, 1 0 0', 'C:name=B:layout=0 0 0, 0 1 0', '~D', ''].join('\n');
    await page.fill('#def-text', good);
    expect(await ui.loadBy(() => page.click('#def-load'))).toBe('ready');
    expect(await page.isHidden('#def-error')).toBe(true);
    expect((await hooks()).puzzle).toMatchObject({ xDim: 2, yDim: 2, zDim: 1, pieces: 2 });
    await page.click('#solve');
    expect(await waitState(['done', 'error'])).toBe('done');
    expect(await solutionCount()).toBeGreaterThan(0);
  });

  test('solves the Soma cube in 3-D (480 with -r) and explodes it', async () => {
    await pickLibrary('soma.txt');
    expect((await hooks()).puzzle).toMatchObject({ xDim: 3, yDim: 3, zDim: 3, pieces: 7 });
    expect(await page.isVisible('#explode')).toBe(true);
    await page.click('#solve');
    expect(await waitState(['done', 'error'], 60_000)).toBe('done');
    expect(await solutionCount()).toBe(480);
    expect((await hooks()).piecesDrawn).toBe(7);
    const s = await page.evaluate(() => window.__polycube.sample());
    expect(s.drawnFraction).toBeGreaterThan(0.05);
    // multisampled on a GPU, not where the CPU draws (headless Chromium without one: SwiftShader)
    expect(s.renderer).not.toBe('');
    expect(s.multisampled).toBe(!/SwiftShader|llvmpipe|softpipe/i.test(s.renderer));
    await shot('04-solved-soma.png');
    await page.fill('#explode', '70');
    await page.dispatchEvent('#explode', 'input');
    await shot('05-soma-exploded.png');
    await page.selectOption('#explode-mode', 'layers');
    await shot('06-soma-layers.png');
    expect((await hooks()).piecesDrawn).toBe(7);
  });

  test('Solve again keeps the solution drawn until the first new one comes, however long it takes (solid pentominoes 3x4x5)', async () => {
    // The first solution of the 3x4x5 box with -r comes after half a second of search, after
    // the first progress report: the drawing stayed only until that report (a clock), then the
    // empty board flashed until the solution came.
    await pickLibrary('solid_pentominoes_3x4x5.txt');
    await page.fill('#opt-text', '-r -l 1');
    await page.dispatchEvent('#opt-text', 'input');
    await page.click('#solve');
    expect(await waitState(['done', 'error'], 120_000)).toBe('done');
    const before = await hooks();
    expect(before.piecesDrawn).toBe(12);
    await page.click('#solve');
    expect(await waitState(['done', 'error'], 120_000)).toBe('done');
    const after = await hooks();
    expect(after.emptyBoardsShown).toBe(before.emptyBoardsShown);
    expect(after.piecesDrawn).toBe(12); // (the same first solution: drawn once, kept)
    expect(await page.textContent('#stage-solution')).toBe('Solution 1 of 1');
  });

  test('Cancel stops a long search (the Tetris Cube, every solution by search)', async () => {
    await pickLibrary('tetriscube.txt');
    // every solution by search: minutes of it, so it is surely running when cancelled
    await page.fill('#opt-text', '--no-orbits');
    await page.dispatchEvent('#opt-text', 'input');
    await page.click('#solve');
    expect(await waitState(['running', 'done', 'error'])).toBe('running');
    // progress is reported while running and the page stays responsive
    // (a first solution, for the screenshot, if one comes soon)
    await page.waitForFunction(() => Number(document.getElementById('solution-count').dataset.count) > 0,
      null, { timeout: 8_000, polling: 100 }).catch(() => {});
    const a1 = Number(await page.getAttribute('#stat-attempts', 'data-value'));
    expect(await page.evaluate(() => 1 + 1)).toBe(2); // the page answers while the workers search
    await page.waitForFunction((n) => Number(document.getElementById('stat-attempts').dataset.value) > n, a1,
      { timeout: 60_000, polling: 100 });
    // The engine's progress estimate (issue 10) is shown and moves forward.
    expect(await page.textContent('#stat-progress')).toMatch(/^about \d+(\.\d+)?%/);
    const p1 = Number(await page.getAttribute('#stat-progress', 'data-value'));
    await page.waitForFunction((p) => Number(document.getElementById('stat-progress').dataset.value) > p, p1,
      { timeout: 60_000, polling: 100 });
    expect(await state()).toBe('running');
    expect(await page.textContent('#stat-seconds')).toMatch(/s$/);
    if (await solutionCount() > 0) {
      expect((await hooks()).piecesDrawn).toBe(12);
      await shot('07-tetriscube-running.png');
    }
    const started = Date.now();
    await page.click('#cancel');
    expect(await waitState(['cancelled', 'done', 'error'], 60_000)).toBe('cancelled');
    console.log(`Tetris Cube: cancelled after ${Date.now() - started} ms`);
    expect(await page.textContent('#status')).toMatch(/Cancelled/);
    expect(await page.isDisabled('#cancel')).toBe(true);
    expect(await page.isEnabled('#solve')).toBe(true);
    await page.fill('#opt-text', '-r');
    await page.dispatchEvent('#opt-text', 'input');
  });

  test('Cancel is at once even where one placement takes 100 ms (1.1 million placements of 100 random pieces)', async () => {
    // tests/hostile/random100.txt: 100 random 10-cell pieces in a 10x10x10 box. Its setup runs
    // in slices; then each DLX placement costs up to 100 ms in WebAssembly, so the engine
    // cannot answer a cancel sooner: the page stops the worker after HARD_CANCEL_MS instead.
    const text = fs.readFileSync(path.join(repoRoot, 'tests/hostile/random100.txt'), 'utf8');
    if (!(await page.evaluate(() => document.getElementById('custom').open))) await page.click('#custom summary');
    await page.fill('#def-text', text);
    expect(await ui.loadBy(() => page.click('#def-load'), 30_000)).toBe('ready');
    await page.uncheck('#opt-r');
    await page.click('#solve');
    expect(await waitState(['running', 'done', 'error'])).toBe('running');
    await page.waitForFunction(() => Number(document.getElementById('stat-attempts').dataset.value) > 0,
      null, { timeout: 60_000, polling: 50 });
    const started = Date.now();
    await page.click('#cancel');
    expect(await waitState(['cancelled', 'done', 'error'], 60_000)).toBe('cancelled');
    // How soon is the page's promise, not this machine's: a worker that does not answer within
    // HARD_CANCEL_MS is stopped outright, tested on an injected clock in tests/js/protocol.test.js.
    // Here the page ends in 'cancelled' either way, and goes on with a fresh worker.
    const waited = Date.now() - started;
    const how = await page.evaluate(() => window.__polycube.state().run.stats);
    console.log(`random100: cancelled after ${waited} ms (${how && how.stoppedOutright ? 'worker stopped outright' : 'the engine answered'})`);
    // The page goes on with a fresh worker: a library puzzle solves.
    await page.check('#opt-r');
    await pickLibrary('soma.txt');
    await page.click('#solve');
    expect(await waitState(['done', 'error'], 20_000)).toBe('done');
    expect(await solutionCount()).toBe(480);
    expect(await page.textContent('#stat-progress')).toBe('100%');
  }, 120_000);

  test('made no requests outside the page and logged no errors', async () => {
    expect(foreignRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
