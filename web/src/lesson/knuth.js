// Knuth's estimate of the size of a backtrack tree ("Estimating the efficiency of backtrack
// programs", Math. Comp. 29, 1975): dive from the root to a leaf, taking a random branch at each
// node; if the nodes on the way have d1, d2, ... branches, the tree is estimated to hold
// 1 + d1 + d1·d2 + d1·d2·d3 + ... nodes (every node taken as one like the one the dive met). The
// estimate is unbiased: its average over many dives tends to the true count. Here the dives run
// over a recorded search (its every node and branch known), so that the estimate can be set
// against the truth.
//
//   const tree = branchTable(recording);         // children of every node
//   const dive = randomDive(tree, rng);          // {path: [event index of each placement], estimate}
//   const rng = seededRandom(7);                 // the same dives on every run
import { TRACE_OP } from '../worker/protocol.js';

/**
 * The nodes of a recorded search tree and their branches: node 0 is the root (the empty
 * board), node k > 0 the placement at event placeAt[k]; children(k) lists its child nodes.
 */
export function branchTable(rec) {
  const placeAt = [-1];
  const parent = [-1];
  const stack = [0];
  for (let i = 0; i < rec.length; i++) {
    const op = rec.op(i);
    if (op === TRACE_OP.PLACE) {
      placeAt.push(i);
      parent.push(stack[stack.length - 1]);
      stack.push(placeAt.length - 1);
    } else if (op === TRACE_OP.REMOVE && stack.length > 1) stack.pop();
  }
  const n = placeAt.length;
  const count = new Int32Array(n + 1);
  for (let k = 1; k < n; k++) count[parent[k] + 1]++;
  for (let k = 0; k < n; k++) count[k + 1] += count[k]; // start of each node's children
  const child = new Int32Array(Math.max(0, n - 1));
  const fill = count.slice(0, n);
  for (let k = 1; k < n; k++) child[fill[parent[k]]++] = k;
  return {
    nodes: n,
    placeAt: Int32Array.from(placeAt),
    children: (k) => child.subarray(count[k], count[k + 1]),
  };
}

/** One dive from the root: the placements on its way (event indices) and its estimate of the node count. */
export function randomDive(tree, random) {
  const path = [];
  let estimate = 1;
  let product = 1;
  for (let node = 0; ;) {
    const kids = tree.children(node);
    if (kids.length === 0) break;
    product *= kids.length;
    estimate += product;
    node = kids[Math.floor(random() * kids.length)];
    path.push(tree.placeAt[node]);
  }
  return { path, estimate };
}

/** The running means after each of `count` dives, and the last dive's path. */
export function dives(tree, count, random) {
  const means = new Float64Array(count);
  let sum = 0;
  let last = null;
  for (let k = 0; k < count; k++) {
    last = randomDive(tree, random);
    sum += last.estimate;
    means[k] = sum / (k + 1);
  }
  return { means, last };
}

/** A small seeded generator (mulberry32): the lesson's dives are the same on every run. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
