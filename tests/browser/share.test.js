// Share links, exports and imports driven as a person would (issue 8, "Done when"): a link copied
// from one page and opened in a fresh browser shows the same puzzle, options and solution; each
// kind of hostile link gives its message and a usable page; each export downloads a file that
// the CLI (definition, text) or a parser (JSON) reads back; a file opened by the picker loads.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './server.js';
import { CLI, cliCount, driver, openPage, usePage } from './page-driver.js';
import { LINK_ERRORS, LINK_PREFIX, MAX_LINK_CHARS, decodeState, toBase64Url } from '../../web/src/share/link.js';
import { parseSolutionsJson } from '../../web/src/io/solutions-text.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'polycube-share-'));
const handle = usePage();
let ui;
let page;
let server;
beforeAll(() => ({ ui, page, server } = handle));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Click a button that downloads, and return the file's text. */
async function download(selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const file = path.join(tmp, dl.suggestedFilename());
  await dl.saveAs(file);
  return { name: dl.suggestedFilename(), file, text: fs.readFileSync(file, 'utf8') };
}

/** Open `url` in a fresh browser (no storage shared with the first one). */
async function openFresh(url) {
  const other = await openPage(url, { width: 1400, height: 860 });
  if (url) await other.waitState(['ready', 'error', 'done']);
  return other;
}

const hostile = (payload) => `${server.url}${payload}`;
const linkOf = (bytes) => LINK_PREFIX + toBase64Url(bytes);
const json = (value) => new TextEncoder().encode(JSON.stringify(value));

