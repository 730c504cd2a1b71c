// Piece colours: stable for a piece name within a puzzle, with well separated hues.
//
// Up to 20 pieces get a hand-picked qualitative palette (ordered so that pieces defined next to
// each other differ strongly). Larger sets walk the hue circle by the golden angle and cycle
// through three lightness/saturation levels, so neighbours in definition order never look alike.
// Copies of one piece (count=N) share its hue with a small lightness shift per copy.
import { Color } from 'three';

const PALETTE = [
  '#e6194b', // red
  '#3cb44b', // green
  '#ffc61a', // yellow
  '#4363d8', // blue
  '#f58231', // orange
  '#911eb4', // purple
  '#42d4f4', // cyan
  '#f032e6', // magenta
  '#b5e02f', // lime
  '#ebe3cc', // ivory
  '#9a6324', // brown
  '#ff9fb8', // pink
];
// Used (after PALETTE) when a puzzle has 13..20 pieces.
const PALETTE_MORE = [
  '#469990', // teal
  '#8c1c2c', // maroon
  '#c9b3ff', // lavender
  '#808000', // olive
  '#1f2f8f', // navy
  '#ffd8b1', // apricot
  '#7be3a6', // mint
  '#a9a9a9', // grey
];

const GOLDEN = 0.381966011250105; // 1 - 1/phi: the golden angle as a fraction of a turn
const LEVELS = [
  { s: 0.78, l: 0.52 },
  { s: 0.70, l: 0.66 },
  { s: 0.85, l: 0.38 },
];

export const STATIONARY_COLOR = '#59606e';

/** CSS colour (hex string) for piece number `index` of `total` mobile pieces. */
export function pieceColorHex(index, total) {
  if (total <= PALETTE.length) return PALETTE[index];
  if (total <= PALETTE.length + PALETTE_MORE.length) {
    return index < PALETTE.length ? PALETTE[index] : PALETTE_MORE[index - PALETTE.length];
  }
  const hue = (0.02 + index * GOLDEN) % 1;
  const level = LEVELS[index % LEVELS.length];
  return '#' + new Color().setHSL(hue, level.s, level.l).getHexString();
}

/**
 * The colour slot of each mobile piece of `next` (null for stationary ones), carried over from
 * `previous` (pieces) and its `slots`, so that an edit leaves the other pieces' colours alone
 * (deleting a piece in the editor must not recolour every piece after it). A piece keeps its slot
 * when it is the same object, else when a piece of its name had one, else when it stands where
 * a piece that has found no match stood (a rename, a turn); new pieces take the lowest free
 * slots. Without `previous`, the slots are the positions among the mobile pieces.
 * @param {{name: string, stationary: boolean}[]|null} previous
 * @param {(number|null)[]|null} slots
 * @param {{name: string, stationary: boolean}[]} next
 * @returns {(number|null)[]}
 */
export function carryColourSlots(previous, slots, next) {
  const out = new Array(next.length).fill(null);
  if (!previous || !slots) {
    let k = 0;
    next.forEach((p, i) => { if (!p.stationary) out[i] = k++; });
    return out;
  }
  const used = new Set();
  const taken = new Set(); // indices of `previous` matched
  const take = (i, j) => {
    if (j < 0 || taken.has(j) || slots[j] === null || slots[j] === undefined || used.has(slots[j])) return false;
    out[i] = slots[j];
    used.add(slots[j]);
    taken.add(j);
    return true;
  };
  const mobile = next.map((p, i) => i).filter((i) => !next[i].stationary);
  for (const i of mobile) take(i, previous.indexOf(next[i]));
  for (const i of mobile) if (out[i] === null) take(i, previous.findIndex((q, j) => !taken.has(j) && !q.stationary && q.name === next[i].name));
  for (const i of mobile) if (out[i] === null && i < previous.length && !previous[i].stationary) take(i, i);
  let free = 0;
  for (const i of mobile) {
    if (out[i] !== null) continue;
    while (used.has(free)) free++;
    out[i] = free;
    used.add(free);
  }
  return out;
}

/**
 * {name: slot} of the mobile `pieces`, their slots given in `slots` (parallel to them) or as
 * each piece's own colourSlot; null when a mobile piece has none.
 */
export function slotsByName(pieces, slots = null) {
  if (!pieces) return null;
  const out = {};
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    if (p.stationary) continue;
    const slot = slots ? slots[i] : p.colourSlot;
    if (!Number.isInteger(slot)) return null;
    out[p.name] = slot;
  }
  return out;
}

/** Give the pieces of `puzzles[0]` the colour slots of `named` ({name: slot}) when every mobile one has one. */
export function applyColourSlots(puzzle, named) {
  if (!puzzle || !named) return puzzle;
  const mobile = puzzle.pieces.filter((p) => !p.stationary);
  if (!mobile.every((p) => Number.isInteger(named[p.name]))) return puzzle;
  return { ...puzzle, pieces: puzzle.pieces.map((p) => (p.stationary ? p : { ...p, colourSlot: named[p.name] })) };
}

/**
 * The CSS colour of each piece ({stationary, colourSlot?}): mobile pieces by their order, or by
 * their colourSlot when every one has one; stationary pieces neutral.
 */
export function pieceColours(pieces) {
  const mobile = pieces.map((p, i) => ({ p, i })).filter(({ p }) => !p.stationary);
  const slotted = mobile.length > 0 && mobile.every(({ p }) => Number.isInteger(p.colourSlot) && p.colourSlot >= 0);
  // (the palette's size follows the highest slot: slots freed by deletions leave gaps)
  const total = slotted ? Math.max(mobile.length, ...mobile.map(({ p }) => p.colourSlot + 1)) : mobile.length;
  const out = pieces.map(() => STATIONARY_COLOR);
  mobile.forEach(({ p, i }, k) => { out[i] = pieceColorHex(slotted ? p.colourSlot : k, total); });
  return out;
}

/**
 * Colour map for a puzzle: { byPiece: Map(pieceIndex -> hex), instanceColor(i) -> THREE.Color }.
 * Mobile pieces are numbered in definition order, or by their `colourSlot` where the pieces
 * carry one (the editor's: carryColourSlots); stationary pieces are neutral.
 */
export function puzzleColors(puzzle) {
  const byPiece = new Map(pieceColours(puzzle.pieces).map((c, i) => [i, c]));

  // copy number of each instance within its piece
  const copyOf = new Array(puzzle.instances.length);
  const seen = new Map();
  puzzle.instances.forEach((inst, i) => {
    const k = seen.get(inst.piece) || 0;
    copyOf[i] = k;
    seen.set(inst.piece, k + 1);
  });

  const cache = new Map();
  function instanceColor(i) {
    let c = cache.get(i);
    if (c) return c;
    const inst = puzzle.instances[i];
    c = new Color(byPiece.get(inst.piece) || STATIONARY_COLOR);
    const copy = copyOf[i];
    if (copy > 0 && !inst.stationary) {
      const hsl = {};
      c.getHSL(hsl);
      const shift = [0, 0.12, -0.1, 0.2, -0.18][copy % 5];
      c.setHSL(hsl.h, hsl.s, Math.min(0.85, Math.max(0.2, hsl.l + shift)));
    }
    cache.set(i, c);
    return c;
  }
  return { byPiece, instanceColor };
}
