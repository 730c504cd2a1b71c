// What the watch panel computes from a recorded search (issue 9), on real traces from the
// WebAssembly engine: the estimate of the whole search (trace/player.js fractionDone), the
// most-constrained-hole pick in a replayed position (trace/position.js) -- lesson 1's "the
// same position under MCH" --, the counts that compare two recordings (trace/summary.js), the
// algorithm options of the comparison (trace/algorithms.js), and the parity lesson's argument
// (trace/parity.js) checked against the engine's own parity check on every def/ puzzle.
import { STEP } from '../../web/src/worker/protocol.js';
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { TracePlayer } from '../../web/src/trace/player.js';
import { worstHole } from '../../web/src/trace/holes.js';
import { mostConstrainedCell, waysToCover } from '../../web/src/trace/position.js';
import { summarise } from '../../web/src/trace/summary.js';
import { ALGORITHMS, algorithmOptions } from '../../web/src/trace/algorithms.js';
import { parityArgument } from '../../web/src/trace/parity.js';
import { estimateAt } from '../../web/src/app/watch-actions.js';
import { TRACE_OP } from '../../web/src/worker/protocol.js';
import { DEF_DIR, openDef, record } from './helpers.js';

describe('the estimate of the whole search', () => {
  test('never goes back as the search goes on, is exact when stepping back, and reaches 1 at the end', async () => {
    const { rec, table, cellCount } = await record('soma.txt', '-r -t 1 -o s');
    const player = new TracePlayer(rec, table, cellCount);
    const fractions = new Float64Array(rec.length + 1);
    fractions[0] = player.fractionDone();
    while (player.forward()) fractions[player.step] = player.fractionDone();
    for (let i = 1; i <= rec.length; i++) expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1] - 1e-12);
    expect(fractions[rec.length]).toBe(1);
    expect(fractions[Math.floor(rec.length / 2)]).toBeGreaterThan(0);
    expect(fractions[Math.floor(rec.length / 2)]).toBeLessThan(1);
    for (const k of [rec.length - 1, Math.floor(rec.length / 3), 5]) {
      player.seek(k);
      expect(player.fractionDone()).toBe(fractions[k]);
    }
    // at half the search the estimate of its size is of the right order (measured: see the README)
    player.seek(Math.floor(rec.length / 2));
    const e = estimateAt(player);
    expect(e.total).toBeGreaterThan(rec.length / 4);
    expect(e.total).toBeLessThan(rec.length * 4);
  });
});

describe('the same position under the most-constrained-hole rule (lesson 1)', () => {
  test('on an empty board every open cell can be covered, by as many placements as cover it', async () => {
    const { rec, table, cellCount } = await record('pentominoes_10x6.txt', '-t 1 -o f -l 1');
    const player = new TracePlayer(rec, table, cellCount);
    const ways = waysToCover(table, player.grid);
    const covering = new Int32Array(cellCount);
    for (let i = 0; i + 1 < table.offsets.length; i++) for (let k = table.offsets[i]; k < table.offsets[i + 1]; k++) covering[table.cells[k]]++;
    expect(Array.from(ways)).toEqual(Array.from(covering));
    expect(Math.min(...ways)).toBeGreaterThan(0);
  });

  test("where de Bruijn's order walls in its most troublesome hole, MCH would pick that hole at once: 0 ways", async () => {
    const { rec, table, cellCount, puzzle } = await record('pentominoes_10x6.txt', '-b 12 -l 20 -t 1');
    const player = new TracePlayer(rec, table, cellCount);
    const hole = await worstHole(puzzle, rec, (image) => player.cellsOf(image), { pause: () => Promise.resolve() });
    expect(hole).not.toBeNull();
    expect(hole.cleared - hole.made).toBeGreaterThan(100);
    player.seek(hole.made + 1);
    const pick = mostConstrainedCell(waysToCover(table, player.grid));
    expect(pick.ways).toBe(0);
    // ... while de Bruijn goes on: the next level it opens targets another cell
    const next = player.find(player.step, 1, (ev) => ev.op === TRACE_OP.CHOOSE);
    expect(player.event(next).a).not.toBe(pick.cell);
    // a full board offers no cell
    expect(mostConstrainedCell(new Int32Array(4).fill(-1))).toBeNull();
  });
});

