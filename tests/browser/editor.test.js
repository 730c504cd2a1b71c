// The puzzle editor driven as a person would (issue 8, "Done when"): a 5x4 board with four
// tetrominoes drawn by hand, a 3x3x3 box with the Soma set from the tray; live checks, solving,
// undo and redo, a reload that finds the puzzle again.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cliCount, usePage } from './page-driver.js';

const handle = usePage();
let ui;
let page;
beforeAll(() => ({ ui, page } = handle));

/** Centre of a cell of a cell grid (#space-grid or #drawer-grid). */
async function cellCentre(grid, x, y) {
  const box = await page.locator(`#${grid} rect[data-x="${x}"][data-y="${y}"]`).boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Drag over cells of a grid, as one stroke. */
async function drag(grid, cells) {
  // the live checks above the grid change height when the engine's answer comes ("Checking..."
  // becomes several lines): wait for it, or the grid moves under the mouse mid-drag
  await page.waitForFunction(() => !document.querySelector('#editor-checks [data-check="pending"]'), null, { timeout: 10_000 });
  // the whole grid in the window: the mouse cannot reach below the fold (elementFromPoint is null there)
  await page.locator(`#${grid}`).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const first = await cellCentre(grid, ...cells[0]);
  await page.mouse.move(first.x, first.y);
  await page.mouse.down();
  for (const c of cells.slice(1)) {
    const p = await cellCentre(grid, ...c);
    await page.mouse.move(p.x, p.y, { steps: 4 });
  }
  await page.mouse.up();
}

async function drawPiece(name, cells) {
  await page.click('#draw-piece');
  await page.fill('#drawer-name', name);
  for (const [x, y] of cells) await page.click(`#drawer-grid rect[data-x="${x}"][data-y="${y}"]`);
  await page.click('#drawer-save');
  await page.waitForSelector('#drawer', { state: 'hidden' });
}

const pieceNames = () => page.$$eval('#editor-pieces li[data-piece]', (lis) => lis.map((li) => li.dataset.piece));

describe('the puzzle editor', () => {
  test('a 5x4 board shaped by dragging, four tetrominoes drawn by hand, live checks, solved', async () => {
    await page.click('#new-puzzle'); // 5 x 4 x 1 by default
    await page.waitForSelector('#editor-body:not([hidden])');
    expect(await ui.check('cells')).toMatch(/20 cells in the space \/ 0 cells of pieces/);

    // remove the right-hand column in one drag: one undo step
    await drag('space-grid', [[4, 3], [4, 2], [4, 1], [4, 0]]);
    await page.waitForFunction(() => /16 cells in the space/.test(document.getElementById('editor-checks').textContent));
    expect(await page.$$eval('#space-grid rect.hole', (r) => r.length)).toBe(4);
    await page.click('#undo');
    expect(await page.$$eval('#space-grid rect.hole', (r) => r.length)).toBe(0);
    await page.click('#redo');
    expect(await page.$$eval('#space-grid rect.hole', (r) => r.length)).toBe(4);

    const L = [[0, 0], [1, 0], [2, 0], [0, 1]];
    const O = [[0, 0], [1, 0], [0, 1], [1, 1]];
    await drawPiece('A', L);
    await drawPiece('B', L);
    await drawPiece('C', O);
    await drawPiece('D', O);
    expect(await pieceNames()).toEqual(['A', 'B', 'C', 'D']);
    // a piece that does not hang together is refused with a reason
    await page.click('#draw-piece');
    await page.fill('#drawer-name', 'E');
    await page.click('#drawer-grid rect[data-x="0"][data-y="0"]');
    await page.click('#drawer-grid rect[data-x="2"][data-y="0"]');
    await page.click('#drawer-save');
    expect(await page.textContent('#drawer-note')).toMatch(/touch face to face/);
    await page.click('#drawer-cancel');

    await page.waitForFunction(() => /16 cells in the space \/ 16 cells of pieces/.test(document.getElementById('editor-checks').textContent));
    expect(await ui.check('cells')).toMatch(/^ok:/);
    await page.waitForFunction(() => document.querySelector('#editor-checks [data-check="parity"]'));
    expect(await ui.check('parity')).toMatch(/^ok: Parity: no obstacle/);
    expect(await ui.check('pending')).toBe('');
    const same = await page.$$eval('#editor-checks [data-check="same"]', (lis) => lis.map((li) => li.textContent));
    expect(same).toEqual(['Same shape, counted as copies: A, B.', 'Same shape, counted as copies: C, D.']);
    // the definition text follows the editor
    const text = await page.inputValue('#def-text');
    expect(text).toMatch(/D:xDim=5:yDim=4:zDim=1/);
    expect(text).toMatch(/C:name=D:layout=/);
    await ui.shot('10-editor-5x4-tetrominoes.png');

    await page.click('#editor-solve');
    expect(await ui.waitState(['done', 'error'], 60_000)).toBe('done');
    const count = await ui.solutionCount();
    expect(count).toBe(cliCount(text, '-r'));
    expect(count).toBeGreaterThan(0);
    expect((await ui.hooks()).piecesDrawn).toBe(4);
    await ui.shot('11-editor-5x4-solved.png');

    // a rename is one undoable edit; the text follows
    const nameA = page.locator('#editor-pieces li[data-piece="A"] input[type="text"]');
    await nameA.fill('Ell');
    await page.waitForFunction(() => /C:name=Ell:/.test(document.getElementById('def-text').value));
    await page.click('#undo');
    await page.waitForFunction(() => /C:name=A:/.test(document.getElementById('def-text').value));
    expect(await pieceNames()).toEqual(['A', 'B', 'C', 'D']);
  });

  test('typing in the definition text moves the editor; an error shows by the text and loses nothing', async () => {
    await page.click('#custom summary');
    const text = await page.inputValue('#def-text');
    await page.fill('#def-text', text.replace('D:xDim=5:yDim=4', 'D:xDim=6:yDim=4'));
    await page.waitForFunction(() => document.getElementById('editor-x').value === '6');
    expect(await ui.check('cells')).toMatch(/20 cells in the space \/ 16 cells of pieces/);
    await page.fill('#def-text', text.replace('C:name=C:layout=', 'C:name=C:layout=0 0, '));
    await page.waitForSelector('#def-error:not([hidden])');
    expect(await page.textContent('#def-error-text')).toMatch(/my-puzzle\.txt:\d+: C directive/);
    expect(await pieceNames()).toEqual(['A', 'B', 'C', 'D']); // the editor kept the last good puzzle
    await page.fill('#def-text', text);
    await page.waitForSelector('#def-error', { state: 'hidden' });
    await page.waitForFunction(() => document.getElementById('editor-x').value === '5');
  });

  test('a 3x3x3 box filled with the Soma set from the tray: 480 solutions; undo and redo', async () => {
    await page.click('#editor-close');
    await page.fill('#new-x', '3');
    await page.fill('#new-y', '3');
    await page.fill('#new-z', '3');
    await page.click('#new-puzzle');
    await page.waitForSelector('#editor-body:not([hidden])');
    // a click on a cell in the 3-D view removes it; a click on its ghost brings it back
    const corner = 2 + 3 * (0 + 3 * 2); // x 2, y 0, z 2: the top front corner, in plain view
    const at = await page.evaluate((c) => window.__polycube.spaceCell(c), corner);
    await page.mouse.click(at.x, at.y);
    await page.waitForFunction(() => /26 cells in the space/.test(document.getElementById('editor-checks').textContent));
    await page.selectOption('#editor-layer', '2');
    expect(await page.$$eval('#space-grid rect.hole', (r) => r.map((x) => [x.dataset.x, x.dataset.y]))).toEqual([['2', '0']]);
    await ui.shot('12a-editor-3d-cell-removed.png');
    await page.mouse.click(at.x, at.y);
    await page.waitForFunction(() => /27 cells in the space/.test(document.getElementById('editor-checks').textContent));
    await page.selectOption('#tray-set', 'soma');
    await page.click('#tray-add-all');
    expect((await pieceNames()).length).toBe(7);
    await page.waitForFunction(() => /27 cells in the space \/ 27 cells of pieces/.test(document.getElementById('editor-checks').textContent));
    await page.selectOption('#editor-layer', '1');
    expect(await page.$$eval('#space-grid rect.open', (r) => r.length)).toBe(9);
    await page.click('#undo');
    expect((await pieceNames()).length).toBe(0);
    await page.click('#redo');
    expect((await pieceNames()).length).toBe(7);
    await ui.shot('12-editor-soma-tray.png');
    await page.click('#editor-solve');
    expect(await ui.waitState(['done', 'error'], 60_000)).toBe('done');
    expect(await ui.solutionCount()).toBe(480);
    expect((await ui.hooks()).piecesDrawn).toBe(7);
  });

  test('a reload finds the puzzles again: the editor reopens and My puzzles lists both', async () => {
    await page.selectOption('#tray-set', 'tetrominoes');
    await page.click('.tray-piece >> nth=0'); // one more piece: the puzzle no longer fills the box
    expect((await pieceNames()).length).toBe(8);
    await page.waitForTimeout(400); // the autosave waits for a pause in the edits
    await page.reload();
    expect(await ui.waitState(['ready', 'error', 'done'])).not.toBe('error');
    await page.waitForSelector('#editor-body:not([hidden])');
    expect((await pieceNames()).length).toBe(8);
    const mine = await page.$$eval('#library optgroup[label="My puzzles"] option', (os) => os.map((o) => o.textContent));
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(mine).toContain('My puzzle');
    await ui.shot('13-editor-after-reload.png');
    expect(ui.errors).toEqual([]);
  });

  test('a puzzle that no arrangement can fill says why as it is drawn: two T pieces in a 3x3 square missing a corner', async () => {
    await page.click('#editor-close');
    for (const [id, v] of [['#new-x', '3'], ['#new-y', '3'], ['#new-z', '1']]) await page.fill(id, v);
    await page.click('#new-puzzle');
    await page.waitForSelector('#editor-body:not([hidden])');
    await page.waitForFunction(() => document.querySelectorAll('#space-grid rect[data-x]').length === 9);
    await page.locator('#space-grid').scrollIntoViewIfNeeded();
    await page.click('#space-grid rect[data-x="0"][data-y="2"]'); // the corner goes
    await page.selectOption('#tray-set', 'tetrominoes');
    await page.fill('#tray-copies', '2');
    await page.click('.tray-piece[aria-label="Add piece T"]');
    await page.waitForFunction(() => document.querySelector('#editor-checks [data-check="impossible"]'), null, { timeout: 10_000 });
    expect(await ui.check('cells')).toMatch(/^ok: 8 cells in the space \/ 8 cells of pieces/);
    expect(await ui.check('impossible')).toMatch(/^bad: Impossible: by corner cells: the board has 5 corner cells.*at most 4/);
    await ui.shot('14-editor-impossible-by-corners.png');
  });
});
