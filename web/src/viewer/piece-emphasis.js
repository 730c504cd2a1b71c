// Seeing the pieces in the 3-D view: which pieces are drawn (hidden ones and, when
// one piece is isolated, all others left out; "this layer only" keeps one z layer), which one is
// highlighted (the others dimmed), name labels drawn on the pieces, picking a piece under the
// pointer, and the exports of what is drawn (PNG of the view, STL of the pieces).
//
// The viewer owns one PieceEmphasis and asks it, while building its merged mesh, for the cells
// and colour of each instance; everything here works on piece indices (puzzle.pieces), so all
// copies of a piece (count=N) are highlighted or hidden together.
//
//   viewer.emphasis.set({ highlight: 2, hidden: [5], isolate: -1, layer: -1, labels: true });
//   viewer.emphasis.pick(clientX, clientY)   // -> { piece, instance } or null
//   await viewer.emphasis.pngBlob(caption)   // the view as drawn, on a plain background
//   viewer.emphasis.stl()                    // { data: DataView (binary STL), triangles, pieces }
import { Color, Raycaster, Vector2, Vector3 } from 'three';
import { piecesStl } from './stl-export.js';
import { textSprite } from './text-sprite.js';

const DIM_TO = new Color(0x1c2233);  // dimmed pieces fade toward the stage background
const DIM_AMOUNT = 0.72;
const LABEL_HEIGHT = 0.5;            // world units (cells)
// Name tags kept apart on screen (layoutLabels): a tag that would cover a nearer one moves by
// this many of its heights per try, up or down, at most MAX_LABEL_SHIFT tries each way.
const LABEL_STEP = 1.08;
const MAX_LABEL_SHIFT = 2;
const LABEL_MARGIN_PX = 2;
const FACE_DIRS = [[0, 1], [0, -1], [1, 1], [1, -1], [2, 1], [2, -1]]; // [axis, sign]
const TAG_OUT = 0.52; // a tag's point: this far from its cell's centre, just outside the face (at 0.45)
const MAX_LAID_OUT = 400;            // more tags than this: left where they are (n^2 per frame)
export const PNG_BACKGROUND = '#141b2d'; // flat, so a test can tell drawn pixels from background

export class PieceEmphasis {
  /** @param {import('./viewer.js').Viewer} viewer */
  constructor(viewer) {
    this.viewer = viewer;
    this.state = { highlight: -1, hidden: new Set(), isolate: -1, layer: -1, labels: false };
    this.labels = []; // { sprite, base: Vector3, centre, spots: [{point, normal}], offset, group: index into the drawn groups, text, shift, box, covered }
    this.raycaster = new Raycaster();
  }

  /** Change what is emphasised; redraws only when something changed. */
  set({ highlight = -1, hidden = [], isolate = -1, layer = -1, labels = false } = {}) {
    const next = { highlight, hidden: new Set(hidden), isolate, layer, labels: !!labels };
    const cur = this.state;
    const same = cur.highlight === next.highlight && cur.isolate === next.isolate && cur.layer === next.layer
      && cur.labels === next.labels && cur.hidden.size === next.hidden.size && [...next.hidden].every((x) => cur.hidden.has(x));
    if (same) return;
    this.state = next;
    this.viewer._rebuildPieces();
    this.viewer.requestRender();
  }

  pieceOf(instance) {
    const inst = this.viewer.puzzle && this.viewer.puzzle.instances[instance];
    return inst ? inst.piece : -1;
  }

  /** The cells of an instance that are drawn (all, some of one layer, or none). */
  cellsShown(instance, cells) {
    const st = this.state;
    const piece = this.pieceOf(instance);
    if (st.hidden.has(piece) || (st.isolate >= 0 && piece !== st.isolate)) return [];
    const p = this.viewer.puzzle;
    if (st.layer < 0 || p.zDim < 2) return cells;
    const perLayer = p.xDim * p.yDim;
    return cells.filter((c) => Math.floor(c / perLayer) === st.layer);
  }

  /** An instance's colour: its own, or faded when another piece is highlighted. */
  colorOf(instance, color) {
    const h = this.state.highlight;
    if (h < 0 || this.pieceOf(instance) === h) return color;
    return color.clone().lerp(DIM_TO, DIM_AMOUNT);
  }

  // ---- labels: one sprite per drawn instance, at its cell nearest its centroid ----

