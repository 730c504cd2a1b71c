// The search tree drawn as it grows (lesson/search-tree.js, laid out by lesson/tree-layout.js)
// on a 2-D canvas: a node per partial packing (the piece placed written in it), the current
// path lit, dead ends marked with their cause, solutions with a star, finished branches folded
// into a glyph with their sizes (click to open one level; the earlier branches of a level are
// gathered into a group, click to spread them), the ways still to try at each level of the
// path as a dashed stub. Clicking a node jumps to the step that made it. It follows the replay
// exactly, forwards, backwards and after a seek; the view eases to the current node (drag to
// pan, wheel or the buttons to zoom; "Follow" to follow again), and only the part on screen is
// drawn, crisp at the device's pixel ratio. The canvas's aria-label says the tree in words.
//
//   const view = new TreeView(container, { onJump: (step, node) => watch.seek(step) });
//   view.setTree(new SearchTree(recording), puzzle);  // puzzle: instances' names, cell names
//   view.setStep(player.step);                        // drawn at the next animation frame
//   view.renderNow();                                 // drawn now (tests, benchmarks)
//   view.visibleNodeCount(); view.currentPath();      // the tree shown: node count, path ids
//   view.destroy();
import { layoutTree, itemStats } from './tree-layout.js';
import { CAUSES, COLORS, FONT, R, TOP, paintTree } from './tree-paint.js';
import { ROOT } from './search-tree.js';
import { cellName } from './cell-names.js';
import { num, plural } from '../app/format.js';

const MIN_ZOOM = 0.35, MAX_ZOOM = 2.2;
const READABLE_ZOOM = 0.72; // zoomed out further than this to fit, the view follows the current node instead ...
const FOLLOW_ZOOM = 0.85;   // ... at this zoom
const EASE = 0.22;        // share of the way to the target framing per frame

export class TreeView {
  /**
   * @param {HTMLElement} container
   * @param {{onJump?: (step: number, node: number) => void, height?: number}} opts
   */
  constructor(container, { onJump = () => {}, height = 0 } = {}) {
    this.container = container;
    this.onJump = onJump;
    this.fixedHeight = height;
    this.tree = null;
    this.puzzle = null;
    this.step = 0;
    this.layout = null;
    this.expanded = new Set();
    this.collapsed = new Set();
    this.openGroups = new Set();
    this.follow = true;
    this.camera = { x: 0, y: 0, zoom: 1 };   // layout point at the canvas centre, and zoom
    this.target = { x: 0, y: 0, zoom: 1 };
    this.frame = 0;
    this.dirtyLayout = true;
    this.lastDrawMs = 0;

    const doc = container.ownerDocument;
    this.root = doc.createElement('figure');
    this.root.className = 'tree-view';
    Object.assign(this.root.style, { position: 'relative', margin: '0', display: 'flex', flexDirection: 'column', gap: '6px', minWidth: '0' });
    this.canvas = doc.createElement('canvas');
    this.canvas.className = 'tree-canvas';
    this.canvas.setAttribute('role', 'img');
    this.canvas.tabIndex = 0;
    Object.assign(this.canvas.style, { width: '100%', display: 'block', borderRadius: '8px', touchAction: 'pan-y', cursor: 'grab', background: COLORS.background });
    // under the canvas: the buttons, then the legend of the marks shown
    this.bar = doc.createElement('div');
    Object.assign(this.bar.style, { display: 'flex', flexWrap: 'wrap', gap: '4px 10px', alignItems: 'flex-start' });
    this.tools = doc.createElement('div');
    Object.assign(this.tools.style, { display: 'flex', gap: '4px', flex: 'none' });
    const button = (text, label, onclick) => {
      const b = doc.createElement('button');
      b.type = 'button';
      b.textContent = text;
      b.title = label;
      b.setAttribute('aria-label', label);
      Object.assign(b.style, { font: `600 14px ${FONT}`, minWidth: '32px', minHeight: '30px', padding: '2px 8px', borderRadius: '6px', border: '1px solid #3e4c72', background: '#1d2740', color: COLORS.text, cursor: 'pointer' });
      b.addEventListener('click', onclick);
      this.tools.append(b);
      return b;
    };
    this.followButton = button('Follow', 'Follow the search: keep the current node in view', () => this.setFollow(true));
    button('−', 'Zoom out', () => this.zoomBy(1 / 1.25));
    button('+', 'Zoom in', () => this.zoomBy(1.25));
    this.legend = doc.createElement('p');
    this.legend.className = 'tree-legend';
    Object.assign(this.legend.style, { margin: '0', font: `13px/1.45 ${FONT}`, color: COLORS.muted, minWidth: '0', flex: '1 1 300px' });
    this.bar.append(this.tools, this.legend);
    this.root.append(this.canvas, this.bar);
    container.append(this.root);

    this.bindPointer();
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
  }

