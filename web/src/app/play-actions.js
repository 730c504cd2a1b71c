// Playing a puzzle by hand, with hints: the piece in hand (pick, turn, flip, point, place),
// every move an undoable command (play-commands.js), and the engine's answers about the pieces
// placed: how many ways the packing can still be finished, a hint (one more piece of a finish),
// "What's wrong?" (the placed piece to take away), and the library's challenges. Like every
// action, these are the only code talking to the solver for play: through a worker of their own
// (a SolverClient), so that counting never waits for, or slows, a Solve in the pool.
//
//   const play = new PlayActions(store, actions, { createClient: () => new SolverClient() });
//   play.open();                 // the puzzle on screen, empty
//   play.pick(3); play.turn('z'); play.placeAt(27);
//   await play.hint(); await play.whatsWrong(); await play.where();   // (the piece in hand)
//
// The engine's answers are for one packing each (key: model/play.js packingKey); an answer for
// a packing no longer on the board is dropped. In state.play:
//   count  {key, status: 'counting'|'done'|'failed', completions, capped, exact (past the cap, counted whole), limit, soFar,
//          fraction, hint: {instance, cells}|null, error}
//   hint   {key, status: 'searching'|'done'|'none'|'failed', instance, cells, error}
//   wrong  {key, status: 'checking'|'done'|'failed', completable, culprit (instance, -1: none),
//          keep (-1, or how many of the first placements can stay), fraction, error}
//   where  {key, status: 'weighing'|'done'|'failed', instance, places: [{cells, completions}]
//          (the most completions first), index (the place shown), completions (the
//          position's), fraction, error}: "Where can it go?" for the piece in hand
// The last of Hint, What's wrong? and Where can it go? asked is the one answered on screen.
// The count, the hint, "What's wrong?" and "Where can it go?" share the play worker: a question asked while the
// count runs stops it, and the count starts again once the question is answered.
import { History } from './history.js';
import { movePiece, placePiece, takeBack } from './play-commands.js';
import { NO_PLAY } from './state.js';
import { plural } from './format.js';
import {
  fits, flatPlacements, flipHand, handCells, handFor, handFromPlacement, linkPlacements, packingKey,
  placementsFromLink, playGrid, turnHand, unplaced,
} from '../model/play.js';
import { challengeById } from '../ui/challenges.js';

/** Ways to finish counted at most (one more: "more than COUNT_LIMIT"). */
export const COUNT_LIMIT = 1000;

function messageOf(err) {
  return err && err.message ? err.message : String(err);
}

export class PlayActions {
  /**
   * @param {import('./store.js').Store} store
   * @param {import('./actions.js').Actions} actions the page's actions (the puzzle on screen)
   * @param {{createClient: () => object}} o a SolverClient for play's own worker
   */
  constructor(store, actions, { createClient }) {
    this.store = store;
    this.actions = actions;
    this.createClient = createClient;
    this.client = null;
    this.loadedText = null; // the definition text play's worker holds
    this.puzzle = null;     // the puzzle being played (the engine's JSON)
    this.drag = 0;          // gestures: a piece taken from the board and put down is one move
    this.dragging = false;  // the piece in hand was taken off the board by a drag (pickUp)
    this.query = null;      // the question play's worker is answering: {id, key, question}
    this.lastHands = new Map(); // instance -> the turn it had when last held
    this.history = new History({ onChange: () => this.update({ history: this.history.status() }) });
    this.target = { get: () => this.state.placed, set: (placed) => this.setPlaced(placed) };
    // another puzzle on screen, the editor or a lesson opened: play stops (its moves were of
    // that puzzle; a lesson takes the stage for its own search)
    store.subscribe(['puzzles', 'puzzleIndex', 'editor', 'lesson'], (s) => {
      if (!s.play.active) return;
      if (s.editor.active || s.lesson.open || this.actions.currentPuzzle() !== this.puzzle) this.close();
    });
  }

  get state() {
    return this.store.get().play;
  }

  update(patch) {
    this.store.update('play', patch);
  }

