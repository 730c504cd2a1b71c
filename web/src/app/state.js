// The shape of the application state (see store.js). One slice per concern; panels subscribe to
// the slices they draw.
export const PHASE = Object.freeze({
  LOADING: 'loading',     // the engine or a puzzle is loading
  READY: 'ready',         // a puzzle is loaded, no search yet
  RUNNING: 'running',
  DONE: 'done',           // the search ended by itself (exhausted or at the solution limit)
  CANCELLED: 'cancelled',
  ERROR: 'error',
});

export const CUSTOM = '__custom__';

/** The solutions slice before any search (see initialState). */
export const NO_SOLUTIONS = Object.freeze({ store: null, total: 0, shown: -1, revision: 0, linked: 0, reloaded: false });

// Seeing the pieces (app/view-actions.js): piece indices (puzzle.pieces) of the
// piece under the pointer and of the one clicked (highlighted), hidden pieces, the isolated
// piece (-1: none), one z layer only (-1: all), name labels, the flat per-layer grid, and why the
// "go to solution" box refused what was typed ('' when it did not).
export const VIEW_PIECES = Object.freeze({ hover: -1, highlight: -1, hidden: Object.freeze([]), isolate: -1, layer: -1, labels: false, flat: false, gotoError: '', camera: null });

/** The play slice before playing (see initialState). */
export const NO_PLAY = Object.freeze({
  active: false, placed: Object.freeze([]), given: 0, hand: null, cursor: -1, layer: 0,
  count: null, hint: null, wrong: null, where: null, challenge: '', message: '',
  history: Object.freeze({ canUndo: false, canRedo: false, undoName: '', redoName: '' }),
});
// Building the solution shown by hand (app/build-actions.js): the engine's build order of
// `grid` (solution `shown` of `store`, puzzle `puzzle`: another one on the stage closes it),
// the step drawn (0: the empty box .. buildStepCount(order)), and why there is none ('' when
// there is). instant: steps drawn without their motion (the person prefers reduced motion).
// turn: the words of the turn built instead of the solution as found (order.turned), whose grid
// and order are kept in asFound ({grid, order}) to go back to; '' and null when not turned.
export const NO_BUILD = Object.freeze({ active: false, loading: false, error: '', order: null, step: 0, grid: null, puzzle: null, store: null, shown: -1, instant: false, turn: '', asFound: null });

export function initialState() {
  return {
    engine: { status: 'loading', version: '', error: '' },
    // What the engine holds: the text it parsed and the puzzles in it. kind: 'library' (file),
    // 'mine' (id: a My puzzles entry) or 'custom' (typed or imported text).
    source: { kind: 'library', file: '', id: '', title: '', text: '', name: '' },
    puzzles: [],
    puzzleIndex: 0,
    // The definition text box: what the person typed (kept even when it does not parse).
    definition: { text: '', error: '', open: false },
    // Solver options in the CLI's option language (the controls and the text stay in step).
    // errorKey: what the error belongs to ('' | 'text' | a CONTROLS key | 'engine'; app/options-actions.js).
    options: { text: '-r', error: '', errorKey: '' },
    // The current or last search. phase is one of PHASE; reason is the worker's done reason;
    // leftRange: [least, most] seconds left of the recent projections (format.js ProjectionSpread).
    run: { phase: PHASE.LOADING, message: 'Loading the solver engine…', stats: null, startedAt: 0, elapsed: 0, reason: '', options: '', leftRange: null, elapsedBefore: 0 },
    // Solutions of the last search: store is a SolutionStore (ui/solution-store.js); shown is the
    // 0-based index drawn (-1: none); revision changes whenever solutions arrive.
    // linked: the number of a solution that came with a share link (drawn without solving), or 0;
    // reloaded: that link was the page's own address at a reload.
    solutions: NO_SOLUTIONS,
    view: { explode: 0, explodeMode: 'pieces', ...VIEW_PIECES },
    // The puzzle editor (editor-actions.js): the puzzle being edited (model/puzzle.js), the layer
    // shown in the flat grid, the selected piece, the piece drawer ({index, piece, cells, layer,
    // name}: index and piece are the piece redrawn, index -1 for a new one; or null), the
    // engine's draft checks (engine/session/draft.hpp, with `nowhere`: editor-actions.js) of the
    // puzzle checksFor (stale when it is not the puzzle being edited) and the My puzzles entry.
    // slots: the colour slot of each piece (viewer/colors.js carryColourSlots): an edit leaves
    // the other pieces' colours as they were. viewCells: clicks on the 3-D view remove and
    // restore cells (a mode the person turns on, so that a click meant to pick or turn edits nothing).
    editor: { active: false, puzzle: null, slots: null, layer: 0, selected: -1, viewCells: false, drawer: null, checks: null, checksFor: null, checkError: '', savedId: '' },
    history: { canUndo: false, canRedo: false, undoName: '', redoName: '' },
    // My puzzles kept in the browser (persist.js): [{id, title, text, savedAt}], newest first.
    myPuzzles: [],
    // Watching the search (watch-actions.js): a recording of `steps` trace events (full: the
    // window was filled and the search stopped), the replay cursor `step`, playing, the speed
    // (index into SPEEDS), a note for the last jump; revision changes with every move.
    // ended: how the recorded run ended ('finished' | 'limit' | 'cancelled' | 'full');
    // live/accuracy: the estimate of the whole search (watch-actions.js estimateAt); compare: the
    // second recording's status; showMch: frame the cell the most-constrained-hole rule would fill.
    watch: {
      active: false, recording: false, steps: 0, full: false, step: 0, playing: false, speed: 3, error: '', note: '', origin: null,
      searching: false, revision: 0, live: null, accuracy: null, compare: null, showMch: false, ended: '',
    },
    build: NO_BUILD,
    // The lesson screen (app/lesson-actions.js, lesson/lessons.js): open, the lesson's id and
    // the narrated step shown (0-based, of count), what it waits for ('' or words: "Recording the
    // search…"), the answer given to the step's check question ({right, text} or null), what
    // the step shows beside the replay (show: the step's show flags), full screen, a problem ('').
    lesson: { open: false, id: '', step: 0, count: 0, busy: '', error: '', answer: null, show: {}, fullscreen: false, details: false, revision: 0 },
    // Settings kept in the browser (persist.js): workers = solver workers sharing a search
    // (pool/solver-pool.js; main.js starts it at the saved value or one per core).
    settings: { workers: 1 },
    // The unfinished search kept in the browser (saved-search.js savedSummary), offered for
    // resuming, or null.
    saved: null,
    // Playing by hand (play-actions.js): the pieces placed, in the order placed ({instance,
    // cells}: box cells), of which the first `given` are a challenge's start and stay; the piece
    // in hand (model/play.js: {instance, cells, handle}) or null; the box cell it points at
    // (cursor, -1: none) and the layer it is put on (3-D); the engine's answers about the
    // packing `key` (model/play.js packingKey): count, hint, wrong (shapes: play-actions.js); the
    // challenge played ('' none), the culprit shown, a message and the undo/redo status.
    play: NO_PLAY,
    // A message about the page itself (storage refused, a link that could not be read), or ''.
    notice: '',
    // Damaged values of the browser's storage, set aside (app/storage-actions.js): [{key, name, message, size, copy}].
    storageIssues: [],
  };
}
