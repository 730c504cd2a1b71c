// The exact-cover matrix of dancing links (web/src/lesson/exact-cover.js) along real DLX traces
// from the WebAssembly engine: at every step, forwards and backwards, the rows the model keeps
// in the matrix are exactly the rows a brute force over the board finds uncovered (every cell
// free, a copy of the piece left); and at every choice the engine makes, the chosen column holds
// as many rows as the engine says, and they are the candidates it lists next.
import { describe, expect, test } from 'vitest';
import { CoverReplay, ExactCover } from '../../web/src/lesson/exact-cover.js';
import { TracePlayer } from '../../web/src/trace/player.js';
import { TRACE_OP } from '../../web/src/worker/protocol.js';
import { record, uncoveredRows } from './helpers.js';

const CASES = [
  ['lesson_tiny_4x3.txt', '-o s -t 1', true],
  ['lesson_tiny_2x2x3.txt', '-o s -t 1', true],
  ['soma.txt', '-o s -l 3 -t 1', false], // 7 pieces, 3-D: a few thousand steps, every tenth checked by brute force
];

describe('exact-cover matrix along a DLX trace', () => {
  for (const [file, options, everyStep] of CASES) {
    test(`${file} ${options}: the rows left are the uncovered rows at every step, and the engine's choices agree`, async () => {
      const { rec, table, cellCount } = await record(file, options);
      const cover = new ExactCover(table);
      const replay = new CoverReplay(cover, rec);
      const player = new TracePlayer(rec, table, cellCount);
      const cells = new Set(table.cells).size;
      expect(cover.columns.length).toBe(cells + new Set(Array.from(table.imageShapes)).size);
      let choices = 0;
      const check = (s) => {
        replay.seek(s);
        player.seek(s);
        expect(cover.activeRows(), `step ${s}`).toEqual(uncoveredRows(table, player.grid));
        // covered columns: the cells on the board, the pieces with every copy placed
        for (let j = 0; j < cover.cellColumns; j++) expect(cover.isColumnCovered(j)).toBe(player.grid[cover.columns[j].cell] !== -1);
      };
      for (let s = 0; s <= rec.length; s++) {
        if (everyStep || s % 10 === 0 || s === rec.length) check(s);
        const ev = s > 0 ? player.event(s - 1) : null;
        if (ev && ev.op === TRACE_OP.CHOOSE) {
          replay.seek(s);
          const j = cover.columnOfTarget(ev.a);
          expect(j).toBeGreaterThanOrEqual(0);
          expect(cover.columnSize(j), `step ${s}: the rows of the chosen column`).toBe(ev.b);
          const listed = [];
          for (let i = s; i < rec.length && rec.op(i) === TRACE_OP.CANDIDATE; i++) listed.push(rec.b(i));
          expect(listed.sort((a, b) => a - b)).toEqual(Array.from(cover.columnRows(j)).filter((r) => cover.isRowActive(r)).sort((a, b) => a - b));
          choices++;
        }
      }
      expect(choices).toBeGreaterThan(5);
      for (let s = rec.length; s >= 0; s -= everyStep ? 1 : 7) check(s);
      check(0);
      expect(cover.placed).toEqual([]);
      expect(cover.activeRows().length).toBe(cover.rowCount);
    });
  }

  test('a long jump sets the rows placed at once, and lands on the same matrix as stepping there', async () => {
    const { rec, table, cellCount } = await record('pentominoes_10x6.txt', '-o s -l 2 -t 1');
    expect(rec.length).toBeGreaterThan(10000);
    const cover = new ExactCover(table);
    const replay = new CoverReplay(cover, rec);
    const player = new TracePlayer(rec, table, cellCount);
    for (const s of [rec.length, 3, Math.floor(rec.length / 2), Math.floor(rec.length / 2) + 1500, 17, rec.length - 1, 0]) {
      replay.seek(s);
      player.seek(s);
      expect(cover.activeRows(), `step ${s}`).toEqual(uncoveredRows(table, player.grid));
    }
  });

  test('taking back a row that is not the last placed is refused', async () => {
    const { table } = await record('lesson_tiny_4x3.txt', '-o s -t 1');
    const cover = new ExactCover(table);
    cover.place(0);
    cover.place(cover.activeRows()[0]);
    expect(() => cover.unplace(0)).toThrow(/last placed first/);
    expect(() => new ExactCover({ ...table, imageShapes: [] })).toThrow(/no shape for every image/);
  });
});
