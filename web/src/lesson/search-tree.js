// The search tree of a recorded search (trace/recording.js), built once from its events: a node
// per partial packing, the root being the empty board and a child per PLACE event (an edge per
// piece placed), as backtracking walks it depth first. Everything a drawing of the tree at any
// step needs is precomputed here in typed arrays, so that showing the tree as it is after step s
// (forwards, backwards, after a seek) costs O(depth) and never replays events.
//
// Node ids are given in the order the nodes are created, which is the depth-first order: the
// subtree of node n is the run of ids [n, n + size[n]) and its children are n + 1, then each
// next one at the end of the one before. A node created by event i (its PLACE) exists after
// step s when i < s; it is taken back by its REMOVE event; between the two it is on the
// current path. Marks (a dead end and its cause, a solution) belong to the node where the
// search stood when the event happened, and show once their event is behind the step.
//
//   const tree = new SearchTree(recording);  // a TraceRecording (or anything with length, op(i), a(i), b(i))
//   tree.update();                           // take in events recorded since (a recording that grows)
//   tree.visibleNodeCount(s);                // nodes after step s: the root + the PLACE events among events 0..s-1
//   tree.currentAt(s);                       // the node of the position after step s (the deepest node on the board)
//   tree.pathAt(s);                          // node ids from the root to it
//   tree.isFinished(n, s);                   // n was taken back before step s (its whole subtree is behind s)
//   tree.childrenAt(n, s);                   // ids of n's children created before step s, in order
//   tree.stats(n, s);                        // {nodes, deadEnds, solutions} of n's subtree as it is after step s
//   tree.range(first, last);                 // the same for a run of finished siblings
//   per node (typed arrays, index = node id): parent, depth, placeStep, removeStep, instance, image,
//   chooseStep, chooseTarget, chooseCount, endOp, endStep, solStep, solNumber, size, leaves, deadEnds, solutions,
//   prevSibling, sibIndex (the place among its siblings)
import { TRACE_OP } from '../worker/protocol.js';
import { isDeadEnd } from '../trace/player.js';

export const OPEN = 0x7fffffff; // removeStep of a node not taken back (yet)
export const ROOT = 0;

// Per-node columns (Int32Array each), grown by doubling.
const COLUMNS = ['parent', 'depth', 'placeStep', 'removeStep', 'instance', 'image', 'chooseStep', 'chooseTarget', 'chooseCount',
  'endOp', 'endStep', 'solStep', 'solNumber', 'size', 'leaves', 'deadEnds', 'solutions', 'lastChild', 'prevSibling',
  'sibIndex', 'sibLeaves', 'sibDeadEnds', 'sibSolutions'];

export class SearchTree {
  /** @param {{length: number, op(i): number, a(i): number, b(i): number}} recording */
  constructor(recording) {
    this.rec = recording;
    this.capacity = 0;
    for (const c of COLUMNS) this[c] = new Int32Array(0);
    this.grow(1024);
    this.nodeCount = 1;
    this.processed = 0;   // events taken in
    this.cur = ROOT;      // the node of the position after the events taken in
    this.malformed = 0;   // REMOVE events with nothing on the board (a trace cut at a level below the root)
    this.totalDeadEnds = 0;
    this.totalSolutions = 0;
    this.maxDepth = 0;
    this.initNode(ROOT, -1, 0, -1, -1, -1);
    this.update();
  }

  grow(min) {
    let cap = Math.max(1024, this.capacity);
    while (cap < min) cap *= 2;
    if (cap === this.capacity) return;
    for (const c of COLUMNS) {
      const bigger = new Int32Array(cap);
      bigger.set(this[c]);
      this[c] = bigger;
    }
    this.capacity = cap;
  }

