// Watching the search: record a traced run of the puzzle on screen once (TraceRecording), then
// replay it step by step, forwards and back (TracePlayer), at a chosen speed, jumping to the next
// solution or dead end, or back to the step where a hole appeared. The recording is kept for
// the first DEFAULT_CAPACITY steps; the search is stopped there and the page says so.
// Beside it: an estimate of the whole search's size from the current path (live while
// recording, checked against the truth once the whole search is recorded), what the most-
// constrained-hole rule would pick in the position shown, and a second recording of another
// algorithm on the same puzzle replayed in step with the first (compare).
//
//   const watch = new WatchActions(store, actions);
//   watch.record();  watch.play(); watch.pause(); watch.stepBy(-1); watch.seek(195);
//   watch.compare('mch');  watch.other.player   // the second search, at the same step
import { TraceRecording, DEFAULT_CAPACITY } from '../trace/recording.js';
import { TracePlayer, isDeadEnd } from '../trace/player.js';
import { completionsBefore, explainDeadEnd, isCompletion, matchingRemoves, stationaryCells, worstHole } from '../trace/holes.js';
import { mostConstrainedCell, waysToCover } from '../trace/position.js';
import { algorithmByKey, algorithmOptions } from '../trace/algorithms.js';
import { summarise } from '../trace/summary.js';
import { cellName, regionOf, targetName, targetVerb } from '../trace/explain.js';
import { parseOptions } from '../model/options.js';
import { TRACE_OP } from '../worker/protocol.js';
import { PHASE } from './state.js';
import { searchOptions } from './actions.js';
import { num, plural } from './format.js';

export const SPEEDS = [0.5, 1, 2, 5, 10, 30, 100, 300, 1000, 3000, 10000]; // steps per second
export const TRACE_OPTIONS = '-t 1'; // every level traced
export const ESTIMATE_CHECKPOINTS = [0.1, 0.5, 0.9]; // shares of a whole recorded search where its estimate is checked

export class WatchActions {
  constructor(store, actions, { capacity = DEFAULT_CAPACITY, now = () => performance.now(), frame = (f) => requestAnimationFrame(f) } = {}) {
    this.store = store;
    this.actions = actions;
    this.capacity = capacity;
    this.now = now;
    this.frame = frame;
    this.recording = null;
    this.player = null;
    this.table = null;
    this.puzzle = null;
    this.tail = null;     // a player kept at the end of the recording, for the live estimate
    this.summary = null;  // summarise(recording) once the recording ends
    this.other = null;    // the comparison: {key, label, options, recording, table, player, summary}
    this.baseOptions = '';
    this.playing = false;
    this.carry = 0;
    this.lastTick = 0;
    this.holeData = null;  // matchingRemoves and completionsBefore of the recording, per length
    // The steps at which the note shown still holds (a note about a position: "no solution
    // after this step", a hole's story), or null for a note about no step; moving elsewhere
    // clears it (else "No solution after this step" would stay on at step 0 of a puzzle with solutions).
    this.noteHolds = null;
    // a replay belongs to the puzzle it was recorded on
    store.subscribe(['puzzles', 'puzzleIndex'], () => {
      if (this.watch.active && !this.watch.recording) this.close();
    });
    // A search started by anything but the replay itself (Solve, Enter in the options, Resume)
    // shows its solutions on the stage and in the counter. The replay draws over the stage, so
    // left open it would show its own step under that search's "Solution 1 of 480": it is
    // closed, and the panel says why.
    store.subscribe(['run'], (s) => {
      const w = s.watch;
      if (s.run.phase !== PHASE.RUNNING || !w.active || w.recording || (w.compare && w.compare.recording)) return;
      this.close('Stopped watching: the search you started shows its solutions. Record the search again to replay it.');
    });
  }

  get watch() {
    return this.store.get().watch;
  }

  /** A replay link's step (share/link.js view.step): recorded, then shown at that step. */
  async openReplay(step) {
    await this.record();
    if (this.player) this.seekLinked(step);
  }

  /** Go to a step a link names; past the end of the recording, to its end, and say so. */
  seekLinked(step) {
    const last = this.player.length;
    this.seek(Math.min(step, last));
    if (step > last) this.say(`The link shows step ${num(step)}, but this recording has ${num(last)} steps: this is its last one.`, this.atThisStep());
  }

  /** Show `note` while the replay is at a step for which `holds` is true (null: at any step). */
  say(note, holds = null) {
    this.noteHolds = note ? holds : null;
    this.store.update('watch', { note });
  }

