// The page's pure modules, in Node (no browser needed): piece geometry, solution store, colours.
import { describe, expect, test } from 'vitest';
import { buildPieceGeometry } from '../../web/src/viewer/piece-geometry.js';
import { SolutionStore, MAX_STORED } from '../../web/src/ui/solution-store.js';
import { pieceColorHex, puzzleColors } from '../../web/src/viewer/colors.js';

/** Total area of the triangles of a geometry. */
function meshArea(geo) {
  const P = geo.positions, I = geo.indices;
  let area = 0;
  for (let t = 0; t < I.length; t += 3) {
    const a = [0, 1, 2].map((k) => [P[I[t + k] * 3], P[I[t + k] * 3 + 1], P[I[t + k] * 3 + 2]]);
    const u = a[1].map((v, i) => v - a[0][i]);
    const w = a[2].map((v, i) => v - a[0][i]);
    const c = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    area += Math.hypot(...c) / 2;
  }
  return area;
}

/** Surface area of a polycube shrunk by `g` (L-infinity erosion), by sampling each face plane. */
function erodedArea(dims, cells, g, n = 100) {
  const [X, Y, Z] = dims;
  const set = new Set(cells.map(([x, y, z]) => x + X * (y + Y * z)));
  const inside = (p) => {
    const q = p.map(Math.floor);
    if (q.some((v, i) => v < 0 || v >= dims[i])) return false;
    return set.has(q[0] + X * (q[1] + Y * q[2]));
  };
  const inS = (p) => {
    for (const dx of [-1, 1]) for (const dy of [-1, 1]) for (const dz of [-1, 1]) {
      if (!inside([p[0] + dx * g * 0.9999, p[1] + dy * g * 0.9999, p[2] + dz * g * 0.9999])) return false;
    }
    return true;
  };
  let area = 0;
  for (let a = 0; a < 3; a++) {
    const u = (a + 1) % 3, v = (a + 2) % 3;
    for (let k = 0; k <= dims[a]; k++) {
      for (const h of [k - g, k + g]) {
        let count = 0;
        for (let i = 0; i < dims[u] * n; i++) {
          for (let j = 0; j < dims[v] * n; j++) {
            const p = [0, 0, 0];
            p[u] = (i + 0.5) / n;
            p[v] = (j + 0.5) / n;
            const lo = [...p], hi = [...p];
            lo[a] = h - 1e-4;
            hi[a] = h + 1e-4;
            if (inS(lo) !== inS(hi)) count++;
          }
        }
        area += count / (n * n);
      }
    }
  }
  return area;
}

describe('piece geometry', () => {
  const shapes = [
    ['L tromino', [3, 3, 1], [[0, 0, 0], [1, 0, 0], [0, 1, 0]]],
    ['X pentomino', [3, 3, 1], [[1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [1, 2, 0]]],
    ['W pentomino', [3, 3, 1], [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0], [2, 2, 0]]],
    ['Soma P', [2, 2, 2], [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]],
    ['twisted', [3, 3, 2], [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1], [2, 1, 1]]],
  ];
  test.each(shapes)('%s: the surface is the piece shrunk by the gap', (name, dims, cells) => {
    const g = 0.08;
    const [X, Y] = dims;
    const geo = buildPieceGeometry({ dims, groups: [{ cells: cells.map(([x, y, z]) => x + X * (y + Y * z)) }], gap: g });
    // within 2%: quads overlap by a hair (0.0015 per side) to hide T-junction cracks
    const exact = erodedArea(dims, cells, g, 50);
    expect(Math.abs(meshArea(geo) - exact) / exact).toBeLessThan(0.02);
    expect(geo.linePositions.length % 6).toBe(0);
    expect(geo.vertexGroup.every((v) => v === 0)).toBe(true);
  });

  test('two pieces side by side each get their own faces', () => {
    const geo = buildPieceGeometry({ dims: [2, 1, 1], groups: [{ cells: [0] }, { cells: [1] }], gap: 0.05 });
    const groups = new Set(geo.vertexGroup);
    expect([...groups].sort()).toEqual([0, 1]);
    expect(geo.indices.length / 6).toBe(12); // 6 faces each
  });
});

describe('solution store', () => {
  test('stores grids compactly and returns them', () => {
    const s = new SolutionStore(4, 12);
    expect(s.Type).toBe(Uint8Array);
    s.add(Int32Array.from([0, 1, 2, 3, 3, 2, 1, 0]), 2);
    s.add(Int32Array.from([5, 5, 5, 5]), 1);
    expect(s.stored).toBe(3);
    expect(s.total).toBe(3);
    expect(Array.from(s.get(1))).toEqual([3, 2, 1, 0]);
    expect(Array.from(s.get(2))).toEqual([5, 5, 5, 5]);
  });

  test('keeps at most the cap but counts everything', () => {
    const s = new SolutionStore(2, 300);
    expect(s.Type).toBe(Uint16Array);
    expect(s.cap).toBe(MAX_STORED);
    const batch = new Int32Array(2 * 60_000).fill(299);
    s.add(batch, 60_000);
    s.add(batch, 60_000);
    expect(s.stored).toBe(MAX_STORED);
    expect(s.total).toBe(120_000);
    expect(s.full).toBe(true);
    expect(Array.from(s.get(MAX_STORED - 1))).toEqual([299, 299]);
  });

  test('big boards store fewer solutions (memory budget)', () => {
    const s = new SolutionStore(23 * 23 * 10, 100);
    expect(s.cap).toBeLessThan(MAX_STORED);
    expect(s.cap * 23 * 23 * 10).toBeLessThanOrEqual(64 * 1024 * 1024);
  });
});

describe('colours', () => {
  test('distinct colours for up to 20 pieces, stable per piece', () => {
    for (const n of [7, 12, 17, 20]) {
      const colours = Array.from({ length: n }, (_, i) => pieceColorHex(i, n));
      expect(new Set(colours).size).toBe(n);
    }
    const puzzle = {
      pieces: [{ name: 'A', stationary: false, count: 2 }, { name: '*', stationary: true, count: 1 }, { name: 'B', stationary: false, count: 1 }],
      instances: [{ name: 'A', piece: 0, stationary: false }, { name: 'A', piece: 0, stationary: false },
        { name: '*', piece: 1, stationary: true }, { name: 'B', piece: 2, stationary: false }],
    };
    const c = puzzleColors(puzzle);
    expect(c.byPiece.get(0)).not.toBe(c.byPiece.get(2));
    // copies of a piece: same hue family, not the identical colour
    expect(c.instanceColor(0).getHexString()).not.toBe(c.instanceColor(1).getHexString());
  });
});
