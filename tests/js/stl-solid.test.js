// The 3-D print export (viewer/stl-export.js, viewer/piece-solid.js) read back from its binary
// STL bytes, as a slicer reads it: each piece must be one closed, manifold, outward-facing
// solid (every edge on exactly two triangles, met in opposite directions; a surface with the
// Euler characteristic of a sphere; each triangle's normal pointing out of the shrunk piece),
// with the volume of the piece shrunk by the gap.
import { describe, expect, test } from 'vitest';
import { pieceSet } from '../../web/src/model/piece-sets.js';
import { shapeKey } from '../../web/src/model/puzzle.js';
import { STL_GAP, STL_MM_PER_CELL, piecesStl } from '../../web/src/viewer/stl-export.js';

/** The triangles of a binary STL: [{n: [x,y,z], v: [[x,y,z] x3]}]. */
function readStl(view) {
  const count = view.getUint32(80, true);
  expect(view.byteLength).toBe(84 + 50 * count);
  const tris = [];
  for (let t = 0; t < count; t++) {
    const o = 84 + 50 * t;
    const f = (k) => view.getFloat32(o + 4 * k, true);
    tris.push({ n: [f(0), f(1), f(2)], v: [[f(3), f(4), f(5)], [f(6), f(7), f(8)], [f(9), f(10), f(11)]] });
  }
  return tris;
}

/** Whether a point (mm) lies inside the piece shrunk by the gap: the box of half-size gap
 * around it lies in the piece's cells (the box is smaller than a cell: its corners say). */
function insideShrunk(cellSet, point) {
  const g = STL_GAP;
  for (const dx of [-g, g]) for (const dy of [-g, g]) for (const dz of [-g, g]) {
    const c = [point[0] / STL_MM_PER_CELL + dx, point[1] / STL_MM_PER_CELL + dy, point[2] / STL_MM_PER_CELL + dz].map(Math.floor);
    if (!cellSet.has(c.join(','))) return false;
  }
  return true;
}

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/**
 * Check every solid of an STL; `pieces`: [{name, cells: [[x,y,z]...]}] in the same box.
 * Returns the solids found: [{triangles, volume}].
 */
function checkSolids(view, pieces) {
  const tris = readStl(view);
  // weld corners by position; the pieces stand apart, so no corner is shared between two
  const ids = new Map();
  const id = (p) => {
    const k = p.join(',');
    if (!ids.has(k)) ids.set(k, ids.size);
    return ids.get(k);
  };
  const corners = tris.map((t) => t.v.map(id));
  // edges: each undirected edge on exactly two triangles, once in each direction
  const directed = new Map();
  const problems = [];
  corners.forEach((c, t) => {
    if (new Set(c).size !== 3) problems.push(`triangle ${t} is degenerate`);
    for (let e = 0; e < 3; e++) {
      const key = `${c[e]}>${c[(e + 1) % 3]}`;
      if (directed.has(key)) problems.push(`edge ${key} is met twice in the same direction (inconsistent winding or a non-manifold edge)`);
      directed.set(key, t);
    }
  });
  for (const key of directed.keys()) {
    const [a, b] = key.split('>');
    if (!directed.has(`${b}>${a}`)) problems.push(`edge ${key} lies on one triangle only (a hole)`);
  }
  expect(problems.slice(0, 5)).toEqual([]);
  // solids: triangles joined by shared edges
  const parent = tris.map((_, i) => i);
  const find = (i) => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (const [key, t] of directed) {
    const [a, b] = key.split('>');
    parent[find(t)] = find(directed.get(`${b}>${a}`));
  }
  const solids = new Map();
  tris.forEach((t, i) => {
    const r = find(i);
    if (!solids.has(r)) solids.set(r, { tris: [], vertices: new Set() });
    solids.get(r).tris.push(i);
    for (const c of corners[i]) solids.get(r).vertices.add(c);
  });
  expect(solids.size).toBe(pieces.length);
  const out = [];
  for (const { tris: list, vertices } of solids.values()) {
    // a closed surface of genus 0: V - E + F = 2 (E = 3F / 2)
    expect(vertices.size - (3 * list.length) / 2 + list.length).toBe(2);
    // which piece: the one whose cells hold the solid's first corner
    const first = tris[list[0]].v[0];
    const piece = pieces.find((p) => p.cells.some(([x, y, z]) => [x, y, z].every((c, a) => first[a] / STL_MM_PER_CELL >= c && first[a] / STL_MM_PER_CELL <= c + 1)));
    const cellSet = new Set(piece.cells.map((c) => c.join(',')));
    let volume = 0;
    for (const i of list) {
      const { n, v } = tris[i];
      const normal = cross(sub(v[1], v[0]), sub(v[2], v[0]));
      const len = Math.hypot(...normal);
      // the stored normal agrees with the winding, and points out of the shrunk piece
      if (!(len > 1e-6 && Math.abs(dot(n, normal) / len - 1) < 1e-5)) problems.push(`${piece.name}: triangle ${i}'s normal is not its winding's`);
      const centre = [0, 1, 2].map((a) => (v[0][a] + v[1][a] + v[2][a]) / 3);
      const eps = 0.05; // mm: less than the gap (0.25 mm) and than any sub-face
      if (!insideShrunk(cellSet, centre.map((c, a) => c - eps * n[a]))) problems.push(`${piece.name}: outside behind triangle ${i}`);
      if (insideShrunk(cellSet, centre.map((c, a) => c + eps * n[a]))) problems.push(`${piece.name}: inside in front of triangle ${i}`);
      volume += dot(v[0], cross(v[1], v[2])) / 6;
    }
    out.push({ name: piece.name, triangles: list.length, volume, vertices });
  }
  expect(problems.slice(0, 5)).toEqual([]);
  // no two solids share a corner (they stand apart)
  const all = new Set();
  for (const x of out) for (const v of x.vertices) all.add(v);
  expect(all.size).toBe(out.reduce((t, x) => t + x.vertices.size, 0));
  return out;
}