describe('share links', () => {
  test('a link to a solution opens in a fresh browser with the same puzzle, options and solution, drawn without solving', async () => {
    await ui.pickLibrary('soma.txt');
    await page.fill('#opt-limit', '50');
    await page.waitForFunction(() => document.getElementById('opt-text').value === '-r -l 50');
    await page.click('#solve');
    expect(await ui.waitState(['done', 'error'])).toBe('done');
    for (let k = 0; k < 4; k++) await page.click('#next');
    expect(await page.textContent('#solution-index')).toBe('5');
    await page.check('#view-labels'); // names on the pieces travel too (QA: they did not)
    await page.selectOption('#view-layer', '1'); // and the layer shown alone (QA: it did not)
    // and the camera as the person turned it (QA: the link opened at the default angle)
    const box = await page.locator('#viewport canvas').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 - 40, { steps: 8 });
    await page.mouse.up();
    await page.waitForFunction(() => window.__polycube.state().view.camera !== null, null, { timeout: 5000 });
    await ui.cameraSettled(); // (damping: the camera glides on, then the state follows)
    const camera = await page.evaluate(() => window.__polycube.state().view.camera);
    await page.click('#copy-link');
    const link = await page.inputValue('#link-text');
    expect(link.startsWith(`${server.url}#p1:`)).toBe(true);
    await page.waitForFunction((l) => window.location.href === l, link); // the address follows the state
    const shown = await page.evaluate(() => window.__polycube.sample());
    await page.uncheck('#view-labels'); // (the tests after this one draw without them)
    await page.selectOption('#view-layer', '-1');

    const other = await openFresh(link);
    expect(await other.state()).toBe('ready');
    expect(await other.page.inputValue('#library')).toBe('soma.txt');
    expect(await other.page.inputValue('#opt-text')).toBe('-r -l 50');
    expect(await other.page.inputValue('#opt-limit')).toBe('50');
    expect(await other.page.isChecked('#opt-r')).toBe(true);
    expect(await other.page.textContent('#stage-solution')).toBe('Solution 5 (from the link)');
    expect(await other.page.textContent('#status')).toMatch(/Showing solution 5 from the link/);
    expect((await other.hooks()).piecesDrawn).toBe(7);
    expect(await other.page.isChecked('#view-labels')).toBe(true);
    expect(await other.page.inputValue('#view-layer')).toBe('1');
    const otherCamera = await other.page.evaluate(() => window.__polycube.state().view.camera);
    expect(otherCamera.length).toBe(camera.length);
    otherCamera.forEach((x, i) => expect(Math.abs(x - camera[i]), `camera[${i}]: ${otherCamera} against ${camera}`).toBeLessThanOrEqual(1));
    expect(Number(await other.page.getAttribute('#stat-attempts', 'data-value'))).toBe(0); // nothing was solved
    const sample = await other.page.evaluate(() => window.__polycube.sample());
    expect(sample.colours).toBeGreaterThan(7);
    expect(Math.abs(sample.drawnFraction - shown.drawnFraction)).toBeLessThan(0.02);
    await other.shot('20-link-opened-soma-solution-5.png');
    // solving continues on request
    await other.page.click('#solve');
    expect(await other.waitState(['done', 'error'])).toBe('done');
    expect(await other.solutionCount()).toBe(50);
    // the link's solution stays on the stage, found again among them (QA: it jumped to solution 1)
    expect(await other.page.textContent('#stage-solution')).toBe('Solution 5 of 50');
    // a reload opens the address, which holds that solution: said as what it is (QA: "from the link")
    await other.page.waitForFunction(() => window.__polycube.linkSettled()); // (the address follows a moment later)
    await other.page.reload();
    expect(await other.waitState(['ready', 'error'])).toBe('ready');
    expect(await other.page.textContent('#stage-solution')).toBe('Solution 5 (shown before the reload)');
    expect(await other.page.textContent('#status')).toMatch(/Showing solution 5 shown before the reload/);
    // on a phone the badge stays on the screen (QA: it ran to 457 px of 390)
    await other.page.setViewportSize({ width: 390, height: 844 });
    await other.page.waitForFunction(() => document.getElementById('stage-solution').getBoundingClientRect().right <= 390);
    const title = await other.page.$eval('#stage-title', (e) => e.getBoundingClientRect());
    const badge = await other.page.$eval('#stage-solution', (e) => e.getBoundingClientRect());
    expect(badge.left).toBeGreaterThanOrEqual(title.right); // beside the title, not over it
    await other.shot('20b-link-reloaded-phone.png');
    expect(other.errors).toEqual([]);
    await other.browser.close();
  });

  test('Copy link pressed right after turning the view carries the view as turned, and the address too', async () => {
    const box = await page.locator('#viewport canvas').boundingBox();
    const before = await page.evaluate(() => window.__polycube.state().view.camera);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 150, box.y + box.height / 2 + 30, { steps: 6 });
    await page.mouse.up();
    await page.click('#copy-link'); // at once: the view still glides, the state has not followed yet
    const link = await page.inputValue('#link-text');
    // the address holds it by the time the button is pressed (its own write waits for a pause)
    expect(await page.evaluate(() => window.location.href)).toBe(link);
    const { state } = decodeState(link.slice(link.indexOf('#')));
    const now = await page.evaluate(() => window.__polycube.cameraNow());
    expect(now).not.toEqual(before);
    expect(state.view.camera).toEqual(now); // where the glide came to rest
    expect(await page.evaluate(() => window.__polycube.state().view.camera)).toEqual(now);
  });

  test('a custom puzzle made in the editor travels by link, well under 2,000 characters with a solution', async () => {
    await page.fill('#opt-limit', '');
    await ui.newPuzzle(5, 4, 1);
    await page.selectOption('#tray-set', 'tetrominoes');
    await page.click('#tray-add-all');
    // 5 tetrominoes (20 cells) on a 5x4 board: impossible by parity (the T), and the page says so
    await page.waitForFunction(() => document.querySelector('#editor-checks [data-check="parity"]'));
    expect(await ui.check('parity')).toMatch(/^bad: Impossible: by parity/);
    await page.waitForFunction(() => window.__polycube.linkSettled()); // the address follows after a pause
    const withParity = await page.evaluate(() => window.location.hash);
    const other = await openFresh(`${server.url}${withParity}`);
    await other.page.waitForSelector('#editor-body:not([hidden])');
    expect(await other.page.$$eval('#editor-pieces li[data-piece]', (lis) => lis.map((li) => li.dataset.piece))).toEqual(['I', 'O', 'T', 'S', 'L']);
    await other.browser.close();

    // make it solvable: replace T by a second L... by deleting T and adding L from the tray
    await page.click('#editor-pieces li[data-piece="T"] button[aria-label^="Delete"]');
    await page.click('.tray-piece[aria-label="Add piece L"]');
    await page.click('#editor-solve');
    expect(await ui.waitState(['done', 'error'])).toBe('done');
    const count = await ui.solutionCount();
    expect(count).toBe(cliCount(await page.inputValue('#def-text'), '-r'));
    await page.click('#copy-link');
    const link = await page.inputValue('#link-text');
    const hash = link.slice(link.indexOf('#'));
    console.log(`share link for a 5x4 custom puzzle with a solution: ${hash.length} characters`);
    expect(hash.length).toBeLessThan(2000);
    const again = await openFresh(link);
    expect(await again.page.textContent('#stage-solution')).toMatch(/Solution 1 \(from the link\)/);
    expect((await again.hooks()).piecesDrawn).toBe(5);
    await again.shot('21-link-opened-custom-5x4.png');
    await again.browser.close();
  });

  test('every kind of hostile link is inert: a clear message and a usable page', async () => {
    const cases = [
      ['garbage', '#p1:@@@not*base64@@@', LINK_ERRORS.notBase64],
      ['truncated', '#p1:', LINK_ERRORS.truncated],
      ['cut short', linkOf(deflateSync(json({ puzzle: { library: 'soma.txt', index: 0 }, options: '-r' }))).slice(0, 20), LINK_ERRORS.truncated],
      ['wrong version', '#p7:AAAA', LINK_ERRORS.version('7')],
      ['oversized', `#p1:${'A'.repeat(MAX_LINK_CHARS + 10)}`, LINK_ERRORS.tooLong(MAX_LINK_CHARS + 14)],
      ['decompression bomb', linkOf(deflateSync(new Uint8Array(60_000_000), { level: 9 })), LINK_ERRORS.bomb],
      ['not JSON', linkOf(deflateSync(new TextEncoder().encode('{"puzzle": nope'))), LINK_ERRORS.notJson],
      ['wrong types', linkOf(deflateSync(json({ puzzle: { library: 42 }, options: '-r' }))), /does not describe a puzzle/],
      ['unknown library file', linkOf(deflateSync(json({ puzzle: { library: 'nope.txt', index: 0 } }))), /does not describe a puzzle/],
    ];
    // one fresh browser, a new tab per link (a link's state lives in its address, not in storage)
    const other = await openFresh('');
    for (const [what, payload, message] of cases) {
      const tab = await other.browser.context.newPage();
      const errors = [];
      tab.on('pageerror', (err) => errors.push(String(err)));
      await tab.goto(hostile(payload));
      const d = driver(tab);
      expect(await d.waitState(['ready', 'error']), what).toBe('ready'); // the default puzzle, usable
      const notice = await tab.textContent('#notice-text');
      if (message instanceof RegExp) expect(notice, what).toMatch(message);
      else expect(notice, what).toContain(message);
      expect((await d.hooks()).puzzle, what).toMatchObject({ xDim: 10, yDim: 6 });
      if (what === 'decompression bomb') await d.shot('22-hostile-link-bomb.png');
      expect(errors, what).toEqual([]);
      await tab.close();
    }
    await other.browser.close();
  }, 180_000);

  test('link contents never become markup, and a forged solution is not drawn', async () => {
    const title = '<img src=x onerror="window.__pwned=1">';
    const definition = `# ${title}\nD:xDim=2:yDim=1:zDim=1\nC:name=A:layout=0 0 0, 1 0 0\n~D\n`;
    const forged = linkOf(deflateSync(json({ puzzle: { definition }, options: '-r', solution: { index: 1, grid: [0, 0] } })));
    const other = await openFresh(hostile(forged));
    expect(await other.page.textContent('#stage-title')).toContain('<img');
    expect(await other.page.evaluate(() => document.querySelectorAll('img').length)).toBe(0);
    expect(await other.page.evaluate(() => window.__pwned)).toBeUndefined();
    await other.browser.close();
    // a grid that names the right pieces but not in their shapes
    const soma = fs.readFileSync(path.join(repoRoot, 'def', 'soma.txt'), 'utf8');
    const grid = Array.from({ length: 27 }, (_, i) => i % 7);
    const bad = linkOf(deflateSync(json({ puzzle: { definition: soma }, options: '-r', solution: { index: 3, grid } })));
    const o2 = await openFresh(hostile(bad));
    expect(await o2.page.textContent('#notice-text')).toMatch(/solution was not shown: .*do not have its shape/);
    expect((await o2.hooks()).piecesDrawn).toBe(0);
    await o2.browser.close();
  });
});

