#!/usr/bin/env node
// All solutions without -r: the orbit listing (the default: the -r tree searched, each unique
// solution's distinct images listed, docs/all-solutions.md) against the enumerating search
// (--no-orbits), and the -r run for scale. Prints one table and writes bench/ALL-SOLUTIONS.md:
// per puzzle the solutions, the placements (deterministic) and the seconds (the CLI's --json
// setupSeconds + searchSeconds, median of BENCH_REPEATS runs) of each path, and the ratios
// old / new and new / (-r x symmetries).
//
//   node bench/all-solutions.mjs
//
// The Tetris Cube's enumerating search takes minutes: it runs only with BENCH_FULL=1 (its row
// shows the new path and -r otherwise). Env: BENCH_CLI (build/cli/polycube), BENCH_REPEATS (3),
// BENCH_ONLY=soma,10x6 (file-name filter), BENCH_FULL=1, BENCH_WRITE=0 (no result file).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = path.resolve(ROOT, process.env.BENCH_CLI || 'build/cli/polycube');
const REPEATS = Math.max(1, Number(process.env.BENCH_REPEATS || 3));
const ONLY = (process.env.BENCH_ONLY || '').split(',').filter(Boolean);
const FULL = process.env.BENCH_FULL === '1';
// [file, symmetries of the -r filter (its group's order), whether the old path is minutes long]
const PUZZLES = [
  ['def/soma.txt', 24, false],
  ['def/pentominoes_10x6.txt', 4, false],
  ['def/pentominoes_1s_30x3.txt', 4, false],
  ['def/solid_pentominoes_2x3x10.txt', 4, false],
  ['def/tetriscube.txt', 24, true],
].filter(([f]) => ONLY.length === 0 || ONLY.some((o) => f.includes(o)));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function once(file, options) {
  const args = ['-q', '-j', '1', '--json', ...options, path.join(ROOT, file)];
  const r = spawnSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const line = (r.stdout || '').trim().split('\n').pop();
  if (r.status !== 0 || !line || !line.startsWith('{')) throw new Error(`${CLI} ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return JSON.parse(line);
}

function measure(file, options) {
  const runs = [];
  for (let k = 0; k < REPEATS; k++) runs.push(once(file, options));
  const j = runs[0];
  return {
    solutions: j.solutions,
    placements: j.placements,
    seconds: median(runs.map((x) => x.setupSeconds + x.searchSeconds)),
  };
}

const rows = [];
for (const [file, symmetries, long] of PUZZLES) {
  const unique = measure(file, ['-r']);
  const now = measure(file, []);
  const old = long && !FULL ? null : measure(file, ['--no-orbits']);
  if (old && old.solutions !== now.solutions) throw new Error(`${file}: ${now.solutions} solutions, the old path ${old.solutions}`);
  rows.push({ file: path.basename(file), symmetries, unique, now, old });
}

const f = (s) => s.toFixed(3);
const header = ['puzzle', 'symmetries', '-r solutions', '-r s', 'all solutions', 'old placements', 'new placements', 'old s', 'new s', 'old / new', 'new / (-r x symmetries)'];
const lines = rows.map((r) => [
  r.file,
  r.symmetries,
  r.unique.solutions,
  f(r.unique.seconds),
  r.now.solutions,
  r.old ? r.old.placements : 'not run',
  r.now.placements,
  r.old ? f(r.old.seconds) : 'not run',
  f(r.now.seconds),
  r.old ? (r.old.seconds / r.now.seconds).toFixed(1) : '-',
  (r.now.seconds / (r.unique.seconds * r.symmetries)).toFixed(2),
]);
const table = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...lines.map((l) => `| ${l.join(' | ')} |`)].join('\n');
console.log(table);

if (process.env.BENCH_WRITE !== '0' && ONLY.length === 0) {
  const md = `# All solutions: orbit listing against the enumerating search

\`node bench/all-solutions.mjs\`${FULL ? ' (BENCH_FULL=1)' : ''}: \`polycube -q -j 1 --json\` (new: the -r tree
searched, each unique solution's distinct images listed), with \`--no-orbits\` (old: every
solution found by search) and with \`-r\`; seconds are the JSON's setup + search, median of
${REPEATS} runs, on ${os.cpus().length} cores shared with other work (${os.cpus()[0]?.model ?? 'unknown CPU'}).
Placements are deterministic. "not run": the old path takes minutes (BENCH_FULL=1 runs it).
The ask was new <= the -r time x the symmetries: the last column at most 1.

${table}
`;
  writeFileSync(path.join(ROOT, 'bench/ALL-SOLUTIONS.md'), md);
}