const boxIndex = (dims, [x, y, z]) => x + dims[0] * (y + dims[1] * z);

/** Pieces given as cells [[x,y,z]...], set side by side (2 cells apart) along x in one box. */
function sideBySide(pieces) {
  let x0 = 0;
  const placed = pieces.map((p) => {
    const cells = p.cells.map(([x, y, z]) => [x + x0, y, z]);
    x0 += Math.max(...p.cells.map((c) => c[0])) + 3;
    return { name: p.name, cells };
  });
  const dims = [x0, 1 + Math.max(...placed.flatMap((p) => p.cells.map((c) => c[1]))), 1 + Math.max(...placed.flatMap((p) => p.cells.map((c) => c[2])))];
  return { dims, placed };
}

const exportOf = (dims, placed) => piecesStl(dims, placed.map((p) => ({ name: p.name, cells: p.cells.map((c) => boxIndex(dims, c)) })));

describe('the STL export: closed, manifold, outward-facing solids', () => {
  test('a single cube and a straight bar have the shrunk volume', () => {
    const g = STL_GAP * STL_MM_PER_CELL, s = STL_MM_PER_CELL;
    const { dims, placed } = sideBySide([{ name: 'one', cells: [[0, 0, 0]] }, { name: 'bar', cells: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]] }]);
    const out = exportOf(dims, placed);
    const solids = checkSolids(out.data, placed);
    const vol = Object.fromEntries(solids.map((x) => [x.name, x.volume]));
    expect(vol.one).toBeCloseTo((s - 2 * g) ** 3, 1);
    expect(vol.bar).toBeCloseTo((4 * s - 2 * g) * (s - 2 * g) ** 2, 1);
    expect(out.triangles).toBe(solids.reduce((t, x) => t + x.triangles, 0));
  });

  for (const id of ['soma', 'tetris-cube', 'bedlam', 'pentacubes']) {
    test(`every piece of the ${pieceSet(id).title} set`, () => {
      const { dims, placed } = sideBySide(pieceSet(id).pieces);
      const out = exportOf(dims, placed);
      expect(out.pieces).toBe(placed.length);
      const solids = checkSolids(out.data, placed);
      for (const x of solids) {
        const cells = placed.find((p) => p.name === x.name).cells.length;
        // less than the cells' volume, more than the cells each shrunk alone
        expect(x.volume).toBeLessThan(cells * STL_MM_PER_CELL ** 3);
        expect(x.volume).toBeGreaterThan(cells * (STL_MM_PER_CELL * (1 - 2 * STL_GAP)) ** 3);
      }
    });
  }

  test('a Soma solution in its box: seven solids that do not touch', () => {
    // a solution (layers bottom first, rows y = 0 first); each piece's cells are checked
    // against the set's shape below
    const layers = [['LBB', 'LBP', 'LPP'], ['ZZB', 'TVV', 'LAP'], ['TZZ', 'TVA', 'TAA']];
    const dims = [3, 3, 3];
    const byName = new Map();
    layers.forEach((rows, z) => rows.forEach((row, y) => [...row].forEach((ch, x) => {
      if (!byName.has(ch)) byName.set(ch, []);
      byName.get(ch).push([x, y, z]);
    })));
    const placed = [...byName].map(([name, cells]) => ({ name, cells }));
    expect(placed.length).toBe(7);
    for (const p of placed) expect(shapeKey(p.cells, false)).toBe(shapeKey(pieceSet('soma').pieces.find((q) => q.name === p.name).cells, false));
    const solids = checkSolids(exportOf(dims, placed).data, placed);
    expect(solids.map((x) => x.name).sort()).toEqual(['A', 'B', 'L', 'P', 'T', 'V', 'Z']);
  });

  test('cells of one piece meeting only along an edge or at a corner still make a manifold solid', () => {
    const edgeOnly = { name: 'edge', cells: [[0, 0, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1]] };
    const cornerOnly = { name: 'corner', cells: [[1, 1, 1], [1, 1, 0], [2, 1, 0], [3, 1, 0], [3, 1, 1], [3, 1, 2], [3, 2, 2], [2, 2, 2]] };
    const { dims, placed } = sideBySide([edgeOnly, cornerOnly]);
    checkSolids(exportOf(dims, placed).data, placed);
  });
});
