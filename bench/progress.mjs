#!/usr/bin/env node
// Progress benchmark (issue 10): how good is "about 35% done, ~40 s left"? Each search runs
// natively with --progress (ten readings a second: POLYCUBE_PROGRESS_SECONDS=0.1), every
// line timestamped as it arrives. Afterwards the true share of the elapsed time is known for
// each reading: the table compares the estimate shown at 10%, 50% and 90% of the run with
// the truth (estimated % done against % of the time elapsed, and the projected total time
// against the real one).
//
// Writes bench/PROGRESS.md (unless PROGRESS_ONLY is set). Env: PROGRESS_ONLY=tetris,bedlam.
// Run through `npm run bench:progress` (builds the native CLI first).
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = path.join(ROOT, 'bench/PROGRESS.md');
const ONLY = (process.env.PROGRESS_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);

// The binary is copied at start so that a rebuild during the run cannot mix versions.
const SNAP = mkdtempSync(path.join(os.tmpdir(), 'progress-'));
const CLI = path.join(SNAP, 'polycube');
copyFileSync(path.join(ROOT, 'build/cli/polycube'), CLI);

const RUNS = [
  { file: 'tetriscube.txt', options: ['-r', '-j', '1'] },
  { file: 'tetriscube.txt', options: ['-r', '-j', '2'] },
  { file: 'bedlam.txt', options: ['-r', '-j', '1'] },
  { file: 'bedlam.txt', options: ['-r', '-j', '2'] },
  { file: 'pentominoes_10x6.txt', options: ['-o', 's', '-j', '1'] },
  { file: 'families/solid_pent_5x4x3_I_fixed.txt', options: ['-r', '-j', '1'] },
  { file: 'families/mixed_tet5_FILNPT_10x5.txt', options: ['-r', '-o', 's', '-j', '1'] },
  { file: 'diamond_13x13_pt.txt', options: ['-r', '-j', '2'] },
].filter((r) => ONLY.length === 0 || ONLY.some((o) => r.file.includes(o)));

function run({ file, options }) {
  return new Promise((resolve, reject) => {
    const args = ['-q', '--progress', ...options, path.join(ROOT, 'def', file)];
    const start = performance.now();
    const child = spawn(CLI, args, { env: { ...process.env, POLYCUBE_PROGRESS_SECONDS: '0.1' } });
    const readings = [];
    let pending = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      const t = (performance.now() - start) / 1000;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        const m = line.match(/about (\d+)% done/);
        if (m) readings.push({ t, fraction: Number(m[1]) / 100 });
      }
    });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${file} ${options.join(' ')}: exit ${code}`));
      resolve({ total: (performance.now() - start) / 1000, readings });
    });
  });
}

const rows = [];
for (const r of RUNS) {
  const { total, readings } = await run(r);
  const at = (share) => {
    // The last reading shown at or before `share` of the run.
    const shown = readings.filter((x) => x.t <= share * total);
    const x = shown[shown.length - 1];
    if (!x || x.fraction <= 0) return null;
    return { fraction: x.fraction, trueShare: x.t / total, projected: x.t / x.fraction };
  };
  const row = { name: `${r.file} ${r.options.join(' ')}`, total, readings: readings.length, points: [0.1, 0.5, 0.9].map(at) };
  rows.push(row);
  const cells = row.points.map((p) => (p ? `${Math.round(p.fraction * 100)}% (true ${Math.round(p.trueShare * 100)}%), total ${p.projected.toFixed(1)} s` : '-'));
  console.log(`${row.name}: ${total.toFixed(2)} s, ${readings.length} readings; at 10/50/90%: ${cells.join('; ')}`);
}
rmSync(SNAP, { recursive: true, force: true });

const fmt = (p, total) => (p ? `${Math.round(p.fraction * 100)}% / ${Math.round(p.trueShare * 100)}%, ${(p.projected / total).toFixed(2)}x` : '-');
const table = [
  '| search | time | at 10% of the run | at 50% | at 90% |',
  '|---|---:|---|---|---|',
  ...rows.map((r) => `| ${r.name} | ${r.total.toFixed(1)} s | ${r.points.map((p) => fmt(p, r.total)).join(' | ')} |`),
];
console.log(`\n${table.join('\n')}`);
if (ONLY.length === 0) {
  const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores`;
  writeFileSync(OUT, `# Progress estimate benchmark (issue 10)\n\n` +
    `\`npm run bench:progress\` (bench/progress.mjs): each search with \`--progress\`, ten readings a second, ` +
    `timestamped as they arrive. Each cell: the estimate shown at that point of the run / the true share of the ` +
    `run's time elapsed, then the projected total time (elapsed / estimate) over the real total (1.00x: exact). ` +
    `Machine: ${machine} (shared; ${new Date().toISOString().slice(0, 10)}).\n\n${table.join('\n')}\n`);
}
