// The puzzle model shared by the editor, the definition writer, share links and exports.
// Pure functions on plain objects: no DOM, no engine. (The engine stays the authority on
// what a definition means; this module mirrors the format's rules so the editor can check
// a puzzle while it is being drawn, before any text reaches the engine.)
//
//   const puzzle = fromEngineJson(session.puzzle(0).puzzle);   // the bindings parse puzzleJson
//   cellCounts(puzzle)          // {box: 60, holes: 0, stationary: 0, space: 60, pieces: 60, balanced: true}
//   validatePuzzle(puzzle)      // [] or [{path: 'pieces[2].name', message: "..."}]
//   shapeKey(piece.cells, puzzle.oneSide) === shapeKey(other.cells, puzzle.oneSide)  // same shape
//   rotatePiece(piece, 'z')     // a quarter turn about z (a new piece)
//
// Shape of the model (the contract with the UI):
//   Puzzle = { title: string, xDim, yDim, zDim: int >= 1, oneSide: boolean,
//              holes: number[],   // sorted box indices x + xDim*(y + yDim*z) removed from the space;
//                                 // written as the stationary piece '*'
//              pieces: Piece[] }
//   Piece  = { name: string, cells: [x,y,z][], count: int >= 1, stationary: boolean }
//            // mobile: cells normalised (min x, y, z = 0; sorted by z, then y, then x);
//            // stationary (other than '*'): absolute box cells
//
// Over 600 lines for a reason: one data model and its rules (cells, shapes, rotations,
// validation, the definition text both ways), each function small and pure; the editor, the
// links and the exports import from this one place.

import { ENGINE_RULES } from '../generated/engine-rules.js';

/**
 * @typedef {[number, number, number]} Cell
 * @typedef {{name: string, cells: Cell[], count: number, stationary: boolean}} Piece
 * @typedef {{title: string, xDim: number, yDim: number, zDim: number, oneSide: boolean,
 *            holes: number[], pieces: Piece[]}} Puzzle
 * @typedef {{path: string, message: string}} Problem   path names the field, e.g. 'pieces[3].cells'
 */

/** The name of the stationary piece that carries the holes in definition text. */
export const HOLE_NAME = '*';

/**
 * The engine's parse limits (engine/puzzle/puzzle.hpp: ParseLimits, kMaxDefInteger as
 * maxCoordinate, kMaxTitleChars as maxTitleLength; generated), and the page's own limit on a
 * name: one longer than maxNameLength is a mistake, not a name.
 */
export const LIMITS = Object.freeze({ ...ENGINE_RULES.limits, maxNameLength: 100 });

// ---------------------------------------------------------------------------------------
// Cells and boxes.

/** Box index of cell (x, y, z): x + xDim*(y + yDim*z), the engine's grid order. */
export function boxIndex(puzzle, x, y, z) {
  return x + puzzle.xDim * (y + puzzle.yDim * z);
}

/** Cell [x, y, z] of a box index. */
export function boxCell(puzzle, index) {
  const x = index % puzzle.xDim;
  const rest = (index - x) / puzzle.xDim;
  const y = rest % puzzle.yDim;
  return [x, y, (rest - y) / puzzle.yDim];
}

/** Box volume xDim*yDim*zDim. */
export function boxVolume(puzzle) {
  return puzzle.xDim * puzzle.yDim * puzzle.zDim;
}

function compareCells(a, b) {
  return a[2] - b[2] || a[1] - b[1] || a[0] - b[0];
}

/** Copy of `cells` sorted by z, then y, then x (no translation). */
export function sortCells(cells) {
  return cells.map((c) => [c[0], c[1], c[2]]).sort(compareCells);
}

/** Copy of `cells` translated so that min x, y, z are 0, sorted by z, then y, then x. */
export function normaliseCells(cells) {
  if (cells.length === 0) return [];
  let mx = Infinity, my = Infinity, mz = Infinity;
  for (const c of cells) {
    if (c[0] < mx) mx = c[0];
    if (c[1] < my) my = c[1];
    if (c[2] < mz) mz = c[2];
  }
  return cells.map((c) => [c[0] - mx, c[1] - my, c[2] - mz]).sort(compareCells);
}

