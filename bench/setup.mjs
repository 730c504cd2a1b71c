#!/usr/bin/env node
// How long does a search's setup take (everything before the search starts: the model, the
// symmetries and the -r plan, the weighting proofs, the whole-search estimate and the -r
// probes, the DLX matrix)? Every thread and every worker of a parallel search repeats it, and
// a person waits for it on every Solve. Prints one table: per puzzle the median setup time
// natively (the CLI's --json setupSeconds, `-q -r -j 1`) and in WebAssembly (a Session loaded
// as tests/js/helpers.js loads it: start(0, '-r'), then step() until ready()).
//
//   node --no-wasm-lazy-compilation --no-liftoff bench/setup.mjs
//
// Env: BENCH_REPEATS (11) runs per puzzle and build (random60: a third of them, at least 3);
// BENCH_CLI (build/cli/polycube) and BENCH_WASM_DIR (web/wasm) pick the builds, so that two
// revisions can be compared; BENCH_ONLY=10x6,tetris filters the puzzles by file name;
// BENCH_SKIP_WASM=1 / BENCH_SKIP_NATIVE=1 leave a column out.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = path.resolve(ROOT, process.env.BENCH_CLI || 'build/cli/polycube');
const WASM_DIR = path.resolve(ROOT, process.env.BENCH_WASM_DIR || 'web/wasm');
const REPEATS = Math.max(1, Number(process.env.BENCH_REPEATS || 11));
const ONLY = (process.env.BENCH_ONLY || '').split(',').filter(Boolean);
const PUZZLES = [
  'def/pentominoes_10x6.txt',
  'def/tetriscube.txt',
  'def/bedlam.txt',
  'def/diamond_13x13_pt.txt',
  // 60 random 10-cell pieces: 100,000s of images, a search that finds nothing for minutes.
  'tests/hostile/random60.txt',
].filter((f) => ONLY.length === 0 || ONLY.some((o) => f.includes(o)));
// A search that would run for minutes is interrupted (SIGINT: the CLI still prints its JSON)
// this long after it started, well after its setup.
const NATIVE_CUT_SECONDS = 3;
const RUNNING = 0;  // Session::StepState (web/src/worker/protocol.js STEP)

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const repeatsFor = (file) => (file.includes('random60') ? Math.max(3, Math.round(REPEATS / 3)) : REPEATS);

function nativeSetupSeconds(file) {
  // coreutils' timeout, not spawnSync's: the output written after node's kill was lost.
  const args = ['-s', 'INT', String(NATIVE_CUT_SECONDS), CLI, '-q', '-r', '-j', '1', '-l', '1', '--json', path.join(ROOT, file)];
  // An interrupted run (random60) once in a few dozen ended without its JSON: run it again.
  for (let attempt = 1; ; attempt++) {
    const r = spawnSync('timeout', args, { encoding: 'utf8', maxBuffer: 1 << 24 });
    const line = (r.stdout || '').trim().split('\n').pop();
    if (line && line.startsWith('{')) return JSON.parse(line).setupSeconds;
    if (attempt === 3) throw new Error(`${CLI} ${file}: no JSON (exit ${r.status}, signal ${r.signal}): ${r.stderr}`);
  }
}

async function loadWasm() {
  const glue = path.join(WASM_DIR, 'polycube.mjs');
  const binary = path.join(WASM_DIR, 'polycube.wasm');
  if (!existsSync(glue) || !existsSync(binary)) throw new Error(`${glue} or ${binary} is missing: bash scripts/build.sh wasm`);
  const { default: createPolycube } = await import(glue);
  return createPolycube({ wasmBinary: readFileSync(binary) });
}

function wasmSetupSeconds(module, file) {
  const session = new module.Session();
  try {
    const loaded = session.load(readFileSync(path.join(ROOT, file), 'utf8'), path.basename(file));
    if (!loaded.ok) throw new Error(loaded.error.message);
    const t0 = performance.now();
    const started = session.start(0, '-r');
    if (!started.ok) throw new Error(started.error.message);
    // Setup runs in step() slices (at most 15 ms each); the slice that ends it returns.
    while (!session.ready() && session.step(1e12).state === RUNNING) {}
    const seconds = (performance.now() - t0) / 1000;
    if (!session.ready()) throw new Error(`${file}: setup ended in the phase ${session.phase()}`);
    session.cancel();
    return seconds;
  } finally {
    session.delete();
  }
}

const skipNative = process.env.BENCH_SKIP_NATIVE === '1' || !existsSync(CLI);
const skipWasm = process.env.BENCH_SKIP_WASM === '1';
const module = skipWasm ? null : await loadWasm();
const ms = (s) => (s === undefined ? '-' : (1000 * s).toFixed(2));
console.log(`setup medians, ${REPEATS} runs (random60: ${repeatsFor('random60')}); native: ${skipNative ? 'skipped' : CLI}; wasm: ${skipWasm ? 'skipped' : WASM_DIR}`);
console.log('| puzzle | native setup (ms) | wasm setup (ms) |');
console.log('|---|---:|---:|');
for (const file of PUZZLES) {
  const native = [], wasm = [];
  if (module) wasmSetupSeconds(module, file);  // warm-up: the first run pays for growing the heap
  for (let k = 0; k < repeatsFor(file); k++) {
    // Alternated, so that both see the same machine load.
    if (!skipNative) native.push(nativeSetupSeconds(file));
    if (module) wasm.push(wasmSetupSeconds(module, file));
  }
  console.log(`| ${path.basename(file, '.txt')} | ${ms(native.length ? median(native) : undefined)} | ${ms(wasm.length ? median(wasm) : undefined)} |`);
}