describe('comparing two recordings', () => {
  test('counts before each step add up to the recording totals; the first solution is where the engine reported it', async () => {
    const { rec } = await record('pentominoes_10x6.txt', '-r -m 12 -l 5 -t 1');
    const sum = summarise(rec);
    expect(sum.solutions).toBe(5);
    expect(sum.solutionsBefore[rec.length]).toBe(5);
    expect(sum.placementsBefore[rec.length]).toBe(sum.placements);
    let first = 0;
    for (let i = 0; i < rec.length && !first; i++) if (rec.op(i) === TRACE_OP.SOLUTION && rec.a(i) === 1) first = i + 1;
    expect(sum.firstSolution).toBe(first);
    expect(sum.solutionsBefore[first - 1]).toBe(0);
    expect(sum.solutionsBefore[first]).toBe(1);
  });

  test('each algorithm keeps the counting options and replaces only the algorithm; bad options give null', async () => {
    expect(algorithmOptions('mch', '-r -l 20 -b 12', 12)).toBe('-r -l 20 -m 12');
    // (-M needs -r or -u since the options check of 9013b8a: alone it is an error, so null)
    expect(algorithmOptions('bruijn', '-M -r -o s:f=3 -n -f 9 -t 4', 12)).toBe('-r -M -b 12');
    expect(algorithmOptions('bruijn', '-M -o s:f=3', 12)).toBeNull();
    expect(algorithmOptions('dlx', '-r X', 12)).toBe('-r X -o s');
    expect(algorithmOptions('auto', '-e 7 -p', 12)).toBe('-p');
    expect(algorithmOptions('mch', '-l', 12)).toBeNull();
    expect(algorithmOptions('nonsense', '-r', 12)).toBeNull();
    // each runs in the engine, on the same 20 first solutions' count
    const { session } = await openDef('pentominoes_10x6.txt');
    for (const a of ALGORITHMS) expect(session.start(0, algorithmOptions(a.key, '-r -l 20', 12)), a.key).toEqual({ ok: true });
    session.delete();
  });
});

describe('the parity lesson', () => {
  test('the page\'s argument agrees with the engine\'s parity check on every puzzle of def/', async () => {
    const files = fs.readdirSync(DEF_DIR).filter((f) => f.endsWith('.txt'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const { session, puzzles } = await openDef(file);
      for (let i = 0; i < puzzles.length; i++) {
        expect(session.start(i, '-q').ok).toBe(true);
        // Setup (where the impossibility proofs run) happens in the first step() slices.
        while (session.step(1000).state === STEP.RUNNING && JSON.parse(session.statsJson()).phase === 'setup');
        const stats = JSON.parse(session.statsJson());
        session.cancel();
        const engineSays = /parity/.test(stats.impossible || '');
        expect(parityArgument(puzzles[i]).possible, `${file} #${i}`).toBe(!engineSays);
      }
      session.delete();
    }
  });

  test('the 35 hexominoes in 15x14: the numbers of the argument', async () => {
    const { session, puzzles } = await openDef('hexominoes_rect_15x14.txt');
    session.delete();
    const arg = parityArgument(puzzles[0]);
    expect([arg.dark, arg.light, arg.board]).toEqual([105, 105, 0]);
    expect(arg.pieces.filter((p) => p.imbalance === 2)).toHaveLength(11);
    expect(arg.pieces.filter((p) => p.imbalance === 0)).toHaveLength(24);
    expect(arg.text).toMatch(/An odd number \(11\) of terms ±2 never adds up to 0/);
  });
});
