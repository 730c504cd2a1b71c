// Playing by hand, in the 3-D view (the viewer draws the pieces placed): the piece in hand where
// it would go (in its colour when it fits there, red when it does not), the hint's piece as pale
// blocks with bright edges, the piece "What's wrong?" names framed in red (drawn through other
// pieces in a box), "Where can it go?"'s shares as a dot in each cell the piece may cover
// (its size the share of the ways to finish in which it does), and in a box the layer pieces
// are put on (a grid at its floor). The cell
// under the pointer is where a ray from the camera meets that layer's floor (a flat board's
// surface): pointing needs nothing drawn under the pointer, and the hand does not hide it.
//
//   const layer = new PlayLayer(viewer);
//   layer.show({ puzzle, hand: {positions, ok, color}, hint: {cells, color}, culprit: cells,
//                shares: {cells: [[cell, share], ...], color}, layer: z });
//   layer.cellAt(clientX, clientY, z);   // box cell on layer z under the point, or -1
import {
  BoxGeometry, BufferAttribute, BufferGeometry, Color, EdgesGeometry, InstancedMesh, LineBasicMaterial, LineSegments, Matrix4,
  MeshLambertMaterial, Plane, Raycaster, Vector2, Vector3,
} from 'three';

const MISFIT = new Color(0xff4d5e);
const HAND_SIZE = 0.9;
const HINT_SIZE = 0.96;
const CULPRIT_SIZE = 1.04;
// A share's dot: from DOT_MIN (a share near 0) to DOT_MIN + DOT_RANGE (the largest share shown).
const DOT_MIN = 0.1;
const DOT_RANGE = 0.34;

export class PlayLayer {
  /** @param {import('./viewer.js').Viewer} viewer */
  constructor(viewer) {
    this.viewer = viewer;
    this.objects = [];
    this.puzzle = null;
    this.handMaterial = new MeshLambertMaterial({ transparent: true, opacity: 0.72, depthWrite: false });
    this.hintMaterial = new MeshLambertMaterial({ transparent: true, opacity: 0.3, depthWrite: false });
    this.hintEdgeMaterial = new LineBasicMaterial({ color: 0xffffff });
    // the culprit, seen through whatever pieces stand in front of it
    this.culpritMaterial = new MeshLambertMaterial({ color: 0xff4d5e, transparent: true, opacity: 0.35, depthWrite: false, depthTest: false });
    this.culpritEdgeMaterial = new LineBasicMaterial({ color: 0xff8c97, depthWrite: false, depthTest: false });
    this.layerMaterial = new LineBasicMaterial({ color: 0xffd23f, transparent: true, opacity: 0.7 });
    this.dotMaterial = new MeshLambertMaterial();
    this.raycaster = new Raycaster();
  }

  /** Centre of box cell (x, y, z) in the scene. */
  centre(x, y, z) {
    return new Vector3(x + 0.5, y + 0.5, z + 0.5);
  }

  /**
   * The box cell on layer `z` under a point of the page (client pixels), or -1 when the point
   * is off the box's footprint (or the ray runs along the layer).
   */
  cellAt(clientX, clientY, z = 0) {
    const p = this.puzzle;
    if (!p) return -1;
    const r = this.viewer.canvas.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return -1;
    const ndc = new Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.viewer.camera.updateMatrixWorld();
    this.raycaster.setFromCamera(ndc, this.viewer.camera);
    const hit = this.raycaster.ray.intersectPlane(new Plane(new Vector3(0, 0, 1), -z), new Vector3());
    if (!hit) return -1;
    const x = Math.floor(hit.x), y = Math.floor(hit.y);
    if (x < 0 || y < 0 || x >= p.xDim || y >= p.yDim) return -1;
    return x + p.xDim * (y + p.yDim * z);
  }

  /** Where on the page box cell `cell` lies on its layer's floor (client pixels): the point cellAt reads back. */
  cellToClient(cell) {
    const p = this.puzzle;
    if (!p) return null;
    const x = cell % p.xDim, y = Math.floor(cell / p.xDim) % p.yDim, z = Math.floor(cell / (p.xDim * p.yDim));
    this.viewer.camera.updateMatrixWorld();
    const v = new Vector3(x + 0.5, y + 0.5, z).project(this.viewer.camera);
    const r = this.viewer.canvas.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
  }

