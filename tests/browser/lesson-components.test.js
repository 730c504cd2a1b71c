// The lesson components (web/src/lesson/) in headless Chromium, on a page of their own
// (tests/browser/lesson-harness.js) driven by tiny puzzles recorded through the WebAssembly
// engine: the search tree's node count follows the replay exactly forwards, backwards and after
// a jump made by clicking a node; the pseudo-code lights, at every step, the line its golden file
// says (tests/golden/lesson); the dancing-links matrix draws, once its rows have finished
// moving, exactly the rows a brute force over the board finds uncovered (and the rows placed);
// the canvases are drawn (not blank); screenshots at 1400x860 and 390x844 land in
// tests/output/browser/.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, repoRoot } from './server.js';
import { recordForPage, startLessonServer } from './lesson-harness.js';
import { uncoveredRows } from '../js/helpers.js';
import { TraceRecording } from '../../web/src/trace/recording.js';
import { TracePlayer } from '../../web/src/trace/player.js';

const OUT = path.join(repoRoot, 'tests', 'output', 'browser');
const PLACE = 1;

/** Nodes of the tree after each step: the root and one per PLACE event before it. */
function nodeCounts(events) {
  const counts = [1];
  for (let i = 0; i < events.length / 4; i++) counts.push(counts[i] + (events[i * 4] === PLACE ? 1 : 0));
  return counts;
}

let server = null;
let browser = null;
const data = {};

beforeAll(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  server = await startLessonServer();
  browser = await launchBrowser();
  data.bruijn = await recordForPage('lesson_tiny_4x3.txt', '-b 3 -t 1');
  data.dlx = await recordForPage('lesson_tiny_4x3.txt', '-o s -t 1');
}, 120_000);

afterAll(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

/** A fresh page of the given size with the components mounted on `d`. */
async function open(d, { width = 1400, height = 860, mount = {} } = {}) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' && !/favicon/.test(m.location().url || '')) errors.push(m.text()); });
  await page.goto(`${server.url}lesson.html`);
  await page.waitForFunction(() => window.lesson);
  await page.evaluate(([x, opts]) => window.lesson.mount(x, opts), [d, mount]);
  await page.evaluate(() => window.lesson.settled());
  return { page, errors };
}

const shot = async (page, name) => {
  await page.evaluate(() => window.lesson.settled());
  await page.screenshot({ path: path.join(OUT, name) });
};