  initNode(n, parent, depth, placeStep, instance, image) {
    this.parent[n] = parent;
    this.depth[n] = depth;
    this.placeStep[n] = placeStep;
    this.removeStep[n] = OPEN;
    this.instance[n] = instance;
    this.image[n] = image;
    this.chooseStep[n] = -1;
    this.chooseTarget[n] = 0;
    this.chooseCount[n] = -1;
    this.endOp[n] = 0;
    this.endStep[n] = -1;
    this.solStep[n] = -1;
    this.solNumber[n] = 0;
    this.size[n] = 1;
    this.leaves[n] = 0;
    this.deadEnds[n] = 0;
    this.solutions[n] = 0;
    this.lastChild[n] = -1;
    this.prevSibling[n] = parent >= 0 ? this.lastChild[parent] : -1;
    this.sibIndex[n] = this.prevSibling[n] >= 0 ? this.sibIndex[this.prevSibling[n]] + 1 : 0;
    if (parent >= 0) this.lastChild[parent] = n;
  }

  /** Take in the events recorded since the last call (all of them the first time). */
  update() {
    const rec = this.rec;
    const end = rec.length;
    // a TraceRecording's records read straight from its array (a million of them at a time)
    const data = rec.data instanceof Int32Array ? rec.data : null;
    for (let i = this.processed; i < end; i++) {
      const op = data ? data[i * 4] : rec.op(i);
      const cur = this.cur;
      switch (op) {
        case TRACE_OP.PLACE: {
          const n = this.nodeCount++;
          if (n >= this.capacity) this.grow(n + 1);
          const depth = this.depth[cur] + 1;
          if (depth > this.maxDepth) this.maxDepth = depth;
          this.initNode(n, cur, depth, i, rec.a(i), rec.b(i));
          this.cur = n;
          break;
        }
        case TRACE_OP.REMOVE:
          if (cur === ROOT) this.malformed++;
          else this.close(cur, i);
          break;
        case TRACE_OP.CHOOSE:
          this.chooseStep[cur] = i;
          this.chooseTarget[cur] = rec.a(i);
          this.chooseCount[cur] = rec.b(i);
          break;
        case TRACE_OP.SOLUTION:
          // the first solution event at a node marks it (a > 0: counted; 0: a turned copy of
          // one counted); every counted one is added up
          if (this.solStep[cur] < 0) {
            this.solStep[cur] = i;
            this.solNumber[cur] = rec.a(i);
          }
          if (rec.a(i) > 0) {
            this.solutions[cur]++;
            this.totalSolutions++;
          }
          break;
        default:
          // a dead end ends the level of the node where the search stands: the first one marks it
          if (isDeadEnd(op) && this.endOp[cur] === 0) {
            this.endOp[cur] = op;
            this.endStep[cur] = i;
          }
          break;
      }
    }
    this.processed = end;
  }

  /** Node n is taken back at event i: its subtree is complete, its totals are final. */
  close(n, i) {
    this.removeStep[n] = i;
    const size = this.nodeCount - n;
    this.size[n] = size;
    // a dead end is a leaf that failed: a node with no child whose level ended in a dead end
    // (a level that tried children and then was exhausted is the end of a branch, not a leaf)
    if (size === 1) {
      this.leaves[n]++;
      if (this.endOp[n] !== 0 && this.solutions[n] === 0) {
        this.deadEnds[n]++;
        this.totalDeadEnds++;
      }
    }
    const prev = this.prevSibling[n];
    this.sibLeaves[n] = this.leaves[n] + (prev >= 0 ? this.sibLeaves[prev] : 0);
    this.sibDeadEnds[n] = this.deadEnds[n] + (prev >= 0 ? this.sibDeadEnds[prev] : 0);
    this.sibSolutions[n] = this.solutions[n] + (prev >= 0 ? this.sibSolutions[prev] : 0);
    const p = this.parent[n];
    this.leaves[p] += this.leaves[n];
    this.deadEnds[p] += this.deadEnds[n];
    this.solutions[p] += this.solutions[n];
    this.cur = p;
  }

  get length() {
    return this.processed;
  }

