// "Build it" (panels/build-panel.js), driven as a person would: the Tetris Cube's first solution
// built step by step, forward and back (buttons and keys), each piece sliding in, the 3-D view,
// one layer and the flat layer grid showing only the pieces placed so far; the order is the
// native CLI's; the steps printed as a sheet and downloaded as one PNG; an interlocked pair put
// in as one step; the phone layout (390x844). Screenshots under tests/output/browser/build-*.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { CLI, OUT, openPage, usePage } from './page-driver.js';
import { repoRoot } from './server.js';

const handle = usePage();
let ui, page, server;
beforeAll(() => ({ ui, page, server } = handle));

const HOOKS = 'D:xDim=3:yDim=1:zDim=3\nC:name=A:layout=0 0 0, 0 0 1, 1 0 1\nC:name=B:layout=1 0 0, 2 0 0, 2 0 1, 2 0 2, 1 0 2, 0 0 2\n~D\n';

/** What the page shows of the build: its state, the pieces drawn, the flat grid's cells. */
const shown = () => page.evaluate(() => {
  const s = window.__polycube.state();
  const b = s.build;
  const filled = [...document.querySelectorAll('#layer-grid rect:not(.layer-step-cell)')].filter((r) => r.getAttribute('fill') !== 'none').length;
  return {
    step: b.step, total: b.order ? b.order.steps.length + (b.order.interlocked.length ? 1 : 0) : 0, cls: b.order && b.order.class,
    piecesDrawn: window.__polycube.piecesDrawn, filled, framed: document.querySelectorAll('#layer-grid .layer-step-cell').length,
    words: document.getElementById('build-words').textContent, caption: document.getElementById('build-caption').textContent,
    badge: document.getElementById('stage-solution').textContent,
  };
});

/** The instances step k (1-based) of `order` puts in: the interlocked group first, as one. */
function stepInstances(order, k) {
  const group = order.interlocked.length ? 1 : 0;
  return group && k === 1 ? order.interlocked : [order.steps[k - 1 - group].instance];
}
/** Pieces and cells of the solution placed after k steps of `order`. */
function placedAfter(grid, order, k) {
  const placed = new Set();
  for (let j = 1; j <= k; j++) for (const i of stepInstances(order, j)) placed.add(i);
  return { pieces: placed.size, cells: grid.filter((i) => placed.has(i)).length };
}

async function solveWith(options) {
  await page.fill('#opt-text', options);
  await page.dispatchEvent('#opt-text', 'input');
  await page.click('#solve');
  expect(await ui.waitState(['done', 'error'], 60_000)).toBe('done');
}

/** The file a click downloads, saved under tests/output/browser/ (to look at). */
async function download(selector) {
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.click(selector)]);
  const file = path.join(OUT, `build-${dl.suggestedFilename()}`);
  await dl.saveAs(file);
  return { name: dl.suggestedFilename(), bytes: fs.readFileSync(file) };
}

