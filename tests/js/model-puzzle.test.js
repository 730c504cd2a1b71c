// web/src/model/puzzle.js: the puzzle model, against the engine's parse of every def/ file.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEF_DIR, openDef, orientationKeys } from './helpers.js';
import { loadModule } from './helpers.js';
import { writeDefinition } from '../../web/src/model/definition-writer.js';
import {
  HOLE_NAME,
  addPieces,
  emptyPuzzle,
  resizeBox,
  setHoles,
  uniqueName,
  LIMITS,
  ROTATIONS_3D,
  ROTATIONS_Z,
  boxCell,
  boxIndex,
  cellCounts,
  equalShapeGroups,
  fromEngineJson,
  mirrorCells,
  mirrorPiece,
  nameProblem,
  normaliseCells,
  normalisePuzzle,
  orientations,
  piecesThatFitNowhere,
  rotateCells,
  rotatePiece,
  shapeKey,
  titleProblem,
  validatePuzzle,
} from '../../web/src/model/puzzle.js';

const DEF_FILES = readdirSync(DEF_DIR).filter((f) => f.endsWith('.txt')).sort();

async function enginePuzzles(file) {
  const { session, puzzles } = await openDef(file);
  session.delete();
  return puzzles;
}

// A small valid puzzle: a 4x2 board with the corner cell removed, a stationary block, and
// pieces adding up to the 6 free cells.
function sample() {
  return {
    title: 'Sample',
    xDim: 4,
    yDim: 2,
    zDim: 1,
    oneSide: false,
    holes: [0],
    pieces: [
      { name: 'S', cells: [[3, 1, 0]], count: 1, stationary: true },
      { name: 'A', cells: [[0, 0, 0], [1, 0, 0], [2, 0, 0]], count: 1, stationary: false },
      { name: 'B', cells: [[0, 0, 0], [1, 0, 0]], count: 1, stationary: false },
      { name: 'C', cells: [[0, 0, 0]], count: 1, stationary: false },
    ],
  };
}

const F = [[1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [1, 2, 0]];
const L4 = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]];