  /** Nodes after step s: the root and one per PLACE event among events 0..s-1. */
  visibleNodeCount(s) {
    // placeStep grows with the node id: binary search for the first node placed at or after s
    let lo = 1, hi = this.nodeCount;
    const place = this.placeStep;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (place[mid] < s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The deepest node on the board after step s. */
  currentAt(s) {
    let m = this.visibleNodeCount(s) - 1;
    // every node created after the current one is below it; those taken back lead up to it
    while (m > ROOT && this.removeStep[m] < s) m = this.parent[m];
    return m;
  }

  /** Node ids from the root to the current node after step s. */
  pathAt(s) {
    const path = [];
    for (let n = this.currentAt(s); n >= 0; n = this.parent[n]) path.push(n);
    return path.reverse();
  }

  /** Whether node n was taken back before step s (then its subtree is complete at s). */
  isFinished(n, s) {
    return this.removeStep[n] < s;
  }

  /** Whether node n exists after step s. */
  isVisible(n, s) {
    return n === ROOT || (n < this.nodeCount && this.placeStep[n] < s);
  }

  /** The subtree size of n as far as the events taken in go (final once n is taken back). */
  sizeOf(n) {
    return this.removeStep[n] !== OPEN ? this.size[n] : this.nodeCount - n;
  }

  /**
   * Calls f(child) for n's children created before step s, in order; f returning false stops.
   * Only the last child can be unfinished at s (the search is below it), so the walk jumps
   * over each finished child's subtree.
   */
  forEachChild(n, s, f) {
    const end = this.visibleNodeCount(s);
    let c = n + 1;
    while (c < end && this.parent[c] === n) {
      if (f(c) === false) return;
      if (this.removeStep[c] >= s) return; // the open child: the rest of the ids are below it
      c += this.size[c];
    }
  }

  childrenAt(n, s) {
    const out = [];
    this.forEachChild(n, s, (c) => { out.push(c); });
    return out;
  }

  /** Node count, dead ends and solutions of n's subtree as it stands after step s. */
  stats(n, s) {
    if (this.isFinished(n, s)) return { nodes: this.size[n], leaves: this.leaves[n], deadEnds: this.deadEnds[n], solutions: this.solutions[n] };
    // a subtree still being searched at s: count what is behind s (a walk over what is visible)
    const out = { nodes: 0, leaves: 0, deadEnds: 0, solutions: 0 };
    const visit = (m) => {
      out.nodes++;
      if (this.isFinished(m, s)) {
        out.nodes += this.size[m] - 1;
        out.leaves += this.leaves[m];
        out.deadEnds += this.deadEnds[m];
        out.solutions += this.solutions[m];
        return;
      }
      // (a solution at a node still on the board: the first one; more than one solution event
      // at a node happens only in a trace cut above the last level, -t K with K > 1)
      if (this.solStep[m] >= 0 && this.solStep[m] < s && this.solNumber[m] > 0) out.solutions++;
      let children = 0;
      this.forEachChild(m, s, (c) => { children++; visit(c); });
      if (children === 0) {
        out.leaves++;
        if (this.endOp[m] !== 0 && this.endStep[m] < s && !(this.solStep[m] >= 0 && this.solStep[m] < s)) out.deadEnds++;
      }
    };
    visit(n);
    return out;
  }

  /** Totals of the finished siblings first..last (same parent, first before last). */
  range(first, last) {
    return {
      branches: this.sibIndex[last] - this.sibIndex[first] + 1,
      nodes: last + this.size[last] - first,
      leaves: this.sibLeaves[last] - this.sibLeaves[first] + this.leaves[first],
      deadEnds: this.sibDeadEnds[last] - this.sibDeadEnds[first] + this.deadEnds[first],
      solutions: this.sibSolutions[last] - this.sibSolutions[first] + this.solutions[first],
    };
  }

  /** Whether node n shows as a dead end after step s (a leaf whose level ended in a dead end). */
  isDeadLeaf(n, s) {
    return this.endOp[n] !== 0 && this.endStep[n] < s && !(this.solStep[n] >= 0 && this.solStep[n] < s)
      && (n + 1 >= this.nodeCount || this.parent[n + 1] !== n || this.placeStep[n + 1] >= s);
  }
}
