#!/usr/bin/env node
// How long a worker's event loop is held by one slice of the engine, per watchdog case
// (tests/js/watchdog.js: huge setups, slow placements, the fit filter over 400,000 rows,
// Monte Carlo trials, filters after every placement, -r probes, a huge fixed stepBudget). A
// cancel or a progress request waits at most that long. The aim is under 100 ms of the event
// loop thread's CPU time per block (Session::kSliceSeconds is 15 ms; a placement in a matrix of
// a million rows is the longest unit that cannot be split).
//
// The tests check what does not depend on the machine (the cancel is answered between slices,
// before any further slice); the block lengths are measured here, each case BENCH_REPEATS times
// (3), its longest block over the repeats reported with the median's.
//
//   npm run bench:responsiveness        (needs the WebAssembly build: bash scripts/build.sh wasm)
// Writes bench/RESPONSIVENESS.md unless RESPONSIVENESS_ONLY names cases (a part of their names).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WATCHDOG_CASES, cancelCase, longestBlock } from '../tests/js/watchdog.js';
import { median } from './stats.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = path.join(ROOT, 'bench/RESPONSIVENESS.md');
const AIM_MS = 100;
const REPEATS = Math.max(1, Number(process.env.BENCH_REPEATS || 3));
const ONLY = (process.env.RESPONSIVENESS_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
const cases = WATCHDOG_CASES.filter((c) => ONLY.length === 0 || ONLY.some((o) => c.name.includes(o)));

const ms = (x) => x.toFixed(1);

const started = new Date().toISOString().replace('T', ' ').slice(0, 19);
const loadAtStart = os.loadavg().map((l) => l.toFixed(1)).join(' ');
const rows = [];
let over = 0;
for (const c of cases) {
  const cpu = [];
  const wall = [];
  let slices = 0;
  for (let r = 0; r < REPEATS; r++) {
    const { done, measured, slicesBeforeCancel, slicesAfterCancel } = await cancelCase(c, longestBlock);
    if (done.type !== 'done' || done.reason !== 'cancelled' || slicesAfterCancel !== 0)
      throw new Error(`${c.name}: not cancelled between slices (${done.type} ${done.reason}, ${slicesAfterCancel} slices after)`);
    cpu.push(measured.cpu);
    wall.push(measured.wall);
    slices = Math.max(slices, slicesBeforeCancel);
  }
  const worst = Math.max(...cpu);
  if (worst >= AIM_MS) over++;
  const row = `| ${c.name} | \`${c.options || 'default'}\`${c.stepBudget ? `, stepBudget ${c.stepBudget.toExponential(0)}` : ''} | ${c.phase} | ${slices} | ${ms(median(cpu))} | ${ms(worst)} | ${ms(median(wall))} | ${ms(Math.max(...wall))} | ${worst < AIM_MS ? 'ok' : '**over**'} |`;
  rows.push(row);
  console.log(row);
}

const git = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const text = `# Responsiveness: the longest block of a worker's event loop

Written by \`npm run bench:responsiveness\` (bench/responsiveness.mjs): each watchdog case of
tests/js/watchdog.js is solved by the worker host (web/src/worker/protocol.js) on the page's
WebAssembly module in Node and cancelled in the phase named, ${REPEATS} times; a 2 ms timer
measures the longest stretch between two of its ticks, in the event loop thread's CPU time
(/proc/thread-self/schedstat) and in wall time. The aim: under ${AIM_MS} ms of CPU, so that a cancel
or a progress request is answered that fast. Wall time also counts what other programs take
from a shared machine. "slices" is the most slices run before the cancel.

## Recorded run

${started} UTC, git ${git}; node ${process.version}; ${os.cpus().length} cores; load average ${loadAtStart} at the start,
${os.loadavg().map((l) => l.toFixed(1)).join(' ')} at the end.

**${over === 0 ? `Every case under ${AIM_MS} ms.` : `${over} case(s) at ${AIM_MS} ms or more.`}**

| case | options | phase | slices | CPU ms, median | CPU ms, longest | wall ms, median | wall ms, longest | aim |
|---|---|---|---:|---:|---:|---:|---:|---|
${rows.join('\n')}
`;
if (ONLY.length === 0) fs.writeFileSync(OUT, text);
else console.log('(RESPONSIVENESS_ONLY: bench/RESPONSIVENESS.md not written)');
process.exitCode = over === 0 ? 0 : 1;
