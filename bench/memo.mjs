#!/usr/bin/env node
// Memoized counting against the enumerating search: does `--memo` count faster, and where,
// and does the default (a -q count chooses, memo/memo_choice.hpp) take the faster one?
// Every puzzle runs natively on one thread three times: the enumerating search (`--no-memo -q
// --json -j 1` and the puzzle's options, the automatic configuration), the memoized count
// (`--memo -q --json` and the same options) and the default (`-q --json -j 1`: its JSON's
// "counting" says which way it took). The counts must agree with each other and with the
// catalog where it has one; a run past the limit (wall time) is stopped by SIGINT (its JSON
// line then says "cancelled") and shown as cut. Times are the process's CPU seconds for the
// puzzle (the JSON's cpuSeconds): on a shared machine the wall time measures the other
// sessions too. The default's column is its time over the faster of the other two.
//
// Puzzles: the reference puzzles of def/ (with -r, and without -r or with -r -M where the
// catalog has those counts), the copy-heavy puzzles of def/copies, the one-sided pentominoes
// in 6x15 and 9x10 (made here from the 18x5 file's pieces), a thin ring wall of 28 pentacubes
// with no solution (made here), and every family puzzle of def/families with -r (a summary
// line, and the slowest ones listed).
//
// Writes bench/MEMO.md (unless MEMO_ONLY is set). Exit status 1 when counts differ.
// Env: MEMO_ONLY=soma,18x5 (filter on the puzzle's name), MEMO_MAX_SECONDS (60: limit per
// run), MEMO_MB (1024: --memo-mb), MEMO_LONG_MB (4096: --memo-mb of the long counts on two
// threads), MEMO_SKIP_FAMILIES=1.
//
// Then the long counts of the targets on two threads (wall seconds: what a person
// waits): one-sided pentominoes 18x5, 6x15 and 9x10, enumerating (`--no-memo -q -j 2`),
// memoized (`--memo -q -j 2 --memo-mb MEMO_LONG_MB`) and the default (`-q -j 2`: the automatic
// choice, its race included, with the default budget), each cut at MEMO_LONG_SECONDS (120).
// Run through `npm run bench:memo`, which builds the native CLI first.
import { spawn, execSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = path.join(ROOT, 'bench/MEMO.md');
const ONLY = (process.env.MEMO_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
const LIMIT = Number(process.env.MEMO_MAX_SECONDS || 60);
const MB = String(process.env.MEMO_MB || 1024);
const LONG_MB = String(process.env.MEMO_LONG_MB || 4096);  // the long counts on two threads
const LONG_LIMIT = Number(process.env.MEMO_LONG_SECONDS || 120);

const SNAP = mkdtempSync(path.join(os.tmpdir(), 'memo-bench-'));
const CLI = path.join(SNAP, 'polycube');
copyFileSync(path.join(ROOT, 'build/cli/polycube'), CLI);

// The one-sided pentominoes of the 18x5 file in another box.
function oneSided(x, y) {
  const text = readFileSync(path.join(ROOT, 'def/pentominoes_1s_18x5.txt'), 'utf8');
  return text.replace(/^D:.*$/m, `D:xDim=${x}:yDim=${y}:zDim=1:oneSide`);  // (the pieces are a picture)
}

// A ring wall one cube thick around a 6x6 hole (8x8 outside), 5 cubes high: 140 cells for the
// 28 pentacubes of the 29 without the straight one. Non-planar pentacubes fit a wall one cube
// thick only at its 4 corners, so there is no solution (the cell weightings prove it at once).
function thinRing() {
  const text = readFileSync(path.join(ROOT, 'def/impossible/pentacube_ring_5x13.txt'), 'utf8');
  const pieces = text.split('\n').filter((l) => l.startsWith('C:name=P') && !l.startsWith('C:name=P00:'));
  const inner = [];
  for (let z = 0; z < 5; z++) for (let y = 1; y < 7; y++) for (let x = 1; x < 7; x++) inner.push(`${x} ${y} ${z}`);
  return `# 28 pentacubes in a thin 8x8 ring wall, 5 high (no solution)\nD:xDim=8:yDim=8:zDim=5\n${pieces.join('\n')}\n` +
    `C:name=*:type=S:layout=${inner.join(', ')}\n~D\n`;
}

function written(name, text) {
  const file = path.join(SNAP, name);
  writeFileSync(file, text);
  return file;
}

const catalog = JSON.parse(readFileSync(path.join(ROOT, 'def/catalog.json'), 'utf8'));
const cases = [];
for (const e of catalog) {
  if (e.file.startsWith('lesson_')) continue;
  const file = path.join(ROOT, 'def', e.file);
  const optionSets = Object.keys(e.counts).length ? Object.keys(e.counts) : ['-r'];
  for (const options of optionSets) cases.push({ name: e.title, file, options, known: e.counts[options] });
}
for (const e of JSON.parse(readFileSync(path.join(ROOT, 'def/copies/catalog.json'), 'utf8')))
  for (const [options, known] of Object.entries(e.counts))
    cases.push({ name: e.title, file: path.join(ROOT, 'def/copies', e.file), options, known });
cases.push({ name: 'One-sided pentominoes 6x15', file: written('1s_6x15.txt', oneSided(15, 6)), options: '-r', known: 2567183 });
cases.push({ name: 'One-sided pentominoes 9x10', file: written('1s_9x10.txt', oneSided(10, 9)), options: '-r', known: 10440433 });
cases.push({ name: 'Thin pentacube ring 8x8x5 (28 pieces)', file: written('ring.txt', thinRing()), options: '-r', known: 0 });

function selected(name) {
  return !ONLY.length || ONLY.some((w) => name.toLowerCase().includes(w.toLowerCase()) );
}

// One CLI run, stopped by SIGINT at the limit: its JSON line.
function run(file, args, limit = LIMIT) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(CLI, [...args, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let cut = false;
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => { cut = true; child.kill('SIGINT'); }, limit * 1000);
    child.on('close', () => {
      clearTimeout(timer);
      const line = out.trim().split('\n').filter((l) => l.startsWith('{')).pop();
      let json = null;
      try { json = line ? JSON.parse(line) : null; } catch { json = null; }
      resolve({ json, cut, err: err.trim(), wall: (Date.now() - started) / 1000 });
    });
  });
}