  /** A note's `holds` for the step shown now only. */
  atThisStep() {
    const here = this.player ? this.player.step : 0;
    return (step) => step === here;
  }

  /** Go to the first event after the cursor for which test holds. */
  jumpTo(test, what) {
    const i = this.player.find(this.player.step, 1, test);
    if (i >= 0) this.seek(i + 1);
    this.say(i < 0 ? `No ${what} in the recording.` : '', this.atThisStep());
  }

  /**
   * Record a traced search of the puzzle on screen (with the options chosen); capacity: the
   * steps kept (a lesson's scene may keep fewer than the watch's own window).
   */
  async record({ capacity = this.capacity } = {}) {
    const puzzle = this.actions.currentPuzzle();
    if (!puzzle) return;
    if (this.store.get().run.phase === PHASE.RUNNING || this.actions.running) {
      this.store.update('watch', { error: 'A search is running: wait for it to end (or cancel it), then record.' });
      return;
    }
    this.pause();
    this.puzzle = puzzle;
    this.recording = new TraceRecording(capacity);
    this.player = null;
    this.table = null;
    this.tail = null;
    this.summary = null;
    this.other = null;
    this.baseOptions = this.store.get().options.text.trim();
    this.holeData = null;
    this.noteHolds = null;
    // (note and origin belong to the replay before: a hole of another recording)
    this.store.update('watch', { active: true, recording: true, steps: 0, full: false, step: 0, error: '', note: '', origin: null, revision: 0, live: null, accuracy: null, compare: null, ended: '' });
    // The image table is asked for once the search has started, and a short search can end
    // before it comes (the worker answers between slices): the replay waits for it.
    const table = tableWaiter();
    const done = this.actions.solve({
      options: TRACE_OPTIONS,
      // the worker ends the search at the window's last step, with the solutions and counters
      // of the window alone (a cancel sent when the page sees it full can land up to the
      // whole search later, and would count solutions beyond the window)
      window: capacity,
      onTrace: (events) => {
        if (!this.recording) return;
        this.recording.append(events);
        this.ensurePlayer();
        this.store.update('watch', { steps: this.recording.length, full: this.recording.full, live: this.liveEstimate() });
      },
      onImageTable: (images, error) => {
        table.came();
        if (!images) {
          this.store.update('watch', { error: `Cannot replay this search: ${error}` });
          return;
        }
        this.table = images;
        this.ensurePlayer();
      },
    });
    await done;
    // (a search that did not start sends no events, and no table comes)
    if (this.recording && this.recording.length > 0 && !this.table) await table.seen;
    if (!this.recording) return; // closed meanwhile
    this.ensurePlayer();
    this.summary = summarise(this.recording);
    // 'finished': the whole search is recorded, so its estimate can be checked against it;
    // 'limit': it stopped at the solution limit (-l), a part of the tree like a full window
    const run = this.store.get().run;
    const { limit } = parseOptions(run.options || '').values;
    const ended = run.reason === 'window' || (this.recording.full && run.reason !== 'finished') ? 'full' : run.reason === 'cancelled' ? 'cancelled'
      : limit && this.summary.solutions >= limit ? 'limit' : 'finished';
    this.store.update('watch', {
      recording: false, steps: this.recording.length, full: this.recording.full, ended,
      live: this.liveEstimate(), accuracy: ended === 'finished' ? this.estimateAccuracy() : null,
    });
    // the page stopped it, not the person: the message says why, not "Cancelled"
    if (ended === 'full') {
      this.store.update('run', { message: `Stopped after ${num(this.recording.length)} steps, as many as a recording keeps, with ${plural(this.store.get().solutions.total, 'solution')} found by then.` });
    }
  }

  /**
   * The estimate at the end of the recording so far: {steps, fraction, total} (total: the
   * estimated steps of the whole search), or null before the search has finished any branch.
   */
  liveEstimate() {
    if (!this.table || !this.recording) return null;
    const p = this.puzzle;
    if (!this.tail) this.tail = new TracePlayer(this.recording, this.table, p.xDim * p.yDim * p.zDim);
    this.tail.seek(this.recording.length);
    return estimateAt(this.tail);
  }

  /** For a whole recorded search: what the estimate said at 10%, 50% and 90% of it. */
  estimateAccuracy() {
    if (!this.table) return null;
    const p = this.puzzle;
    const probe = new TracePlayer(this.recording, this.table, p.xDim * p.yDim * p.zDim);
    return ESTIMATE_CHECKPOINTS.map((share) => {
      probe.seek(Math.round(share * this.recording.length));
      const e = estimateAt(probe);
      return { share, total: e ? e.total : null };
    });
  }

