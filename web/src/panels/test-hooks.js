// Test hooks (harmless for users): document.body.dataset.state is the search phase ('loading' |
// 'ready' | 'running' | 'done' | 'cancelled' | 'error'); window.__polycube = { solutionsShown,
// emptyBoardsShown, piecesDrawn, currentSolution, storedSolutions, puzzle, loads, startedUp, sample(), state(),
// animating(), lastMotion() }
// where solutionsShown (emptyBoardsShown) counts drawings of a solution (of the empty board), piecesDrawn is the number of pieces in the current drawing and
// loads counts the times the phase became 'loading' (a test clicks, then waits for the count to
// grow: the phase alone may still read 'ready' from before the click), sample() reads the canvas's pixels (drawn fraction, colours); spaceCell(i) is where box cell i
// is drawn in the editor's 3-D layer, boardCell(i) where it is in the view of the puzzle shown
// (a lesson's "click the cell" questions), playCell(i) where
// it is pointed at while playing by hand; replayGrid() the piece on each cell at the replay's step;
// lessonViews() the lesson screen's tree, code and matrix views; linkSettled() whether the address
// and the session hold the state shown (a test waits for it after a change, never a fixed time);
// editorSaved() whether My puzzles holds the puzzle being edited as it is drawn.
import { cellToClient } from '../viewer/cell-pick.js';

export function mountTestHooks(store, stage, watch = null, lessonScreen = null, linkSync = null, editor = null) {
  const hooks = {
    solutionsShown: 0,
    emptyBoardsShown: 0,
    piecesDrawn: 0,
    currentSolution: 0,
    storedSolutions: 0,
    loads: 0,
    startedUp: false, // the start-up is over: the link or session restored, the kept search looked for
    puzzle: null,
    sample: () => stage.viewer.sample(),
    /** Client position of a box cell in the editor's 3-D layer (to click it), or null. */
    spaceCell: (cell) => stage.spaceLayer.cellToClient(cell),
    /** Client position of box cell i on its layer's floor while playing by hand (to point at it). */
    playCell: (cell) => (stage.playLayer ? stage.playLayer.cellToClient(cell) : null),
    /** Where the camera is ([x, y, z], rounded): whether a drag turned the view. */
    cameraAt: () => stage.viewer.camera.position.toArray().map((v) => Math.round(v * 1000) / 1000),
    /** Client position of box cell `cell` of the puzzle in the view (its centre; a board's at z = 0). */
    boardCell: (cell) => (stage.viewer.puzzle ? cellToClient(stage.viewer, stage.viewer.puzzle, cell) : null),
    state: () => store.get(),
    /** True while the view moves a piece in or out (watching the search, building). */
    animating: () => stage.viewer.animating,
    /** The motion of the last drawing ({instances, path, leaving, ms} or {instance, ...}; null: none). */
    lastMotion: () => {
      const m = stage.viewer.lastMotion;
      return m ? { instance: m.instance, instances: m.instances, path: m.path, leaving: !!m.leaving, ms: m.ms } : null;
    },
    replayGrid: () => (watch && watch.player ? Array.from(watch.player.grid) : null),
    /** The replay's recording: the op of every event, and the image table (the tests count from them). */
    replayEvent: (i) => (watch && watch.player && i >= 0 && i < watch.player.length ? watch.player.event(i) : null),
    replayOps: () => (watch && watch.player ? Array.from({ length: watch.player.length }, (_, i) => watch.player.rec.op(i)) : null),
    replayTable: () => (watch && watch.table ? Object.fromEntries(['offsets', 'cells', 'imageShapes', 'instanceShapes'].map((k) => [k, Array.from(watch.table[k])])) : null),
    /** The lesson screen's components (lesson/): tree, otherTree, code, matrix (null until shown). */
    lessonViews: () => (lessonScreen ? lessonScreen.views : null),
    /** What the replay draws over the board: edge labels, candidate outlines and solids, the tag. */
    watchLayer: () => stage.watchLayer.summary(),
    /** Whether the address and the session hold the state shown (their write follows a change by a moment). */
    linkSettled: () => (linkSync ? linkSync.settled() : true),
    /** Whether My puzzles holds the puzzle being edited as drawn (the autosave follows a pause). */
    editorSaved: () => (editor ? editor.saved() : true),
  };
  window.__polycube = hooks;
  store.subscribe('*', (s) => {
    // (written when it changes only: a write restyles the page, which the counters redraw often)
    if (document.body.dataset.state !== s.run.phase) {
      if (s.run.phase === 'loading') hooks.loads++;
      document.body.dataset.state = s.run.phase;
    }
    const p = s.puzzles[s.puzzleIndex];
    hooks.puzzle = p ? { title: p.title, xDim: p.xDim, yDim: p.yDim, zDim: p.zDim, pieces: p.instances.filter((i) => !i.stationary).length } : null;
    hooks.solutionsShown = stage.solutionsShown;
    hooks.emptyBoardsShown = stage.emptyBoardsShown;
    hooks.piecesDrawn = stage.viewer.piecesDrawn;
    hooks.currentSolution = s.solutions.shown + 1;
    hooks.storedSolutions = s.solutions.store ? s.solutions.store.stored : 0;
  });
  return hooks;
}
