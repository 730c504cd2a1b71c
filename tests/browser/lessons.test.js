// The lesson screen driven as a class would drive it (panels/lesson-screen.js, lesson/lessons.js):
// reached in one click from the first screen, on a projector-sized screen (1400x860) and on a
// phone (390x844), its narration within the view; the search tree's nodes, the lit line of the
// pseudo-code (golden files of tests/golden/lesson) and the dancing-links matrix following the
// replay, forwards, back and after a jump; check questions answered right and wrong; the keys of
// presentation software; links to a lesson that are not right. lesson-sweep.test.js (extended
// tier) walks every part of every lesson on both screens.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { usePage } from './page-driver.js';
import { repoRoot } from './server.js';
import { boxes, expectInside, lessonReady, lessonState, lessonUrl, mchQuestion, nextPart, searchStep, shot } from './lesson-steps.js';
import { uncoveredRows } from '../js/helpers.js';
import { LESSONS } from '../../web/src/lesson/lessons.js';
import { encodeState } from '../../web/src/share/link.js';

const DESKTOP = { width: 1400, height: 860 };
const PHONE = { width: 390, height: 844 };

const handle = usePage(DESKTOP);
let ui;
let page;
beforeAll(() => ({ ui, page } = handle));

/** Nodes of the tree after each step: the root and one per placement among the steps before. */
async function nodeCounts(p) {
  const ops = await p.evaluate(() => window.__polycube.replayOps());
  const counts = [1];
  for (const op of ops) counts.push(counts[counts.length - 1] + (op === 1 ? 1 : 0));
  return counts;
}

/** The tree as drawn: its node count and the replay's step. */
const treeNow = (p) => p.evaluate(() => {
  const v = window.__polycube.lessonViews();
  return { nodes: v.tree.visibleNodeCount(), step: window.__polycube.state().watch.step };
});

/** The number (1-based) of the pseudo-code line lit, or minus the count of lines lit when not one. */
const litLine = (p) => p.evaluate(() => {
  const items = [...document.querySelectorAll('#lesson-code li[data-line]')];
  const on = items.filter((li) => li.getAttribute('aria-current') === 'step');
  return on.length === 1 ? items.indexOf(on[0]) + 1 : -on.length;
});

/** The line lit at each step, from a golden file of tests/golden/lesson. */
function goldenLines(name) {
  const text = fs.readFileSync(path.join(repoRoot, 'tests', 'golden', 'lesson', `${name}.code`), 'utf8');
  return text.split('\n').filter((l) => /^\s*\d+\s/.test(l)).map((l) => Number(l.match(/-> (\d+)/)[1]));
}