describe('Build it', () => {
  let order;
  let grid;
  let total;

  test('the Tetris Cube\'s first solution: the native CLI\'s order, from the empty box', async () => {
    await ui.pickLibrary('tetriscube.txt');
    expect(await page.isVisible('#build-open')).toBe(false); // nothing to build before a solution
    await solveWith('-r -l 1');
    await page.click('#view-flat'); // the flat grid follows the build too
    await page.click('#build-open');
    await page.waitForFunction(() => window.__polycube.state().build.order, null, { timeout: 20_000 });
    ({ order, grid } = await page.evaluate(() => {
      const b = window.__polycube.state().build;
      return { order: b.order, grid: Array.from(b.grid) };
    }));
    const out = execFileSync(CLI, ['-r', '-l', '1', '-j', '1', '--build-order', '--json', path.join(repoRoot, 'def/tetriscube.txt')], { encoding: 'utf8' });
    const native = JSON.parse(out.split('\n').find((l) => l.startsWith('{"solution":1,'))).buildOrder;
    expect(order).toEqual(native);
    // (this solution: five pieces interlock, the other seven are lowered onto them one by one)
    expect(order.class).toBe('interlocked');
    total = order.steps.length + 1;
    await ui.still();
    const s = await shown();
    expect(s).toMatchObject({ step: 0, total, piecesDrawn: 0, filled: 0 });
    expect(s.words).toBe(`The empty box: ${total} steps to go.`);
    expect(await page.textContent('#build-summary')).toMatch(/^Not one piece at a time: .* interlock/);
  });

  test('forward one step at a time: each piece slides in, the view and the flat grid follow', async () => {
    for (let k = 1; k <= total; k++) {
      await page.click('#build-next');
      await ui.still();
      // the step's pieces moved in along their way, ending in place
      const motion = await page.evaluate(() => window.__polycube.lastMotion());
      expect(motion.instances).toEqual(stepInstances(order, k));
      expect(motion.leaving).toBe(false);
      expect(motion.path[motion.path.length - 1]).toEqual([0, 0, 0]);
      expect(motion.path[0][2]).toBeGreaterThan(0);
      const s = await shown();
      expect(s.step).toBe(k);
      expect(s.piecesDrawn).toBe(placedAfter(grid, order, k).pieces);
      expect(s.filled).toBe(placedAfter(grid, order, k).cells);
      expect(s.framed).toBe(grid.filter((i) => stepInstances(order, k).includes(i)).length); // the step's pieces, framed
      if (k === 1) expect(s.words).toMatch(/^Step 1 of \d+: .+, fitted together, lowered in as one\.$/);
      else expect(s.words.startsWith(`Step ${k} of ${total}: ${order.steps[k - 2].name}. Lower it `)).toBe(true);
      expect(s.caption).toBe(s.words);
      expect(s.badge).toBe(`Solution 1 · step ${k} of ${total}`);
      if (k === 5) {
        await ui.shot('build-01-step5-1400x860.png');
        const sample = await page.evaluate(() => window.__polycube.sample());
        expect(sample.drawnFraction).toBeGreaterThan(0.02);
      }
    }
    expect(await page.isDisabled('#build-next')).toBe(true);
  });

  test('back, and by the keys; one layer shows the pieces placed in it', async () => {
    await page.click('#build-back');
    await ui.still();
    const out = await page.evaluate(() => window.__polycube.lastMotion());
    expect(out).toMatchObject({ instances: stepInstances(order, total), leaving: true }); // it slides out the way it came
    expect(out.path[0]).toEqual([0, 0, 0]);
    const last = placedAfter(grid, order, total - 1);
    expect(await shown()).toMatchObject({ step: total - 1, piecesDrawn: last.pieces, filled: last.cells });
    await page.focus('#build-next');
    await page.keyboard.press('Home');
    await ui.still();
    expect(await shown()).toMatchObject({ step: 0, piecesDrawn: 0, filled: 0 });
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await ui.still();
    expect((await shown()).step).toBe(3);
    await page.keyboard.press('ArrowLeft');
    await ui.still();
    expect(await shown()).toMatchObject({ step: 2, piecesDrawn: placedAfter(grid, order, 2).pieces });
    // layer 1 only: the pieces placed so far that have a cell in the bottom layer
    await page.selectOption('#view-layer', '0');
    await ui.still();
    const placed = [...stepInstances(order, 1), ...stepInstances(order, 2)];
    const inBottom = new Set(grid.slice(0, 16).filter((i) => placed.includes(i)));
    expect((await shown()).piecesDrawn).toBe(inBottom.size);
    await page.selectOption('#view-layer', '-1');
    await page.keyboard.press('End');
    await ui.still();
    expect(await shown()).toMatchObject({ step: total, piecesDrawn: 12, filled: 64 });
  });

  test('turned with its front face down the same solution goes in from above, and back', async () => {
    expect(order.turned).toMatchObject({ face: '-y', order: { class: 'above' } });
    expect(await page.textContent('#build-turn-words')).toBe('Turned with its front face (−y) at the bottom, every piece is lowered straight in.');
    await page.click('#build-turn');
    await ui.still();
    const turned = await page.evaluate(() => {
      const b = window.__polycube.state().build;
      return { grid: Array.from(b.grid), cls: b.order.class, step: b.step };
    });
    expect(turned).toEqual({ grid: order.turned.grid, cls: 'above', step: 0 });
    expect((await shown()).piecesDrawn).toBe(0);
    for (let k = 1; k <= 6; k++) await page.click('#build-next');
    await page.click('#view-flat'); // the 3-D view, to look at
    await ui.shot('build-06-turned-step6-1400x860.png');
    expect((await page.evaluate(() => window.__polycube.sample())).drawnFraction).toBeGreaterThan(0.02);
    await page.click('#view-flat');
    for (let k = 7; k <= 12; k++) await page.click('#build-next');
    await ui.still();
    expect(await shown()).toMatchObject({ step: 12, total: 12, piecesDrawn: 12, filled: 64 });
    expect((await shown()).badge).toBe('Solution 1, turned · step 12 of 12');
    await page.click('#build-turn'); // "Build it as found"
    await ui.still();
    expect(await shown()).toMatchObject({ step: 0, total, cls: 'interlocked' });
    await page.keyboard.press('End');
    await ui.still();
  });

  test('the steps print as a sheet of pictures, and download as one PNG', async () => {
    await page.evaluate(() => { window.__printed = 0; window.print = () => { window.__printed++; }; });
    await page.click('#build-print');
    await page.waitForFunction(() => window.__printed === 1, null, { timeout: 60_000 });
    const sheet = await page.evaluate(() => ({
      figures: document.querySelectorAll('#build-sheet figure').length,
      images: [...document.querySelectorAll('#build-sheet img')].filter((i) => i.src.startsWith('data:image/png')).length,
      captions: [...document.querySelectorAll('#build-sheet figcaption')].map((c) => c.textContent),
      printing: document.body.classList.contains('printing-build'),
    }));
    expect(sheet).toMatchObject({ figures: total, images: total, printing: true });
    expect(sheet.captions[1].startsWith(`Step 2 of ${total}: ${order.steps[0].name}. Lower it `)).toBe(true);
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: path.join(OUT, 'build-02-print-sheet.png'), fullPage: true });
    await page.emulateMedia({ media: 'screen' });
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    expect(await page.evaluate(() => document.body.classList.contains('printing-build'))).toBe(false);

    const png = await download('#build-png');
    expect(png.name).toMatch(/^tetris-cube.*-solution-1-steps\.png$/);
    const size = await page.evaluate(async (b64) => {
      const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bin], { type: 'image/png' }));
      return [bmp.width, bmp.height];
    }, png.bytes.toString('base64'));
    expect(size[0]).toBeGreaterThan(1200); // three pictures a row
    expect(size[1]).toBeGreaterThan(Math.ceil(total / 3) * 320);
  });

  test('closing shows the whole solution; another solution closes the build', async () => {
    await page.click('#build-close');
    await ui.still();
    expect(await page.isVisible('#build-controls')).toBe(false);
    expect(await page.isVisible('#build-caption')).toBe(false);
    expect((await shown()).piecesDrawn).toBe(12);
    expect(await page.isVisible('#build-open')).toBe(true);
  });

  test('an interlocked pair goes in as one step, said so', async () => {
    await page.click('#custom summary');
    await page.evaluate((text) => {
      const area = document.getElementById('def-text');
      area.value = text;
      area.dispatchEvent(new Event('input', { bubbles: true }));
    }, HOOKS);
    expect(await ui.loadBy(() => page.click('#def-load'))).toBe('ready');
    await solveWith('--no-orbits');
    // the search for every solution finds the hooks as drawn first: A under B's arms (the
    // default lists the unique solution's images, in another order)
    await page.click('#build-open');
    await page.waitForFunction(() => window.__polycube.state().build.order, null, { timeout: 20_000 });
    const s = await shown();
    expect(s).toMatchObject({ cls: 'interlocked', total: 1 });
    expect(await page.textContent('#build-summary')).toMatch(/^Not one piece at a time: A and B interlock/);
    await page.click('#build-next');
    await ui.still();
    expect(await shown()).toMatchObject({ step: 1, piecesDrawn: 2, words: 'Step 1 of 1: A and B, fitted together, lowered in as one.' });
    await ui.shot('build-04-interlocked-1400x860.png');
    await page.click('#next'); // another solution: the build closes
    expect(await page.isVisible('#build-controls')).toBe(false);
  });
});

