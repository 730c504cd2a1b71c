#!/usr/bin/env node
// Build orders of every solution (engine/assembly/build_order.hpp, docs/build-order.md): how many
// solutions of each 3-D puzzle go together with pieces lowered straight into the box, how many
// need a piece slid sideways after lowering, how many have pieces that interlock (and in groups
// of how many), and how many have a piece that nothing is under when it goes in. Each puzzle
// runs natively as `polycube -q -r --build-order --json` (the counts are in its JSON line) and
// once without --build-order, to show what working out the orders costs beside the search.
//
// Writes bench/BUILD-ORDER.md (unless BUILD_ORDER_ONLY is set). Exit status 1 when a solution
// count differs from the catalog's or an order could not be made.
//
// Env: BUILD_ORDER_ONLY=tetris,soma (file-name filter), BUILD_ORDER_JOBS (threads, default 2).
// Run through `npm run bench:build-order`, which builds the native CLI first.
import { spawnSync, execSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = path.join(ROOT, 'bench/BUILD-ORDER.md');
const ONLY = (process.env.BUILD_ORDER_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
const JOBS = String(Number(process.env.BUILD_ORDER_JOBS || 2));

// The binary is copied at start so that a rebuild during the run cannot mix versions.
const SNAP = mkdtempSync(path.join(os.tmpdir(), 'build-order-'));
const CLI = path.join(SNAP, 'polycube');
copyFileSync(path.join(ROOT, 'build/cli/polycube'), CLI);

// The 3-D puzzles of def/ and def/families/ (flat boards are from above in any order).
function puzzles() {
  const catalog = JSON.parse(readFileSync(path.join(ROOT, 'def/catalog.json'), 'utf8'));
  const families = JSON.parse(readFileSync(path.join(ROOT, 'def/families/catalog.json'), 'utf8'));
  const expected = new Map();
  for (const e of [...catalog, ...families]) {
    if (e && e.file && e.counts && typeof e.counts['-r'] === 'number') expected.set(path.basename(e.file), e.counts['-r']);
  }
  const files = ['def/tetriscube.txt', 'def/bedlam.txt', 'def/soma.txt',
    ...readdirSync(path.join(ROOT, 'def/families')).filter((f) => f.endsWith('.txt')).sort().map((f) => `def/families/${f}`)];
  return files
    .filter((f) => /zDim=([2-9]|\d\d)/.test(readFileSync(path.join(ROOT, f), 'utf8')))
    .filter((f) => ONLY.length === 0 || ONLY.some((o) => f.includes(o)))
    .map((f) => ({ file: f, expected: expected.get(path.basename(f)) }));
}

function run(file, extra) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(CLI, ['-q', '-r', '-j', JOBS, '--json', ...extra, path.join(ROOT, file)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${file}: exit ${r.status}: ${r.stderr}`);
  const line = r.stdout.trim().split('\n').pop();
  return { json: JSON.parse(line), wall };
}

const pct = (n, total) => (total ? `${((100 * n) / total).toFixed(1)}%` : '-');
const rows = [];
let failed = false;
for (const { file, expected } of puzzles()) {
  const plain = run(file, []);
  const built = run(file, ['--build-order']);
  const b = built.json.buildOrders;
  const n = built.json.solutions;
  if ((expected !== undefined && n !== expected) || b.failed || b.exhausted) failed = true;
  const groups = Object.entries(b.groups).map(([k, v]) => `${v}×${k}`).join(', ') || '-';
  const w = b.bestWayUp;
  rows.push({
    file, n, expected, above: b.above, sideways: b.sideways, interlocked: b.interlocked, unsupported: b.unsupported,
    best: `${w.above} / ${w.sideways} / ${w.interlocked} / ${w.unsupported}`,
    groups, states: b.states, maxStates: b.maxStates, exhausted: b.exhausted || 0,
    plain: plain.json.cpuSeconds, built: built.json.cpuSeconds, wall: [plain.wall, built.wall],
  });
  console.log(`${file}: ${n} solutions: ${b.above} above, ${b.sideways} sideways, ${b.interlocked} interlocked (${groups}), ${b.unsupported} unsupported; the best way up ${w.above} / ${w.sideways} / ${w.interlocked} / ${w.unsupported}; CPU ${plain.json.cpuSeconds.toFixed(2)} s -> ${built.json.cpuSeconds.toFixed(2)} s`);
}

const table = [
  '| puzzle | solutions (-r) | from above | sideways slides | interlocked (groups: solutions×pieces) | held | the best way up: above / sideways / interlocked / held | sets searched (max for one) | CPU without / with --build-order |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.file} | ${r.n}${r.expected === r.n ? ' ✓' : r.expected === undefined ? '' : ` ✗ (catalog ${r.expected})`} | ${r.above} (${pct(r.above, r.n)}) | ${r.sideways} (${pct(r.sideways, r.n)}) | ${r.interlocked} (${pct(r.interlocked, r.n)}; ${r.groups}) | ${r.unsupported} | ${r.best} | ${r.states} (${r.maxStates})${r.exhausted ? ` ${r.exhausted} cut` : ''} | ${r.plain.toFixed(2)} s / ${r.built.toFixed(2)} s |`),
];
const cpu = os.cpus()[0] ? os.cpus()[0].model : 'unknown CPU';
let commit = '';
try { commit = execSync('git rev-parse --short HEAD', { cwd: ROOT, encoding: 'utf8' }).trim(); } catch { /* not a checkout */ }
const report = `# Build orders of every solution

\`npm run bench:build-order\` (bench/build-order.mjs): every solution with \`-r\` of the 3-D puzzles
of \`def/\` and \`def/families/\` classified by \`polycube -q -r -j ${JOBS} --build-order --json\` (the
model and the classes: docs/build-order.md). *From above*: every piece lowered straight into
the box; *sideways slides*: at least one piece must be lowered beside its place and slid under
an overhang; *interlocked*: no order of such moves, the pieces named fit together outside the box
first (groups: how many solutions have a group of how many pieces); *held*: the pieces come apart
but in every order some piece has nothing under it when it goes in (mostly figures with air). *Sets
searched*: the sets of pieces the order searches expanded over all solutions (one per piece
placed when nothing backs up; every face tried down counts), and the most for one solution.
*CPU*: the process's CPU seconds for the puzzle (\`cpuSeconds\`, every thread): what working out
the orders adds to the search (wall times on the shared machine say more about its load).
*The best way up*: the classes with the face of the solution that goes in most easily at the
bottom (all six faces of a cube box, fewer of others; \`BuildOrder::turned\`): the
search stores each solution one way up, which is not the easiest for a person.

Machine: ${cpu}, ${os.cpus().length} threads, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; commit ${commit}.

${table.join('\n')}
`;
console.log(`\n${table.join('\n')}`);
if (ONLY.length === 0) writeFileSync(OUT, report);
rmSync(SNAP, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