  /**
   * Record the same puzzle with another algorithm (trace/algorithms.js) and replay it in step
   * with the first recording: both show the board after the same number of steps.
   */
  async compare(key) {
    const algo = algorithmByKey(key);
    if (!this.player || !algo) return;
    const pieces = this.puzzle.instances.filter((i) => !i.stationary).length;
    const options = algorithmOptions(key, this.baseOptions, pieces);
    if (options === null) {
      this.say('Fix the options first: the comparison keeps their counting settings.');
      return;
    }
    await this.compareWith({ key, label: algo.label, options });
  }

  /**
   * Record the same puzzle with `options` (a lesson's second search, or an algorithm's: compare)
   * and replay it in step with the first recording; capacity: the steps kept.
   */
  async compareWith({ key = '', label, options, capacity = this.recording ? this.recording.capacity : this.capacity }) {
    if (!this.player || this.watch.recording || this.store.get().run.phase === PHASE.RUNNING) return;
    const other = { key, label, options, recording: new TraceRecording(capacity), table: null, player: null, summary: null };
    this.other = other;
    this.pause();
    // The comparison is searched like any run, which shows its solutions and counters; once it
    // is recorded they go back to the first recording's, so that Solve's card, "Solution 1 of
    // n" and Copy link never show the other algorithm's run under the page's options.
    const shown = { solutions: this.store.get().solutions, run: this.store.get().run };
    const status = (recording) => ({ key, label, options, recording, steps: other.recording.length, full: other.recording.full });
    this.store.update('watch', { compare: status(true), note: '' });
    const table = tableWaiter(); // (as record's)
    await this.actions.solve({
      options: TRACE_OPTIONS,
      baseOptions: options,
      window: capacity, // (as the first recording's)
      onTrace: (events) => {
        if (this.other !== other) return;
        other.recording.append(events);
        this.store.update('watch', { compare: status(true) });
      },
      onImageTable: (images, error) => {
        table.came();
        if (this.other !== other) return;
        if (!images) this.say(`Cannot replay the comparison: ${error}`);
        else other.table = images;
      },
    });
    if (this.other === other && other.recording.length > 0 && !other.table) await table.seen;
    const now = this.store.get();
    if (!this.actions.running && now.run.options === searchOptions(options, TRACE_OPTIONS)) {
      this.store.replace({ solutions: { ...shown.solutions, revision: now.solutions.revision + 1 }, run: shown.run });
    }
    if (this.other !== other) return; // closed or replaced meanwhile
    if (!other.table) {
      this.other = null;
      this.store.update('watch', { compare: null });
      return;
    }
    const p = this.puzzle;
    other.player = new TracePlayer(other.recording, other.table, p.xDim * p.yDim * p.zDim);
    other.summary = summarise(other.recording);
    this.store.update('watch', { compare: status(false) });
    this.changed();
  }

  closeCompare() {
    this.stopRecording(this.watch.compare && this.watch.compare.recording);
    this.other = null;
    this.store.update('watch', { compare: null });
  }

  /** Stop the search that is being recorded (when `recording`): nothing will replay it. */
  stopRecording(recording) {
    if (recording && this.actions.running) this.actions.cancel();
  }

  /** Show (or stop showing) the cell the most-constrained-hole rule would fill next. */
  setShowMch(on) {
    this.store.update('watch', { showMch: !!on });
  }

  /** The cell MCH would fill next in the position shown: {cell, ways} or null. */
  mchPick(player = this.player) {
    if (!player || !this.table || !this.table.imageShapes) return null;
    return mostConstrainedCell(waysToCover(this.table, player.grid));
  }

  ensurePlayer() {
    if (this.player || !this.table || !this.recording) return;
    const p = this.puzzle;
    this.player = new TracePlayer(this.recording, this.table, p.xDim * p.yDim * p.zDim);
    this.changed();
  }

  /** Leave the replay; `why` is said in its place (the panel shows the note while no replay is open). */
  close(why = '') {
    const w = this.watch;
    // Stop watching while recording also stops the traced search (it would run to its end)
    this.stopRecording(w.recording || (w.compare && w.compare.recording));
    this.pause();
    this.noteHolds = null;
    this.recording = null;
    this.player = null;
    this.tail = null;
    this.summary = null;
    this.other = null;
    this.holeData = null;
    this.store.update('watch', { active: false, recording: false, step: 0, steps: 0, note: why, origin: null, live: null, accuracy: null, compare: null, showMch: false });
  }

