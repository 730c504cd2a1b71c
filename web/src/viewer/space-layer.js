// The editor's layer of the 3-D view: every cell of the space drawn as a pale block (flat tiles
// on a board), every removed cell as a faint ghost, and, while `editable` (the editor's
// "Edit cells" mode), a click (not a drag, which turns the view) on either toggles it: a block
// becomes a hole, a ghost comes back. The cells of the layer
// chosen in the editor's flat grid are drawn stronger, so the two views read together.
// Deep inside a big box only the chosen layer is drawn: through a few blocks (opacity 0.55
// each) what lies deeper is all but invisible, and drawing every block makes each edit of a
// big box slow (40x40x40: 64,000 blended blocks, seconds a frame where WebGL runs on the CPU;
// its outer shell and the layer: ~10,600, see SHOWN_BLOCKS).
//
//   const layer = new SpaceLayer(viewer, (cell, makeHole) => ...);
//   layer.setSpace(puzzleModel, currentLayer);   // or layer.setSpace(null) to hide it
//   layer.editable = true;                       // clicks now remove and restore cells
import { BoxGeometry, Color, DynamicDrawUsage, InstancedMesh, Matrix4, MeshLambertMaterial, Raycaster, Vector2, Vector3 } from 'three';

const CLICK_PX = 6;      // a pointer that moved further than this was turning the view
const CLICK_MS = 600;
const OPEN = new Color(0x7f9cf0);
const OPEN_DIM = new Color(0x4a5c8f);
const SHOWN_BLOCKS = 4000; // open blocks drawn, about (the outer shell and the chosen layer may take more)

/**
 * The open cells to draw: those at most `depth` face steps deep (1: touching the outside, a
 * hole or a fixed cell), with the largest depth whose cells fit in SHOWN_BLOCKS (the outer
 * shell at least), and every open cell of layer `shownZ`. Boxes up to ~15^3 draw every cell.
 */
export function shownOpenCells(X, Y, Z, isOpen, shownZ) {
  const n = X * Y * Z;
  const depth = new Uint16Array(n); // 0: not open
  const count = [0];                 // open cells at each depth
  let front = [];
  for (let i = 0; i < n; i++) {
    if (!isOpen(i)) continue;
    const x = i % X, y = Math.floor(i / X) % Y, z = Math.floor(i / (X * Y));
    const edge = x === 0 || y === 0 || z === 0 || x === X - 1 || y === Y - 1 || z === Z - 1 ||
      !isOpen(i - 1) || !isOpen(i + 1) || !isOpen(i - X) || !isOpen(i + X) || !isOpen(i - X * Y) || !isOpen(i + X * Y);
    if (edge) { depth[i] = 1; front.push(i); }
  }
  count.push(front.length);
  for (let d = 2; front.length; d++) {
    const next = [];
    for (const i of front) {
      const x = i % X, y = Math.floor(i / X) % Y, z = Math.floor(i / (X * Y));
      const around = [x > 0 ? i - 1 : -1, x < X - 1 ? i + 1 : -1, y > 0 ? i - X : -1, y < Y - 1 ? i + X : -1, z > 0 ? i - X * Y : -1, z < Z - 1 ? i + X * Y : -1];
      for (const j of around) if (j >= 0 && depth[j] === 0 && isOpen(j)) { depth[j] = d; next.push(j); }
    }
    count.push(next.length);
    front = next;
  }
  let deepest = 1;
  for (let d = 2, sum = count[1]; d < count.length && (sum += count[d]) <= SHOWN_BLOCKS; d++) deepest = d;
  const shown = [];
  for (let i = 0; i < n; i++) if (depth[i] > 0 && (depth[i] <= deepest || Math.floor(i / (X * Y)) === shownZ)) shown.push(i);
  return shown;
}

