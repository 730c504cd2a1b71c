#!/usr/bin/env node
// Benchmark: every reference puzzle in two configurations ("default" = the engine's automatic
// configuration, "plain DLX" = DLX with the min-fit heuristic only), natively (build/cli/polycube,
// one process per run, wall time measured here) and as WebAssembly in this Node process
// (Session API, time from start() to the end). Prints a Markdown table to stdout, progress to
// stderr, and writes bench/RESULTS.md. Exit status 1 when a count is wrong or a run failed.
//
// Env: BENCH_MAX_SECONDS (default 120) time limit per run; BENCH_ONLY=name runs only the
// puzzles whose file name contains `name` (comma-separated list allowed); BENCH_SKIP_WASM=1.
// Run through `npm run bench` (scripts/bench.sh), which builds first.
import { spawn, execSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DEF_DIR = path.join(ROOT, 'def');
const CLI_BUILT = path.join(ROOT, 'build/cli/polycube');
// Snapshots taken at start (see snapshot()): other people may rebuild build/ or edit def/
// while a long bench runs, and a run must not mix versions.
let CLI = CLI_BUILT;
let SNAP_DIR = null;
const WASM_GLUE = path.join(ROOT, 'web/wasm/polycube.mjs');
const WASM_BINARY = path.join(ROOT, 'web/wasm/polycube.wasm');
// scripts/bench.sh starts node with eager optimising wasm compilation (what a page's worker has
// after its module finished tiering up); without it a 0.05 s run is mostly baseline code.
const EAGER_WASM = process.execArgv.includes('--no-liftoff');
const RESULTS = path.join(ROOT, 'bench/RESULTS.md');

const LIMIT = Number(process.env.BENCH_MAX_SECONDS || 120);
const ONLY = (process.env.BENCH_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
const SKIP_WASM = /^(1|true|yes)$/i.test(process.env.BENCH_SKIP_WASM || '');
// wasm step() budget (placements): starts at 1e5 and adapts (x4 at most per slice, up to 5e7)
// so that a slice takes ~0.25 s: a DLX placement can cost 100x a FILA one, and fixed 5e6
// slices took 37 s on the hexomino DLX run, overshooting the limit.
const BUDGET = 1e5;
const SLICE_SECONDS = 0.25;
const STEP = { RUNNING: 0, DONE: 1, CANCELLED: 2, FAILED: 3 };

if (!(LIMIT > 0)) {
  console.error(`bench: BENCH_MAX_SECONDS must be a positive number, not '${process.env.BENCH_MAX_SECONDS}'`);
  process.exit(2);
}

// est: rough native seconds of [default, plain DLX] on an idle core, only used to order the
// runs so that short ones come first (wasm runs are assumed ~1.2x slower).
const PUZZLES = [
  { file: 'soma.txt', name: 'Soma cube', est: [0.01, 0.01] },
  { file: 'pentominoes_10x6.txt', name: 'pentominoes 10x6', est: [0.2, 1.5] },
  { file: 'pentominoes_1s_30x3.txt', name: 'one-sided pentominoes 30x3', est: [1, 3] },
  { file: 'bedlam.txt', name: 'Bedlam cube', est: [10, 70] },
  { file: 'tetriscube.txt', name: 'Tetris Cube', est: [18, 160] },
  { file: 'diamond_13x13_pt.txt', name: '13x13 diamond (PT)', est: [120, 200] },
  { file: 'pentominoes_1s_18x5.txt', name: 'one-sided pentominoes 18x5', est: [300, 1000] },
  { file: 'hexomino_box_in_diamond.txt', name: 'box-in-a-diamond hexominoes', extra: ['-l', '1000'], est: [700, 1000] },
];
const CONFIGS = [
  // -j 1: one thread natively, like the wasm column (bench/parallel.mjs measures -j).
  { key: 'default', label: 'default', args: ['-q', '-r', '-j', '1'] },
  { key: 'plain', label: 'plain DLX', args: ['-q', '-r', '-o', 's', '-j', '1'] },
];

// Impossibility proofs (issue 12): puzzles without solutions, def/impossible/*.txt and the
// catalog's zero-count entries. Each runs once natively with the default -q -r; the table shows
// whether it was proved before searching, by which argument, and in what time.
const IMPOSSIBLE = [
  ...readdirSync(path.join(DEF_DIR, 'impossible')).filter((f) => f.endsWith('.txt')).sort().map((f) => `impossible/${f}`),
];
const catalog = JSON.parse(readFileSync(path.join(DEF_DIR, 'catalog.json'), 'utf8'));
const expectedCount = (file) => catalog.find((e) => e.file === file)?.counts?.['-r'];
for (const e of catalog) if (e.counts?.['-r'] === 0 && !IMPOSSIBLE.includes(e.file)) IMPOSSIBLE.push(e.file);

const log = (msg) => process.stderr.write(`bench: ${msg}\n`);
const now = () => process.hrtime.bigint();
const secondsSince = (t0) => Number(now() - t0) / 1e9;
const loadavg = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').trim().split(/\s+/).slice(0, 3).join(' ');
  } catch {
    return os.loadavg().map((x) => x.toFixed(2)).join(' ');
  }
};
const firstLine = (cmd) => {
  try {
    return execSync(cmd, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_PATH: process.env.NODE_PATH || '/usr/share/nodejs' } })
      .split('\n')[0]
      .trim();
  } catch {
    return 'not available';
  }
};

