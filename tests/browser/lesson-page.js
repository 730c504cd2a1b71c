// The lesson components' test page (tests/browser/lesson-harness.js serves it): mounts the
// components on a recording passed in by the test and steps them together, as the lesson
// screen does, through one TracePlayer.
//
//   window.lesson.mount(data, { tree: true, code: true, matrix: true });   // code: the options' algorithm
//   window.lesson.seek(40); window.lesson.forward(); window.lesson.back();
//   window.lesson.tree.visibleNodeCount();   // the components, for the test to read
import { TraceRecording } from '../../web/src/trace/recording.js';
import { TracePlayer } from '../../web/src/trace/player.js';
import { SearchTree } from '../../web/src/lesson/search-tree.js';
import { TreeView } from '../../web/src/lesson/tree-view.js';
import { CodeView } from '../../web/src/lesson/code-view.js';
import { MatrixView } from '../../web/src/lesson/matrix-view.js';
import { ExactCover } from '../../web/src/lesson/exact-cover.js';
import { drawMiniBoard } from '../../web/src/panels/mini-board.js';
import { puzzleColors } from '../../web/src/viewer/colors.js';
import { algorithmOf, codeFor, explainStep, usesChecks } from '../../web/src/lesson/pseudo-code.js';
import { useOptionParser } from '../../web/src/model/options.js';

const byId = (id) => document.getElementById(id);

const lesson = {
  player: null,
  tree: null,
  jumps: [],
  mount(data, { tree = true, code = true, matrix = true, board = true } = {}) {
    const rec = new TraceRecording(data.events.length / 4 + 1);
    rec.append(Int32Array.from(data.events));
    const table = {
      offsets: Int32Array.from(data.table.offsets), cells: Int32Array.from(data.table.cells),
      imageShapes: Int32Array.from(data.table.imageShapes), instanceShapes: Int32Array.from(data.table.instanceShapes),
    };
    this.data = data;
    this.recording = rec;
    this.player = new TracePlayer(rec, table, data.cellCount);
    if (tree) {
      this.searchTree = new SearchTree(rec);
      this.tree = new TreeView(byId('tree'), { onJump: (step) => { this.jumps.push(step); this.seek(step); } });
      this.tree.setTree(this.searchTree, data.puzzle);
    }
    if (code) {
      this.algorithm = algorithmOf(data.options);
      this.code = new CodeView(byId('code'));
      this.code.setCode(codeFor(this.algorithm, { checks: usesChecks(rec) }));
    }
    if (board) {
      const colours = puzzleColors(data.puzzle);
      this.colourOf = (i) => `#${colours.instanceColor(i).getHexString()}`;
      this.board = document.createElement('canvas');
      this.board.setAttribute('role', 'img');
      this.board.style.marginTop = '10px';
      byId('board').append(this.board);
    }
    if (matrix) {
      this.cover = new ExactCover(table);
      this.matrix = new MatrixView(byId('matrix'), { colourOf: this.colourOf });
      this.matrix.setModel(this.cover, rec, data.puzzle);
    }
    this.show();
  },
  show() {
    const s = this.player.step;
    byId('step').textContent = `step ${s} of ${this.player.length}`;
    if (this.tree) this.tree.setStep(s);
    if (this.code) this.code.show(explainStep(this.algorithm, this.player, this.data.puzzle));
    if (this.matrix) this.matrix.setStep(this.player);
    if (this.board) {
      const level = this.player.levels[this.player.levels.length - 1];
      drawMiniBoard(this.board, this.data.puzzle, this.player.grid, this.colourOf, { target: level ? level.target : -1, width: 260, coords: true });
    }
  },
  seek(s) { this.player.seek(s); this.show(); },
  forward() { this.player.forward(); this.show(); },
  back() { this.player.back(); this.show(); },
  /** Resolves after the components have drawn (two animation frames) and the views are still. */
  settled() {
    return new Promise((resolve) => {
      const wait = () => requestAnimationFrame(() => requestAnimationFrame(() => {
        if ((this.tree && this.tree.frame) || (this.matrix && this.matrix.animating)) wait();
        else resolve();
      }));
      wait();
    });
  },
  /** Share of a canvas's pixels that differ from its top-left pixel (0: blank). */
  inked(canvas) {
    const ctx = canvas.getContext('2d');
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) n++;
    return n / (data.length / 4);
  },
};
// The options are read by the engine's parser, as on the page (main.js): loaded before the
// test sees window.lesson.
// (web/src/engine-module.js finds the .wasm through Vite, which this plain page does without:
// the harness serves web/wasm/ as it is)
const { default: createPolycube } = await import('../../web/wasm/polycube.mjs');
const engine = await createPolycube({ locateFile: (file) => new URL(`../../web/wasm/${file}`, import.meta.url).href });
useOptionParser((text) => engine.parseOptionsJson(text));
window.lesson = lesson;

// ---- the tree-drawing benchmark (bench/tree-draw.mjs) ----

/** Mount the tree alone on a recording fetched as raw trace records from `url`. */
lesson.mountBinary = async function mountBinary(url, puzzle, { width = 700, height = 480 } = {}) {
  const bytes = await (await fetch(url)).arrayBuffer();
  const events = new Int32Array(bytes);
  const rec = new TraceRecording(events.length / 4);
  rec.append(events);
  let tree = null, buildMs = Infinity;
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    tree = new SearchTree(rec);
    buildMs = Math.min(buildMs, performance.now() - t0);
  }
  const box = byId('tree');
  box.style.width = `${width}px`;
  box.style.height = `${height}px`;
  this.recording = rec;
  this.searchTree = tree;
  this.tree = new TreeView(box, { height: height - 60 });
  this.tree.setTree(tree, puzzle);
  this.tree.renderNow();
  return { steps: rec.length, nodes: tree.nodeCount, depth: tree.maxDepth, buildMs };
};

/**
 * Main-thread milliseconds per frame of a scenario: each frame sets the step and draws
 * (layout, then the drawing); `flush` reads one pixel back after each frame so that the
 * canvas's rasterisation is counted too. Each frame is drawn `repeat` times and its least
 * time kept: on a shared, loaded machine the others measure the waits for a core.
 */
lesson.benchFrames = function benchFrames(steps, { flush = false, zoom = null, repeat = 5 } = {}) {
  const view = this.tree;
  if (zoom) { view.setFollow(false); view.target.zoom = zoom; view.snap = true; }
  else view.setFollow(true);
  const ctx = view.canvas.getContext('2d');
  const ms = [];
  for (const s of steps) {
    let best = Infinity;
    for (let r = 0; r < repeat; r++) {
      view.dirtyLayout = true;
      const t0 = performance.now();
      view.setStep(s);
      view.renderNow();
      if (flush) ctx.getImageData(0, 0, 1, 1);
      best = Math.min(best, performance.now() - t0);
    }
    ms.push(best);
  }
  cancelAnimationFrame(view.frame);
  view.frame = 0;
  return { ms, items: view.layout.items.length, nodes: view.visibleNodeCount() };
};
