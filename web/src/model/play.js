// Playing a puzzle by hand: the geometry of the piece in hand and of the pieces placed. Pure
// functions on the engine's puzzle JSON (Session.puzzleJson) and plain arrays; no DOM, no
// engine. What a packing may be (shapes, the allowed turns) is the engine's to say: it checks
// every packing it is asked about (engine/play/play.hpp); this module only moves cells.
//
//   const hand = handFor(puzzle, 3);              // piece instance 3 as defined, handle at its middle
//   const turned = turnHand(hand, 'z');           // a quarter turn in the board's plane
//   const cells = handCells(puzzle, turned, 27);  // box cells with the handle on cell 27 (null: outside)
//   fits(puzzle, playGrid(puzzle, placed), cells) // inside and on free cells
//
// A placement is {instance, cells}: a mobile piece instance and the box cells it covers
// (x + xDim * (y + yDim * z)), in the order the person placed them.
import { boxCell, boxIndex, turnedCells } from './puzzle.js';

/** Instance indices of the mobile pieces, in order. */
export function mobileInstances(puzzle) {
  const out = [];
  puzzle.instances.forEach((inst, i) => { if (!inst.stationary) out.push(i); });
  return out;
}

/**
 * The cell of `cells` a person holds the piece by: the one nearest the middle of the piece
 * (the first in z, y, x order of the nearest), so that a piece lands centred on the pointer.
 */
export function handleOf(cells) {
  const n = cells.length;
  const mid = [0, 1, 2].map((k) => cells.reduce((s, c) => s + c[k], 0) / n);
  let best = 0, bestD = Infinity;
  cells.forEach((c, i) => {
    const d = (c[0] - mid[0]) ** 2 + (c[1] - mid[1]) ** 2 + (c[2] - mid[2]) ** 2;
    if (d < bestD - 1e-9) { best = i; bestD = d; }
  });
  return best;
}

/** A piece in hand: its instance, its cells as the puzzle defines them (from the origin) and the
 * handle's index in them. */
export function handFor(puzzle, instance) {
  return holding(instance, puzzle.pieces[puzzle.instances[instance].piece].cells, -1);
}

/**
 * The piece in hand turned a quarter turn about `axis` ('z': in the board's plane; 'x', 'y':
 * tipped), or by `quarterTurns`. The handle stays on the same cell of the piece.
 */
export function turnHand(hand, axis, quarterTurns = 1) {
  return holding(hand.instance, turnedCells(hand.cells, axis, quarterTurns), hand.handle);
}

// A hand of `cells` (any offset) held by cells[handle]: translated to the origin and sorted in
// z, y, x order, the handle following its cell.
function holding(instance, cells, handle) {
  const min = [0, 1, 2].map((k) => Math.min(...cells.map((c) => c[k])));
  const moved = cells.map((c, i) => ({ c: [c[0] - min[0], c[1] - min[1], c[2] - min[2]], i }));
  moved.sort((a, b) => a.c[2] - b.c[2] || a.c[1] - b.c[1] || a.c[0] - b.c[0]);
  const shape = moved.map((m) => m.c);
  const k = moved.findIndex((m) => m.i === handle);
  return { instance, cells: shape, handle: k >= 0 ? k : handleOf(shape) };
}

/** Turned over: a half turn about the y axis (a flat piece stays flat, mirrored left to right). */
export function flipHand(hand) {
  return turnHand(hand, 'y', 2);
}

/**
 * The box cells the piece in hand covers with its handle on box cell `at`, or null when a
 * cell would be outside the box.
 */
export function handCells(puzzle, hand, at) {
  if (!hand || !(at >= 0)) return null;
  const [ax, ay, az] = boxCell(puzzle, at);
  const h = hand.cells[hand.handle];
  const out = [];
  for (const c of hand.cells) {
    const x = ax + c[0] - h[0], y = ay + c[1] - h[1], z = az + c[2] - h[2];
    if (x < 0 || y < 0 || z < 0 || x >= puzzle.xDim || y >= puzzle.yDim || z >= puzzle.zDim) return null;
    out.push(boxIndex(puzzle, x, y, z));
  }
  return out;
}

