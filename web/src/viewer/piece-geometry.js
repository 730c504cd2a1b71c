// Geometry for polycube pieces: each piece is one closed surface (faces between cells of the same
// piece are dropped), shrunk by `gap` on every outer face so neighbouring pieces stand apart, plus
// an outline along every crease (convex or concave edge) of that surface. Flat continuations
// between cells of one piece carry no line, so a piece reads as one shape, not as a pile of cubes.
//
// Pure data in, typed arrays out (no three.js), so it can be tested without WebGL.

// The 6 face directions: axis and sign.
const CONVEX = 0, FLAT = 1, CONCAVE = 2;
const SEAM = 0.0015;

const DIRS = [
  [0, 1], [0, -1], [1, 1], [1, -1], [2, 1], [2, -1],
];

/**
 * @param {object} o
 * @param {number[]} o.dims       [X, Y, Z] of the box the cells live in
 * @param {Array<{cells: ArrayLike<number>, color?: {r:number,g:number,b:number}}>} o.groups
 *        cells are box cell indices x + X*(y + Y*z)
 * @param {number} [o.gap=0.05]   inset of each outer face
 * @returns {{positions: Float32Array, normals: Float32Array, colors: Float32Array,
 *            indices: Uint32Array, vertexGroup: Uint32Array,
 *            linePositions: Float32Array, lineGroup: Uint32Array}}
 */
