// The 3-D view: the puzzle box (a plate with a cell grid for flat boards, a wireframe box for 3-D
// puzzles), stationary cells, and the pieces of the current solution, each in its own colour.
//
// Renders on demand only (a change of content, a resize, or the orbit controls moving). All pieces
// of a drawing share one merged mesh and one line set, so a 23x23 board or a 4x4x4 cube is a couple
// of draw calls; exploding moves vertices on the CPU (cheap at these sizes). Every rebuild disposes
// the previous geometry.
//
// A little over 600 lines: the one scene (box, pieces, labels, explode, camera, snapshot), its
// parts sharing the renderer and the geometry they dispose.
import {
  BoxGeometry, BufferAttribute, BufferGeometry, DirectionalLight, EdgesGeometry,
  HemisphereLight, LineBasicMaterial, LineSegments, Mesh, MeshLambertMaterial, PerspectiveCamera,
  Scene, Vector3, WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { buildPieceGeometry } from './piece-geometry.js';
import { PieceEmphasis } from './piece-emphasis.js';
import { puzzleColors } from './colors.js';
import { motionOffset, movingInstances } from './motion.js';

const PLATE_THICKNESS = 0.22;
const GAP = 0.055;
const FOV = 30;
const PIECE_SPREAD = 1.25; // explode: pieces move this many times their offset from the centre
const LAYER_SPREAD = 1.6;  // explode by layers: extra gap between layers, in cells
const MOTION_LIFT = 1.6;   // watching the search: a piece drops in from / rises to this height, in cells
const TILT_2D = (24 * Math.PI) / 180; // camera tilt from straight down, for flat boards

/** True when the instance is the board-shaping stationary piece '*' (never drawn as blocks). */
function isShapePiece(inst) {
  return inst.stationary && inst.name === '*';
}

// WebGL emulated on the CPU (a machine or VM without a usable GPU: SwiftShader, Mesa's llvmpipe
// or softpipe). There multisampling costs ~40% of every frame (two frames of the Tetris Cube at
// 1060x860 in SwiftShader: 165 ms of CPU with it, 97 ms without), CPU the search workers and a
// smooth orbit both need; edges are a little rougher without it.
const SOFTWARE_GL = /SwiftShader|llvmpipe|softpipe|Software Rasterizer/i;

/** The WebGL context's renderer, as the driver names it. */
function rendererName(gl) {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  return String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) || '');
}

/** A renderer multisampled where a GPU draws, not where the CPU does (SOFTWARE_GL). */
function makeRenderer() {
  const settings = { alpha: true, powerPreference: 'high-performance' };
  const renderer = new WebGLRenderer({ ...settings, antialias: true });
  if (!SOFTWARE_GL.test(rendererName(renderer.getContext()))) return renderer;
  renderer.dispose();
  renderer.forceContextLoss();
  return new WebGLRenderer({ ...settings, antialias: false });
}