  /** A new tree (a new recording); `puzzle` names the pieces and cells. */
  setTree(tree, puzzle = null) {
    this.tree = tree;
    this.puzzle = puzzle;
    this.expanded.clear();
    this.collapsed.clear();
    this.openGroups.clear();
    this.step = 0;
    this.follow = true;
    this.dirtyLayout = true;
    this.snap = true;
    this.schedule();
  }

  /** Show the tree as it is after `step` (the replay's position). */
  setStep(step) {
    if (!this.tree) return;
    if (this.tree.length < this.rec().length) this.tree.update(); // the recording grew
    const s = Math.max(0, Math.min(this.tree.length, Math.floor(step)));
    if (s === this.step && !this.dirtyLayout) return;
    this.step = s;
    this.dirtyLayout = true;
    this.schedule();
  }

  rec() {
    return this.tree.rec;
  }

  /** Nodes of the tree shown: those created by the steps before the current one (with the root). */
  visibleNodeCount() {
    return this.tree ? this.tree.visibleNodeCount(this.step) : 0;
  }

  /** Node ids from the root to the current node. */
  currentPath() {
    return this.tree ? this.tree.pathAt(this.step) : [];
  }

  setFollow(on) {
    this.follow = !!on;
    this.followButton.disabled = this.follow;
    this.followButton.style.opacity = this.follow ? '0.5' : '1';
    if (on) this.frameTarget();
    this.schedule();
  }

