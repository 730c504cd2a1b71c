#!/usr/bin/env node
// One search on several threads (polycube -j, issue 10): how much faster, and what the
// machinery costs a one-thread search. Writes bench/PARALLEL.md.
//
// 1. Speed-up: each puzzle with -j 1 and the other thread counts (BENCH_THREADS, default 1, 2,
//    4, ... up to nproc), BENCH_REPEATS rounds (3) in which every count runs once, in an order
//    that rotates from round to round so a drift in load favours none; median wall times and
//    the ratio to -j 1. The counts, placements and fits must be equal for every -j.
// 2. Overhead on one thread: the current CLI with -j 1 against a baseline CLI from before the
//    search could be split (BENCH_BASELINE_CLI, or built from BENCH_BASELINE, default the
//    parent of the commit "Split one search into subproblems"), alternating, medians.
//
// 3. One-sided pentominoes 18x5 (686,628 solutions, minutes): solutions found in a fixed time
//    (BENCH_RATE_SECONDS, 20; the CLI stopped by SIGINT) per thread count.
//
//   npm run bench:parallel          BENCH_ONLY=tetris,bedlam,18x5  BENCH_THREADS=1,2  BENCH_REPEATS=5
// The PT diamond runs only when asked (BENCH_ONLY=...,diamond: ~20 s per run).
// Needs build/cli/polycube (bash scripts/build.sh native). On a shared machine the speed-up is
// bounded by the cores the other processes leave: the load average is printed with the table.
import { baselineCli } from './baseline.mjs';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CURRENT = path.join(ROOT, 'build/cli/polycube');
const OUT = path.join(ROOT, 'bench/PARALLEL.md');
const REPEATS = Math.max(1, Number(process.env.BENCH_REPEATS || 3));
const NPROC = os.cpus().length;
const THREADS = (process.env.BENCH_THREADS || '')
  .split(',').map(Number).filter((n) => n >= 1);