const words = (s) => s.split(' ').filter(Boolean);
const enumerate = (c) => run(c.file, ['--no-memo', '-q', '--json', '-j', '1', ...words(c.options)]);
const memoize = (c) => run(c.file, ['--memo', '--memo-mb', MB, '-q', '--json', ...words(c.options)]);
const byDefault = (c) => run(c.file, ['-q', '--json', '-j', '1', ...words(c.options)]);
// The default's way ("memo" or "enum") and its time over the faster of the two that finished.
function defaultShown(d, e, m) {
  if (!d.json) return `error: ${d.err.split('\n').pop()}`;
  const way = (d.json.counting || '').startsWith('memoized') ? 'memo' : 'enum';
  const times = [e, m].filter(done).map(sec);
  if (!done(d)) return `${way}, ${shown(d)}`;
  return `${way}, ${shown(d)}` + (times.length ? `, ${(sec(d) / Math.max(Math.min(...times), 1e-5)).toFixed(2)}x` : '');
}

// CPU seconds of the process for the puzzle (the JSON's cpuSeconds): on a shared, loaded
// machine wall time measures the other sessions more than the search.
const sec = (r) => (r.json.cpuSeconds ?? r.json.seconds);
const fmtCount = (n) => (n === null || n === undefined ? '' : Number(n).toLocaleString('en-US'));
function shown(r) {
  if (!r.json) return `error: ${r.err.split('\n').pop()}`;
  const s = sec(r);
  return r.cut || r.json.state === 'cancelled' ? `cut at ${LIMIT} s wall (${s.toFixed(1)} s CPU)` : `${s < 0.01 ? s.toFixed(4) : s.toFixed(3)} s`;
}
const done = (r) => r.json && r.json.state === 'done';
// How the memoized count went: subproblems, memory, and the way (layers, or terms left to the table).
function memoShown(m) {
  const memo = m.json && m.json.memo ? m.json.memo : null;
  if (!memo) return ' | | ';
  const table = memo.fallbackTerms > 0 || memo.layeredTerms === 0;
  const subproblems = (memo.subproblems || 0) + (table ? memo.misses || 0 : 0);
  const bytes = Math.max(memo.layerBytes || 0, table ? memo.tableBytes || 0 : 0);
  const way = memo.fallbackTerms > 0 ? `layers, ${memo.fallbackTerms} term(s) past the budget by the table` : 'layers';
  const counted = (memo.layeredTerms || 0) + (memo.fallbackTerms || 0) > 0 || (memo.misses || 0) > 0;
  return `${fmtCount(subproblems)} | ${bytes ? (bytes / 1048576).toFixed(1) : ''} | ${counted ? way : m.json.impossible ? 'proved impossible' : ''}`;
}