/** Size of the bounding box of `cells`: [dx, dy, dz] (all 0 for no cells). */
export function cellExtent(cells) {
  if (cells.length === 0) return [0, 0, 0];
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const c of cells) {
    for (let k = 0; k < 3; k++) {
      if (c[k] < lo[k]) lo[k] = c[k];
      if (c[k] > hi[k]) hi[k] = c[k];
    }
  }
  return [hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, hi[2] - lo[2] + 1];
}

/** Copy of `piece` with its cells normalised when it is mobile (stationary cells are absolute). */
export function normalisePiece(piece) {
  return {
    name: piece.name,
    cells: piece.stationary ? sortCells(piece.cells) : normaliseCells(piece.cells),
    count: piece.count,
    stationary: piece.stationary,
  };
}

/** Copy of `puzzle` with sorted, de-duplicated holes and normalised pieces. */
export function normalisePuzzle(puzzle) {
  return {
    title: puzzle.title,
    xDim: puzzle.xDim,
    yDim: puzzle.yDim,
    zDim: puzzle.zDim,
    oneSide: puzzle.oneSide,
    holes: [...new Set(puzzle.holes)].sort((a, b) => a - b),
    pieces: puzzle.pieces.map(normalisePiece),
  };
}

// ---------------------------------------------------------------------------------------
// From the engine.

function fail(message) {
  throw new TypeError(`fromEngineJson: ${message}`);
}

/**
 * The model of one parsed puzzle as the engine describes it (Session.puzzleJson, documented in
 * web/src/worker/protocol.js): the stationary piece '*' becomes `holes`, mobile pieces are
 * normalised, everything else is kept in definition order.
 * Throws a TypeError naming the field when `json` is not of that shape.
 * @param {object} json
 * @returns {Puzzle}
 */
export function fromEngineJson(json) {
  if (!json || typeof json !== 'object') fail('not an object');
  for (const k of ['xDim', 'yDim', 'zDim']) {
    if (!Number.isInteger(json[k]) || json[k] < 1) fail(`${k} must be a positive integer`);
  }
  if (!Array.isArray(json.pieces)) fail('pieces must be an array');
  const puzzle = {
    title: typeof json.title === 'string' ? json.title : '',
    xDim: json.xDim,
    yDim: json.yDim,
    zDim: json.zDim,
    oneSide: json.oneSide === true,
    holes: [],
    pieces: [],
  };
  const holes = new Set();
  json.pieces.forEach((p, i) => {
    if (!p || typeof p.name !== 'string' || !Array.isArray(p.cells)) fail(`pieces[${i}] needs a name and cells`);
    for (const c of p.cells) {
      if (!Array.isArray(c) || c.length !== 3 || !c.every(Number.isInteger)) fail(`pieces[${i}] has a cell that is not [x, y, z]`);
    }
    if (p.stationary && p.name === HOLE_NAME) {
      for (const c of p.cells) holes.add(boxIndex(puzzle, c[0], c[1], c[2]));
      return;
    }
    puzzle.pieces.push(
      normalisePiece({
        name: p.name,
        cells: p.cells,
        count: Number.isInteger(p.count) && p.count >= 1 ? p.count : 1,
        stationary: p.stationary === true,
      }),
    );
  });
  puzzle.holes = [...holes].sort((a, b) => a - b);
  return puzzle;
}

// ---------------------------------------------------------------------------------------
// Counts.

/**
 * Cells of the space against cells of the pieces (the editor's "60 / 60 cells").
 * space = box - holes - cells of the other stationary pieces (cells on a hole counted once);
 * pieces = cells of the mobile pieces, copies included.
 * @param {Puzzle} puzzle
 */
export function cellCounts(puzzle) {
  const box = boxVolume(puzzle);
  const holeSet = new Set(puzzle.holes);
  const stationarySet = new Set();
  let pieces = 0;
  let instances = 0;
  for (const p of puzzle.pieces) {
    if (p.stationary) {
      for (const c of p.cells) {
        const i = boxIndex(puzzle, c[0], c[1], c[2]);
        if (!holeSet.has(i)) stationarySet.add(i);
      }
    } else {
      pieces += p.cells.length * p.count;
      instances += p.count;
    }
  }
  const space = box - holeSet.size - stationarySet.size;
  return { box, holes: holeSet.size, stationary: stationarySet.size, space, pieces, instances, balanced: space === pieces };
}

