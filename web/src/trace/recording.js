// A recorded search trace: the worker's batches of 4-int records [op, remaining, a, b]
// (worker/protocol.js TRACE_OP) appended into one growing Int32Array, up to a fixed number of
// steps. Recording once and replaying from the record is what makes stepping back exact
// (algorithm-visualizer's and VisuAlgo's way). When the window is full the recording stops
// and says so (`full`); the search behind it is not stopped here: the worker ends it itself
// at the window's last step (the solve's `window`, the session's trace limit: done reason
// 'window'), so that its solutions and counters are the window's alone.
//
//   const rec = new TraceRecording(1_000_000);
//   rec.append(events);   // returns false once full
//   rec.length; rec.op(i); rec.remaining(i); rec.a(i); rec.b(i);
export const RECORD_INTS = 4;
export const DEFAULT_CAPACITY = 1_000_000; // steps kept (16 MB)

export class TraceRecording {
  constructor(capacity = DEFAULT_CAPACITY) {
    this.capacity = capacity;
    this.data = new Int32Array(Math.min(capacity, 65536) * RECORD_INTS);
    this.length = 0;
    this.full = false;
  }

  /** Append a batch (Int32Array of whole records); false when the window is (now) full. */
  append(events) {
    if (this.full) return false;
    const n = Math.floor(events.length / RECORD_INTS);
    const keep = Math.min(n, this.capacity - this.length);
    const need = (this.length + keep) * RECORD_INTS;
    if (need > this.data.length) {
      let size = this.data.length;
      while (size < need) size *= 2;
      const bigger = new Int32Array(Math.min(size, this.capacity * RECORD_INTS));
      bigger.set(this.data.subarray(0, this.length * RECORD_INTS));
      this.data = bigger;
    }
    this.data.set(events.subarray(0, keep * RECORD_INTS), this.length * RECORD_INTS);
    this.length += keep;
    if (keep < n || this.length >= this.capacity) this.full = true;
    return !this.full;
  }

  op(i) { return this.data[i * RECORD_INTS]; }
  remaining(i) { return this.data[i * RECORD_INTS + 1]; }
  a(i) { return this.data[i * RECORD_INTS + 2]; }
  b(i) { return this.data[i * RECORD_INTS + 3]; }
}
