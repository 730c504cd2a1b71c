// What a person sees, as QA found it: the editor's cell grids are touch-sized on a phone, the
// parity lesson's board reads as a flat chessboard, and a teaching tag stands beside the cell it
// names (never over it), a hole buried in a box showing through the pieces. Measured from the
// DOM and from screenshots, at 1400x860 and 390x844.
import { beforeAll, describe, expect, test } from 'vitest';
import { openPage, usePage } from './page-driver.js';
import { lessonReady, lessonUrl } from './lesson-steps.js';

const handle = usePage(); // 1400x860
let server;
beforeAll(() => ({ server } = handle));

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1400, height: 860 };

/** A fresh page at `size`, loaded; closed after `use(ui)`. */
async function withPage(size, use) {
  const ui = await openPage(server.url, size);
  try {
    expect(await ui.waitState(['ready', 'error'])).toBe('ready');
    await use(ui);
    expect(ui.errors).toEqual([]);
  } finally {
    await ui.browser.close();
  }
}

/**
 * Where two screenshots (PNG buffers of one size) differ by more than `tolerance` in a channel:
 * the number of such pixels and their bounding box ({count: 0, box: null} when none), decoded in
 * the page's own canvas. With `block` > 1 the box takes in only the blocks of block x block
 * pixels where `least` pixels or more differ: a view turned by hand goes on settling by a
 * fraction of a pixel, and flips a pixel here and there along the pieces' edges.
 */
function changedPixels(page, a, b, { tolerance = 12, block = 1, least = 1 } = {}) {
  return page.evaluate(async ([urlA, urlB, tol, size, min]) => {
    const pixels = async (url) => {
      const img = new Image();
      await new Promise((resolve, reject) => { img.onload = resolve; img.onerror = reject; img.src = url; });
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      return { width: img.width, data: ctx.getImageData(0, 0, img.width, img.height).data };
    };
    const [pa, pb] = await Promise.all([pixels(urlA), pixels(urlB)]);
    let count = 0;
    const blocks = new Map(); // block index -> pixels changed in it
    const across = Math.ceil(pa.width / size);
    for (let i = 0; i < pa.data.length; i += 4) {
      const d = Math.max(Math.abs(pa.data[i] - pb.data[i]), Math.abs(pa.data[i + 1] - pb.data[i + 1]), Math.abs(pa.data[i + 2] - pb.data[i + 2]));
      if (d <= tol) continue;
      count++;
      const x = (i / 4) % pa.width, y = Math.floor(i / 4 / pa.width);
      const k = Math.floor(y / size) * across + Math.floor(x / size);
      blocks.set(k, (blocks.get(k) || 0) + 1);
    }
    let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
    for (const [k, n] of blocks) {
      if (n < min) continue;
      const x = (k % across) * size, y = Math.floor(k / across) * size;
      left = Math.min(left, x); right = Math.max(right, x + size);
      top = Math.min(top, y); bottom = Math.max(bottom, y + size);
    }
    return { count, box: left < right ? { left, top, right, bottom } : null };
  }, [`data:image/png;base64,${a.toString('base64')}`, `data:image/png;base64,${b.toString('base64')}`, tolerance, block, least]);
}

/** The lightness (0-255, the mean of R, G and B) of a screenshot at each of `points` ([x, y] in its pixels). */
function pixelLightness(page, png, points) {
  return page.evaluate(async ([url, pts]) => {
    const img = new Image();
    await new Promise((resolve, reject) => { img.onload = resolve; img.onerror = reject; img.src = url; });
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const ratio = img.width / document.getElementById('viewport').getBoundingClientRect().width;
    return pts.map(([x, y]) => {
      const d = ctx.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data;
      return (d[0] + d[1] + d[2]) / 3;
    });
  }, [`data:image/png;base64,${png.toString('base64')}`, points]);
}

/** A screenshot of the 3-D view after the picture has settled. */
async function view(ui) {
  await ui.still();
  await ui.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return ui.page.locator('#viewport').screenshot();
}

