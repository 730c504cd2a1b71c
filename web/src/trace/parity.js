// The checkerboard argument (lesson 4), worked out for the puzzle on screen: colour every cell
// dark or light by the parity of x + y + z; a piece covers the same numbers of dark and light
// cells wherever it goes, up to swapping them (a move by one cell swaps the colours, turns keep
// the difference), so each piece adds +m or -m to "dark minus light" of the cells it fills. The
// board is fillable only if some choice of signs makes the pieces' differences add up to the
// board's. This is the engine's parity check (engine/constraints/parity) in words a person can
// follow, with the numbers of this puzzle.
//
//   const arg = parityArgument(puzzle);  // {dark, light, pieces: [{name, dark, light}], possible, text}
//   isDark(puzzle, cell)                 // for shading the board

export const isDark = (puzzle, cell) => {
  const x = cell % puzzle.xDim, y = Math.floor(cell / puzzle.xDim) % puzzle.yDim, z = Math.floor(cell / (puzzle.xDim * puzzle.yDim));
  return (x + y + z) % 2 === 0;
};

/** The open cells of the box: every cell but those of stationary pieces. */
export function openCells(puzzle) {
  const closed = new Set();
  puzzle.instances.forEach((inst) => {
    if (!inst.stationary) return;
    for (const [x, y, z] of puzzle.pieces[inst.piece].cells) closed.add(x + puzzle.xDim * (y + puzzle.yDim * z));
  });
  const out = [];
  for (let c = 0; c < puzzle.xDim * puzzle.yDim * puzzle.zDim; c++) if (!closed.has(c)) out.push(c);
  return out;
}

/** Every value a sum of +-m over the list can take. */
function signedSums(ms) {
  let sums = new Set([0]);
  for (const m of ms) {
    const next = new Set();
    for (const s of sums) { next.add(s + m); next.add(s - m); }
    sums = next;
  }
  return sums;
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

export function parityArgument(puzzle) {
  const cells = openCells(puzzle);
  const dark = cells.filter((c) => isDark(puzzle, c)).length;
  const light = cells.length - dark;
  const pieces = puzzle.instances.filter((inst) => !inst.stationary).map((inst) => {
    const shape = puzzle.pieces[inst.piece].cells;
    const d = shape.filter(([x, y, z]) => (x + y + z) % 2 === 0).length;
    return { name: inst.name, dark: d, light: shape.length - d, imbalance: Math.abs(2 * d - shape.length) };
  });
  const board = dark - light;
  const unbalanced = pieces.filter((p) => p.imbalance > 0);
  const reachable = signedSums(unbalanced.map((p) => p.imbalance));
  const possible = reachable.has(board);
  const groups = new Map(); // imbalance -> pieces
  for (const p of unbalanced) groups.set(p.imbalance, [...(groups.get(p.imbalance) || []), p]);
  const balancedCount = pieces.length - unbalanced.length;
  const parts = [`The board has ${dark} dark and ${light} light cells: a difference of ${board}.`];
  if (balancedCount) parts.push(`${plural(balancedCount, 'piece covers', 'pieces cover')} as many dark cells as light ones wherever ${balancedCount === 1 ? 'it goes' : 'they go'}.`);
  for (const [m, list] of groups) {
    parts.push(`${plural(list.length, 'piece covers', 'pieces cover')} ${m} more of one colour than of the other (${list.map((p) => p.name).join(', ')}), adding ${m} or −${m}.`);
  }
  if (possible) {
    parts.push(`The differences can add up to ${board}, so parity alone does not rule this board out.`);
  } else if (groups.size === 1 && board === 0 && [...groups.values()][0].length % 2 === 1) {
    const [[m, list]] = [...groups];
    parts.push(`An odd number (${list.length}) of terms ±${m} never adds up to 0: no arrangement can fill the board, and the search need not start.`);
  } else {
    parts.push(`No choice of signs makes them add up to ${board}: no arrangement can fill the board, and the search need not start.`);
  }
  return { dark, light, board, pieces, possible, text: parts.join(' ') };
}
