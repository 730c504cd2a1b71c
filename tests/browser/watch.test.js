// "Watch the search" driven as a person would: record the search of a puzzle, step forward and
// back (the board is exactly what the steps say), play, jump to a solution.
import { beforeAll, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { OUT, imageDifference, openPage, usePage } from './page-driver.js';
import { lessonReady, lessonUrl, nextPart, searchStep } from './lesson-steps.js';

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
    // play fast for a moment (1,000 steps a second: the whole search lasts a minute, so the
    // pause below lands before its end however slow the machine; at 10,000 a second a loaded
    // machine reached the end first, where nothing is left to pause)
    await page.fill('#watch-speed', '8');
    await page.dispatchEvent('#watch-speed', 'input');
    await page.click('#watch-play');
    await page.waitForFunction(() => Number(document.getElementById('watch-step').textContent.match(/Step ([\d,]+)/)[1].replace(/,/g, '')) > 500, null, { timeout: 30_000 });
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

  test('lessons open from the Learn menu and from their links: the counting lesson lands on a volume dead end', async () => {
    await page.click('#learn summary');
    await page.click('#learn a[data-lesson="pruning"]');
    await lessonReady(page, { id: 'pruning', part: 0 });
    expect(await page.textContent('#lesson-title')).toBe('Lesson 4 · Pruning by counting: volume and parity');
    await nextPart(page);
    expect(await page.textContent('#lesson-now')).toMatch(/Dead end by volume/);
    expect(await page.textContent('#lesson-say')).toMatch(/closes off a region of \d+ cells?: not a multiple of 5/);
    expect(await page.textContent('#watch-label')).toMatch(/region of \d+/);
    await page.waitForFunction(() => window.__polycube.linkSettled()); // (the address follows the state a moment later)
    const link = await page.evaluate(() => window.location.href);
    await ui.shot('33-lesson-volume.png');
    // the same part in a fresh browser, from its link
    const other = await openPage(link);
    await lessonReady(other.page, { id: 'pruning', part: 1 });
    expect(await other.page.textContent('#lesson-now')).toMatch(/Dead end by volume/);
    expect(other.errors).toEqual([]);
    await other.browser.close();
    // the last part: the parity argument with the hexominoes' numbers, no search needed
    await page.keyboard.press('End');
    await lessonReady(page, { id: 'pruning', part: 6 });
    expect(await page.textContent('#parity-text')).toMatch(/105 dark and 105 light cells.*An odd number \(11\) of terms ±2 never adds up to 0/);
    await page.click('#lesson-close');
    expect(await page.isHidden('#lesson-caption')).toBe(true);
    await page.click('#solve');
    expect(await ui.waitState(['done', 'error'])).toBe('done');
    expect(await page.textContent('#status')).toMatch(/[Ii]mpossible/);
  });
});