if (THREADS.length === 0) {
  for (let n = 1; n < NPROC; n *= 2) THREADS.push(n);
  THREADS.push(NPROC);
}
if (!THREADS.includes(1)) THREADS.unshift(1);
const ONLY = (process.env.BENCH_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
const PUZZLES = [
  // 10x6 is a 0.04 s process that moves by 10% between runs: more rounds (they cost 2 s).
  { file: 'pentominoes_10x6.txt', name: 'pentominoes 10x6', rounds: 21 },
  { file: 'tetriscube.txt', name: 'Tetris Cube' },
  { file: 'bedlam.txt', name: 'Bedlam cube' },
  { file: 'diamond_13x13_pt.txt', name: '13x13 diamond (PT)', onlyWhenAsked: true },
].filter((p) => (ONLY.length ? ONLY.some((o) => p.file.includes(o)) : !p.onlyWhenAsked));
const ARGS = ['-q', '-r', '--json'];
const RATE_FILE = 'pentominoes_1s_18x5.txt';
const RATE = ONLY.length ? ONLY.some((o) => RATE_FILE.includes(o)) : true;
const RATE_SECONDS = Math.max(2, Number(process.env.BENCH_RATE_SECONDS || 20));

function sh(cmd, args) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function pickBaseline() {
  // An already built baseline; BENCH_BASELINE then only names its revision in the table.
  if (process.env.BENCH_BASELINE_CLI) return { rev: process.env.BENCH_BASELINE || process.env.BENCH_BASELINE_CLI, cli: process.env.BENCH_BASELINE_CLI };
  const rev = process.env.BENCH_BASELINE || `${sh('git', ['-C', ROOT, 'rev-parse', ':/Split one search into subproblems']).trim()}^`;
  return baselineCli(rev, 'parallel');
}

// One run: wall seconds, CPU seconds (user + system, all threads: the JSON's cpuSeconds, from
// getrusage; not GNU time, which counts in 10 ms steps and, wrapped around the CLI, made
// 10x6 -j 2 1.3 ms slower) and the JSON summary (threads: null = the CLI's own default, for
// the baseline that has no -j).
function run(cli, file, threads) {
  const args = [...ARGS, ...(threads ? ['-j', String(threads)] : []), path.join(ROOT, 'def', file)];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${cli} ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  const summary = JSON.parse(r.stdout.trim().split('\n').pop());
  return { seconds, cpu: summary.cpuSeconds ?? NaN, summary };
}

function autogroup() {
  try {
    return fs.readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1';
  } catch {
    return false;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (s) => (s < 1 ? s.toFixed(3) : s.toFixed(2));
const loads = [];
const noteLoad = () => loads.push(os.loadavg()[0]);

if (!fs.existsSync(CURRENT)) {
  console.error(`parallel: ${CURRENT} is missing: bash scripts/build.sh native`);
  process.exit(2);
}
let bad = false;
const started = Date.now();
noteLoad();
const speedRows = [];
for (const p of PUZZLES) {
  const times = new Map(THREADS.map((t) => [t, []]));
  const cpus = new Map(THREADS.map((t) => [t, []]));
  const idles = new Map(THREADS.map((t) => [t, []]));
  const inner = new Map(THREADS.map((t) => [t, []]));
  let reference = null;
  for (let k = 0; k < Math.max(REPEATS, p.rounds ?? 0); k++) {
    const order = THREADS.map((_, i) => THREADS[(i + k) % THREADS.length]);
    for (const t of order) {
      const r = run(CURRENT, p.file, t);
      times.get(t).push(r.seconds);
      cpus.get(t).push(r.cpu);
      idles.get(t).push(r.summary.idleSeconds ?? 0);
      inner.get(t).push(r.summary.seconds);
      const key = `${r.summary.solutions} ${r.summary.placements} ${r.summary.fits}`;
      if (reference === null) reference = key;
      else if (key !== reference) {
        bad = true;
        console.error(`parallel: ${p.file} -j ${t}: solutions/placements/fits ${key}, expected ${reference}`);
      }
      noteLoad();
    }
  }
  const one = median(times.get(1));
  const cells = THREADS.map((t) => ({
    t, s: median(times.get(t)), cpu: median(cpus.get(t)), idle: median(idles.get(t)), inner: median(inner.get(t)),
  }));
  speedRows.push({ p, solutions: reference.split(' ')[0], cells, one });
  console.error(`parallel: ${p.name}: ${cells.map((c) => `-j ${c.t} ${fmt(c.s)} s (${(one / c.s).toFixed(2)}x)`).join(', ')}`);
}

// Solutions in a fixed time: the CLI is stopped by SIGINT and prints its statistics so far.
const rateRows = [];
if (RATE) {
  for (const t of THREADS) {
    const t0 = process.hrtime.bigint();
    // (spawnSync's timeout closes the pipes as it signals: the summary then dies of SIGPIPE)
    const r = await new Promise((resolve) => {
      const child = spawn(CURRENT, [...ARGS, '-j', String(t), path.join(ROOT, 'def', RATE_FILE)]);
      let stdout = '', stderr = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      const timer = setTimeout(() => child.kill('SIGINT'), RATE_SECONDS * 1000);
      child.on('close', (status, signal) => { clearTimeout(timer); resolve({ status, signal, stdout, stderr }); });
    });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const last = r.stdout.trim().split('\n').pop();
    if (r.status !== 130 || !last) throw new Error(`parallel: ${RATE_FILE} -j ${t}: exit ${r.status} ${r.signal || ''}: ${r.stderr}`);
    const summary = JSON.parse(last);
    rateRows.push({ t, solutions: summary.solutions, seconds });
    console.error(`parallel: ${RATE_FILE} -j ${t}: ${summary.solutions} solutions in ${fmt(seconds)} s`);
    noteLoad();
  }
}

const baseline = pickBaseline();
const overheadRows = [];
for (const p of PUZZLES) {
  const a = [], b = [];
  for (let k = 0; k < Math.max(REPEATS, p.rounds ?? 0); k++) {
    if (k % 2 === 0) { a.push(run(CURRENT, p.file, 1).seconds); b.push(run(baseline.cli, p.file, null).seconds); }
    else { b.push(run(baseline.cli, p.file, null).seconds); a.push(run(CURRENT, p.file, 1).seconds); }
    noteLoad();
  }
  overheadRows.push({ p, current: median(a), base: median(b) });
  console.error(`parallel: overhead ${p.name}: ${fmt(median(a))} s vs ${fmt(median(b))} s`);
}

const head = sh('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']).trim();
// What the process adds to the solver's own time at -j 1 (the difference of the two medians),
// on the puzzles run many rounds (10x6): elsewhere 3 rounds' medians differ by more than that.
const outsideMs = () => speedRows.filter((r) => r.p.rounds > REPEATS)
  .map((r) => `${r.p.name} ${((r.cells[0].s - r.cells[0].inner) * 1000).toFixed(1)}`).join(', ');
const lines = [
  '# One search on several threads (`polycube -j N`)',
  '',
  `Produced by \`npm run bench:parallel\` (bench/parallel.mjs) on ${new Date().toISOString().replace('T', ' ').slice(0, 19)} UTC, git ${head},`,
  `in ${((Date.now() - started) / 1000).toFixed(0)} s: ${NPROC} cores (${os.cpus()[0].model}), \`-q -r\` (the default configuration),`,
  `${REPEATS} rounds (${PUZZLES.filter((p) => p.rounds > REPEATS).map((p) => `${p.name}: ${p.rounds}`).join(', ') || 'every puzzle'}), median wall time of the CLI process. 1-minute load average during the runs:`,
  `${Math.min(...loads).toFixed(2)} to ${Math.max(...loads).toFixed(2)} (other processes share the cores; a speed-up cannot pass`,
  'the cores they leave free).',
  ...(autogroup() ? [
    'This kernel schedules by autogroup (`/proc/sys/kernel/sched_autogroup_enabled` = 1): when the cores are',
    "contended, each session gets its share whatever its number of threads, so the wall-time speed-up shows",
    'only while the other sessions leave cores idle; the CPU times and idle seconds below do not depend on that.',
  ] : []),
  '',
  `| puzzle | solutions | ${THREADS.map((t) => `-j ${t}`).join(' | ')} |`,
  `|---|---|${THREADS.map(() => '---').join('|')}|`,
  ...speedRows.map((r) => `| ${r.p.name} | ${Number(r.solutions).toLocaleString('en-US')} | ${r.cells
    .map((c) => (c.t === 1 ? `${fmt(c.s)} s` : `${fmt(c.s)} s (${(r.one / c.s).toFixed(2)}x)`)).join(' | ')} |`),
  '',
  'Solutions, placements and fits were equal for every thread count (the bench fails otherwise).',
  '',
  "The solver's own time (the JSON's `seconds`: setup and search), without the process's start, parsing",
  `and exit, as node's spawnSync times the process (the same for every thread count; here ${outsideMs()} ms`,
  'at `-j 1`, which weighs on 10x6 only):',
  '',
  `| puzzle | ${THREADS.map((t) => `-j ${t}`).join(' | ')} |`,
  `|---|${THREADS.map(() => '---').join('|')}|`,
  ...speedRows.map((r) => `| ${r.p.name} | ${r.cells
    .map((c) => (c.t === 1 ? `${fmt(c.inner)} s` : `${fmt(c.inner)} s (${(r.cells[0].inner / c.inner).toFixed(2)}x)`)).join(' | ')} |`),
  '',
  'CPU time of all threads (user + system), its ratio to `-j 1` (the work the splitting adds: a second',
  "solver's setup, FILA's tables rebuilt for each subproblem, a waiting thread's spin of up to 2 ms",
  'before it sleeps), and the seconds the threads waited for work (summed; the load balance):',
  '',
  `| puzzle | ${THREADS.map((t) => `-j ${t} CPU`).join(' | ')} |`,
  `|---|${THREADS.map(() => '---').join('|')}|`,
  ...speedRows.map((r) => `| ${r.p.name} | ${r.cells
    .map((c) => (c.t === 1 ? `${fmt(c.cpu)} s` : `${fmt(c.cpu)} s (${(c.cpu / r.cells[0].cpu).toFixed(2)}x), idle ${fmt(c.idle)} s`)).join(' | ')} |`),
  '',
  ...(rateRows.length ? [
    `## One-sided pentominoes 18x5: solutions in ${RATE_SECONDS} s (stopped by SIGINT)`,
    '',
    '| threads | solutions | per second | ratio |',
    '|---|---|---|---|',
    ...rateRows.map((r) => `| ${r.t} | ${r.solutions.toLocaleString('en-US')} | ${Math.round(r.solutions / r.seconds).toLocaleString('en-US')} | ${((r.solutions / r.seconds) / (rateRows[0].solutions / rateRows[0].seconds)).toFixed(2)}x |`),
    '',
  ] : []),
  `## The machinery on one thread: \`-j 1\` against ${baseline.rev} (before the search could be split)`,
  '',
  '| puzzle | current -j 1 | baseline | current / baseline |',
  '|---|---|---|---|',
  ...overheadRows.map((r) => `| ${r.p.name} | ${fmt(r.current)} s | ${fmt(r.base)} s | ${(r.current / r.base).toFixed(3)}x |`),
  '',
];
const text = lines.join('\n');
fs.writeFileSync(OUT, text);
process.stdout.write(text);
process.exit(bad ? 1 : 0);