describe('rotations', () => {
  it('has the 24 proper rotations, distinct, with determinant +1, identity first', () => {
    expect(ROTATIONS_3D).toHaveLength(24);
    const keys = new Set(ROTATIONS_3D.map((m) => JSON.stringify(m)));
    expect(keys.size).toBe(24);
    for (const m of ROTATIONS_3D) {
      const det =
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
        m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
        m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
      expect(det).toBe(1);
    }
    expect(ROTATIONS_3D[0]).toEqual([[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    expect(ROTATIONS_Z).toHaveLength(4);
    for (const m of ROTATIONS_Z) expect(m[2]).toEqual([0, 0, 1]);
  });

  it('orientations agree with the independent checker of helpers.js', () => {
    for (const cells of [F, L4, [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]]) {
      for (const oneSide of [false, true]) {
        const mine = new Set(orientations(cells, oneSide).map((o) => o.map((c) => c.join(',')).sort().join(' ')));
        expect(mine).toEqual(orientationKeys(cells, oneSide));
      }
    }
    expect(orientations(F, true)).toHaveLength(4);
    expect(orientations(F, false)).toHaveLength(24);
    expect(orientations([[0, 0, 0], [1, 0, 0]], false)).toHaveLength(3);
    expect(orientations([[0, 0, 0]], false)).toHaveLength(1);
    expect(orientations(F, false)[0]).toEqual(normaliseCells(F));
  });

  it('rotateCells: four quarter turns are the identity, one turn about z maps x to y', () => {
    for (const axis of ['x', 'y', 'z']) {
      let c = normaliseCells(F);
      for (let i = 0; i < 4; i++) c = rotateCells(c, axis);
      expect(c).toEqual(normaliseCells(F));
      expect(rotateCells(F, axis, -1)).toEqual(rotateCells(F, axis, 3));
    }
    expect(rotateCells([[0, 0, 0], [1, 0, 0]], 'z')).toEqual([[0, 0, 0], [0, 1, 0]]);
    expect(rotateCells([[0, 0, 0], [0, 1, 0]], 'x')).toEqual([[0, 0, 0], [0, 0, 1]]);
    expect(rotateCells([[0, 0, 0], [0, 0, 1]], 'y')).toEqual([[0, 0, 0], [1, 0, 0]]);
    expect(() => rotateCells(F, 'w')).toThrow(/axis/);
  });

  it('shapeKey: equal under allowed rotations, mirror images differ in 3-D and one-sided', () => {
    for (const m of ROTATIONS_3D) {
      const turned = F.map((c) => [0, 1, 2].map((r) => m[r][0] * c[0] + m[r][1] * c[1] + m[r][2] * c[2] + 7));
      expect(shapeKey(turned, false)).toBe(shapeKey(F, false));
    }
    // Flat pieces turn over in 3-D space: the mirror image is the same free shape ...
    expect(shapeKey(mirrorCells(F), false)).toBe(shapeKey(F, false));
    // ... but not when one-sided.
    expect(shapeKey(mirrorCells(F), true)).not.toBe(shapeKey(F, true));
    expect(shapeKey(rotateCells(F, 'z'), true)).toBe(shapeKey(F, true));
    // Soma A and B are mirror images: different solid shapes.
    const A = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]];
    const B = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 1]];
    expect(shapeKey(A, false)).not.toBe(shapeKey(B, false));
    expect(shapeKey(mirrorCells(A), false)).toBe(shapeKey(B, false));
    // The I tetromino and the L tetromino differ.
    expect(shapeKey([[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]], false)).not.toBe(shapeKey(L4, false));
  });

  it('rotatePiece / mirrorPiece: mobile pieces stay normalised, stationary ones keep their corner', () => {
    const p = { name: 'F', cells: normaliseCells(F), count: 2, stationary: false };
    const r = rotatePiece(p, 'z');
    expect(r).toMatchObject({ name: 'F', count: 2, stationary: false });
    expect(r.cells).toEqual(rotateCells(F, 'z'));
    expect(p.cells).toEqual(normaliseCells(F)); // not mutated
    expect(mirrorPiece(p).cells).toEqual(mirrorCells(F));
    expect(mirrorPiece(mirrorPiece(p)).cells).toEqual(p.cells);
    const s = { name: 'S', cells: [[2, 3, 0], [3, 3, 0]], count: 1, stationary: true };
    expect(rotatePiece(s, 'z').cells).toEqual([[2, 3, 0], [2, 4, 0]]);
    expect(mirrorPiece(s, 'y').cells).toEqual(s.cells);
  });
});

describe('fromEngineJson over def/', () => {
  it.each(DEF_FILES)('%s: valid, balanced, holes from *, pieces normalised', async (file) => {
    const puzzles = await enginePuzzles(file);
    expect(puzzles.length).toBeGreaterThan(0);
    for (const json of puzzles) {
      const puzzle = fromEngineJson(json);
      expect(puzzle.title).toBe(json.title);
      expect([puzzle.xDim, puzzle.yDim, puzzle.zDim, puzzle.oneSide]).toEqual([json.xDim, json.yDim, json.zDim, json.oneSide]);
      expect(validatePuzzle(puzzle)).toEqual([]);
      const counts = cellCounts(puzzle);
      expect(counts.balanced).toBe(true);
      expect(counts.box).toBe(json.volume);
      const star = json.pieces.find((p) => p.stationary && p.name === HOLE_NAME);
      expect(puzzle.holes).toHaveLength(star ? star.cells.length : 0);
      if (star) for (const c of star.cells) expect(puzzle.holes).toContain(boxIndex(puzzle, ...c));
      expect(counts.instances).toBe(json.instances.filter((i) => !i.stationary).length);
      expect(puzzle.pieces.map((p) => p.name)).toEqual(json.pieces.filter((p) => !(p.stationary && p.name === HOLE_NAME)).map((p) => p.name));
      for (const p of puzzle.pieces) {
        if (!p.stationary) expect(p.cells).toEqual(normaliseCells(p.cells));
        const src = json.pieces.find((q) => q.name === p.name);
        expect(shapeKey(p.cells, puzzle.oneSide)).toBe(shapeKey(src.cells, puzzle.oneSide));
      }
      // Every library puzzle is made of distinct shapes, and every piece fits somewhere.
      expect(equalShapeGroups(puzzle)).toEqual([]);
      expect(piecesThatFitNowhere(puzzle)).toEqual([]);
      expect(normalisePuzzle(puzzle)).toEqual(puzzle);
    }
  });

  it('rejects what is not an engine puzzle', () => {
    expect(() => fromEngineJson(null)).toThrow(/not an object/);
    expect(() => fromEngineJson({ xDim: 0, yDim: 1, zDim: 1, pieces: [] })).toThrow(/xDim/);
    expect(() => fromEngineJson({ xDim: 1, yDim: 1, zDim: 1 })).toThrow(/pieces/);
    expect(() => fromEngineJson({ xDim: 1, yDim: 1, zDim: 1, pieces: [{ name: 'A', cells: [[0, 0]] }] })).toThrow(/\[x, y, z\]/);
  });
});

