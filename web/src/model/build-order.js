// The engine's build order of a solution (worker/protocol.js 'buildOrder';
// engine/assembly/build_order.hpp), as the page steps through it: what is in the box after
// each step, how the step's piece moves in, and the step in words. Pure functions of the order,
// the solution grid and the puzzle (the engine's JSON form), so tests run them without a page.
//
//   const n = buildStepCount(order);                 // steps: the interlocked group (if any) is one
//   const grid = placedGrid(puzzle, solution, order, k);   // the box after k steps (-1: empty)
//   const m = stepMotion(puzzle, solution, order, k - 1, k); // the viewer's motion for that step
//   stepWords(puzzle, order, k)                       // "Step 3 of 12: T. Lower it 2 cells ..."

/** Steps of the build: the interlocked group (put in together) counts as one. */
export function buildStepCount(order) {
  return order.steps.length + (order.interlocked.length ? 1 : 0);
}

/** The instances that step k (1-based) puts in: the whole group, or one piece. */
export function stepInstances(order, k) {
  const group = order.interlocked.length ? 1 : 0;
  if (k < 1 || k > buildStepCount(order)) return [];
  if (group && k === 1) return [...order.interlocked];
  return [order.steps[k - 1 - group].instance];
}

/** The instances in the box after k steps. */
export function placedInstances(order, k) {
  const out = new Set();
  for (let j = 1; j <= Math.min(k, buildStepCount(order)); j++) for (const i of stepInstances(order, j)) out.add(i);
  return out;
}

/** The solution with only what is in the box after k steps (stationary pieces always; -1: empty). */
export function placedGrid(puzzle, solution, order, k) {
  const placed = placedInstances(order, k);
  const out = new Int32Array(solution.length);
  for (let c = 0; c < solution.length; c++) {
    const i = solution[c];
    const inst = puzzle.instances[i];
    out[c] = inst && (inst.stationary || placed.has(i)) ? i : -1;
  }
  return out;
}

/** The cells of each instance in `instances`, as a Map. */
function cellsOf(solution, instances) {
  const out = new Map(instances.map((i) => [i, []]));
  for (let c = 0; c < solution.length; c++) if (out.has(solution[c])) out.get(solution[c]).push(c);
  return out;
}

/**
 * The way in of step k as offsets from the piece's place, in cells, in the order travelled:
 * from above the box ([0, 0, drop + side]) down, then sideways, to [0, 0, 0]. The group comes
 * straight down together, from where its lowest cell is just above the box.
 */
export function stepPath(puzzle, solution, order, k) {
  const instances = stepInstances(order, k);
  if (instances.length === 0) return [[0, 0, 0]];
  if (order.interlocked.length && k === 1) {
    let low = puzzle.zDim;
    for (const cells of cellsOf(solution, instances).values()) {
      for (const c of cells) low = Math.min(low, Math.floor(c / (puzzle.xDim * puzzle.yDim)));
    }
    return [[0, 0, puzzle.zDim - low], [0, 0, 0]];
  }
  const step = order.steps[k - 1 - (order.interlocked.length ? 1 : 0)];
  let at = [0, 0, 0];
  const back = [at];
  for (let s = step.slides.length - 1; s >= 0; s--) {
    const { dir, distance } = step.slides[s];
    at = [at[0] - dir[0] * distance, at[1] - dir[1] * distance, at[2] - dir[2] * distance];
    back.push(at);
  }
  return back.reverse();
}

const MS_PER_CELL = 110;
const MIN_MS = 320;
const MAX_MS = 1600;

/**
 * The viewer's motion (viewer.showSolution) for a move from step `from` to step `to`: one step
 * forward slides the step's pieces in along stepPath, one step back slides them out the same
 * way reversed; anything else (a jump) or `instant` draws without motion (null).
 */
export function stepMotion(puzzle, solution, order, from, to, { instant = false } = {}) {
  if (instant || Math.abs(to - from) !== 1) return null;
  const k = Math.max(from, to);
  const instances = stepInstances(order, k);
  if (instances.length === 0) return null;
  const path = stepPath(puzzle, solution, order, k);
  let length = 0;
  for (let j = 1; j < path.length; j++) length += path[j - 1].reduce((sum, v, a) => sum + Math.abs(v - path[j][a]), 0);
  const ms = Math.max(MIN_MS, Math.min(MAX_MS, length * MS_PER_CELL));
  if (to > from) return { instances, path, ms };
  return { instances, path: [...path].reverse(), leaving: true, cellsOf: cellsOf(solution, instances), ms };
}

