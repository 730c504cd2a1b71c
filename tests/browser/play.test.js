// Playing by hand, driven as a person would: the 10x6 pentominoes played to a dead end (pieces
// dragged from the tray, and tapped then put down), "What's wrong?" naming the piece in the way,
// a hint placed, undo and redo; a challenge's link opened in a fresh browser on a phone-sized
// page and finished there; a piece put in the Soma cube's box on a chosen layer; "Where can it
// go?" for the piece in hand, checked against the command line's --placements. Every wait is
// for a state the page shows (the Play card's data-count and data-answer), never for time.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { CLI, OUT, openPage, usePage } from './page-driver.js';
import { repoRoot } from './server.js';
import { fits, flipHand, handCells, playGrid, turnHand } from '../../web/src/model/play.js';
import { deflateSync } from 'fflate';
import { LINK_PREFIX, decodeState, toBase64Url } from '../../web/src/share/link.js';

const handle = usePage();
let ui;
let page;
let server;
beforeAll(() => ({ ui, page, server } = handle));
const others = [];
afterAll(async () => { for (const o of others) await o.browser.close(); });

const at = (x, y, z = 0) => x + 10 * (y + 6 * z);
let deadEnd = null; // the first test's dead end: its link and its pieces

/** The play status line's kind and the colour of its dot. */
const statusDot = (p) => p.evaluate(() => {
  const el = document.getElementById('play-status');
  return { kind: el.dataset.play, colour: getComputedStyle(el, '::before').backgroundColor };
});

/** Helpers on one page (touch: it taps as a finger does). */
function player(p, { touch = false } = {}) {
  const press = (selector) => (touch ? p.tap(selector) : p.click(selector));
  const pressAt = (x, y) => (touch ? p.touchscreen.tap(x, y) : p.mouse.click(x, y));
  const d = {
    play: () => p.evaluate(() => window.__polycube.state().play),
    puzzle: () => p.evaluate(() => { const s = window.__polycube.state(); return s.puzzles[s.puzzleIndex]; }),
    instance: async (name) => (await d.puzzle()).instances.findIndex((i) => i.name === name),
    async count() {
      await p.waitForFunction(() => (document.getElementById('play-card').dataset.count || '').startsWith('done:'), null, { polling: 50 });
      return p.evaluate(() => Number(document.getElementById('play-card').dataset.count.slice(5)));
    },
    async answer(kind) {
      await p.waitForFunction((k) => document.getElementById('play-card').dataset.answer === k, kind, { polling: 50 });
      return p.textContent('#play-answer');
    },
    cell: (c) => p.evaluate((k) => window.__polycube.playCell(k), c),
    /** Drag a piece from the tray and let go over box cell `cell` (the piece's middle lands there). */
    async drag(instance, cell) {
      const from = await p.locator(`#play-tray [data-instance="${instance}"]`).boundingBox();
      const to = await d.cell(cell);
      await p.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await p.mouse.down();
      await p.mouse.move(to.x, to.y, { steps: 10 });
      await p.mouse.up();
    },
    placedCount: async () => (await d.play()).placed.length,
    /**
     * Put `instance` on exactly `cells` by hand: tap it in the tray, turn it (R) and flip it (F)
     * until its shape matches, tap the cell its handle goes on.
     */
    async placeByHand(instance, cells) {
      const before = await d.placedCount();
      await press(`#play-tray [data-instance="${instance}"]`);
      await p.waitForFunction((n) => { const h = window.__polycube.state().play.hand; return h && h.instance === n; }, instance);
      const hand = (await d.play()).hand;
      const box = await d.puzzle();
      const want = [...cells].sort((a, b) => a - b).join();
      for (let flips = 0; flips < 2; flips++) {
        for (let turns = 0; turns < 4; turns++) {
          let t = flips ? flipHand(hand) : hand;
          for (let k = 0; k < turns; k++) t = turnHand(t, 'z');
          const target = cells.find((c) => {
            const got = handCells(box, t, c);
            return got && [...got].sort((a, b) => a - b).join() === want;
          });
          if (target === undefined) continue;
          // (a phone has no keys: its buttons; else the keys F and R)
          if (flips) await (touch ? p.tap('#play-flip') : p.keyboard.press('f'));
          for (let k = 0; k < turns; k++) await (touch ? p.tap('#play-turn') : p.keyboard.press('r'));
          await p.waitForFunction((h) => JSON.stringify(window.__polycube.state().play.hand.cells) === h, JSON.stringify(t.cells));
          const to = await d.cell(target);
          await pressAt(to.x, to.y);
          await p.waitForFunction((n) => window.__polycube.state().play.placed.length === n, before + 1);
          return;
        }
      }
      throw new Error(`no turn of piece ${instance} covers ${want}`);
    },
  };
  return d;
}

