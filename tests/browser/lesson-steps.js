// Driving the lesson screen (panels/lesson-screen.js) in the browser tests: open a lesson at a
// part, wait until its searches are recorded and the part is shown, read what it shows.
import path from 'node:path';
import { expect } from 'vitest';
import { OUT } from './page-driver.js';
import { uncoveredRows } from '../js/helpers.js';
import { lessonById, lessonLink } from '../../web/src/lesson/lessons.js';

/** The address of a lesson's part (0-based) on the page served at `base`. */
export const lessonUrl = (base, id, part = 0) => new URL(lessonLink(lessonById(id), part), base).href;

/** The lesson slice, and the replay's step and length. */
export const lessonState = (page) => page.evaluate(() => {
  const s = window.__polycube.state();
  return { ...s.lesson, replayStep: s.watch.step, replaySteps: s.watch.steps, playing: s.watch.playing, options: s.options.text };
});

/**
 * Wait until the lesson `id` shows its part `part` (when given) with nothing left to wait for:
 * its searches recorded, the replay where the part puts it.
 */
export function lessonReady(page, { id = null, part = null } = {}, timeout = 120_000) {
  return page.waitForFunction(([wantId, wantPart]) => {
    const s = window.__polycube && window.__polycube.state();
    return !!s && s.lesson.open && !s.lesson.busy && !s.watch.recording && !(s.watch.compare && s.watch.compare.recording)
      && (wantId === null || s.lesson.id === wantId) && (wantPart === null || s.lesson.step === wantPart);
  }, [id, part], { timeout, polling: 50 });
}

/** Go to the next part (the button, or a key as a presenter would) and wait for it. */
export async function nextPart(page, key = null) {
  const before = await lessonState(page);
  if (key) await page.keyboard.press(key);
  else await page.click('#lesson-next');
  const last = before.step + 1 >= before.count;
  await page.waitForFunction(([id, step, last]) => {
    const s = window.__polycube.state().lesson;
    return last ? s.id !== id : s.step === step + 1;
  }, [before.id, before.step, last], { timeout: 10_000, polling: 20 });
  await lessonReady(page);
}

/** The replay's step as the narration says it ("Search step 12 of 71: ..."). */
export async function searchStep(page) {
  const m = (await page.textContent('#lesson-now')).match(/^Search step ([\d,]+) of ([\d,]+)/);
  return m ? [Number(m[1].replace(/,/g, '')), Number(m[2].replace(/,/g, ''))] : null;
}

/** Rectangles of the narration and of the view. */
export const boxes = (p) => p.evaluate(() => {
  const r = (sel) => document.querySelector(sel).getBoundingClientRect().toJSON();
  return { caption: r('#lesson-caption'), stage: r('.stage'), say: document.getElementById('lesson-say').textContent };
});

/** The narration `inner` lies within the view `outer` (what: the part, for the message). */
export function expectInside(inner, outer, what) {
  expect(inner.height, `${what}: the narration is shown`).toBeGreaterThan(20);
  expect(inner.left, what).toBeGreaterThanOrEqual(outer.left - 0.5);
  expect(inner.right, what).toBeLessThanOrEqual(outer.right + 0.5);
  expect(inner.top, what).toBeGreaterThanOrEqual(outer.top - 0.5);
  expect(inner.bottom, what).toBeLessThanOrEqual(outer.bottom + 0.5);
}

/** Settled drawing (the tree eases, pieces drop in), then a screenshot under tests/output/browser. */
export async function shot(p, name) {
  await p.waitForFunction(() => !(window.__polycube.animating && window.__polycube.animating()), null, { timeout: 5000, polling: 20 });
  await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await p.screenshot({ path: path.join(OUT, name) });
}

/** Lesson 2's question: a cell with more ways than MCH's is explained, the cell the search takes next is right. */
export async function mchQuestion(p) {
  expect(await p.textContent('#lesson-question')).toBe('Which cell will MCH fill next? Click it.');
  const { step, grid, table } = await p.evaluate(() => ({
    step: window.__polycube.state().watch.step, grid: window.__polycube.replayGrid(), table: window.__polycube.replayTable(),
  }));
  // the search's next choice: its next CHOOSE (op 3) event names the cell
  let right = -1;
  for (let i = step; right < 0; i++) {
    const ev = await p.evaluate((k) => window.__polycube.replayEvent(k), i);
    if (ev.op === 3) right = ev.a;
  }
  // the ways to cover each empty cell, counted here from the placements still possible
  const ways = new Array(grid.length).fill(0);
  for (const r of uncoveredRows(table, grid)) for (let k = table.offsets[r]; k < table.offsets[r + 1]; k++) ways[table.cells[k]]++;
  let wrong = -1;
  for (let c = 0; c < grid.length; c++) if (grid[c] === -1 && (wrong < 0 || ways[c] > ways[wrong])) wrong = c;
  expect(ways[wrong]).toBeGreaterThan(ways[right]);
  const click = async (cell) => {
    const at = await p.evaluate((c) => window.__polycube.boardCell(c), cell);
    await p.mouse.click(at.x, at.y);
  };
  await click(wrong);
  expect(await p.getAttribute('#lesson-feedback', 'class')).toMatch(/wrong/);
  expect(await p.textContent('#lesson-feedback')).toBe(`Not that one: cell ${cellLabel(wrong)} has ${ways[wrong]} ways to be covered, but cell ${cellLabel(right)} has only ${ways[right]}. MCH takes the fewest.`); // (the wrong cell has several)
  await shot(p, '44-2-most-constrained-question-wrong-1400.png');
  await click(right);
  expect(await p.getAttribute('#lesson-feedback', 'class')).toMatch(/right/);
  expect(await p.textContent('#lesson-feedback')).toBe(`Yes: cell ${cellLabel(right)} has only ${ways[right] === 1 ? '1 way' : `${ways[right]} ways`} to be covered; no other empty cell has fewer.`);
}

/** A cell of the 10x6 board by the names on its edges: the column's letter, the row's number. */
const cellLabel = (cell) => `${String.fromCharCode(65 + (cell % 10))}${Math.floor(cell / 10) + 1}`;
