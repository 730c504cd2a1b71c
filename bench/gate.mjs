#!/usr/bin/env node
// Regression gate (npm run bench:gate): is any puzzle of def/ slower than with the baseline
// engine? The baseline is a git ref recorded in bench/BASELINE_REF (the last release), built
// here in a temporary directory (bench/baseline.mjs); the current engine is build/cli/polycube.
// Every puzzle of def/catalog.json runs with -q -r on one thread, the two engines taking turns
// in one run, and is judged by ratios current / baseline:
//
// - placements and fits (the JSON's, deterministic): the search tree. More placements than
//   TOLERANCE times the baseline's fail. A tree that changed at all is marked, "same
//   configuration" when the JSON's configuration line is the baseline's: then nothing but a
//   change in the search itself can explain it, a signal free of noise.
// - instructions (callgrind, deterministic to a few in a million) of the whole run, for the
//   searches shorter than SHORT_SECONDS, where a process's time is mostly noise: both engines
//   are built again for this with -march=x86-64-v3 (valgrind stops at the AVX-512 instructions
//   -march=native emits on this machine). Over TOLERANCE fails.
// - CPU time (user + sys of the process) for the longer searches: ROUNDS pairs, each pair run
//   back to back in alternating order, so that a change in the machine's load meets both; the
//   ratio of each pair, their median, and a one-sided 95% lower confidence bound on the median
//   (an order statistic: with 5 pairs the smallest ratio, with 9 the second smallest). A puzzle
//   fails only when that bound is over TOLERANCE, that is when it is slower in a stable way;
//   a median over TOLERANCE whose bound is not gets more pairs (up to MAX_ROUNDS) and, if still
//   unsettled, is reported "unsure" without failing. Shown for the short searches, not judged.
//
// Searches of seconds are cut at a number of solutions (-l N, LIMITS: about a second each
// natively, the box-in-a-diamond hexominoes' first solution ten): the same prefix of the same
// search each time, so that 5 pairs of every puzzle take minutes on a shared machine rather
// than an hour. GATE_FULL=1 runs the searches of seconds complete (those of minutes stay cut).
// A complete run must give the catalog's count with both engines.
//
// Writes bench/GATE.md (with GATE_ONLY, only when GATE_WRITE=1); exit status 1 when a puzzle fails, 2 when the
// gate cannot run.
//
// Env: GATE_BASELINE_REF (bench/BASELINE_REF), GATE_ONLY=tetris,solid (file-name filter),
// GATE_ROUNDS (5), GATE_MAX_ROUNDS (11), GATE_TOLERANCE (1.05), GATE_SHORT_SECONDS (1),
// GATE_FULL=1, GATE_CALLGRIND=0 (no instruction counts: short searches are then judged by time too). The
// baseline's builds are cached (bench/baseline.mjs).
import { baselineCli, worktreeCli } from './baseline.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './stats.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = path.join(ROOT, 'bench/GATE.md');
const ONLY = (process.env.GATE_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
const ROUNDS = Math.max(1, Number(process.env.GATE_ROUNDS || 5));
const MAX_ROUNDS = Math.max(ROUNDS, Number(process.env.GATE_MAX_ROUNDS || 11));
const TOLERANCE = Number(process.env.GATE_TOLERANCE || 1.05);
const SHORT_SECONDS = Number(process.env.GATE_SHORT_SECONDS || 1);
const CALLGRIND = process.env.GATE_CALLGRIND !== '0';
// Solutions after which a search is cut: searches of minutes always, of seconds unless GATE_FULL.
const FULL = process.env.GATE_FULL === '1';
const LIMITS = {
  'pentominoes_1s_18x5.txt': FULL ? 30000 : 8000,
  'diamond_13x13_pt.txt': FULL ? 10000 : 3000,
  'hexomino_box_in_diamond.txt': 1,
  ...(FULL ? {} : { 'tetriscube.txt': 3000, 'bedlam.txt': 5000, 'solid_pentominoes_3x4x5.txt': 300 }),
};
const V3 = ['-DPOLYCUBE_NATIVE_ARCH=OFF', '-DCMAKE_CXX_FLAGS=-march=x86-64-v3'];

const log = (msg) => process.stderr.write(`gate: ${msg}\n`);
const sh = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
// The one-sided lower confidence bound on the median of xs at level 1 - ALPHA, free of any
// assumption on the distribution: the k-th smallest value, k the largest with
// P(Binomial(n, 1/2) < k) <= ALPHA (a sample's median lies below its k-th smallest value with
// at most that probability). Fewer than 5 values cannot reach 95%: -Infinity.
const ALPHA = 0.05;
function lowerBound(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  let k = 0, tail = 0, choose = 1;
  for (let i = 0; i < n; i++) {
    tail += choose / 2 ** n;  // P(B <= i)
    if (tail > ALPHA) break;
    k = i + 1;
    choose = (choose * (n - i)) / (i + 1);
  }
  return k === 0 ? -Infinity : s[k - 1];
}
const group = (n) => Math.round(n).toLocaleString('en-US');
const ratio = (r) => `${r.toFixed(3)}x`;

function baselineRef() {
  if (process.env.GATE_BASELINE_REF) return process.env.GATE_BASELINE_REF;
  const line = fs.readFileSync(path.join(ROOT, 'bench/BASELINE_REF'), 'utf8').split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('#'));
  if (!line) throw new Error('bench/BASELINE_REF names no git ref');
  return line;
}