describe('cells and counts', () => {
  it('boxIndex and boxCell are inverse', () => {
    const p = { xDim: 3, yDim: 4, zDim: 5 };
    for (let i = 0; i < 60; i++) expect(boxIndex(p, ...boxCell(p, i))).toBe(i);
    expect(boxIndex(p, 2, 3, 4)).toBe(59);
  });

  it('cellCounts: space = box - holes - stationary; pieces count copies', () => {
    const p = sample();
    expect(cellCounts(p)).toEqual({ box: 8, holes: 1, stationary: 1, space: 6, pieces: 6, instances: 3, balanced: true });
    p.pieces[3].count = 3;
    expect(cellCounts(p)).toMatchObject({ pieces: 8, instances: 5, balanced: false });
  });

  it('equalShapeGroups names pieces of equal shape; piecesThatFitNowhere finds a piece too long for the board', () => {
    const p = sample();
    p.pieces.push({ name: 'D', cells: [[0, 0, 0], [0, 1, 0]], count: 1, stationary: false });
    p.pieces.push({ name: 'E', cells: [[0, 0, 0], [0, 0, 1]], count: 1, stationary: false });
    p.pieces.push({ name: 'G', cells: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]], count: 1, stationary: false });
    expect(equalShapeGroups(p)).toEqual([{ key: shapeKey([[0, 0, 0], [1, 0, 0]], false), pieces: [2, 4, 5], names: ['B', 'D', 'E'] }]);
    // G (length 4) fits only along the bottom row, where the hole is; along the top row the stationary S sits.
    expect(piecesThatFitNowhere(p)).toEqual([6]);
    p.holes = [];
    expect(piecesThatFitNowhere(p)).toEqual([]);
  });
});

