// Seeing the pieces (issue 8 §5) and the PNG / STL exports (§3), driven as a person would:
// point at and click pieces in the 3-D view and in the legend, hide and isolate them, names on
// the pieces, one layer and the flat layer grid of a 3-D solution, "go to solution n", the
// downloads parsed back, the phone layout (390x844), and the WebAssembly served compressed.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OUT, openPage, usePage } from './page-driver.js';
import { CHROMIUM_ARGS } from './server.js';
import { chromium } from 'playwright-core';
import { deflateSync } from 'fflate';
import { LINK_PREFIX, toBase64Url } from '../../web/src/share/link.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'polycube-view-'));
const handle = usePage();
let ui;
let page;
let server;
beforeAll(() => ({ ui, page, server } = handle));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const view = () => page.evaluate(() => window.__polycube.view());

async function download(selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const file = path.join(tmp, dl.suggestedFilename());
  await dl.saveAs(file);
  return { name: dl.suggestedFilename(), bytes: fs.readFileSync(file) };
}

/** Decode a PNG in the page and count the pixels that differ from the export's flat background. */
function pngStats(p, bytes) {
  return p.evaluate(async (b64) => {
    const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bin], { type: 'image/png' }));
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const ctx = c.getContext('2d');
    ctx.drawImage(bmp, 0, 0);
    const px = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
    const bg = [0x14, 0x1b, 0x2d];
    let drawn = 0;
    const colours = new Set();
    for (let i = 0; i < px.length; i += 4) {
      if (Math.abs(px[i] - bg[0]) + Math.abs(px[i + 1] - bg[1]) + Math.abs(px[i + 2] - bg[2]) > 30) drawn++;
      colours.add(((px[i] >> 4) << 8) | ((px[i + 1] >> 4) << 4) | (px[i + 2] >> 4));
    }
    return { width: bmp.width, height: bmp.height, drawnFraction: drawn / (bmp.width * bmp.height), colours: colours.size };
  }, bytes.toString('base64'));
}

/** Binary STL: 80-byte header, triangle count, 50 bytes per triangle (normal, 3 vertices, attr). */
function parseStl(buf) {
  expect(buf.length).toBeGreaterThan(84);
  const n = buf.readUInt32LE(80);
  expect(buf.length).toBe(84 + 50 * n);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let t = 0; t < n; t++) {
    for (let v = 0; v < 3; v++) {
      for (let a = 0; a < 3; a++) {
        const x = buf.readFloatLE(84 + t * 50 + 12 + v * 12 + a * 4);
        expect(Number.isFinite(x)).toBe(true);
        min[a] = Math.min(min[a], x);
        max[a] = Math.max(max[a], x);
      }
    }
  }
  return { triangles: n, min, max };
}