  // ------------------------------------------------------------ playing

  /**
   * Play the puzzle on screen: empty, or from `placed` (a link's, a challenge's) of which the
   * first `given` stay where they are.
   */
  open({ placed = [], given = 0, challenge = '' } = {}) {
    const puzzle = this.actions.currentPuzzle();
    if (!puzzle) return false;
    this.puzzle = puzzle;
    this.history.clear();
    this.lastHands.clear();
    this.store.replace({
      play: { ...NO_PLAY, active: true, placed, given, challenge, history: this.history.status(), layer: 0 },
    });
    this.analyse();
    return true;
  }

  close() {
    if (this.query && this.client) this.client.cancel(this.query.id);
    this.query = null;
    this.puzzle = null;
    this.history.clear();
    this.store.replace({ play: NO_PLAY });
  }

  /** Start a challenge of the library (its puzzle is opened first when another one is shown). */
  async startChallenge(id) {
    const c = challengeById(id);
    if (!c) return false;
    const src = this.store.get().source;
    if (src.kind !== 'library' || src.file !== c.file || this.store.get().puzzleIndex !== c.puzzle) {
      if (!(await this.actions.selectLibrary(c.file))) return false;
      if (c.puzzle > 0) this.actions.selectPuzzle(c.puzzle);
    }
    return this.open({ placed: c.given, given: c.given.length, challenge: c.id });
  }

  /** A link's packing (share/link.js play): the engine checks it with the first count. */
  openFromLink(linked) {
    const placed = placementsFromLink(linked.placed);
    const given = Math.min(linked.given || 0, placed.length);
    const c = linked.challenge ? challengeById(linked.challenge) : null;
    const src = this.store.get().source;
    const challenge = c && src.kind === 'library' && src.file === c.file ? c.id : '';
    return this.open({ placed, given, challenge });
  }

  /** The link's form of the game (share/link.js play), or null when not playing. */
  linkState() {
    const s = this.state;
    if (!s.active) return null;
    const out = { placed: linkPlacements(s.placed) };
    if (s.given > 0) out.given = s.given;
    if (s.challenge) out.challenge = s.challenge;
    return out;
  }

  setPlaced(placed) {
    // (what the engine said about the packing before is not about this one)
    this.update({ placed, hint: null, wrong: null, where: null, message: '' });
    this.analyse();
  }

  nameOf(instance) {
    const p = this.puzzle;
    const inst = p && p.instances[instance];
    if (!inst) return 'the piece';
    const copies = p.instances.filter((i) => i.piece === inst.piece).length;
    return copies > 1 ? `${inst.name} (copy ${p.instances.slice(0, instance + 1).filter((i) => i.piece === inst.piece).length})` : inst.name;
  }

  /** Take a piece from the tray into the hand (as it was turned when last held). */
  pick(instance) {
    const s = this.state;
    if (!s.active || !this.puzzle || s.placed.some((p) => p.instance === instance)) return;
    if (!this.puzzle.instances[instance] || this.puzzle.instances[instance].stationary) return;
    this.dragging = false;
    // (where another piece can go is not this one's answer)
    const where = s.where && s.where.instance !== instance ? null : s.where;
    this.update({ hand: this.lastHands.get(instance) || handFor(this.puzzle, instance), message: '', where });
  }

  /** Put the piece in hand back in the tray. */
  drop() {
    this.dragging = false;
    if (this.state.hand) this.update({ hand: null });
  }

  turn(axis = 'z') {
    const hand = this.state.hand;
    if (hand) this.hold(turnHand(hand, axis));
  }

  flip() {
    const hand = this.state.hand;
    if (hand && !this.puzzle.oneSide) this.hold(flipHand(hand));
  }

  hold(hand) {
    this.lastHands.set(hand.instance, hand);
    this.update({ hand });
  }

  /** Where the piece in hand points (a box cell, -1: nowhere). */
  setCursor(cell) {
    if (this.state.cursor !== cell) this.update({ cursor: cell });
  }

