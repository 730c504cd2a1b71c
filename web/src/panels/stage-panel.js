// The 3-D stage: the viewer, the title and solution overlays on the canvas, and the View card
// (explode, reset view). Draws the current puzzle, and the solution shown when there is one.
import { Viewer } from '../viewer/viewer.js';
import { SpaceLayer } from '../viewer/space-layer.js';
import { WatchLayer, candidatesAt } from '../viewer/watch-layer.js';
import { deadEndLabel, regionOf } from '../trace/explain.js';
import { isDeadEnd } from '../trace/player.js';
import { stationaryCells } from '../trace/holes.js';
import { isDark, openCells } from '../trace/parity.js';
import { TRACE_OP } from '../worker/protocol.js';
import { SPEEDS } from '../app/watch-actions.js';
import * as commands from '../app/commands.js';
import { PHASE } from '../app/state.js';
import { dimsText, linkedWords, num, plural, titleOf } from '../app/format.js';
import { byId, isTyping, setAttr, setProp, setText } from './dom.js';
import { shownPuzzle } from '../app/selectors.js';
import { playGrid } from '../model/play.js';
import { buildStepCount, placedGrid, stepMotion, stepWords } from '../model/build-order.js';

export function mountStagePanel(store, actions, editor, watch) {
  const el = {
    viewport: byId('viewport'), title: byId('stage-title'), sub: byId('stage-sub'), solution: byId('stage-solution'),
    overlayTop: byId('overlay-top'), overlayBottom: byId('overlay-bottom'), buildCaption: byId('build-caption'),
    explodeRow: byId('explode-row'), explode: byId('explode'), explodeMode: byId('explode-mode'), resetView: byId('reset-view'),
    cellEdit: byId('view-cell-edit'), bar: byId('stage-bar'),
  };
  const viewer = new Viewer(el.viewport);
  // while a puzzle is being edited its cells can be clicked in the 3-D view too, in the "Edit
  // cells" mode only: a click meant to pick a piece or to turn the view edits nothing
  const spaceLayer = new SpaceLayer(viewer, (cell, makeHole) => editor.run(commands.paintCells(editor.target, [cell], makeHole, editor.newStroke())));
  const watchLayer = new WatchLayer(viewer, byId('watch-label'));
  // extraBottom: pixels of the view's bottom that the lesson's narration covers (panels/lesson-screen.js)
  const stage = { viewer, spaceLayer, watchLayer, solutionsShown: 0, emptyBoardsShown: 0, extraBottom: 0 };
  let spaceShown = null;
  let spaceLayerIndex = -1;

  el.explode.addEventListener('input', () => actions.setView({ explode: Number(el.explode.value) / 100 }));
  el.explodeMode.addEventListener('change', () => actions.setView({ explodeMode: el.explodeMode.value }));
  el.resetView.addEventListener('click', () => viewer.resetView());
  el.cellEdit.addEventListener('click', () => editor.setViewCells(!store.get().editor.viewCells));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented && !isTyping(e) && store.get().editor.viewCells && !store.get().editor.drawer) editor.setViewCells(false);
  });

  /**
   * Keep the puzzle clear of the overlays on the canvas when framing it; under a lesson's
   * narration the puzzle is centred in the band left above it (shift), not in the whole view.
   */
  stage.fitMargins = () => {
    // (on a phone the bottom overlay stands on the stage's bar, panels/stage-bar.js; a hidden
    // bar has no offsetParent)
    const bar = el.bar.offsetParent ? el.bar.offsetHeight : 0;
    viewer.setMargins({ top: el.overlayTop.offsetHeight + 4, bottom: el.overlayBottom.offsetHeight + bar + 8 + stage.extraBottom, shift: stage.extraBottom > 0 });
  };

  let drawnPuzzle = null;
  let drawnGrid = null;
  let overlayShown = null; // the parity lesson's puzzle or the certificate view drawn last
  let replayStep = -1;  // the replay step drawn last (a move of one step animates its piece)
  let drawnPlayer = null;
  let replayDrawn = false; // the last pieces drawn were a replay's step
  let buildDrawn = null;   // the build order drawn last, and its step (a move of one step slides its piece)
  let buildStep = 0;
  store.subscribe(['puzzles', 'puzzleIndex', 'solutions', 'view', 'run', 'editor', 'source', 'watch', 'lesson', 'build', 'play'], (s, changed) => {
    const { puzzle: p, editing } = shownPuzzle(s);
    if (p !== drawnPuzzle) {
      const sameBox = !!(p && drawnPuzzle && p.xDim === drawnPuzzle.xDim && p.yDim === drawnPuzzle.yDim && p.zDim === drawnPuzzle.zDim);
      drawnPuzzle = p;
      drawnGrid = null;
      if (p) {
        setProp(el.explodeRow, 'hidden', p.zDim < 2);
        // (the library entry's title names the loaded puzzle, not one being edited: an empty
        // title there would show the puzzle opened before, e.g. "Soma cube (editing)" over a 4x3 board)
        const fallback = editing ? '' : actions.currentEntry() && actions.currentEntry().title;
        setText(el.title, (p.title || titleOf(fallback)) + (editing ? ' (editing)' : ''));
        const n = p.instances.filter((i) => !i.stationary).length;
        setText(el.sub, `${dimsText(p)} ${p.zDim > 1 ? 'box' : 'board'} · ${plural(n, 'piece')}${p.oneSide ? ' · one-sided' : ''}`);
        stage.fitMargins();
        viewer.setPuzzle(p, { keepView: sameBox && editing });
      }
    }
    if (changed.has('view')) {
      setProp(el.explode, 'value', String(Math.round(s.view.explode * 100)));
      setProp(el.explodeMode, 'value', s.view.explodeMode);
      viewer.setExplodeMode(s.view.explodeMode);
      if (viewer.explode !== s.view.explode) viewer.setExplode(s.view.explode);
    }
    const cellMode = editing && s.editor.viewCells;
    spaceLayer.editable = cellMode;
    setProp(el.cellEdit, 'hidden', !editing);
    setAttr(el.cellEdit, 'aria-pressed', String(cellMode));
    setText(el.cellEdit, cellMode ? 'Editing cells · Done' : 'Edit cells');
    setProp(el.cellEdit, 'title', cellMode ? 'Stop editing cells in the view (Esc)' : 'Remove and restore cells by clicking them in the view');
    viewer.canvas.classList.toggle('cell-editing', cellMode);
    const space = editing ? s.editor.puzzle : null;
    if (space !== spaceShown || (space && s.editor.layer !== spaceLayerIndex)) {
      spaceShown = space;
      spaceLayerIndex = s.editor.layer;
      spaceLayer.setSpace(space, s.editor.layer);
    }
    // a lesson's step shades the board like a chessboard (the parity argument)
    const shade = s.lesson.open && s.lesson.show.shade === 'parity' && p && !editing ? p : null;
    // watching a replay: the board of the step shown, and what the step concerns
    const replay = s.watch.active && watch.player && !editing && !s.play.active ? watch.player : null;
    if (replay) {
      if (changed.has('watch') || changed.has('lesson') || drawnGrid !== replay.grid) {
        // the pieces are redrawn when the step moved (not for a note or an estimate: that
        // would cut a piece's motion short)
        if (drawnGrid !== replay.grid || replayStep !== replay.step || drawnPlayer !== replay) {
          const motion = drawnPlayer === replay ? pieceMotion(replay, replayStep, s.watch) : null;
          replayStep = replay.step;
          drawnPlayer = replay;
          drawnGrid = replay.grid;
          replayDrawn = true;
          viewer.showSolution(replay.grid, motion);
        }
        const view = watchView(watch.puzzle, replay, s.watch.origin, s.watch.showMch ? watch.mchPick() : null);
        if (shade) view.shadeCells = darkCells(shade);
        watchLayer.show(view);
        overlayShown = null;
      }
      setText(el.solution, `Step ${num(replay.step)}`);
      return;
    }
    // building the solution by hand: the box after the step shown, the step's pieces sliding in
    const build = s.build;
    const building = build.active && build.order && p && !editing && !s.play.active ? build : null;
    setProp(el.buildCaption, 'hidden', !building);
    el.overlayTop.classList.toggle('building', !!building);
    if (building) {
      if (buildDrawn !== building.order || buildStep !== building.step || !drawnGrid) {
        const grid = placedGrid(p, building.grid, building.order, building.step);
        const motion = buildDrawn === building.order
          ? stepMotion(p, building.grid, building.order, buildStep, building.step, { instant: building.instant }) : null;
        buildDrawn = building.order;
        buildStep = building.step;
        drawnGrid = grid;
        viewer.showSolution(grid, motion);
      }
      setText(el.buildCaption, stepWords(p, building.order, building.step));
      const sol = s.solutions;
      setText(el.solution, `Solution ${num(sol.linked || sol.shown + 1)}${building.turn ? ', turned' : ''} · step ${num(building.step)} of ${num(buildStepCount(building.order))}`);
      return;
    }
    buildDrawn = null;
    // a lesson's shaded board; a puzzle proved impossible: its space, and the cells its
    // certificate counts in red
    const certificate = !shade && p && !editing ? certificateView(p, s.run) : null;
    const overlay = shade || certificate;
    if (overlay !== overlayShown) {
      overlayShown = overlay;
      watchLayer.show(shade ? { puzzle: shade, shadeCells: darkCells(shade) } : certificate);
    } else if (!overlay && drawnGrid && watchLayer.objects.length) watchLayer.show(null);
    const sol = s.solutions;
    // playing by hand: the pieces placed (panels/play-stage.js draws the piece in hand)
    const playing = s.play.active && p && !editing;
    const grid = playing ? playGrid(p, s.play.placed) : p && !editing && sol.store && sol.shown >= 0 ? sol.store.get(sol.shown) : null;
    // A search of the puzzle drawn is running and has found nothing yet: the last drawing (a
    // solution of this puzzle) stays until the first solution replaces it, or the search ends
    // without one. A re-solve then goes from one solution to the next without flashing the
    // empty board, however long the setup takes, and where WebGL runs on the CPU (no GPU) the
    // workers do not pay for that frame. (The caption says no solution number meanwhile.)
    const searching = s.run.phase === PHASE.RUNNING && !sol.linked;
    // Not a replay's step, though: a search started from a replay closes it (watch-actions),
    // and its board and step badge must not stay up meanwhile.
    if (!grid && drawnGrid && searching && !replayDrawn && !playing) return;
    replayDrawn = false;
    if (grid !== drawnGrid && !(grid && drawnGrid && grid.length === drawnGrid.length && sameGrid(grid, drawnGrid))) {
      drawnGrid = grid;
      viewer.showSolution(grid);
      if (grid) stage.solutionsShown++;
      else stage.emptyBoardsShown++;
    }
    if (playing) {
      setText(el.solution, `${num(s.play.placed.length)} of ${num(p.instances.filter((i) => !i.stationary).length)} placed`);
      return;
    }
    const stored = sol.store ? sol.store.stored : 0;
    const running = s.run.phase === PHASE.RUNNING;
    setText(el.solution, !grid ? '' : sol.linked ? `Solution ${num(sol.linked)} (${linkedWords(sol.reloaded)})` : `Solution ${num(sol.shown + 1)} of ${num(stored)}${running ? ' so far' : ''}`);
  });
  return stage;
}

