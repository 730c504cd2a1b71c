// The 3-D print export: pieces as binary STL in millimetres, each one closed solid
// (piece-solid.js) in its place, written by three.js's STLExporter.
//
//   piecesStl([X, Y, Z], [{ name, cells }, ...]) // { data: DataView, triangles, pieces }
import { BufferAttribute, BufferGeometry, Group, Mesh, MeshBasicMaterial } from 'three';
import { STLExporter } from 'three/addons/exporters/STLExporter.js';
import { pieceSolid } from './piece-solid.js';

export const STL_MM_PER_CELL = 10;
export const STL_GAP = 0.025; // per side, in cells: 0.5 mm clearance between printed pieces

/**
 * @param {number[]} dims [X, Y, Z] of the box the cells live in
 * @param {Array<{name: string, cells: ArrayLike<number>}>} pieces box cell indices of each piece
 */
export function piecesStl(dims, pieces) {
  const root = new Group();
  const material = new MeshBasicMaterial();
  let triangles = 0;
  for (const { name, cells } of pieces) {
    const solid = pieceSolid(dims, cells, STL_GAP);
    const pos = solid.positions;
    for (let k = 0; k < pos.length; k++) pos[k] *= STL_MM_PER_CELL;
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(pos, 3));
    geometry.setIndex(new BufferAttribute(solid.indices, 1));
    triangles += solid.indices.length / 3;
    const mesh = new Mesh(geometry, material);
    mesh.name = name;
    root.add(mesh);
  }
  root.updateMatrixWorld(true);
  const data = new STLExporter().parse(root, { binary: true });
  for (const m of root.children) m.geometry.dispose();
  material.dispose();
  return { data, triangles, pieces: pieces.length };
}
