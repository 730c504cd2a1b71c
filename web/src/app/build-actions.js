// Building the solution on the stage by hand ("Build it"): the engine's build order of that
// solution (model/build-order.js), stepped forward and back from the empty box. Only the build
// slice changes here; the stage draws the box after each step (the step's piece sliding in),
// the flat grid follows, panels/build-panel.js draws the controls and the printable sheet.
//
//   const build = new BuildActions(store, actions);
//   await build.open();   build.next();  build.back();  build.go(0);  build.close();
//   build.turn();  build.unturn();   // the solution turned the easier way up, and back
import { buildStepCount } from '../model/build-order.js';
import { NO_BUILD } from './state.js';
import { replayOnStage, shownPuzzle } from './selectors.js';

function messageOf(err) {
  return err instanceof Error ? err.message : String(err);
}

export class BuildActions {
  /**
   * @param {object} [opts]
   * @param {() => boolean} [opts.reducedMotion] whether steps are drawn without motion
   */
  constructor(store, actions, { reducedMotion = () => false } = {}) {
    this.store = store;
    this.actions = actions;
    this.reducedMotion = reducedMotion;
    this.token = 0; // the open() whose answer is awaited
    // The order belongs to the solution it was made for: another solution on the stage (the
    // person browsed on, a new search, another puzzle, the editor, a replay, a game played by
    // hand) closes it.
    store.subscribe(['solutions', 'puzzles', 'puzzleIndex', 'editor', 'watch', 'source', 'play'], (s) => {
      if (s.build.active && !this.stillShown(s)) this.close();
    });
  }

  get build() {
    return this.store.get().build;
  }

  /** Whether the solution the build is about is still the one on the stage. */
  stillShown(s) {
    const b = s.build;
    const { puzzle, editing } = shownPuzzle(s);
    return !editing && !replayOnStage(s) && !s.play.active && puzzle === b.puzzle && s.solutions.store === b.store && s.solutions.shown === b.shown;
  }

  /** Why the solution on the stage cannot be built now ('' when it can). */
  whyNot(s = this.store.get()) {
    const { puzzle, editing } = shownPuzzle(s);
    if (!puzzle || editing) return 'Load the puzzle and solve it first.';
    if (replayOnStage(s)) return 'The stage shows the replay: press "Stop watching" first.';
    if (s.play.active) return 'The stage shows your game: press "Stop playing" first.';
    if (!s.solutions.store || s.solutions.shown < 0) return 'Solve the puzzle first: the build order is for the solution shown.';
    return '';
  }

  /** Ask the engine for the order of the solution shown and start at the empty box. */
  async open() {
    const s = this.store.get();
    const why = this.whyNot(s);
    if (why) {
      this.store.update('build', { ...NO_BUILD, error: why });
      return false;
    }
    const sol = s.solutions;
    const grid = Int32Array.from(sol.store.get(sol.shown));
    const token = ++this.token;
    this.store.update('build', {
      ...NO_BUILD, active: true, loading: true, grid, puzzle: shownPuzzle(s).puzzle, store: sol.store, shown: sol.shown,
      instant: this.reducedMotion(),
    });
    let order;
    try {
      order = await this.actions.buildOrder(grid);
    } catch (err) {
      if (token === this.token) this.store.update('build', { ...NO_BUILD, error: `No build order: ${messageOf(err)}` });
      return false;
    }
    if (token !== this.token || !this.build.active) return false; // closed or reopened meanwhile
    this.store.update('build', { loading: false, order, step: 0 });
    return true;
  }

  close() {
    this.token++;
    if (this.build.active || this.build.error) this.store.update('build', NO_BUILD);
  }

  /** The number of steps (0 while the order is not there). */
  total() {
    return this.build.order ? buildStepCount(this.build.order) : 0;
  }

  /** Show the box after `k` steps (clamped). */
  go(k) {
    const b = this.build;
    if (!b.active || !b.order) return;
    const step = Math.max(0, Math.min(this.total(), Math.round(Number(k) || 0)));
    if (step !== b.step) this.store.update('build', { step });
  }

  next() {
    this.go(this.build.step + 1);
  }

  back() {
    this.go(this.build.step - 1);
  }

  /** Build the solution turned the easier way up (the engine's order.turned), from the empty box. */
  turn() {
    const b = this.build;
    const t = b.order && b.order.turned;
    if (!t) return;
    this.store.update('build', { grid: Int32Array.from(t.grid), order: t.order, step: 0, turn: t.words, asFound: { grid: b.grid, order: b.order } });
  }

  /** Back to the solution as it was found. */
  unturn() {
    const b = this.build;
    if (!b.asFound) return;
    this.store.update('build', { grid: b.asFound.grid, order: b.asFound.order, step: 0, turn: '', asFound: null });
  }

  /** Steps drawn with or without their motion. */
  setInstant(on) {
    if (this.build.instant !== !!on) this.store.update('build', { instant: !!on });
  }
}
