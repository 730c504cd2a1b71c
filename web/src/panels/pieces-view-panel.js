// Seeing the pieces: point at a piece in the 3-D view to highlight it, click to
// keep it highlighted (with "only this piece" / "hide it"), names on the pieces, one layer or the
// flat layer grid of a 3-D solution, "go to solution n", the PNG and STL downloads, and help text
// that speaks of touch on a touch screen. Renders the view slice; changes it via ViewActions.
import { PHASE } from '../app/state.js';
import { replayOnStage, shownPuzzle } from '../app/selectors.js';
import { downloadBlob } from './download.js';
import { flatGridPng } from './layer-grid-panel.js';
import { byId, h, setAttr, setProp, setText } from './dom.js';

const CLICK_PX = 6; // a pointer that moved further than this was turning the view, not clicking
const CAMERA_SETTLE_MS = 300; // the camera is written to the state this long after it last moved

const sameCamera = (a, b) => (!a && !b) || (!!a && !!b && a.length === b.length && a.every((x, i) => x === b[i]));

export function mountPiecesViewPanel(store, stage, view, sync = null) {
  const viewer = stage.viewer;
  const el = {
    tools: byId('picked-piece'), toolsName: byId('picked-name'), isolate: byId('piece-isolate'), hide: byId('piece-hide'),
    showAll: byId('show-all'), labels: byId('view-labels'), layerRow: byId('layer-row'), layer: byId('view-layer'), flat: byId('view-flat'),
    png: byId('export-png'), stl: byId('export-stl'), exportStatus: byId('export-status'),
    gotoForm: byId('goto-form'), gotoN: byId('goto-n'), gotoError: byId('goto-error'), help: byId('view-help'),
  };

  // The view reached with the keyboard (Tab: its focus ring shows) takes the arrow keys to turn
  // it; after a click or a drag on it they go on stepping the solutions, as the help says there.
  // (Told by the pointer pressed on it, not by :focus-visible, which a click after keys can match.)
  let focusByPointer = false;
  const keyboardOnView = () => document.activeElement === viewer.canvas && !focusByPointer;
  const markFocus = () => viewer.canvas.classList.toggle('keys', keyboardOnView());
  viewer.canvas.addEventListener('pointerdown', () => { focusByPointer = true; markFocus(); });
  viewer.canvas.addEventListener('blur', () => { focusByPointer = false; markFocus(); });
  viewer.canvas.addEventListener('focus', markFocus);

  // ---- help text: touch words on a touch screen ----
  const coarse = window.matchMedia('(pointer: coarse)');
  // (the arrows step a replay while it is on the stage: watch-panel.js; a build: build-panel.js)
  const boxed = (s) => { const p = shownPuzzle(s).puzzle; return !!p && p.zDim > 1; };
  const helpText = (s = store.get()) => {
    if (s.play.active) { // (playing by hand: panels/play-stage.js)
      setText(el.help, coarse.matches
        ? 'Tap a piece in the tray, then where it goes · tap a placed piece to take it back · swipe to rotate'
        : `Drag a piece from the tray onto the ${boxed(s) ? 'layer shown' : 'board'} · click a placed piece to take it back · R turn · ${boxed(s) ? 'F roll · T tip · PgUp/PgDn layer' : 'F flip'} · drag to rotate`);
      return;
    }
    if (shownPuzzle(s).editing) {
      const click = coarse.matches ? 'tap' : 'click';
      setText(el.help, s.editor.viewCells
        ? `Editing cells: ${click} a cell to remove it, ${click} a ghost to restore it · ${coarse.matches ? 'swipe' : 'drag'} to rotate · Done (or Esc) to stop`
        : `${coarse.matches ? 'Swipe' : 'Drag'} to rotate · ${coarse.matches ? 'pinch' : 'scroll'} to zoom · Edit cells to ${click} cells away in the view`);
      return;
    }
    const arrows = replayOnStage(s) ? 'replay steps' : s.build.active ? 'build steps' : 'solutions';
    setText(el.help, coarse.matches
      ? 'Swipe to rotate · pinch to zoom · two fingers to pan · tap a piece to pick it'
      : keyboardOnView()
        ? `View selected: arrow keys turn it · + − zoom · Tab or Esc leaves it (then ← → ${arrows})`
        : `Drag to rotate · right-drag to pan · scroll to zoom · click a piece to pick it · ← → ${arrows}`);
  };
  helpText();
  coarse.addEventListener('change', () => helpText());
  viewer.canvas.addEventListener('focus', () => helpText());
  viewer.canvas.addEventListener('blur', () => helpText());

  // ---- the keyboard on the view: arrows turn it (reached by keyboard, keyboardOnView), + and -
  // zoom (before the page's own arrow keys, which step the solutions, a replay or a build) ----
  const KEY_TURN = { ArrowLeft: [-15, 0], ArrowRight: [15, 0], ArrowUp: [0, 10], ArrowDown: [0, -10] };
  const KEY_ZOOM = { '+': 0.85, '=': 0.85, '-': 1 / 0.85, _: 1 / 0.85 };
  viewer.canvas.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Escape' && !store.get().editor.viewCells && store.get().run.phase !== PHASE.RUNNING) {
      viewer.canvas.blur(); // (Escape's other uses, ending cell editing or a search, come first)
      return;
    }
    const turn = keyboardOnView() ? KEY_TURN[e.key] : null;
    const zoom = KEY_ZOOM[e.key];
    if (!turn && !zoom) return;
    e.preventDefault();
    e.stopPropagation();
    if (turn) viewer.nudgeCamera(turn[0], turn[1], 1);
    else viewer.nudgeCamera(0, 0, zoom);
  });
  store.subscribe(['watch', 'editor', 'build', 'play'], (s) => helpText(s));

  // ---- pointing at pieces in the 3-D view ----
  const picking = () => {
    const s = store.get();
    return !shownPuzzle(s).editing && !s.play.active && !!viewer.pieces; // the editor's clicks belong to its cells, play's to its pieces
  };
  let down = null;
  viewer.canvas.addEventListener('pointermove', (e) => {
    if (e.pointerType !== 'mouse' || e.buttons !== 0 || !picking()) return;
    const hit = viewer.emphasis.pick(e.clientX, e.clientY);
    view.hoverPiece(hit ? hit.piece : -1);
  });
  viewer.canvas.addEventListener('pointerleave', () => view.hoverPiece(-1));
  viewer.canvas.addEventListener('pointerdown', (e) => { down = e.isPrimary ? { x: e.clientX, y: e.clientY } : null; });
  viewer.canvas.addEventListener('pointerup', (e) => {
    const d = down;
    down = null;
    if (!d || e.button !== 0 || !picking() || Math.hypot(e.clientX - d.x, e.clientY - d.y) > CLICK_PX) return;
    const hit = viewer.emphasis.pick(e.clientX, e.clientY);
    if (hit) view.highlightPiece(hit.piece);
    else if (store.get().view.highlight >= 0) view.highlightPiece(store.get().view.highlight); // a click beside the pieces lets go
  });

  // ---- the camera, which share links carry: the state follows the person's turning (once it
  // settles: a drag moves it every frame), and the viewer follows a camera put in the state (a
  // link opened) ----
  let cameraTimer = 0;
  const writeCamera = () => {
    clearTimeout(cameraTimer);
    cameraTimer = 0;
    const camera = viewer.cameraView();
    if (!sameCamera(camera, store.get().view.camera)) view.setCamera(camera);
  };
  viewer.controls.addEventListener('change', () => {
    clearTimeout(cameraTimer);
    cameraTimer = setTimeout(writeCamera, CAMERA_SETTLE_MS);
  });
  // a link taken while the view still glides (or within the settling delay) takes the camera
  // where the glide ends
  if (sync) sync.beforeLink(() => {
    viewer.settleCamera();
    writeCamera();
  });
  store.subscribe(['view'], (s) => {
    if (s.view.camera && !sameCamera(s.view.camera, viewer.cameraView())) viewer.setCameraView(s.view.camera);
  });

  el.isolate.addEventListener('click', () => view.isolatePiece(store.get().view.highlight));
  el.hide.addEventListener('click', () => view.hidePiece(store.get().view.highlight));
  el.showAll.addEventListener('click', () => view.showAllPieces());
  el.labels.addEventListener('change', () => view.setLabels(el.labels.checked));
  el.layer.addEventListener('change', () => view.setLayer(Number(el.layer.value)));
  el.flat.addEventListener('change', () => view.setFlat(el.flat.checked));

  // ---- go to solution n ----
  el.gotoForm.addEventListener('submit', (e) => {
    e.preventDefault();
    if (view.goToSolution(el.gotoN.value)) el.gotoN.select();
  });
  el.gotoN.addEventListener('input', () => view.clearGotoError());

  // ---- downloads ----
  const baseName = () => {
    const p = shownPuzzle(store.get()).puzzle;
    const t = (p && p.title) || 'puzzle';
    const base = t.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'puzzle';
    const sol = store.get().solutions;
    return viewer.grid && sol.shown >= 0 ? `${base}-solution-${sol.linked || sol.shown + 1}` : base;
  };
  const say = (text) => { el.exportStatus.textContent = text; };
  el.png.addEventListener('click', async () => {
    const s = store.get();
    const p = shownPuzzle(s).puzzle;
    const sol = s.solutions;
    const caption = [p && p.title, viewer.grid && sol.shown >= 0 ? `solution ${sol.linked || sol.shown + 1}` : ''].filter(Boolean).join(' · ');
    try {
      // what the stage shows: the flat layer grid when it is on screen, else the 3-D view
      const grid = byId('layer-grid');
      const blob = s.view.flat && !grid.hidden ? await flatGridPng(grid, caption) : await viewer.emphasis.pngBlob(caption);
      downloadBlob(blob, `${baseName()}.png`);
      say(`Saved ${baseName()}.png (${Math.round(blob.size / 1024)} KB).`);
    } catch (err) {
      say(`Could not make the picture: ${err.message || err}`);
    }
  });
  el.stl.addEventListener('click', () => {
    const out = viewer.emphasis.stl();
    if (!out) {
      say('No pieces are shown: solve the puzzle (or show the hidden pieces) first.');
      return;
    }
    downloadBlob(new Blob([out.data.buffer], { type: 'model/stl' }), `${baseName()}.stl`);
    say(`Saved ${baseName()}.stl: ${out.pieces} piece${out.pieces === 1 ? '' : 's'}, ${out.triangles.toLocaleString('en-US')} triangles.`);
  });

  // ---- drawing the state ----
  let layersOf = null;
  store.subscribe(['view', 'puzzles', 'puzzleIndex', 'editor', 'source', 'solutions', 'run'], (s) => {
    const v = s.view;
    const p = shownPuzzle(s).puzzle;
    viewer.emphasis.set({ highlight: v.hover >= 0 ? v.hover : v.highlight, hidden: v.hidden, isolate: v.isolate, layer: v.layer, labels: v.labels });
    viewer.canvas.style.cursor = v.hover >= 0 ? 'pointer' : '';

    const piece = p && v.highlight >= 0 ? p.pieces[v.highlight] : null;
    setProp(el.tools, 'hidden', !piece);
    if (piece) {
      el.toolsName.replaceChildren('Piece ', h('strong', {}, piece.name), (piece.count || 1) > 1 ? ` (×${piece.count})` : '');
      setText(el.isolate, v.isolate === v.highlight ? 'Show the others' : 'Only this piece');
      setAttr(el.isolate, 'aria-pressed', String(v.isolate === v.highlight));
      // (on a hidden piece the button shows it again, and says so)
      const hiddenNow = v.hidden.includes(v.highlight);
      setText(el.hide, hiddenNow ? 'Show it' : 'Hide it');
      setProp(el.hide, 'title', hiddenNow ? 'Put this piece back in the view' : 'Leave this piece out of the view');
    }
    setProp(el.showAll, 'hidden', v.hidden.length === 0 && v.isolate < 0 && v.layer < 0);
    setProp(el.labels, 'checked', v.labels);

    const threeD = !!p && p.zDim > 1;
    setProp(el.layerRow, 'hidden', !threeD);
    if (p !== layersOf) {
      layersOf = p;
      setProp(el.gotoN, 'value', ''); // a number typed for another puzzle means nothing here
      setText(el.exportStatus, '');
      const opts = [h('option', { value: '-1' }, 'all layers')];
      if (threeD) for (let z = 0; z < p.zDim; z++) opts.push(h('option', { value: String(z) }, `layer ${z + 1} only${z === 0 ? ' (bottom)' : z === p.zDim - 1 ? ' (top)' : ''}`));
      el.layer.replaceChildren(...opts);
    }
    setProp(el.layer, 'value', String(v.layer));
    setProp(el.flat, 'checked', v.flat);

    const stored = s.solutions.store ? s.solutions.store.stored : 0;
    setProp(el.gotoN, 'disabled', stored === 0);
    el.gotoForm.querySelector('button').disabled = stored === 0;
    setProp(el.gotoN, 'max', String(stored));
    setAttr(el.gotoN, 'aria-invalid', String(!!v.gotoError));
    setProp(el.gotoError, 'hidden', !v.gotoError);
    setText(el.gotoError, v.gotoError);
    setProp(el.stl, 'disabled', !p || s.run.phase === PHASE.LOADING);
  });

  // test hooks (harmless for users): what the view emphasises, where a piece can be pointed at
  if (window.__polycube) {
    Object.assign(window.__polycube, {
      view: () => ({ ...store.get().view, piecesDrawn: viewer.piecesDrawn, labelsDrawn: viewer.emphasis.labels.length, labelBoxes: viewer.emphasis.labelBoxes() }),
      pointOfPiece: (i) => viewer.emphasis.screenPointOf(i),
      pickAt: (x, y) => viewer.emphasis.pick(x, y),
      cameraNow: () => viewer.cameraView(), // where the camera is this frame (the state follows once it settles)
      // the camera stands where the state says (no write waiting: a turn and its glide are over)
      cameraSettled: () => cameraTimer === 0 && sameCamera(viewer.cameraView(), store.get().view.camera),
    });
  }
}
