// Replays a recorded search (recording.js) step by step, forwards and backwards exactly: the
// board (which image each placed piece instance occupies, as a grid of instance per box cell)
// and the open levels of the search (each level's target and candidates) after `step` events.
// Every event has an exact inverse, so stepping back undoes instead of recomputing.
//
//   const player = new TracePlayer(recording, imageTable, cellCount);
//   player.forward(); player.back(); player.seek(195);
//   player.grid;            // Int32Array: instance per box cell, -1 where empty
//   player.levels;          // [{target, count, candidates: [{instance, image}], remaining, tried, busy, at}]
//                           //   (at: the index of the level's CHOOSE event)
//   player.fractionDone();  // share of the search tree behind this step (0..1)
//   player.event(i);        // {op, remaining, a, b} of event i (0-based)
//   player.find(from, dir, (ev) => ev.op === TRACE_OP.SOLUTION)
import { TRACE_OP } from '../worker/protocol.js';

const DEAD_ENDS = new Set([TRACE_OP.NO_FIT, TRACE_OP.EXHAUSTED, TRACE_OP.PARITY_TRIGGER, TRACE_OP.VOLUME_TRIGGER, TRACE_OP.DEAD_CELL, TRACE_OP.FILTER_EMPTIED]);
export const isDeadEnd = (op) => DEAD_ENDS.has(op);

export class TracePlayer {
  /**
   * @param {import('./recording.js').TraceRecording} recording
   * @param {{offsets: Int32Array, cells: Int32Array}} imageTable image i covers box cells
   *   cells[offsets[i] .. offsets[i+1])
   * @param {number} cellCount box cells
   */
  constructor(recording, imageTable, cellCount) {
    this.rec = recording;
    this.images = imageTable;
    this.grid = new Int32Array(cellCount).fill(-1);
    this.step = 0;        // events applied
    this.levels = [];     // open levels, innermost last
    this.closed = new Map(); // event index of a level-closing dead end -> the level it closed
    this.depth = 0;       // pieces placed now
  }

  get length() {
    return this.rec.length;
  }

  event(i) {
    const r = this.rec;
    return { index: i, op: r.op(i), remaining: r.remaining(i), a: r.a(i), b: r.b(i) };
  }

  /** The event applied last (null at step 0). */
  current() {
    return this.step > 0 ? this.event(this.step - 1) : null;
  }

  cellsOf(image) {
    const { offsets, cells } = this.images;
    return cells.subarray(offsets[image], offsets[image + 1]);
  }

  setImage(image, value) {
    if (image < 0 || image + 1 >= this.images.offsets.length) return;
    for (const c of this.cellsOf(image)) this.grid[c] = value;
  }

  forward() {
    if (this.step >= this.length) return false;
    const i = this.step;
    const op = this.rec.op(i), a = this.rec.a(i), b = this.rec.b(i);
    const top = this.levels[this.levels.length - 1];
    switch (op) {
      case TRACE_OP.PLACE: this.setImage(b, a); this.depth++; if (top) { top.tried++; top.busy = true; } break;
      case TRACE_OP.REMOVE: this.setImage(b, -1); this.depth--; if (top) top.busy = false; break;
      case TRACE_OP.CHOOSE: this.levels.push({ target: a, count: b, remaining: this.rec.remaining(i), candidates: [], tried: 0, busy: false, at: i }); break;
      case TRACE_OP.CANDIDATE: if (top) top.candidates.push({ instance: a, image: b }); break;
      case TRACE_OP.NO_FIT:
      case TRACE_OP.EXHAUSTED:
      case TRACE_OP.FILTER_EMPTIED:
        // the dead end closes the level it belongs to (kept, so that stepping back reopens it)
        if (top && top.target === a) this.closed.set(i, this.levels.pop());
        break;
      default: break;
    }
    this.step++;
    return true;
  }

  back() {
    if (this.step <= 0) return false;
    const i = this.step - 1;
    const op = this.rec.op(i), a = this.rec.a(i), b = this.rec.b(i);
    const top = this.levels[this.levels.length - 1];
    switch (op) {
      case TRACE_OP.PLACE: this.setImage(b, -1); this.depth--; if (top) { top.tried--; top.busy = false; } break;
      case TRACE_OP.REMOVE: this.setImage(b, a); this.depth++; if (top) top.busy = true; break;
      case TRACE_OP.CHOOSE: this.levels.pop(); break;
      case TRACE_OP.CANDIDATE: if (top) top.candidates.pop(); break;
      default:
        if (this.closed.has(i)) {
          this.levels.push(this.closed.get(i));
          this.closed.delete(i);
        }
        break;
    }
    this.step--;
    return true;
  }

  /**
   * The share of the whole search tree that lies behind this step, from the choices on the
   * current path: a level offering d candidates of which t are finished covers t/d of its
   * parent's share (the "weighted backtrack" progress estimate of Kilby, Slaney, Thiebaux and
   * Walsh, "Estimating search tree size", AAAI 2006: each branch of a level taken as an equal
   * part of it). steps / fractionDone() estimates the size of the whole search in steps.
   */
  fractionDone() {
    // no open level after some steps: the first level closed, the whole search is behind us
    if (this.levels.length === 0) return this.step > 0 && this.step === this.length ? 1 : 0;
    // right after a dead end or a solution, the branch being tried at the innermost level is
    // finished although its piece is still on the board (it is taken back next)
    const last = this.current();
    const branchOver = !!last && (isDeadEnd(last.op) || last.op === TRACE_OP.SOLUTION);
    const innermost = this.levels.length - 1;
    let done = 0;
    let share = 1;
    for (let k = 0; k <= innermost; k++) {
      const level = this.levels[k];
      if (level.count <= 0) break;
      const open = level.busy && !(k === innermost && branchOver) ? 1 : 0;
      done += (share * (level.tried - open)) / level.count;
      share /= level.count;
      if (!level.busy) break; // nothing below a level without a piece placed now
    }
    return Math.min(1, done);
  }

  /** Go to step k (0 .. length) by stepping from where the player is. */
  seek(k) {
    const target = Math.max(0, Math.min(this.length, Math.floor(k)));
    while (this.step < target) this.forward();
    while (this.step > target) this.back();
  }

  /**
   * The first event index from `from` going in `dir` (+1/-1) for which test(event) holds, or -1.
   * @param {number} from
   * @param {1|-1} dir
   * @param {(ev: {op:number, remaining:number, a:number, b:number, index:number}) => boolean} test
   */
  find(from, dir, test) {
    for (let i = from; i >= 0 && i < this.length; i += dir) if (test(this.event(i))) return i;
    return -1;
  }

  /** Where the placement removed by event `removeIndex` was made (its PLACE event), or -1. */
  placeOf(removeIndex) {
    const ev = this.event(removeIndex);
    let depth = 0;
    for (let i = removeIndex - 1; i >= 0; i--) {
      const op = this.rec.op(i);
      if (op === TRACE_OP.REMOVE) depth++;
      else if (op === TRACE_OP.PLACE) {
        if (depth === 0) return this.rec.a(i) === ev.a && this.rec.b(i) === ev.b ? i : -1;
        depth--;
      }
    }
    return -1;
  }
}
