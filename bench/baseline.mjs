// The CLI of an earlier revision, built once in a temporary directory, for benchmarks that
// compare the current build against it in one run (bench/trace-overhead.mjs, bench/parallel.mjs).
// Only the revision's files are used (git archive: no worktree to register or clean up); the
// compiler is the one scripts/build.sh prefers (clang++, else g++), Release, CLI target only.
//
//   const { rev, cli } = baselineCli('914d7c5^', 'trace-overhead');
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

const sh = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Build (or reuse) the CLI of `revision`; `who` names the caller in the progress line. */
export function baselineCli(revision, who) {
  const rev = sh('git', ['-C', ROOT, 'rev-parse', '--short', revision]).trim();
  const dir = path.join(os.tmpdir(), `polycube-baseline-${rev}`);
  const cli = path.join(dir, 'build/cli/polycube');
  if (fs.existsSync(cli)) return { rev, cli };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('bash', ['-c', `git -C "${ROOT}" archive ${rev} | tar -x -C "${dir}"`]);
  const cxx = spawnSync('bash', ['-c', 'command -v clang++ || command -v g++'], { encoding: 'utf8' }).stdout.trim();
  console.error(`${who}: building the baseline ${rev} in ${dir} (${cxx})`);
  sh('cmake', ['-S', dir, '-B', path.join(dir, 'build'), '-DCMAKE_BUILD_TYPE=Release', '-DPOLYCUBE_BUILD_TESTS=OFF', `-DCMAKE_CXX_COMPILER=${cxx}`]);
  sh('cmake', ['--build', path.join(dir, 'build'), '--target', 'polycube', '-j', String(os.cpus().length)]);
  return { rev, cli };
}