  changed() {
    const w = this.watch;
    // the comparison shows the same number of steps (or its end, if it was shorter)
    if (this.other && this.other.player && this.player) this.other.player.seek(Math.min(this.player.step, this.other.player.length));
    const step = this.player ? this.player.step : 0;
    const patch = { step, revision: w.revision + 1 };
    if (w.note && this.noteHolds && !this.noteHolds(step)) {
      patch.note = ''; // a note about another step
      this.noteHolds = null;
    }
    this.store.update('watch', patch);
  }

  seek(k) {
    if (!this.player) return;
    this.player.seek(k);
    this.changed();
  }

  stepBy(delta) {
    if (!this.player) return;
    this.seek(this.player.step + delta);
  }

  setSpeed(index) {
    this.store.update('watch', { speed: Math.max(0, Math.min(SPEEDS.length - 1, index | 0)) });
  }

  play() {
    if (!this.player || this.playing) return;
    this.playing = true;
    this.carry = 0;
    this.lastTick = this.now();
    this.store.update('watch', { playing: true });
    const tick = () => {
      if (!this.playing) return;
      const t = this.now();
      this.carry += ((t - this.lastTick) / 1000) * SPEEDS[this.watch.speed];
      this.lastTick = t;
      const steps = Math.floor(this.carry);
      if (steps > 0) {
        this.carry -= steps;
        for (let k = 0; k < steps; k++) {
          if (!this.player.forward()) {
            if (!this.watch.recording) { this.pause(); break; }
            break; // wait for more of the recording
          }
        }
        this.changed();
      }
      if (this.playing) this.frame(tick);
    };
    this.frame(tick);
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    this.store.update('watch', { playing: false });
  }

  /** Jump to the next (dir 1) or previous (-1) event matching `kind`: 'solution' | 'deadEnd'. */
  jump(kind, dir = 1) {
    if (!this.player) return;
    // a solution is the engine's SOLUTION event, or (engines that do not emit it) the placement
    // of the last piece
    const rec = this.player.rec;
    const test = kind === 'solution' ? (ev) => isCompletion(rec, ev.index) : (ev) => isDeadEnd(ev.op);
    const from = dir > 0 ? this.player.step : this.player.step - 2;
    const i = this.player.find(from, dir, test);
    if (i < 0) {
      this.say(`No ${kind === 'solution' ? 'solution' : 'dead end'} ${dir > 0 ? 'after' : 'before'} this step${this.watch.recording ? ' yet' : ' in the recording'}.`, this.atThisStep());
      return;
    }
    this.say('');
    this.seek(i + 1);
  }

  /** The recording's matching removes and completion counts, computed once per length. */
  holeAnalysis() {
    const rec = this.player.rec;
    const d = this.holeData;
    if (d && d.rec === rec && d.length === rec.length) return d;
    this.holeData = { rec, length: rec.length, match: matchingRemoves(rec), done: completionsBefore(rec) };
    return this.holeData;
  }

  /**
   * Back to the step where the hole of the current dead end appeared: the earliest placement
   * still on the board after which the dead end's region was already as small as it is now;
   * the note says when the search finally cleared it (took that placement back). Only a
   * position below which the board was never filled is called one that could never be
   * completed (trace/holes.js explainDeadEnd); otherwise the note says what the dead end is.
   */
  holeOrigin() {
    const pl = this.player;
    if (!pl) return;
    const why = explainDeadEnd(this.puzzle, pl, this.holeAnalysis());
    const p = this.puzzle;
    const times = (n) => (n === 1 ? 'once' : `${num(n)} times`);
    let note;
    let origin = null; // the hole drawn: it goes, unless this is the step that made it
    switch (why.kind) {
      case 'hole': this.showHole(why); return;
      case 'none': {
        // At the step that made the hole being explained (a lesson can open there), the note
        // speaks of that hole, not only "go to a dead end first".
        const o = this.watch.origin;
        if (o && o.made === pl.step) origin = o;
        note = origin
          ? `This is the step that made the hole shown. Its dead end is at step ${num(o.found)}: go there (or to any dead end at a cell, with Next dead end) and ask again.`
          : 'Go to a dead end at a cell first (Next dead end).';
        break;
      }
      case 'notAtCell':
        note = why.op === TRACE_OP.PARITY_TRIGGER
          ? 'A parity dead end is about all the open cells at once (how many of each checkerboard colour), not about a hole that one step made.'
          : 'This dead end is not about the region of one cell, so there is no hole to trace back to the step that made it.';
        break;
      case 'branchEnd':
        note = `This dead end is no hole: every way to ${targetVerb(why.target)} ${targetName(p, why.target)} has been tried, and below them the search filled the board ${times(why.completions)} (last at step ${num(why.last + 1)}). ` +
          'It is the end of a branch after solutions; the search backs up to try the next choice above.';
        break;
      case 'fromStart': note = `The region of ${cellName(p, why.cell)} (${num(why.size)} cells) was there from the start: no step made it.`; break;
      case 'completed':
        note = `The region of ${cellName(p, why.cell)} (${num(why.size)} cells) has had this shape since step ${num(why.made + 1)}, but that position could be completed: ` +
          `below it the search filled the board ${times(why.completions)} (first at step ${num(why.first + 1)}). ` +
          `So it is no hole that could never be filled: the dead end at step ${num(why.found + 1)} comes from the pieces placed after step ${num(why.made + 1)}.`;
        break;
      default: note = '';
    }
    this.store.update('watch', { origin });
    this.say(note, this.atThisStep());
  }