describe('export and import', () => {
  test('the definition, the solutions as text and JSON download and read back', async () => {
    await page.click('#editor-close');
    await ui.pickLibrary('pentominoes_10x6.txt');
    await page.fill('#opt-limit', '');
    await page.waitForFunction(() => document.getElementById('opt-text').value === '-r');
    await page.click('#solve');
    expect(await ui.waitState(['done', 'error'])).toBe('done');
    expect(await ui.solutionCount()).toBe(2339);

    const def = await download('#download-def');
    expect(def.name).toBe('pentominoes_10x6.txt');
    expect(cliCount(def.text, '-r')).toBe(2339);

    const text = await download('#export-text');
    // the CLI prints the same solutions in the same layout, numbered 1, 2, ... in the order
    // found (the page's workers and the CLI's threads find them in different orders)
    const cli = execFileSync(CLI, ['-r', def.file], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const blocks = (s) => s.split('# --- SOLUTION ').slice(1).map((b) => b.split('\n\n')[0].trim());
    const numbers = (s) => blocks(s).map((b) => Number.parseInt(b, 10));
    const grids = (s) => blocks(s).map((b) => b.slice(b.indexOf('\n') + 1)).sort();
    expect(blocks(text.text).length).toBe(2339);
    expect(numbers(text.text)).toEqual(Array.from({ length: 2339 }, (_, k) => k + 1));
    expect(grids(text.text)).toEqual(grids(cli).slice(0, 2339));

    const exported = await download('#export-json');
    const parsed = parseSolutionsJson(exported.text);
    expect(parsed.ok).toBe(true);
    expect(parsed.value.solutions.length).toBe(2339);
    expect(parsed.value.options).toBe('-r');
  });

  test('a definition file opened with the picker or dropped on the page loads; a bad one shows its error by the text', async () => {
    const good = path.join(tmp, 'two-dominoes.txt');
    fs.writeFileSync(good, '# Two dominoes\nD:xDim=2:yDim=2:zDim=1\nC:name=A:layout=0 0 0, 1 0 0\nC:name=B:layout=0 0 0, 0 1 0\n~D\n');
    await page.setInputFiles('#import-file', good);
    expect(await ui.waitState(['ready', 'error'])).toBe('ready');
    expect((await ui.hooks()).puzzle).toMatchObject({ title: 'Two dominoes', xDim: 2, yDim: 2 });
    expect(await page.$$eval('#library optgroup[label="My puzzles"] option', (os) => os.map((o) => o.textContent))).toContain('Two dominoes');
    const bad = path.join(tmp, 'broken.txt');
    fs.writeFileSync(bad, 'D:xDim=2:yDim=2:zDim=1\nC:name=A:layout=0 0\n~D\n');
    await page.setInputFiles('#import-file', bad);
    await page.waitForSelector('#def-error:not([hidden])');
    expect(await page.textContent('#def-error-text')).toMatch(/^broken\.txt:2:/);
    expect((await ui.hooks()).puzzle).toMatchObject({ title: 'Two dominoes' }); // the last good puzzle stays
    // a file dropped anywhere on the page opens too
    const soma = fs.readFileSync(path.join(repoRoot, 'def', 'soma.txt'), 'utf8');
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'dropped-soma.txt', { type: 'text/plain' }));
      document.getElementById('viewport').dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      document.getElementById('viewport').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, soma);
    await page.waitForFunction(() => window.__polycube.puzzle && window.__polycube.puzzle.zDim === 3 && document.body.dataset.state === 'ready');
    expect((await ui.hooks()).puzzle).toMatchObject({ xDim: 3, yDim: 3, zDim: 3, pieces: 7 });
    expect(await page.isHidden('#def-error')).toBe(true);
    expect(ui.errors).toEqual([]);
  });

  test('text typed but not loaded survives a reload (the address holds a link), a refused link and a good one', async () => {
    // a tab of its own in a fresh browser: this test's storage is its own
    const other = await openFresh(server.url);
    const tab = other.page;
    const typed = 'D:xDim=3:yDim=1:zDim=1\nC:name=MYTYPED:layout=0 0 0, 1 0 0, 2 0 0\n~D\n';
    await tab.click('#custom summary');
    await tab.fill('#def-text', typed);
    await tab.waitForFunction(() => /MYTYPED/.test(localStorage.getItem('polycube.session.v1') || ''), null, { timeout: 5000 });
    expect(tab.url()).toContain('#p1:'); // the reload below opens a link, not the session
    await tab.reload();
    expect(await other.waitState(['ready', 'error'])).toBe('ready');
    await tab.waitForFunction(() => /MYTYPED/.test(document.getElementById('def-text').value), null, { timeout: 5000 });
    expect(await tab.inputValue('#def-text')).toBe(typed);
    expect((await other.hooks()).puzzle).toMatchObject({ xDim: 10, yDim: 6 }); // the draft is not loaded
    await tab.waitForFunction(() => window.__polycube.linkSettled()); // (the session is written a moment after a change)
    expect(JSON.parse(await tab.evaluate(() => localStorage.getItem('polycube.session.v1'))).definition).toBe(typed);
    // a refused link in this tab: the page keeps what it shows and says so
    await tab.goto(`${server.url}#p1:${'A'.repeat(MAX_LINK_CHARS + 10)}`);
    await tab.waitForFunction(() => /too long/.test(document.getElementById('notice-text').textContent), null, { timeout: 5000 });
    const refused = await tab.textContent('#notice-text');
    expect(refused).toMatch(/still shows/);
    expect(refused).not.toMatch(/default puzzle/);
    expect(await tab.inputValue('#def-text')).toBe(typed);
    // then a good link in the same tab: its puzzle, no stale notice, the draft still there
    await tab.goto(server.url + linkOf(deflateSync(json({ puzzle: { library: 'soma.txt', index: 0 }, options: '-r' }))));
    await tab.waitForFunction(() => document.getElementById('notice')?.hidden === true, null, { timeout: 10_000 });
    expect(await other.waitState(['ready', 'error'])).toBe('ready');
    expect((await other.hooks()).puzzle).toMatchObject({ xDim: 3, yDim: 3, zDim: 3 });
    expect(await tab.inputValue('#def-text')).toBe(typed);
    // (the session is written 250 ms after a change: a new page opened sooner finds the one
    // before; CI on a loaded machine did)
    await tab.waitForFunction(() => /soma\.txt/.test(localStorage.getItem('polycube.session.v1') || ''), null, { timeout: 5000 });
    // a refused link opening a new page: the session's puzzle (Soma) and the words say so
    const fresh = await other.browser.context.newPage();
    await fresh.goto(`${server.url}#p1:@@@not*base64@@@`);
    const f = driver(fresh);
    expect(await f.waitState(['ready', 'error'])).toBe('ready');
    expect(await fresh.textContent('#notice-text')).toMatch(/opened the puzzle you had open last, "[^"]*Soma[^"]*", instead/i);
    expect((await f.hooks()).puzzle).toMatchObject({ xDim: 3, yDim: 3, zDim: 3 });
    expect(await fresh.inputValue('#def-text')).toBe(typed);
    await other.browser.close();
  }, 120_000);

  test('a link whose definition has an error opens with its text and the error in the box, and says so', async () => {
    // (QA: the notice pointed to a message by the text box that was not there, and the box
    // held the default puzzle's text, so the link's text could be neither read nor mended)
    const bad = 'D:xDim=-3:yDim=1:zDim=1\nC:name=A:layout=0 0 0\n~D\n';
    const other = await openFresh(server.url + linkOf(deflateSync(json({ puzzle: { definition: bad }, options: '-r' }))));
    const tab = other.page;
    expect(await other.waitState(['ready', 'error'])).toBe('ready');
    expect((await other.hooks()).puzzle).toMatchObject({ xDim: 10, yDim: 6 }); // the default puzzle instead
    await tab.waitForSelector('#def-error:not([hidden])');
    expect(await tab.textContent('#def-error-text')).toMatch(/^link\.txt:1:/);
    expect(await tab.inputValue('#def-text')).toBe(bad);
    const notice = await tab.textContent('#notice-text');
    expect(notice).toMatch(/The puzzle in the link could not be read: link\.txt:1:/);
    expect(notice).toMatch(/opened its default puzzle, "[^"]*", instead\. The link's definition is in the text box, with its error\./);
    expect(other.errors).toEqual([]);
    await other.browser.close();
  }, 60_000);
});
