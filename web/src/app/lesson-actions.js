// The lesson screen's actions: open a lesson (lesson/lessons.js) at one of its steps, load and
// record each of its scenes, move from step to step (each step puts the replay where its
// narration stands), answer its check questions, and leave it, giving the person's own options
// back. The replay itself is the watch's (app/watch-actions.js): recording, stepping, playing.
//
//   const lessons = new LessonActions(store, actions, watch);
//   await lessons.open(lessonById('backtracking'), { step: 3 });
//   lessons.next(); lessons.prev(); lessons.answer(true); lessons.answerCell(5); lessons.close();
import { LESSONS, stepScenes } from '../lesson/lessons.js';
import { branchBelow, factsAt, fill, nextCell, resolvePositions, stuckBefore } from '../lesson/script.js';
import { branchTable, dives, seededRandom } from '../lesson/knuth.js';
import { configWords, fixedPieceWords } from '../lesson/config-words.js';
import { worstHole, stationaryCells } from '../trace/holes.js';
import { regionOf, cellName } from '../trace/explain.js';
import { waysToCover } from '../trace/position.js';
import { parityArgument } from '../trace/parity.js';
import { summarise } from '../trace/summary.js';
import { PHASE } from './state.js';

const DIVE_SEED = 20251127; // the dives a lesson shows are the same on every run

export class LessonActions {
  constructor(store, actions, watch, { lessons = LESSONS } = {}) {
    this.store = store;
    this.actions = actions;
    this.watch = watch;
    this.lessons = lessons;
    this.lesson = null;
    this.token = 0;          // the latest open/goTo: an earlier one still loading gives way
    this.scene = -1;         // the scene loaded and recorded
    this.positions = [];     // per step: {step, found} in its scene's recording (undefined: other scenes)
    this.hole = null;        // the scene's troublesome hole (trace/holes.js worstHole)
    this.summary = null;     // summarise() of the scene's recording
    this.tree = null;        // branchTable of the scene's recording (Knuth's dives)
    this.diveResult = null;  // {count, means, last, seed}
    this.optionsBefore = null; // the person's options, given back when the lesson is left
    this.sceneOptions = '';  // the options the lesson set (given back only if still these)
    this.config = null;      // the engine's configuration of the scene's search (stats)
  }

  get state() {
    return this.store.get().lesson;
  }

  /**
   * Open `lesson` at its step `step` (0-based). The page may hold the scene's puzzle and options
   * already (a link to the lesson opened them): then they are not loaded again. replayStep: a
   * replay step to show instead of the step's own (a link made while stepping freely).
   * optionsBefore: the options to give back when the lesson is left (a reload in a lesson
   * passes those the session kept).
   */
  async open(lesson, { step = 0, replayStep = -1, optionsBefore = null } = {}) {
    if (!lesson) return;
    const wasOpen = this.state.open && this.lesson;
    if (!wasOpen) this.optionsBefore = optionsBefore !== null ? optionsBefore : this.store.get().options.text;
    this.lesson = lesson;
    this.scene = -1;
    this.diveResult = null;
    const count = lesson.steps.length;
    const k = Math.max(0, Math.min(count - 1, step | 0));
    const error = step >= count ? `The link names part ${step + 1} of this lesson, which has ${count}: this is its last part.` : '';
    this.store.update('lesson', { open: true, id: lesson.id, count, step: k, answer: null, error, show: {}, details: false });
    await this.goTo(k, { replayStep, keepError: !!error });
  }

  /** The replay stands where the part shown puts it (a link then needs no replay step of its own). */
  atOwnStep() {
    const pos = this.positions[this.state.step];
    const player = this.watch.player;
    return !player || (!!pos && player.step === pos.step);
  }

  /** The lesson that follows this one, or null at the end of the class. */
  nextLesson() {
    const i = this.lessons.indexOf(this.lesson);
    return i >= 0 && i + 1 < this.lessons.length ? this.lessons[i + 1] : null;
  }

  next() {
    const s = this.state;
    if (!s.open || s.busy) return;
    if (s.step + 1 < s.count) this.goTo(s.step + 1);
    else if (this.nextLesson()) this.open(this.nextLesson());
  }

  prev() {
    const s = this.state;
    if (!s.open || s.busy || s.step <= 0) return;
    this.goTo(s.step - 1);
  }

