// What a step of a replayed search looks like on top of the board (the viewer draws the placed
// pieces): the target cell the search chose (a bright frame), its candidates (the one being
// tried solid in its piece's colour, the others still to try as outlines in theirs, edges only,
// so that which one is tried can be told even in a box, with "3 of 7 left" on the tag), and at a
// dead end the cells concerned (the unfillable hole, the isolated region) in red with a label
// saying why; on request the cell the most-constrained-hole rule would fill next (a cyan
// frame), the dark cells of the checkerboard colouring (lesson 4), and the coordinates along
// the board's edges (column letters, row numbers, layers: lesson/cell-names.js), so that a
// cell named in words can be found.
//
// The label is a tag beside the cells it names, never over them, joined to them by a short
// leader line (over them, on a phone, "hole made at step 22,015" would hide the very hole it names). In a
// box the red cells and the frames are drawn through the pieces too: a hole walled in deep inside
// the Tetris Cube would otherwise be hidden, its tag pointing at a piece; the tag names its layers.
//
//   const layer = new WatchLayer(viewer, labelElement);
//   layer.show({ puzzle, target, candidates, deadCells, label, mchCell, shadeCells, coordinates });   // or layer.show(null)
//   // candidates: candidatesAt(player, puzzle) -- {list: [{instance, cells}], solid, outlines, text} or null
//   // coordinates: true to letter the board's edges (kept while the puzzle stays)
import {
  BoxGeometry, BufferAttribute, BufferGeometry, EdgesGeometry, InstancedMesh, LineBasicMaterial, LineSegments, Matrix4, MeshLambertMaterial,
  PlaneGeometry, Vector3,
} from 'three';
import { textSprite } from './text-sprite.js';
import { TRACE_OP } from '../worker/protocol.js';
import { edgeLabels } from '../lesson/cell-names.js';

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
    this.materials = []; // materials made for one drawing (a candidate's colour), freed with it
    this.coordinates = []; // the edge labels' sprites, kept while the puzzle stays
    this.coordinatesOf = null;
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
    for (const m of this.materials) m.dispose();
    this.objects = [];
    this.materials = [];
    this.anchor = null;
    this.named = [];
    this.setCoordinates(view && view.coordinates ? view.puzzle : null);
    let text = '';
    if (view) {
      const { puzzle } = view;
      const deadCells = view.deadCells || [];
      const target = view.target ?? -1;
      const box = puzzle.zDim > 1;
      this.cells(puzzle, view.candidateCells || [], this.ghostMaterial, 0.7);
      const cand = view.candidates && !deadCells.length ? view.candidates : null;
      if (cand) this.drawCandidates(puzzle, cand, box);
      this.cells(puzzle, deadCells, this.deadMaterial, 0.96);
      if (box && deadCells.length) {
        this.cells(puzzle, deadCells, this.throughMaterial, 0.96);
        this.outlines(puzzle, deadCells, this.throughEdgeMaterial, 0.96);
      }
      this.tiles(puzzle, view.shadeCells || [], this.shadeMaterial);
      if (target >= 0) this.frame(puzzle, target, box ? this.throughFrameMaterial : this.frameMaterial, 1.02);
      if (view.mchCell >= 0) this.frame(puzzle, view.mchCell, box ? this.throughMchMaterial : this.mchMaterial, 0.9);
      // the tag: the dead end's or the hole's words; else the candidates' count ("3 of 7 left"),
      // at the cell being filled (or, for a piece to place, at a candidate of it)
      const candidateCell = cand ? (cand.list[cand.solid] || cand.list[cand.outlines[0]] || { cells: [] }).cells[0] ?? -1 : -1;
      const label = view.label || (cand ? cand.text : '');
      const at = deadCells.length ? deadCells[0] : target >= 0 ? target : view.label ? view.mchCell ?? -1 : candidateCell;
      if (label && at >= 0) {
        // a block as drawn here: half its width, and half its height (a board's are lower)
        const block = (cell) => ({ centre: this.centre(puzzle, cell), half: new Vector3(0.5, 0.5, box ? 0.5 : 0.35) });
        this.anchor = block(at);
        this.named = (deadCells.length ? deadCells : [at]).map(block);
        text = label;
        // a hole among the pieces of a box: which layer to look at (the View card shows one alone)
        if (box && deadCells.length && this.viewer.grid) text += `, ${layersOf(puzzle, deadCells)}`;
      }
    }
    this.label.textContent = text;
    this.placeLabel();
    this.viewer.requestRender();
  }

  /**
   * A level's candidates: the one being tried solid, in its piece's colour, with a white outline;
   * the others as outlines only, each in its piece's colour. In a box they are drawn through the
   * pieces in front of them.
   */
  drawCandidates(puzzle, cand, box) {
    const colours = this.viewer.colors;
    const colourOf = (instance) => (colours ? colours.instanceColor(instance) : null);
    const lines = (cells, color) => {
      const material = new LineBasicMaterial({ color: color || 0xffffff, depthTest: !box, transparent: true });
      this.materials.push(material);
      this.add(outlineOf(puzzle, cells, material));
    };
    for (const k of cand.outlines) {
      const c = cand.list[k];
      if (c) lines(c.cells, colourOf(c.instance));
    }
    const solid = cand.list[cand.solid];
    if (solid) {
      const material = new MeshLambertMaterial({ color: colourOf(solid.instance) || 0xffffff, transparent: true, opacity: 0.82, depthWrite: false });
      this.materials.push(material);
      this.cells(puzzle, solid.cells, material, 0.94);
      lines(solid.cells, 0xffffff);
    }
  }

  /** What is drawn now, for tests: edge labels, candidate outlines and solids, the tag's words. */
  summary() {
    return {
      coordinates: this.coordinates.length,
      outlines: this.objects.filter((o) => o.renderOrder === 6).length,
      solids: this.objects.filter((o) => o.isInstancedMesh && this.materials.includes(o.material)).length,
      tag: this.label.textContent,
    };
  }

  /** The column letters, row numbers and layers along the edges of `puzzle` (null: none). */
  setCoordinates(puzzle) {
    if (puzzle === this.coordinatesOf) return;
    for (const sprite of this.coordinates) {
      this.viewer.scene.remove(sprite);
      sprite.material.map.dispose();
      sprite.material.dispose();
    }
    this.coordinates = [];
    this.coordinatesOf = puzzle;
    if (!puzzle) return;
    const { columns, rows, layers } = edgeLabels(puzzle);
    const put = (text, x, y, z, height) => {
      const sprite = textSprite(text, { height, renderOrder: 7 });
      sprite.position.set(x, y, z);
      this.coordinates.push(sprite);
      this.viewer.scene.add(sprite);
    };
    // on the plate (a box: its floor), along the edges the framing shows: the letters in front
    // of the first row; the numbers left of a board, right of a box (seen from the front right)
    const box = puzzle.zDim > 1;
    const z = box ? 0 : 0.05;
    const size = Math.max(0.26, Math.min(0.42, Math.max(puzzle.xDim, puzzle.yDim) * 0.035));
    const off = size * 0.5 + 0.12; // from the edge to the label's centre
    columns.forEach((t, x) => put(t, x + 0.5, -off, z, size));
    rows.forEach((t, y) => put(t, box ? puzzle.xDim + off : -off, y + 0.5, z, size));
    // a box's layers up its front left edge
    layers.forEach((t, k) => put(t, -0.55, -0.55, k + 0.5, size * 0.75));
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

/**
 * The outline of a piece's cells, edges only: the edges of the faces it shows, less the seams
 * between two of its faces lying in one plane (so a 2x2 square reads as one square).
 */
function outlineOf(puzzle, cells, material) {
  const { xDim: X, yDim: Y } = puzzle;
  const set = new Set(cells);
  const edges = new Map(); // edge key -> {a, b, normals: Set}
  const add = (a, b, normal) => {
    const key = a < b ? `${a}|${b}` : `${b}|${a}`;
    let e = edges.get(key);
    if (!e) edges.set(key, (e = { a, b, normals: [] }));
    e.normals.push(normal);
  };
  const corner = (x, y, z) => `${x},${y},${z}`;
  // the six faces of a unit cube: the axis of its normal, its side, its four corners
  for (const c of set) {
    const x = c % X, y = Math.floor(c / X) % Y, z = Math.floor(c / (X * Y));
    const has = (dx, dy, dz) => {
      const nx = x + dx, ny = y + dy, nz = z + dz;
      return nx >= 0 && ny >= 0 && nz >= 0 && nx < X && ny < Y && set.has(nx + X * (ny + Y * nz));
    };
    for (const [axis, side] of [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1]]) {
      const d = [0, 0, 0];
      d[axis] = side ? 1 : -1;
      if (has(...d)) continue; // an inner face
      const quad = [];
      for (const [u, v] of [[0, 0], [1, 0], [1, 1], [0, 1]]) {
        const p = [x, y, z];
        p[axis] += side;
        p[(axis + 1) % 3] += u;
        p[(axis + 2) % 3] += v;
        quad.push(corner(...p));
      }
      for (let k = 0; k < 4; k++) add(quad[k], quad[(k + 1) % 4], `${axis}${side}`);
    }
  }
  const flat = puzzle.zDim === 1;
  const points = [];
  for (const e of edges.values()) {
    if (e.normals.length === 2 && e.normals[0] === e.normals[1]) continue; // a seam in a flat face
    for (const key of [e.a, e.b]) {
      const [px, py, pz] = key.split(',').map(Number);
      // a board's pieces stand lower than a cube (the blocks drawn here are 0.7 high)
      points.push(px, py, flat ? 0.15 + pz * 0.7 : pz);
    }
  }
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(new Float32Array(points), 3));
  const lines = new LineSegments(geometry, material);
  lines.renderOrder = 6;
  return lines;
}

