// The exact-cover matrix of a puzzle, as dancing links sees it (Knuth, "Dancing links", 2000):
// a row per placement of a piece (an image of the engine's image table), a column per cell to
// fill and one per piece (a piece with k copies is a column to cover k times); a row has a 1 in
// the columns of the cells it covers and in its piece's column. Placing a row covers its
// columns: every row that clashes with it (shares a cell, or needs a piece whose copies are all
// placed) leaves the matrix; taking it back uncovers them and those rows come back. The model
// keeps, per row, how many placed rows clash with it (a counter per row, as dancing links keeps
// one per column), so a step forward or back costs only the rows that meet the row placed.
//
//   const ec = new ExactCover(table);        // table: {offsets, cells, imageShapes, instanceShapes}
//   ec.columns                               // [{kind: 'cell', cell} ..., {kind: 'piece', shape, copies} ...]
//   ec.rowColumns(r)                         // the columns of row r (its cells', then its piece's)
//   ec.place(r); ec.unplace(r);              // cover / uncover row r's columns
//   ec.isRowActive(r); ec.activeRows();      // rows still in the matrix (no clash with a placed row)
//   ec.isColumnCovered(j); ec.columnSize(j); // a column covered by a placed row; its rows still in the matrix
//   ec.columnOfTarget(target)                // the column of a trace target (a cell, or -1 - instance)
//   const replay = new CoverReplay(ec, recording); replay.seek(step);  // the matrix after `step` events
import { TRACE_OP } from '../worker/protocol.js';

export class ExactCover {
  /** @param {{offsets: Int32Array, cells: Int32Array, imageShapes: ArrayLike<number>, instanceShapes: ArrayLike<number>}} table */
  constructor(table) {
    const { offsets, cells, imageShapes, instanceShapes } = table;
    if (!imageShapes || imageShapes.length !== offsets.length - 1) throw new Error('the image table has no shape for every image: cannot build the exact-cover matrix');
    this.rowCount = offsets.length - 1;
    // columns: every cell some row covers, in cell order, then every shape with a mobile copy
    const cellSet = new Set(cells);
    const cellList = [...cellSet].sort((a, b) => a - b);
    const copies = new Map();
    instanceShapes.forEach((s) => { if (s >= 0) copies.set(s, (copies.get(s) || 0) + 1); });
    const shapes = [...new Set(Array.from(imageShapes))].sort((a, b) => a - b);
    this.columns = [
      ...cellList.map((cell) => ({ kind: 'cell', cell })),
      ...shapes.map((shape) => ({ kind: 'piece', shape, copies: copies.get(shape) || 1, instance: Array.from(instanceShapes).indexOf(shape) })),
    ];
    this.cellColumns = cellList.length;
    const columnOfCell = new Map(cellList.map((c, j) => [c, j]));
    this.columnOfShape = new Map(shapes.map((s, k) => [s, cellList.length + k]));
    this.columnOfCell = columnOfCell;
    this.instanceShapes = Int32Array.from(instanceShapes);
    // rows as column lists (CSR), and columns as row lists
    const rowStart = new Int32Array(this.rowCount + 1);
    const rowCols = [];
    for (let r = 0; r < this.rowCount; r++) {
      rowStart[r] = rowCols.length;
      for (let k = offsets[r]; k < offsets[r + 1]; k++) rowCols.push(columnOfCell.get(cells[k]));
      rowCols.push(this.columnOfShape.get(imageShapes[r]));
    }
    rowStart[this.rowCount] = rowCols.length;
    this.rowStart = rowStart;
    this.rowCols = Int32Array.from(rowCols);
    this.rowShape = Int32Array.from(imageShapes);
    const colCount = this.columns.length;
    const colStart = new Int32Array(colCount + 1);
    for (const j of rowCols) colStart[j + 1]++;
    for (let j = 0; j < colCount; j++) colStart[j + 1] += colStart[j];
    const fill = colStart.slice(0, colCount);
    this.colRows = new Int32Array(rowCols.length);
    for (let r = 0; r < this.rowCount; r++) for (let k = rowStart[r]; k < rowStart[r + 1]; k++) this.colRows[fill[this.rowCols[k]]++] = r;
    this.colStart = colStart;
    this.clashes = new Int32Array(this.rowCount);     // placed rows sharing a cell with the row
    this.cellCovered = new Uint8Array(this.cellColumns);
    this.shapePlaced = new Map(shapes.map((s) => [s, 0]));
    this.placed = [];                                  // rows placed, in order
  }

