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
 * Colour map for a puzzle: { byPiece: Map(pieceIndex -> hex), instanceColor(i) -> THREE.Color }.
 * Mobile pieces are numbered in definition order; stationary pieces are neutral.
 */
export function puzzleColors(puzzle) {
  const mobile = puzzle.pieces.map((p, i) => ({ p, i })).filter(({ p }) => !p.stationary);
  const byPiece = new Map();
  mobile.forEach(({ i }, k) => byPiece.set(i, pieceColorHex(k, mobile.length)));
  puzzle.pieces.forEach((p, i) => { if (p.stationary) byPiece.set(i, STATIONARY_COLOR); });

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