describe('the search tree on a page', () => {
  test('its node count follows the replay forwards, backwards and after clicking a node', async () => {
    const d = data.bruijn;
    const counts = nodeCounts(d.events);
    const { page, errors } = await open(d);
    const steps = d.events.length / 4;
    expect(steps).toBe(98);
    const read = () => page.evaluate(() => {
      const t = window.lesson.tree;
      t.renderNow();
      return { step: window.lesson.player.step, count: t.visibleNodeCount(), label: t.canvas.getAttribute('aria-label'), path: t.currentPath() };
    });
    for (let s = 0; s <= steps; s++) {
      const r = await read();
      expect(r.step).toBe(s);
      expect(r.count).toBe(counts[s]);
      expect(r.label).toContain(`${counts[s]} node${counts[s] === 1 ? '' : 's'} so far`);
      if (s < steps) await page.evaluate(() => window.lesson.forward());
    }
    await shot(page, 'lesson-tree-1400-end.png');
    for (let s = steps; s >= 0; s -= 7) {
      await page.evaluate((k) => { for (let i = 0; i < k; i++) window.lesson.back(); }, Math.min(7, s));
      const r = await read();
      expect(r.count).toBe(counts[Math.max(0, s - 7)]);
    }
    // at step 60, click a node of the tree drawn: the replay jumps to the step that made it
    await page.evaluate(() => window.lesson.seek(60));
    await page.evaluate(() => window.lesson.settled());
    const target = await page.evaluate(() => {
      const t = window.lesson.tree;
      const st = window.lesson.searchTree;
      // the first finished node with a child (not on the path): its placement's step
      for (let n = 1; n < st.visibleNodeCount(60); n++) {
        if (st.isFinished(n, 60) && st.size[n] > 1) {
          const box = t.screenBox(n, 'node');
          if (box) return { n, step: st.placeStep[n] + 1, box, rect: t.canvas.getBoundingClientRect().toJSON() };
        }
      }
      return null;
    });
    expect(target).not.toBeNull();
    await page.mouse.click(target.rect.x + target.box.x, target.rect.y + target.box.y);
    const after = await read();
    expect(after.step).toBe(target.step);
    expect(after.count).toBe(counts[target.step]);
    expect(after.path[after.path.length - 1]).toBe(target.n);
    expect(await page.evaluate(() => window.lesson.jumps)).toEqual([target.step]);
    // drawn: the canvas is not blank; nor is the flat board with its coordinates
    expect(await page.evaluate(() => window.lesson.inked(window.lesson.tree.canvas))).toBeGreaterThan(0.03);
    expect(await page.evaluate(() => window.lesson.inked(window.lesson.board))).toBeGreaterThan(0.3);
    await shot(page, 'lesson-tree-1400-jumped.png');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a larger search: a folded branch opens with a click, a group spreads, dragging stops the following', async () => {
    const d = await recordForPage('soma.txt', '-r -o s -t 1');
    const { page, errors } = await open(d, { mount: { code: false, matrix: false, board: false } });
    const steps = d.events.length / 4;
    expect(steps).toBeGreaterThan(20000);
    await page.evaluate((k) => window.lesson.seek(k), Math.floor(steps / 2));
    await page.evaluate(() => window.lesson.settled());
    const rect = await page.evaluate(() => window.lesson.tree.canvas.getBoundingClientRect().toJSON());
    const items = () => page.evaluate(() => window.lesson.tree.layout.items.map((it) => ({ kind: it.kind, node: it.node, mode: it.mode, parent: it.parent })));
    const before = await items();
    const fold = before.find((it) => it.kind === 'fold');
    expect(fold).toBeTruthy();
    const box = await page.evaluate((n) => window.lesson.tree.screenBox(n, 'fold'), fold.node);
    await page.mouse.click(rect.x + box.x, rect.y + box.y);
    await page.evaluate(() => window.lesson.settled());
    const after = await items();
    const opened = after.findIndex((it) => it.node === fold.node && it.kind === 'node');
    expect(after[opened].mode).toBe('open');
    expect(after.filter((it) => it.parent === opened).length).toBe(await page.evaluate((n) => window.lesson.searchTree.childrenAt(n, window.lesson.player.step).length, fold.node));
    expect(await page.evaluate(() => window.lesson.jumps.length)).toBe(0); // opening is not a jump
    // a group of earlier branches spreads
    const group = after.find((it) => it.kind === 'group');
    if (group) {
      const gbox = await page.evaluate((n) => window.lesson.tree.screenBox(n, 'group'), group.node);
      if (gbox && gbox.x > 0 && gbox.x < rect.width) {
        await page.mouse.click(rect.x + gbox.x, rect.y + gbox.y);
        await page.evaluate(() => window.lesson.settled());
        expect((await items()).some((it) => it.kind === 'group' && it.node === group.node)).toBe(false);
      }
    }
    // a drag pans the view and stops it following the search; "Follow" takes it up again
    expect(await page.evaluate(() => window.lesson.tree.follow)).toBe(true);
    await page.mouse.move(rect.x + 100, rect.y + 100);
    await page.mouse.down();
    await page.mouse.move(rect.x + 200, rect.y + 140, { steps: 4 });
    await page.mouse.up();
    expect(await page.evaluate(() => window.lesson.tree.follow)).toBe(false);
    await page.click('button[aria-label^="Follow the search"]');
    expect(await page.evaluate(() => window.lesson.tree.follow)).toBe(true);
    await shot(page, 'lesson-tree-1400-soma.png');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('on a phone: drawn, and still counting right', async () => {
    const d = data.dlx;
    const counts = nodeCounts(d.events);
    const { page, errors } = await open(d, { width: 390, height: 844 });
    for (const s of [0, 13, 40, d.events.length / 4]) {
      await page.evaluate((k) => window.lesson.seek(k), s);
      expect(await page.evaluate(() => window.lesson.tree.visibleNodeCount())).toBe(counts[s]);
    }
    await page.evaluate(() => window.lesson.seek(40));
    expect(await page.evaluate(() => window.lesson.inked(window.lesson.tree.canvas))).toBeGreaterThan(0.03);
    await shot(page, 'lesson-tree-390-dlx.png');
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** The line number lit at each step, from a golden file of tests/golden/lesson. */
function goldenLines(name) {
  const text = fs.readFileSync(path.join(repoRoot, 'tests', 'golden', 'lesson', `${name}.code`), 'utf8');
  return text.split('\n').filter((l) => /^\s*\d+\s/.test(l)).map((l) => Number(l.match(/-> (\d+)/)[1]));
}

describe('the pseudo-code on a page', () => {
  for (const [key, golden] of [['dlx', 'tiny_4x3_dlx'], ['bruijn', 'tiny_4x3_bruijn']]) {
    test(`${key}: the line lit on screen at every step is the golden one, forwards and back`, async () => {
      const d = data[key];
      const want = goldenLines(golden);
      expect(want.length).toBe(d.events.length / 4 + 1);
      const { page, errors } = await open(d);
      const lit = () => page.evaluate(() => {
        const items = [...document.querySelectorAll('#code li[data-line]')];
        const on = items.filter((li) => li.getAttribute('aria-current') === 'step');
        return on.length === 1 ? items.indexOf(on[0]) + 1 : -on.length;
      });
      for (let s = 0; s < want.length; s++) {
        expect(await lit(), `step ${s}`).toBe(want[s]);
        await page.evaluate(() => window.lesson.forward());
      }
      for (let s = want.length - 1; s >= 0; s -= 5) {
        await page.evaluate((k) => window.lesson.seek(k), s);
        expect(await lit(), `back at step ${s}`).toBe(want[s]);
      }
      await page.evaluate(() => window.lesson.seek(21));
      await shot(page, `lesson-code-1400-${key}.png`);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});

/** Per step of a recording: the rows a brute force over the board finds still in the matrix. */
function uncoveredByStep(d) {
  const rec = new TraceRecording(d.events.length / 4 + 1);
  rec.append(Int32Array.from(d.events));
  const t = d.table;
  const player = new TracePlayer(rec, { offsets: Int32Array.from(t.offsets), cells: Int32Array.from(t.cells) }, d.cellCount);
  const out = [];
  for (let s = 0; s <= rec.length; s++) {
    player.seek(s);
    out.push(uncoveredRows(t, player.grid));
  }
  return out;
}

describe('the dancing-links matrix on a page', () => {
  test('at every step the rows drawn are the uncovered rows and the rows placed; covering animates them away', async () => {
    const d = data.dlx;
    const want = uncoveredByStep(d);
    const { page, errors } = await open(d);
    const state = () => page.evaluate(async () => {
      await window.lesson.settled();
      const m = window.lesson.matrix;
      return { active: m.activeRows(), drawn: m.drawnRows(), placed: [...window.lesson.cover.placed] };
    });
    for (let s = 0; s < want.length; s++) {
      if (s > 0) await page.evaluate(() => window.lesson.forward());
      const st = await state();
      expect(st.active, `step ${s}`).toEqual(want[s]);
      expect(st.drawn, `step ${s}`).toEqual([...want[s], ...st.placed].sort((a, b) => a - b));
    }
    for (let s = want.length - 1; s >= 0; s -= 3) {
      await page.evaluate((k) => window.lesson.seek(k), s);
      expect((await state()).active, `back at step ${s}`).toEqual(want[s]);
    }
    // one step forward from the start: the rows that clash leave gradually (a frame later, on their way)
    await page.evaluate(() => window.lesson.seek(7));
    await page.evaluate(() => window.lesson.settled());
    const moving = await page.evaluate(() => new Promise((resolve) => {
      window.lesson.forward(); // step 8 places row O 1: 28 rows leave
      requestAnimationFrame(() => requestAnimationFrame(() => {
        const h = Array.from(window.lesson.matrix.shown);
        resolve({ between: h.filter((x) => x > 0.02 && x < 0.98).length, animating: window.lesson.matrix.animating });
      }));
    }));
    expect(moving.between).toBeGreaterThan(10);
    expect(moving.animating).toBe(true);
    await page.evaluate(() => window.lesson.seek(9));
    expect(await page.evaluate(() => window.lesson.inked(window.lesson.matrix.canvas))).toBeGreaterThan(0.05);
    await shot(page, 'lesson-matrix-1400-step9.png');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('on a phone: the matrix fits the width, drawn', async () => {
    const { page, errors } = await open(data.dlx, { width: 390, height: 844 });
    await page.evaluate(() => window.lesson.seek(12));
    await page.evaluate(() => window.lesson.settled());
    const box = await page.evaluate(() => window.lesson.matrix.canvas.getBoundingClientRect().toJSON());
    expect(box.right).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => window.lesson.inked(window.lesson.matrix.canvas))).toBeGreaterThan(0.03);
    await page.evaluate(() => window.lesson.matrix.canvas.scrollIntoView());
    await shot(page, 'lesson-matrix-390-step12.png');
    expect(errors).toEqual([]);
    await page.close();
  });
});
