// web/src/model/piece-sets.js: the tray's standard sets against the def/ files (as shapes),
// their counts, and distinctness under each set's symmetry.
import { describe, expect, it } from 'vitest';
import { openDef } from './helpers.js';
import { PIECE_SETS, cellsFromRows, enumeratePolycubes, pieceSet } from '../../web/src/model/piece-sets.js';
import { fromEngineJson, mirrorCells, nameProblem, normaliseCells, shapeKey } from '../../web/src/model/puzzle.js';

async function defPieces(file) {
  const { session, puzzles } = await openDef(file);
  session.delete();
  return fromEngineJson(puzzles[0]).pieces.filter((p) => !p.stationary);
}

const keysOf = (pieces, oneSide) => pieces.map((p) => shapeKey(p.cells, oneSide)).sort();
const byName = (pieces) => Object.fromEntries(pieces.map((p) => [p.name, p.cells]));

describe('enumeratePolycubes (known counts)', () => {
  it.each([
    [1, true, 1], [2, true, 1], [3, true, 2], [4, true, 5], [5, true, 12], [6, true, 35], [7, true, 108],
    [3, false, 2], [4, false, 8], [5, false, 29],
  ])('size %i planar=%s: %i shapes', (size, planar, count) => {
    const shapes = enumeratePolycubes(size, { planar });
    expect(shapes).toHaveLength(count);
    expect(new Set(keysOf(shapes.map((cells) => ({ cells })), false)).size).toBe(count);
    for (const cells of shapes) {
      expect(cells).toHaveLength(size);
      expect(cells).toEqual(normaliseCells(cells));
      if (planar) expect(cells.every((c) => c[2] === 0)).toBe(true);
    }
  });

  it('pentacubes up to mirror images: 23 (29 less 6 mirror pairs)', () => {
    const free = new Set(enumeratePolycubes(5).map((c) => [shapeKey(c, false), shapeKey(mirrorCells(c), false)].sort()[0]));
    expect(free.size).toBe(23);
  });
});

