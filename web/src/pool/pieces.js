// The pieces of one search shared among workers, and what of it a checkpoint can keep.
//
//   const book = new PieceBook({ cellCount });           // or { cellCount, resume: checkpoint }
//   const root = book.add([], 1, null);                  // the whole tree
//   const p = book.next(); book.start(p);                // the newest queued piece
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
// pool makes this wait short: a piece that has searched a second gives away all but a small
// branch of what it has left ('donate' with drain) and so ends at once (solver-pool.js).
// A confirmed piece is folded into the totals at once (fold): a long search makes thousands
// of pieces, and the checkpoint written every few seconds looks at the unconfirmed ones only.

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
    this.pieces = new Map(); // id -> piece not yet confirmed (confirmed ones are folded into `kept`)
    this.made = 0;           // pieces made in this run
    // Queued pieces, newest last (pop): the levels a drained piece gave are searched before
    // older, bigger pieces, depth first, so the queue (and the list a checkpoint keeps to
    // search again) stays as short as the tree is deep. Taken biggest first, the small deep
    // pieces of every drain would wait for the end (thousands of them on 18x5 within a minute),
    // and an hour's search would write a list of megabytes every 5 s.
    this.queue = [];
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
    // What this run's confirmed pieces finished (fold).
    this.kept = { doneShare: 0, stats: {}, solutions: 0, grids: [] };
    for (const g of this.base.grids) {
      this.keptInts += g.length;
      for (const v of g) if (v > this.largest) this.largest = v;
    }
  }

  /** A new queued piece (parent: the piece that gave it away, null for a root). */
  add(path, share, parent) {
    const piece = {
      id: this.made++, path, share, parent: parent ? parent.id : -1, children: [],
      state: 'queued', fraction: 0, stats: null, grids: [], count: 0, complete: true,
    };
    this.pieces.set(piece.id, piece);
    if (parent) parent.children.push(piece);
    this.queue.push(piece);
    return piece;
  }

  /** The newest queued piece, taken off the queue (null when none). */
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
    if (this.confirmedParent(piece)) this.fold(piece);
  }

  /** A running piece that will not finish here (the search stopped): back to unfinished. */
  abandon(piece) {
    if (piece.state === 'running') this.running--;
    piece.state = 'stopped';
  }

  // The piece's parent is confirmed (folded), or it has none.
  confirmedParent(piece) {
    return piece.parent < 0 || !this.pieces.has(piece.parent);
  }

  // A finished piece whose ancestors are all confirmed: its results are final. Added to
  // `kept`, with every finished descendant that was waiting only for it.
  fold(first) {
    const stack = [first];
    while (stack.length > 0) {
      const p = stack.pop();
      this.pieces.delete(p.id);
      this.kept.doneShare += p.share * p.fraction;
      this.kept.solutions += p.count;
      addStats(this.kept.stats, p.stats);
      for (const g of p.grids) this.kept.grids.push(g);
      for (const c of p.children) if (c.state === 'done') stack.push(c);
      p.children = [];
      p.grids = [];
    }
  }

  get idle() {
    return this.queue.length === 0 && this.running === 0;
  }

  /** Share of the whole tree done: earlier runs, finished pieces, running ones so far. */
  fractionDone() {
    let done = this.base.doneShare + this.kept.doneShare;
    for (const p of this.pieces.values()) done += p.share * p.fraction;
    return Math.min(1, done);
  }

  /**
   * What a later run needs to finish this search: {pending:[{path, share}], doneShare, stats,
   * solutions, grids (the kept confirmed solutions' grids end to end, in the narrowest typed
   * array that holds them: a quarter of the bytes to write every few seconds for most
   * puzzles), gridsComplete}.
   */
  checkpoint() {
    const pending = [];
    const stats = { ...this.base.stats };
    for (const key of Object.keys(stats)) if (Array.isArray(stats[key])) stats[key] = [...stats[key]];
    addStats(stats, this.kept.stats);
    // Confirmed pieces are folded already: an unconfirmed one whose parent is confirmed has
    // not finished, and is searched again; the others are inside such a one.
    for (const p of this.pieces.values()) {
      if (this.confirmedParent(p)) pending.push({ path: p.path, share: p.share });
    }
    pending.sort((a, b) => b.share - a.share);
    const parts = [...this.base.grids, ...this.kept.grids];
    let length = 0;
    for (const g of parts) length += g.length;
    const Type = this.largest <= 255 ? Uint8Array : this.largest <= 65535 ? Uint16Array : Int32Array;
    const grids = new Type(length);
    let at = 0;
    for (const g of parts) { grids.set(g, at); at += g.length; }
    const kept = this.cellCount > 0 ? length / this.cellCount : 0;
    const solutions = this.base.solutions + this.kept.solutions;
    const doneShare = this.base.doneShare + this.kept.doneShare;
    return { pending, doneShare: Math.min(1, doneShare), stats, solutions, grids, gridsComplete: kept === solutions };
  }
}
