// The replay's words for trace events (web/src/trace/explain.js describe): the piece counts
// agree with what the engine's `remaining` field means (engine/search/trace.hpp: pieces left to
// place at the event's level, BEFORE its placement), and a level's target reads as a cell to
// fill or a piece to place.
import { describe, expect, test } from 'vitest';
import { describe as say } from '../../web/src/trace/explain.js';
import { TRACE_OP } from '../../web/src/worker/protocol.js';
import { record } from './helpers.js';

// a 3x2x2 box and three pieces; a target >= 0 is a box cell, < 0 the piece instance -1 - target
const puzzle = { xDim: 3, yDim: 2, zDim: 2, instances: [{ name: 'V' }, { name: 'L' }, { name: 'Z' }] };
const ev = (op, remaining, a, b = 0) => ({ op, remaining, a, b });
const CELL = 4; // x 1, y 1, z 0: column B, row 2, layer 1
const PIECE_Z = -1 - 2;

describe('describe(): trace events in words', () => {
  test('Place counts the pieces still to place after it', () => {
    expect(say(puzzle, ev(TRACE_OP.PLACE, 3, 2, 10))).toBe('Place Z (2 pieces left to place).');
    expect(say(puzzle, ev(TRACE_OP.PLACE, 2, 0, 10))).toBe('Place V (1 piece left to place).');
    expect(say(puzzle, ev(TRACE_OP.PLACE, 1, 1, 10))).toBe('Place L (the last piece).');
  });

  test('a cell target is filled', () => {
    expect(say(puzzle, ev(TRACE_OP.CHOOSE, 3, CELL, 2))).toBe('Choose cell B2 in layer 1: 2 ways to fill it (3 pieces left to place).');
    expect(say(puzzle, ev(TRACE_OP.NO_FIT, 2, CELL))).toBe('Dead end: no piece fits cell B2 in layer 1.');
    expect(say(puzzle, ev(TRACE_OP.EXHAUSTED, 2, CELL, 4))).toBe('Dead end: all 4 ways to fill cell B2 in layer 1 have been tried.');
    expect(say(puzzle, ev(TRACE_OP.FILTER_EMPTIED, 2, CELL, 1))).toBe('Dead end: the parity filter left no way to fill cell B2 in layer 1.');
    expect(say(puzzle, ev(TRACE_OP.EXHAUSTED, 2, CELL, 1))).toBe('Dead end: the only way to fill cell B2 in layer 1 has been tried.');
  });

  test('a piece target is placed, not filled', () => {
    expect(say(puzzle, ev(TRACE_OP.CHOOSE, 3, PIECE_Z, 1))).toBe('Choose piece Z: 1 way to place it (3 pieces left to place).');
    expect(say(puzzle, ev(TRACE_OP.NO_FIT, 3, PIECE_Z))).toBe('Dead end: piece Z fits nowhere.');
    expect(say(puzzle, ev(TRACE_OP.EXHAUSTED, 3, PIECE_Z, 3))).toBe('Dead end: all 3 ways to place piece Z have been tried.');
    expect(say(puzzle, ev(TRACE_OP.FILTER_EMPTIED, 3, PIECE_Z, 3))).toBe('Dead end: the fit filter left no way to place piece Z.');
    for (const op of [TRACE_OP.CHOOSE, TRACE_OP.NO_FIT, TRACE_OP.EXHAUSTED, TRACE_OP.FILTER_EMPTIED]) {
      expect(say(puzzle, ev(op, 3, PIECE_Z, 2))).not.toMatch(/fill/);
    }
  });

  test('Soma replay: the first placement of 7 pieces leaves 6, and the counts add up all the way down', async () => {
    const { rec, puzzle: soma } = await record('soma.txt', '-r -t 1 -o s');
    const n = soma.instances.length;
    expect(n).toBe(7);
    const at = (i) => ev(rec.op(i), rec.remaining(i), rec.a(i), rec.b(i));
    // the search starts by choosing a piece (the Z) and placing it
    expect(rec.op(0)).toBe(TRACE_OP.CHOOSE);
    expect(rec.a(0)).toBeLessThan(0);
    expect(say(soma, at(0))).toMatch(/^Choose piece \S+: \d+ ways? to place it \(7 pieces left to place\)\.$/);
    let first = 0;
    while (rec.op(first) !== TRACE_OP.PLACE) first++;
    const name = soma.instances[rec.a(first)].name;
    expect(say(soma, at(first))).toBe(`Place ${name} (6 pieces left to place).`);
    // every placement's count is the number of pieces not on the board right after it
    let depth = 0, checked = 0;
    for (let i = 0; i < rec.length && checked < 2000; i++) {
      if (rec.op(i) === TRACE_OP.REMOVE) depth--;
      if (rec.op(i) !== TRACE_OP.PLACE) continue;
      depth++;
      const left = n - depth;
      expect(say(soma, at(i))).toMatch(left === 0 ? /\(the last piece\)\.$/ : new RegExp(`\\(${left} pieces? left to place\\)\\.$`));
      checked++;
    }
    expect(checked).toBe(2000);
  });
});