describe('PIECE_SETS', () => {
  it('has the sets of the issue, each well formed, with names the format can hold', () => {
    expect(PIECE_SETS.map((s) => [s.id, s.pieces.length, s.dims, s.oneSide])).toEqual([
      ['pentominoes', 12, 2, false],
      ['pentominoes-one-sided', 18, 2, true],
      ['tetrominoes', 5, 2, false],
      ['soma', 7, 3, false],
      ['tetris-cube', 12, 3, false],
      ['bedlam', 13, 3, false],
      ['hexominoes', 35, 2, false],
      ['pentacubes', 29, 3, false],
    ]);
    for (const s of PIECE_SETS) {
      expect(s.title).toBeTruthy();
      expect(s.description.length).toBeGreaterThan(20);
      expect(new Set(s.pieces.map((p) => p.name)).size).toBe(s.pieces.length);
      for (const p of s.pieces) {
        expect(nameProblem(p.name)).toBeNull();
        expect(p).toMatchObject({ count: 1, stationary: false });
        expect(p.cells).toEqual(normaliseCells(p.cells));
        if (s.dims === 2) expect(p.cells.every((c) => c[2] === 0)).toBe(true);
      }
      // Distinct under the set's symmetry (one-sided: rotations in the plane only).
      expect(new Set(keysOf(s.pieces, s.oneSide)).size).toBe(s.pieces.length);
    }
    expect(pieceSet('soma').title).toBe('Soma cube');
    expect(pieceSet('nothing')).toBeUndefined();
    expect(Object.isFrozen(PIECE_SETS[0].pieces[0])).toBe(true);
  });

  it('pentominoes: the shapes and names of def/pentominoes_10x6.txt', async () => {
    const def = await defPieces('pentominoes_10x6.txt');
    const set = pieceSet('pentominoes').pieces;
    expect(set.map((p) => p.name)).toEqual(['F', 'I', 'L', 'N', 'P', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z']);
    const mine = byName(set);
    for (const p of def) expect(shapeKey(mine[p.name], false)).toBe(shapeKey(p.cells, false));
    expect(keysOf(set, false)).toEqual(keysOf(def, false));
  });

  it('one-sided pentominoes: the shapes and names of def/pentominoes_1s_30x3.txt (one-sided)', async () => {
    const def = await defPieces('pentominoes_1s_30x3.txt');
    const set = pieceSet('pentominoes-one-sided').pieces;
    const mine = byName(set);
    expect(Object.keys(mine).sort()).toEqual(def.map((p) => p.name).sort());
    for (const p of def) expect(shapeKey(mine[p.name], true), p.name).toBe(shapeKey(p.cells, true));
    // Without oneSide the 18 collapse to the 12 free pentominoes.
    expect(new Set(keysOf(set, false)).size).toBe(12);
  });

  it('tetrominoes: the five of def/diamond_13x13_pt.txt (named there in lower case)', async () => {
    const def = (await defPieces('diamond_13x13_pt.txt')).filter((p) => p.cells.length === 4);
    const set = pieceSet('tetrominoes').pieces;
    expect(set.map((p) => p.name)).toEqual(['I', 'O', 'T', 'S', 'L']);
    const mine = byName(set);
    for (const p of def) expect(shapeKey(mine[p.name.toUpperCase()], false)).toBe(shapeKey(p.cells, false));
    expect(keysOf(set, false)).toEqual(keysOf(enumeratePolycubes(4, { planar: true }).map((cells) => ({ cells })), false));
  });

  it.each([
    ['soma', 'soma.txt'],
    ['tetris-cube', 'tetriscube.txt'],
    ['bedlam', 'bedlam.txt'],
  ])('%s: exactly the pieces of def/%s (names and cells)', async (id, file) => {
    const def = await defPieces(file);
    expect(pieceSet(id).pieces.map((p) => ({ ...p }))).toEqual(def);
  });

  it('hexominoes: the 35 shapes of def/hexominoes_rect_15x14.txt, H01 the straight one', async () => {
    const def = await defPieces('hexominoes_rect_15x14.txt');
    const set = pieceSet('hexominoes').pieces;
    expect(keysOf(set, false)).toEqual(keysOf(def, false));
    expect(set[0]).toMatchObject({ name: 'H01', cells: cellsFromRows(['######']) });
    expect(set[34].name).toBe('H35');
  });

  it('pentacubes: 12 flat (the pentominoes, same letters), 5 achiral solids, 6 mirror pairs; Bedlam\'s 12 among them', async () => {
    const set = pieceSet('pentacubes').pieces;
    const mine = byName(set);
    const flat = set.filter((p) => p.cells.every((c) => c[2] === 0));
    expect(flat.map((p) => p.name)).toEqual(['F', 'I', 'L', 'N', 'P', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z']);
    for (const p of pieceSet('pentominoes').pieces) expect(shapeKey(mine[p.name], false)).toBe(shapeKey(p.cells, false));
    for (const name of 'ABCDE') expect(shapeKey(mirrorCells(mine[name]), false)).toBe(shapeKey(mine[name], false));
    for (const name of 'GHJKMR') {
      expect(shapeKey(mine[name], false)).not.toBe(shapeKey(mine[name.toLowerCase()], false));
      expect(shapeKey(mirrorCells(mine[name]), false)).toBe(shapeKey(mine[name.toLowerCase()], false));
    }
    const solid = set.filter((p) => !p.cells.every((c) => c[2] === 0));
    expect(solid.every((p) => new Set(p.cells.map((c) => c[2])).size > 1)).toBe(true);
    expect(keysOf(set, false)).toEqual(keysOf(enumeratePolycubes(5).map((cells) => ({ cells })), false));
    const bedlam = (await defPieces('bedlam.txt')).filter((p) => p.cells.length === 5);
    const keys = new Set(keysOf(set, false));
    for (const p of bedlam) expect(keys.has(shapeKey(p.cells, false)), p.name).toBe(true);
  });

  it('cellsFromRows reads the top row as the highest y', () => {
    expect(cellsFromRows(['#.', '##'])).toEqual([[0, 0, 0], [1, 0, 0], [0, 1, 0]]);
  });
});
