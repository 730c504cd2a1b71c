#!/usr/bin/env node
// Generates the family corpus (def/families/*.txt and def/families/catalog.json):
// puzzles of many kinds (pentomino rectangles and holed boards, pentominoes plus a tetromino,
// one-sided sets, mixed tetromino+pentomino rectangles, hexomino subsets, solid pentominoes in
// boxes and other figures, Soma and tetracube figures, subsets of the Tetris Cube and Bedlam
// pieces), so that the automatic configuration is measured on more than the few classic
// puzzles (bench/families.mjs).
//
//   node scripts/gen-families.mjs           write the definition files; the catalog keeps the
//                                           counts of puzzles whose text did not change
//   node scripts/gen-families.mjs --count   also count every puzzle without a recorded count
//                                           (--recount: every puzzle) two ways with
//                                           build/cli/polycube: the default configuration and
//                                           plain DLX (-o s), both with -r; they must agree
//
// Everything is deterministic: piece sets are written out here or enumerated (hexominoes,
// tetracubes) in a fixed order, subsets are fixed lists. The shapes are the standard public
// ones (Golomb's pentomino letters, Piet Hein's Soma pieces); the Tetris Cube and Bedlam pieces
// are read from the golden files def/tetriscube.txt and def/bedlam.txt.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'def', 'families');
const CLI = path.join(ROOT, 'build', 'cli', 'polycube');

// ---------------------------------------------------------------------------------------------
// Shapes: a shape is a list of [x, y, z] cells.

// Rows drawn top-down ('#' = cell), as in the definition format's L blocks (first row is the
// highest y).
function drawn(...rows) {
  const cells = [];
  rows.forEach((row, r) => [...row].forEach((ch, x) => ch === '#' && cells.push([x, rows.length - 1 - r, 0])));
  return cells;
}

const key = (cells) => cells.map((c) => c.join(',')).sort().join(' ');

function normalise(cells) {
  const min = [0, 1, 2].map((a) => Math.min(...cells.map((c) => c[a])));
  return cells.map((c) => c.map((v, a) => v - min[a])).sort((p, q) => p[0] - q[0] || p[1] - q[1] || p[2] - q[2]);
}

const mirror = (cells) => normalise(cells.map(([x, y, z]) => [-x, y, z]));

// The 24 proper rotations of 3-space as functions of a cell.
const ROTATIONS = (() => {
  const turnX = ([x, y, z]) => [x, -z, y];
  const turnY = ([x, y, z]) => [z, y, -x];
  const seen = new Map();
  const queue = [(c) => c];
  while (queue.length) {
    const f = queue.shift();
    const sig = key([f([1, 2, 3])].concat([f([0, 0, 1])]));
    if (seen.has(sig)) continue;
    seen.set(sig, f);
    queue.push((c) => turnX(f(c)), (c) => turnY(f(c)));
  }
  return [...seen.values()];
})();

// Canonical form under rotations of 3-space (flat pieces then include their mirror images,
// as they do in the solver with zDim = 1).
const canonical3 = (cells) => ROTATIONS.map((f) => key(normalise(cells.map(f)))).sort()[0];

// Every free polycube of n cells (chiral pairs are two pieces), or every free polyomino when
// flat: grown cell by cell from the single cube, deduplicated by canonical form, in the sorted
// order of the canonical forms (deterministic names).
function polycubes(n, flat) {
  let level = new Map([[canonical3([[0, 0, 0]]), [[0, 0, 0]]]]);
  const dirs = flat ? [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]]
    : [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];
  for (let size = 1; size < n; ++size) {
    const next = new Map();
    for (const cells of level.values()) {
      const have = new Set(cells.map((c) => c.join(',')));
      for (const c of cells)
        for (const d of dirs) {
          const nc = [c[0] + d[0], c[1] + d[1], c[2] + d[2]];
          if (have.has(nc.join(','))) continue;
          const grown = normalise([...cells, nc]);
          const k = canonical3(grown);
          if (!next.has(k)) next.set(k, grown);
        }
    }
    level = next;
  }
  return [...level.keys()].sort().map((k) => level.get(k));
}

// ---------------------------------------------------------------------------------------------
// Piece sets: arrays of { name, cells }.

