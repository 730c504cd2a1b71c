#!/usr/bin/env node
// How long does drawing the search tree take per frame? (lesson/tree-view.js, the lesson
// screen's tree, must keep up with a replay at 60 frames a second: under 16 ms of main-thread
// work per frame.) Records 1,000,000 steps of real searches through the WebAssembly engine
// (de Bruijn's order and dancing links on pentominoes 10x6), builds the tree once, then in
// headless Chromium draws it on a 700x420 canvas frame after frame in several ways of moving
// through the replay, and prints per scenario the median, 95th percentile and worst
// main-thread milliseconds per frame (setStep + layout + drawing; "+ raster": a pixel read back
// after each frame, so the canvas's rasterisation is counted too). Each frame is drawn
// BENCH_REPEAT times and its least time kept (on a shared machine the other runs measure the
// waits for a core), so the figures are the work, not the machine's load. Writes bench/TREE.md.
//
//   node bench/tree-draw.mjs            # BENCH_STEPS=1000000 BENCH_FRAMES=300
// Needs web/wasm (bash scripts/build.sh wasm) and /usr/bin/chromium.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDef, recordText } from '../tests/js/helpers.js';
import { launchBrowser } from '../tests/browser/server.js';
import { startLessonServer } from '../tests/browser/lesson-harness.js';
import { SearchTree } from '../web/src/lesson/search-tree.js';
import { layoutTree } from '../web/src/lesson/tree-layout.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = path.join(ROOT, 'bench/TREE.md');
const STEPS = Number(process.env.BENCH_STEPS || 1_000_000);
const FRAMES = Number(process.env.BENCH_FRAMES || 300);
const REPEAT = Number(process.env.BENCH_REPEAT || 7);
const RUNS = [
  { file: 'pentominoes_10x6.txt', options: '-b 12 -t 1', label: "10x6, de Bruijn's order (-b 12)" },
  { file: 'pentominoes_10x6.txt', options: '-o s -t 1', label: '10x6, dancing links (-o s)' },
];

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const f1 = (x) => x.toFixed(x < 10 ? 2 : 1);

/** The steps of each way of moving through a replay of `length` steps, one per frame. */
function scenarios(length) {
  const mid = Math.floor(length / 2);
  const seq = (from, step) => Array.from({ length: FRAMES }, (_, k) => Math.max(0, Math.min(length, from + k * step)));
  let seed = 12345;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % (length + 1); };
  return [
    { name: 'step forward (1 step a frame)', steps: seq(mid, 1) },
    { name: 'step back (1 step a frame)', steps: seq(mid, -1) },
    { name: 'play at 10,000 steps/s (167 a frame)', steps: seq(Math.floor(length / 4), 167) },
    { name: 'seek anywhere (random steps)', steps: Array.from({ length: FRAMES }, random) },
    { name: 'at the end of the recording', steps: Array.from({ length: FRAMES }, () => length) },
  ];
}