// ---------------------------------------------------------------------------------------
// Rotations, mirrors and shape keys.

/** The 24 proper rotations of 3-space as signed permutation matrices (determinant +1). */
export const ROTATIONS_3D = Object.freeze(
  (() => {
    const perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    const out = [];
    for (const p of perms) {
      // The sign of the permutation times the product of the signs must be +1.
      const inversions = (p[0] > p[1]) + (p[0] > p[2]) + (p[1] > p[2]);
      for (let signs = 0; signs < 8; signs++) {
        const s = [0, 1, 2].map((r) => (signs & (1 << r) ? -1 : 1));
        if ((inversions % 2 ? -1 : 1) * s[0] * s[1] * s[2] !== 1) continue;
        const m = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
        for (let r = 0; r < 3; r++) m[r][p[r]] = s[r];
        out.push(Object.freeze(m.map((row) => Object.freeze(row))));
      }
    }
    // Identity first, so orientations(cells)[0] is the piece as given.
    out.sort((a, b) => Number(isIdentity(b)) - Number(isIdentity(a)));
    return out;
  })(),
);

function isIdentity(m) {
  return m[0][0] === 1 && m[1][1] === 1 && m[2][2] === 1;
}

/** The 4 rotations about the z axis: the moves of a one-sided (oneSide) puzzle's pieces. */
export const ROTATIONS_Z = Object.freeze(ROTATIONS_3D.filter((m) => m[2][2] === 1));

/** The rotations a piece may take: 4 about z when oneSide, else all 24. */
export function allowedRotations(oneSide) {
  return oneSide ? ROTATIONS_Z : ROTATIONS_3D;
}

function applyMatrix(m, cells) {
  return cells.map((c) => [
    m[0][0] * c[0] + m[0][1] * c[1] + m[0][2] * c[2],
    m[1][0] * c[0] + m[1][1] * c[1] + m[1][2] * c[2],
    m[2][0] * c[0] + m[2][1] * c[1] + m[2][2] * c[2],
  ]);
}

function cellsKey(normalisedCells) {
  return normalisedCells.map((c) => `${c[0]},${c[1]},${c[2]}`).join(' ');
}

/**
 * The distinct orientations of a shape under the allowed rotations, each normalised
 * (the first is the shape as given). A symmetric shape has fewer than 24 (or 4).
 * @param {Cell[]} cells
 * @param {boolean} oneSide
 * @returns {Cell[][]}
 */
export function orientations(cells, oneSide) {
  const seen = new Set();
  const out = [];
  for (const m of allowedRotations(oneSide)) {
    const o = normaliseCells(applyMatrix(m, cells));
    const key = cellsKey(o);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(o);
    }
  }
  return out;
}

/**
 * A canonical key of a shape under the allowed rotations and translations: two pieces have
 * the same key exactly when one can be moved onto the other (so the engine counts them as
 * copies of one shape). Mirror images have different keys unless the shape is achiral
 * (in 2-D without oneSide every flat piece may be turned over, so mirror images are equal).
 * @param {Cell[]} cells
 * @param {boolean} oneSide
 */
export function shapeKey(cells, oneSide) {
  let best = null;
  for (const m of allowedRotations(oneSide)) {
    const key = cellsKey(normaliseCells(applyMatrix(m, cells)));
    if (best === null || key < best) best = key;
  }
  return best ?? '';
}

/** Mirror image of `cells` across the plane normal to `axis` (x -> -x for 'x'), normalised. */
export function mirrorCells(cells, axis = 'x') {
  const k = axisIndex(axis);
  return normaliseCells(cells.map((c) => {
    const d = [c[0], c[1], c[2]];
    d[k] = -d[k];
    return d;
  }));
}

function axisIndex(axis) {
  const k = { x: 0, y: 1, z: 2 }[axis];
  if (k === undefined) throw new RangeError(`axis must be 'x', 'y' or 'z', got ${String(axis)}`);
  return k;
}

/**
 * Cells turned by `quarterTurns` quarter turns (right-handed, counter-clockwise looking down
 * the axis) about `axis`, normalised.
 */
