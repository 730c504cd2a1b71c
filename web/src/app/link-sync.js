// The page's address and the browser's memory follow the state:
//   - the address fragment carries a share link (share/link.js): the puzzle (library file, or the
//     definition text of a custom puzzle or the one being edited), the options, the solution
//     shown (so a link draws it at once, without solving) and a few view settings; it is kept up
//     to date with history.replaceState, so a reload restores what was on screen;
//   - without a link, the last session (persist.js) is restored: the puzzle, the options, the
//     text typed, the editor.
// Definition text typed but not loaded (the draft) is the person's own work and no link replaces
// it: the address always carries a link, so a reload opens that link and then puts the session's
// draft back in the text box; a link opened in this tab or a new one does the same.
// A link that cannot be read leaves a usable page (the session's puzzle, or the one on screen)
// and a message saying what is wrong with it and what the page shows instead.
//
//   const sync = new LinkSync(store, actions, editor, persist, { libraryFiles });
//   await sync.restore(location.hash);   // after actions.start() has the engine
//   sync.follow();                       // from now on the address follows the state
import { decodeState, encodeState, solutionProblem } from '../share/link.js';
import { slotsByName } from '../viewer/colors.js';
import { writeDefinition } from '../model/definition-writer.js';
import { fromEngineJson } from '../model/puzzle.js';
import { solutionGridProblem } from '../model/solution-check.js';
import { SolutionStore } from '../ui/solution-store.js';
import { PHASE } from './state.js';
import { shownPuzzle } from './selectors.js';
import { lessonOfLink } from '../lesson/lessons.js';
import { linkedWords, num, titleOf, withNotice, withoutNotice } from './format.js';
import { linkView, viewFromLink } from './view-actions.js';
import { MAX_SAVED_TEXT, plainSlots, storedTitle } from './persist.js';

const FOLLOW_DELAY_MS = 250;
const SESSION_KEYS = ['source', 'puzzleIndex', 'options', 'definition', 'editor', 'solutions', 'view', 'watch', 'lesson', 'play'];

export class LinkSync {
  constructor(store, actions, editor, persist, { libraryFiles, watch = null, lessons = null, play = null, win = window }) {
    this.store = store;
    this.watch = watch;
    this.lessons = lessons;
    this.play = play; // a game played by hand (app/play-actions.js): the link carries its pieces
    this.actions = actions;
    this.editor = editor;
    this.persist = persist;
    this.libraryFiles = libraryFiles;
    this.win = win;
    this.timer = 0;
    this.flushers = []; // beforeLink
    this.lastLink = '';
    // The person's draft while the text box cannot show it (the editor holds the box, or it
    // shows a link's definition that failed to load): still kept in the session.
    this.heldDraft = null;
    this.foreignText = null; // text a link put in the box (not the person's typing)
    this.opening = 0;        // links opening in this tab (openHash)
    this.openToken = 0;      // the latest openLink: an earlier one still loading gives way (Back pressed twice)
    this.linkNotice = '';    // the "too large for a link" line this added to the notice
  }

  /**
   * The text typed but not loaded: the box's when it holds the person's typing (which supersedes
   * a held draft, as new typing replaces old in the box), else the held one.
   */
  draftOf(s = this.store.get()) {
    const box = s.definition.text;
    // (while a link opens, the box and the source change one after the other: not typing)
    if (this.opening) return this.heldDraft;
    if (!s.editor.active && box !== s.source.text && box !== this.foreignText) {
      this.heldDraft = null;
      this.foreignText = null;
      return box;
    }
    return this.heldDraft;
  }

