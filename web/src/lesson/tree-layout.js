// Where the search tree's pieces go on the drawing at a step (lesson/search-tree.js): which
// nodes are drawn one by one, which finished subtrees are folded into one glyph with their
// sizes, and the x of each (depth gives the y). Only a bounded part of the tree is laid out,
// whatever its size: the current path; beside each node of it, its finished branches, the
// latest ones one by one and the earlier ones gathered into a group; and, while the width
// allows, the latest finished branches drawn in full (so a small tree is drawn whole). What
// the person opened (a folded branch, a group) is drawn open whatever the width.
//
// The width budget is the room for the boxes of one depth side by side: it decides how much
// detail is drawn, so that a small tree is drawn whole and a large one stays a few hundred boxes.
//
//   const layout = layoutTree(tree, step, { budget: 900, expanded, collapsed, openGroups });
//   layout.items   // [{kind: 'node'|'fold'|'group'|'todo', node, last, parent, depth, x, w, onPath, current, ...}]
//   layout.width; layout.depth; layout.current; layout.path
//   (expanded / collapsed: Sets of node ids the person opened / folded; openGroups: Set of the
//   node ids whose group of earlier branches the person opened)
import { ROOT } from './search-tree.js';

export const METRICS = Object.freeze({
  node: 32,    // width of a node drawn alone
  fold: 62,    // a folded branch: its node count and marks
  group: 100,  // earlier branches gathered: their count and sizes
  todo: 44,    // the ways still to try at a level
  gap: 10,     // between neighbours
  level: 66,   // between depths
});

// A node opened by the person shows at most this many children one by one (the earlier ones
// gathered), so that opening a node with thousands of children keeps the drawing bounded.
const OPEN_CHILDREN_MAX = 400;

/**
 * @param {import('./search-tree.js').SearchTree} tree
 * @param {number} step
 * @param {{budget?: number, expanded?: Set<number>, collapsed?: Set<number>, openGroups?: Set<number>, metrics?: object}} opts
 *   budget: the width (layout units) up to which finished branches are opened automatically
 */
