// What a step of a replayed search looks like on top of the board (the viewer draws the placed
// pieces): the target cell the search chose (a bright frame), the candidate images it will try
// (faint ghosts), and at a dead end the cells concerned (the unfillable hole, the isolated
// region) in red with a label saying why; on request the cell the most-constrained-hole rule
// would fill next (a cyan frame), and the dark cells of the checkerboard colouring (lesson 4).
//
// The label is a tag beside the cells it names, never over them, joined to them by a short
// leader line (QA: on a phone "hole made at step 22,015" hid the very hole it pointed at). In a
// box the red cells and the frames are drawn through the pieces too: a hole walled in deep inside
// the Tetris Cube was otherwise hidden, its tag pointing at a piece; the tag names its layers.
//
//   const layer = new WatchLayer(viewer, labelElement);
//   layer.show({ puzzle, target, candidateCells, deadCells, label, mchCell, shadeCells });   // or layer.show(null)
import {
  BoxGeometry, BufferAttribute, BufferGeometry, EdgesGeometry, InstancedMesh, LineBasicMaterial, LineSegments, Matrix4, MeshLambertMaterial,
  PlaneGeometry, Vector3,
} from 'three';

const LEADER_PX = 16; // the gap between a tag and the cells it names, bridged by its leader line
const EDGE_PX = 4;    // kept between a tag and the edges of the view
const TILE_Z = 0.002; // a board's colouring lies on the plate (its top is at z = -0.01, its grid lines at -0.005)

export class WatchLayer {
  constructor(viewer, label) {
    this.viewer = viewer;
    this.label = label;
    this.leader = document.createElement('div');
    this.leader.id = 'watch-leader';
    this.leader.hidden = true;
    this.leader.setAttribute('aria-hidden', 'true');
    label.before(this.leader); // under the tag
    this.objects = [];
    this.ghostMaterial = new MeshLambertMaterial({ color: 0xffffff, transparent: true, opacity: 0.18, depthWrite: false });
    this.deadMaterial = new MeshLambertMaterial({ color: 0xff4d5e, transparent: true, opacity: 0.5, depthWrite: false });
    // the same cells seen through whatever pieces stand in front of them (boxes only)
    this.throughMaterial = new MeshLambertMaterial({ color: 0xff4d5e, transparent: true, opacity: 0.4, depthWrite: false, depthTest: false });
    this.throughEdgeMaterial = new LineBasicMaterial({ color: 0xff8c97, depthWrite: false, depthTest: false });
    this.frameMaterial = new LineBasicMaterial({ color: 0xffd23f });
    this.mchMaterial = new LineBasicMaterial({ color: 0x3ee0ff });
    // (transparent: drawn after the red cells, not tinted by them)
    this.throughFrameMaterial = new LineBasicMaterial({ color: 0xffd23f, depthTest: false, transparent: true });
    this.throughMchMaterial = new LineBasicMaterial({ color: 0x3ee0ff, depthTest: false, transparent: true });
    this.shadeMaterial = new MeshLambertMaterial({ color: 0x000000, transparent: true, opacity: 0.5, depthWrite: false });
    this.anchor = null;  // the cell the tag points at: {centre, half} (half-sizes of its drawn block)
    this.named = [];     // every cell the tag names, the same way: the tag keeps clear of them all
    viewer.controls.addEventListener('change', () => this.placeLabel());
    // the view resized (a phone turned): placed again once the viewer has framed it anew
    new ResizeObserver(() => requestAnimationFrame(() => this.placeLabel())).observe(viewer.container);
  }

  centre(puzzle, cell) {
    const x = cell % puzzle.xDim, y = Math.floor(cell / puzzle.xDim) % puzzle.yDim, z = Math.floor(cell / (puzzle.xDim * puzzle.yDim));
    return new Vector3(x + 0.5, y + 0.5, puzzle.zDim === 1 ? 0.5 : z + 0.5);
  }

  cells(puzzle, cells, material, size) {
    if (!cells.length) return;
    const mesh = new InstancedMesh(new BoxGeometry(size, size, puzzle.zDim === 1 ? 0.6 : size), material, cells.length);
    const m = new Matrix4();
    cells.forEach((c, k) => mesh.setMatrixAt(k, m.makeTranslation(this.centre(puzzle, c))));
    mesh.renderOrder = 3;
    this.add(mesh);
  }