  /** Find the hole that cost the search most in the recording (lesson 1) and go to where it was made. */
  async findTroublesomeHole() {
    const pl = this.player;
    if (!pl || this.watch.searching) return;
    this.say('Looking through the recording for the hole that cost the search most…');
    this.store.update('watch', { searching: true });
    const hole = await worstHole(this.puzzle, pl.rec, (image) => pl.cellsOf(image));
    this.store.update('watch', { searching: false });
    if (this.player !== pl) return; // another recording meanwhile
    if (!hole) {
      this.say('No dead end at a cell in this recording (try de Bruijn\'s first-open-cell order: -b 12).');
      return;
    }
    this.showHole(hole);
  }

  /** Draw a hole found by worstHole from the step that made it until it is cleared (no move, no note). */
  markHole({ made, found, cleared, cell }) {
    this.store.update('watch', { origin: { made: made + 1, found: found + 1, cleared: cleared + 1, cell, mch: null } });
  }

  /** Go to where a hole that could never be completed (no board filled below it) was made, and say so. */
  showHole({ made, found, cleared, clearedInRecord, cell }) {
    const span = cleared - made;
    const exhausted = this.player.event(found).op === TRACE_OP.EXHAUSTED;
    this.seek(made + 1);
    const size = regionOf(this.puzzle, this.player.grid, stationaryCells(this.puzzle), cell).length;
    // lesson 1's second half: the same position under the most-constrained-hole rule
    const pick = this.mchPick();
    const mch = !pick ? '' : pick.ways === 0
      ? ` From this same position the most-constrained-hole rule (MCH) would fill ${cellName(this.puzzle, pick.cell)} next, the cell with the fewest ways to cover it: none. It backs up at the very next step instead of ${num(span)} steps later.`
      : ` From this same position the most-constrained-hole rule (MCH) would fill ${cellName(this.puzzle, pick.cell)} next (${pick.ways} way${pick.ways === 1 ? '' : 's'} to cover it).`;
    // a level that tried every way to fill the cell found no hole that nothing fits, but a region
    // that no way of filling completes; the other dead ends at a cell are holes the pieces left cannot fill
    const region = `${num(size)} cell${size === 1 ? '' : 's'} at ${cellName(this.puzzle, cell)}`;
    const made1 = num(made + 1);
    // (the story holds while the hole is drawn: from the step that made it until it is cleared)
    this.noteHolds = (step) => step >= made + 1 && step < cleared + 1;
    this.store.update('watch', {
      note: (exhausted ? `Step ${made1} gives the region of ${region} the shape in which every way to fill it fails.`
        : `Step ${made1} walls in a hole of ${region}.`) + ` The search runs into it at step ${num(found + 1)}` +
        (clearedInRecord ? ` and only clears it at step ${num(cleared + 1)}, when it takes that piece back: ${num(span)} steps below a position that could never be completed (the board is never filled below it).`
          : ` and has not cleared it by the end of the recording (${num(span)} steps later; the board is not filled below it so far).`) + mch,
      origin: { made: made + 1, found: found + 1, cleared: cleared + 1, cell, mch: pick },
    });
  }
}

/** The image table of a search that has started: `seen` resolves when `came()` is called (table or error). */
function tableWaiter() {
  let came;
  const seen = new Promise((resolve) => { came = resolve; });
  return { seen, came };
}

/** {steps, fraction, total} for a player's position: the estimated steps of the whole search. */
export function estimateAt(player) {
  const fraction = player.fractionDone();
  if (!(fraction > 0)) return null;
  return { steps: player.step, fraction, total: Math.round(player.step / fraction) };
}
