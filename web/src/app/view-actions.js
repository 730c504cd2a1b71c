// Seeing the pieces: highlight, hide, isolate, labels, one layer, the flat layer
// grid and "go to solution n". Only the view slice changes here (see VIEW_PIECES in state.js);
// nothing talks to the solver. Piece arguments are indices into puzzle.pieces.
//
//   const view = new ViewActions(store, actions);
//   view.highlightPiece(3); view.hidePiece(5); view.isolatePiece(3); view.setLayer(0);
//   view.goToSolution('12');   // false (and view.gotoError says why) when 12 is not a solution
import { VIEW_PIECES } from './state.js';
import { replayOnStage, shownPuzzle } from './selectors.js';
import { num } from './format.js';

const MANY_PIECES = 20;

/**
 * The view settings a share link carries (share/link.js view; not the hover, the highlight or
 * the "go to" box): what the person chose to see, so the link shows it too.
 */
export function linkView(view) {
  const out = {};
  if (view.explode > 0) out.explode = Math.round(view.explode * 100);
  if (view.explodeMode !== 'pieces') out.explodeMode = view.explodeMode;
  if (view.labels) out.labels = 1; // names on the pieces
  if (view.layer >= 0) out.layer = view.layer;
  if (view.flat) out.flat = 1;
  if (view.isolate >= 0) out.isolate = view.isolate;
  if (view.hidden.length) out.hidden = [...view.hidden];
  if (view.camera) out.camera = [...view.camera];
  return out;
}

/**
 * The view patch for a link's settings (the inverse of linkView), for `puzzle` (model/puzzle.js):
 * what does not fit it (a layer or a piece it does not have, a wrong type) is left out.
 */
export function viewFromLink(link, puzzle) {
  const patch = {};
  const piece = (i) => puzzle && Number.isInteger(i) && i >= 0 && i < puzzle.pieces.length;
  if (typeof link.explode === 'number') patch.explode = Math.max(0, Math.min(100, link.explode)) / 100;
  if (link.explodeMode === 'layers') patch.explodeMode = 'layers';
  if (link.labels === 1) patch.labels = true;
  if (puzzle && Number.isInteger(link.layer) && link.layer >= 0 && link.layer < puzzle.zDim) patch.layer = link.layer;
  if (link.flat === 1) patch.flat = true;
  if (piece(link.isolate)) patch.isolate = link.isolate;
  if (Array.isArray(link.hidden)) {
    const hidden = [...new Set(link.hidden.filter(piece))];
    if (hidden.length) patch.hidden = hidden;
  }
  // (the camera: [azimuth, elevation, distance %, pan x, y, z], viewer.cameraView)
  const cam = link.camera;
  if (puzzle && Array.isArray(cam) && (cam.length === 3 || cam.length === 6) && cam.every(Number.isFinite)) {
    const [azimuth, elevation, percent, ...pan] = cam;
    const clamp = (x, lo, hi) => Math.max(lo, Math.min(hi, x));
    patch.camera = [((azimuth % 360) + 360) % 360, clamp(elevation, -89, 89), clamp(percent, 1, 10000), ...pan.map((x) => clamp(x, -1000, 1000))];
  }
  return patch;
}

export class ViewActions {
  constructor(store, actions) {
    this.store = store;
    this.actions = actions;
    this.labelsChosen = false; // the person's own choice, kept from puzzle to puzzle
    // A new puzzle starts with every piece shown, none highlighted, all layers.
    let puzzle = null;
    store.subscribe(['puzzles', 'puzzleIndex', 'editor', 'source'], (s) => {
      const p = shownPuzzle(s).puzzle;
      if (p === puzzle) return;
      const sameShape = puzzle && p && p.pieces.length === puzzle.pieces.length && p.zDim === puzzle.zDim;
      puzzle = p;
      if (sameShape) return; // an edit that kept the pieces: what the person chose stays
      // Past 20 pieces colours alone no longer tell every piece apart (colors.js walks the hue
      // circle): such a puzzle starts with the names on the pieces; otherwise the choice stays.
      const many = !!p && p.pieces.filter((x) => !x.stationary).reduce((n, x) => n + (x.count || 1), 0) > MANY_PIECES;
      store.update('view', { ...VIEW_PIECES, labels: this.labelsChosen || many });
    });
  }

