// A polycube piece as one closed, manifold, outward-facing solid for a 3-D printer: the piece
// shrunk by `gap` on every side (the erosion of its cells by a cube of half-size `gap`), so that
// printed pieces in their places in a solution stand `2 * gap` apart and slide past each other.
//
// Construction: every cell is split along each axis at k + gap and k + 1 - gap into three
// slabs, a grid on which the eroded piece is exactly a union of sub-boxes. A sub-box belongs to
// the solid when every cell its `gap` neighbourhood reaches belongs to the piece (near a cell's
// low face that includes the cell below, near its high face the cell above). The surface is the
// set of sub-box faces between a box in the solid and one outside, each split into two
// triangles whose corners are shared grid points. Along each axis the neighbourhoods of two
// consecutive slabs are nested, so the solid never has two sub-boxes meeting only along an
// edge or at a corner: every edge of the surface lies on exactly two triangles (where the
// piece's own cells meet only along an edge, the erosion pulls them apart).
//
//   pieceSolid([X, Y, Z], cells, gap) // { positions: Float32Array (cell units), indices: Uint32Array }
//
// Pure data in, typed arrays out (no three.js): the STL export (piece-emphasis.js) wraps it in a
// BufferGeometry for three.js's STLExporter, and tests check it without WebGL.

/**
 * @param {number[]} dims [X, Y, Z] of the box the cells live in
 * @param {ArrayLike<number>} cells box cell indices x + X * (y + Y * z) of one piece
 * @param {number} gap inset of every face, in cells (0 < gap < 0.5)
 */
export function pieceSolid(dims, cells, gap) {
  if (!(gap > 0 && gap < 0.5)) throw new RangeError(`pieceSolid: gap ${gap} is not between 0 and 0.5`);
  const [X, Y] = dims;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  const coords = [];
  for (let k = 0; k < cells.length; k++) {
    const c = cells[k];
    const p = [c % X, Math.floor(c / X) % Y, Math.floor(c / (X * Y))];
    coords.push(p);
    for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], p[a]); hi[a] = Math.max(hi[a], p[a]); }
  }
  if (!coords.length) return { positions: new Float32Array(0), indices: new Uint32Array(0) };
  // the piece's cells in a local box with one empty cell all round
  const n = [0, 1, 2].map((a) => hi[a] - lo[a] + 3);
  const inPiece = new Uint8Array(n[0] * n[1] * n[2]);
  const cellAt = (x, y, z) => x + n[0] * (y + n[1] * z);
  for (const p of coords) inPiece[cellAt(p[0] - lo[0] + 1, p[1] - lo[1] + 1, p[2] - lo[2] + 1)] = 1;

  // sub-boxes: three slabs per cell along each axis (0: within gap of the low face, 2: of the high face)
  const m = n.map((v) => 3 * v);
  const solid = new Uint8Array(m[0] * m[1] * m[2]);
  const subAt = (i, j, k) => i + m[0] * (j + m[1] * k);
  const reach = (t) => (t === 0 ? [-1, 0] : t === 1 ? [0, 0] : [0, 1]); // neighbour cells a slab's gap touches
  for (let k = 3; k < m[2] - 3; k++) {
    for (let j = 3; j < m[1] - 3; j++) {
      for (let i = 3; i < m[0] - 3; i++) {
        const cx = Math.floor(i / 3), cy = Math.floor(j / 3), cz = Math.floor(k / 3);
        const [x0, x1] = reach(i % 3), [y0, y1] = reach(j % 3), [z0, z1] = reach(k % 3);
        let all = 1;
        for (let dz = z0; dz <= z1 && all; dz++) {
          for (let dy = y0; dy <= y1 && all; dy++) {
            for (let dx = x0; dx <= x1 && all; dx++) all = inPiece[cellAt(cx + dx, cy + dy, cz + dz)];
          }
        }
        solid[subAt(i, j, k)] = all;
      }
    }
  }

  // grid points: coordinate of the i-th point along an axis, in the puzzle's cells
  const cut = [0, gap, 1 - gap];
  const coord = (a, i) => lo[a] - 1 + Math.floor(i / 3) + cut[i % 3];
  const vertexOf = new Map();
  const positions = [];
  const vertex = (i, j, k) => {
    const key = i + (m[0] + 1) * (j + (m[1] + 1) * k);
    let v = vertexOf.get(key);
    if (v === undefined) {
      v = positions.length / 3;
      vertexOf.set(key, v);
      positions.push(coord(0, i), coord(1, j), coord(2, k));
    }
    return v;
  };
  const indices = [];
  const corner = [0, 0, 0];
  const at = (a, u, v, pa, pu, pv) => {
    corner[a] = pa; corner[u] = pu; corner[v] = pv;
    return vertex(corner[0], corner[1], corner[2]);
  };
  const step = [1, m[0], m[0] * m[1]];
  for (let k = 0; k < m[2]; k++) {
    for (let j = 0; j < m[1]; j++) {
      for (let i = 0; i < m[0]; i++) {
        const s = subAt(i, j, k);
        if (!solid[s]) continue;
        const here = [i, j, k];
        for (let a = 0; a < 3; a++) {
          // (u, v, a) is a right-handed cyclic order: u x v = +a
          const u = (a + 1) % 3, v = (a + 2) % 3;
          const pu = here[u], pv = here[v];
          // the face toward -a, then toward +a, when the sub-box there is outside the solid
          if (!solid[s - step[a]]) {
            const pa = here[a];
            const q = [at(a, u, v, pa, pu, pv), at(a, u, v, pa, pu, pv + 1), at(a, u, v, pa, pu + 1, pv + 1), at(a, u, v, pa, pu + 1, pv)];
            indices.push(q[0], q[1], q[2], q[0], q[2], q[3]);
          }
          if (!solid[s + step[a]]) {
            const pa = here[a] + 1;
            const q = [at(a, u, v, pa, pu, pv), at(a, u, v, pa, pu + 1, pv), at(a, u, v, pa, pu + 1, pv + 1), at(a, u, v, pa, pu, pv + 1)];
            indices.push(q[0], q[1], q[2], q[0], q[2], q[3]);
          }
        }
      }
    }
  }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}