  /** The share state of what is on screen (share/link.js), or null when nothing is loaded. */
  linkState(s = this.store.get()) {
    const ed = s.editor;
    let puzzle;
    let editing = false;
    if (ed.active && ed.puzzle) {
      const text = writeDefinition(ed.puzzle);
      editing = text !== s.source.text;
      puzzle = editing || s.source.kind !== 'library' ? { definition: text } : { library: s.source.file, index: s.puzzleIndex };
    } else if (s.source.kind === 'library' && s.source.file) {
      puzzle = { library: s.source.file, index: s.puzzleIndex };
    } else if (s.source.text) {
      puzzle = { definition: s.source.text };
      if (s.puzzleIndex > 0) puzzle.index = s.puzzleIndex;
    } else {
      return null;
    }
    // the pieces' colours as on screen (the editor's colour slots: share/link.js puzzle.colours)
    if (puzzle.definition !== undefined) {
      const pieces = editing ? ed.puzzle.pieces : (s.puzzles[s.puzzleIndex] || { pieces: [] }).pieces;
      const slots = editing ? ed.slots : null;
      const named = slotsByName(pieces, slots);
      const mobile = pieces.filter((p) => !p.stationary);
      if (named && mobile.length > 0 && mobile.some((p, k) => named[p.name] !== k)) puzzle.colours = mobile.map((p) => named[p.name]);
    }
    const state = { puzzle, options: s.options.text };
    const sol = s.solutions;
    if (!editing && sol.store && sol.shown >= 0) state.solution = { index: sol.shown + 1, grid: Array.from(sol.store.get(sol.shown)) };
    const view = linkView(s.view);
    if (ed.active) view.edit = 1;
    // a lesson: its part; the replay's step when it is not the part's own (stepped freely)
    const lesson = s.lesson.open && this.lessons ? this.lessons : null;
    if (lesson) {
      view.lesson = s.lesson.id;
      if (s.lesson.step > 0) view.lessonStep = s.lesson.step;
    }
    // the replay's step (a lesson's, or a recording's): the link records the search again and
    // shows that step (a lesson at its own step needs none: the lesson puts it there)
    if (s.watch.active && !s.watch.recording && s.watch.steps > 0 && !(lesson && lesson.atOwnStep())) view.step = s.watch.step;
    if (Object.keys(view).length) state.view = view;
    const game = this.play && !editing ? this.play.linkState() : null;
    if (game) state.play = game;
    return state;
  }

  /** Run `fn` before a link is taken (currentUrl): it writes to the state what is still pending
   * there (the camera settles in the view before the state follows it). */
  beforeLink(fn) {
    this.flushers.push(fn);
  }