  get view() {
    return this.store.get().view;
  }

  puzzle() {
    return shownPuzzle(this.store.get()).puzzle;
  }

  /** A piece index of the shown puzzle, or -1 for anything else. */
  piece(i) {
    const p = this.puzzle();
    return p && Number.isInteger(i) && i >= 0 && i < p.pieces.length ? i : -1;
  }

  /** The piece under the pointer (-1: none); drawn highlighted while there. */
  hoverPiece(i) {
    const k = this.piece(i);
    if (k !== this.view.hover) this.store.update('view', { hover: k });
  }

  /** Click on a piece: highlight it, or clear the highlight when it already was. */
  highlightPiece(i) {
    const k = this.piece(i);
    this.store.update('view', { highlight: k === this.view.highlight ? -1 : k });
  }

  /** Hide a piece, or show it again. */
  hidePiece(i) {
    const k = this.piece(i);
    if (k < 0) return;
    const hidden = this.view.hidden.includes(k) ? this.view.hidden.filter((x) => x !== k) : [...this.view.hidden, k];
    this.store.update('view', { hidden, isolate: this.view.isolate === k ? -1 : this.view.isolate });
  }

  /** Show this piece alone, or everything again when it already was. */
  isolatePiece(i) {
    const k = this.piece(i);
    if (k < 0) return;
    const isolate = this.view.isolate === k ? -1 : k;
    this.store.update('view', { isolate, hidden: this.view.hidden.filter((x) => x !== k), highlight: isolate >= 0 ? k : this.view.highlight });
  }

  showAllPieces() {
    this.store.update('view', { hidden: [], isolate: -1, highlight: -1, layer: -1 });
  }

  setLabels(on) {
    this.labelsChosen = !!on;
    this.store.update('view', { labels: !!on });
  }

  /** Show one z layer (0 = bottom) of a 3-D puzzle, or all of them (-1). */
  setLayer(z) {
    const p = this.puzzle();
    const layer = p && Number.isInteger(z) && z >= 0 && z < p.zDim ? z : -1;
    this.store.update('view', { layer });
  }

  setFlat(on) {
    this.store.update('view', { flat: !!on });
  }

  /** Where the person turned the camera (viewer.cameraView: null for the puzzle's own framing). */
  setCamera(camera) {
    this.store.update('view', { camera: camera ? [...camera] : null });
  }

  /**
   * Show solution number `text` (1-based, as typed). Anything that is not the number of a
   * solution found is refused with a reason in view.gotoError; returns whether it moved.
   */
  goToSolution(text) {
    const sol = this.store.get().solutions;
    const stored = sol.store ? sol.store.stored : 0;
    const t = String(text).trim().replace(/[,\s]/g, '');
    let error = '';
    if (stored === 0) error = 'No solutions to go to yet: press Solve first.';
    else if (replayOnStage(this.store.get())) error = 'The stage shows the replay: press "Stop watching" first.';
    else if (t === '') error = `Type a solution number from 1 to ${num(stored)}.`;
    else if (!/^\d+$/.test(t)) error = `"${String(text).trim().slice(0, 20)}" is not a whole number: type 1 to ${num(stored)}.`;
    else {
      const n = Number(t);
      // found but not kept (the page keeps the first MAX_STORED): said so, not "There is no solution n"
      if (n > stored && n <= sol.total) error = `Solution ${num(n)} was found but not kept: the page keeps the first ${num(stored)} solutions (the command-line solver prints every one); type 1 to ${num(stored)}.`;
      else if (n < 1 || n > stored) error = `There is no solution ${t.length > 12 ? 'that large' : num(n)}: type 1 to ${num(stored)}.`;
      else this.actions.showSolution(n - 1);
    }
    this.store.update('view', { gotoError: error });
    return !error;
  }

  clearGotoError() {
    if (this.view.gotoError) this.store.update('view', { gotoError: '' });
  }
}
