#!/usr/bin/env node
// WebAssembly builds against each other and against native (npm run bench:wasm): what the page's
// engine (-O3, WebAssembly SIMD) gains over the same engine without SIMD, whether another
// optimisation level or other features Emscripten 3.1.6 supports help, and how far it is from
// the native CLI.
//
// Engines, all of the working tree:
// - wasm: the page's module (web/wasm, as scripts/build.sh builds it) and the variants of
//   WASM_VARIANTS, each built into a cache directory (bench/baseline.mjs worktreeWasm), loaded in
//   this Node process (V8, the engine of Chromium's workers) through the Session API;
// - native: build/cli/polycube (-march=native) and the CLI built with -march=x86-64-v2 (what a
//   portable binary for any x86-64 of the last 15 years may use), -j 1.
// Puzzles: 10x6, the Soma cube, the Tetris Cube and Bedlam, each with -r. Every round runs every
// engine once on a puzzle (short puzzles: REPS runs, their median), the engines' order rotating
// from round to round, so that a change in the machine's load meets them all. Time: CPU time
// (user + sys), not wall time, which on a machine shared by many processes measures mostly the
// waiting: wasm, this process's from Session.start() to the last step() (solutions drained as
// the page does); native, the JSON's `cpuSeconds` (the whole process: about a millisecond more,
// which weighs on Soma only). Ratios per round, their median and the 95% confidence interval
// of the median (order statistics).
//
// Run node with --no-wasm-lazy-compilation --no-liftoff (package.json does): the modules are
// compiled with optimising code before any run, as a page's worker running for seconds has them.
// Every engine first runs every puzzle once untimed (and its counts are checked).
//
// Env: WASM_ROUNDS (7), WASM_ONLY=tetris,soma (file filter), WASM_VARIANTS=nosimd,O2 (which
// variants). Writes bench/WASM.md (unless WASM_ONLY is set).
import { worktreeCli, worktreeWasm } from './baseline.mjs';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './stats.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = path.join(ROOT, 'bench/WASM.md');
const ROUNDS = Math.max(1, Number(process.env.WASM_ROUNDS || 7));
const ONLY = (process.env.WASM_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
const STEP = { RUNNING: 0, DONE: 1, CANCELLED: 2, FAILED: 3 };

const WASM_VARIANTS = [
  { tag: 'nosimd', opt: '-O3', cmakeArgs: ['-DPOLYCUBE_WASM_SIMD=OFF'], label: 'wasm -O3 without SIMD' },
  // (-mbulk-memory does not link: clang 14 then keeps thread_local as real TLS, which needs atomics)
  { tag: 'features', opt: '-O3', flags: '-mnontrapping-fptoint -msign-ext', label: 'wasm -O3 +nontrapping-fptoint +sign-ext' },
  { tag: 'O2', opt: '-O2', flags: '', label: 'wasm -O2' },
  { tag: 'lto', opt: '-O3', flags: '-flto', label: 'wasm -O3 SIMD, link-time optimisation' },
].filter((v) => !process.env.WASM_VARIANTS || process.env.WASM_VARIANTS.split(',').includes(v.tag));
// The Tetris Cube and Bedlam are cut at a number of solutions (about 1 s natively, a third of
// their search; WASM_FULL=1: complete): the same prefix of the same tree for every engine, so
// that seven rounds of six engines fit in minutes on a shared machine.
const FULL = process.env.WASM_FULL === '1';
const PUZZLES = [
  { file: 'pentominoes_10x6.txt', name: '10x6', reps: 5, options: ['-r'] },
  { file: 'soma.txt', name: 'Soma', reps: 21, options: ['-r'] },
  { file: 'tetriscube.txt', name: 'Tetris Cube', reps: 1, options: ['-r', ...(FULL ? [] : ['-l', '3000'])] },
  { file: 'bedlam.txt', name: 'Bedlam', reps: 1, options: ['-r', ...(FULL ? [] : ['-l', '5000'])] },
].filter((p) => ONLY.length === 0 || ONLY.some((o) => p.file.includes(o)));

const log = (msg) => process.stderr.write(`wasm: ${msg}\n`);
// Two-sided 95% interval of the median: the k-th smallest and k-th largest values, k the
// largest with P(Binomial(n, 1/2) < k) <= 2.5%; fewer than 6 values give none.
function interval(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  let k = 0, tail = 0, choose = 1;
  for (let i = 0; i < n; i++) {
    tail += choose / 2 ** n;
    if (tail > 0.025) break;
    k = i + 1;
    choose = (choose * (n - i)) / (i + 1);
  }
  return k === 0 ? null : [s[k - 1], s[n - k]];
}

// ---------------------------------------------------------------------------------------
// Engines.

async function wasmEngine(label, glue, wasm) {
  const { default: createPolycube } = await import(pathToFileURL(glue).href);
  const module = await createPolycube({ wasmBinary: fs.readFileSync(wasm) });
  const run = (text, file, options) => {
    const session = new module.Session();
    try {
      // Checked calls reply {ok, ...} or {ok:false, error:{code, message}} (bindings/embind.cpp).
      const loaded = session.load(text, file);
      if (!loaded.ok) throw new Error(`${label}: load ${file}: ${loaded.error.message}`);
      const t0 = process.cpuUsage();
      const started = session.start(0, options.join(' '));
      if (!started.ok) throw new Error(`${label}: start: ${started.error.message}`);
      let state;
      do {
        state = session.step(1e7).state;
        while (session.pendingSolutions() > 0 && session.takeSolutions(1 << 16).length > 0);
      } while (state === STEP.RUNNING);
      const cpu = process.cpuUsage(t0);
      const seconds = (cpu.user + cpu.system) / 1e6;
      if (state !== STEP.DONE) throw new Error(`${label}: ${file}: state ${state}`);
      const stats = JSON.parse(session.statsJson());
      return { seconds, solutions: stats.solutions, placements: stats.attempts };
    } finally {
      session.delete();
    }
  };
  return { label, kind: 'wasm', size: fs.statSync(wasm).size, run };
}

function nativeEngine(label, cli) {
  const run = (text, file, options) => {
    const r = spawnSync(cli, ['-q', ...options, '-j', '1', '--json', path.join(ROOT, 'def', file)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${label}: ${file}: exit ${r.status}: ${r.stderr}`);
    const j = JSON.parse(r.stdout.trim().split('\n').pop());
    return { seconds: j.cpuSeconds, solutions: j.solutions, placements: j.placements };
  };
  return { label, kind: 'native', size: fs.statSync(cli).size, run };
}

const pageGlue = path.join(ROOT, 'web/wasm/polycube.mjs');
const pageWasm = path.join(ROOT, 'web/wasm/polycube.wasm');
const nativeCli = path.join(ROOT, 'build/cli/polycube');
for (const f of [pageGlue, pageWasm, nativeCli]) {
  if (!fs.existsSync(f)) {
    log(`${f} is missing: bash scripts/build.sh`);
    process.exit(2);
  }
}
// Copies: a rebuild during the run must not change an engine under it.
const snap = fs.mkdtempSync(path.join(os.tmpdir(), 'wasm-bench-'));
const copy = (file, name) => {
  const to = path.join(snap, name);
  fs.copyFileSync(file, to);
  return to;
};
const engines = [];
engines.push(await wasmEngine('wasm -O3 SIMD (the page\'s)', copy(pageGlue, 'page.mjs'), copy(pageWasm, 'page.wasm')));
for (const v of WASM_VARIANTS) {
  const built = worktreeWasm('wasm', v);
  engines.push(await wasmEngine(v.label, copy(built.glue, `${v.tag}.mjs`), copy(built.wasm, `${v.tag}.wasm`)));
}
engines.push(nativeEngine('native -march=native', copy(nativeCli, 'native')));
const v2 = worktreeCli('wasm', { tag: 'v2', cmakeArgs: ['-DPOLYCUBE_NATIVE_ARCH=OFF', '-DCMAKE_CXX_FLAGS=-march=x86-64-v2'] });
engines.push(nativeEngine('native -march=x86-64-v2', copy(v2, 'native-v2')));

const catalog = JSON.parse(fs.readFileSync(path.join(ROOT, 'def/catalog.json'), 'utf8'));
const texts = new Map(PUZZLES.map((p) => [p.file, fs.readFileSync(path.join(ROOT, 'def', p.file), 'utf8')]));

// ---------------------------------------------------------------------------------------
// Runs.

const loadBefore = os.loadavg().map((x) => x.toFixed(1)).join(' ');
const results = new Map(); // `${puzzle}|${engine}` -> { counts, times: [per round] }
for (const p of PUZZLES) {
  const expected = p.options.includes('-l') ? undefined : catalog.find((e) => e.file === p.file)?.counts?.[p.options.join(' ')];
  for (const e of engines) {
    const r = e.run(texts.get(p.file), p.file, p.options); // untimed: warms caches, checks the counts
    if (expected !== undefined && r.solutions !== expected) throw new Error(`${e.label} ${p.file}: ${r.solutions} solutions, the catalog says ${expected}`);
    results.set(`${p.file}|${e.label}`, { solutions: r.solutions, placements: r.placements, times: [] });
  }
  const placements = new Set(engines.map((e) => results.get(`${p.file}|${e.label}`).placements));
  if (placements.size !== 1) throw new Error(`${p.file}: the engines' placements differ (${[...placements].join(', ')})`);
}
for (let round = 0; round < ROUNDS; round++) {
  for (const p of PUZZLES) {
    for (let i = 0; i < engines.length; i++) {
      const e = engines[(i + round) % engines.length];
      const times = [];
      for (let k = 0; k < p.reps; k++) times.push(e.run(texts.get(p.file), p.file, p.options).seconds);
      results.get(`${p.file}|${e.label}`).times.push(median(times));
    }
  }
  log(`round ${round + 1} of ${ROUNDS} done (load ${os.loadavg()[0].toFixed(1)})`);
}
const loadAfter = os.loadavg().map((x) => x.toFixed(1)).join(' ');

// ---------------------------------------------------------------------------------------
// Report.

const secs = (s) => (s >= 1 ? `${s.toFixed(2)} s` : `${(s * 1000).toFixed(s >= 0.01 ? 1 : 2)} ms`);
const ratioCell = (xs) => {
  const ci = interval(xs);
  return `${median(xs).toFixed(3)}${ci ? ` (${ci[0].toFixed(2)}–${ci[1].toFixed(2)})` : ''}`;
};
const ratios = (p, a, b) => {
  const ta = results.get(`${p.file}|${a.label}`).times;
  const tb = results.get(`${p.file}|${b.label}`).times;
  return ta.map((t, i) => t / tb[i]);
};
const page = engines[0];
const native = engines.find((e) => e.label === 'native -march=native');
const head = spawnSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
const emcc = spawnSync('emcc', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
const cxx = spawnSync('bash', ['-c', '$(command -v clang++ || command -v g++) --version | head -1'], { encoding: 'utf8' }).stdout.trim();
const lines = [
  '## Recorded run',
  '',
  `${new Date().toISOString().replace('T', ' ').slice(0, 19)} UTC, git ${head}; ${emcc}; ${cxx}; node ${process.version}`,
  `(V8 ${process.versions.v8}), flags ${process.execArgv.join(' ') || 'none'}; ${os.cpus().length} cores (${os.cpus()[0].model}), shared;`,
  `load average ${loadBefore} at the start, ${loadAfter} at the end. ${ROUNDS} rounds; the median of ${PUZZLES.map((p) => `${p.reps} runs of ${p.name}`).join(', ')} per engine and round.`,
  '',
  `Median CPU time per engine (setup and search; ${PUZZLES.map((p) => `${p.name} \`${p.options.join(' ')}\``).join(', ')}), and the module or binary size:`,
  '',
  `| engine | size | ${PUZZLES.map((p) => p.name).join(' | ')} |`,
  `|---|---:|${PUZZLES.map(() => '---:').join('|')}|`,
  ...engines.map((e) => `| ${e.label} | ${(e.size / 1024).toFixed(0)} KiB | ${PUZZLES.map((p) => secs(median(results.get(`${p.file}|${e.label}`).times))).join(' | ')} |`),
  '',
  `Time ratios, median over the rounds (95% interval of the median): against the page's wasm (${page.label}), and against native -march=native.`,
  '',
  `| engine | ${PUZZLES.map((p) => `${p.name} / page's wasm`).join(' | ')} | ${PUZZLES.map((p) => `${p.name} / native`).join(' | ')} |`,
  `|---|${PUZZLES.map(() => '---:').join('|')}|${PUZZLES.map(() => '---:').join('|')}|`,
  ...engines.map((e) => `| ${e.label} | ${PUZZLES.map((p) => ratioCell(ratios(p, e, page))).join(' | ')} | ${PUZZLES.map((p) => ratioCell(ratios(p, e, native))).join(' | ')} |`),
  '',
  `Counts (every engine the same): ${PUZZLES.map((p) => { const r = results.get(`${p.file}|${page.label}`); return `${p.name} ${r.solutions.toLocaleString('en-US')} solutions, ${r.placements.toLocaleString('en-US')} placements`; }).join('; ')}.`,
  '',
];
const text = lines.join('\n');
process.stdout.write(text);
if (ONLY.length === 0) {
  // The run replaces the "Recorded run" section of bench/WASM.md; the rest is prose.
  const old = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '# WebAssembly against native\n\n';
  const at = old.indexOf('## Recorded run');
  const next = at < 0 ? -1 : old.indexOf('\n## ', at + 1);
  fs.writeFileSync(OUT, (at < 0 ? `${old.trimEnd()}\n\n` : old.slice(0, at)) + text + (next < 0 ? '' : old.slice(next)));
}
fs.rmSync(snap, { recursive: true, force: true });