describe('playing by hand', () => {
  test('the 10x6 played to a dead end: What\'s wrong? names the piece, a hint is taken, undo and redo', async () => {
    const g = player(page);
    await page.click('#play-start');
    expect(await g.count()).toBe(1001);
    expect(await page.textContent('#play-status')).toBe('Can still be finished: more than 1,000 ways.');
    expect(await statusDot(page)).toEqual({ kind: 'open', colour: 'rgb(79, 209, 139)' }); // (--ok)
    // a hint on the empty board: the piece of a finish in its tightest corner, then placed
    await page.click('#play-hint');
    expect(await g.answer('hint')).toMatch(/^Hint: \w+ goes where the pale blocks are\.$/);
    const hint = (await g.play()).hint;
    expect(hint.cells).toContain(at(0, 0));
    await ui.shot('play-hint-1400x860.png');
    await page.click('#play-follow');
    expect(await g.placedCount()).toBe(1);
    expect(await g.count()).toBeGreaterThan(0);
    // a second hint, put down by hand: tapped in the tray, turned, tapped onto the board
    await page.click('#play-hint');
    await g.answer('hint');
    const second = (await g.play()).hint;
    await g.placeByHand(second.instance, second.cells);
    expect((await g.play()).placed[1]).toEqual({ instance: second.instance, cells: [...second.cells].sort((a, b) => a - b) });
    expect(await g.count()).toBeGreaterThan(0);
    const i = second.instance;
    // the X dragged from the tray into the opposite corner's neighbourhood walls (9,5) in
    const x = await g.instance('X');
    await g.drag(x, at(8, 4));
    await page.waitForFunction((n) => window.__polycube.state().play.placed.length === n, 3);
    expect((await g.play()).placed[2]).toEqual({ instance: x, cells: [at(8, 3), at(7, 4), at(8, 4), at(9, 4), at(8, 5)] });
    expect(await g.count()).toBe(0);
    expect(await page.textContent('#play-status')).toBe("This can no longer be finished: undo, or ask What's wrong?");
    expect(await statusDot(page)).toEqual({ kind: 'dead', colour: 'rgb(255, 107, 122)' }); // (--err)
    // the address carries the dead end (a later test opens it in another browser)
    await expect.poll(() => {
      const r = decodeState(new URL(page.url()).hash);
      return r.ok && r.state.play ? r.state.play.placed.length : 0;
    }, { interval: 50, timeout: 20_000 }).toBe(3);
    deadEnd = { link: page.url(), placed: (await g.play()).placed };
    // What's wrong?: the newest piece whose removal leaves a packing that can be finished
    await page.click('#play-wrong');
    // (the X is the newest; without it, the two hints' pieces are of one finish)
    expect(await g.answer('culprit')).toBe('X is in the way (framed in red): without it, the rest can still be finished.');
    expect((await g.play()).wrong.culprit).toBe(x);
    await ui.shot('play-whats-wrong-1400x860.png');
    // done as said: the X taken away, the rest can be finished again
    await page.click('#play-follow');
    expect(await g.count()).toBeGreaterThan(0);
    expect((await g.play()).placed.map((p) => p.instance)).not.toContain(x);
    // undo brings the X back (a dead end again), redo takes it away again
    await page.click('#play-undo');
    expect(await g.count()).toBe(0);
    await page.keyboard.press('Control+y');
    expect(await g.count()).toBeGreaterThan(0);
    expect(await page.getAttribute('#play-undo', 'title')).toBe('Undo take back X (Ctrl+Z)');
    // a placed piece dragged on the board moves (one step to undo), the view does not turn
    const camera = await page.evaluate(() => window.__polycube.cameraAt());
    const grab = await page.evaluate((piece) => window.__polycube.pointOfPiece(piece), i); // (piece index = instance on this board)
    await page.mouse.move(grab.x, grab.y);
    await page.mouse.down();
    await page.mouse.move(grab.x + 8, grab.y, { steps: 2 });
    await page.waitForFunction((n) => { const h = window.__polycube.state().play.hand; return h && h.instance === n; }, i);
    const held = await g.play();
    const box = await g.puzzle();
    const grid = playGrid(box, held.placed);
    const target = [...Array(60).keys()].find((c) => fits(grid, handCells(box, held.hand, c)) && c !== held.cursor);
    const drop = await g.cell(target);
    await page.mouse.move(drop.x, drop.y, { steps: 6 });
    await page.mouse.up();
    // (checked first: a view turned by the drag moves the drop point off the cell aimed at)
    expect(await page.evaluate(() => window.__polycube.cameraAt())).toEqual(camera);
    await page.waitForFunction((n) => window.__polycube.state().play.placed.length === n, held.placed.length + 1);
    const moved = await g.play();
    expect(moved.placed[moved.placed.length - 1]).toEqual({ instance: i, cells: handCells(box, held.hand, target) });
    expect(moved.history.undoName).toBe(`move ${box.instances[i].name}`);
    await page.click('#play-undo');
    await page.waitForFunction((n) => window.__polycube.state().play.placed.some((p) => p.instance === n), i);
    // a placed piece taken back by a click goes into the hand, and Escape puts it in the tray
    const on = await page.evaluate((piece) => window.__polycube.pointOfPiece(piece), i);
    await page.mouse.click(on.x, on.y);
    await page.waitForFunction((n) => window.__polycube.state().play.hand && window.__polycube.state().play.hand.instance === n, i);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => window.__polycube.state().play.hand === null);
    expect(await page.isVisible(`#play-tray [data-instance="${i}"]`)).toBe(true);
    expect(ui.errors).toEqual([]);
  });

  test("a challenge's link opens in a fresh phone (touch) and is finished there: hints, then the last piece tapped in", async () => {
    const g = player(page);
    await page.click('#play-challenges [data-challenge="pentominoes_10x6-1"]');
    await page.waitForFunction(() => window.__polycube.state().play.challenge === 'pentominoes_10x6-1');
    expect(await g.count()).toBe(1);
    expect(await page.textContent('#play-status')).toBe('Can still be finished: exactly one way.');
    const given = (await g.play()).given;
    expect(given).toBeGreaterThan(0);
    // the address follows the game (LinkSync writes it)
    let link = '';
    await expect.poll(() => {
      link = page.url();
      const r = decodeState(new URL(link).hash);
      return r.ok && r.state.play ? r.state.play.challenge : '';
    }, { interval: 50, timeout: 20_000 }).toBe('pentominoes_10x6-1');

    const phone = await openPage(link, { width: 390, height: 844, touch: true });
    others.push(phone);
    expect(await phone.waitState(['ready', 'error'])).toBe('ready');
    const h = player(phone.page, { touch: true });
    await phone.page.waitForFunction(() => window.__polycube.state().play.active);
    expect(await h.count()).toBe(1);
    const start = await h.play();
    expect(start.given).toBe(given);
    expect(start.challenge).toBe('pentominoes_10x6-1');
    expect((await phone.hooks()).piecesDrawn).toBe(given);
    await phone.shot('play-challenge-390x844.png');
    const puzzle = await h.puzzle();
    const mobile = puzzle.instances.filter((x) => !x.stationary).length;
    // every piece but the last by a hint (placed where it shows), the last by hand
    while ((await h.placedCount()) < mobile - 1) {
      const n = await h.placedCount();
      await phone.page.tap('#play-hint');
      await h.answer('hint');
      await phone.page.tap('#play-follow');
      await phone.page.waitForFunction((k) => window.__polycube.state().play.placed.length === k + 1, n);
      expect(await h.count()).toBe(1);
    }
    // the last piece: tapped in the tray, turned to fit the hole left, tapped onto it
    const s = await h.play();
    const last = puzzle.instances.findIndex((x, k) => !x.stationary && !s.placed.some((p) => p.instance === k));
    const taken = new Set(s.placed.flatMap((p) => p.cells));
    await h.placeByHand(last, [...Array(60).keys()].filter((c) => !taken.has(c)));
    expect(await h.count()).toBe(1);
    expect(await phone.page.textContent('#play-status')).toBe('Solved! Every piece is in place.');
    expect(await phone.page.textContent('#stage-solution')).toBe(`${mobile} of ${mobile} placed`);
    await phone.shot('play-solved-390x844.png');
    expect(phone.errors).toEqual([]);
  });

  test('the link of a dead end opens the same pieces in another browser, still a dead end', async () => {
    expect(deadEnd).not.toBeNull();
    const other = await openPage(deadEnd.link, { width: 1400, height: 860 });
    others.push(other);
    expect(await other.waitState(['ready', 'error'])).toBe('ready');
    await other.page.waitForFunction(() => window.__polycube.state().play.active);
    const h = player(other.page);
    expect(await h.count()).toBe(0);
    const opened = await h.play();
    expect(opened.placed).toEqual(deadEnd.placed);
    expect(opened.given).toBe(0);
    expect(await other.page.textContent('#play-status')).toBe("This can no longer be finished: undo, or ask What's wrong?");
    expect(other.errors).toEqual([]);
  });

  test("a link whose pieces are no packing opens an empty board, with the engine's reason", async () => {
    const x = await player(page).instance('X');
    const forged = LINK_PREFIX + toBase64Url(deflateSync(new TextEncoder().encode(JSON.stringify({
      puzzle: { library: 'pentominoes_10x6.txt' }, options: '-r', play: { placed: [[x, 0, 1, 2, 3, 4]] },
    }))));
    const other = await openPage(`${server.url}${forged}`, { width: 1400, height: 860 });
    others.push(other);
    expect(await other.waitState(['ready', 'error'])).toBe('ready');
    await other.page.waitForFunction(() => document.getElementById('notice')?.hidden === false);
    expect(await other.page.textContent('#notice-text')).toBe("The pieces in the link could not be placed: placement 1 (piece X): its cells are not the piece's shape. The board is empty.");
    const h = player(other.page);
    expect(await h.count()).toBe(1001);
    expect((await h.play()).placed).toEqual([]);
    expect(other.errors).toEqual([]);
  });

  test('a piece goes into the Soma cube on the layer chosen', async () => {
    const g = player(page);
    await ui.pickLibrary('soma.txt');
    await page.click('#play-start');
    expect(await g.count()).toBe(1001); // 11,520 packings without -r: more than the cap (too many subproblems to count them all)
    expect(await page.isVisible('#play-layer-up')).toBe(true);
    const v = await g.instance('V');
    await page.click(`#play-tray [data-instance="${v}"]`);
    await page.keyboard.press('PageUp');
    expect(await page.textContent('#play-layer')).toBe('layer 2 of 3');
    // the V (three cubes, flat in its definition) with its middle on x=1, y=1 of layer 2
    const cell = 1 + 3 * (1 + 3 * 1);
    const to = await g.cell(cell);
    await page.mouse.move(to.x, to.y, { steps: 4 });
    await page.waitForFunction((c) => window.__polycube.state().play.cursor === c, cell);
    await ui.shot('play-soma-1400x860.png');
    await page.mouse.click(to.x, to.y);
    await page.waitForFunction(() => window.__polycube.state().play.placed.length === 1);
    const placed = (await g.play()).placed[0];
    expect(placed.instance).toBe(v);
    expect(placed.cells.every((c) => Math.floor(c / 9) === 1)).toBe(true); // all on layer 2
    // floating pieces are a packing too: the engine counts the ways around it
    expect(await g.count()).toBeGreaterThanOrEqual(0);
    await page.click('#play-stop');
    expect(await page.isVisible('#play-start')).toBe(true);
    expect(ui.errors).toEqual([]);
  });

  test('21 dominoes: past the cap of 1,000 the ways to finish are counted whole (31,529, then the command line\'s count with one placed)', async () => {
    const g = player(page);
    expect(await ui.loadDefinition(fs.readFileSync(path.join(repoRoot, 'def/copies/dominoes_7x6.txt'), 'utf8'))).toBe('ready');
    await page.click('#play-start');
    expect(await g.count()).toBe(31529);
    expect(await page.textContent('#play-status')).toBe('Can still be finished: 31,529 ways.');
    await g.placeByHand(0, [0, 1]); // a domino across the first two cells of the bottom row
    // the command line's count of the rest, that domino made stationary
    const rest = path.join(OUT, 'dominoes-7x6-one-placed.txt');
    fs.writeFileSync(rest, 'D:xDim=7:yDim=6:zDim=1\nC:name=D:count=20:layout=0 0 0, 1 0 0\nC:name=*:type=S:layout=0 0 0, 1 0 0\n~D\n');
    const want = Number(execFileSync(CLI, ['-q', '--json', rest], { encoding: 'utf8' }).match(/"solutions":(\d+)/)[1]);
    expect(want).toBeGreaterThan(1000);
    expect(await g.count()).toBe(want);
    await ui.shot('play-dominoes-1400x860.png');
    await page.click('#play-stop');
    expect(ui.errors).toEqual([]);
  });

  test('Where can it go? shows the places of the piece in hand, the best first, as the command line counts them; Next place, then placed there', async () => {
    const g = player(page);
    expect(await ui.loadDefinition(fs.readFileSync(path.join(repoRoot, 'def/pentominoes_10x6.txt'), 'utf8'))).toBe('ready');
    await page.click('#play-start');
    await g.count();
    expect(await page.isDisabled('#play-where')).toBe(true); // (nothing in hand)
    const f = await g.instance('F');
    await page.click(`#play-tray [data-instance="${f}"]`);
    await page.waitForFunction((n) => { const h = window.__polycube.state().play.hand; return h && h.instance === n; }, f);
    await page.click('#play-where');
    const said = await g.answer('where');
    expect(said).toMatch(/^F fits [\d,]+ places that can still be finished\. Shown \(pale blocks\): the best place, in [\d,]+ of the 9,356 ways to finish \(\d+(\.\d)?%\)\. The dots: where F lies in the ways to finish, bigger where it does in more\.$/);
    const where = (await g.play()).where;
    expect(where.places.reduce((sum, q) => sum + q.completions, 0)).toBe(9356);
    // the command line's --placements: F's places with their counts, the same best count
    const lines = execFileSync(CLI, ['--memo', '--placements', path.join(repoRoot, 'def/pentominoes_10x6.txt')], { encoding: 'utf8' })
      .split('\n').filter((l) => l.startsWith('F\t')).map((l) => Number(l.split('\t')[2]));
    expect(lines.filter((n) => n > 0).length).toBe(where.places.length);
    expect(Math.max(...lines)).toBe(where.places[0].completions);
    expect(await page.textContent('#play-follow')).toBe('Place F there');
    await ui.shot('play-where-1400x860.png');
    // the next place, then put there: the count of the board is that place's
    await page.click('#play-next-place');
    expect(await g.answer('where')).toMatch(/Shown \(pale blocks\): place 2 of [\d,]+, in [\d,]+ of the 9,356 ways/);
    const second = where.places[1];
    await page.click('#play-follow');
    await page.waitForFunction(() => window.__polycube.state().play.placed.length === 1);
    const placed = (await g.play()).placed[0];
    expect(placed).toEqual({ instance: f, cells: second.cells });
    expect((await g.play()).hand).toBeNull();
    expect(await g.count()).toBe(second.completions);
    expect(await page.getAttribute('#play-card', 'data-answer')).toBe('');
    await page.click('#play-undo');
    await page.waitForFunction(() => window.__polycube.state().play.placed.length === 0);
    // the X walling in the corner (9,5): no place for the I can be finished
    const x = await g.instance('X');
    await g.drag(x, at(8, 4));
    await page.waitForFunction(() => window.__polycube.state().play.placed.length === 1);
    expect(await g.count()).toBe(0);
    const iPiece = await g.instance('I');
    await page.click(`#play-tray [data-instance="${iPiece}"]`);
    await page.waitForFunction((n) => { const h = window.__polycube.state().play.hand; return h && h.instance === n; }, iPiece);
    await page.click('#play-where');
    expect(await g.answer('nowhere')).toBe("I has no place left that can still be finished: undo, or ask What's wrong?");
    expect(await page.isVisible('#play-follow')).toBe(false);
    await page.keyboard.press('Escape');
    expect(ui.errors).toEqual([]);
    // on a phone, tapped
    const phone = await openPage(server.url, { width: 390, height: 844, touch: true });
    others.push(phone);
    expect(await phone.waitState(['ready', 'error'])).toBe('ready');
    await phone.page.tap('#play-start');
    const pg = player(phone.page, { touch: true });
    await pg.count();
    await phone.page.tap(`#play-tray [data-instance="${f}"]`);
    await phone.page.waitForFunction((n) => { const h = window.__polycube.state().play.hand; return h && h.instance === n; }, f);
    await phone.page.tap('#play-where');
    expect(await pg.answer('where')).toMatch(/^F fits/);
    await phone.page.locator('#play-answer').scrollIntoViewIfNeeded();
    await phone.shot('play-where-390x844.png');
    expect(phone.errors).toEqual([]);
  });
});