const PENTOMINOES = [
  ['F', drawn('.##', '##.', '.#.')],
  ['I', drawn('#####')],
  ['L', drawn('#...', '####')],
  ['N', drawn('##..', '.###')],
  ['P', drawn('##', '##', '#.')],
  ['T', drawn('###', '.#.', '.#.')],
  ['U', drawn('#.#', '###')],
  ['V', drawn('#..', '#..', '###')],
  ['W', drawn('#..', '##.', '.##')],
  ['X', drawn('.#.', '###', '.#.')],
  ['Y', drawn('.#..', '####')],
  ['Z', drawn('##.', '.#.', '.##')],
].map(([name, cells]) => ({ name, cells }));
const pent = (letters) => [...letters].map((l) => PENTOMINOES.find((p) => p.name === l));

// The mirror images of the six asymmetric pentominoes, named by the lower-case letter (as in
// def/pentominoes_1s_30x3.txt).
const PENT_MIRRORS = pent('FLNPYZ').map((p) => ({ name: p.name.toLowerCase(), cells: mirror(p.cells) }));

const TETROMINOES = [
  ['I4', drawn('####')],
  ['O4', drawn('##', '##')],
  ['L4', drawn('#..', '###')],
  ['T4', drawn('###', '.#.')],
  ['S4', drawn('.##', '##.')],
].map(([name, cells]) => ({ name, cells }));
const tet = (names) => names.map((n) => TETROMINOES.find((p) => p.name === n));
// One-sided tetrominoes: the mirror images of L and S are further pieces.
const ONE_SIDED_TETROMINOES = [...TETROMINOES, { name: 'J4', cells: mirror(TETROMINOES[2].cells) },
  { name: 'Z4', cells: mirror(TETROMINOES[4].cells) }];

// Piet Hein's Soma pieces (the same cells as def/soma.txt).
const SOMA = [
  ['V', [[0, 0, 0], [1, 0, 0], [0, 1, 0]]],
  ['L', [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]]],
  ['T', [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]]],
  ['Z', [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]]],
  ['A', [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]]],
  ['B', [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 1]]],
  ['P', [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]],
].map(([name, cells]) => ({ name, cells }));

// The 8 tetracubes (free under rotation: the two screws are two pieces), enumerated.
const TETRACUBES = polycubes(4, false).map((cells, i) => ({ name: `K${i + 1}`, cells }));
// The 35 free hexominoes, enumerated; H01..H35 in canonical order.
const HEXOMINOES = polycubes(6, true).map((cells, i) => ({ name: `H${String(i + 1).padStart(2, '0')}`, cells }));

