// Cells named by the coordinates drawn on the board's edges (web/src/lesson/cell-names.js):
// columns by letters from the left, rows by numbers from the bottom, layers from the bottom;
// every cell of a box gets a different name, and the names follow the box's cell order.
import { describe, expect, test } from 'vitest';
import { cellCoords, cellLabel, cellName, columnLabel, edgeLabels, layerLabel, rowLabel, squareLabel } from '../../web/src/lesson/cell-names.js';

describe('cell names', () => {
  test('columns as letters, spreadsheet style, rows and layers as numbers from 1', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(columnLabel)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
    expect(columnLabel(-1)).toBe('?');
    expect(rowLabel(0)).toBe('1');
    expect(layerLabel(2)).toBe('layer 3');
  });

  test('a board: cell index x + xDim * y is column x, row y + 1', () => {
    const board = { xDim: 4, yDim: 3, zDim: 1 };
    expect(cellLabel(board, 0)).toBe('A1');
    expect(cellLabel(board, 3)).toBe('D1');
    expect(cellLabel(board, 4)).toBe('A2');
    expect(cellLabel(board, 11)).toBe('D3');
    expect(cellName(board, 6)).toBe('cell C2');
    expect(cellLabel(board, 12)).toBe('?');
    expect(edgeLabels(board)).toEqual({ columns: ['A', 'B', 'C', 'D'], rows: ['1', '2', '3'], layers: [] });
  });

  test('a box names the layer too, and every cell differently', () => {
    const box = { xDim: 3, yDim: 2, zDim: 2 };
    expect(cellLabel(box, 4)).toBe('B2 in layer 1');
    expect(cellLabel(box, 6)).toBe('A1 in layer 2');
    expect(squareLabel(box, 6)).toBe('A1');
    expect(cellCoords(box, 11)).toEqual({ x: 2, y: 1, z: 1 });
    const names = new Set(Array.from({ length: 12 }, (_, c) => cellLabel(box, c)));
    expect(names.size).toBe(12);
    expect(edgeLabels(box).layers).toEqual(['layer 1', 'layer 2']);
    // a wide board: 30 columns reach AD
    expect(cellLabel({ xDim: 30, yDim: 3, zDim: 1 }, 29)).toBe('AD1');
  });
});