  zoomBy(f, at = null) {
    const c = this.target;
    const zoom = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, c.zoom * f));
    if (at) {
      // the layout point under the pointer stays under it
      const p = this.toLayout(at.x, at.y);
      c.x = p.x - (at.x - this.width / 2) / zoom;
      c.y = p.y - (at.y - this.height / 2) / zoom;
    }
    c.zoom = zoom;
    this.setFollow(false);
  }

  destroy() {
    cancelAnimationFrame(this.frame);
    this.resizeObserver.disconnect();
    this.root.remove();
  }

  resize() {
    const w = Math.max(120, Math.round(this.container.clientWidth));
    const available = this.container.clientHeight - this.bar.offsetHeight - 6;
    const h = this.fixedHeight || (available > 160 ? available : 360);
    if (w === this.width && h === this.height) return;
    this.width = w;
    this.height = h;
    this.canvas.style.height = `${h}px`;
    this.dpr = (this.container.ownerDocument.defaultView || {}).devicePixelRatio || 1;
    this.canvas.width = Math.round(w * this.dpr);
    this.canvas.height = Math.round(h * this.dpr);
    this.dirtyLayout = true;
    this.snap = true;
    this.schedule();
  }

  schedule() {
    if (this.frame) return;
    const win = this.container.ownerDocument.defaultView;
    this.frame = win.requestAnimationFrame(() => {
      this.frame = 0;
      this.renderNow();
    });
  }

  /** Lay out (when the step or the folding changed), ease the framing, draw. */
  renderNow() {
    const t0 = performance.now();
    if (!this.tree) {
      this.clear();
      return;
    }
    if (this.dirtyLayout) {
      // the width the boxes of one depth may take: about the canvas at a readable zoom
      const budget = Math.max(240, this.width / READABLE_ZOOM);
      this.layout = layoutTree(this.tree, this.step, { budget, expanded: this.expanded, collapsed: this.collapsed, openGroups: this.openGroups });
      this.dirtyLayout = false;
      if (this.follow) this.frameTarget();
      this.describe();
    }
    const c = this.camera, t = this.target;
    if (this.snap) {
      Object.assign(c, t);
      this.snap = false;
    } else {
      c.x += (t.x - c.x) * EASE;
      c.y += (t.y - c.y) * EASE;
      c.zoom += (t.zoom - c.zoom) * EASE;
    }
    const moving = Math.abs(t.x - c.x) * c.zoom > 0.5 || Math.abs(t.y - c.y) * c.zoom > 0.5 || Math.abs(t.zoom - c.zoom) > 0.002;
    if (!moving) Object.assign(c, t);
    this.draw();
    if (moving) this.schedule();
    this.lastDrawMs = performance.now() - t0;
  }

  /** Where the view should look: the whole tree when it fits readably, else the current node. */
  frameTarget() {
    const L = this.layout;
    if (!L) return;
    const m = L.metrics;
    const treeH = TOP + (L.depth + 1) * m.level;
    const pad = 16;
    const fit = Math.min(1.6, (this.width - 2 * pad) / Math.max(1, L.width), (this.height - 2 * pad) / treeH);
    const t = this.target;
    if (fit >= READABLE_ZOOM) {
      t.zoom = fit;
      t.x = L.width / 2;
      t.y = treeH / 2;
      return;
    }
    t.zoom = FOLLOW_ZOOM;
    const cur = L.items.find((it) => it.current) || L.items[0];
    const halfW = this.width / 2 / t.zoom, halfH = this.height / 2 / t.zoom;
    const cy = TOP + cur.depth * m.level;
    // the current node a little right of the centre (its finished branches lie to its left)
    t.x = clamp(cur.x - halfW * 0.15, halfW - pad, L.width - halfW + pad);
    t.y = clamp(cy, halfH - pad, treeH - halfH + pad);
  }

  toLayout(px, py) {
    const c = this.camera;
    return { x: c.x + (px - this.width / 2) / c.zoom, y: c.y + (py - this.height / 2) / c.zoom };
  }

  clear() {
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
  }

  draw() {
    paintTree(this.canvas.getContext('2d'), this.layout, {
      tree: this.tree, step: this.step, camera: this.camera, width: this.width, height: this.height, dpr: this.dpr,
      name: (instance) => this.pieceName(instance),
    });
  }

  pieceName(instance) {
    const inst = this.puzzle && this.puzzle.instances[instance];
    return inst ? inst.name : String(instance);
  }

  /** The tree in words (the canvas's aria-label) and the legend of the marks it shows. */
  describe() {
    const tree = this.tree, s = this.step;
    const path = tree.pathAt(s);
    const stats = tree.stats(ROOT, s);
    const names = path.slice(1).map((n) => this.pieceName(tree.instance[n]));
    const cur = path[path.length - 1];
    let where = '';
    if (tree.chooseStep[cur] >= 0 && tree.chooseStep[cur] < s && this.puzzle) {
      const t = tree.chooseTarget[cur];
      where = t >= 0 ? `, filling ${cellName(this.puzzle, t)}` : `, placing piece ${this.pieceName(-1 - t)}`;
    }
    const label = `Search tree after step ${num(s)}: ${plural(stats.nodes, 'node')} so far, ${plural(stats.deadEnds, 'dead end')}, ${plural(stats.solutions, 'solution')}. `
      + `Current path: ${names.length ? `start, then ${names.join(', ')}` : 'the start (an empty board)'} (${plural(names.length, 'piece')} placed${where}).`;
    this.canvas.setAttribute('aria-label', label);
    // the legend: what the marks on screen mean
    const causes = new Set();
    let solutions = false, folds = false, groups = false, todo = false;
    for (const it of this.layout.items) {
      if (it.kind === 'fold') folds = true;
      else if (it.kind === 'group') groups = true;
      else if (it.kind === 'todo') todo = true;
      else if (tree.isDeadLeaf(it.node, s)) causes.add(tree.endOp[it.node]);
      else if (tree.solStep[it.node] >= 0 && tree.solStep[it.node] < s) solutions = true;
    }
    const parts = [['●', COLORS.nodeEdge, 'a position, named by the piece just placed'], ['●', COLORS.path, 'on the board now'],
      ['0 1 2', COLORS.guideText, 'pieces placed']];
    for (const op of causes) parts.push([CAUSES[op].sign, CAUSES[op].color, `dead end: ${CAUSES[op].words}`]);
    if (solutions) parts.push(['★', COLORS.solution, 'a solution']);
    if (folds) parts.push(['△', COLORS.foldEdge, 'a finished branch, folded: its nodes, ✕ dead ends and ★ solutions (click to open)']);
    if (groups) parts.push(['▤', COLORS.foldEdge, 'the earlier branches of a level (click to spread them)']);
    if (todo) parts.push(['+n', COLORS.todo, 'ways still to try']);
    const key = parts.map((p) => p[2]).join('|');
    if (this.legendKey !== key) {
      this.legendKey = key;
      const doc = this.legend.ownerDocument;
      this.legend.replaceChildren(...parts.flatMap(([sign, color, words], k) => {
        const mark = doc.createElement('b');
        mark.textContent = sign;
        mark.style.color = color;
        return [...(k ? [doc.createTextNode(' · ')] : []), mark, doc.createTextNode(` ${words}`)];
      }));
      this.resize(); // the legend's height may have changed: the canvas takes the rest
    }
  }

  // ---- pointer: drag to pan, wheel to zoom, click to jump or open ----

  bindPointer() {
    // (touch-action pan-y: on a phone a vertical swipe still scrolls the page; a sideways one pans)
    const cv = this.canvas;
    let down = null;
    cv.addEventListener('pointerdown', (e) => {
      down = { x: e.offsetX, y: e.offsetY, cx: this.target.x, cy: this.target.y, moved: false };
      cv.setPointerCapture(e.pointerId);
    });
    cv.addEventListener('pointermove', (e) => {
      if (!down) {
        const hit = this.hit(e.offsetX, e.offsetY);
        cv.style.cursor = hit ? 'pointer' : 'grab';
        cv.title = hit ? this.hitWords(hit) : '';
        return;
      }
      const dx = e.offsetX - down.x, dy = e.offsetY - down.y;
      if (!down.moved && Math.hypot(dx, dy) < 5) return;
      down.moved = true;
      this.target.x = down.cx - dx / this.target.zoom;
      this.target.y = down.cy - dy / this.target.zoom;
      this.snap = true;
      this.setFollow(false);
    });
    cv.addEventListener('pointerup', (e) => {
      const d = down;
      down = null;
      if (d && !d.moved) this.click(e.offsetX, e.offsetY);
    });
    cv.addEventListener('pointercancel', () => { down = null; });
    cv.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.zoomBy(Math.exp(-e.deltaY * 0.0015), { x: e.offsetX, y: e.offsetY });
    }, { passive: false });
  }

  /** The item under a canvas point (CSS pixels), or null. */
  hit(px, py) {
    if (!this.layout) return null;
    const p = this.toLayout(px, py);
    const m = this.layout.metrics;
    for (const it of this.layout.items) {
      const y = TOP + it.depth * m.level;
      const halfH = it.kind === 'node' || it.kind === 'todo' ? R + 3 : 20;
      if (Math.abs(p.x - it.x) <= it.w / 2 && p.y >= y - halfH && p.y <= y + halfH + (it.kind === 'fold' ? 14 : 0)) return it;
    }
    return null;
  }

  hitWords(it) {
    const tree = this.tree;
    if (it.kind === 'node') {
      if (it.node === ROOT) return 'The start: the empty board (click to go there)';
      return `${this.pieceName(tree.instance[it.node])} placed at step ${num(tree.placeStep[it.node] + 1)} (click to go there)`;
    }
    const st = itemStats(tree, it, this.step);
    if (it.kind === 'fold') return `A finished branch: ${plural(st.nodes, 'node')}, ${plural(st.deadEnds, 'dead end')}, ${plural(st.solutions, 'solution')} (click to open it)`;
    if (it.kind === 'group') return `${plural(st.branches, 'branch', 'branches')} tried before: ${plural(st.nodes, 'node')}, ${plural(st.deadEnds, 'dead end')}, ${plural(st.solutions, 'solution')} (click to spread them)`;
    return `${plural(it.count, 'way')} still to try here`;
  }

  click(px, py) {
    const it = this.hit(px, py);
    if (!it) return;
    const tree = this.tree;
    if (it.kind === 'node') {
      // a node the person opened folds again on a second click at its own step
      const step = it.node === ROOT ? 0 : tree.placeStep[it.node] + 1;
      if (it.mode === 'open' && step === this.step) {
        this.expanded.delete(it.node);
        this.dirtyLayout = true;
        this.schedule();
        return;
      }
      this.onJump(step, it.node);
    } else if (it.kind === 'fold') {
      this.expanded.add(it.node);
      this.collapsed.delete(it.node);
      this.dirtyLayout = true;
      this.schedule();
    } else if (it.kind === 'group') {
      this.openGroups.add(tree.parent[it.node]);
      this.dirtyLayout = true;
      this.schedule();
    }
  }

  /** The item of node n on the canvas, in CSS pixels ({x, y, w}), or null (tests click it). */
  screenBox(n, kind = null) {
    if (!this.layout) return null;
    const it = this.layout.items.find((i) => i.node === n && (!kind || i.kind === kind));
    if (!it) return null;
    const c = this.camera;
    return { x: (it.x - c.x) * c.zoom + this.width / 2, y: (TOP + it.depth * this.layout.metrics.level - c.y) * c.zoom + this.height / 2, w: it.w * c.zoom, kind: it.kind };
  }
}

const clamp = (v, lo, hi) => (lo > hi ? (lo + hi) / 2 : Math.max(lo, Math.min(hi, v)));
