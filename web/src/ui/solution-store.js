// Solutions of one search, kept in one growing typed array (8 or 16 bits per cell when the
// instance count allows), capped so memory stays bounded however many solutions a search finds.
// Solutions beyond the cap are counted but not stored.

export const MAX_STORED = 100_000;
const MEMORY_BUDGET = 64 * 1024 * 1024; // bytes for stored grids

export class SolutionStore {
  /**
   * @param {number} cellCount grid length (xDim*yDim*zDim)
   * @param {number} instanceCount number of piece instances (largest value in a grid + 1)
   */
  constructor(cellCount, instanceCount) {
    this.cellCount = cellCount;
    this.Type = instanceCount <= 255 ? Uint8Array : instanceCount <= 65535 ? Uint16Array : Int32Array;
    const bytes = Math.max(1, cellCount * this.Type.BYTES_PER_ELEMENT);
    this.cap = Math.max(1, Math.min(MAX_STORED, Math.floor(MEMORY_BUDGET / bytes)));
    this.data = new this.Type(Math.min(this.cap, 256) * cellCount);
    this.stored = 0; // solutions kept
    this.total = 0;  // solutions seen
  }

  get full() {
    return this.stored >= this.cap;
  }

  /** Add `count` grids laid end to end in `grids` (Int32Array). */
  add(grids, count) {
    const n = this.cellCount;
    this.total += count;
    const keep = Math.min(count, this.cap - this.stored);
    if (keep <= 0) return;
    const need = (this.stored + keep) * n;
    if (need > this.data.length) {
      let size = this.data.length || n;
      while (size < need) size *= 2;
      size = Math.min(size, this.cap * n);
      const bigger = new this.Type(size);
      bigger.set(this.data.subarray(0, this.stored * n));
      this.data = bigger;
    }
    // Int32 -> narrower type: TypedArray.set converts element by element
    this.data.set(grids.subarray(0, keep * n), this.stored * n);
    this.stored += keep;
  }

  /** Count `count` solutions found elsewhere whose grids were not kept (a resumed search). */
  countUnstored(count) {
    this.total += count;
  }

  /** The first stored solution equal to `grid` (0-based), or -1. */
  indexOf(grid) {
    const n = this.cellCount;
    if (grid.length !== n) return -1;
    for (let k = 0, at = 0; k < this.stored; k++, at += n) {
      let i = 0;
      while (i < n && this.data[at + i] === grid[i]) i++;
      if (i === n) return k;
    }
    return -1;
  }

  /** Grid of stored solution k (0-based), a view into the store. */
  get(k) {
    const n = this.cellCount;
    return this.data.subarray(k * n, (k + 1) * n);
  }
}