const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Cell rectangles of a grid (#space-grid or #drawer-grid) on the screen. */
const cellRects = (page, grid) => page.$$eval(`#${grid} rect`, (rs) => rs.map((r) => {
  const b = r.getBoundingClientRect();
  return { width: b.width, height: b.height, right: b.right };
}));

describe("the editor's cell grids", () => {
  /** Set the box size as a person types it (the field, then Tab), and wait for the grid. */
  async function boxSize(page, x, y) {
    await page.fill('#editor-x', String(x));
    await page.press('#editor-x', 'Tab');
    await page.fill('#editor-y', String(y));
    await page.press('#editor-y', 'Tab');
    await page.waitForFunction((n) => document.querySelectorAll('#space-grid rect').length === n, x * y);
  }

  test('on a phone the cells are 44 px touch targets; wider boards shrink to fit the width, the widest scroll', async () => {
    // QA: 32 px board cells, 31 px piece cells; a 4x4 board in 136 of the 340 px given
    await withPage(PHONE, async (ui) => {
      const { page } = ui;
      await page.click('#new-puzzle'); // 5 x 4 x 1
      await page.waitForSelector('#editor-body:not([hidden])');
      const given = await page.$eval('#space-grid', (g) => g.parentElement.getBoundingClientRect().right);
      for (const [x, y] of [[5, 4], [4, 4]]) {
        await boxSize(page, x, y);
        for (const r of await cellRects(page, 'space-grid')) {
          expect(r.width).toBeGreaterThanOrEqual(44);
          expect(r.height).toBeGreaterThanOrEqual(44);
        }
      }
      await page.locator('#space-grid').scrollIntoViewIfNeeded();
      await ui.shot('look-1-phone-space-4x4.png');
      // the pentominoes' 10x6: as large as the width allows, all of it in the card
      await boxSize(page, 10, 6);
      const wide = await cellRects(page, 'space-grid');
      for (const r of wide) expect(r.width).toBeGreaterThanOrEqual(30);
      expect(Math.max(...wide.map((r) => r.right))).toBeLessThanOrEqual(given);
      // 40 columns would be 8 px cells: they stay 44 px in a frame that scrolls sideways (QA:
      // 20 columns gave 15 px cells), the page itself does not
      await boxSize(page, 40, 30);
      for (const r of await cellRects(page, 'space-grid')) expect(r.width).toBeGreaterThanOrEqual(44);
      const frame = await page.$eval('#space-grid', (g) => ({ scroll: g.parentElement.scrollWidth, client: g.parentElement.clientWidth, right: g.parentElement.getBoundingClientRect().right }));
      expect(frame.scroll).toBeGreaterThan(frame.client * 4);
      expect(frame.right).toBeLessThanOrEqual(PHONE.width);
      expect(await page.isVisible('.cell-grid-swipe')).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width); // no sideways scrolling
      await page.click('#draw-piece');
      await page.locator('#drawer-grid').scrollIntoViewIfNeeded();
      const piece = await cellRects(page, 'drawer-grid');
      expect(piece.length).toBe(36);
      for (const r of piece) expect(r.width).toBeGreaterThanOrEqual(44);
      await ui.shot('look-2-phone-drawer.png');
    });
  });

  test('on a touch phone a board wider than the screen scrolls sideways under a swipe; a tap or a drag up or down changes cells', async () => {
    await withPage({ ...PHONE, touch: true }, async (ui) => {
      const { page } = ui;
      for (const [id, v] of [['#new-x', 20], ['#new-y', 3], ['#new-z', 1]]) await page.fill(id, String(v));
      await page.tap('#new-puzzle');
      await page.waitForSelector('#editor-body:not([hidden])');
      await page.locator('#space-grid').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      for (const r of await cellRects(page, 'space-grid')) expect(r.width).toBeGreaterThanOrEqual(44);
      const holes = () => page.$$eval('#space-grid rect.hole', (rs) => rs.map((r) => `${r.dataset.x},${r.dataset.y}`).sort());
      const centre = async (x, y) => {
        const b = await page.locator(`#space-grid rect[data-x="${x}"][data-y="${y}"]`).boundingBox();
        return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
      };
      const cdp = await page.context().newCDPSession(page);
      const touch = async (points) => {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [points[0]] });
        for (const p of points.slice(1)) {
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
          await page.waitForTimeout(16);
        }
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      };
      // a tap: the cell tapped
      const a = await centre(1, 2);
      await page.touchscreen.tap(a.x, a.y);
      await page.waitForFunction(() => document.querySelectorAll('#space-grid rect.hole').length === 1);
      expect(await holes()).toEqual(['1,2']);
      // a swipe to the left: the frame scrolls, no cell changes
      const s = await centre(4, 1);
      await touch(Array.from({ length: 12 }, (_, k) => ({ x: s.x - k * 20, y: s.y })));
      // The swipe may fling on after the finger leaves, longer on a busy machine; a touch that
      // lands during the fling only stops it. So wait until the frame stands still (the same
      // scrollLeft over ten animation frames), not for a fixed time.
      await page.waitForFunction(async () => {
        const frame = document.querySelector('#space-grid').parentElement;
        const at = frame.scrollLeft;
        for (let k = 0; k < 10; k++) await new Promise((next) => requestAnimationFrame(next));
        return at > 0 && frame.scrollLeft === at;
      });
      expect(await page.$eval('#space-grid', (g) => g.parentElement.scrollLeft)).toBeGreaterThan(100);
      expect(await holes()).toEqual(['1,2']);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      // a drag down a column: its three cells. The column is the one nearest the frame's middle
      // as it stands: how far a swipe scrolls varies (a busy machine delivers fewer moves and a
      // shorter fling), and a fixed column can end up under the frame's edge.
      const column = await page.$eval('#space-grid', (g) => {
        const frame = g.parentElement.getBoundingClientRect(), middle = (frame.left + frame.right) / 2;
        const distance = (r) => Math.abs((r.getBoundingClientRect().left + r.getBoundingClientRect().right) / 2 - middle);
        const row = [...g.querySelectorAll('rect[data-y="0"]')].filter((r) => r.dataset.x !== undefined);
        return Number(row.reduce((best, r) => (distance(r) < distance(best) ? r : best)).dataset.x);
      });
      expect(column).toBeGreaterThan(1);
      const top = await centre(column, 2), bottom = await centre(column, 0);
      await touch(Array.from({ length: 10 }, (_, k) => ({ x: top.x, y: top.y + ((bottom.y - top.y) * k) / 9 })));
      await page.waitForFunction(() => document.querySelectorAll('#space-grid rect.hole').length === 4);
      expect(await holes()).toEqual(['1,2', `${column},0`, `${column},1`, `${column},2`].sort());
      await ui.shot('look-2d-phone-touch-wide-board.png');
    });
  });

  test("on a touch phone a 3-D piece's six 44 px tools wrap under its name: the page keeps its width", async () => {
    // QA: Edit a copy of the Soma cube made the page 478 px wide, cutting off every card's right edge
    await withPage({ ...PHONE, touch: true }, async (ui) => {
      const { page } = ui;
      await ui.pickLibrary('soma.txt');
      await page.tap('#edit-copy');
      await page.waitForSelector('#editor-body:not([hidden])');
      // no text box takes the focus: it would raise the keyboard over the new puzzle (QA)
      expect(await page.evaluate(() => document.activeElement.id)).toBe('editor-heading');
      // the tools laid out (a wait for a state, not a time: a failure below says what hid them)
      await page.waitForFunction(() => [...document.querySelectorAll('#editor-pieces li:first-child button.tool')].some((b) => b.getClientRects().length),
        null, { timeout: 30_000, polling: 50 }).catch(() => {});
      // (what hides a tool, when one is not laid out: the first hidden ancestor and the editor's state)
      const seen = await page.$$eval('#editor-pieces li:first-child button.tool', (bs) => bs.map((b) => {
        let hider = b;
        while (hider && hider.getClientRects().length) hider = hider.parentElement;
        const s = window.__polycube.state();
        return { width: b.getBoundingClientRect().width, hiddenBy: hider ? `${hider.tagName}#${hider.id}.${hider.className}` : '',
          editor: s.editor.active, phase: s.run.phase, title: s.editor.puzzle && s.editor.puzzle.title, body: document.body.className, mode: document.body.dataset.mode || '' };
      }));
      expect(seen).toHaveLength(6);
      for (const t of seen) expect(t.width, JSON.stringify(t)).toBeGreaterThanOrEqual(44);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await page.locator('#editor-pieces').scrollIntoViewIfNeeded();
      await ui.shot('look-2b-phone-touch-3d-pieces.png');
    });
  });

  test('on a touch phone the tools for a piece tapped in the 3-D view come up on screen', async () => {
    // QA: "Only this piece / Hide it" were about 2,850 px down the page, seven screens below
    await withPage({ ...PHONE, touch: true }, async (ui) => {
      const { page } = ui;
      await ui.pickLibrary('soma.txt');
      await page.tap('#solve');
      expect(await ui.waitState(['done', 'error'], 60_000)).toBe('done');
      await page.evaluate(() => window.scrollTo(0, 0));
      const box = await page.locator('#viewport canvas').boundingBox();
      await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForSelector('#picked-piece:not([hidden])');
      const tools = await page.locator('#picked-piece').boundingBox();
      expect(tools.y).toBeGreaterThanOrEqual(0);
      expect(tools.y + tools.height).toBeLessThanOrEqual(PHONE.height);
      await page.tap('#piece-isolate');
      expect(await page.evaluate(() => window.__polycube.state().view.isolate)).toBeGreaterThanOrEqual(0);
      await ui.shot('look-2c-phone-touch-picked.png');
    });
  });

  test('with a mouse on a desktop they stay as they were', async () => {
    const { ui, page } = handle;
    await page.click('#new-puzzle');
    await page.waitForSelector('#editor-body:not([hidden])');
    for (const r of await cellRects(page, 'space-grid')) expect(r.width).toBe(32); // 5x4: 34 px apart
    await page.click('#draw-piece');
    for (const r of await cellRects(page, 'drawer-grid')) expect(r.width).toBe(31); // 200 px for 6 cells
    await page.click('#drawer-cancel');
    await page.click('#editor-close');
    expect(ui.errors).toEqual([]);
  });
});

