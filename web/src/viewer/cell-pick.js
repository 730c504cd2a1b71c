// Which cell of the puzzle lies under a point of the 3-D view, and where a cell is on the screen
// (the lesson's "click the cell" questions, and the tests that click one). A board is a plane
// (z = 0, where its cells lie); in a box the ray is walked cell by cell (Amanatides and Woo's
// grid traversal) to the first cell it enters that is empty in `grid` (or any cell, without one).
//
//   cellAt(viewer, puzzle, clientX, clientY, grid?)  // box cell index, or -1
//   cellToClient(viewer, puzzle, cell)               // {x, y} in client pixels
import { Raycaster, Vector2, Vector3 } from 'three';

const raycaster = new Raycaster();

function rayThrough(viewer, clientX, clientY) {
  const rect = viewer.canvas.getBoundingClientRect();
  const ndc = new Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(ndc, viewer.camera);
  return raycaster.ray;
}

export function cellAt(viewer, puzzle, clientX, clientY, grid = null) {
  const { xDim: X, yDim: Y, zDim: Z } = puzzle;
  const { origin: o, direction: d } = rayThrough(viewer, clientX, clientY);
  if (Z === 1) {
    if (Math.abs(d.z) < 1e-9) return -1;
    const t = -o.z / d.z;
    if (t < 0) return -1;
    const x = Math.floor(o.x + t * d.x), y = Math.floor(o.y + t * d.y);
    return x >= 0 && x < X && y >= 0 && y < Y ? x + X * y : -1;
  }
  // enter the box [0, X] x [0, Y] x [0, Z]
  let t0 = 0, t1 = Infinity;
  const lo = [0, 0, 0], hi = [X, Y, Z], oa = [o.x, o.y, o.z], da = [d.x, d.y, d.z];
  for (let k = 0; k < 3; k++) {
    if (Math.abs(da[k]) < 1e-12) {
      if (oa[k] < lo[k] || oa[k] > hi[k]) return -1;
      continue;
    }
    let a = (lo[k] - oa[k]) / da[k], b = (hi[k] - oa[k]) / da[k];
    if (a > b) [a, b] = [b, a];
    t0 = Math.max(t0, a);
    t1 = Math.min(t1, b);
  }
  if (t0 > t1) return -1;
  const p = oa.map((v, k) => v + (t0 + 1e-6) * da[k]);
  const c = p.map((v, k) => Math.min(hi[k] - 1, Math.max(0, Math.floor(v))));
  const step = da.map((v) => (v > 0 ? 1 : -1));
  const tMax = da.map((v, k) => (Math.abs(v) < 1e-12 ? Infinity : ((v > 0 ? c[k] + 1 : c[k]) - oa[k]) / v));
  const tDelta = da.map((v) => (Math.abs(v) < 1e-12 ? Infinity : Math.abs(1 / v)));
  for (;;) {
    const cell = c[0] + X * (c[1] + Y * c[2]);
    if (!grid || grid[cell] === -1) return cell;
    const k = tMax[0] < tMax[1] ? (tMax[0] < tMax[2] ? 0 : 2) : (tMax[1] < tMax[2] ? 1 : 2);
    c[k] += step[k];
    if (c[k] < 0 || c[k] >= hi[k]) return -1;
    tMax[k] += tDelta[k];
  }
}

export function cellToClient(viewer, puzzle, cell) {
  const { xDim: X, yDim: Y, zDim: Z } = puzzle;
  const x = cell % X, y = Math.floor(cell / X) % Y, z = Math.floor(cell / (X * Y));
  const v = new Vector3(x + 0.5, y + 0.5, Z === 1 ? 0 : z + 0.5).project(viewer.camera);
  const rect = viewer.canvas.getBoundingClientRect();
  return { x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height };
}
