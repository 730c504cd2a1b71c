// Driving the page as a person would, shared by the browser test files: open it in a fresh
// headless Chromium (its own profile: no storage from another test), wait for its states, read
// what it shows, take screenshots, and ask the native CLI for the counts to compare with.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchBrowser, repoRoot, startServer } from './server.js';

export const OUT = path.join(repoRoot, 'tests', 'output', 'browser');
export const CLI = path.join(repoRoot, 'build', 'cli', 'polycube');

/** A fresh browser with one page at `url`; collects console errors. */
export async function openPage(url, { width = 1280, height = 800, touch = false, args = [] } = {}) {
  fs.mkdirSync(OUT, { recursive: true });
  const browser = await launchBrowser({ touch, args });
  const page = browser.context.pages()[0] || (await browser.context.newPage());
  await page.setViewportSize({ width, height });
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  if (url) await page.goto(url);
  return { browser, page, errors, ...driver(page) };
}

/**
 * One built and served page for a test file: registers beforeAll/afterAll and returns a handle
 * whose fields are filled before the first test ({server, ui, page}; ui as openPage gives it).
 */
export function usePage({ width = 1400, height = 860 } = {}) {
  const handle = { server: null, ui: null, page: null };
  beforeAll(async () => {
    handle.server = await startServer();
    handle.ui = await openPage(handle.server.url, { width, height });
    handle.page = handle.ui.page;
    expect(await handle.ui.waitState(['ready', 'error'])).toBe('ready');
  }, 120_000);
  afterAll(async () => {
    if (handle.ui) await handle.ui.browser.close();
    if (handle.server) await handle.server.close();
  });
  return handle;
}

export function driver(page) {
  const d = {
    state: () => page.evaluate(() => document.body.dataset.state),
    async waitState(states, timeout = 30_000) {
      const list = Array.isArray(states) ? states : [states];
      // (the state the wait saw, not a second read: a load may start in between)
      const seen = await page.waitForFunction((l) => l.includes(document.body.dataset.state) && document.body.dataset.state, list, { timeout, polling: 50 });
      return seen.jsonValue();
    },
    /** Do `act` (a click that loads a puzzle), wait for that load to end; its phase ('ready' or 'error'). */
    async loadBy(act, timeout = 30_000) {
      const before = await page.evaluate(() => window.__polycube.loads);
      await act();
      const seen = await page.waitForFunction((n) => window.__polycube.loads > n && ['ready', 'error'].includes(document.body.dataset.state) && document.body.dataset.state,
        before, { timeout, polling: 50 });
      return seen.jsonValue();
    },
    solutionCount: async () => Number(await page.getAttribute('#solution-count', 'data-count')),
    hooks: () => page.evaluate(() => {
      const h = window.__polycube;
      return { solutionsShown: h.solutionsShown, emptyBoardsShown: h.emptyBoardsShown, piecesDrawn: h.piecesDrawn, currentSolution: h.currentSolution, puzzle: h.puzzle };
    }),
    /** Wait until no piece is moving in the view (watching the search animates steps). */
    still: () => page.waitForFunction(() => !(window.__polycube && window.__polycube.animating && window.__polycube.animating()), null, { timeout: 5000, polling: 20 }),
    /** Wait until a turn of the view is over: the camera and the state agree over three frames in a row
     * (the camera glides on after a drag, and the state follows it once it stops). */
    cameraSettled: () => page.waitForFunction(() => new Promise((resolve) => {
      let frames = 0;
      const look = () => {
        if (!window.__polycube.cameraSettled()) resolve(false);
        else if (++frames === 3) resolve(true);
        else requestAnimationFrame(look);
      };
      look();
    }), null, { timeout: 10_000 }),
    /** Let the render loop settle, then save a screenshot under tests/output/browser/. */
    async shot(name) {
      await d.still();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const file = path.join(OUT, name);
      await page.screenshot({ path: file });
      return file;
    },
    async pickLibrary(file) {
      await page.selectOption('#library', file);
      await page.waitForFunction((f) => document.getElementById('library').value === f && document.body.dataset.state === 'ready',
        file, { timeout: 20_000, polling: 50 });
    },
    /** Paste a definition's text under "Custom definition" and load it, as a person does; the load's phase. */
    async loadDefinition(text) {
      if (!(await page.isVisible('#def-text'))) await page.click('#custom summary');
      await page.evaluate((t) => {
        const area = document.getElementById('def-text');
        area.value = t;
        area.dispatchEvent(new Event('input', { bubbles: true }));
      }, text);
      return d.loadBy(() => page.click('#def-load'));
    },
    /** "New puzzle" of this size (the editor closed first when it was open), as a person types it. */
    async newPuzzle(x, y, z) {
      if (await page.isVisible('#editor-close')) await page.click('#editor-close');
      await page.fill('#new-x', String(x));
      await page.fill('#new-y', String(y));
      await page.fill('#new-z', String(z));
      await page.click('#new-puzzle');
      await page.waitForSelector('#editor-body:not([hidden])');
    },
    /** Text of the editor's live check with this data-check id ('' when absent). */
    check: (id) => page.evaluate((k) => {
      const li = document.querySelector(`#editor-checks [data-check="${k}"]`);
      return li ? `${li.className}: ${li.textContent}` : '';
    }, id),
  };
  return d;
}

/** The native CLI's count for definition text and options (its --json summary line). */
export function cliCount(text, options = '-r') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'polycube-cli-'));
  const file = path.join(dir, 'puzzle.txt');
  fs.writeFileSync(file, text);
  try {
    const out = execFileSync(CLI, ['-q', '--json', ...options.split(/\s+/).filter(Boolean), file], { encoding: 'utf8' });
    return JSON.parse(out.trim().split('\n').pop()).solutions;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * How two screenshots (PNG buffers) differ, measured in the page's own canvas: the share of
 * pixels with any channel off by more than `tolerance` (0..255), and the largest difference.
 */
export function imageDifference(page, a, b, tolerance = 8) {
  return page.evaluate(async ([urlA, urlB, tol]) => {
    const load = (url) => new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => resolve(img);
      img.onerror = () => reject(new Error('not an image'));
      img.src = url;
    });
    const [ia, ib] = await Promise.all([load(urlA), load(urlB)]);
    if (ia.width !== ib.width || ia.height !== ib.height) return { share: 1, max: 255, sizes: [ia.width, ia.height, ib.width, ib.height] };
    const pixels = (img) => {
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      return ctx.getImageData(0, 0, img.width, img.height).data;
    };
    const pa = pixels(ia), pb = pixels(ib);
    let off = 0, max = 0;
    for (let i = 0; i < pa.length; i += 4) {
      const d = Math.max(Math.abs(pa[i] - pb[i]), Math.abs(pa[i + 1] - pb[i + 1]), Math.abs(pa[i + 2] - pb[i + 2]));
      if (d > max) max = d;
      if (d > tol) off++;
    }
    return { share: off / (pa.length / 4), max };
  }, [`data:image/png;base64,${a.toString('base64')}`, `data:image/png;base64,${b.toString('base64')}`, tolerance]);
}
