// Painting the search tree's layout (lesson/tree-layout.js) on a 2-D canvas: the depth bands
// numbered by the pieces placed, the edges (the current path's lit), the nodes (the piece
// placed written in each; a dead end's cause or a solution's star under it), the folded
// branches (a triangle with its node count), the gathered earlier branches (a stack of cards)
// and the ways still to try (a dashed stub). Pure drawing: tree-view.js owns the canvas,
// the framing and the pointer.
//
//   paintTree(ctx, layout, { tree, step, camera: {x, y, zoom}, width, height, dpr, name });
//   CAUSES[op]   // {sign, words, color} of a dead end's cause (trace op)
import { itemStats } from './tree-layout.js';
import { ROOT } from './search-tree.js';
import { TRACE_OP } from '../worker/protocol.js';
import { num } from '../app/format.js';

export const COLORS = {
  background: '#111829',
  guide: 'rgba(154, 168, 194, 0.10)',
  guideText: '#7f8dab',
  edge: '#5a6b8f',
  edgePath: '#ffd23f',
  node: '#33415f',
  nodeEdge: '#8093bb',
  nodeText: '#e7ecf5',
  path: '#ffd23f',
  pathText: '#1b1300',
  solution: '#2fd37a',
  fold: '#24304a',
  foldEdge: '#7f93c0',
  todo: '#9aa8c2',
  text: '#e7ecf5',
  muted: '#b5c1d9',
};

// dead ends by cause: a sign in a badge under the node, and the words of the legend
export const CAUSES = Object.freeze({
  [TRACE_OP.NO_FIT]: { sign: '✕', words: 'nothing fits', color: '#ff5c6c' },
  [TRACE_OP.EXHAUSTED]: { sign: '↩', words: 'every way tried', color: '#ff9f43' },
  [TRACE_OP.PARITY_TRIGGER]: { sign: '◐', words: 'parity', color: '#c08cff' },
  [TRACE_OP.VOLUME_TRIGGER]: { sign: '▦', words: 'region of the wrong size', color: '#3ec7e0' },
  [TRACE_OP.DEAD_CELL]: { sign: '⊠', words: 'a cell walled in', color: '#ff7ab8' },
  [TRACE_OP.FILTER_EMPTIED]: { sign: '⊘', words: 'filtered out', color: '#f5c542' },
});

export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", sans-serif';
export const R = 13;            // node radius at zoom 1
export const TOP = 34;          // room above the root
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 3 });
const short = (n) => (n >= 10000 ? compact.format(n) : num(n));

/**
 * Draw layout L (tree-layout.js) on a 2-D context, framed by the camera (the layout point at
 * the canvas's centre, and the zoom); only what is on screen.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{tree, step, camera: {x, y, zoom}, width, height, dpr, name: (instance) => string}} p
 */