export class Viewer {
  /** @param {HTMLElement} container element the canvas fills */
  constructor(container) {
    this.container = container;
    this.renderer = makeRenderer();
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setClearColor(0x000000, 0);
    this.canvas = this.renderer.domElement;
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', '3-D view of the puzzle');
    this.canvas.tabIndex = 0;
    container.appendChild(this.canvas);

    this.scene = new Scene();
    this.camera = new PerspectiveCamera(FOV, 1, 0.05, 2000);
    this.camera.up.set(0, 0, 1); // puzzle z is up
    this.scene.add(this.camera);

    this.scene.add(new HemisphereLight(0xf4f7ff, 0x3a3f4c, 1.55));
    const key = new DirectionalLight(0xffffff, 1.9);
    key.position.set(-0.35, 0.55, 1); // relative to the camera: from above-left of the viewer
    this.camera.add(key);
    this.camera.add(key.target);
    key.target.position.set(0, 0, -1);
    const sun = new DirectionalLight(0xfff4e6, 0.55);
    sun.position.set(0.4, -0.8, 1.5); // fixed in the world, lights the tops
    this.scene.add(sun);

    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.enableDamping = true;
    this.controls.dampingFactor = 0.14;
    this.controls.zoomToCursor = false;
    this.controls.addEventListener('change', () => this.requestRender());
    this.controls.addEventListener('start', () => { this.userMoved = true; });

    // Diffuse (Lambert) shading: the physically based material (roughness 0.62, metalness
    // 0.02) drew the same picture to the eye, and cost 1.8x the frame where WebGL runs on the
    // CPU (10x6 at 1060x860 in SwiftShader: 38 ms against 21 ms with the plate's), time taken
    // from the search's workers and from a smooth orbit.
    this.pieceMaterial = new MeshLambertMaterial({
      vertexColors: true,
      polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
    });
    this.lineMaterial = new LineBasicMaterial({ color: 0x10131a, transparent: true, opacity: 0.85 });
    this.plateMaterial = new MeshLambertMaterial({
      color: 0x39475e,
      polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
    });
    this.gridMaterial = new LineBasicMaterial({ color: 0x8a9bb8, transparent: true, opacity: 0.55 });
    this.boxMaterial = new LineBasicMaterial({ color: 0xa9bad6, transparent: true, opacity: 0.6 });

    this.puzzle = null;
    this.grid = null;
    this.motion = null; // a piece moving in or out (showSolution's motion)
    this.explode = 0;
    this.explodeMode = 'pieces';
    this.piecesDrawn = 0;
    this.userMoved = false;
    this.margins = { top: 70, bottom: 90, side: 24 }; // pixels covered by overlays
    this.board = [];   // objects of the empty board (plate, grid, box)
    this.pieces = null; // { mesh, lines, base, lineBase, vertexGroup, lineGroup, groups }
    this._frame = 0;
    this.emphasis = new PieceEmphasis(this); // highlight / hide / isolate / one layer / labels

    this._resizeObserver = new ResizeObserver(() => this.resize());
    this._resizeObserver.observe(container);
    this.resize();
  }

  requestRender() {
    if (this._frame) return;
    this._frame = requestAnimationFrame(() => {
      this._frame = 0;
      this.controls.update(); // with damping, a moving camera emits 'change' -> next frame
      this.emphasis.layoutLabels();
      this.renderer.render(this.scene, this.camera);
    });
  }

  /** End the damped glide of a turn, pan or zoom at once, where it would come to rest. */
  settleCamera() {
    this.controls.enableDamping = false;
    this.controls.update(); // (undamped, the motion still pending is applied whole)
    this.controls.enableDamping = true;
    this.requestRender();
  }

  /** Render now (synchronously), e.g. before reading pixels. */
  renderNow() {
    this.controls.update();
    this.emphasis.layoutLabels();
    this.renderer.render(this.scene, this.camera);
  }