  /** The layer the hand puts pieces on (3-D boxes). */
  setLayer(z) {
    const p = this.puzzle;
    if (!p) return;
    const layer = Math.max(0, Math.min(p.zDim - 1, z | 0));
    const s = this.state;
    const cursor = s.cursor >= 0 ? (s.cursor % (p.xDim * p.yDim)) + layer * p.xDim * p.yDim : s.cursor;
    this.update({ layer, cursor });
  }

  /** The keyboard's arrows: the cursor one cell over (from the middle of the layer at first). */
  moveCursor(dx, dy) {
    const p = this.puzzle;
    const s = this.state;
    if (!p) return;
    const plane = p.xDim * p.yDim;
    if (s.cursor < 0) {
      this.setCursor(Math.floor(p.xDim / 2) + p.xDim * Math.floor(p.yDim / 2) + s.layer * plane);
      return;
    }
    const x = Math.max(0, Math.min(p.xDim - 1, (s.cursor % p.xDim) + dx));
    const y = Math.max(0, Math.min(p.yDim - 1, (Math.floor(s.cursor / p.xDim) % p.yDim) + dy));
    this.setCursor(x + p.xDim * y + s.layer * plane);
  }

  /** The cells the piece in hand would cover at `cell` and whether it fits there. */
  aim(cell = this.state.cursor) {
    const s = this.state;
    if (!s.hand || !this.puzzle) return { cells: null, ok: false };
    const cells = handCells(this.puzzle, s.hand, cell);
    return { cells, ok: fits(playGrid(this.puzzle, s.placed), cells) };
  }

  /** Put the piece in hand down with its handle on `cell`. Returns whether it was placed. */
  placeAt(cell = this.state.cursor) {
    const s = this.state;
    if (!s.active || !s.hand) return false;
    const { cells, ok } = this.aim(cell);
    const name = this.nameOf(s.hand.instance);
    if (!ok) {
      this.update({ message: cells ? `${name} does not fit there: it would lie over another piece.` : `${name} does not fit there: it would stick out of the ${this.puzzle.zDim > 1 ? 'box' : 'board'}.` });
      return false;
    }
    const placement = { instance: s.hand.instance, cells };
    const command = this.dragging ? movePiece(this.target, placement, name) : placePiece(this.target, placement, name);
    if (this.dragging) Object.assign(command, { mergeKey: `drag:${this.drag}`, gesture: true });
    this.dragging = false;
    this.update({ hand: null });
    this.history.execute(command);
    return true;
  }

  /**
   * Take a placed piece back into the hand, held by the cell `at` it was taken by. `drag`: it
   * is being moved (pointer still down): taking it and putting it down are one move to undo.
   */
  pickUp(instance, at = -1, { drag = false } = {}) {
    const s = this.state;
    const index = s.placed.findIndex((p) => p.instance === instance);
    if (!s.active || index < 0) return false;
    if (index < s.given) {
      this.update({ message: `${this.nameOf(instance)} is part of the challenge: it stays where it is.` });
      return false;
    }
    const hand = handFromPlacement(this.puzzle, s.placed[index], at);
    const command = takeBack(this.target, [instance], this.nameOf(instance));
    if (drag) {
      this.drag++;
      Object.assign(command, { mergeKey: `drag:${this.drag}`, gesture: true });
    }
    this.dragging = drag;
    this.history.execute(command);
    this.lastHands.set(instance, hand);
    this.update({ hand, cursor: at });
    return true;
  }

  /** Take every piece placed after the first `keep` (not the challenge's) off the board. */
  keepFirst(keep) {
    const s = this.state;
    const gone = s.placed.slice(Math.max(keep, s.given)).map((p) => p.instance);
    if (gone.length === 0) return;
    this.history.execute(takeBack(this.target, gone, gone.length === 1 ? this.nameOf(gone[0]) : plural(gone.length, 'piece')));
  }

  /** Clear the board (the challenge's pieces stay). */
  clear() {
    this.keepFirst(0);
  }

  undo() {
    this.dragging = false;
    this.history.undo();
  }