export function buildPieceGeometry({ dims, groups, gap = 0.05 }) {
  const [X, Y, Z] = dims;
  const owner = new Int32Array(X * Y * Z).fill(-1);
  let faceEstimate = 0;
  groups.forEach((g, gi) => {
    for (let k = 0; k < g.cells.length; k++) owner[g.cells[k]] = gi;
    faceEstimate += g.cells.length * 6;
  });

  const at = (x, y, z) => (x < 0 || y < 0 || z < 0 || x >= X || y >= Y || z >= Z ? -1 : owner[x + X * (y + Y * z)]);

  // Upper bounds (3 quads and 12 line segments per face); trimmed at the end.
  const pos = new Float32Array(faceEstimate * 12 * 3);
  const nor = new Float32Array(faceEstimate * 12 * 3);
  const col = new Float32Array(faceEstimate * 12 * 3);
  const vgroup = new Uint32Array(faceEstimate * 12);
  const idx = new Uint32Array(faceEstimate * 18);
  const lpos = new Float32Array(faceEstimate * 12 * 2 * 3);
  const lgroup = new Uint32Array(faceEstimate * 12 * 2);
  let nv = 0, ni = 0, nl = 0;

  const c = [0, 0, 0];
  const p = [0, 0, 0];
  const extent = [0, 0, 0, 0];   // u low, u high, v low, v high
  const sideKind = [0, 0, 0, 0]; // CONVEX | FLAT | CONCAVE, same order
  const cutCorner = [false, false, false, false]; // (u low|high) * 2 + (v low|high)

  for (let gi = 0; gi < groups.length; gi++) {
    const g = groups[gi];
    const color = g.color || { r: 0.7, g: 0.7, b: 0.7 };
    for (let k = 0; k < g.cells.length; k++) {
      const cell = g.cells[k];
      c[0] = cell % X;
      c[1] = Math.floor(cell / X) % Y;
      c[2] = Math.floor(cell / (X * Y));
      for (const [a, s] of DIRS) {
        p[0] = c[0]; p[1] = c[1]; p[2] = c[2];
        p[a] += s;
        if (at(p[0], p[1], p[2]) === gi) continue; // internal face
        const u = (a + 1) % 3, v = (a + 2) % 3;
        const plane = s > 0 ? c[a] + 1 - gap : c[a] + gap;
        // Extent along each tangent axis t (0: u, 1: v) and side (0: low, 1: high):
        // convex edge -> inset by gap; flat continuation -> cell boundary; concave -> out by gap.
        for (let t = 0; t < 2; t++) {
          const axis = t === 0 ? u : v;
          for (let side = 0; side < 2; side++) {
            const sg = side ? 1 : -1;
            p[0] = c[0]; p[1] = c[1]; p[2] = c[2];
            p[axis] += sg;
            const boundary = side ? c[axis] + 1 : c[axis];
            let ext, kind;
            if (at(p[0], p[1], p[2]) !== gi) { ext = boundary - sg * gap; kind = CONVEX; }
            else {
              p[a] += s;
              if (at(p[0], p[1], p[2]) === gi) { ext = boundary + sg * gap; kind = CONCAVE; }
              else { ext = boundary; kind = FLAT; }
            }
            extent[t * 2 + side] = ext;
            sideKind[t * 2 + side] = kind;
          }
        }
        // Corners: where both sides go on (not convex) but the diagonal cell is not in the piece,
        // the erosion leaves a notch (a reflex vertical edge of the piece): cut it out.
        for (let cu = 0; cu < 2; cu++) {
          for (let cv = 0; cv < 2; cv++) {
            let cut = false;
            if (sideKind[cu] !== CONVEX && sideKind[2 + cv] !== CONVEX) {
              p[0] = c[0]; p[1] = c[1]; p[2] = c[2];
              p[u] += cu ? 1 : -1;
              p[v] += cv ? 1 : -1;
              cut = at(p[0], p[1], p[2]) !== gi;
            }
            cutCorner[cu * 2 + cv] = cut;
          }
        }
        const uLo = extent[0], uHi = extent[1], vLo = extent[2], vHi = extent[3];
        const uIn0 = c[u] + gap, uIn1 = c[u] + 1 - gap; // inner breaks
        const vIn0 = c[v] + gap, vIn1 = c[v] + 1 - gap;
        // Up to three quads: the middle column over the full v range, and the two side columns
        // shortened where their corners are cut.
        const emitQuad = (u0, u1, v0, v1) => {
          if (u1 - u0 <= 1e-6 || v1 - v0 <= 1e-6) return;
          // Overlap neighbouring quads of the same plane a hair, so T-junctions leave no cracks.
          u0 -= SEAM; u1 += SEAM; v0 -= SEAM; v1 += SEAM;
          const base = nv;
          const cu4 = [u0, u1, u1, u0];
          const cv4 = [v0, v0, v1, v1];
          for (let q = 0; q < 4; q++) {
            const o = nv * 3;
            pos[o + a] = plane; pos[o + u] = cu4[q]; pos[o + v] = cv4[q];
            nor[o] = 0; nor[o + 1] = 0; nor[o + 2] = 0; nor[o + a] = s;
            col[o] = color.r; col[o + 1] = color.g; col[o + 2] = color.b;
            vgroup[nv] = gi;
            nv++;
          }
          // (u, v, a) is a right-handed cyclic permutation, so u x v = +a.
          if (s > 0) { idx[ni++] = base; idx[ni++] = base + 1; idx[ni++] = base + 2; idx[ni++] = base; idx[ni++] = base + 2; idx[ni++] = base + 3; }
          else { idx[ni++] = base; idx[ni++] = base + 2; idx[ni++] = base + 1; idx[ni++] = base; idx[ni++] = base + 3; idx[ni++] = base + 2; }
        };
        const seg = (u0, v0, u1, v1) => {
          if (Math.abs(u1 - u0) + Math.abs(v1 - v0) <= 1e-6) return;
          let o = nl * 3;
          lpos[o + a] = plane; lpos[o + u] = u0; lpos[o + v] = v0;
          lgroup[nl++] = gi;
          o = nl * 3;
          lpos[o + a] = plane; lpos[o + u] = u1; lpos[o + v] = v1;
          lgroup[nl++] = gi;
        };
        const leftV0 = cutCorner[0] ? vIn0 : vLo, leftV1 = cutCorner[1] ? vIn1 : vHi;
        const rightV0 = cutCorner[2] ? vIn0 : vLo, rightV1 = cutCorner[3] ? vIn1 : vHi;
        const lowU0 = cutCorner[0] ? uIn0 : uLo, lowU1 = cutCorner[2] ? uIn1 : uHi;
        const highU0 = cutCorner[1] ? uIn0 : uLo, highU1 = cutCorner[3] ? uIn1 : uHi;
        emitQuad(uIn0, uIn1, vLo, vHi);
        emitQuad(uLo, uIn0, leftV0, leftV1);
        emitQuad(uIn1, uHi, rightV0, rightV1);
        // outline along creases
        if (sideKind[0] !== FLAT) seg(uLo, leftV0, uLo, leftV1);
        if (sideKind[1] !== FLAT) seg(uHi, rightV0, uHi, rightV1);
        if (sideKind[2] !== FLAT) seg(lowU0, vLo, lowU1, vLo);
        if (sideKind[3] !== FLAT) seg(highU0, vHi, highU1, vHi);
        // notch outlines
        if (cutCorner[0]) { seg(uIn0, vLo, uIn0, vIn0); seg(uLo, vIn0, uIn0, vIn0); }
        if (cutCorner[1]) { seg(uIn0, vHi, uIn0, vIn1); seg(uLo, vIn1, uIn0, vIn1); }
        if (cutCorner[2]) { seg(uIn1, vLo, uIn1, vIn0); seg(uHi, vIn0, uIn1, vIn0); }
        if (cutCorner[3]) { seg(uIn1, vHi, uIn1, vIn1); seg(uHi, vIn1, uIn1, vIn1); }
      }
    }
  }
  return {
    positions: pos.slice(0, nv * 3),
    normals: nor.slice(0, nv * 3),
    colors: col.slice(0, nv * 3),
    vertexGroup: vgroup.slice(0, nv),
    indices: idx.slice(0, ni),
    linePositions: lpos.slice(0, nl * 3),
    lineGroup: lgroup.slice(0, nl),
  };
}

/** Box cell index of [x, y, z]. */
export function cellIndex(dims, x, y, z) {
  return x + dims[0] * (y + dims[1] * z);
}
