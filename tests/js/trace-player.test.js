// The trace player (web/src/trace/) over real traces from the WebAssembly engine: replaying
// forwards rebuilds every solution exactly when it is reported, stepping back undoes exactly,
// and seeking anywhere gives the same board as playing there from the start.
import { describe, expect, test } from 'vitest';
import { TraceRecording } from '../../web/src/trace/recording.js';
import { TracePlayer } from '../../web/src/trace/player.js';
import { TRACE_OP } from '../../web/src/worker/protocol.js';
import { record } from './helpers.js';

const full = (grid) => grid.every((v) => v >= 0);

describe('trace player', () => {
  test('Soma with -t 1: every complete board met while replaying is a reported solution, in order', async () => {
    const { rec, solutions, table, cellCount, puzzle } = await record('soma.txt', '-r -t 1 -o s');
    expect(rec.length).toBeGreaterThan(1000);
    expect(rec.full).toBe(false);
    const player = new TracePlayer(rec, table, cellCount);
    const boards = [];
    while (player.forward()) {
      if (player.current().op === TRACE_OP.PLACE && player.depth === puzzle.instances.length && full(player.grid)) boards.push(player.grid.slice());
    }
    // with -r some complete boards are dropped as redundant: the reported ones are among them, in order
    let k = 0;
    for (const b of boards) if (k < solutions.length && b.every((v, i) => v === solutions[k][i])) k++;
    expect(k).toBe(solutions.length);
    expect(solutions.length).toBe(480);
    expect(player.depth).toBe(0);
    expect(player.grid.every((v) => v === -1)).toBe(true); // every placement was taken back
  });

  test('stepping back undoes exactly, and seeking anywhere equals playing there from the start', async () => {
    const { rec, table, cellCount } = await record('pentominoes_10x6.txt', '-r -t 1 -o f -l 3');
    const player = new TracePlayer(rec, table, cellCount);
    const snapshots = new Map();
    const marks = [0, 1, 2, 7, 50, 333, Math.floor(rec.length / 2), rec.length - 1, rec.length];
    for (let s = 0; s <= rec.length; s++) {
      if (marks.includes(s)) snapshots.set(s, { grid: player.grid.slice(), depth: player.depth, levels: JSON.stringify(player.levels) });
      if (!player.forward()) break;
    }
    for (const s of [...marks].reverse()) {
      player.seek(s);
      const want = snapshots.get(s);
      expect(player.step).toBe(s);
      expect(Array.from(player.grid)).toEqual(Array.from(want.grid));
      expect(player.depth).toBe(want.depth);
      expect(JSON.stringify(player.levels)).toBe(want.levels);
    }
    // back and forth at random
    let seed = 7;
    for (let n = 0; n < 200; n++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const s = marks[seed % marks.length];
      player.seek(s);
      expect(Array.from(player.grid)).toEqual(Array.from(snapshots.get(s).grid));
    }
  });

  test('a full window stops recording and says so', () => {
    const rec = new TraceRecording(3);
    expect(rec.append(Int32Array.from([1, 5, 0, 0, 2, 5, 0, 0]))).toBe(true);
    expect(rec.append(Int32Array.from([1, 5, 0, 1, 2, 5, 0, 1]))).toBe(false);
    expect(rec.length).toBe(3);
    expect(rec.full).toBe(true);
    expect(rec.b(2)).toBe(1);
  });
});