describe("the parity lesson's chessboard", () => {
  for (const [tag, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    test(`is flat on the board: nothing drawn past its edges, one colour per checkerboard class (${tag})`, async () => {
      // Dark cells once stood as raised blocks over the light cells beside them and past the
      // board's far edge. Lesson 4's sixth part shades the 15x14 hexomino board.
      await withPage(size, async (ui) => {
        const { page } = ui;
        await page.goto(lessonUrl(server.url, 'pruning', 5));
        await lessonReady(page, { id: 'pruning', part: 5 });
        const shaded = await view(ui);
        await page.$eval('#viewport canvas', (c) => { c.style.visibility = 'hidden'; });
        const background = await page.locator('#viewport').screenshot();
        await page.$eval('#viewport canvas', (c) => { c.style.visibility = ''; });
        await ui.shot(`look-3-parity-${tag}.png`);
        const drawn = await changedPixels(page, background, shaded);
        // where the board's cells are (the view's own projection of their centres)
        const { X, Y, centres } = await page.evaluate(() => {
          const p = window.__polycube.state().puzzles[window.__polycube.state().puzzleIndex];
          const v = document.getElementById('viewport').getBoundingClientRect();
          const out = [];
          for (let c = 0; c < p.xDim * p.yDim; c++) {
            const at = window.__polycube.boardCell(c);
            out.push(at ? [at.x - v.left, at.y - v.top] : null);
          }
          return { X: p.xDim, Y: p.yDim, centres: out };
        });
        expect(centres.every(Boolean)).toBe(true);
        const xs = centres.map((c) => c[0]), ys = centres.map((c) => c[1]);
        const pitch = (Math.max(...xs) - Math.min(...xs)) / (X - 1); // a cell's width on screen
        // nothing drawn past the board: the drawing stays within the outer cells' centres and a cell
        expect(drawn.box.left).toBeGreaterThanOrEqual(Math.min(...xs) - 1.2 * pitch);
        expect(drawn.box.right).toBeLessThanOrEqual(Math.max(...xs) + 1.2 * pitch);
        expect(drawn.box.top).toBeGreaterThanOrEqual(Math.min(...ys) - 1.2 * pitch);
        expect(drawn.box.bottom).toBeLessThanOrEqual(Math.max(...ys) + 1.2 * pitch);
        // each cell's centre: the dark ones are exactly one class of the checkerboard, 105 of 210
        const light = await pixelLightness(page, shaded, centres);
        const cut = (Math.min(...light) + Math.max(...light)) / 2;
        const dark = light.map((l) => l < cut);
        const classOf = (c) => ((c % X) + Math.floor(c / X)) % 2;
        const darkClass = classOf(dark.indexOf(true));
        expect(dark.filter(Boolean).length).toBe((X * Y) / 2);
        for (let c = 0; c < X * Y; c++) expect(dark[c], `cell ${c % X},${Math.floor(c / X)}`).toBe(classOf(c) === darkClass);
        expect(Math.max(...light) - Math.min(...light)).toBeGreaterThan(30);
      });
    });
  }
});

describe('a teaching tag stands beside the cell it names', () => {
  /**
   * Where a cell framed by "Frame the cell the most-constrained-hole rule would fill next" is
   * drawn: the screenshots of the view with the frame and without it differ there. The tag and
   * its leader are hidden for the two pictures (a tag over the cell hid part of the frame).
   */
  async function framedCell(ui) {
    const { page } = ui;
    const hide = await page.addStyleTag({ content: '#watch-label, #watch-leader { visibility: hidden !important; }' });
    expect(await page.isChecked('#watch-show-mch')).toBe(true);
    const framed = await view(ui);
    await page.uncheck('#watch-show-mch');
    const plain = await view(ui);
    await page.check('#watch-show-mch');
    await hide.evaluate((style) => style.remove());
    const { box } = await changedPixels(page, plain, framed, { block: 8, least: 4 });
    // the frame of one cell is drawn, all of it: a few dozen pixels across (not a sliver of it)
    expect(box).not.toBeNull();
    for (const across of [box.right - box.left, box.bottom - box.top]) {
      expect(across).toBeGreaterThanOrEqual(24);
      expect(across).toBeLessThan(160);
    }
    const origin = await page.$eval('#viewport', (v) => v.getBoundingClientRect());
    const tag = await page.$eval('#watch-label', (l) => l.getBoundingClientRect());
    return { cell: box, tag: { left: tag.left - origin.left, right: tag.right - origin.left, top: tag.top - origin.top, bottom: tag.bottom - origin.top } };
  }

  for (const [tag, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    test(`the troublesome hole: "hole made at step ..." leaves the hole in sight (${tag})`, async () => {
      // On a phone the tag once covered the hole cell itself.
      await withPage(size, async (ui) => {
        const { page } = ui;
        await ui.pickLibrary('pentominoes_10x6.txt');
        await page.fill('#opt-text', '-b 12 -l 1');
        await page.dispatchEvent('#opt-text', 'input');
        await page.click('#watch-record');
        await page.waitForFunction(() => !document.getElementById('watch-controls').hidden && /Recorded/.test(document.getElementById('watch-status').textContent), null, { timeout: 120_000 });
        await page.click('#watch-next-dead');
        await page.click('#watch-find-hole');
        await page.waitForFunction(() => /walls in a hole/.test(document.getElementById('watch-note').textContent), null, { timeout: 90_000 });
        if (!(await page.isChecked('#watch-show-mch'))) await page.check('#watch-show-mch');
        expect(await page.textContent('#watch-label')).toMatch(/^hole made at step [\d,]+$/);
        await page.evaluate(() => window.scrollTo(0, 0));
        await ui.shot(`look-4-lesson1-${tag}.png`);
        const { cell, tag: label } = await framedCell(ui);
        expect(overlap(label, cell), `tag ${JSON.stringify(label)} over the cell ${JSON.stringify(cell)}`).toBe(false);
        expect(await page.isVisible('#watch-leader')).toBe(true); // and a line from the tag to it
      });
    });
  }

  test("the Tetris Cube: a hole at the back shows through the pieces in front of it, its tag names its layer", async () => {
    // QA: "Find the most troublesome hole" named a cell buried inside the cube, and only the tag
    // showed. Filled in de Bruijn's order (-b 12) the search walls in a hole at the back, behind
    // the pieces as the view first stands.
    await withPage(DESKTOP, async (ui) => {
      const { page } = ui;
      await ui.pickLibrary('tetriscube.txt');
      await page.fill('#opt-text', '-b 12');
      await page.dispatchEvent('#opt-text', 'input');
      await page.click('#watch-record');
      await page.waitForFunction(() => !document.getElementById('watch-controls').hidden && /Recorded/.test(document.getElementById('watch-status').textContent), null, { timeout: 120_000 });
      // the recording's window filled: the page stopped the search and says so (QA: "Cancelled")
      expect(await page.textContent('#watch-status')).toMatch(/^Recorded 1,000,000 steps \(only the first/);
      await page.waitForFunction(() => /^Stopped after 1,000,000 steps, as many as a recording keeps, with [\d,]+ solutions? found by then\.$/.test(document.getElementById('status').textContent));
      await page.click('#watch-last');
      expect(await page.isDisabled('#watch-play')).toBe(true); // nothing left to play
      await page.click('#watch-first');
      await page.click('#watch-find-hole');
      await page.waitForFunction(() => /walls in a hole/.test(document.getElementById('watch-note').textContent), null, { timeout: 120_000 });
      const note = await page.textContent('#watch-note');
      const [, name, y, z] = note.match(/walls in a hole of 1 cell at cell ([A-Z]+(\d+) in layer (\d+))/);
      expect(Number(y)).toBe(4); // the back row: pieces stand between it and the view
      expect(note).toContain(`would fill cell ${name} next`); // the frame marks the hole
      expect(await page.textContent('#watch-label')).toMatch(new RegExp(`^hole made at step [\\d,]+, layer ${z} of 4$`));
      await page.check('#watch-show-mch');
      await ui.shot('look-5-tetris-hole-at-the-back.png');
      const { cell, tag: label } = await framedCell(ui); // its frame is seen through the pieces
      expect(overlap(label, cell), `tag ${JSON.stringify(label)} over the cell ${JSON.stringify(cell)}`).toBe(false);
    });
  });
});