  /**
   * The link to what is on screen ('' when there is none), as a full URL. Changes still pending
   * are written first, the address too: a link copied right after turning the view carries the
   * view as it is, and the address bar says the same.
   */
  currentUrl() {
    for (const fn of this.flushers) fn();
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = 0;
      this.write();
    }
    const state = this.linkState();
    if (!state) return '';
    const u = new URL(this.win.location.href);
    u.hash = encodeState(state);
    return u.href;
  }

  /** Keep the address and the saved session in step with the state from now on. */
  follow() {
    // a link pasted into this tab's address bar (or a lesson link clicked) opens like a new page
    this.win.addEventListener('hashchange', () => {
      const hash = this.win.location.hash;
      if (hash && hash !== this.lastLink) {
        this.lastLink = hash;
        this.openHash(hash);
      }
    });
    // a change not yet written when the page goes away (a tab closed within the delay) is
    // written then
    this.win.addEventListener('pagehide', () => {
      if (!this.timer) return;
      clearTimeout(this.timer);
      this.timer = 0;
      this.write();
    });
    // at most one write per FOLLOW_DELAY_MS, of the latest state: a running search changes the
    // solutions several times a second, and a delay restarted on every change never wrote while
    // it ran (a tab closed mid-search reopened on the puzzle before)
    // leaving the editor frees the text box: a draft held meanwhile comes back into it
    let editing = this.store.get().editor.active;
    this.store.subscribe(['editor'], (s) => {
      if (editing && !s.editor.active && this.heldDraft !== null) {
        const draft = this.heldDraft;
        this.heldDraft = null;
        this.store.update('definition', { text: draft, open: true });
      }
      editing = s.editor.active;
    });
    this.store.subscribe(SESSION_KEYS, () => {
      if (this.timer) return;
      this.timer = setTimeout(() => {
        this.timer = 0;
        this.write();
      }, FOLLOW_DELAY_MS);
    });
    this.write();
  }

  /** Whether the address and the session hold the state shown (no write waiting). */
  settled() {
    return !this.timer;
  }

  write() {
    const s = this.store.get();
    const state = this.linkState(s);
    // The address changed under the page (Back or Forward: its hashchange comes as a task of its
    // own, and this write could run first): the entry belongs to that navigation, which opens it;
    // writing the state shown now would overwrite it and the hashchange would then find nothing
    // new (a browser test pressed Back within 250 ms of a lesson's last step and stayed on it).
    const navigated = this.lastLink !== '' && this.win.location.hash !== this.lastLink;
    if (state && !navigated) {
      try {
        const link = encodeState(state);
        if (link !== this.lastLink) {
          this.lastLink = link;
          this.win.history.replaceState(null, '', link);
        }
        if (this.linkNotice) this.store.update('notice', withoutNotice(s.notice, this.linkNotice));
        this.linkNotice = '';
      } catch (err) {
        // A puzzle too large for an address. Said beside what is already said: a text too large
        // for My puzzles is too large for a link too, and both are worth knowing.
        const line = `This puzzle is too large for a link (${err.message.replace(/^encodeState: /, '')}); download its definition to share it.`;
        this.store.update('notice', withNotice(withoutNotice(s.notice, this.linkNotice), line));
        this.linkNotice = line;
      }
    }
    this.persist.saveSession({
      source: { kind: s.source.kind, file: s.source.file, id: s.source.id, colourSlots: s.source.colourSlots || null },
      puzzleIndex: s.puzzleIndex,
      options: s.options.text,
      // typing that was not loaded (not the source's text, nor the editor's, nor a link's)
      definition: this.draftOf(s),
      editor: { active: s.editor.active, savedId: s.editor.savedId, colourSlots: s.editor.slots ? slotsByName(s.editor.puzzle && s.editor.puzzle.pieces, s.editor.slots) : null },
      // the options a lesson on screen gives back when it is left, kept across a reload
      lessonBefore: s.lesson.open && this.lessons && this.lessons.optionsBefore !== null ? { lesson: s.lesson.id, options: this.lessons.optionsBefore } : null,
      // a definition on screen that My puzzles does not hold (too large, or the storage refused
      // it): gone after a reload, and the reload says so
      lost: s.source.kind === 'custom' && s.source.text
        ? { title: storedTitle(s.source.title || (s.puzzles[0] && s.puzzles[0].title) || ''), size: s.source.text.length, why: s.source.text.length > MAX_SAVED_TEXT ? 'tooLarge' : 'notKept' }
        : null,
    });
  }

  /**
   * Open the page from a link (when the address has one) or else from the last session; the
   * session's draft comes back in the text box either way.
   */
  async restore(hash) {
    const session = this.persist.session();
    this.heldDraft = session && typeof session.definition === 'string' ? session.definition : null;
    const lost = this.lostNotice(session);
    const ok = await this.restoreFrom(hash, session);
    if (lost) this.store.update('notice', withNotice(this.store.get().notice, lost));
    return ok;
  }

  /** What a reload says of the puzzle the page had and could not keep ('' when none). */
  lostNotice(session) {
    const lost = session && session.lost;
    if (!lost) return '';
    const title = lost.title ? `"${lost.title}"` : 'the definition you had loaded';
    const why = lost.why === 'tooLarge'
      ? `its text (${num(lost.size)} characters) was larger than the browser keeps (${num(MAX_SAVED_TEXT)} characters)`
      : `its text (${num(lost.size)} characters) was not kept in My puzzles`;
    return `The puzzle on screen before this reload, ${title}, could not be brought back: ${why}. Load its file again to go on with it.`;
  }

  async restoreFrom(hash, session) {
    if (hash && hash !== '#') {
      const r = decodeState(hash, { libraryFiles: this.libraryFiles });
      // (a link whose puzzle cannot be read: what the person had open last instead, as below)
      if (r.ok) return this.afterOpening(await this.openLink(r.state, { session }));
      // what the person had open last is better than the default puzzle (and keeps their draft)
      const ok = this.afterOpening(await this.openSession(session));
      this.store.update('notice', `${r.error} ${this.insteadWords(session)}`);
      return ok;
    }
    return this.afterOpening(await this.openSession(session));
  }

  /** A link opened in this tab (a hash change): the page is already showing something. */
  async openHash(hash) {
    const r = decodeState(hash, { libraryFiles: this.libraryFiles });
    if (!r.ok) {
      // nothing is replaced: the page keeps what it shows, and the address says so again
      this.store.update('notice', `${r.error} The page still shows ${this.shownTitle()}.`);
      this.write();
      return false;
    }
    this.heldDraft = this.draftOf();
    this.foreignText = null;
    this.store.update('notice', ''); // a notice about an earlier link is no longer true
    this.opening++;
    let ok;
    try {
      ok = await this.openLink(r.state);
    } finally {
      this.opening--;
    }
    return this.afterOpening(ok);
  }

  /** After a link opened: the person's draft goes back in the text box when the box is free. */
  afterOpening(result) {
    const s = this.store.get();
    const box = s.definition.text;
    if (!s.editor.active && box !== s.source.text) {
      // the box shows the link's text that failed to load, with its error: the draft stays held
      this.foreignText = box;
    } else if (!s.editor.active && this.heldDraft !== null) {
      if (this.heldDraft !== s.source.text) this.store.update('definition', { text: this.heldDraft, open: true });
      this.heldDraft = null;
    }
    return result;
  }

  /** The puzzle on the stage, as a notice names it: the editor's while it shows its own. */
  shownTitle(s = this.store.get()) {
    const { puzzle, editing } = shownPuzzle(s);
    const title = (puzzle && puzzle.title) || (editing ? '' : s.source.title) || '';
    if (editing) return title ? `"${title}" (being edited)` : 'the puzzle being edited';
    return title ? `"${title}"` : 'the puzzle it had';
  }

  /** What the page opened in place of a link it refused (said in the notice). */
  insteadWords(session) {
    const s = this.store.get();
    if (s.puzzles.length === 0) return 'No puzzle could be opened instead.';
    const src = session && session.source;
    const fromSession = src && (src.kind === 'mine' ? s.source.kind === 'mine' && s.source.id === src.id : s.source.kind === 'library' && s.source.file === src.file);
    return fromSession
      ? `The page opened the puzzle you had open last, ${this.shownTitle(s)}, instead.`
      : `The page opened its default puzzle, ${this.shownTitle(s)}, instead.`;
  }

  /**
   * Open a decoded link. Its puzzle may still fail to load (a definition with an error): then
   * a new page (newPage: {session}) opens the session's puzzle, a page already open keeps
   * what it shows, and the box shows the link's text with its error (linkUnreadable).
   */
  async openLink(state, newPage = null) {
    const { actions, editor } = this;
    const token = ++this.openToken;
    // A link opens like a new page: a replay or a lesson on screen is left first (its recording
    // stopped, a lesson's options given back), so that Back from a lesson to a puzzle being
    // edited leaves none of the lesson's replay, hole or solutions over the editor's board.
    if (this.lessons) this.lessons.close();
    if (this.watch) this.watch.close();
    // (a reload in a lesson: what the lesson is to give back is the session's, not the lesson's own)
    const kept = newPage && newPage.session && newPage.session.lessonBefore;
    const optionsBefore = kept && state.view && kept.lesson === state.view.lesson && typeof kept.options === 'string'
      ? kept.options : this.store.get().options.text;
    if (!(await actions.start({ loadDefault: false })) || token !== this.openToken) return false;
    const editing = !!(state.view && state.view.edit);
    let ok;
    if (state.puzzle.library !== undefined) {
      ok = await actions.selectLibrary(state.puzzle.library);
    } else if (editing && !state.solution) {
      // a puzzle being made: the editor takes it as a draft (its pieces may not fill the space yet)
      return this.openDraft(state, newPage, token);
    } else {
      ok = await actions.loadDefinition(state.puzzle.definition, 'link.txt'); // (errors name the link, not a file)
      if (!ok && editing && token === this.openToken) return this.openDraft(state, newPage, token);
      if (ok && token === this.openToken) actions.useColourList(state.puzzle.colours);
    }
    if (token !== this.openToken) return false; // another link opened meanwhile: it decides
    if (!ok) {
      // (a library file the engine refused: the status line says why)
      if (state.puzzle.library !== undefined) return this.linkUnreadable(null, `${state.puzzle.library} could not be loaded`, newPage);
      return this.linkUnreadable(state.puzzle.definition, this.store.get().definition.error, newPage);
    }
    const index = state.puzzle.index || 0;
    if (index > 0) {
      const count = this.store.get().puzzles.length;
      if (index >= count) this.store.update('notice', `The link names puzzle ${index + 1} of the file, which has ${count}: the page shows its first puzzle, with the link's options.`);
      else actions.selectPuzzle(index);
    }
    actions.setOptionsText(state.options);
    this.optionsNotice();
    if (state.solution) this.showLinkedSolution(state.solution);
    if (editing) editor.editCopy();
    else if (editor.editor.active) editor.close();
    // (after the editor: leaving it for another puzzle starts the view afresh)
    const view = state.view || {};
    const patch = viewFromLink(view, shownPuzzle(this.store.get()).puzzle);
    if (Object.keys(patch).length) actions.setView(patch);
    const named = typeof view.lesson === 'string' ? lessonOfLink(view.lesson) : null;
    const step = Number.isInteger(view.step) && view.step >= 0 ? view.step : -1;
    if (typeof view.lesson === 'string' && !named) {
      this.store.update('notice', `The link names a lesson this page does not have ("${view.lesson}"): the page shows its puzzle.`);
    } else if (named && this.lessons) {
      // (not awaited: the lesson records its search, and the page is usable meanwhile; a former
      // lesson's link opens the part that shows what it showed, without its replay step)
      const own = named.lesson.id === view.lesson;
      this.lessons.open(named.lesson, { step: Number.isInteger(view.lessonStep) ? view.lessonStep : named.part, replayStep: own ? step : -1, optionsBefore });
    } else if (step >= 0 && this.watch) this.watch.openReplay(step);
    if (this.play) {
      // (a lesson takes the stage: a game in its link is not opened)
      if (state.play && !editing && !named) this.play.openFromLink(state.play);
      else if (this.play.state.active) this.play.close();
    }
    return true;
  }

  async openDraft(state, newPage = null, token = this.openToken) {
    const { actions, editor } = this;
    const draft = await actions.draft(state.puzzle.definition, 'link.txt');
    if (token !== this.openToken) return false;
    if (!draft.ok || draft.puzzles.length !== 1) {
      return this.linkUnreadable(state.puzzle.definition, draft.ok ? 'link.txt: the editor holds one puzzle' : draft.error, newPage);
    }
    const puzzle = fromEngineJson(draft.puzzles[0]);
    actions.setOptionsText(state.options);
    this.optionsNotice();
    const mobile = puzzle.pieces.filter((p) => !p.stationary);
    const colours = state.puzzle.colours && state.puzzle.colours.length === mobile.length
      ? Object.fromEntries(mobile.map((p, k) => [p.name, state.puzzle.colours[k]])) : null;
    editor.begin(puzzle, '', colours);
    actions.setPhase(PHASE.READY, `Editing ${puzzle.title || 'a puzzle'}. Press "Solve this puzzle" when its pieces fill the space.`);
    return true;
  }

  /**
   * A link whose definition text has an error: the page shows another puzzle (insteadOf), and
   * the text box the link's text with its error, so that it can be read and mended; the notice
   * says so. The editor closes (what it held stays in My puzzles): it would hold the box.
   */
  async linkUnreadable(text, error, newPage) {
    const { actions, editor } = this;
    const wasEditing = editor.editor.active;
    if (wasEditing) {
      // (closing gives a held draft back to the box, which the link's text takes: it stays held)
      const held = this.heldDraft;
      editor.close();
      this.heldDraft = held;
    }
    let instead;
    if (newPage) {
      // what the person had open last (not its editor: the box is the link's now)
      await this.openSession(newPage.session, { withEditor: false });
      // (what was open last was the editor, if it was: then the puzzle opened is just named)
      instead = newPage.session && newPage.session.editor && newPage.session.editor.active && this.store.get().puzzles.length > 0
        ? `The page opened ${this.shownTitle()} instead.` : this.insteadWords(newPage.session);
    } else {
      if (this.store.get().puzzles.length === 0) await actions.selectLibrary(actions.defaultFile);
      instead = `The page still shows ${this.shownTitle()}.`;
    }
    const reason = firstLine(error || 'the definition could not be read');
    let where = '';
    if (text !== null) {
      this.store.update('definition', { text, error: error || reason, open: true });
      where = " The link's definition is in the text box, with its error.";
    }
    const kept = wasEditing || (newPage && newPage.session && newPage.session.editor && newPage.session.editor.active)
      ? ' What you were editing is kept in My puzzles.' : '';
    this.store.update('notice', `The puzzle in the link could not be read: ${reason}. ${instead}${where}${kept}`);
    return false;
  }

  /** Options from a link that the page refuses are said as it opens, not first at Solve. */
  optionsNotice() {
    const { error } = this.store.get().options;
    if (error) this.store.update('notice', `The link's options have a problem: ${firstLine(error)}. The options box marks it; Solve waits until it is mended.`);
  }

  /** Draw the link's solution without solving (after checking that it is one). */
  showLinkedSolution(solution) {
    const p = this.actions.currentPuzzle();
    const problem = solutionProblem(solution, p.xDim * p.yDim * p.zDim, p.instances.length) || solutionGridProblem(p, solution.grid);
    if (problem) {
      this.store.update('notice', `The link's solution was not shown: ${problem}.`);
      return;
    }
    const store = new SolutionStore(p.xDim * p.yDim * p.zDim, p.instances.length);
    store.add(Int32Array.from(solution.grid), 1);
    // (the address keeps the solution shown, so a reload opens it as a link: a reload must not
    // be announced as "from the link", in the status or on the stage's badge)
    const nav = this.win.performance && this.win.performance.getEntriesByType ? this.win.performance.getEntriesByType('navigation')[0] : null;
    const reloaded = !!(nav && nav.type === 'reload' && !this.opening);
    this.store.update('solutions', { store, total: 0, shown: 0, revision: 1, linked: solution.index, reloaded });
    this.actions.setPhase(PHASE.READY, `Showing solution ${num(solution.index)} ${linkedWords(reloaded)}. Press Solve to find all solutions.`);
  }

  /** Open the last session's puzzle (withEditor: and its editor, when it was open). */
  async openSession(session, { withEditor = true } = {}) {
    const { actions, editor } = this;
    if (!session || !session.source) return actions.start();
    if (!(await actions.start({ loadDefault: false }))) return false;
    let ok = false;
    const src = session.source;
    if (src.kind === 'mine' && typeof src.id === 'string') ok = await actions.openMine(src.id, plainSlots(src.colourSlots));
    else if (src.kind === 'library' && this.libraryFiles.includes(src.file)) ok = await actions.selectLibrary(src.file);
    if (!ok) ok = await actions.selectLibrary(actions.defaultFile);
    const s = this.store.get();
    if (ok && Number.isInteger(session.puzzleIndex) && session.puzzleIndex > 0 && session.puzzleIndex < s.puzzles.length) actions.selectPuzzle(session.puzzleIndex);
    if (typeof session.options === 'string') actions.setOptionsText(session.options);
    if (withEditor && session.editor && session.editor.active) {
      const entry = s.myPuzzles.find((p) => p.id === session.editor.savedId);
      const draft = entry ? await actions.draft(entry.text, 'my-puzzle.txt') : null;
      if (draft && draft.ok && draft.puzzles.length === 1) {
        editor.begin(fromEngineJson(draft.puzzles[0]), entry.id, plainSlots(session.editor.colourSlots));
      } else if (entry) {
        // saved with a problem the editor lets a person make on the way (a name the format
        // cannot hold): its text in the box, with the engine's error, rather than lost from view
        const error = draft && !draft.ok ? draft.error : 'my-puzzle.txt: the editor holds one puzzle';
        this.store.update('definition', { text: entry.text, error, open: true });
        this.store.update('notice', `The puzzle you were editing, "${titleOf(entry.title)}", could not be opened in the editor: ${firstLine(error)}. Its definition is in the text box (and in My puzzles).`);
      }
    }
    // (typing that was never loaded comes back into the text box: afterOpening)
    return ok;
  }
}

/** The first line of an error, without a closing full stop (a notice adds its own). */
function firstLine(text) {
  return String(text).split('\n')[0].replace(/\.$/, '');
}