// Seen from the default view (from the front right, viewer.js resetView): +x runs to the
// right, +y away from the viewer.
const DIRECTION_WORDS = new Map([
  ['1,0,0', 'to the right (+x)'], ['-1,0,0', 'to the left (−x)'], ['0,1,0', 'to the back (+y)'], ['0,-1,0', 'to the front (−y)'],
]);

function cells(n) {
  return `${n} cell${n === 1 ? '' : 's'}`;
}

/** A list of names: "A", "A and B", "A, B and C". */
export function namesText(names) {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** How one step's piece goes in, in words (without the step number). Layers count from 1 at the bottom. */
export function slideWords(step, zDim) {
  const [down, side] = step.slides;
  const layer = zDim - down.distance + 1; // where its lowest cells end
  const where = layer === 1 ? 'to the bottom' : `into layer ${layer}`;
  let text;
  if (zDim === 1) text = 'Lay it in its place.';
  else if (!side) text = `Lower it straight down ${where}.`;
  else text = `Lower it ${where} beside its place, then slide it ${cells(side.distance)} ${DIRECTION_WORDS.get(side.dir.join(',')) || side.dir.join(',')}.`;
  if (!step.rests) text += ' Nothing is under it yet: hold it until a later piece is.';
  return text;
}

/** What the whole order says about this solution, in a sentence or two. */
export function orderSummary(puzzle, order) {
  const names = (list) => namesText(list.map((i) => puzzle.instances[i].name));
  switch (order.class) {
    case 'above':
      return order.flat
        ? 'A flat board: every piece is laid in from above, in any order (here from the bottom left).'
        : 'Every piece is lowered straight into place from above, each resting on the box or on pieces already in.';
    case 'sideways':
      return `Most pieces are lowered straight in; ${order.sideways === 1 ? 'one is' : `${order.sideways} are`} lowered beside ${order.sideways === 1 ? 'its place' : 'their places'} and slid sideways under an overhang.`;
    case 'interlocked':
      if (order.interlocked.length === 1) {
        return `Not by straight slides: ${names(order.interlocked)} is locked in by the stationary pieces; it has to go in first some other way${order.steps.length ? ', then the others one by one.' : '.'}`;
      }
      return `Not one piece at a time: ${names(order.interlocked)} interlock (none of them can slide in or out while the others are there). Fit them together first and put them in as one${order.steps.length ? '; the others follow one by one.' : '.'}`;
    default:
      return `The pieces come apart, but ${order.searchExhausted ? 'no order was found (the search stopped at its limit) in which' : 'in no order does'} every piece rest${order.searchExhausted ? 's' : ''} on something as it goes in: a piece marked "hold it" has nothing under it until a later one is placed.`;
  }
}

/** What the engine's better turn of the solution (order.turned) offers, in a sentence, or ''. */
export function turnedWords(order) {
  const t = order.turned;
  if (!t) return '';
  const o = t.order;
  const n = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const how = {
    above: 'every piece is lowered straight in',
    sideways: `it goes in with ${n(o.sideways, 'sideways slide')}`,
    unsupported: `it goes in with ${n(o.steps.filter((s) => !s.rests).length, 'piece')} to hold`,
    interlocked: `only ${o.interlocked.length} pieces interlock`,
  }[o.class];
  return `Turned ${turnPhrase(t.words)}, ${how}.`;
}

/** The engine's words for a turn ("with its front face (-y) at the bottom") as the page writes them (a true minus). */
export function turnPhrase(words) {
  return words.replace(/\(-([xyz])\)/, '(−$1)');
}

/** Step k in words: "Step 3 of 12: T. Lower it ..."; step 0: the empty box. */
export function stepWords(puzzle, order, k) {
  const total = buildStepCount(order);
  if (k <= 0) return `The empty ${puzzle.zDim > 1 ? 'box' : 'board'}: ${total} step${total === 1 ? '' : 's'} to go.`;
  const head = `Step ${k} of ${total}: `;
  if (order.interlocked.length && k === 1) {
    const names = namesText(order.interlocked.map((i) => puzzle.instances[i].name));
    return order.interlocked.length === 1 ? `${head}${names}, locked in by the stationary pieces: put in some other way.`
      : `${head}${names}, fitted together, lowered in as one.`;
  }
  const step = order.steps[k - 1 - (order.interlocked.length ? 1 : 0)];
  return `${head}${step.name}. ${slideWords(step, puzzle.zDim)}`;
}