  /** Show step k: its scene loaded and recorded, the replay at the step's position, its marks. */
  async goTo(k, { replayStep = -1, keepError = false } = {}) {
    const lesson = this.lesson;
    if (!lesson) return;
    const token = ++this.token;
    const scenes = stepScenes(lesson);
    const step = lesson.steps[k];
    const show = step.show || {};
    const scene = lesson.scenes[scenes[k]];
    // what the step waits for is said at once (its words quote the searches it waits for)
    const other = this.watch.other;
    const waits = this.scene !== scenes[k] ? 'Loading the puzzle…'
      : show.compare && scene.compare && !(other && other.player && other.options === scene.compare.options) ? 'Recording the second search…' : '';
    this.store.update('lesson', { step: k, answer: null, show, busy: waits, ...(keepError ? {} : { error: '' }), revision: this.state.revision + 1 });
    if (this.scene !== scenes[k]) {
      const ok = await this.loadScene(scenes[k], token);
      if (!ok || token !== this.token) return;
    }
    if (show.compare && scene.compare) await this.ensureCompare(scene, token);
    if (token !== this.token) return;
    if (!show.compare && this.watch.other) this.watch.closeCompare();
    // the board shows where the last dive ended (the step's own position from now on)
    if (show.dives && this.dive(show.dives, DIVE_SEED + k) >= 0) this.positions[k] = { step: this.diveEnd(), found: true };
    this.watch.pause();
    const pos = this.positions[k];
    if (this.watch.player && pos) this.watch.seek(replayStep >= 0 ? Math.min(replayStep, this.watch.player.length) : pos.step);
    this.watch.setShowMch(!!show.mch);
    this.store.update('lesson', { busy: '', revision: this.state.revision + 1 });
  }

  /** Load scene i of the lesson: its puzzle, its options, its recording; resolve its steps. */
  async loadScene(i, token) {
    const lesson = this.lesson;
    const scene = lesson.scenes[i];
    this.watch.close();
    if (this.actions.running) this.actions.stopRun();
    this.store.update('lesson', { busy: 'Loading the puzzle…' });
    if (!this.holds(scene)) {
      const ok = typeof scene.puzzle === 'string'
        ? await this.actions.selectLibrary(scene.puzzle)
        : await this.actions.loadText({ kind: 'lesson', file: '', id: '', title: '', text: scene.puzzle.definition, name: 'lesson.txt' });
      if (token !== this.token) return false;
      if (!ok) {
        this.store.update('lesson', { busy: '', error: `This lesson's puzzle could not be loaded: ${this.store.get().run.message}` });
        return false;
      }
    }
    this.actions.setOptionsText(scene.options);
    this.sceneOptions = scene.options;
    this.scene = i;
    this.hole = null;
    this.summary = null;
    this.tree = null;
    this.config = null;
    this.positions = [];
    if (scene.record === false) return true;
    this.store.update('lesson', { busy: 'Recording the search…' });
    await this.watch.record(scene.window ? { capacity: scene.window } : {});
    if (token !== this.token) return false;
    const player = this.watch.player;
    if (!player) {
      this.store.update('lesson', { busy: '', error: this.watch.watch.error || 'The search could not be recorded.' });
      return false;
    }
    this.summary = { ...summarise(player.rec), stuckBefore: stuckBefore(player.rec) };
    this.config = this.store.get().run.stats;
    const scenes = stepScenes(lesson);
    const mine = lesson.steps.map((st, k) => (scenes[k] === i ? k : -1)).filter((k) => k >= 0);
    if (mine.some((k) => /^hole/.test(lesson.steps[k].at))) {
      this.store.update('lesson', { busy: 'Looking for the hole that cost the search most…' });
      this.hole = await worstHole(this.watch.puzzle, player.rec, (image) => player.cellsOf(image));
      if (token !== this.token) return false;
      if (this.hole) this.watch.markHole(this.hole);
    }
    const resolved = resolvePositions(mine.map((k) => lesson.steps[k]), player.rec, { hole: this.hole });
    mine.forEach((k, j) => { this.positions[k] = resolved[j]; });
    return true;
  }

  /** The page holds this scene's puzzle now (a link to the lesson opened it). */
  holds(scene) {
    const src = this.store.get().source;
    if (this.store.get().puzzles.length === 0 || this.store.get().editor.active) return false;
    return typeof scene.puzzle === 'string' ? src.kind === 'library' && src.file === scene.puzzle : src.text === scene.puzzle.definition;
  }