  redo() {
    this.dragging = false;
    this.history.redo();
  }

  // ------------------------------------------------------------ the engine's answers

  /** Play's worker, with the puzzle's definition loaded. */
  async engine() {
    if (!this.client || this.client._failure) {
      if (this.client) this.client.terminate();
      this.client = this.createClient();
      this.loadedText = null;
    }
    const src = this.store.get().source;
    if (this.loadedText !== src.text) {
      await this.client.load(src.text, src.name || 'puzzle.txt');
      this.loadedText = src.text;
    }
    return this.client;
  }

  /**
   * Ask the engine about the packing on the board: resolves to its answer, null when the
   * packing changed meanwhile or another question took the worker, or {error}.
   */
  async ask(question, { limit = 0, piece = -1, onProgress = null } = {}) {
    const s = this.state;
    const key = packingKey(s.placed);
    const flat = flatPlacements(s.placed);
    const given = s.given;
    let client;
    try {
      client = await this.engine();
    } catch (err) {
      return { error: messageOf(err) };
    }
    if (!this.state.active || packingKey(this.state.placed) !== key) return null;
    const request = client.play(this.store.get().puzzleIndex, flat, question, {
      limit, fixed: question === 'wrong' ? given : 0, piece,
      onProgress: (r) => { if (this.current(key, request)) onProgress && onProgress(r); },
    });
    this.query = { id: request.id, key, question };
    let answer;
    try {
      answer = await request.done;
    } catch (err) {
      answer = { error: messageOf(err) };
    }
    if (!this.current(key, request)) return null;
    this.query = null;
    return answer.cancelled ? null : answer;
  }

  current(key, request) {
    return this.state.active && packingKey(this.state.placed) === key && (!request || (this.query && this.query.id === request.id));
  }

  /** Count the ways to finish the packing on the board (unless it is known). */
  async analyse() {
    const s = this.state;
    if (!s.active) return;
    const key = packingKey(s.placed);
    if (s.count && s.count.key === key && s.count.status !== 'counting') return;
    this.update({ count: { key, status: 'counting', soFar: 0, fraction: 0 } });
    const answer = await this.ask('count', {
      limit: COUNT_LIMIT,
      onProgress: (r) => this.update({ count: { key, status: 'counting', soFar: r.completionsSoFar || 0, fraction: r.fractionDone || 0 } }),
    });
    if (!answer) return;
    if (answer.error) {
      this.refused(key, answer.error);
      return;
    }
    this.update({
      count: {
        key, status: 'done', completions: answer.completions, capped: answer.capped, exact: Boolean(answer.exact), limit: answer.limit,
        hint: answer.hint, placements: answer.placements, fraction: 1,
      },
    });
  }

  /**
   * The engine refused the packing (a link's pieces that are no packing of this puzzle): the
   * board is cleared of them and the page says why; other failures are said in the count.
   */
  refused(key, error) {
    if (/^placement \d+/.test(error) || /^play: /.test(error)) {
      this.history.clear();
      this.update({ placed: [], given: 0, challenge: '', count: null, message: '' });
      this.store.update('notice', `The pieces in the link could not be placed: ${error}. The board is empty.`);
      this.analyse();
      return;
    }
    this.update({ count: { key, status: 'failed', error } });
  }

  /** One more piece of a finish that keeps every piece placed. */
  async hint() {
    const s = this.state;
    if (!s.active) return;
    const key = packingKey(s.placed);
    this.update({ where: null, wrong: null });
    const known = s.count && s.count.key === key && s.count.status === 'done' ? s.count : null;
    if (known && known.completions === 0) {
      this.update({ hint: { key, status: 'none' } });
      return;
    }
    if (known && known.hint) {
      this.update({ hint: { key, status: 'done', ...known.hint } });
      return;
    }
    this.update({ hint: { key, status: 'searching' } });
    const answer = await this.ask('hint');
    if (!answer) return;
    if (answer.error) this.update({ hint: { key, status: 'failed', error: answer.error } });
    else if (!answer.hint) this.update({ hint: { key, status: 'none' } });
    else this.update({ hint: { key, status: 'done', ...answer.hint } });
    this.analyse(); // (the count the question stopped)
  }