export function layoutTree(tree, step, opts = {}) {
  const m = opts.metrics || METRICS;
  const expanded = opts.expanded || new Set();
  const collapsed = opts.collapsed || new Set();
  const openGroups = opts.openGroups || new Set();
  const budget = opts.budget ?? 900;
  const s = step;
  const path = tree.pathAt(s);
  const current = path[path.length - 1];
  const slot = (w) => w + m.gap;

  // A unit is a box of the drawing: {kind, node, last, mode, children, w}. Modes of a node:
  // 'path' (on the current path), 'open' (children shown folded), 'full' (everything below
  // shown), 'fold' (one glyph; a leaf is drawn as a node).
  const leafUnit = (n) => (tree.sizeOf(n) === 1 ? { kind: 'node', node: n, mode: 'leaf', children: null, w: m.node } : { kind: 'fold', node: n, mode: 'fold', children: null, w: m.fold });
  // The width budget is kept per depth: the boxes of one depth side by side must fit (the
  // drawing packs the depths against each other, measure(), so its width is about the widest)
  const rows = new Float64Array(tree.maxDepth + 3);
  const fits = (d, add) => rows[d] + add <= budget;

  // the skeleton: the path, with each level's finished branches gathered into one group
  const levels = [];
  let parentUnit = null;
  for (let k = 0; k < path.length; k++) {
    const p = path[k];
    const unit = { kind: 'node', node: p, mode: 'path', children: [], w: m.node };
    if (parentUnit) parentUnit.children.push(unit);
    rows[k] += slot(m.node);
    const finished = [];
    const next = path[k + 1];
    tree.forEachChild(p, s, (c) => { if (c !== next) finished.push(c); });
    const level = { unit, finished, shown: 0, depth: k, openChild: next !== undefined };
    // the ways not tried yet at this level (its choice made, its level not ended)
    const chosen = tree.chooseStep[p] >= 0 && tree.chooseStep[p] < s;
    const ended = tree.endStep[p] >= 0 && tree.endStep[p] < s;
    level.todo = chosen && !ended ? Math.max(0, tree.chooseCount[p] - finished.length - (level.openChild ? 1 : 0)) : 0;
    levels.push(level);
    parentUnit = unit;
  }
  for (const level of levels) {
    const f = level.finished;
    const d = level.depth + 1;
    if (openGroups.has(level.unit.node) || f.length === 1) level.shown = f.length;
    if (f.length > level.shown) rows[d] += slot(m.group);
    for (let i = f.length - level.shown; i < f.length; i++) rows[d] += slot(leafUnit(f[i]).w);
    if (level.todo > 0) rows[d] += slot(m.todo);
  }

  // gather fewer: the latest branches of the deepest levels first, while their depth has room
  for (let k = levels.length - 1; k >= 0; k--) {
    const level = levels[k];
    const f = level.finished;
    const d = level.depth + 1;
    while (level.shown < f.length) {
      const c = f[f.length - 1 - level.shown];
      const delta = slot(leafUnit(c).w) - (level.shown === f.length - 1 ? slot(m.group) : 0);
      if (!fits(d, delta)) break;
      rows[d] += delta;
      level.shown++;
    }
  }

  // the finished branches shown, as units; then the latest of them drawn in full while the width allows
  const branches = [];
  for (let k = levels.length - 1; k >= 0; k--) {
    const level = levels[k];
    const f = level.finished;
    const units = [];
    const hidden = f.length - level.shown;
    if (hidden > 0) units.push({ kind: 'group', node: f[0], last: f[hidden - 1], mode: 'group', children: null, w: m.group });
    for (let i = hidden; i < f.length; i++) {
      const u = leafUnit(f[i]);
      units.push(u);
      if (u.kind === 'fold') branches.push(u);
    }
    const pathChild = level.unit.children[0];
    level.unit.children = pathChild ? [...units, pathChild] : units;
    if (level.todo > 0) level.unit.children.push({ kind: 'todo', node: level.unit.node, count: level.todo, mode: 'todo', children: null, w: m.todo });
  }
  branches.sort((a, b) => tree.removeStep[b.node] - tree.removeStep[a.node]); // latest first
  const maxFull = Math.max(1, Math.floor(budget / slot(m.node))) * (tree.maxDepth + 1);
  const perDepth = new Int32Array(tree.maxDepth + 2);
  for (const u of branches) {
    const n = u.node;
    if (collapsed.has(n)) continue;
    if (expanded.has(n)) { openUnit(tree, s, u, expanded, collapsed, openGroups, m); continue; }
    if (tree.size[n] > maxFull) continue;
    // the nodes of its subtree per depth: drawn in full, each depth must still fit
    const d0 = tree.depth[n];
    const h = countPerDepth(tree, n, perDepth);
    let ok = fits(d0, slot(m.node) - slot(m.fold));
    for (let k = 1; ok && k <= h; k++) ok = fits(d0 + k, perDepth[k] * slot(m.node));
    if (!ok) continue;
    rows[d0] += slot(m.node) - slot(m.fold);
    for (let k = 1; k <= h; k++) rows[d0 + k] += perDepth[k] * slot(m.node);
    u.mode = 'full';
    u.kind = 'node';
    u.w = m.node;
    u.children = fullChildren(tree, n, m);
  }

  // positions: each subtree as close to its left neighbour as their outlines allow, depth by
  // depth, parents centred over their children (Reingold and Tilford, "Tidier drawings of
  // trees", 1981); so the path's gathered branches and ways still to try, one level below the
  // other, share the width instead of each taking a column of its own
  measure(levels[0].unit, m.gap);
  const items = [];
  let minX = Infinity, maxX = -Infinity, maxDepth = 0;
  const place = (u, x, depth, parent) => {
    const index = items.length;
    items.push({
      kind: u.kind, node: u.node, last: u.last ?? u.node, count: u.count || 0, parent, depth, x, w: u.w,
      mode: u.mode, onPath: u.mode === 'path', current: u.mode === 'path' && u.node === current,
    });
    minX = Math.min(minX, x - u.w / 2);
    maxX = Math.max(maxX, x + u.w / 2);
    if (depth > maxDepth) maxDepth = depth;
    if (u.children) u.children.forEach((c, k) => place(c, x + u.offsets[k], depth + 1, index));
  };
  place(levels[0].unit, 0, 0, -1);
  for (const it of items) it.x -= minX;
  return { items, width: items.length ? maxX - minX : 0, depth: maxDepth, current, path, step: s, metrics: m };
}