/** An engine: its CLI (copied, so that a rebuild during the run cannot mix versions). */
function engine(name, cli, snapDir) {
  const copy = path.join(snapDir, name);
  fs.copyFileSync(cli, copy);
  const help = spawnSync(copy, ['--help'], { encoding: 'utf8' }).stdout || '';
  // Engines from before `-j` searched on one thread anyway.
  return { name, cli: copy, threads: help.includes('--jobs') ? ['-j', '1'] : [] };
}

/** One run: the JSON summary and the process's CPU seconds (bash's `times`, in ms). */
function run(eng, job) {
  const args = [...job.args, ...eng.threads, '--json', path.join(ROOT, 'def', job.file)];
  const r = spawnSync('bash', ['-c', '"$@"; s=$?; times >&2; exit $s', '_', eng.cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${eng.name} ${job.file} ${job.args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  const json = JSON.parse(r.stdout.trim().split('\n').pop());
  // `times`: the shell's user and sys, then its children's (the CLI): "0m1.234s 0m0.010s".
  const [user, sys] = r.stderr.trim().split('\n').pop().trim().split(/\s+/).map((t) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    if (!m) throw new Error(`unexpected times output: ${t}`);
    return Number(m[1]) * 60 + Number(m[2]);
  });
  return { cpu: user + sys, solutions: json.solutions, placements: json.placements, fits: json.fits, configuration: json.configuration, state: json.state };
}

/** Instructions of one whole run under callgrind (the "Collected" line). */
function instructions(cli, job, threads) {
  const args = ['--tool=callgrind', '--callgrind-out-file=/dev/null', cli, ...job.args, ...threads, path.join(ROOT, 'def', job.file)];
  const r = spawnSync('valgrind', args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const m = /Collected\s*:\s*(\d+)/.exec(r.stderr || '');
  if (r.status !== 0 || !m) throw new Error(`callgrind ${path.basename(cli)} ${job.file}: exit ${r.status}: ${(r.stderr || '').slice(-400)}`);
  return Number(m[1]);
}

const current = path.join(ROOT, 'build/cli/polycube');
if (!fs.existsSync(current)) {
  log(`${current} is missing: bash scripts/build.sh native`);
  process.exit(2);
}
const ref = baselineRef();
const snap = fs.mkdtempSync(path.join(os.tmpdir(), 'gate-'));
const base = baselineCli(ref, 'gate');
const A = engine('current', current, snap);
const B = engine('baseline', base.cli, snap);
const valgrindOk = CALLGRIND && spawnSync('valgrind', ['--version']).status === 0;
let A3 = null, B3 = null;
if (valgrindOk) {
  A3 = engine('current-v3', worktreeCli('gate', { tag: 'v3', cmakeArgs: V3 }), snap);
  B3 = engine('baseline-v3', baselineCli(ref, 'gate', { tag: 'v3', cmakeArgs: V3 }).cli, snap);
} else if (CALLGRIND) {
  log('valgrind is not installed: every puzzle is judged by its time');
}

const catalog = JSON.parse(fs.readFileSync(path.join(ROOT, 'def/catalog.json'), 'utf8'));
// One job per puzzle and per recorded count run with -r (solid pentominoes: -r and -r -M).
const jobs = catalog
  .filter((e) => ONLY.length === 0 || ONLY.some((o) => e.file.includes(o)))
  .flatMap((e) => {
    const limit = LIMITS[e.file];
    const runs = Object.keys(e.counts ?? {}).filter((k) => k.split(' ')[0] === '-r');
    return (runs.length ? runs : ['-r']).map((opts) => ({
      file: e.file,
      title: e.title,
      args: ['-q', ...opts.split(' '), ...(limit ? ['-l', String(limit)] : [])],
      limit,
      expected: limit ? undefined : e.counts?.[opts],
    }));
  });
const head = sh('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']);
const dirty = sh('git', ['-C', ROOT, 'status', '--porcelain', '--untracked-files=no', '--', 'engine', 'cli']) !== '';
const loadBefore = os.loadavg().map((x) => x.toFixed(1)).join(' ');
log(`current ${head}${dirty ? ' (with uncommitted changes)' : ''} against the baseline ${base.rev} (${ref}), ${ROUNDS} rounds, ${jobs.length} puzzles`);

const rows = [];
for (const job of jobs) {
  const pairs = [];
  let a, b;
  const round = () => {
    // alternate which goes first, so that a drift in load favours neither
    if (pairs.length % 2 === 0) { a = run(A, job); b = run(B, job); } else { b = run(B, job); a = run(A, job); }
    pairs.push({ a: a.cpu, b: b.cpu, ratio: a.cpu / Math.max(b.cpu, 1e-3) });
  };
  while (pairs.length < ROUNDS) round();
  const row = { job, a, b };
  row.short = median(pairs.map((p) => p.b)) < SHORT_SECONDS;
  if (row.short && valgrindOk) {
    row.instrA = instructions(A3.cli, job, A3.threads);
    row.instrB = instructions(B3.cli, job, B3.threads);
    row.instrRatio = row.instrA / row.instrB;
  }
  const judgedByTime = row.instrRatio === undefined;
  // a slow-looking median not yet settled by its bound gets more pairs
  while (judgedByTime && pairs.length < MAX_ROUNDS && median(pairs.map((p) => p.ratio)) > TOLERANCE && lowerBound(pairs.map((p) => p.ratio)) <= TOLERANCE) round();
  const ratios = pairs.map((p) => p.ratio);
  Object.assign(row, {
    rounds: pairs.length,
    cpuA: median(pairs.map((p) => p.a)),
    cpuB: median(pairs.map((p) => p.b)),
    timeRatio: median(ratios),
    timeBound: lowerBound(ratios),
    timeSpread: [Math.min(...ratios), Math.max(...ratios)],
    placementRatio: a.placements / Math.max(1, b.placements),
    sameTree: a.placements === b.placements && a.fits === b.fits,
    sameConfiguration: a.configuration === b.configuration,
  });
  const problems = [];
  const notes = [];
  if (a.solutions !== b.solutions) problems.push(`solutions differ (${a.solutions} against ${b.solutions})`);
  if (job.expected !== undefined && a.solutions !== job.expected) problems.push(`${a.solutions} solutions, the catalog says ${job.expected}`);
  if (row.placementRatio > TOLERANCE) problems.push(`placements ${ratio(row.placementRatio)}`);
  if (!row.sameTree) notes.push(row.sameConfiguration ? 'tree changed, same configuration' : 'tree changed, configuration changed');
  if (!judgedByTime) {
    if (row.instrRatio > TOLERANCE) problems.push(`instructions ${ratio(row.instrRatio)}`);
  } else if (row.timeBound > TOLERANCE) {
    problems.push(`time ${ratio(row.timeRatio)}, bound ${ratio(row.timeBound)}`);
  } else if (row.timeRatio > TOLERANCE) {
    notes.push(`unsure: time ${ratio(row.timeRatio)}, bound ${row.timeBound === -Infinity ? 'none' : ratio(row.timeBound)}`);
  }
  row.problems = problems;
  row.notes = notes;
  rows.push(row);
  log(`${job.file}: placements ${ratio(row.placementRatio)}${row.sameTree ? ' (same tree)' : ''}, ${row.instrRatio !== undefined ? `instructions ${ratio(row.instrRatio)}, ` : ''}time ${ratio(row.timeRatio)} (bound ${row.timeBound === -Infinity ? 'none' : ratio(row.timeBound)}, ${row.rounds} pairs; ${row.cpuA.toFixed(3)} s against ${row.cpuB.toFixed(3)} s)${problems.length ? ` FAIL: ${problems.join('; ')}` : ''}${notes.length ? ` (${notes.join('; ')})` : ''}`);
}

const failed = rows.filter((r) => r.problems.length);
const loadAfter = os.loadavg().map((x) => x.toFixed(1)).join(' ');
const cxx = spawnSync('bash', ['-c', '$(command -v clang++ || command -v g++) --version | head -1'], { encoding: 'utf8' }).stdout.trim();
const bound = (r) => (r.timeBound === -Infinity ? '–' : ratio(r.timeBound));
const lines = [
  '# Regression gate: the current engine against the baseline',
  '',
  'Written by `npm run bench:gate` (bench/gate.mjs; bench/README.md says how to run it).',
  '',
  '## What it runs',
  '',
  `The current CLI (build/cli/polycube) and the baseline's, built from the git ref in bench/BASELINE_REF`,
  '(the last release; built once into a cache directory), both Release with -march=native. Every puzzle',
  'of def/catalog.json with `-q -r` on one thread, and with every other `-r` run the catalog records a',
  `count for (\`-r -M\` for the solid pentominoes); searches of seconds cut at a number of solutions (\`-l N\`, about`,
  `a second each natively${FULL ? ': not in this run, GATE_FULL=1, only those of minutes' : '; GATE_FULL=1 runs them complete'}).`,
  `Per run, ${ROUNDS} pairs (up to ${MAX_ROUNDS} when unsettled), the two engines back to back, the one going first`,
  'alternating; the searches under ' + `${SHORT_SECONDS} s also once each under callgrind, both engines built again with`,
  '-march=x86-64-v3 for it (valgrind stops at the AVX-512 instructions -march=native emits here).',
  '',
  '## How to read it',
  '',
  'Ratios are current / baseline; under 1 is faster. A puzzle **fails** when',
  '',
  '- a count differs (between the engines, or from the catalog);',
  `- its placements exceed ${TOLERANCE.toFixed(2)}x the baseline's (the search tree: deterministic, no noise);`,
  `- searches under ${SHORT_SECONDS} s: its instructions exceed ${TOLERANCE.toFixed(2)}x (deterministic; a process's time is mostly noise here);`,
  `- longer searches: the 95% lower confidence bound of its median CPU-time ratio exceeds ${TOLERANCE.toFixed(2)}x, i.e. it is`,
  '  slower in a stable way. The bound is an order statistic of the pair ratios (with 5 pairs the smallest,',
  '  with 9 the second smallest): a burst of load on the shared machine that slows one run of a pair cannot',
  `  fail the gate alone. A median over ${TOLERANCE.toFixed(2)}x whose bound is not is "unsure" (more pairs were run; not a failure).`,
  '',
  '"same tree" means equal placements and fits: the two engines searched the same tree, so a time ratio',
  'away from 1 is the cost per node. "tree changed, same configuration": the automatic configuration line is',
  'the same, yet the tree differs: a change in the search itself (pruning, ordering), worth a look even when faster.',
  'CPU time is user + sys of the process (bash `times`), medians over the pairs.',
  'Exit status: 0 passed, 1 a puzzle failed, 2 the gate could not run.',
  '',
  '## Recorded run',
  '',
  `${new Date().toISOString().replace('T', ' ').slice(0, 19)} UTC${ONLY.length ? ` (only ${ONLY.join(', ')}: GATE_ONLY)` : ''}: the current CLI (git ${head}${dirty ? ', with uncommitted changes' : ''}) against the baseline ${base.rev} (\`${ref}\`),`,
  `${cxx}; ${os.cpus().length} cores (${os.cpus()[0].model}), shared; load average ${loadBefore} at the start, ${loadAfter} at the end.`,
  `${valgrindOk ? '' : 'Instructions not measured in this run (valgrind missing or GATE_CALLGRIND=0): every puzzle judged by time.\n'}`,
  `**${failed.length === 0 ? `Passed: no puzzle slower than ${TOLERANCE.toFixed(2)}x` : `FAILED: ${[...new Set(failed.map((r) => r.job.file))].join(', ')}`}.**`,
  '',
  '| puzzle | run | solutions | placements current / baseline | ratio | instructions ratio | CPU s current / baseline | time ratio | bound | pairs (min–max) | gate |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ...rows.map((r) => {
    const sol = `${group(r.a.solutions)}${r.job.expected !== undefined && r.a.solutions === r.job.expected ? ' ✓' : ''}`;
    const instr = r.instrRatio !== undefined ? `${ratio(r.instrRatio)} (${(r.instrA / 1e6).toFixed(1)}M / ${(r.instrB / 1e6).toFixed(1)}M)` : '–';
    const judged = r.instrRatio !== undefined ? 'instructions' : 'time';
    const tree = r.sameTree ? ' (same tree)' : '';
    const verdict = r.problems.length ? `**fail**: ${r.problems.join('; ')}` : `ok (${judged})`;
    return `| ${r.job.title} | \`${r.job.args.filter((x) => x !== '-q').join(' ')}\` | ${sol} | ${group(r.a.placements)} / ${group(r.b.placements)} | ${ratio(r.placementRatio)}${tree} | ${instr} | ${r.cpuA.toFixed(3)} / ${r.cpuB.toFixed(3)} | ${ratio(r.timeRatio)} | ${bound(r)} | ${r.rounds} (${r.timeSpread[0].toFixed(2)}–${r.timeSpread[1].toFixed(2)}) | ${verdict}${r.notes.length ? `; ${r.notes.join('; ')}` : ''} |`;
  }),
  '',
];
const text = lines.join('\n');
if (ONLY.length === 0 || process.env.GATE_WRITE === '1') fs.writeFileSync(OUT, text);
process.stdout.write(text);
fs.rmSync(snap, { recursive: true, force: true });
process.exit(failed.length ? 1 : 0);