/**
 * What the level shown at the replayed step offers (trace/player.js): its candidates' cells and
 * pieces, which is drawn solid (the one just listed; a piece just placed the viewer draws
 * itself), which as outlines (listed before it; after a placement, those still to try), and the
 * words for the tag. Null at any other step (a dead end, a solution, a deeper level's work).
 */
export function candidatesAt(player, puzzle) {
  const ev = player.current();
  const level = player.levels[player.levels.length - 1];
  if (!ev || !level) return null;
  const name = (instance) => (puzzle.instances[instance] ? puzzle.instances[instance].name : '?');
  const list = level.candidates.map((c) => ({ instance: c.instance, cells: Array.from(player.cellsOf(c.image)) }));
  const n = level.count;
  const range = (from, to) => Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
  const ways = (k) => `${k} way${k === 1 ? '' : 's'}`;
  switch (ev.op) {
    case TRACE_OP.CHOOSE:
      return n > 0 ? { list, solid: -1, outlines: [], text: `${ways(n)} to try` } : null;
    case TRACE_OP.CANDIDATE: {
      const k = list.length;
      return { list, solid: k - 1, outlines: range(0, k - 1), text: `way ${k} of ${n}: ${name(ev.a)}` };
    }
    case TRACE_OP.PLACE:
      return { list, solid: -1, outlines: range(level.tried, list.length), text: `trying ${level.tried} of ${n}: ${n - level.tried} left` };
    case TRACE_OP.REMOVE:
      return { list, solid: -1, outlines: range(level.tried, list.length), text: level.tried < n ? `${n - level.tried} of ${n} left` : `all ${n} tried` };
    default:
      return null;
  }
}
