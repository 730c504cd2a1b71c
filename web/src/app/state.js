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

export function initialState() {
  return {
    engine: { status: 'loading', version: '', error: '' },
    // What the engine holds: the text it parsed and the puzzles in it.
    source: { kind: 'library', file: '', title: '', text: '', name: '' },
    puzzles: [],
    puzzleIndex: 0,
    // The definition text box: what the person typed (kept even when it does not parse).
    definition: { text: '', error: '', open: false },
    // Solver options in the CLI's option language (the controls and the text stay in step).
    options: { text: '-r', error: '' },
    // The current or last search. phase is one of PHASE; reason is the worker's done reason.
    run: { phase: PHASE.LOADING, message: 'Loading the solver engine…', stats: null, startedAt: 0, elapsed: 0, reason: '', options: '' },
    // Solutions of the last search: store is a SolutionStore (ui/solution-store.js); shown is the
    // 0-based index drawn (-1: none); revision changes whenever solutions arrive.
    solutions: { store: null, total: 0, shown: -1, revision: 0 },
    view: { explode: 0, explodeMode: 'pieces' },
  };
}