/** The raw bytes and headers of a GET (node's fetch would undo the compression). */
function rawGet(url, headers) {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, bytes: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('seeing the pieces', () => {
  test('the legend shows every piece with its shape and name before any solve', async () => {
    const items = await page.$$eval('#legend .legend-piece', (bs) => bs.map((b) => ({ name: b.textContent, cells: b.querySelectorAll('svg rect, svg polygon').length })));
    expect(items.map((i) => i.name)).toEqual(['F', 'I', 'L', 'N', 'P', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z']);
    for (const i of items) expect(i.cells).toBe(5); // five squares each
    await ui.shot('view-01-legend-before-solve.png');
  });

  test('pointing at a piece in the 3-D view highlights it; a click keeps it; hide and isolate', async () => {
    await page.click('#solve');
    expect(await ui.waitState(['done', 'error'], 60_000)).toBe('done');
    const before = await page.evaluate(() => window.__polycube.sample());
    const pt = await page.evaluate(() => window.__polycube.pointOfPiece(9)); // X
    expect(pt).not.toBeNull();
    await page.mouse.move(pt.x, pt.y);
    await page.waitForFunction(() => window.__polycube.view().hover === 9);
    // the others are dimmed: the picture gets darker, the X keeps its colour
    const lit = await page.evaluate(() => window.__polycube.sample());
    expect(lit.colours).toBeLessThan(before.colours + 40);
    expect(await page.getAttribute('#legend [data-piece="9"]', 'class')).toContain('lit');
    await ui.shot('view-02-hover-X.png');
    await page.mouse.click(pt.x, pt.y);
    await page.mouse.move(5, 5); // off the canvas: the click's highlight stays
    await page.waitForFunction(() => window.__polycube.view().hover === -1);
    expect((await view()).highlight).toBe(9);
    expect(await page.textContent('#picked-name')).toContain('X');
    await page.click('#piece-isolate');
    expect(await view()).toMatchObject({ isolate: 9, piecesDrawn: 1 });
    await ui.shot('view-03-isolate-X.png');
    await page.click('#piece-isolate'); // "Show the others"
    expect(await view()).toMatchObject({ isolate: -1, piecesDrawn: 12 });
    expect(await page.textContent('#piece-hide')).toBe('Hide it');
    await page.click('#piece-hide');
    expect(await view()).toMatchObject({ hidden: [9], piecesDrawn: 11 });
    expect(await page.textContent('#piece-hide')).toBe('Show it'); // (it shows the piece again)
    expect(await page.getAttribute('#legend [data-piece="9"]', 'class')).toContain('left-out');
    // the hidden piece cannot be pointed at any more
    expect(await page.evaluate(() => window.__polycube.pointOfPiece(9))).toBeNull();
    await page.click('#show-all');
    expect(await view()).toMatchObject({ hidden: [], isolate: -1, highlight: -1, piecesDrawn: 12 });
    // the legend does the same: click a piece there
    await page.click('#legend [data-piece="2"]');
    expect((await view()).highlight).toBe(2);
    await page.click('#legend [data-piece="2"]');
    expect((await view()).highlight).toBe(-1);
  });

  test('names on the pieces, when asked', async () => {
    const plain = await page.evaluate(() => window.__polycube.sample());
    await page.check('#view-labels');
    expect((await view()).labelsDrawn).toBe(12);
    const labelled = await page.evaluate(() => window.__polycube.sample());
    expect(labelled.drawnFraction).toBeGreaterThanOrEqual(plain.drawnFraction);
    await ui.shot('view-04-labels-10x6.png');
    await page.uncheck('#view-labels');
    expect((await view()).labelsDrawn).toBe(0);
  });

  test('go to solution n: a number goes there, anything else is marked and nothing breaks', async () => {
    await page.fill('#goto-n', '1234');
    await page.press('#goto-n', 'Enter');
    expect(await page.textContent('#solution-index')).toBe('1,234');
    expect(await page.getAttribute('#goto-n', 'aria-invalid')).toBe('false');
    for (const bad of ['0', '2340', 'abc', '-3', '1.5', '', '99999999999999999999']) {
      await page.fill('#goto-n', bad);
      await page.click('#goto-go');
      expect(await page.getAttribute('#goto-n', 'aria-invalid')).toBe('true');
      expect(await page.isVisible('#goto-error')).toBe(true);
      expect(await page.textContent('#solution-index')).toBe('1,234'); // still where it was
    }
    expect(await page.textContent('#goto-error')).toMatch(/1 to 2,339/);
    await ui.shot('view-05-goto-invalid.png');
    await page.fill('#goto-n', '2,339');
    await page.press('#goto-n', 'Enter');
    expect(await page.textContent('#solution-index')).toBe('2,339');
    expect(await page.isVisible('#goto-error')).toBe(false);
  });

  test('the keyboard turns and zooms the view it has selected; once it leaves, the arrows step the solutions', async () => {
    const canvas = '#viewport canvas';
    const index = await page.textContent('#solution-index');
    await page.focus('#export-stl'); // the last control before the view, in the page's order
    await page.keyboard.press('Tab');
    expect(await page.$eval(canvas, (c) => document.activeElement === c)).toBe(true);
    expect(await page.$eval(canvas, (c) => getComputedStyle(c).outlineStyle)).toBe('solid'); // a visible focus ring
    expect(await page.textContent('#view-help')).toMatch(/^View selected: arrow keys turn it · \+ − zoom/);
    expect(await page.getAttribute(canvas, 'aria-label')).toMatch(/arrow keys to rotate/);
    const camera = () => page.evaluate(() => window.__polycube.cameraNow());
    await page.keyboard.press('ArrowRight');
    const a = await camera();
    await page.keyboard.press('ArrowRight');
    const b = await camera();
    expect((b[0] - a[0] + 360) % 360).toBe(15); // 15 degrees around
    expect(b[1]).toBe(a[1]);
    await page.keyboard.press('ArrowUp');
    const c = await camera();
    expect(c[1] - b[1]).toBe(10); // 10 degrees higher
    await page.keyboard.press('+');
    const d = await camera();
    expect(d[2]).toBeLessThan(c[2]); // closer
    await page.keyboard.press('-');
    expect(Math.abs((await camera())[2] - c[2])).toBeLessThanOrEqual(1);
    expect(await page.textContent('#solution-index')).toBe(index); // the arrows turned, they did not step
    // the state (and so a link) follows the keyboard's turns as it follows a drag
    await page.waitForFunction((want) => JSON.stringify(window.__polycube.state().view.camera) === JSON.stringify(want), await camera());
    await ui.shot('view-05b-keyboard-focus.png');
    // Escape leaves the view: the arrows browse the solutions again
    await page.keyboard.press('Escape');
    expect(await page.$eval(canvas, (el) => document.activeElement === el)).toBe(false);
    expect(await page.textContent('#view-help')).toMatch(/^Drag to rotate/);
    await page.keyboard.press('ArrowLeft');
    expect(await page.textContent('#solution-index')).not.toBe(index);
    await page.keyboard.press('ArrowRight');
    expect(await page.textContent('#solution-index')).toBe(index);
    await page.click('#reset-view');
  });

  test('the view downloads as a PNG with its drawing, the solution as an STL', async () => {
    const png = await download('#export-png');
    expect(png.name).toMatch(/solution-2339\.png$/);
    expect(png.bytes.subarray(1, 4).toString()).toBe('PNG');
    const st = await pngStats(page, png.bytes);
    const canvas = await page.evaluate(() => window.__polycube.sample());
    expect(st.width).toBe(canvas.width);
    expect(st.drawnFraction).toBeGreaterThan(0.15); // the board and 12 pieces, not a blank image
    expect(st.colours).toBeGreaterThan(12);
    fs.writeFileSync(path.join(OUT, 'view-06-exported.png'), png.bytes); // the downloaded file itself, to look at

    const stl = await download('#export-stl');
    expect(stl.name).toMatch(/\.stl$/);
    const m = parseStl(stl.bytes);
    // 12 pentominoes in a 10x6 board at 10 mm a cell, 0.25 mm in from every side (closed solids:
    // tests/js/stl-solid.test.js)
    expect(m.min[0]).toBeCloseTo(0.25, 1);
    expect(m.min[1]).toBeCloseTo(0.25, 1);
    expect(m.min[2]).toBeCloseTo(0.25, 1);
    expect(m.max[0]).toBeCloseTo(99.75, 1);
    expect(m.max[1]).toBeCloseTo(59.75, 1);
    expect(m.max[2]).toBeCloseTo(9.75, 1);
    expect(m.triangles).toBeGreaterThan(12 * 12); // every piece at least a box
    expect(await page.textContent('#export-status')).toContain(`${m.triangles.toLocaleString('en-US')} triangles`);
    // one piece isolated: the STL holds only that piece
    await page.click('#legend [data-piece="1"]'); // I
    await page.click('#piece-isolate');
    const one = parseStl((await download('#export-stl')).bytes);
    const ext = [0, 1, 2].map((a) => one.max[a] - one.min[a]).sort((a, b) => a - b);
    expect(ext[0]).toBeCloseTo(9.5, 1);
    expect(ext[1]).toBeCloseTo(9.5, 1);
    expect(ext[2]).toBeCloseTo(49.5, 1);
    expect(one.triangles).toBeGreaterThanOrEqual(12);
    expect(one.triangles).toBeLessThan(m.triangles / 6);
    await page.click('#show-all');
  });

  test('a 3-D solution: this layer only, and the flat layer grid', async () => {
    await ui.pickLibrary('soma.txt');
    expect(await page.isVisible('#view-layer')).toBe(true);
    await page.click('#solve');
    expect(await ui.waitState(['done', 'error'], 60_000)).toBe('done');
    const all = await page.evaluate(() => window.__polycube.sample());
    await page.selectOption('#view-layer', '2'); // the top layer only
    expect((await view()).layer).toBe(2);
    const top = await page.evaluate(() => window.__polycube.sample());
    expect(top.drawnFraction).toBeLessThan(all.drawnFraction);
    expect((await view()).piecesDrawn).toBeLessThanOrEqual(7);
    await ui.shot('view-07-soma-top-layer.png');
    await page.check('#view-flat');
    expect(await page.isVisible('#layer-grid')).toBe(true);
    const layers = await page.$$eval('#layer-grid .layer-fig', (fs) => fs.map((f) => ({
      caption: f.querySelector('.layer-caption').textContent,
      cells: f.querySelectorAll('rect').length,
      names: [...f.querySelectorAll('text')].map((t) => t.textContent),
    })));
    expect(layers.map((l) => l.caption)).toEqual(['Layer 1 (bottom)', 'Layer 2', 'Layer 3 (top)']);
    for (const l of layers) {
      expect(l.cells).toBe(9);
      expect(l.names.length).toBe(9);
    }
    // every piece's cells are named: 27 names, 7 distinct pieces
    const names = layers.flatMap((l) => l.names);
    expect(new Set(names).size).toBe(7);
    await ui.shot('view-08-soma-flat-layers.png');
    // the picture is of what is on screen: the flat grid (QA: the 3-D view was saved)
    const flatPng = await download('#export-png');
    const flat = await pngStats(page, flatPng.bytes);
    const gridBox = await page.locator('#layer-grid .layer-fig svg').first().boundingBox();
    const sheet = await page.$eval('#layer-grid', (b) => {
      const svgs = [...b.querySelectorAll('.layer-fig svg')].map((x) => x.getBoundingClientRect());
      return { width: Math.max(...svgs.map((r) => r.right)) - Math.min(...svgs.map((r) => r.left)) };
    });
    expect(flat.width).toBeGreaterThanOrEqual(Math.floor(sheet.width)); // the three layers side by side
    expect(flat.width).toBeLessThan((await page.evaluate(() => window.__polycube.sample())).width); // not the canvas
    expect(flat.drawnFraction).toBeGreaterThan(0.3); // 27 coloured cells fill most of it
    expect(flat.colours).toBeGreaterThan(7);
    expect(gridBox.width).toBeGreaterThan(0);
    fs.writeFileSync(path.join(OUT, 'view-08b-flat-exported.png'), flatPng.bytes);
    await page.click('#layer-grid [data-layer="0"]');
    expect((await view()).layer).toBe(0);
    await page.uncheck('#view-flat');
    await page.selectOption('#view-layer', '-1');
    expect((await view()).piecesDrawn).toBe(7);
    await page.check('#view-labels');
    await ui.shot('view-09-soma-labels.png');
    await page.uncheck('#view-labels');
  });

  test('while a replay is on the stage, the solutions wait and the arrows step the replay', async () => {
    // (QA: › and the arrows changed "Solution 4 of 480" while the stage stayed on replay step 5)
    await ui.pickLibrary('soma.txt');
    await page.click('#solve');
    expect(await ui.waitState(['done', 'error'], 60_000)).toBe('done');
    await page.click('#next');
    await page.click('#next'); // solution 3: the stage comes back to it after the replay (QA: to 1)
    const shownGrid = () => page.evaluate(() => { const sol = window.__polycube.state().solutions; return Array.from(sol.store.get(sol.shown)); });
    const three = await shownGrid();
    await page.click('#watch-record');
    await page.waitForFunction(() => !document.getElementById('watch-controls').hidden && /Recorded/.test(document.getElementById('watch-status').textContent), null, { timeout: 60_000 });
    for (let k = 0; k < 5; k++) await page.click('#watch-forward');
    const index = await page.textContent('#solution-index');
    expect(await page.isDisabled('#next')).toBe(true);
    expect(await page.isDisabled('#solution-slider')).toBe(true);
    expect(await page.isVisible('#nav-replay')).toBe(true);
    await page.locator('#viewport').click({ position: { x: 5, y: 5 } }); // the focus on the stage, as a person's
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    expect(await page.textContent('#stage-solution')).toBe('Step 6');
    expect(await page.textContent('#view-help')).toMatch(/← → replay steps$/);
    expect(await page.textContent('#solution-index')).toBe(index);
    await page.fill('#goto-n', '3');
    await page.press('#goto-n', 'Enter');
    expect(await page.textContent('#goto-error')).toMatch(/shows the replay: press "Stop watching" first/);
    await ui.shot('view-05b-replay-solutions-wait.png');
    await page.click('#watch-close');
    expect(await page.isHidden('#nav-replay')).toBe(true);
    expect(await page.textContent('#stage-solution')).toMatch(/^Solution \d+ of 480$/);
    expect(await shownGrid()).toEqual(three);
    await page.locator('#viewport').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('ArrowRight');
    expect(await page.textContent('#stage-solution')).toMatch(/^Solution \d+ of 480$/);
    expect(await page.textContent('#solution-index')).not.toBe(index);
  });
});

describe('many pieces', () => {
  test('names in a box keep apart on screen, also when the view turns (QA: "B" lay on "L" in the Tetris Cube)', async () => {
    await ui.pickLibrary('tetriscube.txt');
    // the library's name for it, not its file's heading (QA: "Tetris Cube Puzzle Definition")
    expect(await page.$eval('#library', (s) => s.options[s.selectedIndex].textContent)).toBe('Tetris Cube');
    expect(await page.textContent('#stage-title')).toBe('Tetris Cube');
    expect(await page.$$eval('#library option', (os) => os.filter((o) => /Puzzle Definition/.test(o.textContent)).length)).toBe(0);
    await page.fill('#opt-limit', '1');
    await page.click('#solve');
    expect(await ui.waitState(['done', 'error'], 60_000)).toBe('done');
    await page.check('#view-labels');
    const overlaps = async () => {
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const all = (await view()).labelBoxes;
      expect(all.length).toBe(12);
      const boxes = all.filter((b) => !b.covered && b.w !== undefined);
      const hits = [];
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i], boxes[j]];
          if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) hits.push(`${a.text}/${b.text}`);
        }
      }
      return hits;
    };
    expect(await overlaps()).toEqual([]);
    // a tag shows only where its own piece is what the eye meets at the tag's point: the tags of
    // pieces behind others go (QA: "L" and "B" floated over the red and yellow Soma pieces)
    const truthful = async () => {
      const canvas = await page.locator('#viewport canvas').boundingBox();
      const tags = (await view()).labelBoxes;
      const seen = [];
      for (const t of tags) {
        const hit = await page.evaluate(([x, y]) => window.__polycube.pickAt(x, y), [canvas.x + t.ax, canvas.y + t.ay]);
        seen.push({ text: t.text, covered: t.covered, ownPieceSeen: !!hit && hit.instance === t.instance });
      }
      return seen;
    };
    const tags = await truthful();
    expect(tags.filter((t) => t.covered === t.ownPieceSeen)).toEqual([]); // covered exactly when another piece is in front
    expect(tags.some((t) => t.covered)).toBe(true);  // in a 4x4x4 box some pieces are behind others
    expect(tags.some((t) => !t.covered)).toBe(true);
    await ui.shot('view-14-tetris-names.png');
    // exploded, the pieces stand apart: more of them show their tags
    await page.locator('#explode').fill('100');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const apart = await truthful();
    expect(apart.filter((t) => t.covered === t.ownPieceSeen)).toEqual([]);
    expect(apart.filter((t) => !t.covered).length).toBeGreaterThan(tags.filter((t) => !t.covered).length);
    await ui.shot('view-14b-tetris-names-exploded.png');
    await page.locator('#explode').fill('0');
    // turned by a drag on the canvas
    const box = await page.locator('#viewport canvas').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 140, box.y + box.height / 2 + 50, { steps: 6 });
    await page.mouse.up();
    await ui.cameraSettled(); // (the camera's damping settles)
    expect(await overlaps()).toEqual([]);
    await page.click('#reset-view');
    await page.uncheck('#view-labels');
    await page.fill('#opt-limit', '');
  });

  test('35 hexominoes: every shape in the legend, names on the pieces from the start', async () => {
    await ui.pickLibrary('hexominoes_rect_15x14.txt');
    const items = await page.$$eval('#legend .legend-piece', (bs) => bs.map((b) => b.querySelectorAll('svg rect').length));
    expect(items.length).toBe(35);
    for (const n of items) expect(n).toBe(6);
    expect(await page.isChecked('#view-labels')).toBe(true);
    await page.click('#legend-summary'); // the folded legend opens
    await ui.shot('view-13-hexominoes-legend.png');
    await page.click('#legend-summary');
    await ui.pickLibrary('pentominoes_10x6.txt');
    expect(await page.isChecked('#view-labels')).toBe(false); // the person's own choice again
  });
});

