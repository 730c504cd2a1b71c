// Watching the search: record a traced run of the puzzle on screen once (TraceRecording), then
// replay it step by step, forwards and back (TracePlayer), at a chosen speed, jumping to the next
// solution or dead end, or back to the step where a hole appeared. The recording is kept for
// the first DEFAULT_CAPACITY steps; the search is stopped there and the page says so.
//
//   const watch = new WatchActions(store, actions);
//   watch.record();  watch.play(); watch.pause(); watch.stepBy(-1); watch.seek(195);
import { TraceRecording, DEFAULT_CAPACITY } from '../trace/recording.js';
import { TracePlayer, isDeadEnd } from '../trace/player.js';
import { regionOf } from '../trace/explain.js';
import { holeMaker, matchingRemoves, stationaryCells, worstHole } from '../trace/holes.js';
import { TRACE_OP } from '../worker/protocol.js';
import { PHASE } from './state.js';
import { num } from './format.js';

export const SPEEDS = [0.5, 1, 2, 5, 10, 30, 100, 300, 1000, 3000, 10000]; // steps per second
export const TRACE_OPTIONS = '-t 1'; // every level traced

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
    this.playing = false;
    this.carry = 0;
    this.lastTick = 0;
    // a replay belongs to the puzzle it was recorded on
    store.subscribe(['puzzles', 'puzzleIndex'], () => {
      if ((this.watch.active && !this.watch.recording) || this.watch.lesson) this.close();
    });
  }

  get watch() {
    return this.store.get().watch;
  }

  /** Record the puzzle on screen for a lesson (trace/lessons.js), then show what it is about. */
  async startLesson(lesson) {
    this.store.update('watch', { lesson: lesson.id });
    if (lesson.then === 'none') return;
    await this.record();
    if (!this.player) return;
    if (lesson.then === 'hole') await this.findTroublesomeHole();
    else if (lesson.then === 'deadEnd') this.jump('deadEnd', 1);
    else if (lesson.then === 'volume') this.jumpTo((ev) => ev.op === TRACE_OP.VOLUME_TRIGGER, 'volume dead end');
  }

  /** Go to the first event after the cursor for which test holds. */
  jumpTo(test, what) {
    const i = this.player.find(this.player.step, 1, test);
    this.store.update('watch', { note: i < 0 ? `No ${what} in the recording.` : '' });
    if (i >= 0) this.seek(i + 1);
  }

  /** Record a traced search of the puzzle on screen (with the options chosen). */
  async record() {
    const puzzle = this.actions.currentPuzzle();
    if (!puzzle || this.store.get().run.phase === PHASE.RUNNING) return;
    this.pause();
    this.puzzle = puzzle;
    this.recording = new TraceRecording(this.capacity);
    this.player = null;
    this.table = null;
    this.store.update('watch', { active: true, recording: true, steps: 0, full: false, step: 0, error: '', revision: 0 });
    const done = this.actions.solve({
      options: TRACE_OPTIONS,
      onTrace: (events) => {
        if (!this.recording) return;
        if (!this.recording.append(events)) this.actions.cancel(); // the window is full
        this.ensurePlayer();
        this.store.update('watch', { steps: this.recording.length, full: this.recording.full });
      },
      onImageTable: (table, error) => {
        if (!table) {
          this.store.update('watch', { error: `Cannot replay this search: ${error}` });
          return;
        }
        this.table = table;
        this.ensurePlayer();
      },
    });
    await done;
    this.ensurePlayer();
    this.store.update('watch', { recording: false, steps: this.recording.length, full: this.recording.full });
  }

  ensurePlayer() {
    if (this.player || !this.table || !this.recording) return;
    const p = this.puzzle;
    this.player = new TracePlayer(this.recording, this.table, p.xDim * p.yDim * p.zDim);
    this.changed();
  }

  close() {
    this.pause();
    this.recording = null;
    this.player = null;
    this.store.update('watch', { active: false, recording: false, step: 0, steps: 0, lesson: '', note: '', origin: null });
  }

  changed() {
    const w = this.watch;
    this.store.update('watch', { step: this.player ? this.player.step : 0, revision: w.revision + 1 });
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
    const test = kind === 'solution'
      ? (ev) => ev.op === TRACE_OP.SOLUTION ||
        (ev.op === TRACE_OP.PLACE && ev.remaining === 1 && !(ev.index + 1 < rec.length && rec.op(ev.index + 1) === TRACE_OP.SOLUTION))
      : (ev) => isDeadEnd(ev.op);
    const from = dir > 0 ? this.player.step : this.player.step - 2;
    const i = this.player.find(from, dir, test);
    if (i < 0) {
      this.store.update('watch', { note: `No ${kind === 'solution' ? 'solution' : 'dead end'} ${dir > 0 ? 'after' : 'before'} this step${this.watch.recording ? ' yet' : ' in the recording'}.` });
      return;
    }
    this.store.update('watch', { note: '' });
    this.seek(i + 1);
  }

  /**
   * Back to the step where the hole of the current dead end appeared: the earliest placement
   * still on the board after which the dead end's region was already as small as it is now;
   * the note says when the search finally cleared it (took that placement back).
   */
  holeOrigin() {
    const pl = this.player;
    const ev = pl && pl.current();
    const atCell = ev && ev.a >= 0 && (ev.op === TRACE_OP.NO_FIT || ev.op === TRACE_OP.EXHAUSTED || ev.op === TRACE_OP.DEAD_CELL || ev.op === TRACE_OP.VOLUME_TRIGGER);
    if (!atCell) {
      this.store.update('watch', { note: 'Go to a dead end at a cell first (Next dead end).' });
      return;
    }
    const holes = stationaryCells(this.puzzle);
    const size = regionOf(this.puzzle, pl.grid, holes, ev.a).length;
    const stack = [];
    for (let i = 0; i < pl.step; i++) {
      const op = pl.rec.op(i);
      if (op === TRACE_OP.PLACE) stack.push({ step: i, image: pl.rec.b(i), instance: pl.rec.a(i) });
      else if (op === TRACE_OP.REMOVE) stack.pop();
    }
    const maker = holeMaker(this.puzzle, (image) => pl.cellsOf(image), stack, ev.a, size, holes);
    if (!maker) {
      this.store.update('watch', { note: 'This region was there from the start.' });
      return;
    }
    const cleared = matchingRemoves(pl.rec)[maker.step];
    this.showHole({ made: maker.step, found: pl.step - 1, cleared: cleared < 0 ? pl.length : cleared, clearedInRecord: cleared >= 0, cell: ev.a });
  }

  /** Find the hole that cost the search most in the recording (lesson 1) and go to where it was made. */
  async findTroublesomeHole() {
    const pl = this.player;
    if (!pl || this.watch.searching) return;
    this.store.update('watch', { note: 'Looking through the recording for the hole that cost the search most…', searching: true });
    const hole = await worstHole(this.puzzle, pl.rec, (image) => pl.cellsOf(image));
    this.store.update('watch', { searching: false });
    if (this.player !== pl) return; // another recording meanwhile
    if (!hole) {
      this.store.update('watch', { note: 'No dead end at a cell in this recording (try de Bruijn\'s first-open-cell order: -b 12).' });
      return;
    }
    this.showHole(hole);
  }

  showHole({ made, found, cleared, clearedInRecord, cell }) {
    const span = cleared - made;
    this.store.update('watch', {
      note: `Step ${num(made + 1)} walls in a hole that no piece can fill. The search runs into it at step ${num(found + 1)}` +
        (clearedInRecord ? ` and only clears it at step ${num(cleared + 1)}, when it takes that piece back: ${num(span)} steps below a position that could never be completed.`
          : ` and has not cleared it by the end of the recording (${num(span)} steps later).`),
      origin: { made: made + 1, found: found + 1, cleared: cleared + 1, cell },
    });
    this.seek(made + 1);
  }
}
