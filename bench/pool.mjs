#!/usr/bin/env node
// One search shared by the page's worker pool (issue 10), in headless Chromium: the built page
// driven as a person would (library, Workers, Solve), for the puzzles of bench/parallel.mjs.
// Writes bench/POOL.md.
//
// 1. Speed-up: each puzzle with 1 worker and the other worker counts (BENCH_WORKERS, default
//    1, 2, 4, ... up to nproc), BENCH_REPEATS rounds (5) in rotating order; the page's own
//    wall time from the click on Solve to the end, medians, ratios to 1 worker. Counts and placements must
//    be equal for every worker count.
// 2. The pool's machinery on one worker: "1 worker" (the tree split into pieces so that the
//    search can be resumed) against one worker searching the whole tree in one piece, as the
//    page did before the pool ("direct": the same options plus -l 1000000000, which the pool
//    never splits; the placements are checked equal).
// 3. One-sided pentominoes 18x5 (686,628 solutions, minutes): solutions found in a fixed time
//    (BENCH_RATE_SECONDS, 20) per worker count.
//
// After the worker count changes, one untimed solve comes first: the pool starts the new
// helpers then, and a helper's first search runs on WebAssembly compiled by V8's baseline
// tier (a 10x6 helper took 17 ms to set up instead of 5-8 and searched slower); a person
// sets the count once and solves many times. Before 2026-11-25 the count changed just before
// each timed click, so every 2-worker run had a helper born at that click (10x6 with 2
// workers 0.107 s against 0.073 s warm).
//
//   npm run bench:pool        BENCH_ONLY=tetris,bedlam  BENCH_WORKERS=1,2  BENCH_REPEATS=5
// The PT diamond runs only when asked (BENCH_ONLY=diamond: ~1 min per run; one round).
// Needs the WebAssembly build (bash scripts/build.sh).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { launchBrowser, startServer } from '../tests/browser/server.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = path.join(ROOT, 'bench/POOL.md');
// 5 rounds: on the shared 2-core machine one Tetris Cube solve moved by up to 10% from round
// to round (1 worker 5.69-6.24 s, 2 workers 3.14-3.41 s in one run), and 3 rounds' medians by
// as much as the speed-up's margin.
const REPEATS = Math.max(1, Number(process.env.BENCH_REPEATS || 5));
const RATE_SECONDS = Math.max(2, Number(process.env.BENCH_RATE_SECONDS || 20));
const NPROC = os.cpus().length;
const WORKERS = (process.env.BENCH_WORKERS || '').split(',').map(Number).filter((n) => n >= 1);
if (WORKERS.length === 0) {
  for (let n = 1; n < NPROC; n *= 2) WORKERS.push(n);
  WORKERS.push(NPROC);
}
if (!WORKERS.includes(1)) WORKERS.unshift(1);
const ONLY = (process.env.BENCH_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
// (18x5 is asked for by '18x5' or 'pentominoes_1s')
const asked = (file, byDefault) => (ONLY.length ? ONLY.some((o) => file.includes(o)) : byDefault);
const PUZZLES = [
  // (a 0.06 s search moves by ±30% from run to run here: more rounds, at little cost)
  { file: 'pentominoes_10x6.txt', name: 'pentominoes 10x6', repeats: Math.max(REPEATS, 15) },
  { file: 'tetriscube.txt', name: 'Tetris Cube' },
  { file: 'bedlam.txt', name: 'Bedlam cube' },
  { file: 'diamond_13x13_pt.txt', name: '13x13 diamond (PT)', onlyWhenAsked: true, repeats: 1 },
].filter((p) => asked(p.file, !p.onlyWhenAsked));
const RATE = asked('pentominoes_1s_18x5.txt', true);
const DIRECT = '-r -l 1000000000';

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const fmt = (s) => (s >= 10 ? s.toFixed(1) : s >= 1 ? s.toFixed(2) : s.toFixed(3));

const server = await startServer();
const browser = await launchBrowser();
const page = browser.context.pages()[0] || (await browser.context.newPage());
await page.setViewportSize({ width: 1400, height: 860 });
await page.goto(server.url);
await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 120_000 });
const cores = await page.evaluate(() => navigator.hardwareConcurrency);

async function setup(file, workers, options) {
  if ((await page.inputValue('#library')) !== file) {
    await page.selectOption('#library', file);
    await page.waitForFunction((f) => document.getElementById('library').value === f && document.body.dataset.state === 'ready', file, { timeout: 60_000 });
  }
  await page.fill('#workers', String(workers));
  await page.press('#workers', 'Enter');
  await page.fill('#opt-text', options); // (Enter would start the search before the timed click)
}

// Solve to the end (or stop after `seconds`); the page's figures, and the wall time from the
// click on Solve to the end, measured in the page (the engine's own seconds leave out the setup).
async function solve(file, workers, options, seconds = 0) {
  await setup(file, workers, options);
  const wall = await page.evaluate((stopAfter) => new Promise((resolve) => {
    const t0 = performance.now();
    // the page may still show the last search's end for a moment after the click: wait for this one's
    const before = window.__polycube.state().run.startedAt;
    // as a person's click: the focus goes to Solve (left in the options' text box, its caret
    // would blink through the search, two frames a second beside the workers)
    document.getElementById('solve').focus();
    document.getElementById('solve').click();
    if (stopAfter > 0) setTimeout(() => document.getElementById('cancel').click(), stopAfter * 1000);
    // told by the page's own state attribute, not polled: a 5 ms poll woke the page's main
    // thread 200 times a second beside the workers
    const watcher = new MutationObserver(() => {
      if (window.__polycube.state().run.startedAt === before && document.body.dataset.state !== 'error') return;
      if (!['done', 'cancelled', 'error'].includes(document.body.dataset.state)) return;
      watcher.disconnect();
      resolve((performance.now() - t0) / 1000);
    });
    watcher.observe(document.body, { attributes: true, attributeFilter: ['data-state'] });
  }), seconds);
  const r = await page.evaluate(() => {
    const s = window.__polycube.state();
    return { phase: s.run.phase, message: s.run.message, solutions: s.solutions.total, attempts: (s.run.stats || {}).attempts };
  });
  if (r.phase === 'error') throw new Error(`${file} with ${workers} workers: ${r.message}`);
  return { ...r, elapsed: wall };
}

