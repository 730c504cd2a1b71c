// The solver options in plain words (issue 8 §4), driven as a person would in headless Chromium:
// the controls write the same option string the command line needs and the counts equal what
// build/cli/polycube prints for it; the text and the controls stay in step; invalid options are
// marked and keep the solutions found; and the bugs listed in the issue stay fixed.
//   npx vitest run --config tests/browser/vitest.config.js tests/browser/options.test.js
// Needs web/wasm/ (bash scripts/build.sh wasm) and build/cli/polycube (bash scripts/build.sh native).
// Screenshots go to tests/output/browser/ (options-*.png).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { CLI, usePage } from './page-driver.js';
import { repoRoot } from './server.js';

const env = usePage({ width: 1400, height: 860 }); // one built, served page for this file
let page;
beforeAll(() => { page = env.page; }); // runs after usePage's own beforeAll

/** What the command-line solver says for these options: its --json summary (and stdout). */
function cli(options, file, extra = ['-q', '--json']) {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: build it first (bash scripts/build.sh native)`);
  const words = options.split(/\s+/).filter(Boolean); // (no quoted words in these texts)
  const r = spawnSync(CLI, [...extra, ...words, path.join(repoRoot, 'def', file)], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`polycube ${options} ${file} failed (${r.status}): ${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  return { summary: extra.includes('--json') ? JSON.parse(lines[lines.length - 1]) : null, stdout: r.stdout };
}

const waitState = (states, timeout) => env.ui.waitState(states, timeout);
const solutionCount = () => env.ui.solutionCount();
const pickLibrary = (file) => env.ui.pickLibrary(file);
const optionText = () => page.inputValue('#opt-text');
const status = () => page.textContent('#status');
const focused = () => page.evaluate(() => document.activeElement && document.activeElement.id);

/** Scroll the side panel so that `selector` is in view, then shoot at 1400x860 and 390x844. */
async function shots(name, selector) {
  for (const [tag, vp] of [['desktop', { width: 1400, height: 860 }], ['phone', { width: 390, height: 844 }]]) {
    await page.setViewportSize(vp);
    if (selector) await page.locator(selector).scrollIntoViewIfNeeded();
    await env.ui.shot(`options-${name}-${tag}.png`);
  }
  await page.setViewportSize({ width: 1400, height: 860 });
}

async function solve(timeout = 60_000) {
  await page.click('#solve');
  return waitState(['done', 'error', 'cancelled'], timeout);
}

/** Unfold an option group (a click on its summary, as a person would) unless it is open. */
async function openGroup(id) {
  if ((await page.getAttribute(`#opt-group-${id}`, 'open')) === null) await page.click(`#opt-group-${id} > summary`);
}

async function setText(text) {
  await page.fill('#opt-text', text);
}

describe('options in plain words', () => {
  test('a first visit shows the counting options; the advanced groups are folded', async () => {
    expect(await optionText()).toBe('-r');
    expect(await page.isChecked('#opt-r')).toBe(true);
    for (const id of ['#opt-r', '#opt-mirror', '#opt-unique', '#opt-limit', '#opt-redundancyPiece']) expect(await page.isVisible(id)).toBe(true);
    for (const id of ['#opt-fila', '#opt-order', '#opt-parityBacktrack', '#opt-fitFilter', '#opt-info', '#opt-monteCarlo', '#opt-trace']) {
      expect(await page.isVisible(id)).toBe(false);
    }
    for (const g of ['algorithm', 'constraints', 'diagnostics']) expect(await page.getAttribute(`#opt-group-${g}`, 'open')).toBe(null);
    // each control is explained in one line, tied to it for screen readers
    const help = await page.$eval('#opt-mirror', (i) => i.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id)?.textContent || ''));
    expect(help[0]).toMatch(/mirror image/);
    // the piece to hold still offers the puzzle's pieces, and auto
    const pieces = await page.$$eval('#opt-redundancyPiece option', (os) => os.map((o) => o.value));
    expect(pieces).toEqual(['', 'F', 'I', 'L', 'N', 'P', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z']);
    await shots('first-visit', '#solve');
    await shots('first-visit-options', '#opt-text');
  });

  test('controls write the CLI string; -r X -l 100 stops at the limit, as the CLI does (bug: "Finished")', async () => {
    await page.selectOption('#opt-redundancyPiece', 'X');
    expect(await optionText()).toBe('-r X');
    await page.fill('#opt-limit', '100');
    expect(await optionText()).toBe('-r X -l 100');
    expect(await solve()).toBe('done');
    const want = cli('-r X -l 100', 'pentominoes_10x6.txt').summary;
    expect(want.solutions).toBe(100);
    expect(await solutionCount()).toBe(want.solutions);
    expect(await status()).toMatch(/Stopped at the limit of 100 solutions/);
    expect(await status()).not.toMatch(/Finished/);
    await shots('limit', '#status');

    await page.fill('#opt-limit', '');
    expect(await optionText()).toBe('-r X');
    expect(await solve()).toBe('done');
    const all = cli('-r X', 'pentominoes_10x6.txt').summary;
    expect(all.solutions).toBe(2339);
    expect(await solutionCount()).toBe(all.solutions);
    expect(await status()).toMatch(/Finished: 2,339 solutions/);
  });

  test('algorithm, constraints and statistics controls: same string, same count and placements as the CLI; -i shows a table', async () => {
    await openGroup('algorithm');
    expect(await page.textContent('#opt-algorithm-status')).toMatch(/Automatic/);
    await page.fill('#opt-fila', '8');
    await page.check('#opt-nof');
    expect(await page.textContent('#opt-algorithm-status')).toMatch(/Your choice/);
    expect(await page.textContent('#opt-group-algorithm > summary')).toMatch(/2 set/);
    await openGroup('constraints');
    await page.check('#opt-parityBacktrack');
    await page.selectOption('#opt-fitFilter', 'once');
    await openGroup('diagnostics');
    await page.check('#opt-info');
    const text = '-r X -f 8 -n -p -F -i';
    expect(await optionText()).toBe(text);
    expect(await solve()).toBe('done');
    const want = cli(text, 'pentominoes_10x6.txt').summary;
    expect(await solutionCount()).toBe(want.solutions);
    expect(Number(await page.getAttribute('#stat-attempts', 'data-value'))).toBe(want.placements);
    // -i: the statistics, one row per number of pieces left
    expect(await page.isVisible('#run-statistics')).toBe(true);
    expect(await page.$$eval('#run-levels tbody tr', (rs) => rs.length)).toBe(12);
    expect(await page.textContent('#run-statistics')).toContain(want.configuration);
    const firstRow = await page.$$eval('#run-levels tbody tr:first-child > *', (cs) => cs.map((c) => c.textContent));
    expect(firstRow[0]).toBe('12');
    await shots('statistics', '#run-statistics');

    // back to automatic with one button; the filter with a threshold
    await page.click('#opt-automatic');
    expect(await optionText()).toBe('-r X -p -F -i');
    await page.selectOption('#opt-fitFilter', 'n');
    await page.fill('#opt-fitFilter-n', '9');
    expect(await optionText()).toBe('-r X -p -F 9 -i');
    expect(await solve()).toBe('done');
    expect(await solutionCount()).toBe(cli('-r X -p -F 9 -i', 'pentominoes_10x6.txt').summary.solutions);
  });

  test('typing the command line moves the controls (both ways in step)', async () => {
    await setText('-rL -M -V=5 -o x:s=20 --json');
    expect(await page.isChecked('#opt-r')).toBe(true);
    expect(await page.inputValue('#opt-redundancyPiece')).toBe('L');
    expect(await page.isChecked('#opt-mirror')).toBe(true);
    expect(await page.isChecked('#opt-info')).toBe(false);
    expect(await page.inputValue('#opt-volumeFilter')).toBe('n');
    expect(await page.inputValue('#opt-volumeFilter-n')).toBe('5');
    expect(await page.inputValue('#opt-order')).toBe('x:s=20');
    expect(await page.inputValue('#opt-fitFilter')).toBe('off');
    // a control then rewrites the text in the canonical form, keeping words it has no control for
    await page.uncheck('#opt-mirror');
    expect(await optionText()).toBe('-r L -o x:s=20 -V 5 --json');
    await setText('');
    expect(await page.isChecked('#opt-r')).toBe(false);
    expect(await page.inputValue('#opt-redundancyPiece')).toBe('');
    await page.check('#opt-r');
    expect(await optionText()).toBe('-r');
  });

  test('invalid options are marked where they are and keep the solutions found', async () => {
    expect(await solve()).toBe('done');
    expect(await solutionCount()).toBe(2339);
    await page.click('#next');
    const shown = await page.textContent('#solution-index');

    // the text: parse error next to it, the controls wait, Solve refuses without clearing
    await setText('-r -l abc');
    expect(await page.getAttribute('#opt-text', 'aria-invalid')).toBe('true');
    expect(await page.isVisible('#opt-text-error')).toBe(true);
    expect(await page.textContent('#opt-text-error')).toMatch(/-l needs a positive whole number, got 'abc'/);
    expect(await page.isDisabled('#opt-limit')).toBe(true);
    await page.click('#solve');
    expect(await waitState(['error'])).toBe('error');
    expect(await status()).toMatch(/Not started.*kept/);
    expect(await solutionCount()).toBe(2339);
    expect(await page.textContent('#solution-index')).toBe(shown);
    expect(await page.textContent('#solution-total')).toBe('2,339');
    await shots('text-error', '#opt-text');
    await setText('-r');
    expect(await page.getAttribute('#opt-text', 'aria-invalid')).toBe(null);
    expect(await page.isVisible('#opt-text-error')).toBe(false);

    // a control: marked, the text keeps the last valid options
    await page.fill('#opt-limit', '1.5');
    expect(await page.getAttribute('#opt-limit', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#opt-limit-error')).toMatch(/Stop after N solutions: needs a whole number, got '1.5'/);
    expect(await optionText()).toBe('-r');
    await page.fill('#opt-limit', '0');
    expect(await page.textContent('#opt-limit-error')).toBe('Stop after N solutions: needs a whole number of at least 1');
    await page.click('#solve');
    expect(await waitState(['error'])).toBe('error');
    expect(await status()).toMatch(/Not started: “Stop after N solutions” has an error/);
    expect(await solutionCount()).toBe(2339);
    await shots('control-error', '#opt-limit');
    await page.fill('#opt-limit', '');
    expect(await page.getAttribute('#opt-limit', 'aria-invalid')).toBe(null);

    // a schedule the engine would refuse: marked as it is typed, before Solve (QA: -o zz)
    await page.fill('#opt-order', 'zz');
    expect(await page.getAttribute('#opt-order', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#opt-order-error')).toMatch(/^Heuristic schedule: -o: unknown heuristic 'zz' \(known: s f e/);
    expect(await optionText()).toBe('-r');
    await page.fill('#opt-order', 'x:s=20');
    expect(await page.getAttribute('#opt-order', 'aria-invalid')).toBe(null);
    expect(await optionText()).toBe('-r -o x:s=20');
    await page.fill('#opt-order', '');
    await setText('-r -o s::f');
    expect(await page.textContent('#opt-text-error')).toBe("-o: empty entry in 's::f'");
    await setText('-r');

    // the engine refuses (no such piece): its message at the text and at the piece control
    await setText('-r Q');
    expect(await page.inputValue('#opt-redundancyPiece')).toBe('Q');
    expect(await page.textContent('#opt-redundancyPiece')).toMatch(/Q \(not in this puzzle\)/);
    expect(await solve()).toBe('error');
    expect(await status()).toMatch(/refused the options: .*no piece named 'Q'.*kept/);
    // the options it names stay whole on one line (a line broke after the hyphen of -r)
    const tokens = await page.$$eval('#status .option-token', (spans) => spans.map((x) => ({ text: x.textContent, lines: x.getClientRects().length, wrap: getComputedStyle(x).whiteSpace })));
    expect(tokens.length).toBeGreaterThan(0);
    for (const t of tokens) expect(t).toMatchObject({ text: expect.stringMatching(/^--?[A-Za-z]/), lines: 1, wrap: 'nowrap' });
    expect(await page.getAttribute('#opt-text', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#opt-redundancyPiece', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#opt-redundancyPiece-error')).toMatch(/no piece named 'Q'/);
    expect(await solutionCount()).toBe(2339);
    expect(await page.textContent('#solution-total')).toBe('2,339');
    expect(await page.textContent('#solution-index')).toBe(shown);
    expect((await page.evaluate(() => window.__polycube.piecesDrawn))).toBe(12);
    await shots('engine-error', '#opt-r');
    await page.selectOption('#opt-redundancyPiece', '');
    expect(await optionText()).toBe('-r');
    expect(await page.getAttribute('#opt-redundancyPiece', 'aria-invalid')).toBe(null);
  });

  test('-s shows the Monte Carlo estimate and -t the number of trace events (as many as the CLI prints)', async () => {
    await setText('-r');
    await openGroup('diagnostics');
    await page.check('#opt-monteCarlo');
    await page.fill('#opt-monteCarlo-trials', '200');
    await page.fill('#opt-monteCarlo-seed', '7');
    const text = await optionText();
    expect(text).toBe('-r -s 200,6,7'); // pieces left: half the pieces, the control's default
    expect(await solve()).toBe('done');
    expect(await status()).toMatch(/Monte Carlo estimate done: 200 trials/);
    const report = await page.textContent('#run-monte-carlo');
    expect(report).toMatch(/200 of 200 random trials/);
    // one seed, the same trials as the CLI (the row order no longer comes from std::shuffle,
    // which libc++ in wasm and libstdc++ natively implement differently)
    const want = cli(text, 'pentominoes_10x6.txt').summary;
    const placements = Number(await page.getAttribute('#stat-attempts', 'data-value'));
    expect(placements).toBe(want.placements);
    expect(await solutionCount()).toBe(want.solutions);
    expect(report).toContain(`${placements.toLocaleString('en-US')} in all`);
    expect(report).toContain(`${Math.round(placements / 200).toLocaleString('en-US')} placements tried per trial`);
    // the same seed repeats the same trials
    const solutions = await solutionCount();
    expect(await solve()).toBe('done');
    expect(Number(await page.getAttribute('#stat-attempts', 'data-value'))).toBe(placements);
    expect(await solutionCount()).toBe(solutions);
    await shots('monte-carlo', '#run-monte-carlo');
    // as many pieces left as the puzzle has: said, before anyone waits for it
    expect(await page.isHidden('#opt-monteCarlo-whole')).toBe(true);
    await page.fill('#opt-monteCarlo-remaining', '99');
    expect(await page.textContent('#opt-monteCarlo-whole')).toBe('This puzzle has 12 pieces: with 99 left a trial never stops early, so each trial is a whole search.');
    await page.fill('#opt-monteCarlo-remaining', '6');
    expect(await page.isHidden('#opt-monteCarlo-whole')).toBe(true);
    await page.uncheck('#opt-monteCarlo');

    await page.fill('#opt-trace', '12');
    expect(await optionText()).toBe('-r -t 12');
    expect(await solve()).toBe('done');
    const traced = cli('-r -t 12', 'pentominoes_10x6.txt', ['-q']).stdout.split('\n').filter((l) => l.startsWith('TRACE')).length;
    expect(traced).toBeGreaterThan(0);
    expect(await page.textContent('#run-trace')).toContain(`${traced.toLocaleString('en-US')} trace events recorded`);
    expect(await page.textContent('#run-trace')).toMatch(/watch the search records it and replays it step by step/);
    expect(await solutionCount()).toBe(2339);
    await page.fill('#opt-trace', '');
    expect(await optionText()).toBe('-r');
  });

  test('Soma with "count mirror images as one": 240, as the CLI', async () => {
    await pickLibrary('soma.txt');
    await page.check('#opt-mirror');
    expect(await optionText()).toBe('-r -M');
    expect(await solve()).toBe('done');
    const want = cli('-r -M', 'soma.txt').summary;
    expect(want.solutions).toBe(240);
    expect(await solutionCount()).toBe(240);
    await page.uncheck('#opt-mirror');
  });

  test('the 15x14 hexominoes say they were proved impossible (bug: a bare "0 solutions")', async () => {
    await pickLibrary('hexominoes_rect_15x14.txt');
    expect(await optionText()).toBe('-r');
    expect(await solve()).toBe('done');
    expect(await solutionCount()).toBe(0);
    const reason = cli('-r', 'hexominoes_rect_15x14.txt').summary.impossible;
    expect(reason).toMatch(/parity/);
    expect(await status()).toMatch(/^Impossible, proved before searching: by parity: the space to fill has parity 0 \(its cells of one checkerboard colour minus the other's\)/);
    await shots('impossible', '#status');
  });

  test('a pasted 29-pentacube stepped pyramid says which cells make it impossible, and is drawn', async () => {
    const file = 'impossible/pentacube_stepped_pyramid.txt';
    await page.selectOption('#library', '__custom__');
    await page.fill('#def-text', fs.readFileSync(path.join(repoRoot, 'def', file), 'utf8'));
    expect(await env.ui.loadBy(() => page.click('#def-load'))).toBe('ready');
    expect(await solve()).toBe('done');
    expect(await solutionCount()).toBe(0);
    const reason = cli('-r', file).summary.impossible;
    expect(reason).toMatch(/^impossible by cells few pieces can reach: the board has 16 cells that at most 2 pieces can cover/);
    expect(await status()).toContain(`Impossible, proved before searching: ${reason.replace(/^impossible /, '')}`);
    expect((await env.ui.hooks()).puzzle).toBeTruthy();
    // the view shows the pyramid's cells and, in red, labelled, the 16 the certificate counts
    expect(await page.isVisible('#watch-label')).toBe(true);
    expect(await page.textContent('#watch-label')).toBe('16 cells that at most 2 pieces can cover');
    await shots('impossible-pyramid', '#status');
    // another puzzle: the label goes
    await pickLibrary('pentominoes_10x6.txt');
    expect(await page.isVisible('#watch-label')).toBe(false);
  });

  test('choosing "Custom definition" in the library stays chosen (bug: it snapped back)', async () => {
    await pickLibrary('pentominoes_10x6.txt');
    await page.selectOption('#library', '__custom__');
    await page.waitForTimeout(400);
    expect(await page.inputValue('#library')).toBe('__custom__');
    expect(await page.getAttribute('#custom', 'open')).not.toBe(null);
    expect(await page.evaluate(() => document.body.dataset.state)).toBe('ready');
    // and it is still the custom choice after a search of the text shown
    expect(await solve()).toBe('done');
    expect(await page.inputValue('#library')).toBe('__custom__');
  });

  test('the keyboard keeps its place: Enter on Solve, then Escape or Enter on Cancel (bug: focus lost)', async () => {
    await pickLibrary('tetriscube.txt');
    await page.uncheck('#opt-r');
    expect(await optionText()).toBe('');
    await page.focus('#solve');
    await page.keyboard.press('Enter');
    expect(await waitState(['running', 'done', 'error'])).toBe('running');
    expect(await focused()).toBe('cancel');
    await page.keyboard.press('Escape');
    expect(await waitState(['cancelled', 'done', 'error'], 5_000)).toBe('cancelled');
    expect(await focused()).toBe('solve');
    await page.keyboard.press('Enter');
    expect(await waitState(['running', 'done', 'error'])).toBe('running');
    expect(await focused()).toBe('cancel');
    await page.keyboard.press('Enter');
    expect(await waitState(['cancelled', 'done', 'error'], 5_000)).toBe('cancelled');
    expect(await focused()).toBe('solve');
    // a search that finishes by itself gives the focus back to Solve too
    await page.check('#opt-r');
    await page.fill('#opt-limit', '3');
    await page.focus('#solve');
    await page.keyboard.press('Enter');
    expect(await waitState(['done', 'error'], 30_000)).toBe('done');
    expect(await focused()).toBe('solve');
    expect(await status()).toMatch(/Stopped at the limit of 3 solutions/);
    await page.fill('#opt-limit', '');

    // Solve after a failed custom load first reloads the puzzle (Solve disabled twice over)
    await pickLibrary('pentominoes_10x6.txt');
    await page.selectOption('#library', '__custom__');
    await page.fill('#def-text', 'D:xDim=2:yDim=1:zDim=1\nC:name=A:layout=0 0 0, 1 0\n~D\n');
    await page.click('#def-load');
    expect(await waitState(['error'])).toBe('error');
    await page.focus('#solve');
    await page.keyboard.press('Enter');
    expect(await waitState(['done', 'error'], 30_000)).toBe('done');
    expect(await solutionCount()).toBe(2339);
    expect(await focused()).toBe('solve');
  });

  test('logged no errors', () => {
    expect(env.ui.errors).toEqual([]);
  });

  test('every field on the page has a name a screen reader says (QA: labels were tied to nothing)', async () => {
    // everything open: the option groups, the editor and its piece drawer
    await page.evaluate(() => { for (const d of document.querySelectorAll('details')) d.open = true; });
    await page.click('#new-puzzle');
    await page.click('#draw-piece');
    const unnamed = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea')]
      .filter((el) => el.type !== 'hidden' && el.type !== 'file' && el.getClientRects().length > 0)
      .filter((el) => el.labels.length === 0 && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
      .map((el) => el.id || el.outerHTML.slice(0, 80)));
    expect(unnamed).toEqual([]);
    // and a click on a label's text reaches its field
    await page.click('label[for="editor-title"]');
    expect(await page.evaluate(() => document.activeElement.id)).toBe('editor-title');
    await page.click('#drawer-cancel');
    await page.click('#editor-close');
  });
});
