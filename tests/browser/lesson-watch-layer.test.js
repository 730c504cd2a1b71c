// What the replay draws over the 3-D view (web/src/viewer/watch-layer.js) on the real page, on
// the tiny 2x2x3 box of three Soma pieces: while a level lists its candidates the one just listed
// is solid and those before it are outlines, and the tag says which way of how many it is; once
// one is placed the ways still to try are outlines and the tag says how many are left; the
// board's edges carry the column letters, row numbers and layers that cells are named by.
// Screenshots at 1400x860 and 390x844 (tests/output/browser/lesson-candidates-*.png).
import { beforeAll, describe, expect, test } from 'vitest';
import { openPage, usePage } from './page-driver.js';
import { recordForPage } from './lesson-harness.js';
import { TRACE_OP } from '../../web/src/worker/protocol.js';

const handle = usePage();
let ui;
let page;
beforeAll(() => ({ ui, page } = handle));

/** Record the tiny box with de Bruijn's order on the page, as a person would. */
async function recordTinyBox(p, u) {
  await u.pickLibrary('lesson_tiny_2x2x3.txt');
  await p.fill('#opt-text', '-r -b 3');
  await p.click('#watch-record');
  await p.waitForFunction(() => !document.getElementById('watch-controls').hidden && /Recorded/.test(document.getElementById('watch-status').textContent), null, { timeout: 60_000 });
}

/** Go to step s of the replay with the step slider. */
async function seek(p, s) {
  await p.evaluate((k) => {
    const scrub = document.getElementById('watch-scrub');
    scrub.value = String(k);
    scrub.dispatchEvent(new Event('input'));
  }, s);
  await p.waitForFunction((k) => new RegExp(`^Step ${k} of`).test(document.getElementById('watch-step').textContent), s);
}

const layer = (p) => p.evaluate(() => window.__polycube.watchLayer());

describe('candidates and coordinates over the 3-D view', () => {
  test('listing, trying and backing up: solid, outlines and "n of m left"; the edges lettered', async () => {
    const data = await recordForPage('lesson_tiny_2x2x3.txt', '-r -b 3 -t 1');
    const ops = [];
    for (let i = 0; i < data.events.length; i += 4) ops.push(data.events[i]);
    await recordTinyBox(page, ui);
    expect(await page.textContent('#watch-status')).toMatch(new RegExp(`Recorded ${ops.length} steps`));
    // the first level lists its candidates (steps 2..): the third one listed
    const firstCandidate = ops.indexOf(TRACE_OP.CANDIDATE) + 1;
    const count = data.events[(firstCandidate - 2) * 4 + 3]; // the choose event's b
    await seek(page, firstCandidate + 2);
    let l = await layer(page);
    expect(l.coordinates).toBe(2 + 2 + 3); // A B, 1 2, layer 1..3
    expect(l.solids).toBe(1);
    expect(l.outlines).toBe(3); // the two listed before, and the solid one's own edges
    expect(l.tag).toMatch(new RegExp(`^way 3 of ${count}: [TBP]$`));
    expect(await page.textContent('#watch-event')).toMatch(/^Candidate: [TBP]\.$/);
    await ui.shot('lesson-candidates-1400-listing.png');
    // the first placement: the ways still to try as outlines, none solid
    const firstPlace = ops.indexOf(TRACE_OP.PLACE) + 1;
    await seek(page, firstPlace);
    l = await layer(page);
    expect(l.solids).toBe(0);
    expect(l.outlines).toBe(count - 1);
    expect(l.tag).toBe(`trying 1 of ${count}: ${count - 1} left`);
    await ui.shot('lesson-candidates-1400-trying.png');
    // taken back: how many are left
    const firstRemove = ops.indexOf(TRACE_OP.REMOVE, firstPlace) + 1;
    expect(ops[firstRemove - 1]).toBe(TRACE_OP.REMOVE);
    await seek(page, firstRemove);
    l = await layer(page);
    expect(l.tag).toMatch(/^(\d+ of \d+ left|all \d+ tried)$/);
    // a dead end shows its own words, not the candidates'
    const dead = ops.findIndex((op) => op === TRACE_OP.NO_FIT || op === TRACE_OP.EXHAUSTED) + 1;
    await seek(page, dead);
    l = await layer(page);
    expect(l.outlines).toBe(0);
    expect(l.tag).toMatch(/nothing fits here|all tried/);
    // the words name cells as the edges do
    expect(await page.textContent('#watch-event')).toMatch(/cell [AB][12] in layer [123]/);
    // leaving the replay takes the labels away
    await page.click('#watch-close');
    expect((await layer(page)).coordinates).toBe(0);
    expect(ui.errors).toEqual([]);
  });

  test('on a phone', async () => {
    const phone = await openPage(handle.server.url, { width: 390, height: 844 });
    try {
      expect(await phone.waitState(['ready', 'error'])).toBe('ready');
      await recordTinyBox(phone.page, phone);
      await seek(phone.page, 4);
      const l = await layer(phone.page);
      expect(l.solids).toBe(1);
      await phone.page.evaluate(() => document.getElementById('viewport').scrollIntoView());
      await phone.shot('lesson-candidates-390-listing.png');
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.browser.close();
    }
  });
});