function piecesOf(file) {
  return readFileSync(path.join(ROOT, 'def', file), 'utf8').split('\n')
    .map((line) => line.match(/^C:name=(\w+)(?::type=M)?:layout=([^#]*)/))
    .filter(Boolean)
    .map((m) => ({ name: m[1], cells: m[2].split(',').map((t) => t.trim().split(/\s+/).map(Number)) }));
}
const TETRIS = piecesOf('tetriscube.txt');
const BEDLAM = piecesOf('bedlam.txt');
const pick = (set, names) => names.map((n) => {
  const p = set.find((q) => q.name === n);
  if (!p) throw new Error(`no piece ${n}`);
  return p;
});

// ---------------------------------------------------------------------------------------------
// Boards. A board is { dims: [X, Y, Z], blocked: [[x, y, z]...] } (blocked cells become the
// stationary piece '*'). Figures are given by the cells they keep.

const box = (X, Y, Z = 1, blocked = []) => ({ dims: [X, Y, Z], blocked });

// A figure from its cells: the bounding box, every other cell blocked.
function figure(cells) {
  const n = normalise(cells);
  const dims = [0, 1, 2].map((a) => Math.max(...n.map((c) => c[a])) + 1);
  const keep = new Set(n.map((c) => c.join(',')));
  const blocked = [];
  for (let z = 0; z < dims[2]; ++z)
    for (let y = 0; y < dims[1]; ++y)
      for (let x = 0; x < dims[0]; ++x) if (!keep.has(`${x},${y},${z}`)) blocked.push([x, y, z]);
  return { dims, blocked };
}

// Layers drawn top-down, bottom layer first: each layer a list of rows ('#' = cell of the figure).
function layers(...ls) {
  const cells = [];
  ls.forEach((rows, z) => rows.forEach((row, r) => [...row].forEach((ch, x) => ch === '#' && cells.push([x, rows.length - 1 - r, z]))));
  return cells;
}

// A prism: a footprint drawn top-down, `height` layers high.
const prism = (height, ...rows) => layers(...Array.from({ length: height }, () => rows));

// Column heights over a footprint: rows of digits, top-down.
function heights(...rows) {
  const cells = [];
  rows.forEach((row, r) => [...row].forEach((ch, x) => {
    for (let z = 0; z < Number(ch); ++z) cells.push([x, rows.length - 1 - r, z]);
  }));
  return cells;
}

// ---------------------------------------------------------------------------------------------
// The corpus. Each entry: file (without .txt), family, title, about (comment lines), pieces,
// board, oneSide, known (a count published elsewhere, checked against ours when given).

const corpus = [];
const add = (e) => corpus.push(e);

// Pentomino rectangles: 2339 / 1010 / 368 / 2 solutions (Haselgrove 1960 and later; each
// counted with rotations and reflections of the board as one).
for (const [X, Y, known] of [[10, 6, 2339], [12, 5, 1010], [15, 4, 368], [20, 3, 2]])
  add({ file: `pent_rect_${X}x${Y}`, family: 'pentomino rectangles', title: `Pentominoes ${X}x${Y}`,
    about: [`The 12 pentominoes in a ${X}x${Y} rectangle.`], pieces: PENTOMINOES, board: box(X, Y), known });

// 8x8 minus a 2x2 square: the 10 positions of the square up to the board's symmetries (its
// lower-left cell at (i, j), 0 <= i <= j <= 3). The centre (3, 3) is Dana Scott's 65.
for (let j = 0; j <= 3; ++j)
  for (let i = 0; i <= j; ++i)
    add({ file: `pent_8x8_hole_${i}${j}`, family: 'pentomino boards with holes',
      title: `Pentominoes 8x8 minus the 2x2 square at (${i},${j})`,
      about: ['The 12 pentominoes on an 8x8 board without the 2x2 square whose lower-left cell is', `(${i},${j}). Over the 49 places of the square the solutions without -r add up to 8 x 16,146`,
        '(the 8x8 board with the square tetromino: pent_tet_8x8_O4).'],
      pieces: PENTOMINOES, board: box(8, 8, 1, [[i, j, 0], [i + 1, j, 0], [i, j + 1, 0], [i + 1, j + 1, 0]]),
      known: i === 3 && j === 3 ? 65 : undefined });

// 8x8 minus four single cells.
for (const [name, title, cells] of [
  ['corners', 'the four corners', [[0, 0], [7, 0], [0, 7], [7, 7]]],
  ['quadrants', 'a cell in each quadrant, (2,2) and its rotations', [[2, 2], [5, 2], [2, 5], [5, 5]]],
  ['pinwheel', 'four edge cells in a pinwheel, (3,0) and its rotations', [[3, 0], [7, 3], [4, 7], [0, 4]]],
  ['diagonal', 'four cells of the main diagonal', [[1, 1], [3, 3], [4, 4], [6, 6]]],
  ['edges', 'the middle cell of each side, (3,0) and its reflections', [[3, 0], [3, 7], [0, 4], [7, 4]]],
])
  add({ file: `pent_8x8_minus_${name}`, family: 'pentomino boards with holes', title: `Pentominoes 8x8 minus ${title}`,
    about: [`The 12 pentominoes on an 8x8 board without ${title}.`], pieces: PENTOMINOES,
    board: box(8, 8, 1, cells.map(([x, y]) => [x, y, 0])) });

// Other pentomino boards: a 60-cell cross-free shape and a rectangle with a bar removed.
add({ file: 'pent_7x9_minus_3', family: 'pentomino boards with holes', title: 'Pentominoes 9x7 minus three centre cells',
  about: ['The 12 pentominoes in a 9x7 rectangle without the three middle cells of its middle row.'],
  pieces: PENTOMINOES, board: box(9, 7, 1, [[3, 3, 0], [4, 3, 0], [5, 3, 0]]) });

// Pentominoes plus a tetromino: 64 cells. The 8x8 board with the square tetromino anywhere
// (16,146 solutions) takes 1.4-2.7 s, too long for the benchmark's grid; the ten pent_8x8_hole
// puzzles above split it by the square's place (their counts add up to 16,146: a test checks
// it). Here the other tetrominoes, stationary across the centre.
for (const t of ['I4', 'L4', 'T4', 'S4'])
  add({ file: `pent_tet_8x8_${t}_centre`, family: 'pentominoes plus a tetromino',
    title: `Pentominoes and the ${t} tetromino 8x8, the tetromino in the centre`,
    about: [`The 12 pentominoes and the ${t} tetromino on an 8x8 board, the tetromino`, 'stationary across the centre.'],
    pieces: PENTOMINOES, board: box(8, 8, 1, {
      I4: [[2, 3], [3, 3], [4, 3], [5, 3]], L4: [[3, 3], [4, 3], [5, 3], [3, 4]],
      T4: [[3, 3], [4, 3], [5, 3], [4, 4]], S4: [[3, 3], [4, 3], [4, 4], [5, 4]] }[t].map(([x, y]) => [x, y, 0])) });
add({ file: 'pent_tet_16x4_I4', family: 'pentominoes plus a tetromino', title: 'Pentominoes and the I tetromino 16x4',
  about: ['The 12 pentominoes and the straight tetromino in a 16x4 rectangle.'], pieces: [...PENTOMINOES, ...tet(['I4'])],
  board: box(16, 4) });

// One-sided sets: the twelve one-sided forms of the six asymmetric pentominoes in rectangles,
// (3x20 has none), the seven one-sided tetrominoes in a 6x5 rectangle without two corners of
// one colour (the T's chessboard imbalance of 2 needs it), and the 18 one-sided pentominoes in
// 30x3 (46 solutions, as def/pentominoes_1s_30x3.txt).
const CHIRAL = [...pent('FLNPYZ'), ...PENT_MIRRORS];
for (const [X, Y] of [[10, 6], [12, 5], [15, 4]])
  add({ file: `onesided_chiral12_${X}x${Y}`, family: 'one-sided sets', title: `One-sided F L N P Y Z and mirrors ${X}x${Y}`,
    about: ['The six asymmetric pentominoes and their mirror images (lower-case), one-sided,', `in a ${X}x${Y} rectangle.`],
    pieces: CHIRAL, board: box(X, Y), oneSide: true });
add({ file: 'onesided_tetrominoes_6x5', family: 'one-sided sets', title: 'One-sided tetrominoes 6x5 minus two corners',
  about: ['The seven one-sided tetrominoes in a 6x5 rectangle without the corners (0,0) and (0,4).'],
  pieces: ONE_SIDED_TETROMINOES, board: box(6, 5, 1, [[0, 0, 0], [0, 4, 0]]), oneSide: true });
add({ file: 'onesided_pent18_30x3', family: 'one-sided sets', title: 'One-sided pentominoes 30x3',
  about: ['The 18 one-sided pentominoes in a 30x3 rectangle.'], pieces: [...PENTOMINOES, ...PENT_MIRRORS],
  board: box(30, 3), oneSide: true, known: 46 });

// Mixed tetromino + pentomino shapes: the five tetrominoes with some pentominoes.
for (const [letters, X, Y] of [['FLNP', 8, 5], ['ILPU', 10, 4], ['FILNP', 9, 5], ['LNPUY', 15, 3], ['FILNPT', 10, 5], ['UVWXYZ', 10, 5], ['TUVWXYZ', 11, 5]])
  add({ file: `mixed_tet5_${letters}_${X}x${Y}`, family: 'mixed tetromino+pentomino', title: `Tetrominoes and ${letters} ${X}x${Y}`,
    about: [`The five tetrominoes and the pentominoes ${[...letters].join(' ')} in a ${X}x${Y} rectangle.`],
    pieces: [...TETROMINOES, ...pent(letters)], board: box(X, Y) });

// Hexomino subsets in rectangles. 24 of the 35 hexominoes cover 3 black and 3 white cells of a
// chessboard; the subsets are runs of those (a rectangle of even area needs the balance), and one
// adds a +2 / -2 pair (H03, H06). Runs that have no solution were skipped.
const BALANCED = HEXOMINOES.filter((p) => p.cells.reduce((s, [x, y]) => s + ((x + y) % 2 ? 1 : -1), 0) === 0);
for (const [pieces, X, Y] of [
  [BALANCED.slice(3, 9), 6, 6], [BALANCED.slice(0, 7), 7, 6], [BALANCED.slice(0, 8), 8, 6],
  [BALANCED.slice(0, 10), 10, 6], [BALANCED.slice(0, 10), 12, 5], [BALANCED.slice(0, 10), 15, 4],
  [BALANCED.slice(0, 12), 12, 6], [[HEXOMINOES[2], HEXOMINOES[5], ...BALANCED.slice(10, 18)], 10, 6],
])
  add({ file: `hexo_${pieces.map((p) => p.name.slice(1)).join('_')}_${X}x${Y}`.replace(/^(hexo_\d+)_.*_(\d+_\d+x\d+)$/, '$1-$2'),
    family: 'hexomino subsets', title: `${pieces.length} hexominoes ${X}x${Y} (${pieces[0].name}...)`,
    about: [`Hexominoes ${pieces.map((p) => p.name).join(' ')} (the 35 free hexominoes numbered in the`,
      `generator's canonical order) in a ${X}x${Y} rectangle.`], pieces, board: box(X, Y) });

// Solid pentominoes (the 12 pentominoes turned in space) in boxes. Published up to reflection:
// 2x3x10 12 solutions, 2x5x6 264 (and 3x4x5 3940); -r counts mirror images apart, so 24 and 528.
// The full 3x4x5 takes 13 s, so it is here with one piece held in place (a stationary piece
// '*' where the piece would be, the other 11 to place).
for (const [dims, known] of [[[10, 3, 2], 24], [[6, 5, 2], 528]])
  add({ file: `solid_pent_${dims.join('x')}`, family: 'solid pentominoes', title: `Solid pentominoes ${dims.join('x')}`,
    about: [`The 12 pentominoes as solid pieces in a ${dims.join('x')} box.`], pieces: PENTOMINOES, board: box(...dims), known });
for (const [letter, where, cells] of [
  ['X', 'flat in the bottom layer, its centre at (1,2)', [[1, 3], [0, 2], [1, 2], [2, 2], [1, 1]]],
  ['I', 'along a bottom edge', [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]]],
])
  add({ file: `solid_pent_5x4x3_${letter}_fixed`, family: 'solid pentominoes', title: `Solid pentominoes 5x4x3 with ${letter} held ${where}`,
    about: [`The 12 pentominoes as solid pieces in a 5x4x3 box, ${letter} held ${where}`, '(the stationary piece *); the other 11 to place.'],
    pieces: PENTOMINOES.filter((p) => p.name !== letter), board: box(5, 4, 3, cells.map(([x, y]) => [x, y, 0])) });
add({ file: 'solid_pent_lprism', family: 'solid pentominoes', title: 'Solid pentominoes: an L-shaped prism two layers high',
  about: ['The 12 pentominoes as solid pieces in an L-shaped prism two layers high (a 6x6 square', 'without a 3x2 corner).'],
  pieces: PENTOMINOES, board: figure(prism(2, '###...', '###...', '######', '######', '######', '######')) });

// Soma figures: the seven Soma pieces in 27-cell figures other than the cube (the cube itself,
// 480, as the reference point).
for (const [name, title, cells, known] of [
  ['cube', 'the 3x3x3 cube', prism(3, '###', '###', '###'), 480],
  ['bathtub', 'a bathtub (5x3x2, three cells hollowed from the top)', layers(['#####', '#####', '#####'], ['#####', '#...#', '#####'])],
  ['steps', 'steps (3 wide, columns 1, 2, 3, 3 high)', heights('111', '222', '333', '333')],
  ['roof', 'a roof (layers 5x3, 3x3, 1x3)', layers(['#####', '#####', '#####'], ['.###.', '.###.', '.###.'], ['..#..', '..#..', '..#..'])],
  ['bench', 'a bench (3x3 seat two high, a back three higher)', layers(['###', '###', '###'], ['###', '###', '###'], ['###', '...', '...'], ['###', '...', '...'], ['###', '...', '...'])],
  ['tower', 'a tower (3x2, four high, a row of 3 on top)', layers(['###', '###'], ['###', '###'], ['###', '###'], ['###', '###'], ['###', '...'])],
  ['sofa', 'a sofa (5x3 seat, back and arms)', layers(['#####', '#####', '#####'], ['#####', '#...#', '.....'], ['#####', '.....', '.....'])],
  ['tunnel', 'a tunnel (5x3x2 with a passage under the middle)', layers(['##.##', '##.##', '##.##'], ['#####', '#####', '#####'])],
])
  add({ file: `soma_${name}`, family: 'Soma figures', title: `Soma: ${title}`,
    about: [`Piet Hein's seven Soma pieces in ${title}.`], pieces: SOMA, board: figure(cells), known });

// Tetracube figures: the eight tetracubes (32 cells).
for (const [name, title, cells] of [
  ['box_4x4x2', 'a 4x4x2 box', prism(2, '####', '####', '####', '####')],
  ['box_8x2x2', 'an 8x2x2 box', prism(2, '########', '########')],
  ['tube', 'a square tube (3x3 ring, four high)', prism(4, '###', '#.#', '###')],
  ['steps', 'steps (4 wide, columns 1, 2, 3, 2 high)', heights('1111', '2222', '3333', '2222')],
  ['lprism', 'an L-shaped prism two high', prism(2, '####', '####', '##..', '##..', '##..', '##..')],
  ['pillar', 'an L-shaped pillar four high', prism(4, '####', '##..', '##..')],
])
  add({ file: `tetracube_${name}`, family: 'tetracube figures', title: `Tetracubes: ${title}`,
    about: [`The eight tetracubes (both screws) in ${title}.`], pieces: TETRACUBES, board: figure(cells) });

// Subsets of the Tetris Cube and Bedlam pieces in smaller boxes (the full 4x4x4 puzzles take
// 4-5 s: too long for the family benchmark's grid). Chosen among the first subsets in the sets'
// order that have solutions: three Tetris Cube pieces of 6 cells and six of 5 in 4x4x3, nine
// Bedlam pentacubes in 5x3x3.
for (const names of ['ABECDFGHI', 'ABECDFGIK', 'AELCDFGHI'])
  add({ file: `tetris_${names}_4x4x3`, family: 'Tetris Cube and Bedlam subsets',
    title: `Tetris Cube pieces ${names} in 4x4x3`,
    about: [`The Tetris Cube pieces ${[...names].join(' ')} (def/tetriscube.txt) in a 4x4x3 box.`],
    pieces: pick(TETRIS, [...names]), board: box(4, 4, 3) });
for (const names of ['FXWMBHLSE', 'FXWMBHLSI'])
  add({ file: `bedlam_${names}_5x3x3`, family: 'Tetris Cube and Bedlam subsets',
    title: `Bedlam pieces ${names} in 5x3x3`,
    about: [`The Bedlam cube pieces ${[...names].join(' ')} (def/bedlam.txt) in a 5x3x3 box.`],
    pieces: pick(BEDLAM, [...names]), board: box(5, 3, 3) });

// The fast subset the C++ tests solve (tests/cpp/families_test.cpp): one or two of each family,
// about 1.5 s in all.
const TESTED = ['pent_rect_12x5', 'pent_8x8_hole_00', 'pent_8x8_minus_corners', 'pent_tet_8x8_T4_centre',
  'onesided_chiral12_10x6', 'mixed_tet5_FILNP_9x5', 'hexo_01-12_12x5', 'solid_pent_6x5x2', 'soma_steps',
  'tetracube_box_4x4x2', 'tetris_ABECDFGHI_4x4x3', 'bedlam_FXWMBHLSE_5x3x3'];
for (const e of corpus) if (TESTED.includes(e.file)) e.test = true;
if (corpus.filter((e) => e.test).length !== TESTED.length) throw new Error('a tested puzzle is missing');

// ---------------------------------------------------------------------------------------------
// Writing.

const layout = (cells) => cells.map((c) => c.join(' ')).join(', ');

function definition(e) {
  const [X, Y, Z] = e.board.dims;
  const volume = e.pieces.reduce((s, p) => s + p.cells.length, 0);
  const free = X * Y * Z - e.board.blocked.length;
  if (volume !== free) throw new Error(`${e.file}: pieces ${volume} cells, board ${free}`);
  const lines = [...e.about.map((l) => `# ${l}`),
    `# Family: ${e.family}. Generated by scripts/gen-families.mjs; counts in catalog.json.`, '',
    `# ${e.title}`, `D:xDim=${X}:yDim=${Y}:zDim=${Z}${e.oneSide ? ':oneSide' : ''}`,
    ...e.pieces.map((p) => `C:name=${p.name}:layout=${layout(p.cells)}`)];
  if (e.board.blocked.length) lines.push(`C:name=*:type=S:layout=${layout(e.board.blocked)}`);
  lines.push('~D', '');
  return lines.join('\n');
}

const sha1 = (text) => createHash('sha1').update(text).digest('hex').slice(0, 12);

function runCli(file, extra) {
  const out = execFileSync(CLI, ['-q', '-r', '--json', ...extra, file], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const j = JSON.parse(out.trim().split('\n').pop());
  if (j.state !== 'done') throw new Error(`${file} ${extra.join(' ')}: state ${j.state}`);
  return j;
}

function main() {
  const args = new Set(process.argv.slice(2));
  const count = args.has('--count') || args.has('--recount');
  const only = [...args].find((a) => a.startsWith('--only='))?.slice(7);
  mkdirSync(OUT, { recursive: true });
  const catalogPath = path.join(OUT, 'catalog.json');
  const previous = existsSync(catalogPath) ? JSON.parse(readFileSync(catalogPath, 'utf8')) : [];
  const byFile = new Map(previous.map((e) => [e.file, e]));
  const files = new Set(corpus.map((e) => `${e.file}.txt`));
  if (files.size !== corpus.length) throw new Error('two puzzles with one file name');
  for (const f of readdirSync(OUT)) if (f.endsWith('.txt') && !files.has(f)) unlinkSync(path.join(OUT, f));
  const catalog = [];
  for (const e of corpus) {
    const file = `${e.file}.txt`;
    const text = definition(e);
    writeFileSync(path.join(OUT, file), text);
    const old = byFile.get(file);
    const entry = { file, family: e.family, title: e.title, sha1: sha1(text) };
    if (e.test) entry.test = true;
    if (e.known !== undefined) entry.known = e.known;
    if (old && old.sha1 === entry.sha1 && old.counts && !args.has('--recount')) {
      entry.counts = old.counts;
      entry.confirmedBy = old.confirmedBy;
      entry.seconds = old.seconds;
    } else if (count && (!only || e.file.includes(only))) {
      const p = path.join(OUT, file);
      const a = runCli(p, []);
      const b = runCli(p, ['-o', 's']);
      const line = `${file}: default ${a.solutions} (${a.seconds.toFixed(3)} s), -o s ${b.solutions} (${b.seconds.toFixed(3)} s)`;
      console.log(line);
      if (a.solutions !== b.solutions) throw new Error(`counts differ: ${line}`);
      if (e.known !== undefined && a.solutions !== e.known) throw new Error(`published count ${e.known}: ${line}`);
      entry.counts = { '-r': a.solutions };
      entry.confirmedBy = ['-r', '-r -o s'];
      entry.seconds = { '-r': Number(a.seconds.toFixed(3)), '-r -o s': Number(b.seconds.toFixed(3)) };
    }
    catalog.push(entry);
  }
  writeFileSync(catalogPath, `[\n${catalog.map((e) => `  ${JSON.stringify(e)}`).join(',\n')}\n]\n`);
  console.log(`${catalog.length} puzzles in def/families (${catalog.filter((e) => e.counts).length} counted)`);
}

export { HEXOMINOES, TETRACUBES, TETRIS, BEDLAM, PENTOMINOES, definition, polycubes };
if (process.argv[1] === fileURLToPath(import.meta.url)) main();