describe('exploding before a solution is shown', () => {
  const drawn = () => page.evaluate(() => window.__polycube.sample().drawnFraction);
  /** Move the Explode slider as a drag of it does: its value, then an input event. */
  const explodeTo = (v) => page.$eval('#explode', (el, value) => {
    el.value = String(value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, v);

  test('the empty box stays drawn at every explode amount, in both modes; a solution then comes apart', async () => {
    await ui.pickLibrary('soma.txt');
    expect(await page.isVisible('#explode')).toBe(true);
    const board = await drawn();
    expect(board).toBeGreaterThan(0.01);
    for (const mode of ['pieces', 'layers']) {
      await page.selectOption('#explode-mode', mode);
      for (const v of [1, 50, 100]) {
        await explodeTo(v);
        // the box before solving was drawn as an empty stage (no pixel) once Explode left 0
        expect(await drawn(), `${mode} ${v}`).toBeGreaterThan(board * 0.8);
      }
      await page.click('#reset-view');
      expect(await drawn()).toBeGreaterThan(board * 0.8);
    }
    await page.selectOption('#explode-mode', 'pieces');
    await explodeTo(100);
    await ui.shot('view-14-soma-unsolved-explode-100.png');
    // with a solution shown the setting takes effect: the pieces fly apart, all still in sight
    await page.click('#solve');
    expect(await ui.waitState(['done', 'error'], 60_000)).toBe('done');
    await page.waitForFunction(() => window.__polycube.view().piecesDrawn === 7);
    const apart = await drawn();
    await explodeTo(0);
    const together = await drawn();
    expect(apart).toBeGreaterThan(0.01);
    expect(Math.abs(apart - together)).toBeGreaterThan(0.002); // a different picture: taken apart
    await ui.shot('view-15-soma-solved-explode-0.png');
  });

  test('a link whose view is exploded opens on the drawn box, not an empty stage', async () => {
    for (const explode of [1, 100]) {
      const link = LINK_PREFIX + toBase64Url(deflateSync(new TextEncoder().encode(JSON.stringify({ puzzle: { library: 'soma.txt', index: 0 }, options: '-r', view: { explode } }))));
      const other = await openPage(`${server.url}${link}`);
      try {
        expect(await other.waitState(['ready', 'error'])).toBe('ready');
        expect(Number(await other.page.inputValue('#explode'))).toBe(explode);
        expect(await other.page.evaluate(() => window.__polycube.sample().drawnFraction)).toBeGreaterThan(0.01);
      } finally {
        await other.browser.close();
      }
    }
  });
});

describe('a phone (390x844)', () => {
  test('the 3-D view is in sight without scrolling, touch targets are 44 px, the help speaks of touch', async () => {
    const phone = await openPage(server.url, { width: 390, height: 844 });
    try {
      expect(await phone.waitState(['ready', 'error'])).toBe('ready');
      const box = await phone.page.evaluate(() => {
        const r = document.querySelector('#viewport canvas').getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, height: r.height, width: r.width, scrollY: window.scrollY };
      });
      expect(box.scrollY).toBe(0);
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.bottom).toBeLessThanOrEqual(844);
      expect(box.height).toBeGreaterThan(300);
      expect(box.width).toBeGreaterThan(380);
      const s = await phone.page.evaluate(() => window.__polycube.sample());
      expect(s.drawnFraction).toBeGreaterThan(0.05);
      const small = await phone.page.$$eval('button, select, input:not([type=hidden]), .legend-piece', (els) => els
        .filter((e) => e.offsetParent !== null && getComputedStyle(e).visibility !== 'hidden')
        .map((e) => ({ id: e.id || e.className || e.tagName, h: e.getBoundingClientRect().height, w: e.getBoundingClientRect().width, type: e.type }))
        .filter((b) => (b.type === 'checkbox' ? false : b.h < 44)));
      expect(small).toEqual([]);
      // checkboxes: the whole label row is the target
      const checks = await phone.page.$$eval('label.check', (ls) => ls.filter((l) => l.offsetParent !== null).map((l) => l.getBoundingClientRect().height));
      for (const hgt of checks) expect(hgt).toBeGreaterThanOrEqual(44);
      // the lessons' links, once their list is open
      await phone.page.$eval('#learn', (d) => { d.open = true; });
      const lessons = await phone.page.$$eval('#learn a', (as) => as.map((a) => a.getBoundingClientRect().height));
      expect(lessons.length).toBe(8); // (lesson/lessons.js)
      for (const hgt of lessons) expect(hgt).toBeGreaterThanOrEqual(44);
      await phone.page.$eval('#learn', (d) => { d.open = false; });
      await phone.shot('view-10-phone-390x844.png');
      // the legend is folded on a phone; a tap opens it, and its chips are 44 px targets too
      expect(await phone.page.isVisible('#legend-summary')).toBe(true);
      await phone.page.click('#legend-summary');
      const chips = await phone.page.$$eval('.legend-piece', (bs) => bs.map((b) => b.getBoundingClientRect()));
      expect(chips.length).toBe(12);
      for (const r of chips) expect(r.height).toBeGreaterThanOrEqual(44);
      for (const r of chips) expect(r.width).toBeGreaterThanOrEqual(44); // (QA: the I was 36 px wide)
      await phone.shot('view-10b-phone-legend-open.png');
      await phone.page.click('#legend-summary');
      await phone.page.click('#solve');
      expect(await phone.waitState(['done', 'error'], 60_000)).toBe('done');
      // the page scrolled down to Solve; the view stays in sight (sticky) with the solution drawn
      const after = await phone.page.evaluate(() => {
        const r = document.querySelector('#viewport canvas').getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, scrollY: window.scrollY };
      });
      expect(after.scrollY).toBeGreaterThan(0);
      expect(after.top).toBeGreaterThanOrEqual(0);
      expect(after.bottom).toBeLessThanOrEqual(844);
      expect((await phone.hooks()).piecesDrawn).toBe(12);
      await phone.shot('view-11-phone-solved.png');
    } finally {
      await phone.browser.close();
    }
    // a touch screen: the help says swipe and pinch
    const b = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    try {
      const ctx = await b.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
      const tp = await ctx.newPage();
      await tp.goto(server.url);
      await tp.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 30_000 });
      expect(await tp.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
      expect(await tp.textContent('#view-help')).toMatch(/Swipe to rotate · pinch to zoom/);
      await tp.screenshot({ path: path.join(OUT, 'view-12-touch-phone.png') });
    } finally {
      await b.close();
    }
    expect(await page.textContent('#view-help')).toMatch(/^Drag to rotate/);
  });
});