describe('validatePuzzle', () => {
  const problemsOf = (edit) => {
    const p = sample();
    edit(p);
    return validatePuzzle(p);
  };
  const expectProblem = (edit, path, pattern) => {
    const problems = problemsOf(edit);
    expect(problems.some((x) => x.path === path && pattern.test(x.message)), JSON.stringify(problems)).toBe(true);
  };

  it('accepts the sample', () => {
    expect(validatePuzzle(sample())).toEqual([]);
  });

  it('names each problem', () => {
    expectProblem((p) => (p.pieces[2].name = 'A'), 'pieces[2].name', /two pieces are named 'A' \(pieces 2 and 3\)/);
    expectProblem((p) => (p.pieces[1].name = 'a b'), 'pieces[1].name', /contains a space/);
    expectProblem((p) => (p.pieces[1].name = 'a:b'), 'pieces[1].name', /contains ':'/);
    expectProblem((p) => (p.pieces[1].name = 'a,b'), 'pieces[1].name', /contains ','/);
    expectProblem((p) => (p.pieces[1].name = 'a#b'), 'pieces[1].name', /contains '#'/);
    expectProblem((p) => (p.pieces[1].name = '.'), 'pieces[1].name', /empty cell/);
    expectProblem((p) => (p.pieces[1].name = ''), 'pieces[1].name', /empty/);
    expectProblem((p) => (p.pieces[1].name = '*'), 'pieces[1].name', /kept for the holes/);
    expectProblem((p) => (p.pieces[1].name = 'x'.repeat(101)), 'pieces[1].name', /longer than 100/);
    expectProblem((p) => (p.pieces[0].cells = [[4, 1, 0]]), 'pieces[0].cells', /stationary piece 'S' has cell 4 1 0 outside the 4x2x1 box/);
    expectProblem((p) => (p.pieces[0].cells = [[0, 0, 0]]), 'pieces[0].cells', /on a hole/);
    expectProblem(
      (p) => p.pieces.splice(1, 0, { name: 'T', cells: [[3, 1, 0]], count: 1, stationary: true }),
      'pieces[1].cells',
      /overlaps stationary piece 'S' at cell 3 1 0/,
    );
    expectProblem((p) => (p.pieces[0].count = 2), 'pieces[0].count', /stationary piece cannot have copies/);
    expectProblem((p) => (p.pieces[1].count = 0), 'pieces[1].count', /at least 1/);
    expectProblem((p) => (p.pieces[1].count = 6000), 'pieces[1].count', /limit of 5000/);
    expectProblem((p) => (p.pieces[1].cells = []), 'pieces[1].cells', /no cells/);
    expectProblem((p) => (p.pieces[1].cells = [[0, 0, 0], [0, 0, 0]]), 'pieces[1].cells', /twice/);
    expectProblem((p) => (p.pieces[1].cells = [[0, 0]]), 'pieces[1].cells', /three whole numbers/);
    expectProblem((p) => (p.pieces[1].cells = [[0, 0, 1.5]]), 'pieces[1].cells', /three whole numbers/);
    expectProblem((p) => (p.xDim = 1001), 'xDim', /limit of 1000/);
    expectProblem((p) => (p.yDim = 0), 'yDim', /at least 1/);
    expectProblem((p) => Object.assign(p, { xDim: 1000, yDim: 101 }), 'xDim', /101000 cells, more than the engine's limit of 100000/);
    expectProblem((p) => Object.assign(p, { oneSide: true, zDim: 2 }), 'oneSide', /zDim=1/);
    expectProblem((p) => (p.holes = [0, 8]), 'holes[1]', /not a cell of the 4x2x1 box/);
    expectProblem((p) => (p.holes = [1, 0]), 'holes[1]', /sorted/);
    expectProblem((p) => (p.title = 'two\nlines'), 'title', /one line/);
    expectProblem((p) => (p.title = '#hash'), 'title', /'#'/);
    expectProblem((p) => (p.title = ' padded'), 'title', /space/);
    expectProblem((p) => (p.pieces[3].count = 2), 'pieces', /the pieces have 7 cells but the space has 6/);
    expectProblem((p) => (p.pieces = p.pieces.slice(0, 1)), 'pieces', /^the puzzle has no pieces to place yet$/);
    expectProblem(
      (p) => p.pieces.push({ name: 'Z', cells: [[0, 0, 0]], count: LIMITS.maxInstances, stationary: false }),
      'pieces',
      /more than the engine's limit of 5000/,
    );
  });

  it('nameProblem and titleProblem accept what the format holds', () => {
    for (const n of ['A', 'f', '1', 'Ω', 'long_name-2', "A'"]) expect(nameProblem(n)).toBeNull();
    expect(titleProblem('')).toBeNull();
    expect(titleProblem('Pentominoes 10x6 #2')).toBeNull();
  });
});

describe('editing helpers', () => {
  it('emptyPuzzle, addPieces with copies and unique names, setHoles, resizeBox', () => {
    let p = emptyPuzzle({ xDim: 5, yDim: 4 });
    expect(p).toEqual({ title: '', xDim: 5, yDim: 4, zDim: 1, oneSide: false, holes: [], pieces: [] });
    const L = { name: 'L', cells: [[5, 5, 0], [6, 5, 0], [7, 5, 0], [5, 6, 0]], count: 1, stationary: false };
    p = addPieces(p, [L, L], 2);
    expect(p.pieces.map((q) => [q.name, q.count])).toEqual([['L', 2], ['L2', 2]]);
    expect(p.pieces[0].cells).toEqual(normaliseCells(L.cells));
    expect(uniqueName(p, 'L')).toBe('L3');
    expect(uniqueName(p, '*')).toBe('*2');
    expect(uniqueName(p, 'T')).toBe('T');
    p = addPieces(p, [{ name: 'I', cells: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]], count: 1, stationary: false }]);
    // 20 cells, 5 pieces of 4: balanced.
    expect(cellCounts(p)).toMatchObject({ space: 20, pieces: 20, balanced: true });
    const q = setHoles(p, [0, 19, 19, 25, -1], true);
    expect(q.holes).toEqual([0, 19]);
    expect(p.holes).toEqual([]); // not mutated
    expect(setHoles(q, [19], false).holes).toEqual([0]);
    expect(cellCounts(q)).toMatchObject({ space: 18, balanced: false });
    // Resize: the hole at (4,3) falls outside a 4x4 box; (0,0) stays.
    const r = resizeBox(q, 4, 4, 2);
    expect(r.holes).toEqual([0]);
    const s = resizeBox({ ...q, holes: [6], oneSide: true }, 3, 4, 2); // (1,1,0) -> index 4 in a 3-wide box
    expect(s.holes).toEqual([4]);
    expect(s.oneSide).toBe(false);
  });
});

