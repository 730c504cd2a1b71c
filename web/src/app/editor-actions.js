// The puzzle editor's actions: start editing (a new box, or a copy of the loaded puzzle), every
// edit as an undoable command, the definition text kept in step both ways, live checks, and
// solving what was drawn. Checks go through Actions.draft (Actions stays the only code that talks
// to the solver).
//
//   const editor = new EditorActions(store, actions, persist);
//   editor.newPuzzle(5, 4, 1);
//   editor.run(paintCells(editor.target, [0, 1], true));  // any command of commands.js
//   editor.undo(); editor.redo();
//   await editor.solve();
import { History } from './history.js';
import * as commands from './commands.js';

import { PHASE, CUSTOM } from './state.js';
import { shownPuzzle } from './selectors.js';
import { titleOf } from './format.js';
import { storedTitle } from './persist.js';
import { carryColourSlots, slotsByName } from '../viewer/colors.js';
import { writeDefinition, definitionFileName } from '../model/definition-writer.js';
import { cellCounts, emptyPuzzle, fromEngineJson, validatePuzzle } from '../model/puzzle.js';

const CHECK_DELAY_MS = 150; // checks and autosave wait for a pause in the edits
const TEXT_DELAY_MS = 300;  // the editor follows typed text after this pause
export const EDITOR_SOURCE = 'my-puzzle.txt';
export const MAX_NEW_DIMENSION = 40; // the editor's box sizes (the engine allows more, typed as text)

/**
 * Box sizes as typed (strings or numbers): the whole numbers, which are out of range, and why.
 * Nothing is clamped: a size the editor cannot take is refused with its reason.
 *   boxSizeProblem('5', '4', '1') -> { dims: [5, 4, 1], invalid: [false, false, false], message: '' }
 */
export function boxSizeProblem(...values) {
  const dims = values.map((v) => (String(v).trim() === '' ? NaN : Number(v)));
  const invalid = dims.map((v) => !(Number.isInteger(v) && v >= 1 && v <= MAX_NEW_DIMENSION));
  const message = invalid.some(Boolean)
    ? `Each size must be a whole number from 1 to ${MAX_NEW_DIMENSION} (the editor's largest box is ${MAX_NEW_DIMENSION} × ${MAX_NEW_DIMENSION} × ${MAX_NEW_DIMENSION}; a larger one can be written as definition text).`
    : '';
  return { dims, invalid, message };
}

export class EditorActions {
  constructor(store, actions, persist) {
    this.store = store;
    this.actions = actions;
    this.persist = persist;
    this.history = new History({ onChange: () => store.update('history', this.history.status()) });
    this.target = { get: () => store.get().editor.puzzle, set: (p, fromText) => this.setPuzzle(p, fromText) };
    this.checkTimer = 0;
    this.textTimer = 0;
    this.pendingText = null; // text typed while editing, not yet followed (flushText)
    this.checkToken = 0;
    this.textToken = 0;
    this.stroke = 0;
  }

  get editor() {
    return this.store.get().editor;
  }

  /**
   * Enter the editor with `puzzle` (a fresh history: undo goes back to this puzzle).
   * `colourSlots`: {piece name: slot} kept from before (a reload); otherwise the pieces take
   * the colours of the puzzle on screen (their order).
   */
  begin(puzzle, savedId = '', colourSlots = null) {
    this.actions.stopRun();
    const loaded = this.actions.currentPuzzle();
    const named = colourSlots || (loaded && slotsByName(loaded.pieces));
    // (each piece its named slot; one without takes the lowest free slot)
    const slots = named ? carryColourSlots(puzzle.pieces, puzzle.pieces.map((p) => (p.stationary ? null : named[p.name] ?? null)), puzzle.pieces)
      : carryColourSlots(null, null, puzzle.pieces);
    this.store.update('editor', { active: true, puzzle, slots, layer: 0, selected: -1, viewCells: false, drawer: null, checks: null, checksFor: null, checkError: '', savedId });
    this.history.clear();
    this.afterChange(false);
  }

  /** A new empty box; sizes out of range start nothing. Returns boxSizeProblem's answer. */
  newPuzzle(xDim, yDim, zDim) {
    const problem = boxSizeProblem(xDim, yDim, zDim);
    if (problem.message) return problem;
    const [x, y, z] = problem.dims;
    this.begin(emptyPuzzle({ title: 'My puzzle', xDim: x, yDim: y, zDim: z }));
    return problem;
  }

  /** Edit a copy of the puzzle on screen (a library puzzle stays as it is; one of My puzzles
   * is edited in place, unless its file holds several puzzles: the editor holds one, and
   * saving it in place would drop the others). */
  editCopy() {
    const p = this.actions.currentPuzzle();
    if (!p) return;
    const puzzle = fromEngineJson(p);
    const s = this.store.get();
    const src = s.source;
    const own = src.kind === 'mine' && s.puzzles.length === 1;
    if (!own) puzzle.title = `${puzzle.title || 'Puzzle'} (my copy)`.slice(0, 200);
    this.begin(puzzle, own ? src.id : '');
  }

