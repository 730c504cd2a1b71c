// The page on a phone (390x844, touch), driven by taps: Solve, the previous and next solution
// and Share are on the first screen, on the view (QA: Solve at y = 1,025, the solution buttons
// at ~2,078 and Share at ~2,493; nothing on the view itself), and stay there, with the view,
// as the page scrolls. On a wide screen with a mouse the bar is not shown (the panel has them).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPage } from './page-driver.js';
import { startServer } from './server.js';

let server;
let phone;
beforeAll(async () => {
  server = await startServer();
  phone = await openPage(server.url, { width: 390, height: 844, touch: true });
  expect(await phone.waitState(['ready', 'error'])).toBe('ready');
}, 120_000);
afterAll(async () => {
  if (phone) await phone.browser.close();
  if (server) await server.close();
});

const BAR = ['bar-solve', 'bar-prev', 'bar-index', 'bar-next', 'bar-share'];
/** Where the bar's controls are on the screen (client px), and the screen's size. */
const places = () => phone.page.evaluate((ids) => {
  const out = { width: window.innerWidth, height: window.innerHeight };
  for (const id of ids) {
    const r = document.getElementById(id).getBoundingClientRect();
    out[id] = { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, shown: r.width > 0 && r.height > 0 };
  }
  const legend = document.getElementById('overlay-bottom').getBoundingClientRect();
  out.legendBottom = legend.bottom;
  return out;
}, BAR);

describe('on a phone', () => {
  test('Solve, previous / next and Share are on the first screen, on the view, and stay as the page scrolls', async () => {
    const p = phone.page;
    expect(await phone.loadBy(() => p.selectOption('#library', 'soma.txt'))).toBe('ready');
    const first = await places();
    for (const id of BAR) {
      expect(first[id].shown, id).toBe(true);
      expect(first[id].top, id).toBeGreaterThanOrEqual(0);
      expect(first[id].bottom, id).toBeLessThanOrEqual(first.height);
      expect(first[id].right, id).toBeLessThanOrEqual(first.width);
    }
    for (const id of ['bar-solve', 'bar-prev', 'bar-next', 'bar-share']) expect(first[id].height, id).toBeGreaterThanOrEqual(44);
    expect(first.legendBottom).toBeLessThanOrEqual(first['bar-solve'].top); // the legend above the bar, not under it
    expect(await p.textContent('#bar-index')).toBe('–');
    expect(await p.isDisabled('#bar-prev')).toBe(true);

    await p.tap('#bar-solve');
    expect(await phone.waitState(['done', 'error'], 60_000)).toBe('done');
    expect(await phone.solutionCount()).toBe(480);
    expect(await p.textContent('#bar-index')).toBe('1 / 480');
    await p.tap('#bar-next');
    await p.tap('#bar-next');
    expect(await p.textContent('#bar-index')).toBe('3 / 480');
    expect(await p.textContent('#solution-index')).toBe('3'); // the panel's own counter agrees
    await p.tap('#bar-prev');
    expect(await p.textContent('#bar-index')).toBe('2 / 480');
    expect((await phone.hooks()).currentSolution).toBe(2);
    await phone.shot('phone-01-bar-390x844.png');

    // scrolled to the bottom of the page, the view and its bar are still on the screen
    await p.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await p.waitForFunction(() => window.scrollY > 1000);
    const scrolled = await places();
    for (const id of BAR) {
      expect(scrolled[id].top, id).toBeGreaterThanOrEqual(0);
      expect(scrolled[id].bottom, id).toBeLessThanOrEqual(scrolled.height);
    }
    await p.tap('#bar-next');
    expect(await p.textContent('#bar-index')).toBe('3 / 480');

    // Share: the link to what is on screen, said on the view
    await p.tap('#bar-share');
    await p.waitForSelector('#bar-note:not([hidden])');
    expect(await p.textContent('#bar-note')).toMatch(/Link copied|Copy the link/);
    expect(await p.inputValue('#link-text')).toMatch(new RegExp(`^${server.url}/?#p1:`));
    await phone.shot('phone-02-shared-390x844.png');
    expect(phone.errors).toEqual([]);
  });

  test('on a wide screen with a mouse the bar stays out of the way', async () => {
    const wide = await openPage(server.url, { width: 1400, height: 860 });
    try {
      expect(await wide.waitState(['ready', 'error'])).toBe('ready');
      expect(await wide.page.isVisible('#stage-bar')).toBe(false);
      expect(await wide.page.isVisible('#solve')).toBe(true);
    } finally {
      await wide.browser.close();
    }
  });
});