  clearLabels() {
    for (const l of this.labels) {
      this.viewer.scene.remove(l.sprite);
      l.sprite.material.map.dispose();
      l.sprite.material.dispose();
    }
    this.labels = [];
  }

  buildLabels(groups) {
    this.clearLabels();
    if (!this.state.labels) return;
    const p = this.viewer.puzzle;
    const { xDim: X, yDim: Y } = p;
    const done = new Set();
    groups.forEach((g, gi) => {
      if (!g.mobile || done.has(g.instance)) return;
      done.add(g.instance);
      const pts = g.cells.map((c) => [(c % X) + 0.5, (Math.floor(c / X) % Y) + 0.5, Math.floor(c / (X * Y)) + 0.5]);
      const mean = [0, 1, 2].map((a) => pts.reduce((s, q) => s + q[a], 0) / pts.length);
      const dist = (q) => (q[0] - mean[0]) ** 2 + (q[1] - mean[1]) ** 2 + (q[2] - mean[2]) ** 2;
      const order = [...pts].sort((a, b) => dist(a) - dist(b));
      // In a box, the places the tag may stand: just outside each outer face of the piece, the
      // faces of the cells nearest the piece's middle first (hideCoveredLabels takes the first
      // in sight); on a board, just above the cell nearest the middle.
      const own = new Set(pts.map((q) => q.join(',')));
      const spots = [];
      if (p.zDim > 1) {
        for (const q of order) {
          for (const [a, sign] of FACE_DIRS) {
            const n = [0, 0, 0];
            n[a] = sign;
            if (own.has([q[0] + n[0], q[1] + n[1], q[2] + n[2]].join(','))) continue; // (inside the piece)
            const normal = new Vector3(...n);
            spots.push({ point: new Vector3(...q).addScaledVector(normal, TAG_OUT), normal });
          }
        }
      }
      const centre = new Vector3(order[0][0], order[0][1], p.zDim === 1 ? 1.15 : order[0][2]);
      const name = p.pieces[g.instance >= 0 ? p.instances[g.instance].piece : 0].name;
      const sprite = makeLabel(name);
      // (drawn through the other pieces, no depth test: hideCoveredLabels decides where it shows)
      sprite.position.copy(centre);
      this.viewer.scene.add(sprite);
      this.labels.push({ sprite, base: centre, centre, spots, offset: new Vector3(), group: gi, text: name, shift: 0, box: null });
    });
    this.labelsMoved = true;
  }

  /**
   * Keep the name tags apart on screen, before every frame (without this, in the Tetris Cube "B"
   * lies on "L" and "K" on "E", on screen and so in the PNG). Nearest tag first, each tag's box in
   * pixels from the camera; a tag that would cover one already placed moves by whole tag
   * heights, up or down (1, then 2; the shift it had first, so that a turning view does not
   * make tags jump), to the first free place. It moves through its sprite's anchor (`center`):
   * its point in 3-D stays where it was. A tag with no free place stays on its piece.
   */
  layoutLabels() {
    const labels = this.labels;
    if (labels.length === 0) return;
    const { camera, canvas } = this.viewer;
    const width = canvas.clientWidth, height = canvas.clientHeight;
    if (labels.length > MAX_LAID_OUT || width === 0 || height === 0) {
      for (const l of labels) l.sprite.center.set(0.5, 0.5);
      return;
    }
    camera.updateMatrixWorld();
    this.hideCoveredLabels();
    const forward = camera.getWorldDirection(new Vector3());
    const cameraDepth = forward.dot(camera.position);
    const pixelsPerUnitAtOne = (height * camera.zoom) / (2 * Math.tan((camera.fov * Math.PI) / 360));
    const at = new Vector3();
    const items = [];
    for (const l of labels) {
      at.copy(l.sprite.position);
      const depth = forward.dot(at) - cameraDepth; // (no allocation per tag per frame)
      l.box = null;
      if (depth <= camera.near || l.covered) continue;
      at.project(camera);
      const h = (LABEL_HEIGHT * pixelsPerUnitAtOne) / depth;
      const w = (h * l.sprite.scale.x) / l.sprite.scale.y;
      items.push({ l, depth, x: ((at.x + 1) / 2) * width - w / 2, y: ((1 - at.y) / 2) * height - h / 2, w, h });
    }
    items.sort((a, b) => a.depth - b.depth);
    const placed = [];
    const free = (x, y, w, h) => placed.every((b) => x + w + LABEL_MARGIN_PX <= b.x || b.x + b.w + LABEL_MARGIN_PX <= x
      || y + h + LABEL_MARGIN_PX <= b.y || b.y + b.h + LABEL_MARGIN_PX <= y);
    for (const it of items) {
      const tries = [it.l.shift, 0];
      for (let k = 1; k <= MAX_LABEL_SHIFT; k++) tries.push(-k, k);
      let shift = 0;
      for (const k of tries) {
        if (free(it.x, it.y + k * LABEL_STEP * it.h, it.w, it.h)) {
          shift = k;
          break;
        }
      }
      it.l.shift = shift;
      it.l.box = { x: it.x, y: it.y + shift * LABEL_STEP * it.h, w: it.w, h: it.h };
      placed.push(it.l.box);
      // (pixels grow downwards, the anchor's y upwards: an anchor above the tag draws it lower)
      it.l.sprite.center.set(0.5, 0.5 + shift * LABEL_STEP);
    }
  }

