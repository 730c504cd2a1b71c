// Playing by hand on the stage: what the play layer draws (viewer/play-layer.js: the piece in
// hand, the hint, the culprit, the layer) and the pointer on the 3-D view while playing:
//   - the piece in hand follows the pointer (the cell on the chosen layer under it);
//   - a click or a tap puts it down there (a tap on a phone: tap a piece in the tray, then tap
//     where it goes);
//   - with nothing in hand, a click on a placed piece takes it back into the hand, and a drag
//     of it moves it (the view does not turn meanwhile); any other drag turns the view.
// carryFromTray(instance, event, element) is the drag of a piece from the tray (play-panel.js):
// the piece follows the pointer over the view and lands where it is let go.
import { playGrid, handPositions, placeShares } from '../model/play.js';
import { PlayLayer } from '../viewer/play-layer.js';
import { puzzleColors } from '../viewer/colors.js';

const CLICK_PX = 6; // a pointer that moved further than this was dragging, not clicking

export function mountPlayStage(store, stage, play) {
  const viewer = stage.viewer;
  const layer = new PlayLayer(viewer);
  stage.playLayer = layer;
  let colours = null;
  let coloursFor = null;

  const active = () => store.get().play.active;
  // the cell under a point of the page on the play layer (-1: off the box, or off the view)
  const cellUnder = (x, y) => {
    const r = viewer.canvas.getBoundingClientRect();
    if (x < r.left || x > r.right || y < r.top || y > r.bottom) return -1;
    return layer.cellAt(x, y, store.get().play.layer);
  };

  // ---- drawing ----
  store.subscribe(['play', 'puzzles', 'puzzleIndex'], (s) => {
    const p = play.puzzle;
    if (!s.play.active || !p) {
      if (layer.puzzle) layer.show(null);
      return;
    }
    if (coloursFor !== p) {
      colours = puzzleColors(p);
      coloursFor = p;
    }
    const ps = s.play;
    const aim = play.aim();
    const hand = ps.hand && ps.cursor >= 0
      ? { positions: handPositions(p, ps.hand, ps.cursor), ok: aim.ok, color: colours.instanceColor(ps.hand.instance) }
      : null;
    const where = ps.where && ps.where.status === 'done' && ps.where.places.length && !ps.placed.some((q) => q.instance === ps.where.instance)
      ? ps.where : null;
    // (the place "Where can it go?" shows is drawn as a hint is: pale blocks)
    const hint = where ? { cells: where.places[where.index].cells, color: colours.instanceColor(where.instance) }
      : ps.hint && ps.hint.status === 'done' && !ps.placed.some((q) => q.instance === ps.hint.instance)
        ? { cells: ps.hint.cells, color: colours.instanceColor(ps.hint.instance) } : null;
    const wrong = ps.wrong && ps.wrong.status === 'done' && !ps.wrong.completable ? ps.wrong : null;
    const culprit = wrong && wrong.culprit >= 0 ? (ps.placed.find((q) => q.instance === wrong.culprit) || { cells: [] }).cells
      : wrong && wrong.keep >= 0 ? ps.placed.slice(Math.max(wrong.keep, ps.given)).flatMap((q) => q.cells) : null;
    // (and where the piece lies in the ways to finish: a dot per cell, bigger where more)
    const shares = where ? { cells: placeShares(where.places, where.completions), color: colours.instanceColor(where.instance) } : null;
    layer.show({ puzzle: p, hand, hint, culprit, shares, layer: ps.layer });
  });

  // ---- the pointer on the view ----
  let down = null; // {x, y, id, piece: instance under it (nothing in hand), cell, lifted}
  const viewport = viewer.container;
  // (capture phase: before the orbit controls, which must not turn the view while a piece moves)
  viewport.addEventListener('pointerdown', (e) => {
    if (!active() || !e.isPrimary || e.button !== 0 || e.target !== viewer.canvas) return;
    const s = store.get().play;
    const hit = s.hand ? null : viewer.emphasis.pick(e.clientX, e.clientY);
    const placed = hit && s.placed.findIndex((q) => q.instance === hit.instance);
    const movable = hit && placed >= s.given;
    down = { x: e.clientX, y: e.clientY, id: e.pointerId, piece: movable ? hit.instance : -1, given: hit && placed >= 0 && placed < s.given ? hit.instance : -1, cell: cellUnder(e.clientX, e.clientY), lifted: false };
    // (with a piece in hand a drag still turns the view, and a click puts the piece down)
    if (movable) viewer.controls.enabled = false;
  }, true);
  viewer.canvas.addEventListener('pointermove', (e) => {
    if (!active()) return;
    const d = down && down.id === e.pointerId ? down : null;
    if (d && d.piece >= 0 && !d.lifted && Math.hypot(e.clientX - d.x, e.clientY - d.y) > CLICK_PX) {
      d.lifted = play.pickUp(d.piece, pieceCellUnder(d), { drag: true });
    }
    if (store.get().play.hand && (e.pointerType === 'mouse' || d)) play.setCursor(cellUnder(e.clientX, e.clientY));
  });
  // the cell of the piece that was under the pointer when it went down (its handle)
  const pieceCellUnder = (d) => {
    const s = store.get().play;
    const q = s.placed.find((p) => p.instance === d.piece);
    if (!q) return -1;
    // the piece's cell nearest the point it was taken by, on its own layer
    let best = q.cells[0], bestD = Infinity;
    for (const c of q.cells) {
      const at = layer.cellToClient(c);
      const dist = at ? Math.hypot(at.x - d.x, at.y - d.y) : Infinity;
      if (dist < bestD) { best = c; bestD = dist; }
    }
    return best;
  };
  viewer.canvas.addEventListener('pointerleave', (e) => {
    if (active() && e.pointerType === 'mouse' && !down) play.setCursor(-1);
  });
  const release = (e, cancelled) => {
    const d = down && down.id === e.pointerId ? down : null;
    down = null;
    viewer.controls.enabled = true;
    if (!d || cancelled || !active()) return;
    const cell = cellUnder(e.clientX, e.clientY);
    if (d.lifted) {
      if (cell >= 0) play.placeAt(cell);
      return;
    }
    if (Math.hypot(e.clientX - d.x, e.clientY - d.y) > CLICK_PX) return; // the view was turned
    const s = store.get().play;
    if (s.hand) {
      play.setCursor(cell);
      if (cell >= 0) play.placeAt(cell);
    } else if (d.piece >= 0) {
      play.pickUp(d.piece, pieceCellUnder(d));
    } else if (d.given >= 0) {
      play.pickUp(d.given); // (says that the challenge's pieces stay)
    }
  };
  viewer.canvas.addEventListener('pointerup', (e) => release(e, false));
  viewer.canvas.addEventListener('pointercancel', (e) => release(e, true));

  /** A piece dragged from the tray: it follows the pointer and lands where it is let go. */
  function carryFromTray(instance, e, element) {
    if (!active() || e.button !== 0 || e.pointerType !== 'mouse') return; // (a finger taps: play-panel.js)
    play.pick(instance);
    const start = { x: e.clientX, y: e.clientY };
    let moved = false;
    try { element.setPointerCapture(e.pointerId); } catch { /* a pointer already released */ }
    const move = (ev) => {
      if (ev.pointerId !== e.pointerId) return;
      if (!moved && Math.hypot(ev.clientX - start.x, ev.clientY - start.y) > CLICK_PX) moved = true;
      if (moved) play.setCursor(cellUnder(ev.clientX, ev.clientY));
    };
    const end = (ev) => {
      if (ev.pointerId !== e.pointerId) return;
      element.removeEventListener('pointermove', move);
      element.removeEventListener('pointerup', end);
      element.removeEventListener('pointercancel', end);
      if (!moved || ev.type === 'pointercancel') return; // a tap: the piece stays in hand
      const cell = cellUnder(ev.clientX, ev.clientY);
      if (cell >= 0) play.placeAt(cell);
      else play.drop(); // let go beside the view: back to the tray
    };
    element.addEventListener('pointermove', move);
    element.addEventListener('pointerup', end);
    element.addEventListener('pointercancel', end);
  }

  return { layer, carryFromTray, grid: (s) => playGrid(play.puzzle, s.play.placed) };
}