  async ensureCompare(scene, token) {
    const w = this.watch;
    if (w.other && w.other.options === scene.compare.options && w.other.player) return;
    this.store.update('lesson', { busy: 'Recording the second search…' });
    await w.compareWith({ key: 'lesson', label: scene.compare.label, options: scene.compare.options });
    if (token !== this.token) return;
    // the comparison's own run leaves the page's options as the lesson set them
    this.store.update('lesson', { busy: '' });
  }

  /**
   * Knuth's dives over the recorded tree: the running mean of `count` dives from `seed`.
   * Returns the replay step where the last dive ended (diveEnd), or -1.
   */
  dive(count, seed) {
    const player = this.watch.player;
    if (!player) return -1;
    if (!this.tree) this.tree = branchTable(player.rec);
    const r = dives(this.tree, count, seededRandom(seed));
    this.diveResult = { count, seed, means: r.means, last: r.last };
    this.store.update('lesson', { revision: this.state.revision + 1 });
    return this.diveEnd();
  }

  /** The replay step just after the last dive's last placement (-1 without dives). */
  diveEnd() {
    const path = this.diveResult ? this.diveResult.last.path : [];
    return path.length ? path[path.length - 1] + 1 : -1;
  }

  /** More dives from a new seed (the "Dive again" button of free play), the board at the last one's end. */
  diveAgain(count = 10) {
    const d = this.diveResult;
    if (!d) this.dive(count, DIVE_SEED);
    else if (this.tree) {
      const seed = d.seed + 1;
      const r = dives(this.tree, count, seededRandom(seed));
      const total = d.count + count;
      const means = new Float64Array(total);
      means.set(d.means);
      const before = d.means[d.count - 1] * d.count;
      for (let k = 0; k < count; k++) means[d.count + k] = (before + r.means[k] * (k + 1)) / (d.count + k + 1);
      this.diveResult = { count: total, seed, means, last: r.last };
    }
    const end = this.diveEnd();
    if (end < 0) return;
    this.positions[this.state.step] = { step: end, found: true };
    this.watch.seek(end);
    this.store.update('lesson', { revision: this.state.revision + 1 });
  }

  /** The facts the narration of the step shown may quote (lesson/script.js factsAt, and the lesson's own). */
  facts(extra = {}) {
    const w = this.watch;
    // (the watch keeps the puzzle of its last recording: a scene without one has the page's)
    const puzzle = w.player ? w.puzzle : this.actions.currentPuzzle();
    const base = {};
    if (puzzle) {
      base.pieces = puzzle.instances.filter((i) => !i.stationary).length;
      if (this.state.show.parityArgument) base.parityText = parityArgument(puzzle).text;
    }
    if (this.hole) {
      base.holeMade = this.hole.made + 1;
      base.holeFound = this.hole.found + 1;
      base.holeCleared = this.hole.cleared + 1;
      base.wasted = this.hole.cleared - this.hole.made;
      // the nodes of the tree below the placement that made the hole, up to its removal
      if (this.summary) base.wastedNodes = this.summary.placementsBefore[this.hole.cleared] - this.summary.placementsBefore[this.hole.made + 1];
      if (w.player && puzzle) base.holeSize = holeCells(this, puzzle).length;
    }
    const other = w.other && w.other.player ? w.other : null;
    if (other && other.summary) {
      base.otherNodes = 1 + other.summary.placements;
      base.otherSolutions = other.summary.solutions;
      base.otherLabel = other.label;
      if (this.summary) {
        const ratio = base.otherNodes / (1 + this.summary.placements);
        // (as text: a number is written whole, and 2.6 times is not 3)
        base.ratio = ratio >= 10 ? String(Math.round(ratio)) : (Math.round(ratio * 10) / 10).toFixed(1);
      }
    }
    if (this.diveResult) {
      const d = this.diveResult;
      base.dives = d.count;
      base.estimate = Math.round(d.means[d.count - 1]);
      if (this.summary) {
        const truth = 1 + this.summary.placements;
        base.estimateError = `${Math.round((Math.abs(base.estimate - truth) / truth) * 100)}%`;
      }
    }
    if (this.config) {
      base.config = configWords(this.config.configuration) || 'It uses the options it was given.';
      base.pieceFixed = fixedPieceWords(this.config.redundancyFilter) || 'every solution, turned copies too.';
    }
    if (!w.player || !this.summary || !puzzle) return { ...base, ...extra };
    return factsAt({ puzzle, player: w.player, table: w.table, summary: this.summary, extra: { ...base, ...extra } });
  }