  /**
   * In a box a tag is drawn through the pieces (so that one on a piece inside still shows once
   * the view is exploded or turned), on the outer face of its piece nearest the piece's middle
   * that is in sight: turned to the camera, with nothing between the camera and the face. With
   * no face in sight, the tag goes (it read as the name of the piece in front: "L" and "B" over
   * the red and yellow pieces of the Soma cube, on screen and in the PNG).
   */
  hideCoveredLabels() {
    const pc = this.viewer.pieces;
    // (rays only when something moved: the camera, the pieces or the tags themselves)
    const camera = this.viewer.camera.matrixWorld;
    if (!this.labelsMoved && this._seenFrom && this._seenFrom.equals(camera)) return;
    this._seenFrom = (this._seenFrom || camera.clone()).copy(camera);
    this.labelsMoved = false;
    const eye = this.viewer.camera.position;
    const at = this._at || (this._at = new Vector3());
    const dir = this._dir || (this._dir = new Vector3());
    const inSight = (spot, offset) => {
      at.copy(spot.point).add(offset);
      dir.copy(eye).sub(at);
      if (dir.dot(spot.normal) <= 0) return false; // (a face turned away)
      dir.negate();
      const dist = dir.length();
      this.raycaster.set(eye, dir.divideScalar(dist));
      this.raycaster.far = dist;
      const hits = this.raycaster.intersectObject(pc.mesh, false);
      this.raycaster.far = Infinity;
      return hits.length === 0;
    };
    for (const l of this.labels) {
      if (!l.spots.length || !pc) continue; // (a board's tags lie above it)
      const spot = l.spots.find((q) => inSight(q, l.offset));
      l.base = spot ? spot.point : l.centre;
      l.sprite.position.copy(l.base).add(l.offset);
      l.covered = !spot;
      l.sprite.visible = !!spot;
    }
  }

  /** The tags on screen as last laid out (CSS pixels of the canvas; tests): each one's box,
   * its point on its piece (ax, ay) and its instance; covered tags (not drawn) have no box. */
  labelBoxes() {
    const { camera, canvas } = this.viewer;
    const at = new Vector3();
    return this.labels.map((l) => {
      at.copy(l.sprite.position).project(camera);
      const anchor = { ax: ((at.x + 1) / 2) * canvas.clientWidth, ay: ((1 - at.y) / 2) * canvas.clientHeight };
      const instance = this.viewer.pieces ? this.viewer.pieces.groups[l.group].instance : -1;
      return l.box ? { ...l.box, ...anchor, text: l.text, instance, covered: false } : { ...anchor, text: l.text, instance, covered: !!l.covered };
    });
  }

  moveLabels(offsets) {
    for (const l of this.labels) {
      const o = l.group * 3;
      l.offset.set(offsets[o] || 0, offsets[o + 1] || 0, offsets[o + 2] || 0);
      l.sprite.position.copy(l.base).add(l.offset);
    }
    this.labelsMoved = true;
  }

  // ---- picking ----