  /** Leave the editor (what was drawn stays saved in My puzzles). */
  close() {
    this.flushChecks();
    this.store.update('editor', { active: false, drawer: null, viewCells: false });
  }

  /** Turn the 3-D view's cell editing on or off (a click there then removes or restores a cell). */
  setViewCells(on) {
    if (this.editor.active && this.editor.viewCells !== !!on) this.store.update('editor', { viewCells: !!on });
  }

  /**
   * The Close editor button: the page then shows the puzzle loaded before the editor opened.
   * An editor reopened by a reload or a link loaded none (closing it must not leave a blank
   * library, Solve and Edit a copy off, "(editing)" on the stage): the puzzle it closes
   * on is then loaded, as Solve this puzzle loads it; if that fails, the library's first puzzle,
   * with a notice saying why (the drawing stays in My puzzles).
   */
  async closeToPage() {
    const nothingLoaded = this.store.get().puzzles.length === 0;
    if (nothingLoaded && this.editor.puzzle) {
      const title = titleOf(this.editor.puzzle.title);
      if (!(await this.load())) {
        const why = this.store.get().definition.error || this.store.get().run.message;
        this.close();
        await this.actions.start();
        this.store.update('notice', `${title} stays in My puzzles; it could not be opened: ${why}`);
        return;
      }
    }
    this.close();
  }

  /**
   * My puzzles changed in another tab or window: the list follows, and when the puzzle being
   * edited here is the one changed (or removed) there, the notice says so, and what the next
   * edit here does (two tabs on one puzzle must never have the last to save win silently).
   */
  puzzlesChangedElsewhere() {
    if (!this.persist) return;
    const list = this.persist.puzzles();
    this.store.update('myPuzzles', list);
    const { active, savedId, puzzle } = this.editor;
    if (!active || !savedId || !puzzle) return;
    const entry = list.find((p) => p.id === savedId);
    if (entry && entry.text === writeDefinition(puzzle)) return; // (the same puzzle: nothing to say)
    const title = titleOf(puzzle.title);
    this.store.update('notice', entry
      ? `"${titleOf(entry.title)}" was changed in My puzzles by another tab or window. This tab still shows its own version, "${title}": its next change, or closing the editor, saves over the other one (Download puzzle keeps this version as a file).`
      : `"${title}" was removed from My puzzles by another tab or window. This tab still shows it: its next change saves it again.`);
  }

  /** The editor's colour slots as {piece name: slot} (null when closed). */
  colourSlots() {
    const { puzzle, slots } = this.editor;
    return puzzle && slots ? slotsByName(puzzle.pieces, slots) : null;
  }

  /** Another puzzle is being opened (the library picker): the editor closes first, its puzzle
   * saved in My puzzles, so that the stage shows the puzzle that Solve will search. */
  leaveFor() {
    if (this.editor.active) this.close();
  }

  /**
   * The page's Solve (and Enter in the options): the puzzle on the stage. While the editor
   * shows a puzzle of its own (not the one loaded), that is the editor's "Solve this puzzle";
   * otherwise the loaded puzzle.
   */
  solveShown() {
    return shownPuzzle(this.store.get()).editing ? this.solve() : this.actions.solve();
  }

  run(command) {
    this.history.execute(command);
  }

  undo() {
    this.history.undo();
  }

  redo() {
    this.history.redo();
  }

  /** A new drag of the paint tool (its cells merge into one undo step). */
  newStroke() {
    return ++this.stroke;
  }

  setPuzzle(puzzle, fromText = false) {
    const { puzzle: before, slots } = this.editor;
    this.store.update('editor', { puzzle, slots: carryColourSlots(before ? before.pieces : null, slots, puzzle.pieces) });
    this.afterChange(fromText);
  }

