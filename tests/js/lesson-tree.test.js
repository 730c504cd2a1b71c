// The search tree of a recording (web/src/lesson/search-tree.js) and its layout
// (web/src/lesson/tree-layout.js) over real traces from the WebAssembly engine: at every step
// the tree has exactly the nodes created by the steps before it and its current path is the
// stack of placements a plain replay keeps; the subtree sizes precomputed once equal a count
// made by walking the nodes; the drawing accounts for every node once (drawn alone, or inside
// a folded glyph or a group), stays bounded on a large recording, and draws a tiny tree whole.
import { describe, expect, test } from 'vitest';
import { SearchTree } from '../../web/src/lesson/search-tree.js';
import { itemStats, layoutTree } from '../../web/src/lesson/tree-layout.js';
import { TracePlayer, isDeadEnd } from '../../web/src/trace/player.js';
import { TraceRecording } from '../../web/src/trace/recording.js';
import { TRACE_OP } from '../../web/src/worker/protocol.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, record, recordText } from './helpers.js';

/** A plain replay: the stack of node ids and the node count after every step. */
function reference(rec) {
  const counts = [1];
  const paths = [[0]];
  const stack = [0];
  let next = 1;
  for (let i = 0; i < rec.length; i++) {
    if (rec.op(i) === TRACE_OP.PLACE) stack.push(next++);
    else if (rec.op(i) === TRACE_OP.REMOVE && stack.length > 1) stack.pop();
    counts.push(next);
    paths.push(stack.slice());
  }
  return { counts, paths };
}

/** What the drawing at step s accounts for: nodes drawn alone plus those inside glyphs. */
function accounted(tree, layout, s) {
  let nodes = 0;
  for (const it of layout.items) {
    if (it.kind === 'node') nodes++;
    else if (it.kind === 'fold' || it.kind === 'group') nodes += itemStats(tree, it, s).nodes;
  }
  return nodes;
}

const cases = [
  ['lesson_tiny_4x3.txt', '-b 3 -t 1'],
  ['lesson_tiny_4x3.txt', '-o s -t 1'],
  ['lesson_tiny_2x2x3.txt', '-r -b 3 -t 1'],
  ['ntvy', '-r -o s -p -v 2 -t 1'], // parity and volume dead ends
];

async function recordCase(file, options) {
  if (file !== 'ntvy') return record(file, options);
  // the golden trace puzzle with trigger dead ends lives beside the golden traces
  return recordText(readFileSync(path.join(ROOT, 'tests/golden/trace/ntvy_5x4.txt'), 'utf8'), 'ntvy_5x4.txt', options);
}

describe('search tree of a recording', () => {
  for (const [file, options] of cases) {
    test(`${file} ${options}: node count and current path at every step, forwards and backwards`, async () => {
      const { rec, table, cellCount } = await recordCase(file, options);
      const tree = new SearchTree(rec);
      const ref = reference(rec);
      expect(tree.malformed).toBe(0);
      expect(tree.nodeCount).toBe(ref.counts[rec.length]);
      const check = (s) => {
        expect(tree.visibleNodeCount(s)).toBe(ref.counts[s]);
        expect(tree.pathAt(s)).toEqual(ref.paths[s]);
      };
      for (let s = 0; s <= rec.length; s++) check(s);
      for (let s = rec.length; s >= 0; s--) check(s);
      // the path holds the pieces on the board: the player's grid after the same step
      if (table) {
        const player = new TracePlayer(rec, table, cellCount);
        for (let s = 0; s <= rec.length; s++) {
          player.seek(s);
          const onBoard = new Set(player.grid.filter((v) => v >= 0));
          const path = tree.pathAt(s).slice(1);
          expect(new Set(path.map((n) => tree.instance[n]))).toEqual(onBoard);
          for (const n of path) for (const c of player.cellsOf(tree.image[n])) expect(player.grid[c]).toBe(tree.instance[n]);
        }
      }
    });
  }

  test('subtree sizes, dead ends and solutions precomputed equal a walk over the nodes', async () => {
    const { rec } = await record('pentominoes_10x6.txt', '-r -b 12 -l 2 -t 1');
    const tree = new SearchTree(rec);
    expect(tree.nodeCount).toBeGreaterThan(5000);
    // by walking: the nodes whose ids lie in [n, n + size) have n as an ancestor
    const isAncestor = (a, n) => { for (let m = n; m >= 0; m = tree.parent[m]) if (m === a) return true; return false; };
    const end = rec.length + 1;
    const sample = [1, 2, 3, 17, 100, 999, Math.floor(tree.nodeCount / 2), tree.nodeCount - 3];
    for (const n of sample) {
      if (!tree.isFinished(n, end)) continue;
      let size = 0, dead = 0, sols = 0;
      for (let m = n; m < tree.nodeCount; m++) {
        if (!isAncestor(n, m)) continue;
        size++;
        if (tree.isDeadLeaf(m, end)) dead++;
        if (tree.solNumber[m] > 0) sols++;
      }
      expect(tree.size[n]).toBe(size);
      expect(tree.deadEnds[n]).toBe(dead);
      expect(tree.solutions[n]).toBe(sols);
    }
    // the whole tree: every dead end that closes a leaf, every solution event counted
    let deadLeaves = 0;
    for (let m = 0; m < tree.nodeCount; m++) if (tree.isDeadLeaf(m, end)) deadLeaves++;
    expect(tree.totalDeadEnds).toBe(deadLeaves);
    let solutions = 0;
    for (let i = 0; i < rec.length; i++) if (rec.op(i) === TRACE_OP.SOLUTION && rec.a(i) > 0) solutions++;
    expect(tree.totalSolutions).toBe(solutions);
    expect(solutions).toBe(2);
    // and a dead-end event happens at every dead leaf
    let leafDeadEvents = 0;
    for (let i = 0; i < rec.length; i++) if (isDeadEnd(rec.op(i)) && rec.op(i + 1) === TRACE_OP.REMOVE && rec.op(i - 1) !== TRACE_OP.REMOVE) leafDeadEvents++;
    expect(leafDeadEvents).toBeGreaterThan(0);
  });

  test('a recording taken in while it grows gives the same tree as one built at the end', async () => {
    const { rec } = await record('lesson_tiny_4x3.txt', '-b 3 -t 1');
    const growing = new TraceRecording(1000);
    const partial = new SearchTree(growing);
    for (let i = 0; i < rec.length; i += 7) {
      growing.append(rec.data.subarray(i * 4, Math.min(rec.length, i + 7) * 4));
      partial.update();
    }
    const whole = new SearchTree(rec);
    expect(partial.nodeCount).toBe(whole.nodeCount);
    for (const column of ['parent', 'placeStep', 'removeStep', 'size', 'deadEnds', 'solutions', 'endOp', 'chooseCount', 'sibIndex']) {
      expect(Array.from(partial[column].subarray(0, partial.nodeCount)), column).toEqual(Array.from(whole[column].subarray(0, whole.nodeCount)));
    }
  });
});