export function paintTree(ctx, L, p) {
  const c = p.camera;
  const m = L.metrics;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = COLORS.background;
  ctx.fillRect(0, 0, p.width * p.dpr, p.height * p.dpr);
  const z = c.zoom * p.dpr;
  ctx.setTransform(z, 0, 0, z, (p.width / 2 - c.x * c.zoom) * p.dpr, (p.height / 2 - c.y * c.zoom) * p.dpr);
  const view = { left: c.x - p.width / 2 / c.zoom, right: c.x + p.width / 2 / c.zoom, top: c.y - p.height / 2 / c.zoom, bottom: c.y + p.height / 2 / c.zoom };
  const yOf = (it) => TOP + it.depth * m.level;
  const items = L.items;
  const seen = (it) => it.x + it.w / 2 >= view.left && it.x - it.w / 2 <= view.right && yOf(it) + m.level >= view.top && yOf(it) - m.level <= view.bottom;

  // depth guides: a faint band per depth, numbered by the pieces placed (in screen space)
  ctx.fillStyle = COLORS.guide;
  for (let d = 0; d <= L.depth; d += 2) ctx.fillRect(view.left, yOf({ depth: d }) - m.level / 2, view.right - view.left, m.level);

  // edges: the others in one stroke, then the path's
  const edge = (it) => {
    const up = items[it.parent];
    const y0 = yOf(up) + R, y1 = yOf(it) - (it.kind === 'node' ? R : 14);
    ctx.moveTo(up.x, y0);
    ctx.bezierCurveTo(up.x, (y0 + y1) / 2, it.x, (y0 + y1) / 2, it.x, y1);
  };
  ctx.lineCap = 'round';
  ctx.beginPath();
  for (const it of items) if (it.parent >= 0 && !it.onPath && it.kind !== 'todo' && (seen(it) || seen(items[it.parent]))) edge(it);
  ctx.strokeStyle = COLORS.edge;
  ctx.lineWidth = 1.6;
  ctx.stroke();
  ctx.beginPath();
  for (const it of items) if (it.kind === 'todo' && seen(it)) edge(it);
  ctx.setLineDash([4, 4]);
  ctx.strokeStyle = COLORS.todo;
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  for (const it of items) if (it.parent >= 0 && it.onPath) edge(it);
  ctx.strokeStyle = COLORS.edgePath;
  ctx.lineWidth = 4;
  ctx.stroke();

  const text = c.zoom >= 0.45; // smaller than that, words are not readable: shapes only
  for (const it of items) {
    if (!seen(it)) continue;
    const y = yOf(it);
    if (it.kind === 'node') drawNode(ctx, p, it, y, text);
    else if (it.kind === 'fold') drawFold(ctx, p, it, y, text);
    else if (it.kind === 'group') drawGroup(ctx, p, it, y, text);
    else drawTodo(ctx, it, y, text);
  }

  // the pieces placed at each depth, along the left edge
  ctx.setTransform(p.dpr, 0, 0, p.dpr, 0, 0);
  ctx.font = `700 12px ${FONT}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let d = 0; d <= L.depth; d++) {
    const sy = (yOf({ depth: d }) - c.y) * c.zoom + p.height / 2;
    if (sy < 8 || sy > p.height - 8) continue;
    ctx.beginPath();
    ctx.roundRect(3, sy - 9, 22, 18, 9);
    ctx.fillStyle = COLORS.background;
    ctx.fill();
    ctx.fillStyle = COLORS.guideText;
    ctx.fillText(String(d), 14, sy + 0.5);
  }
}

function drawNode(ctx, p, it, y, text) {
  const tree = p.tree, s = p.step, n = it.node;
  const solved = tree.solStep[n] >= 0 && tree.solStep[n] < s;
  const dead = !solved && tree.isDeadLeaf(n, s);
  const cause = dead ? CAUSES[tree.endOp[n]] : null;
  let fill = COLORS.node, stroke = COLORS.nodeEdge, ink = COLORS.nodeText;
  if (it.onPath) { fill = COLORS.path; stroke = '#fff3c4'; ink = COLORS.pathText; }
  if (solved) { fill = tree.solNumber[n] > 0 ? COLORS.solution : COLORS.node; stroke = COLORS.solution; ink = tree.solNumber[n] > 0 ? '#04210f' : COLORS.nodeText; }
  if (cause && !it.onPath) { fill = '#3b2330'; stroke = cause.color; }
  if (it.current) {
    ctx.beginPath();
    ctx.arc(it.x, y, R + 6, 0, Math.PI * 2);
    ctx.fillStyle = 'rgba(255, 210, 63, 0.28)';
    ctx.fill();
  }
  ctx.beginPath();
  if (n === ROOT) ctx.roundRect(it.x - R - 4, y - R, 2 * R + 8, 2 * R, 6);
  else ctx.arc(it.x, y, R, 0, Math.PI * 2);
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.lineWidth = cause || solved ? 2.5 : 1.5;
  ctx.strokeStyle = stroke;
  ctx.stroke();
  if (!text) return;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = ink;
  const label = n === ROOT ? 'start' : p.name(tree.instance[n]);
  ctx.font = `700 ${n === ROOT ? 11 : label.length > 2 ? 10 : 13}px ${FONT}`;
  ctx.fillText(n === ROOT || label.length <= 3 ? label : label.slice(0, 3), it.x, y + 0.5);
  // the mark under the node: the dead end's cause, or a solution's star
  const mark = cause ? cause.sign : solved ? (tree.solNumber[n] > 0 ? '★' : '☆') : '';
  if (mark) {
    ctx.font = `700 13px ${FONT}`;
    ctx.fillStyle = cause ? cause.color : COLORS.solution;
    ctx.fillText(mark, it.x, y + R + 10);
  }
}

function drawFold(ctx, p, it, y, text) {
  const st = itemStats(p.tree, it, p.step);
  const w = it.w, h = 34, x = it.x - w / 2, top = y - 12;
  ctx.beginPath();
  // a triangle's outline under the node's place: a whole branch folded into one shape
  ctx.moveTo(it.x, top - 4);
  ctx.lineTo(x + w, top + h);
  ctx.lineTo(x, top + h);
  ctx.closePath();
  ctx.fillStyle = COLORS.fold;
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = st.solutions > 0 ? COLORS.solution : COLORS.foldEdge;
  ctx.stroke();
  if (!text) return;
  ink(ctx, `700 13px ${FONT}`, COLORS.text);
  ctx.fillText(short(st.nodes), it.x, top + h - 11);
  drawCounts(ctx, st, it.x, top + h + 10);
}

function drawGroup(ctx, p, it, y, text) {
  const st = itemStats(p.tree, it, p.step);
  const w = it.w, h = 30, x = it.x - w / 2, top = y - 14;
  for (let k = 2; k >= 0; k--) {
    ctx.beginPath();
    ctx.roundRect(x + k * 3, top - k * 3, w - 6, h, 6);
    ctx.fillStyle = k === 0 ? COLORS.fold : '#1b2438';
    ctx.fill();
    ctx.lineWidth = 1.2;
    ctx.strokeStyle = st.solutions > 0 && k === 0 ? COLORS.solution : COLORS.foldEdge;
    ctx.stroke();
  }
  if (!text) return;
  ink(ctx, `700 13px ${FONT}`, COLORS.text);
  ctx.fillText(`${short(st.branches)} tried`, it.x - 3, top + 9);
  ink(ctx, `600 11.5px ${FONT}`, COLORS.muted);
  ctx.fillText(`${short(st.nodes)} nodes`, it.x - 3, top + 22);
  drawCounts(ctx, st, it.x - 3, top + h + 9);
}

/** "✕ 880  ★ 3" under a glyph: its dead ends and solutions. */
function drawCounts(ctx, st, x, y) {
  const parts = [];
  if (st.deadEnds > 0) parts.push({ t: `✕${short(st.deadEnds)}`, c: CAUSES[TRACE_OP.NO_FIT].color });
  if (st.solutions > 0) parts.push({ t: `★${short(st.solutions)}`, c: COLORS.solution });
  if (!parts.length) return;
  ctx.font = `700 12px ${FONT}`;
  const widths = parts.map((q) => ctx.measureText(q.t).width);
  let at = x - (widths.reduce((a, b) => a + b, 0) + 6 * (parts.length - 1)) / 2;
  ctx.textAlign = 'left';
  parts.forEach((q, k) => {
    ctx.fillStyle = q.c;
    ctx.fillText(q.t, at, y);
    at += widths[k] + 6;
  });
  ctx.textAlign = 'center';
}

function drawTodo(ctx, it, y, text) {
  ctx.beginPath();
  ctx.roundRect(it.x - it.w / 2, y - R, it.w, 2 * R, R);
  ctx.setLineDash([4, 3]);
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = COLORS.todo;
  ctx.stroke();
  ctx.setLineDash([]);
  if (!text) return;
  ink(ctx, `700 12px ${FONT}`, COLORS.muted);
  ctx.fillText(`+${short(it.count)}`, it.x, y + 0.5);
}

/** Text centred on its point, in this font and colour. */
function ink(ctx, font, color) {
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = font;
  ctx.fillStyle = color;
}