const rows = [];
const info = [];
const server0 = { close: async () => {} };
let server = server0;
let browser = null;
try {
  const files = {};
  const recorded = [];
  for (const [k, run] of RUNS.entries()) {
    const { rec, puzzle } = await recordText(readDef(run.file), run.file, run.options, { window: STEPS });
    let tree = null, buildMs = Infinity;
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      tree = new SearchTree(rec);
      buildMs = Math.min(buildMs, performance.now() - t0);
    }
    // the layout alone, in Node (no canvas): the part of a frame that grows with the tree
    const layoutMs = [];
    for (const s of scenarios(rec.length)[3].steps) {
      let best = Infinity;
      for (let k = 0; k < REPEAT; k++) {
        const t = performance.now();
        layoutTree(tree, s, { budget: 700 / 0.72 });
        best = Math.min(best, performance.now() - t);
      }
      layoutMs.push(best);
    }
    files[`/bench/${k}.bin`] = Buffer.from(rec.data.buffer, 0, rec.length * 16);
    recorded.push({ run, rec, puzzle, tree, buildMs, layoutMs });
  }
  server = await startLessonServer({ files });
  browser = await launchBrowser();
  const page = browser.context.pages()[0] || (await browser.context.newPage());
  await page.setViewportSize({ width: 1400, height: 860 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  for (const [k, r] of recorded.entries()) {
    await page.goto(`${server.url}lesson.html`);
    await page.waitForFunction(() => window.lesson);
    const mounted = await page.evaluate(([url, puzzle]) => window.lesson.mountBinary(url, puzzle, { width: 700, height: 480 }), [`/bench/${k}.bin`, r.puzzle]);
    info.push({ label: r.run.label, steps: mounted.steps, nodes: mounted.nodes, depth: mounted.depth, buildNode: r.buildMs, buildBrowser: mounted.buildMs, layout: r.layoutMs });
    // warm up (the first frames compile the code)
    await page.evaluate((steps) => window.lesson.benchFrames(steps), scenarios(r.rec.length)[3].steps.slice(0, 60));
    for (const sc of scenarios(r.rec.length)) {
      for (const flush of [false, true]) {
        const out = await page.evaluate(([steps, f, r]) => window.lesson.benchFrames(steps, { flush: f, repeat: r }), [sc.steps, flush, REPEAT]);
        rows.push({ run: r.run.label, scenario: sc.name + (flush ? ' + raster' : ''), p50: pct(out.ms, 0.5), p95: pct(out.ms, 0.95), max: Math.max(...out.ms), items: out.items });
      }
    }
    // zoomed all the way out: every box laid out is on screen
    const wide = await page.evaluate(([steps, rep]) => window.lesson.benchFrames(steps, { flush: true, zoom: 0.35, repeat: rep }), [scenarios(r.rec.length)[3].steps, REPEAT]);
    rows.push({ run: r.run.label, scenario: 'seek anywhere, zoomed out (all drawn) + raster', p50: pct(wide.ms, 0.5), p95: pct(wide.ms, 0.95), max: Math.max(...wide.ms), items: wide.items });
  }
  if (errors.length) throw new Error(`the page failed: ${errors.join('; ')}`);
} finally {
  if (browser) await browser.close();
  await server.close();
}

const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
const chromium = (() => { try { return execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { return 'chromium'; } })();
const lines = [];
lines.push('# Drawing the search tree (bench/tree-draw.mjs)', '');
lines.push(`Main-thread milliseconds per frame of web/src/lesson/tree-view.js (setStep + layout + drawing on a 700x420 canvas; "+ raster": one pixel read back after each frame, which makes the canvas rasterise its drawing at once). ${FRAMES} frames per scenario, each drawn ${REPEAT} times and its least time kept (the machine is shared: the other times include waits for a core). The tree is built once per recording (the page builds it as the recording comes in, chunk by chunk). ${chromium}, headless, software rendering (--disable-gpu); ${os.cpus().length} cores, load average ${load}. Target: under 16 ms.`, '');
lines.push('| recording | steps | nodes | depth | tree built once (Node / Chromium) | layout alone, seek anywhere (Node, p50 / p95 / max) |', '|---|---:|---:|---:|---:|---:|');
for (const i of info) lines.push(`| ${i.label} | ${i.steps.toLocaleString('en-US')} | ${i.nodes.toLocaleString('en-US')} | ${i.depth} | ${f1(i.buildNode)} ms / ${f1(i.buildBrowser)} ms | ${f1(pct(i.layout, 0.5))} / ${f1(pct(i.layout, 0.95))} / ${f1(Math.max(...i.layout))} ms |`);
lines.push('', '| recording | scenario | boxes laid out | p50 ms | p95 ms | max ms |', '|---|---|---:|---:|---:|---:|');
for (const r of rows) lines.push(`| ${r.run} | ${r.scenario} | ${r.items} | ${f1(r.p50)} | ${f1(r.p95)} | ${f1(r.max)} |`);
const work = rows.filter((r) => !/raster/.test(r.scenario));
const raster = rows.filter((r) => /raster/.test(r.scenario));
const worst = (list, key) => Math.max(...list.map((r) => r[key]));
const verdict = (ms) => (ms < 16 ? 'under' : 'OVER');
lines.push('', `Main-thread work of a frame (layout and drawing calls): worst 95th percentile ${f1(worst(work, 'p95'))} ms (${verdict(worst(work, 'p95'))} the 16 ms target).`,
  `With the canvas rasterised at once: worst median ${f1(worst(raster, 'p50'))} ms (${verdict(worst(raster, 'p50'))} 16 ms), worst 95th percentile ${f1(worst(raster, 'p95'))} ms (${verdict(worst(raster, 'p95'))} 16 ms); the rasterising is software here, and its slowest frames grow with the machine's load (load average ${load}).`);
const md = `${lines.join('\n')}\n`;
process.stdout.write(md);
fs.writeFileSync(OUT, md);