/**
 * The outline of unit u's drawing, relative to u's centre: per depth below it (0: u itself)
 * the left and right edges; sets u.offsets, its children's centres relative to its own.
 */
function measure(u, gap) {
  if (!u.children || u.children.length === 0) return { left: [-u.w / 2], right: [u.w / 2] };
  const outlines = u.children.map((c) => measure(c, gap));
  const offsets = new Array(outlines.length);
  const left = [], right = []; // of the children placed so far, per depth below u (0: the children)
  outlines.forEach((o, k) => {
    // as far left as the outline of the children before allows, at every depth both reach
    let at = k === 0 ? 0 : -Infinity;
    for (let d = 0; d < o.left.length && d < right.length; d++) at = Math.max(at, right[d] - o.left[d] + gap);
    offsets[k] = at;
    for (let d = 0; d < o.left.length; d++) {
      if (d >= left.length) { left.push(at + o.left[d]); right.push(at + o.right[d]); }
      else { left[d] = Math.min(left[d], at + o.left[d]); right[d] = Math.max(right[d], at + o.right[d]); }
    }
  });
  const centre = (offsets[0] + offsets[offsets.length - 1]) / 2;
  u.offsets = offsets.map((o) => o - centre);
  return { left: [-u.w / 2, ...left.map((v) => v - centre)], right: [u.w / 2, ...right.map((v) => v - centre)] };
}

/** A finished node the person opened: its children one by one, each folded unless opened too. */
function openUnit(tree, s, u, expanded, collapsed, openGroups, m) {
  const n = u.node;
  u.kind = 'node';
  u.mode = 'open';
  u.w = m.node;
  const kids = tree.childrenAt(n, s);
  const hidden = openGroups.has(n) ? 0 : Math.max(0, kids.length - OPEN_CHILDREN_MAX);
  u.children = [];
  if (hidden > 0) u.children.push({ kind: 'group', node: kids[0], last: kids[hidden - 1], mode: 'group', children: null, w: m.group });
  for (let i = hidden; i < kids.length; i++) {
    const c = kids[i];
    const child = tree.sizeOf(c) === 1 ? { kind: 'node', node: c, mode: 'leaf', children: null, w: m.node } : { kind: 'fold', node: c, mode: 'fold', children: null, w: m.fold };
    if (child.kind === 'fold' && expanded.has(c) && !collapsed.has(c)) openUnit(tree, s, child, expanded, collapsed, openGroups, m);
    u.children.push(child);
  }
}

/** The nodes of finished node n's subtree per depth below it (into out); returns its height. */
function countPerDepth(tree, n, out) {
  out.fill(0);
  const d0 = tree.depth[n];
  let h = 0;
  for (let c = n; c < n + tree.size[n]; c++) {
    const k = tree.depth[c] - d0;
    out[k]++;
    if (k > h) h = k;
  }
  return h;
}

/** Every node below finished node n, as units (n's subtree drawn in full). */
function fullChildren(tree, n, m) {
  const out = [];
  const end = n + tree.size[n];
  for (let c = n + 1; c < end; c += tree.size[c]) {
    out.push({ kind: 'node', node: c, mode: tree.size[c] === 1 ? 'leaf' : 'full', children: tree.size[c] === 1 ? null : fullChildren(tree, c, m), w: m.node });
  }
  return out;
}

/** The sizes a folded glyph or a group shows: {branches, nodes, leaves, deadEnds, solutions}. */
export function itemStats(tree, item, step) {
  if (item.kind === 'group') return tree.range(item.node, item.last);
  return { ...tree.stats(item.node, step), branches: 1 };
}