describe('validatePuzzle agrees with the engine', () => {
  // Random edits of a small puzzle; validatePuzzle finds no problem exactly when the engine
  // accepts the written definition. (Names and titles stay valid here: for those the model is
  // stricter than the engine on purpose, e.g. it keeps '*' for the holes.)
  it('on 400 random variations', async () => {
    const module = await loadModule();
    const session = new module.Session();
    let seed = 12345;
    const rand = (n) => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    let accepted = 0;
    try {
      for (let trial = 0; trial < 400; trial++) {
        const p = sample();
        const edits = 1 + rand(3);
        for (let e = 0; e < edits; e++) {
          switch (rand(9)) {
            case 0: p.holes = [...new Set([...p.holes, rand(9)])].sort((a, b) => a - b); break;
            case 1: p.holes = []; break;
            case 2: p.pieces[0].cells = [[rand(5), rand(3), rand(2)]]; break;
            case 3: p.pieces[1 + rand(3)].count = 1 + rand(3); break;
            case 4: p.pieces[1 + rand(3)].cells.push([rand(4), 1 + rand(2), 0]); break;
            case 5: p.pieces.push({ name: 'T', cells: [[rand(4), rand(2), 0]], count: 1, stationary: rand(2) === 0 }); break;
            case 6: p.pieces[rand(4)].name = 'ABC'[rand(3)]; break;
            case 7: p.xDim = 3 + rand(3); break;
            case 8: p.zDim = 1 + rand(2); p.oneSide = rand(2) === 0; break;
          }
        }
        const problems = validatePuzzle(p);
        const loaded = session.load(writeDefinition(p), 'random.txt');
        const ok = loaded.ok;
        expect(problems.length === 0, `${JSON.stringify(p)}\nproblems: ${JSON.stringify(problems)}\nengine: ${ok ? 'accepted' : loaded.error.message}`).toBe(ok);
        if (ok) {
          accepted++;
          expect(fromEngineJson((session.puzzle(0).puzzle))).toEqual(normalisePuzzle(p));
        }
      }
    } finally {
      session.delete();
    }
    expect(accepted).toBeGreaterThan(20);
    expect(accepted).toBeLessThan(380);
  });
});
