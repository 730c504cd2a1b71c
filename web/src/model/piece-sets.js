// The standard piece sets of the editor's tray. Each set is
//   {id, title, description, dims: 2|3, oneSide: boolean, pieces: Piece[]}
// with pieces in the model's form (web/src/model/puzzle.js: normalised cells, count 1,
// mobile). `oneSide` is true only for the one-sided pentominoes, whose 18 pieces are distinct
// only when pieces may not be turned over (a puzzle using them needs oneSide).
//
//   import { PIECE_SETS, pieceSet } from './piece-sets.js';
//   pieceSet('soma').pieces   // the 7 Soma pieces, as in def/soma.txt
//
// Where the pieces come from:
//   - pentominoes, one-sided pentominoes, tetrominoes: drawn below with their standard letters
//     (the one-sided set adds the mirror images of F L N P Y Z named in lower case, as in
//     def/pentominoes_1s_30x3.txt);
//   - Soma, Tetris Cube, Bedlam: the cells of def/soma.txt, def/tetriscube.txt, def/bedlam.txt;
//   - hexominoes (35) and pentacubes (29): enumerated at module load (enumeratePolycubes;
//     a few milliseconds) and named by a fixed rule (see hexominoes() and pentacubes()).
// tests/js/piece-sets.test.js checks every set against its def/ file as shapes, the counts,
// and that the pieces of each set are distinct under the set's symmetry.

import { mirrorCells, normaliseCells, shapeKey, cellExtent } from './puzzle.js';

/**
 * Cells of a piece drawn as text rows, top row first (the highest y, as in the definition
 * format's L blocks); any character other than ' ' and '.' is a cell. Normalised.
 * @param {string[]} rows
 */
export function cellsFromRows(rows) {
  const cells = [];
  rows.forEach((row, r) => {
    for (let x = 0; x < row.length; x++) {
      if (row[x] !== ' ' && row[x] !== '.') cells.push([x, rows.length - 1 - r, 0]);
    }
  });
  return normaliseCells(cells);
}

function piece(name, cells) {
  return { name, cells: normaliseCells(cells), count: 1, stationary: false };
}

// ---------------------------------------------------------------------------------------
// Enumeration.

const NEIGHBOURS_2D = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]];
const NEIGHBOURS_3D = [...NEIGHBOURS_2D, [0, 0, 1], [0, 0, -1]];

/**
 * Every polyomino (planar) or polycube of `size` cells, one per class under the 24 proper
 * rotations of space (so flat pieces may be turned over, and a solid piece and its mirror
 * image are different pieces unless the piece is achiral). Grown cell by cell from the
 * monomino; each shape is stored once under its canonical key. Returned in the order of
 * their canonical keys, each normalised.
 * @param {number} size
 * @param {{planar?: boolean}} [options]
 * @returns {number[][][]}
 */
export function enumeratePolycubes(size, { planar = false } = {}) {
  const steps = planar ? NEIGHBOURS_2D : NEIGHBOURS_3D;
  let level = new Map([[shapeKey([[0, 0, 0]], false), [[0, 0, 0]]]]);
  for (let n = 2; n <= size; n++) {
    const next = new Map();
    for (const cells of level.values()) {
      const occupied = new Set(cells.map((c) => c.join(',')));
      for (const c of cells) {
        for (const d of steps) {
          const cell = [c[0] + d[0], c[1] + d[1], c[2] + d[2]];
          if (occupied.has(cell.join(','))) continue;
          const grown = [...cells, cell];
          const key = shapeKey(grown, false);
          if (!next.has(key)) next.set(key, normaliseCells(grown));
        }
      }
    }
    level = next;
  }
  return [...level.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, cells]) => cells);
}

// ---------------------------------------------------------------------------------------
// The sets.

// The 12 pentominoes, standard letters (F I L N P T U V W X Y Z), drawn as in def/pentominoes_10x6.txt.
// The hand of the chiral ones (F L N P Y Z) is that of def/pentominoes_1s_30x3.txt, where
// the lower-case letters are their mirror images: it matters for one-sided puzzles.
const PENTOMINO_ROWS = {
  F: [' ##', '## ', ' # '],
  I: ['#####'],
  L: ['# ', '# ', '# ', '##'],
  N: [' #', ' #', '##', '# '],
  P: ['##', '##', '# '],
  T: ['###', ' # ', ' # '],
  U: ['# #', '###'],
  V: ['#  ', '#  ', '###'],
  W: ['#  ', '## ', ' ##'],
  X: [' # ', '###', ' # '],
  Y: [' #', '##', ' #', ' #'],
  Z: ['## ', ' # ', ' ##'],
};