export function rotateCells(cells, axis = 'z', quarterTurns = 1) {
  return normaliseCells(turnedCells(cells, axis, quarterTurns));
}

/** rotateCells without the normalisation: each cell where the turn about the origin takes it, in order. */
export function turnedCells(cells, axis = 'z', quarterTurns = 1) {
  const k = axisIndex(axis);
  const a = (k + 1) % 3; // the turn takes axis a to axis b
  const b = (k + 2) % 3;
  const turns = ((quarterTurns % 4) + 4) % 4;
  let out = cells.map((c) => [c[0], c[1], c[2]]);
  for (let t = 0; t < turns; t++) {
    out = out.map((c) => {
      const d = [c[0], c[1], c[2]];
      d[a] = -c[b];
      d[b] = c[a];
      return d;
    });
  }
  return out;
}

// Keeps a stationary piece where it is: the turned piece has the same minimum corner.
function placeLike(original, turned, stationary) {
  if (!stationary || original.length === 0) return turned;
  const min = [0, 1, 2].map((k) => Math.min(...original.map((c) => c[k])));
  return sortCells(turned.map((c) => [c[0] + min[0], c[1] + min[1], c[2] + min[2]]));
}

/**
 * The editor's rotate: a new piece turned about `axis`. A stationary piece keeps its minimum
 * corner (it may then leave the box: validatePuzzle says so).
 * @param {Piece} piece
 * @param {'x'|'y'|'z'} [axis]
 * @param {number} [quarterTurns]
 * @returns {Piece}
 */
export function rotatePiece(piece, axis = 'z', quarterTurns = 1) {
  return { ...piece, cells: placeLike(piece.cells, rotateCells(piece.cells, axis, quarterTurns), piece.stationary) };
}

/**
 * The editor's mirror: a new piece reflected across the plane normal to `axis`.
 * @param {Piece} piece
 * @param {'x'|'y'|'z'} [axis]
 * @returns {Piece}
 */
export function mirrorPiece(piece, axis = 'x') {
  return { ...piece, cells: placeLike(piece.cells, mirrorCells(piece.cells, axis), piece.stationary) };
}

/**
 * Mobile pieces of equal shape (the engine counts them as copies of one shape: solutions that
 * only swap them are one solution). Groups of two or more, as piece indices in definition order.
 * @param {Puzzle} puzzle
 * @returns {{key: string, pieces: number[], names: string[]}[]}
 */
export function equalShapeGroups(puzzle) {
  const groups = new Map();
  puzzle.pieces.forEach((p, i) => {
    if (p.stationary || p.cells.length === 0) return;
    const key = shapeKey(p.cells, puzzle.oneSide);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(i);
  });
  return [...groups]
    .filter(([, members]) => members.length > 1)
    .map(([key, members]) => ({ key, pieces: members, names: members.map((i) => puzzle.pieces[i].name) }));
}

/**
 * Mobile pieces that fit nowhere in the space (no rotation and translation of the piece lies
 * on open cells only). Such a puzzle has no solution. Work: a piece that fits stops at its
 * first fit (usually at once); one that fits nowhere costs orientations x box positions x
 * piece cells (24 x 1000 x 5 = 120,000 cell tests in a 10x10x10 box), so on boxes of many
 * thousand cells prefer the engine's draft check (Session.draftJson) for live editing.
 * @param {Puzzle} puzzle
 * @returns {number[]} piece indices
 */
export function piecesThatFitNowhere(puzzle) {
  const { xDim, yDim, zDim } = puzzle;
  const open = new Uint8Array(boxVolume(puzzle)).fill(1);
  for (const h of puzzle.holes) if (h >= 0 && h < open.length) open[h] = 0;
  for (const p of puzzle.pieces) {
    if (!p.stationary) continue;
    for (const c of p.cells) {
      if (c[0] >= 0 && c[1] >= 0 && c[2] >= 0 && c[0] < xDim && c[1] < yDim && c[2] < zDim) open[boxIndex(puzzle, c[0], c[1], c[2])] = 0;
    }
  }
  const out = [];
  puzzle.pieces.forEach((p, i) => {
    if (p.stationary || p.cells.length === 0) return;
    const fits = orientations(p.cells, puzzle.oneSide).some((o) => {
      const [dx, dy, dz] = cellExtent(o);
      for (let z = 0; z + dz <= zDim; z++) {
        for (let y = 0; y + dy <= yDim; y++) {
          for (let x = 0; x + dx <= xDim; x++) {
            if (o.every((c) => open[c[0] + x + xDim * (c[1] + y + yDim * (c[2] + z))])) return true;
          }
        }
      }
      return false;
    });
    if (!fits) out.push(i);
  });
  return out;
}