describe('the lesson screen', () => {
  test('is one click away from the first screen, on a wide screen and on a phone', async () => {
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.goto(handle.server.url);
      expect(await ui.waitState(['ready', 'error'])).toBe('ready');
      const entry = await page.evaluate(() => document.getElementById('learn-open').getBoundingClientRect().toJSON());
      // visible without scrolling
      expect(entry.top).toBeGreaterThanOrEqual(0);
      expect(entry.bottom).toBeLessThanOrEqual(size.height);
      expect(await page.textContent('#learn-open')).toMatch(/^Learn how the solver works/);
      await shot(page, `40-first-screen-${size.width}.png`);
      await page.click('#learn-open');
      await lessonReady(page, { id: 'backtracking', part: 0 });
      expect(await page.textContent('#lesson-title')).toBe('Lesson 0 · What backtracking is');
      const b = await boxes(page);
      expectInside(b.caption, b.stage, `${size.width}: the first part`);
      expect(await page.isHidden('.panel')).toBe(true); // a screen of its own: the sidebar is gone
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !window.__polycube.state().lesson.open);
    }
    await page.setViewportSize(DESKTOP);
    expect(ui.errors).toEqual([]);
  });

  test("lesson 0: the tree's nodes and the lit line follow every step, forwards, back and after a click on a node; its question", async () => {
    await page.goto(lessonUrl(handle.server.url, 'backtracking', 0));
    await lessonReady(page, { id: 'backtracking', part: 0 });
    const counts = await nodeCounts(page);
    const golden = goldenLines('tiny_4x3_bruijn'); // the page's puzzle and options: lesson_tiny_4x3.txt -b 3
    expect(golden.length).toBe(counts.length);
    const steps = counts.length - 1;
    // a few steps from the keyboard, as a presenter would ('.' and ',')
    for (let s = 0; s < 3; s++) {
      expect(await treeNow(page), `step ${s}`).toEqual({ nodes: counts[s], step: s });
      expect(await litLine(page), `step ${s}`).toBe(golden[s]);
      await page.keyboard.press('.');
    }
    await page.keyboard.press(',');
    expect(await treeNow(page)).toEqual({ nodes: counts[2], step: 2 });
    // then every step with the buttons, forwards to the end and back to the start: what the tree
    // and the code show after each click (the page draws them as the click is handled)
    const walk = await page.evaluate(walkSteps, { from: 2, to: steps });
    expect(walk.map((w) => w.step)).toEqual(Array.from({ length: steps - 2 }, (_, k) => k + 3));
    walk.forEach((w) => expect(w, `step ${w.step}`).toEqual({ step: w.step, nodes: counts[w.step], lit: golden[w.step] }));
    expect(await searchStep(page)).toEqual([steps, steps]);
    await shot(page, '41-lesson-0-end-1400.png');
    const back = await page.evaluate(walkSteps, { from: steps, to: 0 });
    back.forEach((w) => expect(w, `back to step ${w.step}`).toEqual({ step: w.step, nodes: counts[w.step], lit: golden[w.step] }));
    expect(back[back.length - 1].step).toBe(0);
    // a click on a finished node of the tree: the replay jumps to the step that made it
    await page.evaluate(walkSteps, { from: 0, to: 60 });
    const target = await page.evaluate(async () => {
      const v = window.__polycube.lessonViews().tree;
      // (the tree eases towards the current node: its boxes hold once it is still)
      for (let k = 0; k < 200 && v.frame; k++) await new Promise((r) => requestAnimationFrame(r));
      const st = v.tree;
      for (let n = 1; n < st.visibleNodeCount(60); n++) {
        if (st.isFinished(n, 60) && st.size[n] > 1) {
          const box = v.screenBox(n, 'node');
          if (box) return { step: st.placeStep[n] + 1, box, rect: v.canvas.getBoundingClientRect().toJSON() };
        }
      }
      return null;
    });
    expect(target).not.toBeNull();
    await page.mouse.click(target.rect.x + target.box.x, target.rect.y + target.box.y);
    expect(await treeNow(page)).toEqual({ nodes: counts[target.step], step: target.step });
    expect(await litLine(page)).toBe(golden[target.step]);
    // the question: "No" is explained, "Yes" is right (this branch does lead to a solution)
    await page.goto(lessonUrl(handle.server.url, 'backtracking', 5));
    await lessonReady(page, { id: 'backtracking', part: 5 });
    expect(await page.textContent('#lesson-question')).toBe('Will this branch lead to a solution?');
    await page.click('#lesson-answer-no');
    expect(await page.getAttribute('#lesson-feedback', 'class')).toMatch(/wrong/);
    expect(await page.textContent('#lesson-feedback')).toBe('Not this time: yes, it does. Below it the search fills the whole board. You can only know by trying, and that is what the search does.');
    await shot(page, '42-lesson-0-question-wrong-1400.png');
    await page.click('#lesson-answer-yes');
    expect(await page.getAttribute('#lesson-feedback', 'class')).toMatch(/right/);
    expect(await page.textContent('#lesson-feedback')).toMatch(/^Right: yes, it does\. Below it the search fills the whole board\./);
    expect(ui.errors).toEqual([]);
  });

  test('lesson 3: dancing links: the lit line (golden) and the matrix, whose rows are the uncovered rows at every step', async () => {
    await page.goto(lessonUrl(handle.server.url, 'exact-cover', 0));
    await lessonReady(page, { id: 'exact-cover', part: 0 });
    const golden = goldenLines('tiny_4x3_dlx'); // lesson_tiny_4x3.txt -o s
    const table = await page.evaluate(() => window.__polycube.replayTable());
    const counts = await nodeCounts(page);
    expect(golden.length).toBe(counts.length);
    const matrix = () => page.evaluate(async () => {
      const m = window.__polycube.lessonViews().matrix;
      for (let k = 0; k < 100 && m.frame; k++) await new Promise((r) => requestAnimationFrame(r)); // the rows settle
      return { active: m.activeRows(), drawn: m.drawnRows(), grid: window.__polycube.replayGrid() };
    });
    const check = async (s, how) => {
      const m = await matrix();
      const want = uncoveredRows(table, m.grid);
      expect(m.active, `${how} step ${s}`).toEqual(want);
      // drawn: the rows left and the rows placed, one per piece on the board
      expect(m.drawn.filter((r) => !want.includes(r)).length, `${how} step ${s}`).toBe(new Set(m.grid.filter((v) => v >= 0)).size);
      expect(await litLine(page), `${how} step ${s}`).toBe(golden[s]);
      expect((await treeNow(page)).nodes, `${how} step ${s}`).toBe(counts[s]);
    };
    // every step forwards and back: the code, the tree and the matrix's rows as each click leaves them
    const same = (w) => {
      expect({ step: w.step, nodes: w.nodes, lit: w.lit }, `step ${w.step}`).toEqual({ step: w.step, nodes: counts[w.step], lit: golden[w.step] });
      expect(w.active, `step ${w.step}`).toEqual(uncoveredRows(table, w.grid));
    };
    await check(0, 'at the start:');
    const forwards = await page.evaluate(walkSteps, { from: 0, to: golden.length - 1, withMatrix: true });
    forwards.forEach(same);
    const backwards = await page.evaluate(walkSteps, { from: golden.length - 1, to: 0, withMatrix: true });
    backwards.forEach(same);
    // the rows drawn, once they have settled: the rows left and the rows placed, forwards and back
    for (const s of [8, 20, 40, golden.length - 1, 30, 9, 1]) {
      await page.evaluate(walkSteps, { from: (await lessonState(page)).replayStep, to: s });
      await check(s, 'drawn at');
      if (s === 8) await shot(page, '43-lesson-3-matrix-1400.png');
    }
    await page.setViewportSize(PHONE);
    if ((await lessonState(page)).replayStep > 0) await page.click('#lesson-first');
    for (let k = 0; k < 8; k++) await page.click('#lesson-step');
    await check(8, 'on a phone:');
    await page.locator('#lesson-matrix').scrollIntoViewIfNeeded();
    await shot(page, '43-lesson-3-matrix-390.png');
    await page.setViewportSize(DESKTOP);
    expect(ui.errors).toEqual([]);
  });

  test("lesson 2's question: a cell with more ways than MCH's is explained, the cell the search takes next is right", async () => {
    const lesson = LESSONS.find((l) => l.id === 'most-constrained');
    const part = lesson.steps.findIndex((s) => s.ask);
    expect(part).toBeGreaterThan(0);
    await page.goto(lessonUrl(handle.server.url, lesson.id, part));
    await lessonReady(page, { id: lesson.id, part });
    await mchQuestion(page);
    expect(ui.errors).toEqual([]);
  });

  test('the keys of presentation software, and full screen', async () => {
    await page.goto(lessonUrl(handle.server.url, 'symmetry', 0));
    await lessonReady(page, { id: 'symmetry', part: 0 });
    const part = async () => (await lessonState(page)).step;
    for (const key of ['Space', 'ArrowRight', 'PageDown']) await nextPart(page, key);
    expect(await part()).toBe(3);
    await page.keyboard.press('PageUp');
    await lessonReady(page, { part: 2 });
    await page.keyboard.press('ArrowLeft');
    await lessonReady(page, { part: 1 });
    await page.keyboard.press('End');
    await lessonReady(page, { part: 4 });
    await page.keyboard.press('Home');
    await lessonReady(page, { part: 0 });
    // p plays and pauses the search; . and , step it
    await page.keyboard.press('.');
    expect((await searchStep(page))[0]).toBe(1);
    await page.keyboard.press(',');
    expect((await searchStep(page))[0]).toBe(0);
    await page.keyboard.press('p');
    expect((await lessonState(page)).playing).toBe(true);
    await page.keyboard.press('p');
    expect((await lessonState(page)).playing).toBe(false);
    // f: the whole screen (the Fullscreen API); f again leaves it
    await page.keyboard.press('f');
    await page.waitForFunction(() => !!document.fullscreenElement && window.__polycube.state().lesson.fullscreen, null, { timeout: 5000 });
    expect(await page.textContent('#lesson-fullscreen')).toBe('Leave full screen');
    await page.keyboard.press('f');
    await page.waitForFunction(() => !document.fullscreenElement && !window.__polycube.state().lesson.fullscreen, null, { timeout: 5000 });
    // Esc leaves the lesson
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !window.__polycube.state().lesson.open);
    expect(ui.errors).toEqual([]);
  });

  test('a link to a lesson the page does not have, or to a part past its end, says so; a former lesson\'s link opens its part', async () => {
    const url = (view) => new URL(encodeState({ puzzle: { library: 'soma.txt', index: 0 }, options: '-r', view }), handle.server.url).href;
    await page.goto(url({ lesson: 'no-such-lesson' }));
    await page.waitForFunction(() => /does not have \("no-such-lesson"\)/.test(document.getElementById('notice-text').textContent), null, { timeout: 30_000 });
    expect(await page.evaluate(() => window.__polycube.state().lesson.open)).toBe(false);
    // a link to a lesson of the page before (its lessons had other names): the part that shows the same
    await page.goto(new URL(encodeState({ puzzle: { library: 'pentominoes_10x6.txt', index: 0 }, options: '-o s -v 5 -l 20', view: { lesson: 'volume' } }), handle.server.url).href);
    await lessonReady(page, { id: 'pruning', part: 1 });
    expect(await page.textContent('#lesson-now')).toMatch(/Dead end by volume/);
    await page.goto(url({ lesson: 'symmetry', lessonStep: 40 }));
    await lessonReady(page, { id: 'symmetry', part: 4 });
    expect(await page.textContent('#lesson-busy')).toBe('The link names part 41 of this lesson, which has 5: this is its last part.');
    await page.keyboard.press('Escape');
  });
});

/**
 * In the page: click the replay's step button (or step back) from step `from` to `to`, and say
 * after each click the step, the tree's node count and the pseudo-code line lit.
 */
function walkSteps({ from, to, withMatrix = false }) {
  const out = [];
  const button = document.getElementById(to > from ? 'lesson-step' : 'lesson-step-back');
  const items = [...document.querySelectorAll('#lesson-code li[data-line]')];
  for (let s = from; s !== to; s += to > from ? 1 : -1) {
    button.click();
    const on = items.filter((li) => li.getAttribute('aria-current') === 'step');
    const views = window.__polycube.lessonViews();
    const at = { step: window.__polycube.state().watch.step, nodes: views.tree.visibleNodeCount(), lit: on.length === 1 ? items.indexOf(on[0]) + 1 : -on.length };
    // the matrix (dancing links): the rows still in it, and the board they are read against
    if (withMatrix) Object.assign(at, { active: views.matrix.activeRows(), grid: window.__polycube.replayGrid() });
    out.push(at);
  }
  return out;
}