  /**
   * Draw what playing shows over the pieces, or nothing (show(null)).
   * @param {{puzzle: object, hand?: {positions: number[][], ok: boolean, color: Color}|null,
   *          hint?: {cells: number[], color: Color}|null, culprit?: number[]|null,
   *          shares?: {cells: [number, number][], color: Color}|null, layer?: number}|null} view
   */
  show(view) {
    this.clear();
    this.puzzle = view ? view.puzzle : null;
    if (!view) return;
    const p = view.puzzle;
    const pos = (c) => [c % p.xDim, Math.floor(c / p.xDim) % p.yDim, Math.floor(c / (p.xDim * p.yDim))];
    if (view.shares && view.shares.cells.length) this.dots(view.shares.cells.map(([c, share]) => [pos(c), share]), view.shares.color);
    if (view.hint) {
      const cells = view.hint.cells.map(pos);
      this.blocks(cells, HINT_SIZE, this.hintMaterial, view.hint.color, 3);
      this.edges(cells, HINT_SIZE, this.hintEdgeMaterial, 4);
    }
    if (view.culprit && view.culprit.length) {
      const cells = view.culprit.map(pos);
      this.blocks(cells, CULPRIT_SIZE, this.culpritMaterial, null, 5);
      this.edges(cells, CULPRIT_SIZE, this.culpritEdgeMaterial, 6);
    }
    if (view.hand && view.hand.positions.length) {
      this.blocks(view.hand.positions, HAND_SIZE, this.handMaterial, view.hand.ok ? view.hand.color : MISFIT, 7);
    }
    if (p.zDim > 1 && view.layer >= 0) this.layerGrid(p, view.layer);
    this.viewer.requestRender();
  }

  blocks(cells, size, material, color, order) {
    const geometry = new BoxGeometry(size, size, size);
    const mesh = new InstancedMesh(geometry, material, cells.length);
    const m = new Matrix4();
    cells.forEach(([x, y, z], k) => {
      m.setPosition(this.centre(x, y, z));
      mesh.setMatrixAt(k, m);
      if (color) mesh.setColorAt(k, color);
    });
    mesh.renderOrder = order;
    this.add(mesh);
  }

  /** A cube at each cell's centre, its size by its share (relative to the largest). */
  dots(cells, color) {
    const most = Math.max(...cells.map(([, share]) => share));
    const mesh = new InstancedMesh(new BoxGeometry(1, 1, 1), this.dotMaterial, cells.length);
    const m = new Matrix4();
    cells.forEach(([[x, y, z], share], k) => {
      const size = DOT_MIN + DOT_RANGE * (most > 0 ? share / most : 0);
      m.makeScale(size, size, size);
      m.setPosition(this.centre(x, y, z));
      mesh.setMatrixAt(k, m);
      mesh.setColorAt(k, color);
    });
    mesh.renderOrder = 2;
    this.add(mesh);
  }

  edges(cells, size, material, order) {
    const box = new BoxGeometry(size, size, size);
    const edge = new EdgesGeometry(box);
    box.dispose();
    const base = edge.attributes.position.array;
    const out = new Float32Array(base.length * cells.length);
    cells.forEach(([x, y, z], k) => {
      const c = this.centre(x, y, z);
      for (let i = 0; i < base.length; i += 3) {
        out[k * base.length + i] = base[i] + c.x;
        out[k * base.length + i + 1] = base[i + 1] + c.y;
        out[k * base.length + i + 2] = base[i + 2] + c.z;
      }
    });
    edge.dispose();
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(out, 3));
    const lines = new LineSegments(geometry, material);
    lines.renderOrder = order;
    this.add(lines);
  }

  /** The floor of layer z: the box's footprint as a grid, where the hand puts pieces. */
  layerGrid(p, z) {
    const pts = [];
    for (let x = 0; x <= p.xDim; x++) pts.push(x, 0, z, x, p.yDim, z);
    for (let y = 0; y <= p.yDim; y++) pts.push(0, y, z, p.xDim, y, z);
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(new Float32Array(pts), 3));
    const lines = new LineSegments(geometry, this.layerMaterial);
    lines.renderOrder = 2;
    this.add(lines);
  }

  add(object) {
    this.objects.push(object);
    this.viewer.scene.add(object);
  }

  clear() {
    for (const o of this.objects) {
      this.viewer.scene.remove(o);
      o.geometry.dispose();
      if (o.isInstancedMesh) o.dispose();
    }
    this.objects = [];
    this.viewer.requestRender();
  }
}