const t0 = Date.now();
const rows = [];
for (const p of PUZZLES) {
  const configs = [{ key: 'direct', workers: 1, options: DIRECT }, ...WORKERS.map((w) => ({ key: `w${w}`, workers: w, options: '-r' }))];
  const times = Object.fromEntries(configs.map((c) => [c.key, []]));
  let reference = null;
  let warmWorkers = 0;
  for (let round = 0; round < (p.repeats || REPEATS); round++) {
    const order = configs.map((_, i) => configs[(i + round) % configs.length]);
    for (const c of order) {
      if (c.workers !== warmWorkers) {
        await solve(p.file, c.workers, c.options); // new helpers' first search: not timed (above)
        warmWorkers = c.workers;
      }
      const r = await solve(p.file, c.workers, c.options);
      if (reference === null) reference = r;
      if (r.solutions !== reference.solutions || r.attempts !== reference.attempts) {
        throw new Error(`${p.name}: ${c.key} found ${r.solutions} solutions in ${r.attempts} placements, ${reference.solutions} in ${reference.attempts} before`);
      }
      times[c.key].push(r.elapsed);
      process.stderr.write(`${p.name} ${c.key} ${fmt(r.elapsed)} s\n`);
    }
  }
  rows.push({ p, solutions: reference.solutions, med: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])) });
}

let rateRows = [];
if (RATE) {
  for (const w of WORKERS) {
    const r = await solve('pentominoes_1s_18x5.txt', w, '-r', RATE_SECONDS);
    rateRows.push({ workers: w, solutions: r.solutions, elapsed: r.elapsed });
    process.stderr.write(`18x5 ${w} workers: ${r.solutions} solutions in ${fmt(r.elapsed)} s\n`);
  }
}
await browser.close();
await server.close();

const git = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const load = os.loadavg()[0].toFixed(2);
const lines = [];
lines.push('# One search shared by the page\'s worker pool (headless Chromium)', '');
lines.push(`Produced by \`npm run bench:pool\` (bench/pool.mjs) on ${new Date().toISOString().replace('T', ' ').slice(0, 19)} UTC, git ${git},`);
lines.push(`in ${Math.round((Date.now() - t0) / 1000)} s: ${NPROC} cores (the browser reports ${cores}), the built page driven as a person would, \`-r\`,`);
lines.push(`${REPEATS} rounds in rotating order (after a change of the worker count, one untimed solve first), median wall time in the page from the click on Solve to the end. 1-minute load average at the end: ${load}.`);
lines.push('The page\'s main thread (counters, the 3-D view, software-rendered here: no GPU) shares the cores with the workers.', '');
lines.push(`| puzzle | solutions | ${WORKERS.map((w) => `${w} ${w === 1 ? 'worker' : 'workers'}`).join(' | ')} |`);
lines.push(`|---|---|${WORKERS.map(() => '---').join('|')}|`);
for (const r of rows) {
  const one = r.med.w1;
  lines.push(`| ${r.p.name}${r.p.repeats ? ` (${r.p.repeats} round${r.p.repeats > 1 ? 's' : ''})` : ''} | ${r.solutions.toLocaleString('en-US')} | ${WORKERS.map((w) => (w === 1 ? `${fmt(one)} s` : `${fmt(r.med[`w${w}`])} s (${(one / r.med[`w${w}`]).toFixed(2)}x)`)).join(' | ')} |`);
}
lines.push('', 'Solutions and placements were equal for every worker count (the bench fails otherwise).', '');
lines.push('## The machinery on one worker', '');
lines.push('"1 worker" is the pool with one worker: a search still running after a second is split for checkpoints, each piece drained after every second it searches (what a checkpoint loses is small);');
lines.push(`"direct" searches it in one piece as the page did before the pool (\`${DIRECT}\`: a limit is never shared; same placements).`, '');
lines.push('| puzzle | direct | 1 worker | 1 worker / direct |', '|---|---|---|---|');
for (const r of rows) lines.push(`| ${r.p.name} | ${fmt(r.med.direct)} s | ${fmt(r.med.w1)} s | ${(r.med.w1 / r.med.direct).toFixed(3)}x |`);
if (rateRows.length) {
  lines.push('', `## One-sided pentominoes 18x5: solutions in ${RATE_SECONDS} s`, '');
  lines.push('| workers | solutions | per second | ratio |', '|---|---|---|---|');
  const base = rateRows[0].solutions / rateRows[0].elapsed;
  for (const r of rateRows) {
    const rate = r.solutions / r.elapsed;
    lines.push(`| ${r.workers} | ${r.solutions.toLocaleString('en-US')} | ${Math.round(rate).toLocaleString('en-US')} | ${(rate / base).toFixed(2)}x |`);
  }
}
fs.writeFileSync(OUT, `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
