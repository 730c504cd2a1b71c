#!/usr/bin/env node
// Thin rings of the 28 pentacubes (the 29 but the straight one; 140 cubes): every tube whose
// walls are one cube thick, a ring of a x b cubes around an (a-2) x (b-2) hole, L long, with
// (2a + 2b - 4) L = 140. Non-flat pentacubes fit such walls only bent around the tube's four
// edges, which makes many of these figures impossible and hard to search. For each tube: the
// engine's answer to `-q -r -i -j 2` within LIMIT seconds of wall time (stopped by SIGINT
// past it), the impossibility proof if it found one, and whether def/rings holds a solution
// (checked by tests/cpp/ring_tubes_test.cpp); a tube left undecided is searched again by random
// restarts (-s ... -l 1) within the same time. Writes bench/RINGS.md.
//
//   npm run bench:rings          (RINGS_LIMIT=60 seconds a tube)
import { execSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = path.join(ROOT, 'build/cli/polycube');
const LIMIT = Number(process.env.RINGS_LIMIT || 60);
const RESTART_AT = 20; // pieces left where each random dive turns into a whole search
const RESTARTS = ['-q', '-l', '1', '-s', `1000000000,${RESTART_AT},1`]; // one thread
const SOLVED = JSON.parse(readFileSync(path.join(ROOT, 'def/rings/solutions.json'), 'utf8'));
// The pieces, as def/rings' tubes have them.
const PIECES = readFileSync(path.join(ROOT, 'def/rings/pentacube_tube_3x4x14.txt'), 'utf8')
  .split('\n').filter((l) => /^C:name=P\d\d:/.test(l));
if (PIECES.length !== 28) throw new Error(`def/rings: expected the 28 pentacubes, read ${PIECES.length}`);

function tubes() {
  const out = [];
  for (let a = 3; a <= 72; a++) {
    for (let b = a; 2 * (a + b) - 4 <= 140; b++) {
      const ring = 2 * (a + b) - 4;
      if (140 % ring === 0) out.push({ a, b, length: 140 / ring });
    }
  }
  return out;
}

function definition({ a, b, length }) {
  const hole = [];
  for (let z = 0; z < length; z++) for (let y = 1; y < b - 1; y++) for (let x = 1; x < a - 1; x++) hole.push(`${x} ${y} ${z}`);
  return `# 28 pentacubes in a ${a}x${b} tube, ${length} long\nD:xDim=${a}:yDim=${b}:zDim=${length}\n${PIECES.join('\n')}\n` +
    (hole.length ? `C:name=*:type=S:layout=${hole.join(', ')}\n` : '') + '~D\n';
}

// One CLI run, stopped by SIGINT at the limit: its JSON line.
function run(file, options = ['-q', '-r', '-i', '-j', '2']) {
  return new Promise((resolve) => {
    const child = spawn(CLI, [...options, '--json', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    const timer = setTimeout(() => child.kill('SIGINT'), LIMIT * 1000);
    child.on('close', () => {
      clearTimeout(timer);
      const line = out.trim().split('\n').filter((l) => l.startsWith('{')).pop();
      resolve(line ? JSON.parse(line) : { state: 'failed' });
    });
  });
}

if (!existsSync(CLI)) throw new Error(`no ${CLI}: build it first (bash scripts/build.sh native)`);
const dir = mkdtempSync(path.join(os.tmpdir(), 'rings-'));
const results = [];
for (const tube of tubes()) {
  const name = `pentacube_tube_${tube.a}x${tube.b}x${tube.length}.txt`;
  const file = path.join(dir, name);
  writeFileSync(file, definition(tube));
  const result = { tube, known: Boolean(SOLVED[name]), j: await run(file) };
  // Not decided and no solution found: random restarts (-s: random dives down to RESTART_AT
  // pieces left, each followed by a whole search of what is left), which reach solutions of
  // some tubes that the systematic search does not meet in its time.
  if (result.j.state !== 'done' && !(result.j.found > 0)) result.restarts = await run(file, RESTARTS);
  results.push(result);
  process.stdout.write('.');
}
console.log('');
rmSync(dir, { recursive: true, force: true });

const refuted = (r) => r.j.state === 'done' && r.j.solutions === 0;
const answer = ({ j }) => {
  if (refuted({ j })) return j.impossible ? `no solution: ${j.impossible}` : 'no solution (the search ended)';
  if (j.state === 'done') return `${j.solutions.toLocaleString('en-US')} solutions`;
  return j.found > 0 ? `has solutions: ${j.found} found before the cut at ${LIMIT} s` : `not decided: none found before the cut at ${LIMIT} s`;
};
const restartsFound = (r) => Boolean(r.restarts && r.restarts.solutions > 0);
const restartAnswer = (r) => {
  if (!r.restarts) return answer(r);
  return restartsFound(r) ? `has solutions: random restarts found one after ${r.restarts.seconds.toFixed(1)} s (the search found none before the cut at ${LIMIT} s)`
    : `not decided: none found before the cut at ${LIMIT} s, nor by random restarts in ${LIMIT} s`;
};
const seconds = (r) => (r.j.state === 'done' ? `${r.j.seconds.toFixed(3)} s` : '');
const rows = [];
// The rings 1 or 2 cubes long are many and refuted alike (a piece that fits nowhere): one row
// for each length when every one of them is.
for (const length of [...new Set(results.map((r) => r.tube.length))].sort((x, y) => y - x)) {
  const same = results.filter((r) => r.tube.length === length);
  const reasons = new Set(same.map(answer));
  if (length <= 2 && same.length > 1 && reasons.size === 1 && same.every(refuted)) {
    const slowest = Math.max(...same.map((r) => r.j.seconds));
    rows.push(`| every ring, ${length} long (${same.length}: ${same[0].tube.a}x${same[0].tube.b} to ` +
      `${same.at(-1).tube.a}x${same.at(-1).tube.b}) | ${[...reasons][0]} | at most ${slowest.toFixed(3)} s | |`);
  } else {
    for (const r of same) rows.push(`| ${r.tube.a}x${r.tube.b}, ${length} long | ${restartAnswer(r)} | ${seconds(r)} | ${r.known ? 'yes (def/rings)' : ''} |`);
  }
}
const withSolutions = results.filter((r) => r.known || restartsFound(r) || (!refuted(r) && r.j.found > 0));
const undecided = results.filter((r) => !refuted(r) && !withSolutions.includes(r));
const slowest = Math.max(...results.filter(refuted).map((r) => r.j.seconds));
const named = (rs) => rs.map((r) => `${r.tube.a}x${r.tube.b}x${r.tube.length}`).join(', ') || 'none';

const commit = execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
const md = `# Thin rings of the 28 pentacubes\n\n` +
  `Generated by \`npm run bench:rings\` (bench/rings.mjs) at ${commit}: ${os.cpus()[0]?.model || 'unknown CPU'}, ` +
  `${os.cpus().length} cores, load ${load} at the end. Every tube with walls one cube thick that holds the 28 ` +
  `pentacubes (the 29 but the straight one, 140 cubes): a ring of a x b cubes around an (a-2) x (b-2) hole, ` +
  `L long. \`polycube -q -r -i -j 2\`, wall seconds, cut by SIGINT past ${LIMIT} s; a tube it neither refutes nor ` +
  `finds a solution of is searched again by random restarts (\`polycube ${RESTARTS.join(' ')}\`: random dives down to ` +
  `${RESTART_AT} pieces left, each followed by a whole search of the rest), within the same time.\n\n` +
  `**${results.filter(refuted).length} of ${results.length} tubes refuted, the slowest in ${slowest.toFixed(3)} s. ` +
  `With solutions: ${named(withSolutions)}. Undecided: ${named(undecided)}.**\n\n` +
  `| tube (ring, length) | the engine's answer | time | a solution in def/rings |\n|---|---|---:|---|\n` + rows.join('\n') + '\n';
writeFileSync(path.join(ROOT, 'bench/RINGS.md'), md);
console.log(md);