  /** The step's narration, with its facts filled in. */
  narration() {
    const step = this.lesson && this.lesson.steps[this.state.step];
    return step ? fill(step.say, this.facts()) : '';
  }

  /** The check question of the step shown, or null. */
  question() {
    const step = this.lesson && this.lesson.steps[this.state.step];
    return step && step.ask ? step.ask : null;
  }

  /** Answer a choice question ('branchSolves': true or false). */
  answer(value) {
    const ask = this.question();
    const player = this.watch.player;
    if (!ask || ask.kind !== 'choice' || !player) return;
    const branch = branchBelow(player.rec, player.step);
    if (!branch) return;
    const right = value === branch.solves;
    const facts = this.facts({
      answer: branch.solves ? 'yes, it does' : 'no, it does not', branchSize: branch.placed,
      branchWords: branch.solves ? 'Below it the search fills the whole board.'
        : `Every placement below it (${branch.placed === 1 ? 'here just 1' : `here ${branch.placed}`}) ends in a dead end.`,
    });
    this.store.update('lesson', { answer: { right, given: value, text: fill(right ? ask.right : ask.wrong, facts) } });
  }

  /** Answer a cell question with the cell clicked (a box cell index). */
  answerCell(cell) {
    const ask = this.question();
    const w = this.watch;
    const player = w.player;
    if (!ask || ask.kind !== 'cell' || !player || !w.puzzle) return;
    const puzzle = w.puzzle;
    const ways = w.table && w.table.imageShapes ? waysToCover(w.table, player.grid) : null;
    const name = (c) => cellName(puzzle, c);
    let right;
    let answerCell;
    if (ask.answer === 'holeCell') {
      const hole = holeCells(this, puzzle);
      right = hole.includes(cell);
      answerCell = hole.length ? hole[0] : -1;
    } else {
      answerCell = nextCell(player.rec, player.step);
      // a cell with as few ways as the one the search takes is as right (the solver breaks ties by cell order)
      right = cell === answerCell || (!!ways && answerCell >= 0 && ways[cell] >= 0 && ways[cell] === ways[answerCell]);
    }
    const facts = this.facts({
      clicked: name(cell), clickedWays: ways && ways[cell] >= 0 ? ways[cell] : 0,
      answer: answerCell >= 0 ? name(answerCell) : '?', answerWays: ways && answerCell >= 0 ? ways[answerCell] : 0,
    });
    this.store.update('lesson', { answer: { right, given: cell, text: fill(right ? ask.right : ask.wrong, facts) } });
  }

  /** The whole search of the scene (the last lesson's "solve it"): the page's Solve, on every worker. */
  async solve() {
    if (this.actions.running || this.store.get().run.phase === PHASE.RUNNING) return;
    this.watch.close();
    this.store.update('lesson', { revision: this.state.revision + 1 });
    await this.actions.solve();
    this.store.update('lesson', { revision: this.state.revision + 1 });
  }

  toggleDetails() {
    this.store.update('lesson', { details: !this.state.details });
  }

  setFullscreen(on) {
    this.store.update('lesson', { fullscreen: !!on });
  }

  /** Leave the lesson: its replay and its search stop, and the person's options come back. */
  close() {
    if (!this.state.open) return;
    this.token++;
    this.watch.close();
    if (this.actions.running) this.actions.cancel();
    if (this.optionsBefore !== null && this.store.get().options.text.trim() === this.sceneOptions.trim()) this.actions.setOptionsText(this.optionsBefore);
    this.lesson = null;
    this.scene = -1;
    this.hole = null;
    this.tree = null;
    this.diveResult = null;
    this.optionsBefore = null;
    this.store.update('lesson', { open: false, id: '', step: 0, count: 0, busy: '', error: '', answer: null, show: {}, details: false });
  }
}

/** The cells of the troublesome hole in the position shown (its region), or []. */
function holeCells(lessons, puzzle) {
  const h = lessons.hole;
  const player = lessons.watch.player;
  if (!h || !player) return [];
  return regionOf(puzzle, player.grid, stationaryCells(puzzle), h.cell);
}
