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
  // the engine's answer to the last edit first (the live checks, now below the space grid, once
  // sat above it and moved it under the mouse mid-drag when their height changed)
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
/** Until My puzzles holds the puzzle as drawn and the session names it (the autosave follows a
 * pause in the edits, the session a moment later): a state, never a fixed time. */
const saved = (p = page) => p.waitForFunction(() => window.__polycube.editorSaved() && window.__polycube.linkSettled(), null, { timeout: 10_000 });

describe('the puzzle editor', () => {
  test('a 5x4 board shaped by dragging, four tetrominoes drawn by hand, live checks, solved', async () => {
    const picked = () => page.$eval('#library', (s) => s.options[s.selectedIndex] && s.options[s.selectedIndex].textContent);
    const before = await picked();
    await page.click('#new-puzzle'); // 5 x 4 x 1 by default
    await page.waitForSelector('#editor-body:not([hidden])');
    expect(await ui.check('cells')).toMatch(/20 cells in the space \/ 0 cells of pieces/);
    // the library box names the puzzle on the stage, not the one left behind (QA)
    expect(await picked()).toBe('Editing: My puzzle');
    expect(before).not.toBe('Editing: My puzzle');
    expect(await page.textContent('#puzzle-info')).toMatch(/^The puzzle being edited is on the stage/);

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

    // the drawer says how to draw, and a new piece comes named: Add needs only its cells
    await page.click('#draw-piece');
    expect(await page.textContent('#drawer-help')).toMatch(/^Click the squares of the piece/);
    expect(await page.inputValue('#drawer-name')).toBe('E'); // the first free letter
    await page.fill('#drawer-name', ''); // a name cleared: the default again, not a refusal
    await page.click('#drawer-grid rect[data-x="0"][data-y="0"]');
    await page.click('#drawer-grid rect[data-x="1"][data-y="0"]');
    await page.click('#drawer-save');
    await page.waitForSelector('#drawer', { state: 'hidden' });
    expect(await pieceNames()).toEqual(['A', 'B', 'C', 'D', 'E']);
    await page.click('#undo');
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
    await ui.newPuzzle(3, 3, 3);
    // a plain click on the 3-D view edits nothing: cell editing there is a mode turned on by
    // a button that says so, with the help line following
    const corner = 2 + 3 * (0 + 3 * 2); // x 2, y 0, z 2: the top front corner, in plain view
    const at = await page.evaluate((c) => window.__polycube.spaceCell(c), corner);
    const help = () => page.textContent('#view-help');
    expect(await help()).not.toMatch(/pick/);
    expect(await help()).toMatch(/Edit cells to click cells away/);
    expect(await page.getAttribute('#view-cell-edit', 'aria-pressed')).toBe('false');
    await page.mouse.click(at.x, at.y);
    expect(await page.isDisabled('#undo')).toBe(true); // (the click's handler runs before click() returns)
    expect(await ui.check('cells')).toMatch(/27 cells in the space/);
    // in the mode a click on a cell removes it; a click on its ghost brings it back
    await page.click('#view-cell-edit');
    expect(await page.getAttribute('#view-cell-edit', 'aria-pressed')).toBe('true');
    expect(await page.textContent('#view-cell-edit')).toMatch(/Editing cells/);
    expect(await help()).toMatch(/^Editing cells: click a cell to remove it, click a ghost to restore it/);
    await page.mouse.click(at.x, at.y);
    await page.waitForFunction(() => /26 cells in the space/.test(document.getElementById('editor-checks').textContent));
    await page.selectOption('#editor-layer', '2');
    expect(await page.$$eval('#space-grid rect.hole', (r) => r.map((x) => [x.dataset.x, x.dataset.y]))).toEqual([['2', '0']]);
    await ui.shot('12a-editor-3d-cell-removed.png');
    await page.click('#undo'); // one undo step
    await page.waitForFunction(() => /27 cells in the space/.test(document.getElementById('editor-checks').textContent));
    await page.click('#redo');
    await page.waitForFunction(() => /26 cells in the space/.test(document.getElementById('editor-checks').textContent));
    await page.mouse.click(at.x, at.y);
    await page.waitForFunction(() => /27 cells in the space/.test(document.getElementById('editor-checks').textContent));
    // Esc (outside a text field) ends the mode; a click then edits nothing again
    await page.keyboard.press('Escape');
    expect(await page.getAttribute('#view-cell-edit', 'aria-pressed')).toBe('false');
    await page.mouse.click(at.x, at.y);
    expect(await ui.check('cells')).toMatch(/27 cells in the space/);
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
    // a piece keeps its colour from the tray to the list (QA: it changed on the way)
    const fill = (sel) => page.$eval(sel, (e) => e.querySelector('svg [fill]').getAttribute('fill'));
    const inTray = await fill('.tray-piece >> nth=0');
    await page.click('.tray-piece >> nth=0'); // one more piece: the puzzle no longer fills the box
    expect((await pieceNames()).length).toBe(8);
    const added = (await pieceNames())[7];
    expect(await fill(`#editor-pieces li[data-piece="${added}"]`)).toBe(inTray);
    expect(await fill('.tray-piece >> nth=0')).not.toBe(inTray); // the next one added takes the next colour
    await saved();
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

  test('a name the format cannot hold is refused; Solve searches the puzzle on the stage; a library pick leaves the editor', async () => {
    // (QA: 'x:y' was taken, and the puzzle saved with it could then be neither solved, reopened
    // after a reload nor opened from a link)
    await page.click('#draw-piece');
    await page.fill('#drawer-name', 'x:y');
    await page.click('#drawer-grid rect[data-x="0"][data-y="0"]');
    await page.click('#drawer-save');
    expect(await page.textContent('#drawer-note')).toMatch(/contains ':', which the definition format cannot hold/);
    await page.click('#drawer-cancel');
    expect(await pieceNames()).toEqual(['T']);
    // typed over a piece's name in the list, it is marked there, and a link copied says so
    const nameT = page.locator('#editor-pieces li[data-piece="T"] input[type="text"]');
    await nameT.fill('x:y');
    await page.waitForSelector('#editor-pieces li[data-piece="x:y"] input[aria-invalid="true"]');
    await page.click('#copy-link');
    await page.waitForFunction(() => /Copy the selected link|Link copied/.test(document.getElementById('copy-status').textContent));
    expect(await page.textContent('#copy-status')).toMatch(/opens with an error until this is mended: piece 'x:y': the name 'x:y' contains ':'/);
    await page.click('#undo');
    expect(await pieceNames()).toEqual(['T']);
    // the page's Solve, while the stage shows the editor's puzzle: that puzzle (two T pieces,
    // impossible), not the one loaded before (the Soma cube of an earlier test: 480)
    await page.click('#solve');
    expect(await ui.waitState(['done', 'error'], 60_000)).toBe('done');
    expect(await ui.solutionCount()).toBe(0);
    // picking a library puzzle closes the editor (its puzzle stays in My puzzles): the stage
    // shows what Solve then searches
    await page.selectOption('#library', 'soma.txt');
    await page.waitForSelector('#editor-body', { state: 'hidden' });
    expect(await ui.waitState(['ready', 'error'])).toBe('ready');
    expect(await page.textContent('#stage-title')).not.toMatch(/editing/);
    await page.click('#solve');
    expect(await ui.waitState(['done', 'error'], 60_000)).toBe('done');
    expect(await ui.solutionCount()).toBe(480);
    expect((await ui.hooks()).piecesDrawn).toBe(7);
    const mine = await page.$$eval('#library optgroup[label="My puzzles"] option', (os) => os.map((o) => o.textContent));
    expect(mine.filter((t) => t === 'My puzzle').length).toBeGreaterThanOrEqual(2);
  });
});

describe('clicks and sizes as a person makes them', () => {
  const holes = () => page.$$eval('#space-grid rect.hole', (rs) => rs.map((r) => `${r.dataset.x},${r.dataset.y}`).sort());
  const gridTop = () => page.$eval('#space-grid', (g) => g.getBoundingClientRect().top);

  async function newBoard(x, y, z) {
    if (await page.isVisible('#editor-close')) await page.click('#editor-close');
    for (const [id, v] of [['#new-x', x], ['#new-y', y], ['#new-z', z]]) await page.fill(id, String(v));
    await page.click('#new-puzzle');
    await page.waitForSelector('#editor-body:not([hidden])');
    // the engine's first answer is in: the next edit's "Checking..." is a change on the page
    await page.waitForFunction(() => !document.querySelector('#editor-checks [data-check="pending"]'), null, { timeout: 10_000 });
    await page.locator('#space-grid').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  }

  /** Press and release the mouse on a cell, held `ms` as a hand holds it; the pointer does not move. */
  async function press(x, y, ms = 50) {
    const c = await cellCentre('space-grid', x, y);
    await page.mouse.move(c.x, c.y);
    await page.mouse.down();
    await page.waitForTimeout(ms);
    await page.mouse.up();
  }

  test('one click on a cell of the space changes that cell only, and the grid stays under the pointer', async () => {
    await newBoard(5, 4, 1);
    for (const ms of [0, 50]) {
      const top = await gridTop();
      await press(2, 2, ms);
      // the page's answer to the edit (the count, "Checking...", the engine's lines) has come
      await page.waitForFunction(() => !/^20 cells in the space/.test(document.querySelector('#editor-checks [data-check="cells"]').textContent));
      await page.waitForFunction(() => !document.querySelector('#editor-checks [data-check="pending"]'), null, { timeout: 10_000 });
      expect(await holes()).toEqual(['2,2']);
      expect(await gridTop()).toBe(top);
      await page.click('#undo');
      expect(await holes()).toEqual([]);
    }
  });

  test('a click still changes one cell when the page moves the grid between pressing and releasing', async () => {
    await newBoard(5, 4, 1);
    // whatever the first cell's change makes the page do above the grid (a notice, a line that
    // wraps): here 40 px pushed in above it as the button goes down
    await page.evaluate(() => {
      const grid = document.getElementById('space-grid');
      grid.addEventListener('pointerdown', () => {
        const pad = document.createElement('div');
        pad.id = 'test-push';
        pad.style.height = '40px';
        grid.before(pad);
      }, { capture: true, once: true });
    });
    const top = await gridTop();
    await press(2, 0); // the bottom row: the pointer stays over the grid, over another cell
    expect(await gridTop()).toBeGreaterThan(top + 30); // the grid did move under the pointer
    expect(await holes()).toEqual(['2,0']);
    await page.evaluate(() => document.getElementById('test-push').remove());
    await page.click('#undo');
    expect(await holes()).toEqual([]);
  });

  test('a drag follows the grid when the wheel scrolls the page under it mid-stroke', async () => {
    await newBoard(5, 4, 1);
    // press on the top cell of column 1, scroll the panel by one cell's height and a half with
    // the wheel (the pointer stays put: the grid slides up under it), then drag down to the
    // bottom cell of column 1 where it now lies: the column and nothing else
    const start = await cellCentre('space-grid', 1, 3);
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    const cell = await page.locator('#space-grid rect[data-x="1"][data-y="3"]').boundingBox();
    const top = await gridTop();
    await page.mouse.wheel(0, Math.round(cell.height * 1.5));
    await page.waitForFunction((t) => document.getElementById('space-grid').getBoundingClientRect().top < t - 10, top);
    const scrolled = top - (await gridTop());
    expect(scrolled).toBeGreaterThan(cell.height); // the grid did slide a cell up under the pointer
    const end = await cellCentre('space-grid', 1, 0);
    await page.mouse.move(end.x, end.y, { steps: 6 });
    await page.mouse.up();
    await page.waitForFunction(() => !document.querySelector('#editor-checks [data-check="pending"]'), null, { timeout: 10_000 });
    expect(await holes()).toEqual(['1,0', '1,1', '1,2', '1,3']);
    await page.click('#undo');
    expect(await holes()).toEqual([]);
  });

  test('the keyboard keeps its place: New puzzle, Draw a new piece, Save, Cancel and Redraw (bug: focus lost to the body)', async () => {
    const focused = () => page.evaluate(() => (document.activeElement ? document.activeElement.id || document.activeElement.getAttribute('aria-label') || document.activeElement.tagName : ''));
    if (await page.isVisible('#editor-close')) await page.click('#editor-close');
    for (const [id, v] of [['#new-x', 3], ['#new-y', 2], ['#new-z', 1]]) await page.fill(id, String(v));
    // Enter on New puzzle: the editor opens with the focus in its title, ready to be typed over
    await page.focus('#new-puzzle');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#editor-body:not([hidden])');
    expect(await focused()).toBe('editor-title');
    await page.keyboard.type('Keyed in');
    expect(await page.inputValue('#editor-title')).toBe('Keyed in');

    // Enter on Draw a new piece: the focus is in the drawer's Name field
    await page.focus('#draw-piece');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#drawer:not([hidden])');
    expect(await focused()).toBe('drawer-name');
    await page.keyboard.type('K');
    expect(await page.inputValue('#drawer-name')).toBe('K');
    // Cancel from the keyboard: back on Draw a new piece
    await page.focus('#drawer-cancel');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#drawer', { state: 'hidden' });
    expect(await focused()).toBe('draw-piece');

    // again, all by keyboard: Enter, a name, Tab to the grid, Space draws the cell under its
    // cursor, Tab to Add piece, Enter: the piece is added and the focus is back on Draw a new piece
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('drawer-name');
    expect(await page.inputValue('#drawer-name')).toBe('A'); // a fresh drawer, named, the name selected to type over
    await page.keyboard.type('K');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('drawer-grid');
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('drawer-save');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#drawer', { state: 'hidden' });
    expect(await pieceNames()).toEqual(['K']);
    expect(await focused()).toBe('draw-piece');

    // a click on Draw a new piece also puts the focus in the Name field
    await page.click('#draw-piece');
    expect(await focused()).toBe('drawer-name');
    await page.click('#drawer-cancel');
    expect(await focused()).toBe('draw-piece');

    // a piece's Redraw tool: into the Name field, and back to the tool on Save or Cancel
    const redraw = '#editor-pieces li[data-piece="K"] button[aria-label="Redraw: K"]';
    await page.focus(redraw);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#drawer:not([hidden])');
    expect(await focused()).toBe('drawer-name');
    expect(await page.inputValue('#drawer-name')).toBe('K');
    await page.focus('#drawer-cancel');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#drawer', { state: 'hidden' });
    expect(await focused()).toBe('Redraw: K');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('drawer-name');
    await page.keyboard.type('L'); // the caret is after the name: K becomes KL
    await page.focus('#drawer-save');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#drawer', { state: 'hidden' });
    expect(await pieceNames()).toEqual(['KL']);
    expect(await focused()).toBe('Redraw: KL');
    // a tool that changes the piece keeps the focus too (the list is rebuilt under it)
    await page.focus('#editor-pieces li[data-piece="KL"] button[aria-label="Mirror: KL"]');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('Mirror: KL');
    // Close editor hides itself: the focus goes to what opens the editor again
    await page.focus('#editor-close');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#editor-body', { state: 'hidden' });
    expect(['edit-copy', 'new-puzzle']).toContain(await focused());
  });

  test('a box larger than the editor takes is refused with the limit, not clamped', async () => {
    if (await page.isVisible('#editor-close')) await page.click('#editor-close');
    for (const id of ['#new-x', '#new-y', '#new-z']) await page.fill(id, '200');
    await page.click('#new-puzzle');
    expect(await page.isVisible('#new-size-error')).toBe(true);
    expect(await page.textContent('#new-size-error')).toMatch(/1 to 40/);
    for (const id of ['#new-x', '#new-y', '#new-z']) expect(await page.getAttribute(id, 'aria-invalid')).toBe('true');
    expect(await page.isVisible('#editor-body')).toBe(false); // no 40x40x40 box behind the person's back
    await page.fill('#new-z', '1');
    expect(await page.getAttribute('#new-z', 'aria-invalid')).toBeNull(); // the mark follows the typing
    expect(await page.getAttribute('#new-x', 'aria-invalid')).toBe('true');
    await page.fill('#new-x', '6');
    await page.fill('#new-y', '0');
    await page.click('#new-puzzle');
    expect(await page.getAttribute('#new-y', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#new-x', 'aria-invalid')).toBeNull();
    await page.fill('#new-y', '3');
    await page.click('#new-puzzle');
    await page.waitForSelector('#editor-body:not([hidden])');
    expect(await page.isVisible('#new-size-error')).toBe(false);
    expect(await page.inputValue('#editor-x')).toBe('6');
    // the editor's own size fields say the same
    await page.fill('#editor-x', '41');
    await page.press('#editor-x', 'Enter');
    await page.locator('#editor-x').blur();
    expect(await page.getAttribute('#editor-x', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#editor-size-error')).toMatch(/1 to 40/);
    expect(await page.$$eval('#space-grid rect[data-x]', (r) => r.length)).toBe(18); // still 6 x 3
    await page.fill('#editor-x', '7');
    await page.locator('#editor-x').blur();
    await page.waitForFunction(() => document.querySelectorAll('#space-grid rect[data-x]').length === 21);
    expect(await page.isVisible('#editor-size-error')).toBe(false);
  });
});

describe('My puzzles', () => {
  const mine = () => page.$$eval('#library optgroup[label="My puzzles"] option', (os) => os.map((o) => ({ value: o.value, title: o.textContent })));
  const TWO = '# First: two dominoes\nD:xDim=2:yDim=2:zDim=1\nC:name=A:layout=0 0 0, 1 0 0\nC:name=B:layout=0 0 0, 1 0 0\n~D\n'
    + '# Second: a straight tromino\nD:xDim=3:yDim=1:zDim=1\nC:name=I:layout=0 0 0, 1 0 0, 2 0 0\n~D\n';

  test('a file of two puzzles: Edit a copy of the second leaves the file whole (QA: saved over it, the first lost)', async () => {
    if (await page.isVisible('#editor-close')) await page.click('#editor-close');
    await page.evaluate(() => { document.getElementById('custom').open = true; });
    await page.fill('#def-text', TWO);
    expect(await ui.loadBy(() => page.click('#def-load'))).toBe('ready');
    const entry = (await mine()).find((o) => o.title === 'First: two dominoes');
    expect(entry).toBeDefined();
    await page.selectOption('#puzzle-pick', '1');
    await page.click('#edit-copy');
    await page.waitForSelector('#editor-body:not([hidden])');
    expect(await page.inputValue('#editor-title')).toBe('Second: a straight tromino (my copy)');
    await saved();
    await page.click('#editor-close');
    expect(await ui.loadBy(() => page.selectOption('#library', entry.value))).toBe('ready');
    expect(await page.$$eval('#puzzle-pick option', (os) => os.length)).toBe(2);
    expect((await mine()).filter((o) => o.title === 'Second: a straight tromino (my copy)')).toHaveLength(1);
  });

  test('Load definition while editing loads the puzzle being edited, saved once (QA: a second entry)', async () => {
    await ui.newPuzzle(5, 4, 1);
    await page.selectOption('#tray-set', 'tetrominoes');
    await page.fill('#tray-copies', '1'); // (an earlier test asked for 2)
    await page.click('#tray-add-all');
    await page.fill('#editor-title', 'Keep me');
    await saved();
    await page.evaluate(() => { document.getElementById('custom').open = true; });
    expect(await ui.loadBy(() => page.click('#def-load'))).toBe('ready');
    expect((await ui.hooks()).puzzle).toMatchObject({ title: 'Keep me', xDim: 5, yDim: 4, pieces: 5 });
    expect((await mine()).filter((o) => o.title === 'Keep me')).toHaveLength(1);
    // text pasted over it and loaded at once (before the editor follows the typing): that
    // puzzle is loaded, in the same entry (the editor's; Undo brings "Keep me" back)
    const before = (await mine()).length;
    await page.fill('#def-text', '# Pasted one\nD:xDim=2:yDim=1:zDim=1\nC:name=P:layout=0 0 0, 1 0 0\n~D\n');
    await page.click('#def-load');
    await page.waitForFunction(() => window.__polycube.puzzle && window.__polycube.puzzle.title === 'Pasted one' && document.body.dataset.state === 'ready', null, { timeout: 10_000 });
    expect(await page.inputValue('#editor-title')).toBe('Pasted one');
    const after = await mine();
    expect(after).toHaveLength(before);
    expect(after.filter((o) => o.title === 'Pasted one')).toHaveLength(1);
    await page.click('#undo');
    expect(await page.inputValue('#editor-title')).toBe('Keep me');
    await page.click('#editor-close');
  });

  test('one of My puzzles can be removed; it stays on screen and the notice says how to keep it', async () => {
    const entry = (await mine()).find((o) => o.title === 'First: two dominoes');
    expect(await ui.loadBy(() => page.selectOption('#library', entry.value))).toBe('ready');
    // not while the editor shows a puzzle of its own: it would remove the loaded one (QA)
    expect(await page.isVisible('#forget-mine')).toBe(true);
    await page.click('#new-puzzle');
    await page.waitForSelector('#editor-body:not([hidden])');
    expect(await page.isHidden('#forget-mine')).toBe(true);
    await page.click('#editor-close');
    await page.click('#forget-mine');
    expect((await mine()).map((o) => o.title)).not.toContain('First: two dominoes');
    expect(await page.textContent('#notice-text')).toMatch(/"First: two dominoes" was removed from My puzzles\. It is still on screen: Load definition saves it again/);
    expect(await page.isHidden('#forget-mine')).toBe(true);
    expect((await ui.hooks()).puzzle).toMatchObject({ title: 'First: two dominoes' });
    await page.click('#notice-close');
  });
});

describe('the editor under a demanding person (QA, third pass)', () => {
  const addFromTray = async (set, names) => {
    await page.selectOption('#tray-set', set);
    for (const n of names) await page.click(`#tray-pieces button[aria-label="Add piece ${n}"]`);
  };
  const idle = () => page.waitForFunction(() => !document.querySelector('#editor-checks [data-check="pending"]'), null, { timeout: 10_000 });

  test('Ctrl+Z in the title is the editor\'s undo, and leaves the piece drawer closed (QA: a broken drawer came back)', async () => {
    await ui.newPuzzle(5, 4, 1);
    await page.click('#draw-piece');
    await page.fill('#drawer-name', 'A');
    for (const x of [0, 1, 2, 3]) await page.click(`#drawer-grid rect[data-x="${x}"][data-y="0"]`);
    await page.click('#drawer-save');
    await page.waitForSelector('#drawer', { state: 'hidden' });
    await page.fill('#editor-title', 'Typed');
    await page.focus('#editor-title');
    await page.keyboard.press('Control+z'); // the title back as it was
    expect(await page.inputValue('#editor-title')).toBe('My puzzle');
    await page.keyboard.press('Control+z'); // then the piece drawn
    expect(await pieceNames()).toEqual([]);
    await page.keyboard.press('Control+Shift+z');
    expect(await pieceNames()).toEqual(['A']);
    expect(await page.isHidden('#drawer')).toBe(true);
    expect(await page.isVisible('#draw-piece')).toBe(true);
    // the browser's own undo typing into the hidden drawer's name changes nothing either
    await page.$eval('#drawer-name', (el) => { el.value = 'ghost'; el.dispatchEvent(new Event('input', { bubbles: true })); });
    expect(await page.isHidden('#drawer')).toBe(true);
    await idle();
    expect(ui.errors).toEqual([]);
  });

  test('a render between a tool\'s press and its release keeps the click (the tool was replaced: the click went to the row)', async () => {
    await ui.newPuzzle(6, 5, 1);
    await addFromTray('pentominoes', ['F', 'I']);
    await idle(); // (the checks answered: no render of their own comes now)
    const box = await page.locator('#editor-pieces li[data-piece="I"] button[aria-label="Redraw: I"]').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    // an edit renders the list meanwhile, as a check's answer does
    await page.evaluate(() => {
      const field = document.querySelector('#editor-pieces li[data-piece="F"] input[type="text"]');
      field.value = 'F2';
      field.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForSelector('#editor-pieces li[data-piece="F2"]');
    await page.mouse.up();
    await page.waitForSelector('#drawer:not([hidden])', { timeout: 20_000 });
    expect(await page.inputValue('#drawer-name')).toBe('I');
    await page.click('#drawer-cancel');
    await idle();
    expect(ui.errors).toEqual([]);
  });

  test('Save in a Redraw drawer saves the piece opened, whatever the list did meanwhile (QA: it overwrote another)', async () => {
    await ui.newPuzzle(6, 5, 1);
    await addFromTray('pentominoes', ['F', 'I', 'L']);
    await page.click('#editor-pieces li[data-piece="I"] button[aria-label="Redraw: I"]');
    await page.fill('#drawer-name', 'Long');
    await page.click('#drawer-grid rect[data-x="5"][data-y="0"]'); // a sixth cell (I lies along x)
    await page.click('#editor-pieces li[data-piece="F"] button[aria-label="Delete: F"]');
    await page.click('#drawer-save');
    await page.waitForSelector('#drawer', { state: 'hidden' });
    expect(await pieceNames()).toEqual(['Long', 'L']);
    const cells = await page.evaluate(() => window.__polycube.state().editor.puzzle.pieces.map((p) => [p.name, p.cells.length]));
    expect(cells).toEqual([['Long', 6], ['L', 5]]);
    // the piece itself gone (undone) while its drawer is open: Save says so and offers to add it
    await page.click('#editor-pieces li[data-piece="L"] button[aria-label="Redraw: L"]');
    await page.click('#undo'); // the rename: Long is I again
    await page.click('#undo'); // the redraw
    await page.click('#undo'); // F back
    await page.click('#undo'); // L gone: only F and I
    expect(await pieceNames()).toEqual(['F', 'I']);
    await page.click('#drawer-save');
    // (the drawer renders the refusal after the click's state change: wait for it, do not read at once)
    await page.waitForFunction(() => /^L, the piece being redrawn, is no longer in the puzzle/.test(document.getElementById('drawer-note').textContent));
    // renders meanwhile (as a check's answer makes one) leave the refusal shown
    await page.evaluate(() => {
      for (const name of ['F2', 'F']) {
        const field = document.querySelector('#editor-pieces li input[type="text"]');
        field.value = name;
        field.dispatchEvent(new Event('input', { bubbles: true }));
      }
    });
    expect(await page.textContent('#drawer-note')).toMatch(/^L, the piece being redrawn, is no longer in the puzzle/);
    expect(await page.textContent('#drawer-save')).toBe('Add piece');
    await page.click('#drawer-save');
    await page.waitForSelector('#drawer', { state: 'hidden' });
    expect(await pieceNames()).toEqual(['F', 'I', 'L']);
  });

  test('"Fits nowhere" names the piece that fits nowhere, holes or not (QA: it named the next one)', async () => {
    await ui.newPuzzle(4, 4, 1);
    await addFromTray('pentominoes', ['I', 'P']);
    await addFromTray('tetrominoes', ['O']);
    await idle();
    expect(await ui.check('nowhere')).toMatch(/Fits nowhere in the space: I\.$/);
    await page.click('#space-grid rect[data-x="3"][data-y="3"]'); // a hole: the text now has a '*' piece first
    await page.waitForFunction(() => /15 cells in the space/.test(document.getElementById('editor-checks').textContent));
    await idle();
    expect(await ui.check('nowhere')).toMatch(/Fits nowhere in the space: I\.$/);
  });

  test('an empty title is "Untitled puzzle" on the stage, not the name of the puzzle opened before (QA)', async () => {
    await ui.pickLibrary('soma.txt');
    await ui.newPuzzle(4, 3, 1);
    await page.fill('#editor-title', '');
    await page.waitForFunction(() => document.getElementById('stage-title').textContent === 'Untitled puzzle (editing)');
  });

  test('copies left at 0 or empty come back to the count the puzzle keeps; Escape closes the drawer', async () => {
    await ui.newPuzzle(5, 4, 1);
    await addFromTray('tetrominoes', ['L']);
    const count = '#editor-pieces li[data-piece="L"] input[type="number"]';
    await page.fill(count, '3');
    await page.fill(count, '0');
    expect(await page.getAttribute(count, 'aria-invalid')).toBe('true');
    await page.click('#editor-title'); // leaves the field
    expect(await page.inputValue(count)).toBe('3');
    expect(await page.getAttribute(count, 'aria-invalid')).toBe(null);
    await page.click('#draw-piece');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#drawer', { state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement.id)).toBe('draw-piece');
  });

  test('a field being typed into stays the same field when the list renders meanwhile (its selection kept)', async () => {
    await ui.newPuzzle(5, 4, 1);
    await addFromTray('tetrominoes', ['L', 'T']);
    await idle();
    const count = '#editor-pieces li[data-piece="L"] input[type="number"]';
    // the copies selected to be typed over; then another edit renders the list (as a check's
    // answer does), the focus staying in the field
    const same = await page.evaluate((sel) => {
      const field = document.querySelector(sel);
      field.focus();
      field.select();
      const other = document.querySelector('#editor-pieces li[data-piece="T"] input[type="text"]');
      other.value = 'T2';
      other.dispatchEvent(new Event('input', { bubbles: true }));
      return document.querySelector(sel) === field && document.activeElement === field;
    }, count);
    expect(same).toBe(true);
    expect(await pieceNames()).toEqual(['L', 'T2']);
    await page.keyboard.type('3');
    expect(await page.inputValue(count)).toBe('3');
    await idle();
    expect(await page.inputValue(count)).toBe('3');
    // an undo while the field has the focus shows the count it brings back
    await page.keyboard.press('Control+z');
    expect(await page.inputValue(count)).toBe('1');
  });

  test('the cell grids read as cells: the keyboard cursor is the active cell, with its place and state', async () => {
    await ui.newPuzzle(3, 2, 1);
    await page.focus('#space-grid');
    for (const key of ['ArrowLeft', 'ArrowLeft', 'ArrowDown']) await page.keyboard.press(key); // (the cursor stays where it was)
    const active = () => page.evaluate(() => {
      const g = document.getElementById('space-grid');
      const cell = document.getElementById(g.getAttribute('aria-activedescendant'));
      return cell ? `${cell.getAttribute('role')} ${cell.getAttribute('aria-label')}` : null;
    });
    expect(await active()).toBe('gridcell x 1, y 1: in the space');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space');
    expect(await active()).toBe('gridcell x 2, y 1: removed');
    expect(await page.$$eval('#space-grid [role="row"]', (rows) => rows.map((r) => r.querySelectorAll('[role="gridcell"]').length))).toEqual([3, 3]);
  });

  test('reloaded with the editor open, Close editor leaves a page with the puzzle loaded (QA: a dead page)', async () => {
    await ui.newPuzzle(4, 2, 1);
    await page.fill('#editor-title', 'Beta');
    await addFromTray('tetrominoes', ['O', 'O']); // (two squares fill the 4x2 board)
    await idle();
    await saved();
    await page.reload();
    await page.waitForSelector('#editor-body:not([hidden])');
    await idle();
    await page.click('#editor-close');
    await page.waitForSelector('#editor-body', { state: 'hidden' });
    await page.waitForFunction(() => document.body.dataset.state === 'ready' && window.__polycube.puzzle && window.__polycube.puzzle.title === 'Beta', null, { timeout: 20_000 });
    expect(await page.textContent('#stage-title')).toBe('Beta');
    expect(await page.isDisabled('#solve')).toBe(false);
    expect(await page.isDisabled('#edit-copy')).toBe(false);
    expect(await page.$eval('#library', (s) => s.options[s.selectedIndex] && s.options[s.selectedIndex].textContent)).toBe('Beta');
    await page.click('#solve');
    await page.waitForFunction(() => window.__polycube.state().run.options !== undefined && ['done', 'error'].includes(document.body.dataset.state) && window.__polycube.state().solutions.total > 0, null, { timeout: 30_000 });
    expect(ui.errors).toEqual([]);
  });

  test('an edit and a reload at once keep the edit: the page saves it as it goes away', async () => {
    await ui.newPuzzle(4, 2, 1);
    await page.fill('#editor-title', 'Delta');
    await page.selectOption('#tray-set', 'tetrominoes');
    await saved();
    // the click and the page going away in one task: within the autosave's pause
    const saves = await page.evaluate(() => {
      document.querySelector('#tray-pieces button[aria-label="Add piece O"]').click();
      const before = window.__polycube.editorSaved();
      window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
      return { before, after: window.__polycube.editorSaved() };
    });
    expect(saves).toEqual({ before: false, after: true });
    await page.reload();
    await page.waitForSelector('#editor-body:not([hidden])');
    expect(await page.inputValue('#editor-title')).toBe('Delta');
    expect(await pieceNames()).toHaveLength(1);
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('polycube.myPuzzles.v1')).filter((p) => p.title === 'Delta').length);
    expect(kept).toBe(1);
    expect(ui.errors).toEqual([]);
  });
});

describe('two tabs on one of My puzzles', () => {
  test('a change saved by another tab is said in this one, not silently overwritten (QA)', async () => {
    await ui.newPuzzle(4, 2, 1);
    await page.fill('#editor-title', 'Gamma');
    await page.selectOption('#tray-set', 'tetrominoes');
    await page.click('#tray-pieces button[aria-label="Add piece I"]');
    await page.waitForFunction(() => !document.querySelector('#editor-checks [data-check="pending"]'), null, { timeout: 10_000 });
    await saved();
    const other = await page.context().newPage(); // the same browser: the same storage
    await other.goto(page.url());
    await other.waitForSelector('#editor-body:not([hidden])');
    expect(await other.inputValue('#editor-title')).toBe('Gamma');
    await other.selectOption('#tray-set', 'tetrominoes');
    await other.click('#tray-pieces button[aria-label="Add piece O"]');
    await saved(other); // saved there
    await page.waitForFunction(() => /"Gamma" was changed in My puzzles by another tab or window\. This tab still shows its own version/.test(document.getElementById('notice-text').textContent), null, { timeout: 10_000 });
    await other.close();
    await page.click('#notice-close');
  });
});

describe('colours while editing', () => {
  test('deleting a piece leaves the other pieces their colours: in the editor, on the stage, loaded, after a reload (QA: all shifted)', async () => {
    await ui.pickLibrary('pentominoes_10x6.txt');
    const legend = () => page.$$eval('#legend .legend-piece', (bs) => Object.fromEntries(bs.map((b) => [b.textContent.trim(), b.querySelector('svg rect').getAttribute('fill')])));
    const listed = () => page.$$eval('#editor-pieces li[data-piece]', (lis) => Object.fromEntries(lis.map((li) => [li.dataset.piece, li.querySelector('svg rect').getAttribute('fill')])));
    const before = await legend();
    await page.click('#edit-copy');
    await page.waitForSelector('#editor-body:not([hidden])');
    expect(await listed()).toEqual(before); // the copy as the puzzle was
    await page.click('#editor-pieces li[data-piece="F"] button[aria-label="Delete: F"]');
    const { F, ...others } = before;
    expect(F).toBeTruthy();
    expect(await listed()).toEqual(others);
    await page.waitForFunction(() => document.querySelectorAll('#legend .legend-piece').length === 11);
    expect(await legend()).toEqual(others); // the stage's legend, drawing the puzzle being edited
    // F added again, at the end of the list: the colour it had (the lowest one free)
    await page.selectOption('#tray-set', 'pentominoes');
    await page.fill('#tray-copies', '1');
    await page.click('#tray-pieces button[aria-label="Add piece F"]');
    expect(await listed()).toEqual(before);
    // loaded into the engine (Load definition while editing, as Solve this puzzle loads it): the same colours
    await page.evaluate(() => { document.getElementById('custom').open = true; });
    expect(await ui.loadBy(() => page.click('#def-load'))).toBe('ready');
    await page.waitForFunction(() => /my copy/.test(document.getElementById('stage-title').textContent) && !/editing/.test(document.getElementById('stage-title').textContent));
    expect(await legend()).toEqual(before);
    await page.click('#editor-close');
    await page.waitForSelector('#editor-body', { state: 'hidden' });
    expect(await legend()).toEqual(before); // the loaded puzzle, the editor closed: F last, in F's colour
    await page.reload(); // and after a reload (the session keeps the slots)
    await ui.waitState(['ready', 'error']);
    await page.waitForFunction(() => /my copy/.test(document.getElementById('stage-title').textContent));
    expect(await legend()).toEqual(before);
  });
});