  rowColumns(r) {
    return this.rowCols.subarray(this.rowStart[r], this.rowStart[r + 1]);
  }

  columnRows(j) {
    return this.colRows.subarray(this.colStart[j], this.colStart[j + 1]);
  }

  shapeFull(shape) {
    const j = this.columnOfShape.get(shape);
    return this.shapePlaced.get(shape) >= this.columns[j].copies;
  }

  /** Cover row r's columns: every row sharing one of its cells clashes with it from now on. */
  place(r) {
    const cols = this.rowColumns(r);
    for (let k = 0; k < cols.length - 1; k++) {
      const j = cols[k];
      this.cellCovered[j] = 1;
      for (const other of this.columnRows(j)) this.clashes[other]++;
    }
    this.shapePlaced.set(this.rowShape[r], this.shapePlaced.get(this.rowShape[r]) + 1);
    this.placed.push(r);
  }

  /** Uncover the columns of row r, the last row placed (rows are taken back in reverse order). */
  unplace(r) {
    const last = this.placed.pop();
    if (last !== r) throw new Error(`rows are taken back last placed first: ${r} is not the last row placed (${last})`);
    const cols = this.rowColumns(r);
    for (let k = 0; k < cols.length - 1; k++) {
      const j = cols[k];
      this.cellCovered[j] = 0;
      for (const other of this.columnRows(j)) this.clashes[other]--;
    }
    this.shapePlaced.set(this.rowShape[r], this.shapePlaced.get(this.rowShape[r]) - 1);
  }

  /** A row still in the matrix: no placed row shares a cell with it, and its piece has a copy left. */
  isRowActive(r) {
    return this.clashes[r] === 0 && !this.shapeFull(this.rowShape[r]);
  }

  activeRows() {
    const out = [];
    for (let r = 0; r < this.rowCount; r++) if (this.isRowActive(r)) out.push(r);
    return out;
  }

  isColumnCovered(j) {
    const col = this.columns[j];
    return col.kind === 'cell' ? this.cellCovered[j] === 1 : this.shapeFull(col.shape);
  }

  /** Rows still in the matrix with a 1 in column j (dancing links' S heuristic counts these). */
  columnSize(j) {
    let n = 0;
    for (const r of this.columnRows(j)) if (this.isRowActive(r)) n++;
    return n;
  }

  /** The column of a trace target: a box cell (>= 0), or the piece of instance -1 - target. */
  columnOfTarget(target) {
    if (target >= 0) return this.columnOfCell.has(target) ? this.columnOfCell.get(target) : -1;
    const shape = this.instanceShapes[-1 - target];
    return this.columnOfShape.has(shape) ? this.columnOfShape.get(shape) : -1;
  }
}

// A seek further than this many steps sets the rows placed at once instead of replaying every
// placement between (a jump across a long recording would otherwise cover and uncover rows
// millions of times).
const FAR = 2000;

/**
 * The matrix after `step` events of a recorded search: its placements and removals applied to
 * an ExactCover, forwards or backwards from where it stands (each has an exact inverse).
 */
export class CoverReplay {
  constructor(cover, recording) {
    this.cover = cover;
    this.rec = recording;
    this.step = 0;
  }

  seek(k) {
    const target = Math.max(0, Math.min(this.rec.length, Math.floor(k)));
    const { cover, rec } = this;
    if (Math.abs(target - this.step) > FAR) {
      // the rows placed after `target` events: a stack of the placements not yet taken back
      const stack = [];
      for (let i = 0; i < target; i++) {
        const op = rec.op(i);
        if (op === TRACE_OP.PLACE) stack.push(rec.b(i));
        else if (op === TRACE_OP.REMOVE) stack.pop();
      }
      while (cover.placed.length) cover.unplace(cover.placed[cover.placed.length - 1]);
      for (const r of stack) cover.place(r);
      this.step = target;
      return;
    }
    while (this.step < target) {
      const i = this.step++;
      const op = rec.op(i);
      if (op === TRACE_OP.PLACE) cover.place(rec.b(i));
      else if (op === TRACE_OP.REMOVE) cover.unplace(rec.b(i));
    }
    while (this.step > target) {
      const i = --this.step;
      const op = rec.op(i);
      if (op === TRACE_OP.PLACE) cover.unplace(rec.b(i));
      else if (op === TRACE_OP.REMOVE) cover.place(rec.b(i));
    }
  }
}