function machine() {
  let cpu = '';
  try {
    cpu = /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '';
  } catch {}
  if (!cpu) cpu = firstLine("lscpu | sed -n 's/^Model name: *//p'");
  if (!cpu || cpu === 'not available') cpu = os.cpus()[0]?.model ?? 'unknown';
  const git = firstLine('git -C "' + ROOT + '" rev-parse --short HEAD');
  let dirty = '';
  try {
    dirty = execSync(`git -C "${ROOT}" status --porcelain --untracked-files=no`, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')
      .map((l) => l.slice(3).trim())
      .filter(Boolean)
      .join(', ');
  } catch {}
  // The compiler build/ was configured with (scripts/build.sh prefers clang++).
  function nativeCompiler() {
    try {
      const cache = readFileSync(path.join(ROOT, 'build/CMakeCache.txt'), 'utf8');
      const cxx = /^CMAKE_CXX_COMPILER:[A-Z]*=(.*)$/m.exec(cache)?.[1]?.trim();
      if (cxx) return `native ${firstLine(`"${cxx}" --version`)}`;
    } catch {}
    return `native ${firstLine('c++ --version')}`;
  }
  return {
    cpu,
    cores: os.availableParallelism ? os.availableParallelism() : os.cpus().length,
    date: new Date().toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'),
    gxx: nativeCompiler(),
    emcc: firstLine('emcc --version'),
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
    git: git === 'not available' || git === '' ? 'unknown' : `${git}${dirty ? ` (uncommitted changes in: ${dirty})` : ''}`,
  };
}

// ---------------------------------------------------------------------------------------
// Runs. Each returns {ok, state, cut, solutions, placements, fits, configuration, seconds,
// engineSeconds, error}. cut = stopped by the time limit (counts are partial).

// Copy the CLI and the puzzle files into a temporary directory; the wasm module is loaded
// into memory once. Returns the def texts by file name.
function snapshot(puzzles) {
  SNAP_DIR = mkdtempSync(path.join(os.tmpdir(), 'polycube-bench-'));
  CLI = path.join(SNAP_DIR, 'polycube');
  copyFileSync(CLI_BUILT, CLI);
  const texts = new Map();
  for (const p of puzzles) {
    const text = readFileSync(path.join(DEF_DIR, p.file), 'utf8');
    mkdirSync(path.dirname(path.join(SNAP_DIR, p.file)), { recursive: true });
    writeFileSync(path.join(SNAP_DIR, p.file), text);
    texts.set(p.file, text);
  }
  process.on('exit', () => rmSync(SNAP_DIR, { recursive: true, force: true }));
  return texts;
}
let DEF_TEXTS = new Map();

function runNative(puzzle, config) {
  const args = [...config.args, ...(puzzle.extra ?? []), '--json', path.join(SNAP_DIR, puzzle.file)];
  return new Promise((resolve) => {
    const t0 = now();
    const child = spawn(CLI, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let interrupted = false;
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => {
      interrupted = true;
      child.kill('SIGINT');
    }, LIMIT * 1000);
    // Should SIGINT be ignored, kill it hard a while later.
    const killer = setTimeout(() => child.kill('SIGKILL'), LIMIT * 1000 + 30000);
    child.on('error', (e) => {
      clearTimeout(timer);
      clearTimeout(killer);
      resolve({ ok: false, error: `cannot run ${CLI}: ${e.message}` });
    });
    child.on('close', (code, signal) => {
      const seconds = secondsSince(t0);
      clearTimeout(timer);
      clearTimeout(killer);
      const line = out.split('\n').reverse().find((l) => l.trim().startsWith('{'));
      let j = null;
      try {
        j = line ? JSON.parse(line) : null;
      } catch {}
      if (!j) {
        resolve({ ok: false, seconds, error: `exit ${code ?? signal}, no JSON line; stderr: ${err.trim().slice(0, 300)}` });
        return;
      }
      const cut = j.state === 'cancelled';
      const okExit = code === 0 || (interrupted && code === 130);
      resolve({
        ok: okExit && ['done', 'limit', 'cancelled'].includes(j.state),
        error: okExit ? (j.state === 'cancelled' || j.state === 'done' || j.state === 'limit' ? undefined : `state ${j.state}`) : `exit ${code ?? signal}: ${err.trim().slice(0, 300)}`,
        state: j.state,
        cut,
        solutions: j.solutions,
        placements: j.placements,
        fits: j.fits,
        configuration: j.configuration,
        seconds,
        engineSeconds: j.seconds,
        impossible: j.impossible,
        impossibleBy: j.impossibleBy,
      });
    });
  });
}

let wasmModule = null;
async function loadWasm() {
  if (!wasmModule) {
    const { default: createPolycube } = await import(WASM_GLUE);
    wasmModule = await createPolycube({ wasmBinary: readFileSync(WASM_BINARY) });
  }
  return wasmModule;
}

async function runWasm(puzzle, config) {
  const module = await loadWasm();
  const session = new module.Session();
  try {
    const loaded = session.load(DEF_TEXTS.get(puzzle.file), puzzle.file);
    if (!loaded.ok) {
      return { ok: false, error: `load: ${loaded.error.message}` };
    }
    const options = [...config.args, ...(puzzle.extra ?? [])].join(' ');
    const drain = () => {
      while (session.pendingSolutions() > 0) {
        if (session.takeSolutions(1 << 16).length === 0) break;
      }
    };
    const t0 = now();
    const started = session.start(0, options);
    if (!started.ok) return { ok: false, error: `start('${options}'): ${started.error.message}` };
    let state;
    let stepped;
    let cancelled = false;
    let budget = BUDGET;
    let slices = 0;
    for (;;) {
      const ts = now();
      stepped = session.step(budget);
      state = stepped.state;
      const dt = secondsSince(ts);
      slices++;
      if (dt > 0) budget = Math.round(Math.min(5e7, Math.max(1e3, budget * Math.min(4, SLICE_SECONDS / dt))));
      drain();
      if (state !== STEP.RUNNING) break;
      if (!cancelled && secondsSince(t0) >= LIMIT) {
        session.cancel();
        cancelled = true;
      }
    }
    const seconds = secondsSince(t0);
    const stats = JSON.parse(session.statsJson());
    const cut = state === STEP.CANCELLED;
    return {
      ok: state === STEP.DONE || (cut && cancelled),
      error: stepped.ok ? undefined : `failed: ${stepped.error.message}`,
      state: stats.state,
      cut,
      solutions: stats.solutions,
      placements: stats.attempts,
      fits: stats.fits,
      configuration: stats.configuration,
      seconds,
      engineSeconds: stats.seconds,
      slices,
    };
  } catch (e) {
    return { ok: false, error: `exception: ${e?.message ?? e}` };
  } finally {
    session.delete();
  }
}

// ---------------------------------------------------------------------------------------
// Formatting.

const int = (n) => (n === undefined || n === null ? '–' : Math.round(n).toLocaleString('en-US'));
const secs = (s) => (s >= 100 ? s.toFixed(0) : s >= 10 ? s.toFixed(1) : s >= 1 ? s.toFixed(2) : s.toFixed(3));
const num = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const rate = (r) => (r.solutions / r.seconds);

function timeCell(r) {
  if (!r) return '–';
  if (!r.ok && !r.cut) return `**ERROR**`;
  if (r.cut) return `> ${secs(LIMIT)} s (cut; ${int(r.solutions)} sol, ${num(rate(r))} sol/s)`;
  return `${secs(r.seconds)} s`;
}

// wasm/native: time ratio when both complete, otherwise the ratio of placement rates.
function ratioCell(n, w) {
  if (!n || !w || !n.ok || !w.ok) return '–';
  if (!n.cut && !w.cut) return `${num(w.seconds / n.seconds)}x`;
  const pn = n.placements / n.seconds;
  const pw = w.placements / w.seconds;
  return pw > 0 ? `${num(pn / pw)}x (placement rate)` : '–';
}

// Speedup of default over plain DLX on one platform.
function speedup(d, p) {
  if (!d || !p || !d.ok || !p.ok) return '–';
  if (!d.cut && !p.cut) return `${num(p.seconds / d.seconds)}x (time)`;
  const rd = rate(d);
  const rp = rate(p);
  // default complete, plain DLX cut: the time ratio is at least limit / default time.
  const bound = !d.cut && p.cut ? `; time ≥ ${num(p.seconds / d.seconds)}x` : '';
  if (rp > 0 && rd > 0) return `${num(rd / rp)}x (sol/s${bound})`;
  if (rd > 0 && rp === 0) return `∞ (plain DLX found none in ${secs(LIMIT)} s${bound})`;
  if (rd === 0 && rp > 0) return `0 (default found none in ${secs(LIMIT)} s)`;
  return 'n/a (no solutions in the limit)';
}

// The definition's title as the engine takes it: the first line of the comment block right
// before the D directive.
function titleOf(text) {
  const lines = text.split('\n');
  const d = lines.findIndex((l) => l.startsWith('D:'));
  let i = d - 1;
  while (i >= 0 && lines[i].startsWith('#')) i--;
  return (lines[i + 1] ?? '').replace(/^#\s*/, '');
}

// ---------------------------------------------------------------------------------------

async function main() {
  const tStart = now();
  const loadStart = loadavg();
  const info = machine();
  const puzzles = PUZZLES.filter((p) => ONLY.length === 0 || ONLY.some((o) => p.file.includes(o)));
  const impossibles = IMPOSSIBLE.filter((f) => ONLY.length === 0 || ONLY.some((o) => f.includes(o))).map((file) => ({ file }));
  if (puzzles.length === 0 && impossibles.length === 0) {
    log(`BENCH_ONLY=${process.env.BENCH_ONLY} matches no puzzle (${PUZZLES.map((p) => p.file).join(', ')})`);
    process.exit(2);
  }
  if (!existsSync(CLI_BUILT)) {
    log(`${CLI_BUILT} is missing: run bash scripts/build.sh`);
    process.exit(1);
  }
  if (!SKIP_WASM && !(existsSync(WASM_GLUE) && existsSync(WASM_BINARY))) {
    log(`${WASM_GLUE} or .wasm is missing: run bash scripts/build.sh (or set BENCH_SKIP_WASM=1)`);
    process.exit(1);
  }

  DEF_TEXTS = snapshot([...puzzles, ...impossibles]);
  if (!SKIP_WASM) await loadWasm();

  // All runs, short ones first (by the rough estimates, capped at the limit).
  const runs = [];
  for (const p of puzzles) {
    CONFIGS.forEach((c, ci) => {
      const est = Math.min(p.est[ci], LIMIT);
      runs.push({ puzzle: p, config: c, platform: 'native', est });
      if (!SKIP_WASM) runs.push({ puzzle: p, config: c, platform: 'wasm', est: Math.min(p.est[ci] * 1.2, LIMIT) + 0.001 });
    });
  }
  runs.sort((a, b) => a.est - b.est);

  log(`${runs.length} runs, limit ${LIMIT} s each, load average ${loadStart}`);
  const results = new Map(); // `${file}|${config}|${platform}` -> result
  let maxLoad = Number(loadStart.split(' ')[0]);
  for (let i = 0; i < runs.length; i++) {
    const { puzzle, config, platform } = runs[i];
    const label = `[${i + 1}/${runs.length}] ${platform.padEnd(6)} ${config.label.padEnd(9)} ${puzzle.file}`;
    log(`${label} ...`);
    const r = platform === 'native' ? await runNative(puzzle, config) : await runWasm(puzzle, config);
    results.set(`${puzzle.file}|${config.key}|${platform}`, r);
    const l1 = Number(loadavg().split(' ')[0]);
    if (l1 > maxLoad) maxLoad = l1;
    if (!r.ok) log(`${label}: FAILED: ${r.error}`);
    else {
      const exp = expectedCount(puzzle.file);
      if (!r.cut && r.state === 'done' && exp !== undefined && r.solutions !== exp) {
        log(`${label}: *** MISMATCH: ${r.solutions} solutions, def/catalog.json says ${exp} ***`);
      }
      log(
        `${label}: ${r.cut ? `cut at ${secs(r.seconds)} s` : `${secs(r.seconds)} s`}, ` +
          `${int(r.solutions)} solutions${r.cut ? ' (partial)' : ''}, ${int(r.placements)} placements (load ${l1})`,
      );
    }
  }

  // Impossibility proofs: one native default run each (a few milliseconds when proved).
  const proofRows = [];
  let proved = 0;
  const problems = [];
  for (const p of impossibles) {
    const r = await runNative(p, CONFIGS[0]);
    log(`impossible ${p.file}: ${r.ok ? (r.impossible ? `proved by ${r.impossibleBy} in ${secs(r.seconds)} s` : `not proved, ${r.cut ? 'cut' : secs(r.seconds) + ' s'}`) : `FAILED: ${r.error}`}`);
    if (!r.ok) problems.push(`${p.file}: run failed: ${r.error}`);
    else if (!r.cut && r.solutions !== 0) problems.push(`${p.file}: ${r.solutions} solutions, expected none`);
    if (r.ok && r.impossible) proved++;
    const title = titleOf(DEF_TEXTS.get(p.file));
    proofRows.push([
      p.file,
      r.ok ? (r.impossible ? `yes: ${r.impossibleBy}` : r.cut ? `no (search cut at ${secs(LIMIT)} s)` : `no (searched: ${int(r.solutions)} solutions)`) : '**ERROR**',
      r.ok ? `${secs(r.seconds)} s (engine ${secs(r.engineSeconds)})` : '–',
      r.ok && r.impossible ? r.impossible.replace(/^impossible (by|because) /, '') : title ?? '',
    ]);
  }

  // Checks and the table.
  const rows = [];
  const speedRows = [];
  for (const p of puzzles) {
    const expected = expectedCount(p.file);
    const limitN = p.extra?.includes('-l') ? Number(p.extra[p.extra.indexOf('-l') + 1]) : null;
    const per = {};
    for (const c of CONFIGS) {
      const n = results.get(`${p.file}|${c.key}|native`);
      const w = results.get(`${p.file}|${c.key}|wasm`);
      per[c.key] = { n, w };
      for (const [plat, r] of [['native', n], ['wasm', w]]) {
        if (r && !r.ok) problems.push(`${p.file} ${c.label} ${plat}: run failed: ${r.error}`);
      }
      // Solutions cell and checks.
      let sol;
      const complete = (r) => r && r.ok && !r.cut && r.state !== 'limit';
      const main = n?.ok ? n : w?.ok ? w : null;
      if (!main) sol = '**ERROR**';
      else if (main.cut) sol = `≥ ${int(main.solutions)} (cut)`;
      else if (main.state === 'limit' || (limitN !== null && main.solutions >= limitN)) sol = `${int(main.solutions)} (limit -l ${limitN}, not a total)`;
      else sol = `${int(main.solutions)} (complete)`;
      for (const [plat, r] of [['native', n], ['wasm', w]]) {
        if (!complete(r)) continue;
        if (expected === undefined) continue;
        if (r.solutions !== expected) {
          problems.push(`${p.file} ${c.label} ${plat}: ${r.solutions} solutions, catalog says ${expected}`);
          sol = `**MISMATCH: ${int(r.solutions)} (${plat}) ≠ ${int(expected)}**`;
        }
      }
      if (complete(n) && complete(w) && n.solutions !== w.solutions) {
        problems.push(`${p.file} ${c.label}: native ${n.solutions} solutions, wasm ${w.solutions}`);
        sol = `**MISMATCH: native ${int(n.solutions)} ≠ wasm ${int(w.solutions)}**`;
      }
      if (main && !main.cut && expected !== undefined && !sol.startsWith('**')) sol += ' ✓';
      const configuration = n?.configuration ?? w?.configuration ?? '';
      const nativeCell = n ? (n.ok && !n.cut ? `${timeCell(n)} (engine ${secs(n.engineSeconds)})` : timeCell(n)) : '–';
      rows.push([
        p.name,
        `${c.label}${configuration ? `: ${configuration}` : ''}`,
        sol,
        main ? `${int(main.placements)}${main.cut ? ' (partial)' : ''}` : '–',
        nativeCell,
        SKIP_WASM ? 'skipped' : timeCell(w),
        SKIP_WASM ? '–' : ratioCell(n, w),
      ]);
    }
    speedRows.push([
      p.name,
      speedup(per.default.n, per.plain.n),
      SKIP_WASM ? 'skipped' : speedup(per.default.w, per.plain.w),
    ]);
  }

  const md = (header, body) =>
    [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...body.map((r) => `| ${r.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`)].join('\n');
  const table = md(['puzzle', 'configuration', 'solutions (-r)', 'placements', 'native', 'wasm (Node)', 'wasm/native'], rows);
  const speedTable = md(['puzzle', 'default vs plain DLX, native', 'default vs plain DLX, wasm'], speedRows);

  const proofTable = md(['puzzle', 'proved impossible before searching', 'native time', 'certificate'], proofRows);
  const total = secondsSince(tStart);
  const loadEnd = loadavg();
  const cutRuns = [...results.entries()].filter(([, r]) => r.cut).map(([k]) => k.replace(/\|/g, ' '));

  const out = [
    '# Benchmark results',
    '',
    `Produced by \`npm run bench\` (bench/run.mjs) on ${info.date}; total bench time ${secs(total)} s` +
      ` (${(total / 60).toFixed(1)} min).`,
    '',
    `- CPU: ${info.cpu}, ${info.cores} cores (${info.kernel})`,
    `- compilers: ${info.gxx}; ${info.emcc}; node ${info.node}`,
    `- source: git ${info.git}; the CLI binary and def/ files were snapshotted at start`,
    `- limit per run: ${secs(LIMIT)} s (BENCH_MAX_SECONDS)${ONLY.length ? `; BENCH_ONLY=${ONLY.join(',')}` : ''}${SKIP_WASM ? '; wasm skipped' : ''}`,
    `- load average (1/5/15 min): ${loadStart} at start, ${loadEnd} at end, highest 1-min value seen between runs ${maxLoad.toFixed(2)}` +
      (maxLoad > info.cores * 0.75 ? ' — **the machine was busy with other jobs, times are noisy**' : ''),
    '',
    table,
    '',
    '## Speedup of the default configuration over plain DLX',
    '',
    speedTable,
    '',
    '## Impossibility proofs',
    '',
    `${proved} of ${impossibles.length} puzzles without solutions proved impossible before searching (parity or a cell`,
    'weighting: engine/constraints/weighting.hpp), each with the certificate the engine prints (`-i`, JSON `impossible`).',
    '',
    proofTable,
    '',
    '## Notes',
    '',
    '- *default* is `-q -r` (the engine chooses; the text after the colon is its JSON `configuration`),',
    '  *plain DLX* is `-q -r -o s` (DLX with the fewest-fits heuristic only, no FILA).',
    '- native: wall time of the whole `build/cli/polycube ... --json` process measured by the bench; in',
    '  brackets the JSON\'s own `seconds`. wasm: the same engine in this Node process, `Session.start()` to the',
    `  end, in \`step()\` slices of ~${SLICE_SECONDS} s (adaptive budget), draining the solution queue.`,
    `  The module is compiled ahead of the runs${EAGER_WASM ? ' with optimising code for every function (node --no-wasm-lazy-compilation --no-liftoff, as scripts/bench.sh runs it), so short runs are not timed while V8 is still tiering up' : ' lazily (V8 default: baseline code first, optimised while running), so short runs include tier-up'}.`,
    '- solutions and placements are the native run\'s (the wasm run\'s when the native one failed). "✓": equals',
    '  `def/catalog.json` `counts["-r"]` (native and wasm both checked when complete).',
    `- "> ${secs(LIMIT)} s (cut ...)": stopped at the limit (SIGINT natively, \`cancel()\` in wasm); the counts are`,
    '  partial and the rate is solutions per second, not a total.',
    '- wasm/native: time ratio when both complete, otherwise the ratio of placement rates (placements/s).',
    '- speedup: plain DLX time / default time when both complete, otherwise the ratio of solution rates',
    '  (solutions/s); when only plain DLX was cut, its time ratio is also given as a lower bound.',
    ...(cutRuns.length ? [`- runs cut by the limit: ${cutRuns.join('; ')}.`] : []),
    ...(problems.length ? ['', '## PROBLEMS', '', ...problems.map((p) => `- **${p}**`)] : []),
    '',
  ].join('\n');

  process.stdout.write(`${table}\n\n${speedTable}\n\n${proved} of ${impossibles.length} impossible puzzles proved before searching\n${proofTable}\n`);
  writeFileSync(RESULTS, out);
  log(`wrote ${path.relative(ROOT, RESULTS)}; total ${secs(total)} s; load average ${loadEnd}`);
  if (problems.length) {
    log('PROBLEMS:');
    for (const p of problems) log(`  ${p}`);
    process.exit(1);
  }
}

process.on('SIGINT', () => process.exit(130)); // the 'exit' handler removes the snapshot

main().catch((e) => {
  log(`crashed: ${e?.stack ?? e}`);
  process.exit(1);
});