  /** Put the hinted piece where the hint shows it. */
  placeHint() {
    const s = this.state;
    const h = s.hint;
    if (!h || h.status !== 'done' || h.key !== packingKey(s.placed)) return;
    if (s.placed.some((p) => p.instance === h.instance)) return;
    this.history.execute(placePiece(this.target, { instance: h.instance, cells: h.cells }, this.nameOf(h.instance)));
  }

  /**
   * Every place for the piece in hand that can still be finished, with how many ways to finish
   * keep it there (the engine's placement counts: exact, all of them at once), the best first.
   */
  async where() {
    const s = this.state;
    if (!s.active || !s.hand) return;
    const key = packingKey(s.placed);
    const instance = s.hand.instance;
    this.update({ hint: null, wrong: null, where: { key, status: 'weighing', instance, fraction: 0 } });
    const answer = await this.ask('where', {
      piece: instance,
      onProgress: (r) => this.update({ where: { key, status: 'weighing', instance, fraction: r.fractionDone || 0 } }),
    });
    if (!answer) return;
    if (!this.state.where || this.state.where.instance !== instance) return; // (another piece picked meanwhile)
    if (answer.error) this.update({ where: { key, status: 'failed', instance, error: answer.error } });
    else this.update({ where: { key, status: 'done', instance, places: answer.places, index: 0, completions: answer.completions } });
    this.analyse();
  }

  /** Show the next place of "Where can it go?" (after the last, the first again). */
  nextPlace() {
    const w = this.state.where;
    if (!w || w.status !== 'done' || w.places.length < 2) return;
    this.update({ where: { ...w, index: (w.index + 1) % w.places.length } });
  }

  /** Put the piece where "Where can it go?" shows it (out of the hand). */
  placeWhere() {
    const s = this.state;
    const w = s.where;
    if (!w || w.status !== 'done' || w.key !== packingKey(s.placed) || !w.places.length) return;
    if (s.placed.some((p) => p.instance === w.instance)) return;
    if (s.hand && s.hand.instance === w.instance) this.update({ hand: null });
    this.history.execute(placePiece(this.target, { instance: w.instance, cells: w.places[w.index].cells }, this.nameOf(w.instance)));
  }

  /** Which placed piece stands in the way of a finish. */
  async whatsWrong() {
    const s = this.state;
    if (!s.active) return;
    const key = packingKey(s.placed);
    this.update({ where: null, hint: null });
    const known = s.count && s.count.key === key && s.count.status === 'done' ? s.count : null;
    if (known && known.completions > 0) {
      this.update({ wrong: { key, status: 'done', completable: true, culprit: -1, keep: -1 } });
      return;
    }
    this.update({ wrong: { key, status: 'checking', fraction: 0 } });
    const answer = await this.ask('wrong', {
      onProgress: (r) => this.update({ wrong: { key, status: 'checking', fraction: r.fractionDone || 0 } }),
    });
    if (!answer) return;
    if (answer.error) this.update({ wrong: { key, status: 'failed', error: answer.error } });
    else this.update({ wrong: { key, status: 'done', completable: answer.completable, culprit: answer.culpritInstance, keep: answer.keep } });
    this.analyse();
  }

  /** Do what "What's wrong?" said: take the culprit away, or the pieces after the first `keep`. */
  followWrong() {
    const s = this.state;
    const w = s.wrong;
    if (!w || w.status !== 'done' || w.key !== packingKey(s.placed) || w.completable) return;
    if (w.culprit >= 0) this.history.execute(takeBack(this.target, [w.culprit], this.nameOf(w.culprit)));
    else if (w.keep >= 0) this.keepFirst(w.keep);
  }

  /** The tray: the pieces neither placed nor in hand. */
  tray() {
    const s = this.state;
    return this.puzzle ? unplaced(this.puzzle, s.placed, s.hand) : [];
  }
}