export class SpaceLayer {
  /**
   * @param {import('./viewer.js').Viewer} viewer
   * @param {(cell: number, makeHole: boolean) => void} onToggle
   */
  constructor(viewer, onToggle) {
    this.viewer = viewer;
    this.onToggle = onToggle;
    this.openMaterial = new MeshLambertMaterial({ transparent: true, opacity: 0.55, depthWrite: false });
    this.holeMaterial = new MeshLambertMaterial({ color: 0xff8a8a, transparent: true, opacity: 0.12, depthWrite: false });
    this.meshes = [];
    this.cellsOf = new Map(); // mesh -> cell index per instance
    this.raycaster = new Raycaster();
    this.down = null;
    this.editable = false; // clicks edit only in the mode the person turned on
    const canvas = viewer.canvas;
    canvas.addEventListener('pointerdown', (e) => { this.down = { x: e.clientX, y: e.clientY, t: performance.now() }; });
    canvas.addEventListener('pointerup', (e) => {
      const d = this.down;
      this.down = null;
      if (!d || !this.editable || this.meshes.length === 0 || e.button !== 0) return;
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) > CLICK_PX || performance.now() - d.t > CLICK_MS) return;
      const hit = this.pick(e.clientX, e.clientY);
      if (hit) this.onToggle(hit.cell, hit.open);
    });
  }

  /** The cell under a point of the canvas: {cell, open} or null. */
  pick(clientX, clientY) {
    const rect = this.viewer.canvas.getBoundingClientRect();
    const ndc = new Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.viewer.camera);
    const hits = this.raycaster.intersectObjects(this.meshes, false);
    if (!hits.length) return null;
    const h = hits[0];
    return { cell: this.cellsOf.get(h.object)[h.instanceId], open: h.object.userData.open };
  }

  /** Screen position (client px) of a cell's centre, for tests and for focus rings. */
  cellToClient(cell) {
    const p = this.puzzle;
    if (!p) return null;
    const x = cell % p.xDim, y = Math.floor(cell / p.xDim) % p.yDim, z = Math.floor(cell / (p.xDim * p.yDim));
    const v = this.centre(x, y, z).project(this.viewer.camera);
    const rect = this.viewer.canvas.getBoundingClientRect();
    return { x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height };
  }

  centre(x, y, z) {
    return this.puzzle.zDim === 1 ? new Vector3(x + 0.5, y + 0.5, 0.06) : new Vector3(x + 0.5, y + 0.5, z + 0.5);
  }

  /** Show the space of `puzzle` (the editor's model), or hide the layer with null. */
  setSpace(puzzle, currentLayer = 0) {
    this.clear();
    this.puzzle = puzzle;
    if (!puzzle) return;
    const { xDim: X, yDim: Y, zDim: Z } = puzzle;
    const holes = new Set(puzzle.holes);
    const fixed = new Set();
    for (const piece of puzzle.pieces) {
      if (piece.stationary) for (const [x, y, z] of piece.cells) fixed.add(x + X * (y + Y * z));
    }
    const gone = [];
    const isOpen = new Uint8Array(X * Y * Z);
    for (let i = 0; i < X * Y * Z; i++) {
      if (fixed.has(i)) continue;
      if (holes.has(i)) gone.push(i);
      else isOpen[i] = 1;
    }
    const open = shownOpenCells(X, Y, Z, (i) => isOpen[i] === 1, currentLayer);
    const flat = Z === 1;
    const size = flat ? [0.9, 0.9, 0.1] : [0.82, 0.82, 0.82];
    const build = (cells, material, isOpen) => {
      if (!cells.length) return;
      const geometry = new BoxGeometry(...size);
      const mesh = new InstancedMesh(geometry, material, cells.length);
      mesh.instanceMatrix.setUsage(DynamicDrawUsage);
      const m = new Matrix4();
      cells.forEach((c, k) => {
        const x = c % X, y = Math.floor(c / X) % Y, z = Math.floor(c / (X * Y));
        m.setPosition(this.centre(x, y, z));
        mesh.setMatrixAt(k, m);
        if (isOpen) mesh.setColorAt(k, flat || z === currentLayer ? OPEN : OPEN_DIM);
      });
      mesh.userData.open = isOpen;
      mesh.renderOrder = 2;
      this.cellsOf.set(mesh, cells);
      this.meshes.push(mesh);
      this.viewer.scene.add(mesh);
    };
    build(open, this.openMaterial, true);
    build(gone, this.holeMaterial, false);
    this.viewer.requestRender();
  }

  clear() {
    for (const mesh of this.meshes) {
      this.viewer.scene.remove(mesh);
      mesh.geometry.dispose();
      mesh.dispose();
    }
    this.meshes = [];
    this.cellsOf.clear();
    this.puzzle = null;
    this.viewer.requestRender();
  }
}
