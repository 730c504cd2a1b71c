// "Watch the search" driven as a person would: record the search of a puzzle, step forward and
// back (the board is exactly what the steps say), play, jump to a solution.
import { beforeAll, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { OUT, imageDifference, openPage, usePage } from './page-driver.js';

const handle = usePage();
let ui;
let page;
beforeAll(() => ({ ui, page } = handle));

const step = async () => Number((await page.textContent('#watch-step')).match(/Step ([\d,]+)/)[1].replace(/,/g, ''));

describe('watch the search', () => {
  test('record the Soma search, step forward and back exactly, play, jump to a solution', async () => {
    await ui.pickLibrary('soma.txt');
    await page.click('#watch-record');
    await page.waitForFunction(() => !document.getElementById('watch-controls').hidden && /Recorded/.test(document.getElementById('watch-status').textContent), null, { timeout: 60_000 });
    expect(await page.textContent('#watch-status')).toMatch(/Recorded [\d,]+ steps \(the whole search\)/);
    expect(await step()).toBe(0);
    expect((await ui.hooks()).piecesDrawn).toBe(0);
    const drawn = [];
    for (let k = 0; k < 6; k++) {
      await page.click('#watch-forward');
      drawn.push((await ui.hooks()).piecesDrawn);
    }
    expect(await step()).toBe(6);
    await ui.still(); // the last piece has dropped into place
    const screenAt6 = await page.evaluate(() => window.__polycube.sample());
    expect(await page.textContent('#watch-event')).toMatch(/^(Place|Take|Choose|Candidate|Dead end|Solution)/);
    await ui.shot('30-watch-soma-step-6.png');
    for (let k = 0; k < 6; k++) await page.click('#watch-back');
    expect(await step()).toBe(0);
    expect((await ui.hooks()).piecesDrawn).toBe(0);
    for (let k = 0; k < 6; k++) await page.click('#watch-forward');
    expect((await ui.hooks()).piecesDrawn).toBe(drawn[5]);
    await ui.still();
    const again = await page.evaluate(() => window.__polycube.sample());
    expect(again.drawnFraction).toBeCloseTo(screenAt6.drawnFraction, 3); // the same screen
    // play at the fastest speed for a moment
    await page.fill('#watch-speed', '10');
    await page.dispatchEvent('#watch-speed', 'input');
    await page.click('#watch-play');
    await page.waitForFunction(() => Number(document.getElementById('watch-step').textContent.match(/Step ([\d,]+)/)[1].replace(/,/g, '')) > 500, null, { timeout: 10_000 });
    await page.click('#watch-play'); // pause
    expect(await page.getAttribute('#watch-play', 'aria-label')).toBe('Play');
    await page.click('#watch-first');
    await page.click('#watch-next-solution');
    expect((await ui.hooks()).piecesDrawn).toBe(7);
    expect(await step()).toBeGreaterThan(7);
    await ui.shot('31-watch-soma-first-solution.png');
    await page.click('#watch-close');
    expect(await page.isHidden('#watch-controls')).toBe(true);
    expect(ui.errors).toEqual([]);
  });

  test('Solve with a replay open closes the replay and shows the solutions it finds', async () => {
    // QA: the stage stayed on replay step 5 (one piece, the "Step 5" badge) under "Solution 1 of 480"
    await ui.pickLibrary('soma.txt');
    await page.click('#watch-record');
    await page.waitForFunction(() => !document.getElementById('watch-controls').hidden && /Recorded/.test(document.getElementById('watch-status').textContent), null, { timeout: 60_000 });
    await page.evaluate(() => { const s = document.getElementById('watch-scrub'); s.value = '5'; s.dispatchEvent(new Event('input', { bubbles: true })); });
    await ui.still();
    expect(await step()).toBe(5);
    expect(await page.textContent('#stage-solution')).toBe('Step 5');
    expect((await ui.hooks()).piecesDrawn).toBeLessThan(7);
    const emptyBoards = await page.evaluate(() => window.__polycube.emptyBoardsShown);
    await page.click('#solve');
    // The replay's step is cleared as the search starts (the stage otherwise keeps the last
    // drawing until the first solution, ~200 ms: the replay's board and its badge stayed up).
    await page.waitForFunction((n) => window.__polycube.emptyBoardsShown > n, emptyBoards, { timeout: 10_000 });
    expect(await ui.waitState(['done', 'error'], 60_000)).toBe('done');
    await page.waitForFunction(() => /^Solution 1 of 480$/.test(document.getElementById('stage-solution').textContent), null, { timeout: 10_000 });
    expect(await page.isHidden('#watch-controls')).toBe(true);
    expect(await page.textContent('#watch-status')).toMatch(/Stopped watching: the search you started shows its solutions/);
    expect(await page.isHidden('#watch-close')).toBe(true);
    await ui.still();
    expect((await ui.hooks()).piecesDrawn).toBe(7); // the solution, not the replay's step
    expect(await page.evaluate(() => window.__polycube.state().watch.active)).toBe(false);
    await page.click('#next');
    await page.waitForFunction(() => /^Solution 2 of 480$/.test(document.getElementById('stage-solution').textContent), null, { timeout: 10_000 });
    expect((await ui.hooks()).piecesDrawn).toBe(7);
    await ui.shot('30b-watch-then-solve.png');
    // recording again starts a new replay, without the note of the last one
    await page.click('#watch-record');
    await page.waitForFunction(() => !document.getElementById('watch-controls').hidden && /Recorded/.test(document.getElementById('watch-status').textContent), null, { timeout: 60_000 });
    expect(await page.textContent('#watch-note')).toBe('');
    await page.click('#watch-close');
    expect(ui.errors).toEqual([]);
  });

  test("the troublesome hole (the first article's Figure 4): de Bruijn's order on 10x6 walls in a hole and pays for it", async () => {
    await ui.pickLibrary('pentominoes_10x6.txt');
    await page.fill('#opt-text', '-b 12 -l 20');
    await page.dispatchEvent('#opt-text', 'input');
    await page.click('#watch-record');
    await page.waitForFunction(() => !document.getElementById('watch-controls').hidden && /Recorded/.test(document.getElementById('watch-status').textContent), null, { timeout: 60_000 });
    await page.click('#watch-next-dead');
    expect(await page.textContent('#watch-event')).toMatch(/^Dead end/);
    await page.click('#watch-find-hole');
    await page.waitForFunction(() => /walls in a hole/.test(document.getElementById('watch-note').textContent), null, { timeout: 30_000 });
    const note = await page.textContent('#watch-note');
    const [, made, found, cleared] = note.match(/Step ([\d,]+) walls.*step ([\d,]+) and only clears it at step ([\d,]+)/).map((x) => Number(String(x).replace(/,/g, '')));
    expect(made).toBeLessThan(found);
    expect(found).toBeLessThan(cleared);
    expect(cleared - made).toBeGreaterThan(20);
    expect(await step()).toBe(made);
    expect(await page.textContent('#watch-label')).toMatch(/hole made at step/);
    expect(await page.isVisible('#watch-label')).toBe(true);
    await ui.shot('32-watch-troublesome-hole.png');
    expect(ui.errors).toEqual([]);
  });

  test('lessons open from the Learn menu and from their links: the volume lesson lands on a volume dead end', async () => {
    await page.click('#learn summary');
    await page.click('#learn a[data-lesson="volume"]');
    await page.waitForFunction(() => /Dead end by volume/.test(document.getElementById('watch-event').textContent), null, { timeout: 60_000 });
    expect(await page.textContent('#lesson-text')).toMatch(/^5\. Volume\./);
    expect(await page.textContent('#watch-label')).toMatch(/region of \d+/);
    const link = await page.evaluate(() => window.location.href);
    await ui.shot('33-lesson-volume.png');
    // the same lesson in a fresh browser, from its link
    const other = await openPage(link);
    await other.page.waitForFunction(() => /Dead end by volume/.test(document.getElementById('watch-event').textContent), null, { timeout: 60_000 });
    expect(await other.page.textContent('#lesson-text')).toMatch(/^5\. Volume\./);
    expect(other.errors).toEqual([]);
    await other.browser.close();
    // the parity lesson explains, and Solve proves it at once
    await page.click('#learn a[data-lesson="parity"]');
    await page.waitForFunction(() => /^4\. Parity/.test(document.getElementById('lesson-text').textContent) && document.body.dataset.state === 'ready');
    await page.click('#solve');
    expect(await ui.waitState(['done', 'error'])).toBe('done');
    expect(await page.textContent('#status')).toMatch(/[Ii]mpossible/);
  });
});

describe('lessons: the hole under MCH, two algorithms side by side, and replays on an injected clock', () => {
  test('lesson 1 from its link: the hole, the same position under MCH, then de Bruijn and MCH side by side', { timeout: 150_000, retry: 1 }, async () => {
    const href = await page.getAttribute('#learn a[data-lesson="hole"]', 'href');
    const other = await openPage(new URL(href, page.url()).href, { width: 1400, height: 860 });
    const p = other.page;
    try {
      await p.waitForFunction(() => /walls in a hole/.test(document.getElementById('watch-note').textContent), null, { timeout: 60_000 });
    } catch (err) {
      // seen once in CI (a full run, never alone in 10 runs): say where the lesson stood
      const where = await p.evaluate(() => ({
        state: document.body.dataset.state, url: location.href.slice(0, 80),
        status: document.getElementById('status').textContent, watchStatus: document.getElementById('watch-status').textContent,
        note: document.getElementById('watch-note').textContent, watch: JSON.stringify(window.__polycube.state().watch).slice(0, 600),
      })).catch((e) => String(e));
      console.log('lesson 1 from its link did not find its hole:', where, other.errors);
      await other.browser.close();
      throw err;
    }
    const note = await p.textContent('#watch-note');
    expect(note).toMatch(/most-constrained-hole rule \(MCH\) would fill cell [A-Z]+\d+ next, the cell with the fewest ways to cover it: none/);
    expect(await p.isChecked('#watch-show-mch')).toBe(true);
    expect(await p.textContent('#watch-mch')).toMatch(/would fill cell [A-Z]+\d+ next \(framed in blue\): no piece fits it/);
    expect(await p.textContent('#watch-status')).toMatch(/up to the solution limit/);
    expect(await p.textContent('#watch-estimate')).toMatch(/of a search estimated at [\d,]+ steps/);
    await other.shot('34-lesson-hole-mch.png');
    const at = Number((await p.textContent('#watch-step')).match(/Step ([\d,]+)/)[1].replace(/,/g, ''));
    // asked here, on the step that made the hole: it says so, and the hole stays drawn (QA: "go
    // to a dead end first", under the note explaining this very hole)
    await p.click('#watch-hole-origin');
    expect(await p.textContent('#watch-note')).toMatch(/^This is the step that made the hole shown\. Its dead end is at step [\d,]+/);
    expect(await p.evaluate(() => window.__polycube.state().watch.origin)).not.toBeNull();

    // what the page shows of its own run (the Solve card, the solutions, and so the link)
    const results = () => p.evaluate(() => {
      const s = window.__polycube.state();
      return { options: s.run.options, attempts: document.getElementById('stat-attempts').dataset.value, total: s.solutions.total, first: Array.from(s.solutions.store.get(0)).join(',') };
    });
    const ownResults = await results();
    await p.selectOption('#watch-compare-algo', 'mch');
    await p.click('#watch-compare');
    await p.waitForFunction(() => !document.getElementById('compare-view').hidden, null, { timeout: 120_000 });
    // the comparison's run does not take their place (QA: MCH's placements and first solution
    // under "-b 12 -l 20", and so in a link)
    expect(await results()).toEqual(ownResults);
    const cells = await p.$$eval('#compare-table tbody tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    const row = (name) => cells.find((r) => r[0] === name).slice(1).map((v) => Number(v.replace(/[,+]/g, '')));
    const [leftSteps, rightSteps] = row('steps recorded');
    expect(row('solutions')).toEqual([20, 20]); // both stopped at -l 20
    expect(rightSteps * 3).toBeLessThan(leftSteps); // MCH needs far fewer steps for the same 20 solutions
    // both sides show the same step, and move together
    const lineStep = async (k) => Number((await p.textContent(`#compare-line-${k}`)).match(/Step ([\d,]+)/)[1].replace(/,/g, ''));
    expect([await lineStep(0), await lineStep(1)]).toEqual([at, at]);
    for (let k = 0; k < 3; k++) await p.click('#watch-forward');
    expect([await lineStep(0), await lineStep(1)]).toEqual([at + 3, at + 3]);
    // the share of each board's pixels that stand out from the card behind it (--card #182135)
    const drawn = () => p.$$eval('.compare-board', (cs) => cs.map((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let seen = 0;
      for (let i = 0; i < d.length; i += 4) {
        const a = d[i + 3] / 255, mix = (v, card) => v * a + card * (1 - a);
        const diff = Math.abs(mix(d[i], 0x18) - 0x18) + Math.abs(mix(d[i + 1], 0x21) - 0x21) + Math.abs(mix(d[i + 2], 0x35) - 0x35);
        if (diff > 24) seen++;
      }
      return seen / (d.length / 4);
    }));
    expect((await drawn()).every((f) => f > 0.5)).toBe(true); // both boards are drawn
    // ... also at step 0, where every cell is empty (QA: both boards looked blank there)
    await p.click('#watch-first');
    expect([await lineStep(0), await lineStep(1)]).toEqual([0, 0]);
    expect((await drawn()).every((f) => f > 0.5)).toBe(true);
    await p.locator('#compare-view').scrollIntoViewIfNeeded();
    await other.shot('35-compare-step-0.png');
    await p.click('#watch-last');
    await p.locator('#compare-view').scrollIntoViewIfNeeded();
    await other.shot('35-compare-bruijn-mch-desktop.png');
    await p.setViewportSize({ width: 390, height: 844 });
    await p.locator('#compare-view').scrollIntoViewIfNeeded();
    await other.shot('35-compare-bruijn-mch-phone.png');
    // the lesson's options go when it is left (QA: a Soma solve then stopped at 20 solutions)
    expect(await p.inputValue('#opt-text')).toBe('-b 12 -l 20');
    await p.click('#watch-close');
    expect(await p.inputValue('#opt-text')).toBe('-r');
    expect(other.errors).toEqual([]);
    await other.browser.close();
  });

  test('each lesson plays on an injected clock: exactly speed x time steps, and back again lands on the identical screen', async () => {
    const other = await openPage(null, { width: 1400, height: 860 });
    const p = other.page;
    await p.clock.install(); // the page's clock (performance.now, requestAnimationFrame, timers) is the test's
    await p.goto(handle.server.url);
    expect(await other.waitState(['ready', 'error'])).toBe('ready');
    const stepNow = async () => Number((await p.textContent('#watch-step')).match(/Step ([\d,]+)/)[1].replace(/,/g, ''));
    const viewport = () => p.locator('#viewport').screenshot();
    for (const lesson of ['hole', 'constrained', 'volume']) {
      await p.evaluate(() => { document.getElementById('learn').open = true; });
      const title = await p.textContent(`#learn a[data-lesson="${lesson}"]`);
      await p.click(`#learn a[data-lesson="${lesson}"]`);
      // this lesson's recording (not the last one's "Recorded"), and its jump done
      await p.waitForFunction((t) => document.getElementById('lesson-text').textContent.startsWith(t)
        && /Recorded/.test(document.getElementById('watch-status').textContent) && !document.getElementById('watch-controls').hidden
        && !/Looking through/.test(document.getElementById('watch-note').textContent), title, { timeout: 120_000 });
      const start = await stepNow();
      await other.still();
      const before = await viewport();
      await p.fill('#watch-speed', '3'); // 5 steps per second
      await p.dispatchEvent('#watch-speed', 'input');
      // time stands still but for runFor (the page's fake time only goes forwards); screenshots
      // wait for a frame, so they are taken with the clock running and the replay paused
      await p.clock.pauseAt(await p.evaluate(() => Date.now() + 1000));
      await p.click('#watch-play');
      await p.clock.runFor(2050); // 2 s and a frame or two: 10.1-10.25 steps' worth
      await p.click('#watch-play'); // pause
      await p.clock.resume();
      expect(await stepNow()).toBe(start + 10);
      await other.shot(`36-lesson-${lesson}-played.png`);
      for (let k = 0; k < 10; k++) await p.click('#watch-back');
      expect(await stepNow()).toBe(start);
      await other.still(); // a lifted piece has risen away
      const after = await viewport();
      // pixels, not PNG bytes (two encodings of one picture may differ); a channel off by a few
      // 255ths is the software renderer's blending noise (seen: 0.009% of pixels, by 2/255)
      const diff = await imageDifference(p, before, after, 8);
      if (diff.share > 0) { // keep both for a look
        fs.writeFileSync(path.join(OUT, `36-lesson-${lesson}-before.png`), before);
        fs.writeFileSync(path.join(OUT, `36-lesson-${lesson}-after.png`), after);
      }
      console.log(`${lesson}: the screen after 10 steps forward and 10 back differs in ${(diff.share * 100).toFixed(3)}% of its pixels (at most ${diff.max}/255)`);
      expect(diff.share, `${lesson}: the screen after 10 steps forward and 10 back`).toBe(0);
      if (lesson === 'volume') expect(await p.textContent('#watch-label')).toMatch(/region of \d+/);
    }
    // the parity lesson: the argument with this board's numbers, the board shaded
    await p.evaluate(() => { document.getElementById('learn').open = true; });
    await p.click('#learn a[data-lesson="parity"]');
    await p.waitForFunction(() => !document.getElementById('parity-argument').hidden, null, { timeout: 30_000 });
    expect(await p.textContent('#parity-text')).toMatch(/105 dark and 105 light cells.*An odd number \(11\) of terms ±2 never adds up to 0/);
    await other.shot('37-lesson-parity.png');
    expect(other.errors).toEqual([]);
    await other.browser.close();
  });
});

describe('what a replay or a lesson leaves behind, and what its link holds (QA)', () => {
  const recorded = (p) => p.waitForFunction(() => !document.getElementById('watch-controls').hidden && /Recorded/.test(document.getElementById('watch-status').textContent), null, { timeout: 60_000 });

  test('a note about one step goes when the replay moves; the buttons go to either end', async () => {
    await ui.pickLibrary('soma.txt');
    await page.click('#watch-record');
    await recorded(page);
    expect(await page.isDisabled('#watch-first')).toBe(true);
    await page.click('#watch-last');
    const steps = Number((await page.textContent('#watch-step')).match(/of ([\d,]+)/)[1].replace(/,/g, ''));
    expect(await step()).toBe(steps);
    expect(await page.isDisabled('#watch-last')).toBe(true);
    expect(await page.isDisabled('#watch-forward')).toBe(true);
    await page.click('#watch-next-solution');
    expect(await page.textContent('#watch-note')).toBe('No solution after this step in the recording.');
    await page.click('#watch-first');
    expect(await step()).toBe(0);
    expect(await page.textContent('#watch-note')).toBe(''); // (QA: it stayed, over 480 solutions to come)
    await page.click('#watch-next-solution');
    expect(await page.textContent('#watch-note')).toBe('');
    await page.click('#watch-close');
  });

  test('a replay\'s link records the search again and opens at the same step; so does a lesson\'s', async () => {
    await ui.pickLibrary('soma.txt');
    await page.click('#watch-record');
    await recorded(page);
    for (let k = 0; k < 7; k++) await page.click('#watch-forward');
    await page.waitForFunction(() => /"step":7/.test(JSON.stringify(window.__polycube.state().watch)) && location.hash.length > 10);
    await page.waitForTimeout(400); // (the address follows the state within 250 ms)
    const other = await openPage(await page.evaluate(() => location.href));
    await recorded(other.page);
    expect(Number((await other.page.textContent('#watch-step')).match(/Step ([\d,]+)/)[1])).toBe(7);
    expect(await other.page.textContent('#watch-event')).toBe(await page.textContent('#watch-event'));
    await other.browser.close();
    await page.click('#watch-close');
    // a lesson at another step than its own
    await page.evaluate(() => { document.getElementById('learn').open = true; });
    await page.click('#learn a[data-lesson="volume"]');
    await page.waitForFunction(() => /Dead end by volume/.test(document.getElementById('watch-event').textContent), null, { timeout: 60_000 });
    await page.click('#watch-first');
    for (let k = 0; k < 3; k++) await page.click('#watch-forward');
    await page.waitForTimeout(400);
    const lesson = await openPage(await page.evaluate(() => location.href));
    await lesson.page.waitForFunction(() => /^5\. Volume/.test(document.getElementById('lesson-text').textContent)
      && /Recorded/.test(document.getElementById('watch-status').textContent) && /^Step 3 of/.test(document.getElementById('watch-step').textContent), null, { timeout: 60_000 });
    expect(lesson.errors).toEqual([]);
    await lesson.browser.close();
    await page.click('#watch-close');
    // lesson 1 two steps past its hole: the hole, its tag and story and the MCH frame come too
    await page.evaluate(() => { document.getElementById('learn').open = true; });
    await page.click('#learn a[data-lesson="hole"]');
    await page.waitForFunction(() => /walls in a hole/.test(document.getElementById('watch-note').textContent), null, { timeout: 60_000 });
    for (let k = 0; k < 2; k++) await page.click('#watch-forward');
    const at = await step();
    await page.waitForTimeout(400);
    const hole = await openPage(await page.evaluate(() => location.href));
    await hole.page.waitForFunction((n) => /walls in a hole/.test(document.getElementById('watch-note').textContent)
      && document.getElementById('watch-step').textContent.startsWith(`Step ${n.toLocaleString('en-US')} of`), at, { timeout: 60_000 });
    expect(await hole.page.isChecked('#watch-show-mch')).toBe(true);
    expect(await hole.page.textContent('#watch-label')).toMatch(/^hole made at step [\d,]+$/);
    expect(await hole.page.isVisible('#watch-label')).toBe(true);
    await hole.browser.close();
    await page.click('#watch-close');
  });

  test('a lesson reloaded still gives the person\'s options back when it is left', async () => {
    await ui.pickLibrary('soma.txt');
    await page.fill('#opt-text', '-r -i');
    await page.dispatchEvent('#opt-text', 'input');
    await page.evaluate(() => { document.getElementById('learn').open = true; });
    await page.click('#learn a[data-lesson="constrained"]');
    const landed = () => page.waitForFunction(() => /^2\. Most constrained/.test(document.getElementById('lesson-text').textContent)
      && /Recorded/.test(document.getElementById('watch-status').textContent) && !document.getElementById('watch-controls').hidden, null, { timeout: 60_000 });
    await landed();
    expect(await page.inputValue('#opt-text')).toBe('-m 12 -l 20');
    await page.waitForTimeout(400); // (the session follows within 250 ms)
    await page.reload();
    await landed();
    await page.click('#watch-close');
    expect(await page.inputValue('#opt-text')).toBe('-r -i'); // (QA: "-r", the page's default)
    await page.fill('#opt-text', '-r');
    await page.dispatchEvent('#opt-text', 'input');
  });

  test('Back from a lesson to a puzzle being edited leaves the lesson: its replay, hole and solutions go', async () => {
    await ui.newPuzzle(4, 4, 1);
    await page.selectOption('#tray-set', 'tetrominoes');
    await page.click('.tray-piece[title="Add T"]');
    await page.fill('#editor-title', 'Tiny square');
    await page.waitForFunction(() => window.__polycube.state().editor.puzzle.title === 'Tiny square');
    await page.waitForTimeout(500); // (the address follows the editor within 250 ms)
    await page.evaluate(() => { document.getElementById('learn').open = true; });
    await page.click('#learn a[data-lesson="volume"]');
    await page.waitForFunction(() => /Dead end by volume/.test(document.getElementById('watch-event').textContent), null, { timeout: 60_000 });
    await page.goBack();
    await page.waitForFunction(() => /^Tiny square \(editing\)/.test(document.getElementById('stage-title').textContent), null, { timeout: 30_000 });
    expect(await page.isHidden('#lesson-text')).toBe(true);
    expect(await page.isHidden('#watch-controls')).toBe(true);
    expect(await page.isHidden('#watch-label')).toBe(true);
    expect(await page.textContent('#stage-solution')).not.toMatch(/of 20/);
    const w = await page.evaluate(() => window.__polycube.state().watch);
    expect([w.active, w.lesson]).toEqual([false, '']);
    expect(await page.inputValue('#opt-text')).not.toBe('-o s -v 5 -l 20'); // the lesson's options went with it
    await ui.shot('38-back-from-lesson-to-editor.png');
    await page.click('#editor-close');
  });

});
