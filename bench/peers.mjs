#!/usr/bin/env node
// The engine against the fastest JavaScript exact-cover solver, npm `dancing-links` (Knuth's
// DLX, sparse rows), on the same matrices: every placement of every piece that fits the box
// (the engine's own model, read through the Session: imageCells, imageShapes), a column per
// open cell and per piece. Each counts every solution (no symmetry reduction): dancing-links by
// findAll, the engine in WebAssembly (the page's module, in this Node process) and natively
// (the CLI, one thread), both as the enumerating search of the articles (`--no-orbits`) and
// as they run by default (every solution listed from the unique ones). The Tetris Cube has
// 236,136 solutions, minutes for dancing-links: there each engine's rate over its first
// solutions is compared (solutions per CPU second: dancing-links for PEERS_RATE_SECONDS, 20;
// the engine `-l 3000`).
//
// CPU time of the process (user + system; the CLI's own cpuSeconds), the median of
// PEERS_REPEATS runs (3), the engines' order rotating from run to run. Writes bench/PEERS.md
// unless PEERS_ONLY names puzzles (a part of their file names).
//
//   npm run bench:peers          (builds the native CLI and the WebAssembly module first)
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DancingLinks } from 'dancing-links';
import { STEP } from '../web/src/worker/protocol.js';
import { loadModule, must } from '../tests/js/helpers.js';
import { median } from './stats.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = path.join(ROOT, 'bench/PEERS.md');
const CLI = path.join(ROOT, 'build/cli/polycube');
const REPEATS = Math.max(1, Number(process.env.PEERS_REPEATS || 3));
const RATE_SECONDS = Math.max(1, Number(process.env.PEERS_RATE_SECONDS || 20));
const RATE_LIMIT = 3000;
const ONLY = (process.env.PEERS_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
const PUZZLES = [
  { file: 'pentominoes_10x6.txt', name: 'pentominoes 10x6', solutions: 9356 },
  { file: 'soma.txt', name: 'Soma cube', solutions: 11520 },
  { file: 'pentominoes_1s_30x3.txt', name: 'one-sided pentominoes 30x3', solutions: 184 },
  { file: 'pentominoes_8x8_hole.txt', name: 'pentominoes 8x8, centre hole', solutions: 520 },
  { file: 'tetriscube.txt', name: 'Tetris Cube', solutions: 236136, rate: true },
].filter((p) => ONLY.length === 0 || ONLY.some((o) => p.file.includes(o)));

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const wasm = await loadModule();

// The exact-cover matrix of the engine's model: rows of column indices (open cells first,
// then one column per mobile piece; the puzzles here have no copies).
function matrixOf(text, file) {
  const session = new wasm.Session();
  try {
    must(session.load(text, file));
    must(session.start(0, '--no-orbits'));
    while (!session.ready()) session.step(1e6);
    const shapes = must(session.imageShapes()).shapes;
    const instances = must(session.instanceShapes()).shapes;
    const mobile = Array.from(instances).filter((s) => s >= 0);
    if (new Set(mobile).size !== mobile.length) throw new Error(`${file}: a piece with copies (not an exact cover of distinct pieces)`);
    const cellColumn = new Map();
    const rows = [];
    for (let i = 0; i < shapes.length; i++) {
      const cells = must(session.imageCells(i)).cells;
      for (const c of cells) if (!cellColumn.has(c)) cellColumn.set(c, cellColumn.size);
      rows.push({ cells, shape: shapes[i] });
    }
    const pieceColumn = new Map(mobile.map((s, k) => [s, k]));
    const columns = cellColumn.size + pieceColumn.size;
    return { columns, rows: rows.map((r) => [...r.cells.map((c) => cellColumn.get(c)), cellColumn.size + pieceColumn.get(r.shape)]) };
  } finally {
    session.delete();
  }
}

function runPeer(matrix, rate) {
  const t0 = cpuNow();
  const solver = new DancingLinks().createSolver({ columns: matrix.columns });
  solver.addSparseConstraints(matrix.rows.map((columnIndices, i) => ({ data: i, columnIndices })));
  if (!rate) {
    const solutions = solver.findAll().length;
    return { solutions, seconds: cpuNow() - t0 };
  }
  let solutions = 0;
  for (const _ of solver.createGenerator()) {
    solutions++;
    if ((solutions & 63) === 0 && cpuNow() - t0 >= RATE_SECONDS) break;
  }
  return { solutions, seconds: cpuNow() - t0 };
}

function runWasm(text, file, options) {
  const session = new wasm.Session();
  try {
    const t0 = cpuNow();
    must(session.load(text, file));
    must(session.start(0, options));
    let solutions = 0;
    let state;
    do {
      state = session.step(1e6).state;
      while (session.pendingSolutions() > 0) {
        const grids = session.takeSolutions(1 << 16);
        if (grids.length === 0) break;
      }
    } while (state === STEP.RUNNING);
    if (state !== STEP.DONE) throw new Error(`${file} ${options}: the search ended in state ${state}`);
    solutions = JSON.parse(session.statsJson()).solutions;
    return { solutions, seconds: cpuNow() - t0 };
  } finally {
    session.delete();
  }
}

function runNative(file, options) {
  const args = ['-q', '-j', '1', '--json', ...options.split(' ').filter(Boolean), path.join(ROOT, 'def', file)];
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  const line = r.stdout.split('\n').reverse().find((l) => l.startsWith('{'));
  if (!line) throw new Error(`${CLI} ${args.join(' ')}: exit ${r.status}: ${r.stderr.slice(0, 300)}`);
  const j = JSON.parse(line);
  return { solutions: j.solutions, seconds: j.cpuSeconds };
}

const ENGINES = [
  { key: 'peer', label: 'dancing-links 4.3.10 (Node)' },
  { key: 'wasmEnum', label: 'ours, WebAssembly, --no-orbits' },
  { key: 'wasm', label: 'ours, WebAssembly, default' },
  { key: 'nativeEnum', label: 'ours, native, --no-orbits' },
  { key: 'native', label: 'ours, native, default' },
];

const started = new Date().toISOString().replace('T', ' ').slice(0, 19);
const loadAtStart = os.loadavg().map((l) => l.toFixed(1)).join(' ');
const results = [];
for (const p of PUZZLES) {
  const text = readFileSync(path.join(ROOT, 'def', p.file), 'utf8');
  const matrix = matrixOf(text, p.file);
  const limit = p.rate ? ` -l ${RATE_LIMIT}` : '';
  const run = {
    peer: () => runPeer(matrix, p.rate),
    wasmEnum: () => runWasm(text, p.file, `--no-orbits${limit}`),
    wasm: () => runWasm(text, p.file, limit.trim()),
    nativeEnum: () => runNative(p.file, `--no-orbits${limit}`),
    native: () => runNative(p.file, limit.trim()),
  };
  const times = Object.fromEntries(ENGINES.map((e) => [e.key, []]));
  const counts = {};
  for (let r = 0; r < REPEATS; r++) {
    const order = ENGINES.map((_, k) => ENGINES[(k + r) % ENGINES.length]);
    for (const e of order) {
      const out = run[e.key]();
      if (!p.rate && out.solutions !== p.solutions) throw new Error(`${p.name}, ${e.label}: ${out.solutions} solutions, not ${p.solutions}`);
      // a rate: solutions per CPU second (higher is faster); a count: CPU seconds
      times[e.key].push(p.rate ? out.solutions / out.seconds : out.seconds);
      counts[e.key] = out.solutions;
    }
  }
  const row = { p, rows: matrix.rows.length, columns: matrix.columns, value: Object.fromEntries(ENGINES.map((e) => [e.key, median(times[e.key])])), counts };
  results.push(row);
  console.log(p.name, JSON.stringify(row.value));
}

const fmt = (p, v) => (p.rate ? `${Math.round(v).toLocaleString('en-US')} /s` : v < 1 ? `${(v * 1000).toFixed(1)} ms` : `${v.toFixed(2)} s`);
// how many times faster than dancing-links (a rate: ours / its; a time: its / ours)
const speedup = (p, ours, peer) => `${(p.rate ? ours / peer : peer / ours).toFixed(1)}x`;
const git = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const lines = [
  '# The engine against the fastest JavaScript exact-cover solver',
  '',
  'Written by `npm run bench:peers` (bench/peers.mjs; its header says what runs). npm `dancing-links`',
  '4.3.10 solves the exact-cover matrix the engine builds for each puzzle (every placement of every',
  'piece that fits, a column per open cell and per piece); the engine runs the same puzzle in',
  'WebAssembly in the same Node process and natively, one thread, as the articles\' enumerating',
  'search (`--no-orbits`) and as it runs by default. Every solution is counted (no `-r`). CPU',
  `seconds, medians of ${REPEATS} runs in rotating order; the Tetris Cube as a rate (solutions per CPU`,
  `second: dancing-links over ${RATE_SECONDS} s, the engine over its first ${RATE_LIMIT.toLocaleString('en-US')} solutions).`,
  '',
  '## Recorded run',
  '',
  `${started} UTC, git ${git}; node ${process.version}; ${os.cpus()[0].model.trim()}, ${os.cpus().length} cores, load average ${loadAtStart} at the start, ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} at the end.`,
  '',
  `| puzzle | matrix | solutions | ${ENGINES.map((e) => e.label).join(' | ')} |`,
  `|---|---:|---:|${ENGINES.map(() => '---:').join('|')}|`,
  ...results.map(({ p, rows, columns, value }) => `| ${p.name} | ${rows.toLocaleString('en-US')} x ${columns} | ${p.rate ? `${p.solutions.toLocaleString('en-US')} (rate)` : p.solutions.toLocaleString('en-US')} | ${ENGINES.map((e) => (e.key === 'peer' ? fmt(p, value.peer) : `${fmt(p, value[e.key])} (${speedup(p, value[e.key], value.peer)})`)).join(' | ')} |`),
  '',
  'In brackets: how many times faster than dancing-links.',
  '',
];
if (ONLY.length === 0) writeFileSync(OUT, lines.join('\n'));
else console.log(lines.join('\n'));