/** The box cells of the piece in hand where they would lie, inside the box or not ([x, y, z]). */
export function handPositions(puzzle, hand, at) {
  if (!hand || !(at >= 0)) return [];
  const [ax, ay, az] = boxCell(puzzle, at);
  const h = hand.cells[hand.handle];
  return hand.cells.map((c) => [ax + c[0] - h[0], ay + c[1] - h[1], az + c[2] - h[2]]);
}

const grids = new WeakMap();

/**
 * The board as a grid (the viewer's and the engine's form): for each box cell the instance
 * covering it, -1 where it is free; stationary pieces where the puzzle puts them. Cells or
 * instances out of range (a damaged link, before the engine has refused it) are left out.
 * Cached by the identity of `placed` (play slices are replaced, never mutated).
 */
export function playGrid(puzzle, placed) {
  const cached = grids.get(placed);
  if (cached && cached.puzzle === puzzle) return cached.grid;
  const n = puzzle.xDim * puzzle.yDim * puzzle.zDim;
  const grid = new Int32Array(n).fill(-1);
  puzzle.instances.forEach((inst, i) => {
    if (!inst.stationary) return;
    for (const [x, y, z] of puzzle.pieces[inst.piece].cells) grid[boxIndex(puzzle, x, y, z)] = i;
  });
  for (const p of placed) {
    if (!(p.instance >= 0 && p.instance < puzzle.instances.length)) continue;
    for (const c of p.cells) if (c >= 0 && c < n) grid[c] = p.instance;
  }
  grids.set(placed, { puzzle, grid });
  return grid;
}

/** Whether `cells` (box indices, or null) are all free in `grid`. */
export function fits(grid, cells) {
  return !!cells && cells.length > 0 && cells.every((c) => c >= 0 && c < grid.length && grid[c] === -1);
}

/**
 * Where a piece lies in the ways to finish, from "Where can it go?"'s places ({cells,
 * completions}): per box cell the share of the ways to finish in which the piece covers it
 * (the sum of the completions of the places that cover it over the position's completions),
 * as [cell, share] pairs in cell order; share 1: the piece covers that cell in every one.
 */
export function placeShares(places, completions) {
  if (!(completions > 0)) return [];
  const sum = new Map();
  for (const place of places) for (const c of place.cells) sum.set(c, (sum.get(c) || 0) + place.completions);
  return [...sum.entries()].sort((a, b) => a[0] - b[0]).map(([c, n]) => [c, Math.min(1, n / completions)]);
}

/** The engine's flat form of a packing (Session.startPlay): [instance, cellCount, cells..., ...]. */
export function flatPlacements(placed) {
  const out = [];
  for (const p of placed) out.push(p.instance, p.cells.length, ...p.cells);
  return out;
}

/** A key naming a packing (its pieces and cells, in order): the engine's answers are for one. */
export function packingKey(placed) {
  return placed.map((p) => `${p.instance}:${[...p.cells].sort((a, b) => a - b).join(',')}`).join(' ');
}

/** The mobile instances not placed (and not in hand), in order. */
export function unplaced(puzzle, placed, hand = null) {
  const taken = new Set(placed.map((p) => p.instance));
  if (hand) taken.add(hand.instance);
  return mobileInstances(puzzle).filter((i) => !taken.has(i));
}

/**
 * A placed piece taken back into the hand, held by the cell `at` the person took it by (or its
 * middle): its cells as they lay, so it turns and lands as it was.
 */
export function handFromPlacement(puzzle, placement, at = -1) {
  return holding(placement.instance, placement.cells.map((c) => boxCell(puzzle, c)), placement.cells.indexOf(at));
}

/** The link's form of a packing (share/link.js play.placed): [[instance, cells...], ...]. */
export function linkPlacements(placed) {
  return placed.map((p) => [p.instance, ...p.cells]);
}

/** A link's (or the challenge file's) packing as placements. */
export function placementsFromLink(list) {
  return list.map(([instance, ...cells]) => ({ instance, cells }));
}