// ---------------------------------------------------------------------------------------
// Validation.

/**
 * Why `name` cannot be written as a piece name in the definition format, or null when it can.
 * The format splits directive fields on ':', layout rows on whitespace and ',', starts comments
 * at '#', and uses '.' for an empty cell.
 * @param {unknown} name
 * @returns {string|null}
 */
export function nameProblem(name) {
  if (typeof name !== 'string') return 'a name must be text';
  if (name.length === 0) return 'the name is empty';
  if (name.length > LIMITS.maxNameLength) return `the name is longer than ${LIMITS.maxNameLength} characters`;
  if (name === '.') return "'.' cannot be a name: it marks an empty cell";
  if (/\s/.test(name)) return `the name '${name}' contains a space: names are single words`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'the name contains a control character';
  for (const ch of [',', ':', '#', '=']) {
    if (name.includes(ch)) return `the name '${name}' contains '${ch}', which the definition format cannot hold in a name`;
  }
  return null;
}

/**
 * Why `title` cannot be written as the title comment, or null. The engine takes the title from
 * the comment line before the D directive, without leading '#' characters and spaces, and quotes
 * at most 200 characters of it.
 */
export function titleProblem(title) {
  if (typeof title !== 'string') return 'the title must be text';
  if (title.length > LIMITS.maxTitleLength) return `the title is longer than ${LIMITS.maxTitleLength} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(title)) return 'the title must be one line without control characters';
  if (title !== title.trim()) return 'the title starts or ends with a space';
  if (title.startsWith('#')) return "the title cannot start with '#' (it is written as a comment)";
  return null;
}

/**
 * Everything that keeps `puzzle` from being a definition the engine accepts, each problem
 * naming the field and what is wrong. An empty array means the engine will accept the written
 * definition (checked against the engine over def/ in tests/js/model-puzzle.test.js).
 * The balance of cells (space vs pieces) is reported with path 'pieces'.
 * @param {Puzzle} puzzle
 * @returns {Problem[]}
 */
export function validatePuzzle(puzzle) {
  /** @type {Problem[]} */
  const problems = [];
  const add = (path, message) => problems.push({ path, message });
  if (!puzzle || typeof puzzle !== 'object') return [{ path: '', message: 'the puzzle is not an object' }];

  const tp = titleProblem(puzzle.title);
  if (tp) add('title', tp);

  let dimsOk = true;
  for (const k of ['xDim', 'yDim', 'zDim']) {
    const v = puzzle[k];
    if (!Number.isInteger(v) || v < 1) {
      add(k, `${k} must be a whole number of at least 1, got ${JSON.stringify(v)}`);
      dimsOk = false;
    } else if (v > LIMITS.maxDimension) {
      add(k, `${k}=${v} is larger than the engine's limit of ${LIMITS.maxDimension}`);
      dimsOk = false;
    }
  }
  const volume = dimsOk ? boxVolume(puzzle) : 0;
  if (dimsOk && volume > LIMITS.maxBoxVolume) {
    add('xDim', `the box has ${volume} cells, more than the engine's limit of ${LIMITS.maxBoxVolume}`);
  }
  if (typeof puzzle.oneSide !== 'boolean') add('oneSide', 'oneSide must be true or false');
  else if (puzzle.oneSide && dimsOk && puzzle.zDim !== 1) add('oneSide', `one-sided pieces need a flat box (zDim=1), not zDim=${puzzle.zDim}`);

  const holeSet = new Set();
  if (!Array.isArray(puzzle.holes)) {
    add('holes', 'holes must be a list of box cell indices');
  } else {
    let previous = -1;
    puzzle.holes.forEach((h, i) => {
      if (!Number.isInteger(h) || h < 0 || (dimsOk && h >= volume)) {
        add(`holes[${i}]`, `hole ${JSON.stringify(h)} is not a cell of the ${puzzle.xDim}x${puzzle.yDim}x${puzzle.zDim} box`);
      } else if (h <= previous) {
        add(`holes[${i}]`, `holes must be sorted without repeats (${h} after ${previous})`);
      } else {
        holeSet.add(h);
      }
      if (Number.isInteger(h)) previous = Math.max(previous, h);
    });
  }

  if (!Array.isArray(puzzle.pieces)) {
    add('pieces', 'pieces must be a list');
    return problems;
  }
  const names = new Map();
  const occupied = new Map(); // box index -> name of the stationary piece there
  let mobileCells = 0;
  let instances = 0;
  let totalCells = 0;
  let mobilePieces = 0;
  puzzle.pieces.forEach((p, i) => {
    const at = `pieces[${i}]`;
    if (!p || typeof p !== 'object') {
      add(at, `piece ${i + 1} is not an object`);
      return;
    }
    const label = typeof p.name === 'string' && p.name ? `piece '${p.name}'` : `piece ${i + 1}`;
    const np = nameProblem(p.name);
    if (np) add(`${at}.name`, `${label}: ${np}`);
    else if (p.name === HOLE_NAME) add(`${at}.name`, `the name '${HOLE_NAME}' is kept for the holes of the space`);
    else if (names.has(p.name)) add(`${at}.name`, `two pieces are named '${p.name}' (pieces ${names.get(p.name) + 1} and ${i + 1})`);
    else names.set(p.name, i);

    if (typeof p.stationary !== 'boolean') add(`${at}.stationary`, `${label}: stationary must be true or false`);
    if (!Number.isInteger(p.count) || p.count < 1) add(`${at}.count`, `${label}: the number of copies must be a whole number of at least 1`);
    else if (p.count > LIMITS.maxInstances) add(`${at}.count`, `${label}: ${p.count} copies is more than the engine's limit of ${LIMITS.maxInstances}`);
    else if (p.stationary && p.count !== 1) add(`${at}.count`, `${label}: a stationary piece cannot have copies`);

    if (!Array.isArray(p.cells) || p.cells.length === 0) {
      add(`${at}.cells`, `${label} has no cells`);
      return;
    }
    if (p.cells.length > LIMITS.maxPieceCells) {
      add(`${at}.cells`, `${label} has ${p.cells.length} cells, more than the engine's limit of ${LIMITS.maxPieceCells}`);
      return;
    }
    const seen = new Set();
    let cellsOk = true;
    for (const c of p.cells) {
      if (!Array.isArray(c) || c.length !== 3 || !c.every((v) => Number.isInteger(v) && Math.abs(v) <= LIMITS.maxCoordinate)) {
        add(`${at}.cells`, `${label} has a cell that is not three whole numbers [x, y, z]: ${JSON.stringify(c)}`);
        cellsOk = false;
        break;
      }
      const key = `${c[0]},${c[1]},${c[2]}`;
      if (seen.has(key)) {
        add(`${at}.cells`, `${label} has cell ${c.join(' ')} twice`);
        cellsOk = false;
        break;
      }
      seen.add(key);
    }
    const copies = Number.isInteger(p.count) && p.count >= 1 ? p.count : 1;
    instances += p.stationary ? 1 : copies;
    totalCells += p.cells.length * (p.stationary ? 1 : copies);
    if (!p.stationary) {
      mobilePieces++;
      mobileCells += p.cells.length * copies;
      return;
    }
    if (!cellsOk || !dimsOk) return;
    for (const c of p.cells) {
      const [x, y, z] = c;
      if (x < 0 || y < 0 || z < 0 || x >= puzzle.xDim || y >= puzzle.yDim || z >= puzzle.zDim) {
        add(`${at}.cells`, `stationary ${label} has cell ${c.join(' ')} outside the ${puzzle.xDim}x${puzzle.yDim}x${puzzle.zDim} box`);
        return;
      }
      const index = boxIndex(puzzle, x, y, z);
      if (holeSet.has(index)) {
        add(`${at}.cells`, `stationary ${label} has cell ${c.join(' ')} on a hole of the space`);
        return;
      }
      if (occupied.has(index)) {
        add(`${at}.cells`, `stationary ${label} overlaps stationary piece '${occupied.get(index)}' at cell ${c.join(' ')}`);
        return;
      }
      occupied.set(index, p.name);
    }
  });
  totalCells += holeSet.size;
  if (holeSet.size > 0) instances += 1;
  if (instances > LIMITS.maxInstances) add('pieces', `${instances} pieces with copies is more than the engine's limit of ${LIMITS.maxInstances}`);
  if (totalCells > LIMITS.maxBoxVolume) add('pieces', `the pieces have ${totalCells} cells in all, more than the engine's limit of ${LIMITS.maxBoxVolume}`);
  if (mobilePieces === 0) add('pieces', 'the puzzle has no pieces to place yet');
  if (dimsOk) {
    const space = volume - holeSet.size - occupied.size;
    if (mobileCells !== space) add('pieces', `the pieces have ${mobileCells} cells but the space has ${space}`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------
// Editing helpers (pure: each returns a new puzzle; the UI wraps them in undoable commands).

/**
 * A new empty puzzle: the whole box is space, no pieces.
 * @param {{xDim: number, yDim: number, zDim?: number, title?: string, oneSide?: boolean}} spec
 * @returns {Puzzle}
 */
export function emptyPuzzle({ xDim, yDim, zDim = 1, title = '', oneSide = false }) {
  return { title, xDim, yDim, zDim, oneSide, holes: [], pieces: [] };
}

/**
 * `wanted` if no piece has that name (and it is not the holes' '*'), else `wanted` followed by
 * the smallest number 2, 3, ... that makes it unused.
 * @param {Puzzle} puzzle
 * @param {string} wanted
 */
export function uniqueName(puzzle, wanted) {
  const taken = new Set(puzzle.pieces.map((p) => p.name));
  taken.add(HOLE_NAME);
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted}${n}`)) return `${wanted}${n}`;
}

/**
 * Append pieces (e.g. a set from piece-sets.js) with `copies` copies each; names that are
 * taken get a number (uniqueName). Mobile pieces are normalised.
 * @param {Puzzle} puzzle
 * @param {Piece[]} pieces
 * @param {number} [copies]
 * @returns {Puzzle}
 */
export function addPieces(puzzle, pieces, copies = 1) {
  const out = { ...puzzle, pieces: [...puzzle.pieces] };
  for (const p of pieces) {
    const name = uniqueName(out, p.name);
    out.pieces.push(normalisePiece({ name, cells: p.cells, count: p.stationary ? 1 : copies, stationary: p.stationary === true }));
  }
  return out;
}

/**
 * Make the given box cells holes (`hole` true) or give them back to the space (false):
 * the editor's click and drag-paint. Indices outside the box are ignored.
 * @param {Puzzle} puzzle
 * @param {number[]} indices box indices
 * @param {boolean} hole
 * @returns {Puzzle}
 */
export function setHoles(puzzle, indices, hole) {
  const volume = boxVolume(puzzle);
  const holes = new Set(puzzle.holes);
  for (const i of indices) {
    if (!Number.isInteger(i) || i < 0 || i >= volume) continue;
    if (hole) holes.add(i);
    else holes.delete(i);
  }
  return { ...puzzle, holes: [...holes].sort((a, b) => a - b) };
}

/**
 * The puzzle in a box of another size: holes keep their (x, y, z) and are dropped when they
 * fall outside; stationary pieces keep their cells (validatePuzzle reports any now outside);
 * oneSide is cleared when the box is no longer flat.
 * @param {Puzzle} puzzle
 * @param {number} xDim
 * @param {number} yDim
 * @param {number} zDim
 * @returns {Puzzle}
 */
export function resizeBox(puzzle, xDim, yDim, zDim) {
  const resized = { ...puzzle, xDim, yDim, zDim, oneSide: puzzle.oneSide && zDim === 1 };
  const holes = [];
  for (const h of puzzle.holes) {
    const [x, y, z] = boxCell(puzzle, h);
    if (x < xDim && y < yDim && z < zDim) holes.push(boxIndex(resized, x, y, z));
  }
  resized.holes = holes.sort((a, b) => a - b);
  return resized;
}
