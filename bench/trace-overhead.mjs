#!/usr/bin/env node
// Does tracing slow the untraced search? (issue 9: "tracing must not slow the untraced search").
// Builds the CLI of a baseline revision from before the explaining trace (BENCH_BASELINE,
// default the parent of 914d7c5, where choose/candidate/dead-end events were added) next to the
// current build/cli/polycube, then times both on the same puzzles without -t, alternating A and
// B runs so that both see the same machine load, and prints the median time of each and their
// ratio (current / baseline: 1.00x is no change). Writes bench/TRACE-OVERHEAD.md.
//
//   npm run bench:trace                 # BENCH_REPEATS=5, BENCH_BASELINE=914d7c5^
// Needs build/cli/polycube (bash scripts/build.sh native); uses clang++ like scripts/build.sh.
import { baselineCli } from './baseline.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CURRENT = path.join(ROOT, 'build/cli/polycube');
const BASELINE_REV = process.env.BENCH_BASELINE || '914d7c5^';
const REPEATS = Math.max(1, Number(process.env.BENCH_REPEATS || 5));
const OUT = path.join(ROOT, 'bench/TRACE-OVERHEAD.md');
const RUNS = [
  { file: 'soma.txt', args: ['-q', '-r'] },
  { file: 'pentominoes_10x6.txt', args: ['-q', '-r'] },
  { file: 'pentominoes_10x6.txt', args: ['-q', '-r', '-o', 's'], note: 'plain DLX' },
  { file: 'pentominoes_1s_30x3.txt', args: ['-q', '-r'] },
  { file: 'bedlam.txt', args: ['-q', '-r'] },
  { file: 'tetriscube.txt', args: ['-q', '-r'] },
];

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

function timeRun(cli, run) {
  const t0 = process.hrtime.bigint();
  // The current CLI searches on every core by default; the baseline knows no -j.
  const threads = cli === CURRENT ? ['-j', '1'] : [];
  const r = spawnSync(cli, [...run.args, ...threads, '--json', path.join(ROOT, 'def', run.file)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${cli} ${run.args.join(' ')} ${run.file}: exit ${r.status}: ${r.stderr}`);
  const summary = JSON.parse(r.stdout.trim().split('\n').pop());
  return { seconds, solutions: summary.solutions, placements: summary.placements };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (!fs.existsSync(CURRENT)) {
  console.error(`trace-overhead: ${CURRENT} is missing: bash scripts/build.sh native`);
  process.exit(2);
}
const baseline = baselineCli(BASELINE_REV, 'trace-overhead');
const head = sh('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']).trim();
const rows = [];
let bad = false;
for (const run of RUNS) {
  const a = [], b = [];
  let ra, rb;
  for (let k = 0; k < REPEATS; k++) {
    // alternate which goes first, so a drift in load favours neither
    if (k % 2 === 0) { ra = timeRun(CURRENT, run); rb = timeRun(baseline.cli, run); } else { rb = timeRun(baseline.cli, run); ra = timeRun(CURRENT, run); }
    a.push(ra.seconds);
    b.push(rb.seconds);
  }
  const same = ra.solutions === rb.solutions;
  if (!same) bad = true;
  const row = { name: `${run.file} ${run.args.filter((x) => x !== '-q').join(' ')}${run.note ? ` (${run.note})` : ''}`, current: median(a), base: median(b), solutions: ra.solutions, same };
  rows.push(row);
  console.error(`trace-overhead: ${row.name}: ${row.current.toFixed(3)} s vs ${row.base.toFixed(3)} s`);
}
const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
const lines = [
  '# Tracing overhead on the untraced search',
  '',
  `Produced by \`npm run bench:trace\` (bench/trace-overhead.mjs) on ${new Date().toISOString().replace('T', ' ').slice(0, 19)} UTC:`,
  `the current CLI (git ${head}) against the baseline ${baseline.rev} (\`${BASELINE_REV}\`, before the trace explained`,
  `its steps), both built Release with the same compiler, each run ${REPEATS} times without \`-t\`, A and B alternating;`,
  `median wall times. ${os.cpus().length} cores (${os.cpus()[0].model}); load average at the end ${load}.`,
  '',
  '| puzzle and options | solutions | current | baseline | current / baseline |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.name} | ${r.solutions.toLocaleString('en-US')}${r.same ? '' : ' (DIFFERENT COUNTS)'} | ${r.current.toFixed(3)} s | ${r.base.toFixed(3)} s | ${(r.current / r.base).toFixed(2)}x |`),
  '',
];
const text = lines.join('\n');
fs.writeFileSync(OUT, text);
process.stdout.write(text);
process.exit(bad ? 1 : 0);
