#!/usr/bin/env node
// --memo -j N: what threads cost and gain, both ways. Each puzzle of the list is counted
// natively at -j 1, 2 and 3 layer by layer (--memo: the threads share each layer,
// engine/memo/layer_count.hpp) and by the table's search (--memo --memo-table: partitioned,
// engine/memo/parallel_memo.hpp): the count (it must be the same at every -j and the
// catalog's), the subproblems counted (the layers': distinct, the same at every -j; the
// tables': misses summed over the threads' tables, a subproblem two threads meet counted in
// each), the tasks the terms were split into, the process's CPU seconds and the wall seconds
// (on a shared machine the wall time measures the other sessions too: compare the CPU seconds
// and the subproblems first).
//
// Writes bench/MEMO-THREADS.md. Exit status 1 when a count differs.
// Run through `npm run bench:memo-threads`, which builds the native CLI first.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = path.join(ROOT, 'bench/MEMO-THREADS.md');
const SNAP = mkdtempSync(path.join(os.tmpdir(), 'memo-threads-'));
const CLI = path.join(SNAP, 'polycube');
copyFileSync(path.join(ROOT, 'build/cli/polycube'), CLI);

const catalog = JSON.parse(readFileSync(path.join(ROOT, 'def/catalog.json'), 'utf8'));
const CASES = [
  ['soma.txt', '-r'],
  ['pentominoes_10x6.txt', '-r'],
  ['pentominoes_10x6.txt', ''],
  ['pentominoes_1s_30x3.txt', '-r'],
  ['pentominoes_8x8_hole.txt', '-r'],
  ['solid_pentominoes_2x3x10.txt', '-r -M'],
];
const THREADS = [1, 2, 3];

function count(file, options, threads, way) {
  const args = ['--memo', '--memo-mb', '1024', ...(way === 'table' ? ['--memo-table'] : []), '-q', '--json', '-i', '-j', String(threads),
    ...options.split(' ').filter(Boolean), path.join(ROOT, 'def', file)];
  const t0 = process.hrtime.bigint();
  const out = execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 16 << 20 });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const json = JSON.parse(out.trim().split('\n').filter((l) => l.startsWith('{')).pop());
  const tasks = /^MEMO_TASKS=(\d+)$/m.exec(out);
  return { json, wall, tasks: tasks ? Number(tasks[1]) : 0 };
}

const fmt = (n) => n.toLocaleString('en-US');
const rows = [];
let bad = 0;
for (const [file, options] of CASES) {
  const known = catalog.find((e) => e.file === file)?.counts?.[options];
  for (const way of ['layers', 'table']) {
    for (const threads of THREADS) {
      const { json, wall, tasks } = count(file, options, threads, way);
      const same = json.solutions === known;
      if (!same) bad++;
      const subproblems = way === 'layers' ? json.memo.subproblems : json.memo.misses;
      rows.push(`| ${file} ${options} | ${way} | ${threads} | ${fmt(json.solutions)}${same ? '' : ` (catalog ${known})`} | ` +
        `${way === 'table' ? fmt(tasks) : ''} | ${fmt(subproblems)} | ${json.cpuSeconds.toFixed(2)} | ${wall.toFixed(2)} |`);
      console.log(rows[rows.length - 1]);
    }
  }
}
rmSync(SNAP, { recursive: true, force: true });

const text = `# --memo -j N: the layers' threads and the partitioned tables

Written by \`npm run bench:memo-threads\` (bench/memo-threads.mjs) on ${new Date().toISOString().slice(0, 10)},
${os.cpus().length} cores (${os.cpus()[0]?.model || 'unknown CPU'}), load average ${os.loadavg()[0].toFixed(1)} at the end.
Layers (\`--memo\`, the default): the threads expand each layer's subproblems together; the
subproblems are the distinct ones, the same at every -j. Table (\`--memo --memo-table\`): each
thread counts tasks (subtrees of the terms' first levels) with a table of its own, an equal
share of --memo-mb (1024 MiB here); the subproblems are the misses, summed over the tables.
CPU: the process's seconds (every thread); wall: the run's, other sessions' load included.

| puzzle | way | -j | count | tasks | subproblems | CPU s | wall s |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

${bad ? `**${bad} counts differ from the catalog.**` : 'Every count equals the catalog\'s at every -j.'}
`;
writeFileSync(OUT, text);
console.log(`wrote ${path.relative(ROOT, OUT)}`);
process.exit(bad ? 1 : 0);