  resize() {
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h, false);
    this.canvas.style.width = '100%';
    this.canvas.style.height = '100%';
    this.camera.aspect = w / h;
    this._applyShift();
    this.camera.updateProjectionMatrix();
    if (this.puzzle && !this.userMoved) this.resetView();
    this.requestRender();
  }

  /** Show a new puzzle: its empty board, stationary pieces, camera framed to fit (unless keepView). */
  setPuzzle(puzzle, { keepView = false } = {}) {
    this.puzzle = puzzle;
    this.colors = puzzleColors(puzzle);
    this.grid = null;
    this.motion = null;
    this.explode = 0;
    this._disposeBoard();
    this._buildBoard();
    this._rebuildPieces();
    // keepView: the same box redrawn (an edit of its cells): the person's camera stays
    if (!keepView) {
      this.userMoved = false;
      this.resetView();
    }
    this._updateLabel();
    this.requestRender();
  }

  /**
   * Draw a solution grid (instance index per box cell, -1 for an empty cell), or null for the
   * empty board. `motion`: pieces moving into place or away, over `ms`:
   *   watching the search: one piece drops in ({instance, ms}) or is lifted away ({instance,
   *     cells, leaving: true, ms}: it is drawn at `cells` until it has risen);
   *   building (model/build-order.js stepMotion): pieces slide along `path`, offsets from their
   *     place in cells in the order travelled ({instances, path, ms}, ending at [0, 0, 0]), or
   *     leave along it ({instances, path, leaving: true, cellsOf: Map instance -> cells, ms}).
   */
  showSolution(grid, motion = null) {
    // a solution appearing (or going) starts (or ends) the explode setting's effect: keep the
    // framing in step, as setExplode does
    this._keepFramed(() => {
      this.grid = grid ? grid.slice() : null;
    });
    this.lastMotion = motion; // (the test hooks report it: whether a step moved, and how)
    this.motion = motion && motion.ms > 0 ? { ...motion, start: performance.now(), t: 0 } : null;
    this._rebuildPieces();
    this._updateLabel();
    this.requestRender();
    if (this.motion) this._animateMotion();
  }

  /** True while a piece is moving in or out (tests wait for the still picture). */
  get animating() {
    return !!this.motion;
  }

  _animateMotion() {
    const m = this.motion;
    requestAnimationFrame(() => {
      if (this.motion !== m) return; // superseded by another drawing
      m.t = Math.min(1, (performance.now() - m.start) / m.ms);
      if (m.t >= 1) {
        this.motion = null;
        if (m.leaving) this._rebuildPieces(); // gone
        else this._applyExplode();
      } else {
        this._applyExplode();
        this._animateMotion();
      }
      this.renderNow();
    });
  }

  /** 0 (assembled) .. 1 (fully apart). Zooms out (or back in) to keep the pieces in view. */
  setExplode(amount) {
    this._keepFramed(() => {
      this.explode = Math.max(0, Math.min(1, amount));
    });
    this._applyExplode();
    this.requestRender();
  }

  setExplodeMode(mode) {
    if (mode === this.explodeMode) return;
    this._keepFramed(() => {
      this.explodeMode = mode;
    });
    this._rebuildPieces();
    this.requestRender();
  }

  /**
   * Pixels at the canvas edges covered by page overlays; the framing keeps the puzzle clear of
   * them. shift: centre the puzzle between the top and bottom margins (a lesson's narration
   * covers much of the bottom) instead of in the whole canvas.
   */
  setMargins(margins) {
    this.margins = { ...this.margins, ...margins };
    this._applyShift();
    if (this.puzzle && !this.userMoved) this.resetView();
    else this.requestRender();
  }

  /** The projection moved up by half the difference of the margins (shift), or centred. */
  _applyShift() {
    const w = Math.max(1, this.container.clientWidth), h = Math.max(1, this.container.clientHeight);
    const dy = this.margins.shift ? Math.round((this.margins.bottom - this.margins.top) / 2) : 0;
    if (dy) this.camera.setViewOffset(w, h, 0, dy, w, h);
    else if (this.camera.view && this.camera.view.enabled) this.camera.clearViewOffset();
  }

  /** Frame the puzzle: flat boards from above, slightly tilted; boxes from an isometric-ish corner. */
  resetView() {
    const p = this.puzzle;
    if (!p) return;
    const flat = p.zDim === 1;
    const target = this._centre();
    const dir = flat
      ? new Vector3(0, -Math.sin(TILT_2D), Math.cos(TILT_2D))
      : new Vector3(0.62, -1.0, 0.74).normalize();
    const dist = this._fitDistance();
    this.camera.position.copy(target).addScaledVector(dir, dist);
    this.camera.near = Math.max(0.05, dist / 100);
    this.camera.far = dist * 20;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(target);
    this.controls.minDistance = Math.max(1.5, dist * 0.15);
    this.controls.maxDistance = dist * 6;
    this.controls.update();
    this.userMoved = false;
    this.requestRender();
  }

  /**
   * Where the person turned the camera, as a share link carries it (null while the framing is
   * the puzzle's own): [azimuth, elevation] in degrees around the centre of what is drawn (z up),
   * the distance in percent of the framing's (so a phone shows what a wide screen showed, fitted
   * to its own shape), and the pan: the point looked at, from that centre, in cells.
   */
  cameraView() {
    if (!this.puzzle || !this.userMoved) return null;
    const offset = this.camera.position.clone().sub(this.controls.target);
    const len = offset.length();
    const pan = this.controls.target.clone().sub(this._centre());
    const deg = (r) => Math.round((r * 180) / Math.PI);
    const tenth = (x) => Math.round(x * 10) / 10 || 0;
    return [
      (deg(Math.atan2(offset.y, offset.x)) + 360) % 360, deg(Math.asin(Math.max(-1, Math.min(1, offset.z / len)))),
      Math.round((len / this._fitDistance()) * 100), tenth(pan.x), tenth(pan.y), tenth(pan.z),
    ];
  }

  /** Turn the camera as cameraView said (a share link's view; model/link checks the numbers). */
  setCameraView([azimuth, elevation, percent, px = 0, py = 0, pz = 0]) {
    if (!this.puzzle) return;
    const rad = (d) => (d * Math.PI) / 180;
    const el = rad(Math.max(-89, Math.min(89, elevation)));
    const dir = new Vector3(Math.cos(el) * Math.cos(rad(azimuth)), Math.cos(el) * Math.sin(rad(azimuth)), Math.sin(el));
    const fit = this._fitDistance();
    const dist = Math.max(this.controls.minDistance, Math.min(this.controls.maxDistance, (fit * percent) / 100));
    this.controls.target.copy(this._centre()).add(new Vector3(px, py, pz));
    this.camera.position.copy(this.controls.target).addScaledVector(dir, dist);
    this.camera.far = Math.max(this.camera.far, dist * 20);
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.userMoved = true;
    this.requestRender();
  }

  /**
   * Turn by `azimuth` and `elevation` degrees around the point looked at (z up) and move the
   * camera `zoom` times its distance (< 1: closer): the keyboard's way to turn and zoom.
   */
  nudgeCamera(azimuth = 0, elevation = 0, zoom = 1) {
    if (!this.puzzle) return;
    this.settleCamera(); // (a glide still running would carry on past the step)
    const target = this.controls.target;
    const offset = this.camera.position.clone().sub(target);
    const len = offset.length();
    const rad = (d) => (d * Math.PI) / 180;
    const az = Math.atan2(offset.y, offset.x) + rad(azimuth);
    const el = Math.max(rad(-89), Math.min(rad(89), Math.asin(Math.max(-1, Math.min(1, offset.z / len))) + rad(elevation)));
    const dist = Math.max(this.controls.minDistance, Math.min(this.controls.maxDistance, len * zoom));
    this.camera.position.copy(target).addScaledVector(new Vector3(Math.cos(el) * Math.cos(az), Math.cos(el) * Math.sin(az), Math.sin(el)), dist);
    this.userMoved = true;
    this.controls.update(); // (emits 'change': the state follows as after a drag)
    this.requestRender();
  }

  /** Apply a change of the explode settings, moving the camera so the view keeps its framing. */
  _keepFramed(change) {
    if (!this.puzzle) {
      change();
      return;
    }
    const d0 = this._fitDistance();
    const c0 = this._centre();
    change();
    const d1 = this._fitDistance();
    const c1 = this._centre();
    const offset = this.camera.position.clone().sub(this.controls.target).multiplyScalar(d1 / d0);
    this.controls.target.add(c1.sub(c0));
    this.camera.position.copy(this.controls.target).add(offset);
    this.camera.far = Math.max(this.camera.far, offset.length() * 20);
    this.camera.updateProjectionMatrix();
    this.controls.maxDistance = Math.max(this.controls.maxDistance, offset.length() * 3);
  }

  /**
   * How far apart the pieces are drawn: the explode setting while a solution (or a step of the
   * search) is drawn, else 0. The empty board has no pieces to take apart, and exploding its
   * stationary pieces while the box is hidden (see _applyExplode) left the view blank.
   */
  _explodeShown() {
    return this.puzzle && this.puzzle.zDim > 1 && this.grid ? this.explode : 0;
  }

  /** Centre of what is drawn (layers explode upwards from the bottom layer). */
  _centre() {
    const { xDim: X, yDim: Y, zDim: Z } = this.puzzle;
    if (Z === 1) return new Vector3(X / 2, Y / 2, 0.3);
    const lift = this.explodeMode === 'layers' ? ((Z - 1) / 2) * this._explodeShown() * LAYER_SPREAD : 0;
    return new Vector3(X / 2, Y / 2, Z / 2 + lift);
  }

  /** Camera distance that shows the whole puzzle (at the current explode amount). */
  _fitDistance() {
    const p = this.puzzle;
    if (!p) return 0;
    const { xDim: X, yDim: Y, zDim: Z } = p;
    // Leave room for the page's overlays (title above, legend below): fit into the canvas
    // minus these margins, in pixels.
    const w = Math.max(1, this.container.clientWidth), h = Math.max(1, this.container.clientHeight);
    const fracH = Math.max(0.5, (h - this.margins.top - this.margins.bottom) / h);
    const fracW = Math.max(0.5, (w - this.margins.side * 2) / w);
    const tanHalf = Math.tan(((FOV / 2) * Math.PI) / 180) * fracH;
    const aspect = ((this.camera.aspect || 1) * fracW) / fracH;
    if (Z === 1) {
      const halfH = (Y / 2) * Math.cos(TILT_2D) + 0.6;
      const halfW = X / 2 + 0.4;
      return Math.max(halfH / tanHalf, halfW / (tanHalf * aspect)) * 1.04 + 1;
    }
    const e = this._explodeShown();
    let hx = X / 2, hy = Y / 2, hz = Z / 2;
    if (this.explodeMode === 'layers') hz += ((Z - 1) / 2) * e * LAYER_SPREAD;
    else { const k = 1 + e * PIECE_SPREAD * 0.6; hx *= k; hy *= k; hz *= k; } // centroids move less than corners
    const r = Math.sqrt(hx * hx + hy * hy + hz * hz);
    return (r / Math.sin(Math.atan(tanHalf * Math.min(1, aspect)))) * 1.08;
  }

  /** Pixel statistics of a fresh render (test hook): drawn (non-background) pixels and colours. */
  sample() {
    this.renderNow();
    const gl = this.renderer.getContext();
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    let drawn = 0;
    const colours = new Set();
    for (let i = 0; i < px.length; i += 4) {
      if (px[i + 3] === 0) continue;
      drawn++;
      colours.add(((px[i] >> 4) << 8) | ((px[i + 1] >> 4) << 4) | (px[i + 2] >> 4));
    }
    const { antialias } = gl.getContextAttributes();
    return { width: w, height: h, drawnFraction: drawn / (w * h), colours: colours.size, renderer: rendererName(gl), multisampled: antialias };
  }

  dispose() {
    cancelAnimationFrame(this._frame);
    this._resizeObserver.disconnect();
    this._disposePieces();
    this._disposeBoard();
    this.controls.dispose();
    for (const m of [this.pieceMaterial, this.lineMaterial, this.plateMaterial, this.gridMaterial, this.boxMaterial]) m.dispose();
    this.renderer.dispose();
    this.canvas.remove();
  }

  // ---- internals ----

  _updateLabel() {
    const p = this.puzzle;
    if (!p) return;
    const dims = `${p.xDim} by ${p.yDim}${p.zDim > 1 ? ` by ${p.zDim}` : ''}`;
    const what = this.grid ? `a solution with ${this.piecesDrawn} pieces` : 'the empty board';
    this.canvas.setAttribute('aria-label', `3-D view of ${p.title || 'the puzzle'} (${dims}): ${what}. Drag or arrow keys to rotate, scroll or + and − to zoom.`);
  }

  /** Cells taken by the board-shaping stationary piece '*', as a Set of cell indices. */
  _shapeCells() {
    const p = this.puzzle;
    const set = new Set();
    p.pieces.forEach((piece) => {
      if (piece.stationary && piece.name === '*') {
        for (const [x, y, z] of piece.cells) set.add(x + p.xDim * (y + p.yDim * z));
      }
    });
    return set;
  }

  _buildBoard() {
    const p = this.puzzle;
    const { xDim: X, yDim: Y, zDim: Z } = p;
    const holes = this._shapeCells();
    // Plate under the footprint: for a flat board only its usable cells; for a box the whole base.
    const footprint = [];
    for (let y = 0; y < Y; y++) {
      for (let x = 0; x < X; x++) {
        let used = Z > 1;
        if (!used) used = !holes.has(x + X * y);
        if (used) footprint.push(x + X * y);
      }
    }
    const plate = buildPieceGeometry({ dims: [X, Y, 1], groups: [{ cells: footprint }], gap: 0 });
    const pos = plate.positions;
    for (let i = 2; i < pos.length; i += 3) pos[i] = pos[i] * PLATE_THICKNESS - PLATE_THICKNESS - 0.01;
    const plateGeom = new BufferGeometry();
    plateGeom.setAttribute('position', new BufferAttribute(pos, 3));
    plateGeom.setAttribute('normal', new BufferAttribute(plate.normals, 3));
    plateGeom.setIndex(new BufferAttribute(plate.indices, 1));
    const plateMesh = new Mesh(plateGeom, this.plateMaterial);

    // Cell grid on top of the plate.
    const lines = new Float32Array(footprint.length * 4 * 2 * 3);
    let o = 0;
    const z = -0.005;
    for (const c of footprint) {
      const x = c % X, y = Math.floor(c / X);
      const corners = [[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]];
      for (let e = 0; e < 4; e++) {
        const a = corners[e], b = corners[(e + 1) % 4];
        lines[o++] = a[0]; lines[o++] = a[1]; lines[o++] = z;
        lines[o++] = b[0]; lines[o++] = b[1]; lines[o++] = z;
      }
    }
    const gridGeom = new BufferGeometry();
    gridGeom.setAttribute('position', new BufferAttribute(lines, 3));
    const gridLines = new LineSegments(gridGeom, this.gridMaterial);
    this.board.push(plateMesh, gridLines);

    if (Z > 1) {
      const box = new BoxGeometry(X, Y, Z);
      const edges = new EdgesGeometry(box);
      box.dispose();
      const boxLines = new LineSegments(edges, this.boxMaterial);
      boxLines.position.set(X / 2, Y / 2, Z / 2);
      this.board.push(boxLines);
      this.boxLines = boxLines;
    } else {
      this.boxLines = null;
    }
    for (const obj of this.board) this.scene.add(obj);
  }

  _disposeBoard() {
    for (const obj of this.board) {
      this.scene.remove(obj);
      obj.geometry.dispose();
    }
    this.board = [];
    this.boxLines = null;
  }

  _disposePieces() {
    if (!this.pieces) return;
    this.scene.remove(this.pieces.mesh, this.pieces.lines);
    this.pieces.mesh.geometry.dispose();
    this.pieces.lines.geometry.dispose();
    this.pieces = null;
    this.emphasis.clearLabels();
  }

  /** Groups of cells to draw: one per instance (or per instance and layer when exploding layers). */
  _groups() {
    const p = this.puzzle;
    const { xDim: X, yDim: Y } = p;
    const perInstance = new Map(); // instance -> cell indices
    const m = this.motion;
    if (m && m.leaving && m.cells) perInstance.set(m.instance, Array.from(m.cells)); // rising away
    if (m && m.leaving && m.cellsOf) for (const [i, cells] of m.cellsOf) perInstance.set(i, Array.from(cells)); // sliding out
    if (this.grid) {
      const g = this.grid;
      for (let c = 0; c < g.length; c++) {
        const i = g[c];
        if (i < 0 || i >= p.instances.length || isShapePiece(p.instances[i])) continue;
        let list = perInstance.get(i);
        if (!list) perInstance.set(i, (list = []));
        list.push(c);
      }
    } else {
      // Empty board: only the stationary pieces (except '*'), at their fixed cells.
      p.instances.forEach((inst, i) => {
        if (!inst.stationary || isShapePiece(inst)) return;
        const piece = p.pieces[inst.piece];
        perInstance.set(i, piece.cells.map(([x, y, z]) => x + X * (y + Y * z)));
      });
    }
    const groups = [];
    const byLayer = this.explodeMode === 'layers' && p.zDim > 1;
    for (const [i, all] of [...perInstance.entries()].sort((a, b) => a[0] - b[0])) {
      const cells = this.emphasis.cellsShown(i, all);
      if (cells.length === 0) continue;
      const color = this.emphasis.colorOf(i, this.colors.instanceColor(i));
      const mobile = !p.instances[i].stationary;
      if (!byLayer) {
        groups.push({ instance: i, cells, color, mobile, layer: -1 });
      } else {
        const layers = new Map();
        for (const c of cells) {
          const zz = Math.floor(c / (X * Y));
          if (!layers.has(zz)) layers.set(zz, []);
          layers.get(zz).push(c);
        }
        for (const [zz, lc] of layers) groups.push({ instance: i, cells: lc, color, mobile, layer: zz });
      }
    }
    return groups;
  }

  _rebuildPieces() {
    this._disposePieces();
    const p = this.puzzle;
    if (!p) return;
    const groups = this._groups();
    const leaving = this.motion && this.motion.leaving ? movingInstances(this.motion) : new Set();
    this.piecesDrawn = this.grid ? new Set(groups.filter((g) => g.mobile && !leaving.has(g.instance)).map((g) => g.instance)).size : 0;
    if (groups.length === 0) return;
    const dims = [p.xDim, p.yDim, p.zDim];
    const geo = buildPieceGeometry({ dims, groups, gap: GAP });

    // explode direction of each group: from the box centre to the group's centroid
    const { xDim: X, yDim: Y } = p;
    const centre = [p.xDim / 2, p.yDim / 2, p.zDim / 2];
    for (const g of groups) {
      let sx = 0, sy = 0, sz = 0;
      for (const c of g.cells) {
        sx += (c % X) + 0.5;
        sy += (Math.floor(c / X) % Y) + 0.5;
        sz += Math.floor(c / (X * Y)) + 0.5;
      }
      const n = g.cells.length;
      g.dir = [sx / n - centre[0], sy / n - centre[1], sz / n - centre[2]];
    }

    const meshGeom = new BufferGeometry();
    meshGeom.setAttribute('position', new BufferAttribute(geo.positions.slice(), 3));
    meshGeom.setAttribute('normal', new BufferAttribute(geo.normals, 3));
    meshGeom.setAttribute('color', new BufferAttribute(geo.colors, 3));
    meshGeom.setIndex(new BufferAttribute(geo.indices, 1));
    const lineGeom = new BufferGeometry();
    lineGeom.setAttribute('position', new BufferAttribute(geo.linePositions.slice(), 3));
    const mesh = new Mesh(meshGeom, this.pieceMaterial);
    const lines = new LineSegments(lineGeom, this.lineMaterial);
    this.pieces = {
      mesh, lines, groups,
      base: geo.positions, lineBase: geo.linePositions,
      vertexGroup: geo.vertexGroup, lineGroup: geo.lineGroup,
    };
    this.scene.add(mesh, lines);
    this.emphasis.buildLabels(groups);
    this._applyExplode();
  }

  _applyExplode() {
    const pc = this.pieces;
    const p = this.puzzle;
    // Exploded pieces fly through the box and below the plate: hide the box then (the plate
    // stays for layers, which rise from the bottom one).
    const e = this._explodeShown();
    const exploded = e > 0;
    for (const obj of this.board) obj.visible = !exploded || (this.explodeMode === 'layers' && obj !== this.boxLines);
    if (!pc) return;
    const offsets = new Float32Array(pc.groups.length * 3);
    if (e > 0) {
      pc.groups.forEach((g, gi) => {
        if (this.explodeMode === 'layers' && g.layer >= 0) {
          offsets[gi * 3 + 2] = g.layer * e * LAYER_SPREAD;
        } else {
          const k = e * PIECE_SPREAD;
          offsets[gi * 3] = g.dir[0] * k;
          offsets[gi * 3 + 1] = g.dir[1] * k;
          offsets[gi * 3 + 2] = g.dir[2] * k;
        }
      });
    }
    // a piece dropping in (from MOTION_LIFT cells above) or rising away, or sliding along its
    // path, eased
    const m = this.motion;
    if (m) {
      const at = motionOffset(m, MOTION_LIFT);
      const moving = movingInstances(m);
      pc.groups.forEach((g, gi) => {
        if (!moving.has(g.instance)) return;
        for (let a = 0; a < 3; a++) offsets[gi * 3 + a] += at[a];
      });
    }
    const move = (attr, base, groupOf) => {
      const out = attr.array;
      for (let v = 0; v < groupOf.length; v++) {
        const g = groupOf[v] * 3, o = v * 3;
        out[o] = base[o] + offsets[g];
        out[o + 1] = base[o + 1] + offsets[g + 1];
        out[o + 2] = base[o + 2] + offsets[g + 2];
      }
      attr.needsUpdate = true;
    };
    move(pc.mesh.geometry.attributes.position, pc.base, pc.vertexGroup);
    move(pc.lines.geometry.attributes.position, pc.lineBase, pc.lineGroup);
    pc.mesh.geometry.computeBoundingSphere();
    pc.lines.geometry.computeBoundingSphere();
    this.emphasis.moveLabels(offsets);
  }
}