function pentominoes() {
  return Object.entries(PENTOMINO_ROWS).map(([name, rows]) => piece(name, cellsFromRows(rows)));
}

// The six pentominoes that differ from their mirror image; the mirror is named in lower case.
const CHIRAL_PENTOMINOES = ['F', 'L', 'N', 'P', 'Y', 'Z'];

function oneSidedPentominoes() {
  const out = [];
  for (const p of pentominoes()) {
    out.push(p);
    if (CHIRAL_PENTOMINOES.includes(p.name)) out.push(piece(p.name.toLowerCase(), mirrorCells(p.cells)));
  }
  return out;
}

const TETROMINO_ROWS = {
  I: ['####'],
  O: ['##', '##'],
  T: ['###', ' # '],
  S: [' ##', '## '],
  L: ['#  ', '###'],
};

function tetrominoes() {
  return Object.entries(TETROMINO_ROWS).map(([name, rows]) => piece(name, cellsFromRows(rows)));
}

function fromLayouts(layouts) {
  return Object.entries(layouts).map(([name, cells]) => piece(name, cells));
}

// def/soma.txt
const SOMA = {
  V: [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
  L: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]],
  T: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]],
  Z: [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]],
  A: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]],
  B: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 1]],
  P: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
};

// def/tetriscube.txt (names as in the article the file reproduces)
const TETRIS_CUBE = {
  A: [[0, 0, 2], [1, 0, 2], [2, 0, 2], [2, 0, 1], [2, 0, 0], [2, 1, 0]],
  B: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0], [2, 2, 0], [2, 1, 1]],
  C: [[0, 0, 0], [1, 0, 0], [1, 0, 1], [2, 0, 1], [2, 1, 1]],
  D: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0], [3, 1, 0]],
  E: [[0, 0, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0], [2, 1, 0]],
  F: [[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1], [0, 1, 0]],
  G: [[0, 2, 0], [0, 1, 0], [0, 0, 0], [1, 0, 0], [2, 0, 0]],
  H: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0], [2, 1, 0]],
  I: [[0, 0, 1], [1, 0, 1], [2, 0, 1], [0, 1, 1], [0, 1, 0]],
  J: [[0, 0, 0], [1, 0, 0], [1, 0, 1], [1, 1, 1], [2, 1, 1]],
  K: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0], [1, 1, 1]],
  L: [[0, 1, 0], [1, 1, 0], [1, 1, 1], [2, 1, 1], [1, 0, 1], [1, 2, 1]],
};