  /** The piece drawn under a point of the page (client pixels), or null. */
  pick(clientX, clientY) {
    const pc = this.viewer.pieces;
    if (!pc) return null;
    const r = this.viewer.canvas.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return null;
    const ndc = new Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.viewer.camera.updateMatrixWorld();
    this.raycaster.setFromCamera(ndc, this.viewer.camera);
    const hits = this.raycaster.intersectObject(pc.mesh, false);
    if (hits.length === 0 || !hits[0].face) return null;
    const group = pc.groups[pc.vertexGroup[hits[0].face.a]];
    if (!group || !group.mobile) return null;
    return { instance: group.instance, piece: this.pieceOf(group.instance) };
  }

  /**
   * A point of the page where `piece` can be picked (test hook and keyboard fallback): the
   * projected centres of the piece's faces, the first one that picks the piece. Null if hidden.
   */
  screenPointOf(piece) {
    const pc = this.viewer.pieces;
    if (!pc) return null;
    const pos = pc.mesh.geometry.attributes.position.array;
    const r = this.viewer.canvas.getBoundingClientRect();
    this.viewer.camera.updateMatrixWorld();
    const v = new Vector3();
    for (let q = 0; q + 3 < pc.vertexGroup.length; q += 4) {
      const g = pc.groups[pc.vertexGroup[q]];
      if (!g || this.pieceOf(g.instance) !== piece) continue;
      v.set(0, 0, 0);
      for (let k = 0; k < 4; k++) v.x += pos[(q + k) * 3] / 4, v.y += pos[(q + k) * 3 + 1] / 4, v.z += pos[(q + k) * 3 + 2] / 4;
      v.project(this.viewer.camera);
      const x = r.left + ((v.x + 1) / 2) * r.width, y = r.top + ((1 - v.y) / 2) * r.height;
      if (x < r.left || x > r.right || y < r.top || y > r.bottom) continue;
      const hit = this.pick(x, y);
      if (hit && hit.piece === piece) return { x, y };
    }
    return null;
  }

  // ---- exports ----

  /**
   * The view as a PNG: rendered now and copied at once (a WebGL canvas's drawing is gone once
   * the browser has composited it, so a later toBlob of the canvas itself can be blank), over a
   * plain background, with a caption line at the top left.
   * @param {string} [caption]
   * @returns {Promise<Blob>}
   */
  pngBlob(caption = '') {
    const src = this.viewer.canvas;
    this.viewer.renderNow();
    const out = document.createElement('canvas');
    out.width = src.width;
    out.height = src.height;
    const ctx = out.getContext('2d');
    ctx.fillStyle = PNG_BACKGROUND;
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.drawImage(src, 0, 0); // same task as the render: the drawing buffer still holds it
    drawCaption(ctx, caption, out.width / Math.max(1, src.clientWidth || out.width));
    return encodePng(out);
  }

  /**
   * The pieces drawn (hidden ones and other layers left out) as a binary STL in millimetres,
   * 10 mm per cell, each piece one closed solid in its place in the solution, 0.5 mm apart.
   * @returns {{ data: DataView, triangles: number, pieces: number } | null} null: nothing drawn
   */
  stl() {
    const pc = this.viewer.pieces;
    const p = this.viewer.puzzle;
    if (!pc || !p) return null;
    const perInstance = new Map();
    for (const g of pc.groups) {
      if (!g.mobile) continue;
      if (!perInstance.has(g.instance)) perInstance.set(g.instance, []);
      perInstance.get(g.instance).push(...g.cells);
    }
    if (perInstance.size === 0) return null;
    const pieces = [...perInstance].map(([instance, cells]) => ({ name: p.pieces[p.instances[instance].piece].name, cells }));
    return piecesStl([p.xDim, p.yDim, p.zDim], pieces);
  }
}

/** A name tag: drawn through the other pieces (a label inside a box still shows). */
const makeLabel = (text) => textSprite(text, { height: LABEL_HEIGHT, depthTest: false });

/** An exported picture's caption, top left (`scale`: canvas pixels per CSS pixel). */
export function drawCaption(ctx, caption, scale = 1) {
  if (!caption) return;
  ctx.font = `600 ${Math.round(16 * scale)}px system-ui, sans-serif`;
  ctx.fillStyle = '#e7ecf5';
  ctx.textBaseline = 'top';
  ctx.fillText(caption, Math.round(14 * scale), Math.round(12 * scale));
}

/** A canvas as a PNG blob. */
export function encodePng(canvas) {
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser could not encode the PNG'))), 'image/png'));
}
