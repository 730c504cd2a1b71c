// The editor's 3-D layer draws the open cells near the surface of a big space (and the layer
// chosen), not its deep inside; smaller spaces are drawn whole.
import { describe, expect, test } from 'vitest';
import { shownOpenCells } from '../../web/src/viewer/space-layer.js';

const all = () => true;
const shell = (n, d) => n ** 3 - Math.max(0, n - 2 * d) ** 3; // cells at most d deep in an n^3 box

describe('shownOpenCells', () => {
  test('up to ~4,000 cells every cell is drawn', () => {
    expect(shownOpenCells(3, 3, 3, all, 0).length).toBe(27);
    expect(shownOpenCells(4, 4, 4, all, 0).length).toBe(64);
    expect(shownOpenCells(15, 15, 15, all, 0).length).toBe(15 ** 3);
    expect(shownOpenCells(23, 23, 1, all, 0).length).toBe(23 * 23);
  });

  test('a big box: as many cells deep as fit, the outer shell at least, plus the chosen layer', () => {
    expect(shownOpenCells(20, 20, 20, all, 0).length).toBe(shell(20, 2)); // 3,904; 3 deep: 5,256
    expect(shownOpenCells(40, 40, 40, all, 0).length).toBe(shell(40, 1)); // 9,128: the shell alone
    expect(shownOpenCells(40, 40, 40, all, 20).length).toBe(shell(40, 1) + 38 * 38);
    const centre = 10 + 20 * (10 + 20 * 10);
    expect(shownOpenCells(20, 20, 20, all, 0)).not.toContain(centre);
    expect(shownOpenCells(20, 20, 20, all, 10)).toContain(centre);
  });

  test('a hole inside exposes the cells around it; holes themselves are not drawn as open', () => {
    const X = 40, hole = 20 + X * (20 + X * 20);
    const shown = new Set(shownOpenCells(X, X, X, (i) => i !== hole, 0));
    expect(shown.has(hole)).toBe(false);
    for (const d of [1, -1, X, -X, X * X, -X * X]) expect(shown.has(hole + d)).toBe(true);
    expect(shown.has(hole + 2)).toBe(false);
    expect(shownOpenCells(X, X, X, all, 0)).not.toContain(hole + 1);
  });
});