describe('the served WebAssembly', () => {
  test('goes out compressed to a browser that accepts gzip or brotli', async () => {
    // find the hashed .wasm name in the built scripts
    const seen = new Set();
    const queue = ['index.html'];
    let wasm = null;
    while (queue.length && !wasm && seen.size < 30) {
      const f = queue.shift();
      if (seen.has(f)) continue;
      seen.add(f);
      const text = (await rawGet(server.url + f, {})).bytes.toString('utf8');
      const w = text.match(/[\w-]+\.wasm\b/g);
      if (w) wasm = w.find((x) => x !== 'polycube.wasm') || null;
      for (const m of text.matchAll(/(?:assets\/)?([\w.-]+\.js)\b/g)) queue.push(`assets/${m[1]}`);
    }
    expect(wasm).toMatch(/\.wasm$/);
    const url = `${server.url}assets/${wasm}`;
    const raw = await rawGet(url, { 'Accept-Encoding': 'identity' });
    const gz = await rawGet(url, { 'Accept-Encoding': 'gzip' });
    const br = await rawGet(url, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.bytes.subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d])); // \0asm
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toBe('application/wasm');
    expect(gz.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.headers['content-encoding']).toBe('br');
    const zlib = await import('node:zlib');
    expect(zlib.gunzipSync(gz.bytes).equals(raw.bytes)).toBe(true);
    expect(zlib.brotliDecompressSync(br.bytes).equals(raw.bytes)).toBe(true);
    expect(gz.bytes.length).toBeLessThan(raw.bytes.length * 0.4);
    expect(br.bytes.length).toBeLessThan(gz.bytes.length);
    console.log(`wasm served: ${raw.bytes.length} bytes raw, ${gz.bytes.length} gzip, ${br.bytes.length} brotli`);
  });
});