let failures = 0;
const rows = [];
for (const c of cases) {
  if (!selected(c.name)) continue;
  const e = await enumerate(c);
  const m = await memoize(c);
  const d = await byDefault(c);
  const counts = [done(e) ? e.json.solutions : null, done(m) ? m.json.solutions : null, done(d) ? d.json.solutions : null,
    c.known ?? null].filter((x) => x !== null);
  const agree = counts.every((x) => x === counts[0]);
  if (!agree) failures++;
  const speedup = done(e) && done(m) && sec(m) > 0 ? `${(sec(e) / sec(m)).toFixed(2)}x` : '';
  rows.push(`| ${c.name} | \`${c.options || '(none)'}\` | ${fmtCount(c.known)} | ${done(e) ? fmtCount(e.json.solutions) : ''} | ` +
    `${shown(e)} | ${done(m) ? fmtCount(m.json.solutions) : ''} | ${shown(m)} | ${speedup} | ${memoShown(m)} | ` +
    `${defaultShown(d, e, m)} | ${agree ? '' : 'DIFFER'} |`);
  console.log(rows[rows.length - 1]);
}

// The long counts on two threads, wall seconds.
const longRows = [];
const wall = (r) => r.wall;  // (the process's, start to end, setup included)
const wallShown = (r) => (!r.json ? `error: ${r.err.split('\n').pop()}` : r.cut || r.json.state === 'cancelled' ? `cut at ${LONG_LIMIT} s` : `${wall(r).toFixed(2)} s`);
for (const c of cases.filter((x) => /one-sided pentominoes (18x5|6x15|9x10)/i.test(x.name))) {
  if (!selected(c.name) && !(ONLY.length && ONLY.includes('long'))) continue;
  const e = await run(c.file, ['--no-memo', '-q', '--json', '-j', '2', ...words(c.options)], LONG_LIMIT);
  const m = await run(c.file, ['--memo', '--memo-mb', LONG_MB, '-q', '--json', '-j', '2', ...words(c.options)], LONG_LIMIT);
  const d = await run(c.file, ['-q', '--json', '-j', '2', ...words(c.options)], LONG_LIMIT);
  const agree = [e, m, d].every((r) => !done(r) || r.json.solutions === c.known);
  if (!agree) failures++;
  const way = d.json && (d.json.counting || '').startsWith('memoized') ? 'memo' : 'enum';
  longRows.push(`| ${c.name} | \`${c.options}\` | ${fmtCount(c.known)} | ${wallShown(e)} | ${wallShown(m)} | ${way}, ${wallShown(d)} | ` +
    `${done(m) ? fmtCount(m.json.solutions) : ''} | ${memoShown(m)}${agree ? '' : ' DIFFER'} |`);
  console.log(longRows[longRows.length - 1]);
}

// The families: every puzzle with -r, both ways.
const famRows = [];
let famMemoWins = 0, famTotal = 0, famEnumSeconds = 0, famMemoSeconds = 0, famDefaultMemo = 0;
const famDefault = [];  // the default's time over the enumerating search's, per puzzle
if (!process.env.MEMO_SKIP_FAMILIES && (!ONLY.length || ONLY.includes('families'))) {
  const fam = JSON.parse(readFileSync(path.join(ROOT, 'def/families/catalog.json'), 'utf8'));
  for (const e of fam) {
    const c = { name: e.title, file: path.join(ROOT, 'def/families', e.file), options: '-r', known: e.counts['-r'] };
    const en = await enumerate(c);
    const m = await memoize(c);
    const d = await byDefault(c);
    const agree = [m, en, d].every((r) => !done(r) || r.json.solutions === c.known);
    if (done(d)) {
      famDefault.push(sec(d) / Math.max(done(en) ? sec(en) : Infinity, 1e-5));
      if ((d.json.counting || '').startsWith('memoized')) famDefaultMemo++;
    }
    if (!agree) failures++;
    famTotal++;
    if (done(en) && done(m)) {
      famEnumSeconds += sec(en);
      famMemoSeconds += sec(m);
      if (sec(m) < sec(en)) famMemoWins++;
    }
    famRows.push({ name: e.title, e: en, m, agree, ratio: done(en) && done(m) ? sec(en) / Math.max(sec(m), 1e-5) : 0 });
    process.stdout.write('.');
  }
  console.log('');
}