describe('Build it on a phone', () => {
  test('390x844: the controls under the view, the step on the stage', async () => {
    const phone = await openPage(server.url, { width: 390, height: 844, touch: true });
    try {
      expect(await phone.waitState(['ready', 'error'])).toBe('ready');
      const p = phone.page;
      await p.selectOption('#library', 'tetriscube.txt');
      await p.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 20_000 });
      await p.fill('#opt-text', '-r -l 1');
      await p.dispatchEvent('#opt-text', 'input');
      await p.tap('#solve');
      expect(await phone.waitState(['done', 'error'], 60_000)).toBe('done');
      await p.tap('#build-open');
      await p.waitForFunction(() => window.__polycube.state().build.order, null, { timeout: 20_000 });
      for (let k = 0; k < 6; k++) await p.tap('#build-next');
      await phone.still();
      expect(await p.evaluate(() => window.__polycube.state().build.step)).toBe(6);
      const box = await p.evaluate(() => {
        const r = (id) => document.getElementById(id).getBoundingClientRect();
        return { next: r('build-next'), caption: r('build-caption'), width: window.innerWidth };
      });
      expect(box.next.height).toBeGreaterThanOrEqual(44);
      expect(box.caption.right).toBeLessThanOrEqual(box.width);
      await p.evaluate(() => document.getElementById('build-controls').scrollIntoView({ block: 'end' }));
      await phone.shot('build-05-phone-390x844.png');
    } finally {
      await phone.browser.close();
    }
  });
});