/**
 * What the stage shows of an impossibility proof (the engine's stats: impossible,
 * impossibleCells [[x, y, z], ...]): the open cells as faint ghosts, so that the space's shape
 * shows without a solution, the certificate's cells in red, labelled with what they are ("16
 * cells that at most 2 pieces can cover"). The same object while the stats are the same.
 */
const certificateViews = new WeakMap();
function certificateView(puzzle, run) {
  const stats = run.stats;
  if (run.phase !== PHASE.DONE || !stats || !Array.isArray(stats.impossibleCells) || !stats.impossibleCells.length) return null;
  const cached = certificateViews.get(stats);
  if (cached && cached.puzzle === puzzle) return cached;
  const { xDim: X, yDim: Y, zDim: Z } = puzzle;
  const inBox = (v, n) => Number.isInteger(v) && v >= 0 && v < n;
  const red = new Set();
  for (const c of stats.impossibleCells) {
    if (Array.isArray(c) && inBox(c[0], X) && inBox(c[1], Y) && inBox(c[2], Z)) red.add(c[0] + X * (c[1] + Y * c[2]));
  }
  const what = /the board has ([^;(]+)/.exec(String(stats.impossible || ''));
  const view = {
    puzzle,
    candidateCells: openCells(puzzle).filter((c) => !red.has(c)),
    deadCells: [...red],
    label: what ? what[1].trim() : '',
  };
  certificateViews.set(stats, view);
  return view;
}

/** The dark cells of the checkerboard colouring, once per puzzle. */
const darkOf = new WeakMap();
function darkCells(puzzle) {
  if (!darkOf.has(puzzle)) darkOf.set(puzzle, openCells(puzzle).filter((c) => isDark(puzzle, c)));
  return darkOf.get(puzzle);
}

function sameGrid(a, b) {
  if (a.buffer === b.buffer && a.byteOffset === b.byteOffset) return true;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The piece to animate when the replay moved by one step from `from`: a placement (or the undo
 * of a removal) drops in, a removal (or the undo of a placement) rises away. Only at speeds a
 * person can follow: one step at a time, or playing at up to 10 steps a second.
 */
const MOTION_MS = 260;
function pieceMotion(player, from, watch) {
  const forward = player.step === from + 1, backward = player.step === from - 1;
  if (!forward && !backward) return null;
  const speed = SPEEDS[watch.speed];
  if (watch.playing && speed > 10) return null;
  const ms = watch.playing ? Math.min(MOTION_MS, 700 / speed) : MOTION_MS;
  const ev = player.event(forward ? from : player.step);
  const placing = ev.op === TRACE_OP.PLACE, removing = ev.op === TRACE_OP.REMOVE;
  if (!placing && !removing) return null;
  const arrives = forward ? placing : removing;
  return arrives ? { instance: ev.a, ms } : { instance: ev.a, cells: player.cellsOf(ev.b), leaving: true, ms };
}

/** What to draw over the board for the replayed step (watch-layer.js). */
function watchView(puzzle, player, origin, mch) {
  const ev = player.current();
  const level = player.levels[player.levels.length - 1];
  const view = { puzzle, target: -1, deadCells: [], label: '', mchCell: mch ? mch.cell : -1, coordinates: true };
  if (level && level.target >= 0) view.target = level.target;
  // the level's candidates: the one just listed solid, the others (and, once one is placed,
  // those still to try) as outlines, with "3 of 7 left"
  view.candidates = candidatesAt(player, puzzle);
  const holes = stationaryCells(puzzle);
  // a troublesome hole being followed: drawn from the step that made it until it is cleared
  if (origin && player.step >= origin.made && player.step < origin.cleared) {
    view.deadCells = regionOf(puzzle, player.grid, holes, origin.cell);
    if (view.deadCells.length) view.label = `hole made at step ${num(origin.made)}`;
  }
  if (ev && isDeadEnd(ev.op)) {
    view.label = deadEndLabel(ev);
    if (ev.a >= 0 && ev.op !== TRACE_OP.PARITY_TRIGGER) {
      view.deadCells = ev.op === TRACE_OP.VOLUME_TRIGGER ? regionOf(puzzle, player.grid, holes, ev.a) : [ev.a];
      view.target = ev.a;
    }
  }
  return view;
}