  afterChange(fromText) {
    const { puzzle } = this.editor;
    if (!fromText) this.store.update('definition', { text: writeDefinition(puzzle), error: '' });
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => this.flushChecks(), CHECK_DELAY_MS);
  }

  /**
   * Whether My puzzles holds the puzzle being edited as it is drawn now (true with the editor
   * closed). The autosave follows a pause in the edits; a test waits for this, never a time.
   */
  saved() {
    const { puzzle, active, savedId } = this.editor;
    if (!active || !puzzle) return true;
    const entry = this.persist && savedId ? this.persist.puzzles().find((p) => p.id === savedId) : null;
    return !!entry && entry.text === writeDefinition(puzzle) && entry.title === storedTitle(puzzle.title);
  }

  /**
   * The page goes away (a reload, a closed tab) within the autosave's pause: the last edits are
   * saved now, before the session is written (it names the saved puzzle), so none is lost. The
   * pending checks stay pending: a page kept in the back-forward cache runs them when it comes back.
   */
  saveNow() {
    if (!this.saved()) this.savePuzzle();
  }

  /** Write the puzzle being edited into My puzzles (a new entry the first time); its text. */
  savePuzzle() {
    const { puzzle, savedId } = this.editor;
    const text = writeDefinition(puzzle);
    if (!this.persist) return text;
    const id = this.persist.savePuzzle({ id: savedId, title: puzzle.title, text });
    if (id && id !== savedId) this.store.update('editor', { savedId: id });
    this.store.update('myPuzzles', this.persist.puzzles());
    this.actions.reportSave(this.persist);
    return text;
  }

  /** Run the engine's draft checks and save the puzzle in My puzzles now. */
  async flushChecks() {
    clearTimeout(this.checkTimer);
    this.checkTimer = 0;
    const { puzzle, active } = this.editor;
    if (!active || !puzzle) return;
    const text = this.savePuzzle();
    const token = ++this.checkToken;
    const result = await this.actions.draft(text, definitionFileName(puzzle));
    if (token !== this.checkToken) return;
    // checksFor: the puzzle these checks are about (a later edit makes them stale until rechecked)
    if (result.ok && result.puzzles.length > 0) {
      // the pieces that fit nowhere, named from the engine's own list: its `images` count per
      // piece of the text, where the holes ('*') come first (matched against the editor's list,
      // which has no holes piece, by position alone every name would be one off)
      const drafted = result.puzzles[0];
      const nowhere = (drafted.checks.images || []).flatMap((n, i) => (n === 0 && drafted.pieces[i] ? [drafted.pieces[i].name] : []));
      this.store.update('editor', { checks: { ...drafted.checks, nowhere }, checksFor: puzzle, checkError: '' });
    }
    else this.store.update('editor', { checks: null, checksFor: puzzle, checkError: result.ok ? 'no puzzle in the text' : result.error });
  }

  /** The definition text was typed while editing: follow it once it parses (errors shown by the text). */
  followText(text) {
    this.store.update('definition', { text });
    clearTimeout(this.textTimer);
    this.pendingText = text;
    this.textTimer = setTimeout(() => this.flushText(), TEXT_DELAY_MS);
  }

  /** Follow the text typed now, without waiting for the pause (load() needs the puzzle typed). */
  async flushText() {
    clearTimeout(this.textTimer);
    const text = this.pendingText;
    this.pendingText = null;
    if (text === null || text === undefined) return;
    const token = ++this.textToken;
    const result = await this.actions.draft(text, EDITOR_SOURCE);
    if (token !== this.textToken || !this.editor.active) return;
    if (!result.ok) {
      this.store.update('definition', { error: result.error });
      return;
    }
    if (result.puzzles.length !== 1) {
      this.store.update('definition', { error: `${EDITOR_SOURCE}: the editor holds one puzzle; this text has ${result.puzzles.length}` });
      return;
    }
    this.store.update('definition', { error: '' });
    // the text is the person's: following it must not rewrite it under the cursor
    this.history.execute(commands.followText(this.target, fromEngineJson(result.puzzles[0])));
  }

  /** What the definition format cannot hold in the puzzle being edited ('' when nothing, or
   * when the editor is closed): its text would not read back (a name with ':'). */
  formatProblem() {
    const { active, puzzle } = this.editor;
    return active && puzzle ? formatProblemOf(puzzle) : '';
  }

  /** What keeps the puzzle from being solved now ('' when it can be). */
  blocker() {
    const { puzzle } = this.editor;
    if (!puzzle) return 'there is no puzzle';
    const problem = formatProblemOf(puzzle);
    if (problem) return problem;
    const counts = cellCounts(puzzle);
    if (counts.pieces === 0) return 'add pieces first';
    if (!counts.balanced) return `the pieces cover ${counts.pieces} cells but the space has ${counts.space}`;
    return '';
  }

  /** Load what was drawn into the engine and search it. */
  async solve() {
    const why = this.blocker();
    if (why) {
      this.actions.setPhase(PHASE.ERROR, `Cannot solve yet: ${why}.`);
      return false;
    }
    // Say so at once: the page must not show the previous run's "done" while the checks finish
    // (a person, or a test, would read the old result as this puzzle's).
    this.actions.setPhase(PHASE.LOADING, 'Preparing your puzzle…');
    const ok = await this.load();
    if (ok) await this.actions.solve();
    return ok;
  }

  /**
   * Load what was drawn into the engine, as the one entry of My puzzles it is saved in (Solve
   * this puzzle, and Load definition while the editor is open: loaded as new text, it would
   * be saved a second time).
   */
  async load() {
    await this.flushText(); // (text pasted a moment ago: that is the puzzle to load)
    if (this.store.get().definition.error) {
      this.actions.setPhase(PHASE.ERROR, 'The definition text has an error (see the message by the text); the editor keeps the last puzzle it could read.');
      return false;
    }
    await this.flushChecks();
    const { puzzle, savedId } = this.editor;
    const text = writeDefinition(puzzle);
    // (the pieces' colours as in the editor: colourSlots, by name)
    return this.actions.loadText({ kind: savedId ? 'mine' : 'custom', file: CUSTOM, id: savedId, title: puzzle.title, text, name: definitionFileName(puzzle), colourSlots: this.colourSlots() });
  }
}

function formatProblemOf(puzzle) {
  const problems = validatePuzzle(puzzle);
  return problems.length > 0 ? problems[0].message : '';
}