  /**
   * A colouring of cells (the checkerboard): on a board, flat squares lying on the plate, each
   * exactly its cell, so that the board reads as a chessboard (blocks standing on the cells hid
   * their light neighbours and stood out past the board's far edge); in a box, whole cells.
   */
  tiles(puzzle, cells, material) {
    if (!cells.length) return;
    if (puzzle.zDim > 1) {
      this.cells(puzzle, cells, material, 1);
      return;
    }
    const mesh = new InstancedMesh(new PlaneGeometry(1, 1), material, cells.length);
    const m = new Matrix4();
    cells.forEach((c, k) => mesh.setMatrixAt(k, m.makeTranslation(this.centre(puzzle, c).setZ(TILE_Z))));
    mesh.renderOrder = 3;
    this.add(mesh);
  }

  /** The outlines of cells (one line set), drawn through the pieces in front of them. */
  outlines(puzzle, cells, material, size) {
    const cube = new BoxGeometry(size, size, size);
    const edges = new EdgesGeometry(cube);
    const one = edges.attributes.position.array;
    const all = new Float32Array(one.length * cells.length);
    cells.forEach((c, k) => {
      const p = this.centre(puzzle, c);
      for (let i = 0; i < one.length; i += 3) {
        all[k * one.length + i] = one[i] + p.x;
        all[k * one.length + i + 1] = one[i + 1] + p.y;
        all[k * one.length + i + 2] = one[i + 2] + p.z;
      }
    });
    cube.dispose();
    edges.dispose();
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(all, 3));
    const lines = new LineSegments(geometry, material);
    lines.renderOrder = 5;
    this.add(lines);
  }

  add(obj) {
    this.objects.push(obj);
    this.viewer.scene.add(obj);
  }

  /**
   * @param {{puzzle, target?: number, candidateCells?: number[], deadCells?: number[], label?: string,
   *   mchCell?: number, shadeCells?: number[]}|null} view
   */
  show(view) {
    for (const o of this.objects) {
      this.viewer.scene.remove(o);
      o.geometry.dispose();
      if (o.dispose) o.dispose();
    }
    this.objects = [];
    this.anchor = null;
    this.named = [];
    let text = '';
    if (view) {
      const { puzzle } = view;
      const deadCells = view.deadCells || [];
      const target = view.target ?? -1;
      const box = puzzle.zDim > 1;
      this.cells(puzzle, view.candidateCells || [], this.ghostMaterial, 0.7);
      this.cells(puzzle, deadCells, this.deadMaterial, 0.96);
      if (box && deadCells.length) {
        this.cells(puzzle, deadCells, this.throughMaterial, 0.96);
        this.outlines(puzzle, deadCells, this.throughEdgeMaterial, 0.96);
      }
      this.tiles(puzzle, view.shadeCells || [], this.shadeMaterial);
      if (target >= 0) this.frame(puzzle, target, box ? this.throughFrameMaterial : this.frameMaterial, 1.02);
      if (view.mchCell >= 0) this.frame(puzzle, view.mchCell, box ? this.throughMchMaterial : this.mchMaterial, 0.9);
      const at = deadCells.length ? deadCells[0] : target >= 0 ? target : view.mchCell ?? -1;
      if (view.label && at >= 0) {
        // a block as drawn here: half its width, and half its height (a board's are lower)
        const block = (cell) => ({ centre: this.centre(puzzle, cell), half: new Vector3(0.5, 0.5, box ? 0.5 : 0.35) });
        this.anchor = block(at);
        this.named = (deadCells.length ? deadCells : [at]).map(block);
        text = view.label;
        // a hole among the pieces of a box: which layer to look at (the View card shows one alone)
        if (box && deadCells.length && this.viewer.grid) text += `, ${layersOf(puzzle, deadCells)}`;
      }
    }
    this.label.textContent = text;
    this.placeLabel();
    this.viewer.requestRender();
  }

  frame(puzzle, cell, material, size) {
    const frame = new LineSegments(new EdgesGeometry(new BoxGeometry(size, size, puzzle.zDim === 1 ? 0.7 : size)), material);
    frame.position.copy(this.centre(puzzle, cell));
    frame.renderOrder = 4;
    this.add(frame);
  }

  /** Where a block is on the screen: its bounding rectangle in the view's pixels. */
  onScreen({ centre, half }, width, height) {
    const r = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    const v = new Vector3();
    for (let k = 0; k < 8; k++) {
      v.set(centre.x + (k & 1 ? half.x : -half.x), centre.y + (k & 2 ? half.y : -half.y), centre.z + (k & 4 ? half.z : -half.z));
      v.project(this.viewer.camera);
      const x = ((v.x + 1) / 2) * width, y = ((1 - v.y) / 2) * height;
      r.left = Math.min(r.left, x); r.right = Math.max(r.right, x);
      r.top = Math.min(r.top, y); r.bottom = Math.max(r.bottom, y);
    }
    return r;
  }

  /**
   * Keep the tag beside its cells as the view turns: above them all (below when there is no
   * room between them and the title), across from its cell as far as the view allows, with a
   * leader line from the tag towards its cell, up to the first of the named cells it meets.
   */
  placeLabel() {
    const { label, leader } = this;
    const view = label.parentElement;
    if (!this.anchor || !label.textContent || !view || !view.clientWidth) {
      label.hidden = true;
      leader.hidden = true;
      return;
    }
    label.hidden = false;
    const width = view.clientWidth, height = view.clientHeight;
    const w = label.offsetWidth, h = label.offsetHeight;
    const rects = this.named.map((block) => this.onScreen(block, width, height));
    const named = {
      top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)),
    };
    const cell = this.onScreen(this.anchor, width, height);
    const at = { x: (cell.left + cell.right) / 2, y: (cell.top + cell.bottom) / 2 };
    // between the page's overlays (the title above, the legend below) when it fits there
    const { top: clearTop, bottom: clearBottom } = this.viewer.margins;
    const above = named.top - LEADER_PX - h, below = named.bottom + LEADER_PX;
    let top;
    if (above >= clearTop) top = above;
    else if (below + h <= height - clearBottom) top = below;
    else top = above >= height - below - h ? Math.max(EDGE_PX, above) : Math.min(below, height - h - EDGE_PX);
    const left = Math.min(Math.max(at.x - w / 2, EDGE_PX), Math.max(EDGE_PX, width - w - EDGE_PX));
    label.style.left = `${left}px`;
    label.style.top = `${top}px`;
    const from = { x: Math.min(Math.max(at.x, left + 10), left + w - 10), y: top + h / 2 < at.y ? top + h : top };
    const t = Math.min(...rects.map((r) => meets(from, at, r)), meets(from, at, cell));
    const to = { x: from.x + t * (at.x - from.x), y: from.y + t * (at.y - from.y) };
    const length = Math.hypot(to.x - from.x, to.y - from.y);
    leader.hidden = length < 2;
    leader.style.left = `${from.x}px`;
    leader.style.top = `${from.y}px`;
    leader.style.width = `${length}px`;
    leader.style.transform = `rotate(${Math.atan2(to.y - from.y, to.x - from.x)}rad)`;
  }
}

/** How far (0..1) along the segment from `a` to `b` it enters `rect`; Infinity when it misses it. */
function meets(a, b, rect) {
  let t0 = 0, t1 = 1;
  const dx = b.x - a.x, dy = b.y - a.y;
  for (const [p, q] of [[-dx, a.x - rect.left], [dx, rect.right - a.x], [-dy, a.y - rect.top], [dy, rect.bottom - a.y]]) {
    if (p === 0) {
      if (q < 0) return Infinity; // parallel to this side, outside it
      continue;
    }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return Infinity;
  }
  return t0;
}

/** "layer 3 of 4", or "layers 2–3 of 4": the layers of the box that cells lie in. */
function layersOf(puzzle, cells) {
  const zs = cells.map((c) => Math.floor(c / (puzzle.xDim * puzzle.yDim)));
  const low = Math.min(...zs) + 1, high = Math.max(...zs) + 1;
  return `${low === high ? `layer ${low}` : `layers ${low}–${high}`} of ${puzzle.zDim}`;
}
