// "Watch the search" driven as a person would: record the search of a puzzle, step forward and
// back (the board is exactly what the steps say), play, jump to a solution.
import { beforeAll, describe, expect, test } from 'vitest';
import { openPage, usePage } from './page-driver.js';

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
    const screenAt6 = await page.evaluate(() => window.__polycube.sample());
    expect(await page.textContent('#watch-event')).toMatch(/^(Place|Take|Choose|Candidate|Dead end|Solution)/);
    await ui.shot('30-watch-soma-step-6.png');
    for (let k = 0; k < 6; k++) await page.click('#watch-back');
    expect(await step()).toBe(0);
    expect((await ui.hooks()).piecesDrawn).toBe(0);
    for (let k = 0; k < 6; k++) await page.click('#watch-forward');
    expect((await ui.hooks()).piecesDrawn).toBe(drawn[5]);
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
