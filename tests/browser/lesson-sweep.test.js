// Every lesson walked as a class would walk it, from its first part to its last (lesson/lessons.js,
// panels/lesson-screen.js): each part looked at on a projector-sized screen (1400x860) and on a
// phone (390x844), its narration within the view and no fact missing from it, the search tree
// showing as many nodes as the replay has made, lesson 2's question answered wrong then right,
// the last lesson's whole search started; Esc at the end gives the person's options back.
// A sweep of tens of seconds of Chromium's time: the extended tier runs it (tests/browser/tiers.js);
// lessons.test.js covers each kind of part in the core tier.
import { describe, expect, test } from 'vitest';
import { usePage } from './page-driver.js';
import { boxes, expectInside, lessonReady, lessonState, lessonUrl, mchQuestion, nextPart, shot } from './lesson-steps.js';
import { LESSONS } from '../../web/src/lesson/lessons.js';

const DESKTOP = { width: 1400, height: 860 };
const PHONE = { width: 390, height: 844 };

const handle = usePage(DESKTOP);

describe('every lesson', () => {
  test('from its first part to its last, on a wide screen and on a phone: the narration on the view, the tree in step', { timeout: 300_000 }, async () => {
    const { ui, page } = handle;
    // parts whose screens are kept (the lesson's key moments)
    const KEY = {
      backtracking: [3], 'dead-ends': [1], 'most-constrained': [4], 'exact-cover': [3], pruning: [4, 5],
      symmetry: [3], 'tree-size': [3], 'tetris-cube': [1],
    };
    await page.goto(lessonUrl(handle.server.url, LESSONS[0].id, 0));
    await lessonReady(page, { id: LESSONS[0].id, part: 0 });
    for (const lesson of LESSONS) {
      const began = Date.now();
      const count = lesson.steps.length;
      for (let part = 0; part < count; part++) {
        const s = await lessonState(page);
        expect([s.id, s.step, s.error]).toEqual([lesson.id, part, '']);
        for (const size of [DESKTOP, PHONE]) {
          if (size !== DESKTOP) await page.setViewportSize(size);
          const b = await boxes(page); // (reading the rectangles lays the page out at its new size)
          expectInside(b.caption, b.stage, `${lesson.id} part ${part} at ${size.width}`);
          expect(b.say, `${lesson.id} part ${part}`).not.toMatch(/(^|[\s(])\?|\{/); // no fact missing ('?' stands for one)
          if (KEY[lesson.id].includes(part)) await shot(page, `44-${LESSONS.indexOf(lesson)}-${lesson.id}-part-${part}-${size.width}.png`);
        }
        await page.setViewportSize(DESKTOP);
        // the tree shows as many nodes as the replay has made
        const tree = await page.evaluate(() => {
          const views = window.__polycube.lessonViews();
          const step = window.__polycube.state().watch.step;
          if (!views.tree || !window.__polycube.replayEvent(0)) return null;
          let placed = 0; // counted here: the placements (op 1) among the steps behind
          for (let i = 0; i < step; i++) if (window.__polycube.replayEvent(i).op === 1) placed++;
          return { drawn: views.tree.visibleNodeCount(), replay: 1 + placed };
        });
        if (tree) expect(tree.drawn, `${lesson.id} part ${part}`).toBe(tree.replay);
        // the check questions of lesson 2: a cell MCH would not take is explained, its own is right
        if (lesson.id === 'most-constrained' && lesson.steps[part].ask) await mchQuestion(page);
        // the last lesson: the whole search, on every worker
        if (lesson.steps[part].show && lesson.steps[part].show.solve && part === count - 2) {
          await page.click('#lesson-solve');
          await page.waitForFunction(() => /found so far|every one found/.test(document.getElementById('lesson-solve-line').textContent), null, { timeout: 30_000 });
          expect(await page.isDisabled('#lesson-solve')).toBe(true); // (until it is done)
        }
        if (part + 1 < count || LESSONS.indexOf(lesson) + 1 < LESSONS.length) await nextPart(page, part % 2 ? 'PageDown' : null);
      }
      console.log(`lesson ${lesson.id}: ${count} parts walked in ${((Date.now() - began) / 1000).toFixed(1)} s`);
    }
    // the end of the class: Esc leaves, and the person's options come back
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !window.__polycube.state().lesson.open);
    expect(await page.isVisible('.panel')).toBe(true);
    expect(await page.inputValue('#opt-text')).toBe('-r');
    expect(ui.errors).toEqual([]);
  });
});
