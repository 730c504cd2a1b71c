// The pieces of one search shared among workers, and what of it a checkpoint can keep.
//
//   const book = new PieceBook({ cellCount });           // or { cellCount, resume: checkpoint }
//   const root = book.add([], 1, null);                  // the whole tree
//   const p = book.next(); book.start(p);                // the biggest queued piece
//   book.add(path, p.share * share / n, p);              // a path p gave away (donate)
//   book.record(p, grids, count); book.progress(p, f);   // its solutions, its fractionDone
//   book.finish(p, fraction, stats);                     // its end: stats = its own counters
//   book.fractionDone(); book.checkpoint();
//
// A piece is a path from the root (parallel/subproblem.hpp) with its share of the whole tree.
// A piece that gave work away (donate) covers its subtree minus what it gave, which no path
// can name: searched again from its path it would find its children's solutions a second
// time. So a checkpoint keeps a piece's results only when the piece and every piece it came
// from have finished ("confirmed"), and lists for searching again the unfinished pieces whose
// ancestors all finished; their descendants' results are dropped (they are inside them). The
// pool splits the tree into many pieces first (16 per worker, as polycube --checkpoint does),
// so what a resume searches again is small.

import { addStats } from './stats.js';

/** Solutions kept for a checkpoint (beyond: counted only), and the ints of their grids at most. */
export const MAX_KEPT_SOLUTIONS = 100_000;
const MAX_KEPT_INTS = 8 * 1024 * 1024;

export class PieceBook {
  /**
   * @param {{cellCount: number, resume?: object}} o resume: a checkpoint() of this search
   */
  constructor({ cellCount, resume = null }) {
    this.cellCount = cellCount;
    this.pieces = [];
    this.queue = []; // queued pieces, biggest share last (pop)
    this.running = 0;
    this.keptInts = 0;
    this.largest = 0; // the largest instance index in a kept grid: the checkpoint's element type
    // What earlier runs of this search finished (a resume carries it on).
    this.base = {
      doneShare: resume ? resume.doneShare : 0,
      stats: resume ? { ...resume.stats } : {},
      solutions: resume ? resume.solutions : 0,
      grids: resume && resume.grids ? [resume.grids] : [],
    };
    for (const g of this.base.grids) {
      this.keptInts += g.length;
      for (const v of g) if (v > this.largest) this.largest = v;
    }
  }

  /** A new queued piece (parent: the piece that gave it away, null for a root). */
  add(path, share, parent) {
    const piece = {
      id: this.pieces.length, path, share, parent: parent ? parent.id : -1,
      state: 'queued', fraction: 0, stats: null, grids: [], count: 0, complete: true,
    };
    this.pieces.push(piece);
    // binary insertion: the queue stays sorted by share, biggest at the end
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.queue[mid].share <= share) lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, piece);
    return piece;
  }

  /** The biggest queued piece, taken off the queue (null when none). */
  next() {
    return this.queue.pop() || null;
  }

  start(piece) {
    piece.state = 'running';
    this.running++;
  }

  /** Solutions of a running piece (kept for checkpoints while the budget lasts). */
  record(piece, grids, count) {
    piece.count += count;
    if (this.keptInts + grids.length <= MAX_KEPT_INTS && this.keptSolutions() + count <= MAX_KEPT_SOLUTIONS) {
      piece.grids.push(grids);
      this.keptInts += grids.length;
      for (const v of grids) if (v > this.largest) this.largest = v;
    } else {
      piece.complete = false;
    }
  }

  keptSolutions() {
    return this.cellCount > 0 ? this.keptInts / this.cellCount : 0;
  }

  progress(piece, fraction) {
    if (fraction >= 0) piece.fraction = Math.max(piece.fraction, fraction);
  }

  /** The piece ended: its final fractionDone (1 - what it gave away) and its own counters. */
  finish(piece, fraction, stats) {
    if (piece.state === 'running') this.running--;
    piece.state = 'done';
    piece.fraction = fraction >= 0 ? fraction : piece.fraction;
    piece.stats = stats;
  }

  /** A running piece that will not finish here (the search stopped): back to unfinished. */
  abandon(piece) {
    if (piece.state === 'running') this.running--;
    piece.state = 'stopped';
  }

  get idle() {
    return this.queue.length === 0 && this.running === 0;
  }

  /** Share of the whole tree done: earlier runs, finished pieces, running ones so far. */
  fractionDone() {
    let done = this.base.doneShare;
    for (const p of this.pieces) done += p.share * p.fraction;
    return Math.min(1, done);
  }

  /**
   * What a later run needs to finish this search: {pending:[{path, share}], doneShare, stats,
   * solutions, grids (the kept confirmed solutions' grids end to end, in the narrowest typed
   * array that holds them: a quarter of the bytes to write every few seconds for most
   * puzzles), gridsComplete}.
   */
  checkpoint() {
    const confirmed = new Array(this.pieces.length);
    const pending = [];
    let doneShare = this.base.doneShare;
    let solutions = this.base.solutions;
    const stats = { ...this.base.stats };
    for (const key of Object.keys(stats)) if (Array.isArray(stats[key])) stats[key] = [...stats[key]];
    const parts = [...this.base.grids];
    for (const p of this.pieces) {
      const rootOk = p.parent < 0 || confirmed[p.parent];
      confirmed[p.id] = rootOk && p.state === 'done';
      if (!rootOk) continue;
      if (p.state !== 'done') {
        pending.push({ path: p.path, share: p.share });
        continue;
      }
      doneShare += p.share * p.fraction;
      solutions += p.count;
      addStats(stats, p.stats);
      parts.push(...p.grids);
    }
    pending.sort((a, b) => b.share - a.share);
    let length = 0;
    for (const g of parts) length += g.length;
    const Type = this.largest <= 255 ? Uint8Array : this.largest <= 65535 ? Uint16Array : Int32Array;
    const grids = new Type(length);
    let at = 0;
    for (const g of parts) { grids.set(g, at); at += g.length; }
    const kept = this.cellCount > 0 ? length / this.cellCount : 0;
    return { pending, doneShare: Math.min(1, doneShare), stats, solutions, grids, gridsComplete: kept === solutions };
  }
}