// def/bedlam.txt
const BEDLAM = {
  F: [[1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [2, 2, 0]],
  X: [[1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [1, 2, 0]],
  W: [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0], [2, 2, 0]],
  M: [[1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [1, 1, 1]],
  B: [[1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [1, 0, 1]],
  H: [[1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [0, 1, 1]],
  L: [[2, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [0, 1, 1]],
  S: [[0, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [0, 0, 1]],
  C: [[0, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [0, 1, 1]],
  E: [[1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [0, 1, 1]],
  I: [[1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [1, 1, 1]],
  T: [[1, 0, 0], [2, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]],
  Z: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]],
};

// Sort key that puts long, thin pieces first: longest side (descending), then the shorter
// sides (descending), then the canonical key. Stable across runs (no Map or Set order).
function byLength(a, b) {
  const ea = cellExtent(a).sort((p, q) => q - p);
  const eb = cellExtent(b).sort((p, q) => q - p);
  for (let k = 0; k < 3; k++) if (ea[k] !== eb[k]) return eb[k] - ea[k];
  const ka = shapeKey(a, false);
  const kb = shapeKey(b, false);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * The 35 free hexominoes, named H01 ... H35: longest first (H01 is the straight hexomino),
 * then by the other sides, then by canonical key. (def/hexominoes_rect_15x14.txt draws the
 * same 35 shapes with other names, A-Z and 1-9, taken from the article it reproduces.)
 */
function hexominoes() {
  return enumeratePolycubes(6, { planar: true })
    .sort(byLength)
    .map((cells, i) => piece(`H${String(i + 1).padStart(2, '0')}`, cells));
}

/**
 * The 29 pentacubes (distinct under rotation; a chiral piece and its mirror image are two
 * pieces). Names: the 12 flat ones carry their pentomino letter; the 5 achiral solid ones are
 * A B C D E; the 6 chiral pairs are G H J K M R, upper case for one hand and lower case for
 * its mirror image (as the one-sided pentominoes name mirror images). Within each group,
 * pieces are in the order of byLength; of a chiral pair the one with the smaller canonical
 * key is upper case.
 */
function pentacubes() {
  const flatKeys = new Map(pentominoes().map((p) => [shapeKey(p.cells, false), p.name]));
  const all = enumeratePolycubes(5);
  const flat = [];
  const achiral = [];
  const pairs = []; // [upper, lower]
  const taken = new Set();
  for (const cells of all) {
    const key = shapeKey(cells, false);
    if (taken.has(key)) continue;
    if (flatKeys.has(key)) {
      flat.push(piece(flatKeys.get(key), cells));
      taken.add(key);
      continue;
    }
    const mirror = mirrorCells(cells);
    const mirrorKey = shapeKey(mirror, false);
    taken.add(key);
    if (mirrorKey === key) {
      achiral.push(cells);
    } else {
      taken.add(mirrorKey);
      pairs.push(key < mirrorKey ? [cells, mirror] : [mirror, cells]);
    }
  }
  const flatOrder = Object.keys(PENTOMINO_ROWS);
  flat.sort((a, b) => flatOrder.indexOf(a.name) - flatOrder.indexOf(b.name));
  achiral.sort(byLength);
  pairs.sort((a, b) => byLength(a[0], b[0]));
  const out = [...flat];
  achiral.forEach((cells, i) => out.push(piece('ABCDE'[i], cells)));
  pairs.forEach(([upper, lower], i) => {
    const letter = 'GHJKMR'[i];
    out.push(piece(letter, upper), piece(letter.toLowerCase(), lower));
  });
  return out;
}

function set(id, title, dims, oneSide, description, pieces) {
  return Object.freeze({ id, title, description, dims, oneSide, pieces: Object.freeze(pieces.map((p) => Object.freeze(p))) });
}

/** The sets in tray order. Frozen: copy a piece before editing it. */
export const PIECE_SETS = Object.freeze([
  set('pentominoes', '12 pentominoes', 2, false,
    'The 12 shapes of five squares (F I L N P T U V W X Y Z); pieces may be turned over.', pentominoes()),
  set('pentominoes-one-sided', '18 one-sided pentominoes', 2, true,
    'The 12 pentominoes plus the mirror images of F L N P Y Z (lower case), for puzzles whose pieces may not be turned over.',
    oneSidedPentominoes()),
  set('tetrominoes', '5 tetrominoes', 2, false, 'The 5 shapes of four squares (I O T S L); pieces may be turned over.', tetrominoes()),
  set('soma', 'Soma cube', 3, false, "Piet Hein's 7 pieces of 3 and 4 cubes that fill a 3x3x3 cube.", fromLayouts(SOMA)),
  set('tetris-cube', 'Tetris Cube', 3, false, 'The 12 pieces (of 5 and 6 cubes) of the Tetris Cube puzzle, which fill a 4x4x4 box.',
    fromLayouts(TETRIS_CUBE)),
  set('bedlam', 'Bedlam cube', 3, false, 'The 13 pieces (12 of 5 cubes, one of 4) of the Bedlam cube, which fill a 4x4x4 box.',
    fromLayouts(BEDLAM)),
  set('hexominoes', '35 hexominoes', 2, false, 'All 35 shapes of six squares (H01 ... H35, longest first); pieces may be turned over.',
    hexominoes()),
  set('pentacubes', '29 pentacubes', 3, false,
    'All 29 shapes of five cubes: the 12 flat pentominoes, 5 solid shapes equal to their mirror image (A-E) and 6 mirror pairs (G/g H/h J/j K/k M/m R/r).',
    pentacubes()),
]);

/**
 * The set with this id, or undefined.
 * @param {string} id
 */
export function pieceSet(id) {
  return PIECE_SETS.find((s) => s.id === id);
}