describe('lessons: the hole under MCH, two algorithms side by side, and replays on an injected clock', () => {
  test('lesson 1 from its link: the hole, the cell to click, the same position under MCH; lesson 2: de Bruijn and MCH side by side', { timeout: 150_000, retry: 1 }, async () => {
    const other = await openPage(lessonUrl(page.url(), 'dead-ends', 1), { width: 1400, height: 860 });
    const p = other.page;
    await lessonReady(p, { id: 'dead-ends', part: 1 });
    expect(await p.textContent('#lesson-say')).toMatch(/^This placement walls in a hole \(red\) of \d+ cells? that no piece can ever fill/);
    expect(await p.textContent('#watch-label')).toMatch(/^hole made at step [\d,]+$/);
    expect(await p.isVisible('#watch-label')).toBe(true);
    const [made] = await searchStep(p);
    // the question: a cell of the hole is right, another cell is explained
    await nextPart(p);
    expect(await p.textContent('#lesson-question')).toBe('Which cell can never be filled? Click it.');
    // the hole's cell, and the empty cell farthest from it (a hole of pentominoes has at most 4 cells)
    const { hole, far } = await p.evaluate(() => {
      const s = window.__polycube.state();
      const grid = window.__polycube.replayGrid();
      const h = s.watch.origin.cell;
      const dist = (c) => Math.abs((c % 10) - (h % 10)) + Math.abs(Math.floor(c / 10) - Math.floor(h / 10));
      let best = -1;
      for (let c = 0; c < grid.length; c++) if (grid[c] === -1 && (best < 0 || dist(c) > dist(best))) best = c;
      return { hole: h, far: best };
    });
    const clickCell = async (cell) => {
      const at = await p.evaluate((c) => window.__polycube.boardCell(c), cell);
      await p.mouse.click(at.x, at.y);
    };
    // an empty cell far from the hole: not that one, and why
    await clickCell(far);
    expect(await p.getAttribute('#lesson-feedback', 'class')).toMatch(/wrong/);
    expect(await p.textContent('#lesson-feedback')).toMatch(/^Not that one: cell .+ can still be covered/);
    await clickCell(hole);
    expect(await p.getAttribute('#lesson-feedback', 'class')).toMatch(/right/);
    expect(await p.textContent('#lesson-feedback')).toMatch(/^Yes: cell .+ lies in the hole/);
    await other.shot('34-lesson-hole-question.png');
    // found, cleared, and back where it was made: MCH would see 0 ways at once
    await nextPart(p);
    expect((await searchStep(p))[0]).toBeGreaterThan(made);
    await nextPart(p);
    expect(await p.textContent('#lesson-say')).toMatch(/^…and only here does it take back the piece that made the hole: [\d,]+ steps and [\d,]+ nodes? of the tree spent/);
    await nextPart(p);
    expect((await searchStep(p))[0]).toBe(made);
    expect(await p.textContent('#lesson-say')).toMatch(/the framed cell has 0\./);
    expect(await p.evaluate(() => window.__polycube.state().watch.showMch)).toBe(true);
    await other.shot('34-lesson-hole-mch.png');

    // lesson 2, its part with both searches: the page's own run is the lesson's, not the comparison's
    await p.goto(lessonUrl(page.url(), 'most-constrained', 4));
    await lessonReady(p, { id: 'most-constrained', part: 4 });
    expect(await p.evaluate(() => window.__polycube.state().run.options)).toBe('-m 12 -l 1 -t 1');
    const cells = await p.$$eval('#lesson-compare tbody tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    const row = (name) => cells.find((r) => r[0] === name).slice(1).map((v) => Number(v.replace(/,/g, '')));
    const [leftNodes, rightNodes] = row('nodes in the whole tree');
    expect(row('solutions found')).toEqual([1, 1]); // both stopped at -l 1
    expect(rightNodes).toBeGreaterThan(leftNodes * 2); // de Bruijn's tree, more than twice MCH's
    expect(await p.textContent('#lesson-say')).toMatch(new RegExp(`MCH \\(left\\): ${leftNodes.toLocaleString('en-US')} nodes.*\\(right\\): ${rightNodes.toLocaleString('en-US')} nodes`));
    // both sides stand at the same step and move together
    const rightStep = async () => Number((await p.textContent('#lesson-tree-count-1')).match(/its step ([\d,]+)/)[1].replace(/,/g, ''));
    await p.click('#lesson-first');
    expect([(await searchStep(p))[0], await rightStep()]).toEqual([0, 0]);
    for (let k = 0; k < 3; k++) await p.click('#lesson-step');
    expect([(await searchStep(p))[0], await rightStep()]).toEqual([3, 3]);
    await other.shot('35-compare-bruijn-mch-desktop.png');
    await p.setViewportSize({ width: 390, height: 844 });
    await p.locator('#lesson-compare').scrollIntoViewIfNeeded();
    await other.shot('35-compare-bruijn-mch-phone.png');
    // the lesson's options go when it is left (QA: a Soma solve then stopped at 20 solutions)
    expect(await p.inputValue('#opt-text')).toBe('-m 12 -l 1');
    await p.click('#lesson-close');
    expect(await p.inputValue('#opt-text')).toBe('-r');
    expect(other.errors).toEqual([]);
    await other.browser.close();
  });

  test('a lesson plays on an injected clock: exactly speed x time steps, and back again lands on the identical screen', async () => {
    const other = await openPage(null, { width: 1400, height: 860 });
    const p = other.page;
    await p.clock.install(); // the page's clock (performance.now, requestAnimationFrame, timers) is the test's
    const viewport = () => p.locator('#viewport').screenshot();
    for (const [lesson, part] of [['backtracking', 2], ['dead-ends', 1], ['pruning', 1]]) {
      await p.goto(lessonUrl(handle.server.url, lesson, part));
      await lessonReady(p, { id: lesson, part });
      const [start] = await searchStep(p);
      await other.still();
      const before = await viewport();
      await p.fill('#lesson-speed', '3'); // 5 steps per second
      await p.dispatchEvent('#lesson-speed', 'input');
      // time stands still but for runFor (the page's fake time only goes forwards); screenshots
      // wait for a frame, so they are taken with the clock running and the replay paused
      await p.clock.pauseAt(await p.evaluate(() => Date.now() + 1000));
      await p.click('#lesson-play');
      await p.clock.runFor(2050); // 2 s and a frame or two: 10.1-10.25 steps' worth
      await p.click('#lesson-play'); // pause
      await p.clock.resume();
      expect((await searchStep(p))[0]).toBe(start + 10);
      await other.shot(`36-lesson-${lesson}-played.png`);
      for (let k = 0; k < 10; k++) await p.click('#lesson-step-back');
      expect((await searchStep(p))[0]).toBe(start);
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
      if (lesson === 'pruning') expect(await p.textContent('#watch-label')).toMatch(/region of \d+/);
    }
    expect(other.errors).toEqual([]);
    await other.browser.close();
  });
});

describe('what a replay or a lesson leaves behind, and what its link holds (QA)', () => {
  // (a page just opened may not have its controls yet: a predicate that throws ends the wait)
  const recorded = (p) => p.waitForFunction(() => {
    const controls = document.getElementById('watch-controls');
    const status = document.getElementById('watch-status');
    return !!controls && !controls.hidden && !!status && /Recorded/.test(status.textContent);
  }, null, { timeout: 60_000 });

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

  test('a replay\'s link records the search again and opens at the same step; so does a lesson\'s', { timeout: 240_000 }, async () => {
    await ui.pickLibrary('soma.txt');
    await page.click('#watch-record');
    await recorded(page);
    for (let k = 0; k < 7; k++) await page.click('#watch-forward');
    await page.waitForFunction(() => /"step":7/.test(JSON.stringify(window.__polycube.state().watch)) && location.hash.length > 10);
    await page.waitForFunction(() => window.__polycube.linkSettled()); // (the address follows the state a moment later)
    const other = await openPage(await page.evaluate(() => location.href));
    await recorded(other.page);
    expect(Number((await other.page.textContent('#watch-step')).match(/Step ([\d,]+)/)[1])).toBe(7);
    expect(await other.page.textContent('#watch-event')).toBe(await page.textContent('#watch-event'));
    await other.browser.close();
    await page.click('#watch-close');
    // a lesson's part, with the replay stepped away from it: the link holds both
    await page.goto(lessonUrl(handle.server.url, 'pruning', 1));
    await lessonReady(page, { id: 'pruning', part: 1 });
    for (let k = 0; k < 3; k++) await page.click('#lesson-step-back');
    const [at] = await searchStep(page);
    await page.waitForFunction(() => window.__polycube.linkSettled());
    const lesson = await openPage(await page.evaluate(() => location.href));
    await lessonReady(lesson.page, { id: 'pruning', part: 1 });
    expect((await searchStep(lesson.page))[0]).toBe(at);
    expect(lesson.errors).toEqual([]);
    await lesson.browser.close();
    // lesson 1 two steps past its hole: the hole and its tag come too
    await page.goto(lessonUrl(handle.server.url, 'dead-ends', 1));
    await lessonReady(page, { id: 'dead-ends', part: 1 });
    for (let k = 0; k < 2; k++) await page.click('#lesson-step');
    const [past] = await searchStep(page);
    await page.waitForFunction(() => window.__polycube.linkSettled());
    const hole = await openPage(await page.evaluate(() => location.href));
    await lessonReady(hole.page, { id: 'dead-ends', part: 1 });
    expect((await searchStep(hole.page))[0]).toBe(past);
    expect(await hole.page.textContent('#watch-label')).toMatch(/^hole made at step [\d,]+$/);
    expect(await hole.page.isVisible('#watch-label')).toBe(true);
    await hole.browser.close();
    await page.click('#lesson-close');
  });

  test('a lesson reloaded still gives the person\'s options back when it is left', async () => {
    await ui.pickLibrary('soma.txt');
    await page.fill('#opt-text', '-r -i');
    await page.dispatchEvent('#opt-text', 'input');
    await page.evaluate(() => { document.getElementById('learn').open = true; });
    await page.click('#learn a[data-lesson="most-constrained"]');
    await lessonReady(page, { id: 'most-constrained' });
    expect(await page.inputValue('#opt-text')).toBe('-m 12 -l 1');
    await page.waitForFunction(() => window.__polycube.linkSettled()); // (the session follows a moment later)
    await page.reload();
    await lessonReady(page, { id: 'most-constrained' });
    await page.click('#lesson-close');
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
    await page.waitForFunction(() => window.__polycube.linkSettled()); // (the address follows the editor a moment later)
    await page.evaluate(() => { document.getElementById('learn').open = true; });
    await page.click('#learn a[data-lesson="pruning"]');
    await lessonReady(page, { id: 'pruning' });
    await nextPart(page);
    expect(await page.textContent('#lesson-now')).toMatch(/Dead end by volume/);
    await page.goBack();
    await page.waitForFunction(() => /^Tiny square \(editing\)/.test(document.getElementById('stage-title').textContent), null, { timeout: 30_000 });
    expect(await page.isHidden('#lesson-caption')).toBe(true);
    expect(await page.isHidden('#lesson-controls')).toBe(true);
    expect(await page.isHidden('#watch-controls')).toBe(true);
    expect(await page.isHidden('#watch-label')).toBe(true);
    expect(await page.textContent('#stage-solution')).not.toMatch(/of 20/);
    const w = await page.evaluate(() => window.__polycube.state());
    expect([w.watch.active, w.lesson.open, w.lesson.id]).toEqual([false, false, '']);
    expect(await page.inputValue('#opt-text')).not.toBe('-o s -v 5 -l 20'); // the lesson's options went with it
    await ui.shot('38-back-from-lesson-to-editor.png');
    await page.click('#editor-close');
  });

});