describe('layout of the tree at a step', () => {
  test('the tiny puzzle is drawn whole at every step, each node once, the path lit', async () => {
    const { rec } = await record('lesson_tiny_4x3.txt', '-b 3 -t 1');
    const tree = new SearchTree(rec);
    for (let s = 0; s <= rec.length; s++) {
      const layout = layoutTree(tree, s, { budget: 1200 });
      const drawn = layout.items.filter((it) => it.kind === 'node').map((it) => it.node);
      expect(drawn.length).toBe(tree.visibleNodeCount(s));
      expect(new Set(drawn).size).toBe(drawn.length);
      const lit = layout.items.filter((it) => it.onPath).map((it) => it.node);
      expect(lit).toEqual(tree.pathAt(s));
      expect(layout.items.filter((it) => it.current).map((it) => it.node)).toEqual([tree.currentAt(s)]);
      // no two boxes of one depth overlap
      const byDepth = new Map();
      for (const it of layout.items) byDepth.set(it.depth, [...(byDepth.get(it.depth) || []), it]);
      for (const row of byDepth.values()) {
        row.sort((a, b) => a.x - b.x);
        for (let k = 1; k < row.length; k++) expect(row[k].x - row[k].w / 2).toBeGreaterThanOrEqual(row[k - 1].x + row[k - 1].w / 2);
      }
    }
  });

  test('a large recording: bounded drawing that still accounts for every node, narrow or wide', async () => {
    const { rec } = await record('pentominoes_10x6.txt', '-r -b 12 -l 2 -t 1');
    const tree = new SearchTree(rec);
    const steps = [0, 1, 50, 1234, Math.floor(rec.length / 3), Math.floor(rec.length / 2), rec.length - 1, rec.length];
    for (const budget of [300, 900, 3000]) {
      for (const s of steps) {
        const layout = layoutTree(tree, s, { budget });
        expect(accounted(tree, layout, s)).toBe(tree.visibleNodeCount(s));
        expect(layout.items.length).toBeLessThan(budget / 4 + 200);
        expect(layout.items.filter((it) => it.onPath).map((it) => it.node)).toEqual(tree.pathAt(s));
      }
    }
  });

  test('opening a folded branch or a group shows its children; folding it back hides them', async () => {
    const { rec } = await record('pentominoes_10x6.txt', '-r -b 12 -l 2 -t 1');
    const tree = new SearchTree(rec);
    const s = Math.floor(rec.length / 2);
    const layout = layoutTree(tree, s, { budget: 300 });
    const fold = layout.items.find((it) => it.kind === 'fold');
    const group = layout.items.find((it) => it.kind === 'group');
    expect(fold).toBeTruthy();
    expect(group).toBeTruthy();
    const opened = layoutTree(tree, s, { budget: 300, expanded: new Set([fold.node]) });
    const again = opened.items.find((it) => it.node === fold.node && it.kind === 'node');
    expect(again.mode).toBe('open');
    const kids = opened.items.filter((it) => it.parent === opened.items.indexOf(again));
    expect(kids.length).toBe(tree.childrenAt(fold.node, s).length);
    expect(accounted(tree, opened, s)).toBe(tree.visibleNodeCount(s));
    // the group's parent: its earlier branches one by one
    const parentNode = tree.parent[group.node];
    const ungrouped = layoutTree(tree, s, { budget: 300, openGroups: new Set([parentNode]) });
    expect(ungrouped.items.some((it) => it.kind === 'group' && tree.parent[it.node] === parentNode)).toBe(false);
    expect(accounted(tree, ungrouped, s)).toBe(tree.visibleNodeCount(s));
    // a branch the width would open, folded by the person
    const wide = layoutTree(tree, s, { budget: 3000 });
    const full = wide.items.find((it) => it.mode === 'full' && it.parent >= 0 && wide.items[it.parent].mode === 'path');
    expect(full).toBeTruthy();
    const folded = layoutTree(tree, s, { budget: 3000, collapsed: new Set([full.node]) });
    expect(folded.items.find((it) => it.node === full.node).kind).toBe('fold');
  });
});