rmSync(SNAP, { recursive: true, force: true });
const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
const cpu = os.cpus()[0]?.model || 'unknown CPU';
const commit = execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
let md = `# Memoized counting against the enumerating search\n\n` +
  `Generated by \`npm run bench:memo\` (bench/memo.mjs) at ${commit}: ${cpu}, ${os.cpus().length} cores, load ${load} ` +
  `at the end. One thread each; CPU seconds of the process for the puzzle (the JSON's cpuSeconds); runs past ${LIMIT} s ` +
  `of wall time cut (SIGINT). ` +
  `Enumerating: \`--no-memo -q -j 1\` with the automatic configuration; memoized: \`--memo --memo-mb ${MB} -q\`; ` +
  `default: \`-q -j 1\`, which chooses (memo/memo_choice.hpp): the way it took and its time over the faster of the ` +
  `other two (single runs: a few percent either way is noise). ` +
  `Subproblems: the distinct ones the layers expanded (plus the table's misses for a term left to it); MiB: the ` +
  `most memory the layers (or the table) held; way: layer by layer, or a term whose layers passed the budget ` +
  `counted by the table's search.\n\n` +
  `| puzzle | options | known | enumerating | time | memoized | time | speed-up | subproblems | MiB | way | default | |\n` +
  `|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|\n` + rows.join('\n') + '\n';
if (longRows.length)
  md += `\n## The long counts on two threads (wall seconds)\n\nEnumerating: \`--no-memo -q -j 2\`; memoized: ` +
    `\`--memo -q -j 2 --memo-mb ${LONG_MB}\` (the layers' threads share each layer); default: \`-q -j 2\` (the automatic ` +
    `choice with the default budget, a quarter of the machine's memory: the way it took, memo when its race switched). ` +
    `Runs past ${LONG_LIMIT} s of wall time cut.\n\n` +
    `| puzzle | options | known | enumerating | memoized | default | count | subproblems | MiB | way |\n|---|---|---:|---:|---:|---|---:|---:|---:|---|\n` +
    longRows.join('\n') + '\n';
if (famRows.length) {
  famRows.sort((a, b) => a.ratio - b.ratio);
  md += `\n## The families (def/families, -r)\n\n${famTotal} puzzles; memoized faster on ${famMemoWins} of those both finished; ` +
    `total ${famEnumSeconds.toFixed(2)} s enumerating, ${famMemoSeconds.toFixed(2)} s memoized; ` +
    `${famRows.filter((r) => !r.agree).length} counts differ. The default took the memoized count on ${famDefaultMemo}; ` +
    `its time over the enumerating search's: geometric mean ${Math.exp(famDefault.reduce((a, x) => a + Math.log(x), 0) / Math.max(famDefault.length, 1)).toFixed(3)}, ` +
    `median ${[...famDefault].sort((a, b) => a - b)[famDefault.length >> 1]?.toFixed(3)} over ${famDefault.length} (single runs).\n\n| puzzle | enumerating | memoized | speed-up |\n|---|---:|---:|---:|\n` +
    famRows.map((r) => `| ${r.name} | ${shown(r.e)} | ${shown(r.m)} | ${r.ratio ? r.ratio.toFixed(2) + 'x' : ''}${r.agree ? '' : ' DIFFER'} |`).join('\n') + '\n';
}
if (!ONLY.length) writeFileSync(OUT, md);
console.log(md);
if (failures) {
  console.error(`memo bench: ${failures} counts differ`);
  process.exit(1);
}
