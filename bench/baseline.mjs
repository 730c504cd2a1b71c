// The CLI of an earlier revision, built once in a cache directory, for benchmarks that
// compare the current build against it in one run (bench/trace-overhead.mjs, bench/parallel.mjs,
// bench/gate.mjs). Only the revision's files are used (git archive: no worktree to register or
// clean up); the compiler is the one scripts/build.sh prefers (clang++, else g++), Release, CLI
// target only. The cache is $POLYCUBE_BENCH_CACHE, else $XDG_CACHE_HOME/polycube-bench, else
// ~/.cache/polycube-bench: a revision is built once and reused by every later run (a commit's
// sources never change; delete the directory to rebuild with another compiler).
//
//   const { rev, cli } = baselineCli('914d7c5^', 'trace-overhead');
//   const v3 = baselineCli('914d7c5^', 'gate', { tag: 'v3', cmakeArgs: ['-DPOLYCUBE_NATIVE_ARCH=OFF', '-DCMAKE_CXX_FLAGS=-march=x86-64-v3'] });
//   const cur = worktreeCli('gate', { tag: 'v3', cmakeArgs: [...] });  // the working tree, as it is
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export const CACHE = process.env.POLYCUBE_BENCH_CACHE ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'polycube-bench');

const sh = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function compiler() {
  return spawnSync('bash', ['-c', 'command -v clang++ || command -v g++'], { encoding: 'utf8' }).stdout.trim();
}

/** Configure and build the CLI of the sources in `src` into `build` (incremental). */
function buildCli(src, build, cmakeArgs) {
  sh('cmake', ['-S', src, '-B', build, '-DCMAKE_BUILD_TYPE=Release', '-DPOLYCUBE_BUILD_TESTS=OFF', `-DCMAKE_CXX_COMPILER=${compiler()}`, ...cmakeArgs]);
  sh('cmake', ['--build', build, '--target', 'polycube', '-j', String(os.cpus().length)]);
  return path.join(build, 'cli/polycube');
}

/**
 * Build (or reuse) the CLI of `revision`; `who` names the caller in the progress line.
 * `tag` and `cmakeArgs` make a variant (e.g. another -march) in a directory of its own.
 */
export function baselineCli(revision, who, { tag = '', cmakeArgs = [] } = {}) {
  const rev = sh('git', ['-C', ROOT, 'rev-parse', '--short', revision]).trim();
  const dir = path.join(CACHE, `baseline-${rev}${tag ? `-${tag}` : ''}`);
  const cli = path.join(dir, 'build/cli/polycube');
  if (fs.existsSync(cli)) return { rev, cli };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('bash', ['-c', `git -C "${ROOT}" archive ${rev} | tar -x -C "${dir}"`]);
  console.error(`${who}: building the baseline ${rev}${tag ? ` (${tag})` : ''} in ${dir} (${compiler()})`);
  buildCli(dir, path.join(dir, 'build'), cmakeArgs);
  return { rev, cli };
}

/** The CLI of the working tree as it is (uncommitted changes too), a variant built apart. */
export function worktreeCli(who, { tag, cmakeArgs = [] }) {
  const build = path.join(CACHE, `worktree-${path.basename(ROOT.replace(/\/$/, ''))}-${tag}`);
  console.error(`${who}: building the working tree (${tag}) in ${build}`);
  return buildCli(ROOT, build, cmakeArgs);
}

/**
 * The WebAssembly module of the working tree built with other flags into a directory of its
 * own (incremental): `opt` the optimisation level of the engine, the bindings and binaryen's
 * link, `flags` extra compile and link flags (e.g. -mbulk-memory), `cmakeArgs` more cache
 * entries (e.g. -DPOLYCUBE_WASM_SIMD=OFF). Returns { glue, wasm }.
 */
export function worktreeWasm(who, { tag, opt = '-O3', flags = '', cmakeArgs = [] }) {
  const build = path.join(CACHE, `wasm-${path.basename(ROOT.replace(/\/$/, ''))}-${tag}`);
  const out = path.join(build, 'out');
  console.error(`${who}: building the working tree's wasm (${tag}: ${opt} ${flags}) in ${build}`);
  // Debian's Emscripten 3.1.6 needs Debian's node modules (acorn) for optimised builds.
  const env = { ...process.env, NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':') };
  const run = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env });
  run('emcmake', ['cmake', '-S', ROOT, '-B', build, '-DCMAKE_BUILD_TYPE=Release', `-DCMAKE_CXX_FLAGS_RELEASE=${opt} -DNDEBUG`,
    `-DCMAKE_CXX_FLAGS=${flags}`, `-DCMAKE_EXE_LINKER_FLAGS=${flags}`, `-DPOLYCUBE_WASM_OPT=${opt}`, `-DPOLYCUBE_WASM_DIR=${out}`, ...cmakeArgs]);
  run('cmake', ['--build', build, '--target', 'polycube_wasm', '-j', String(os.cpus().length)]);
  return { glue: path.join(out, 'polycube.mjs'), wasm: path.join(out, 'polycube.wasm') };
}
