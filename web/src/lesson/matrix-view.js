// Dancing links for a small puzzle, as Knuth explains it: the exact-cover matrix
// (lesson/exact-cover.js) drawn as a grid, a row per placement of a piece (its 1s are squares
// in the piece's colour), a column per cell and per piece. At each step of the replay the
// column the search chose (c) is lit; placing a row covers its columns (they darken) and the
// rows that clash with it leave the matrix, shrinking away; taking it back uncovers them and
// those rows come back, growing in again. The rows placed stay, framed. The rows shown fill the
// height, so the matrix zooms in as it empties. Drawn on a 2-D canvas, crisp at the device's
// pixel ratio; its aria-label says the matrix in words.
//
//   const view = new MatrixView(container, { colourOf: (instance) => '#e6194b', height: 'fill' });
//   view.setModel(new ExactCover(table), recording, puzzle);
//   view.setStep(player);              // the replay's TracePlayer: its step and its open levels
//   view.activeRows();                 // the rows still in the matrix (tests)
//   view.renderNow(); view.destroy();
import { CoverReplay } from './exact-cover.js';
import { cellCoords, cellLabel, layerLabel, squareLabel } from './cell-names.js';
import { num, plural } from '../app/format.js';

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", sans-serif';
const COLORS = {
  background: '#111829', stripe: '#172036', grid: 'rgba(154, 168, 194, 0.16)', header: '#b5c1d9',
  covered: 'rgba(5, 8, 16, 0.62)', chosen: '#ffd23f', placed: '#ffd23f', text: '#e7ecf5', muted: '#8190b3',
};
const PALETTE = ['#e6194b', '#3cb44b', '#ffc61a', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#b5e02f', '#ebe3cc', '#9a6324', '#ff9fb8'];
const EASE = 0.28;       // share of the way to its height a row goes per frame
const HEADER = 46;       // room for the column labels
const LABEL_W = 58;      // room for the row labels

export class MatrixView {
  /**
   * @param {HTMLElement} container
   * @param {{colourOf?: (instance: number) => string, height?: number|'fill'}} opts colourOf: a piece's
   *   colour (the 3-D view's, so both agree); height: pixels, 'fill' (the container's height, less
   *   the caption), or by default from the width (320 to 560 px)
   */
  constructor(container, { colourOf = null, height = 0 } = {}) {
    this.container = container;
    this.colourOf = colourOf;
    this.heightOption = height;
    const doc = container.ownerDocument;
    this.root = doc.createElement('figure');
    this.root.className = 'matrix-view';
    Object.assign(this.root.style, { margin: '0', display: 'flex', flexDirection: 'column', gap: '6px', minWidth: '0' });
    this.canvas = doc.createElement('canvas');
    this.canvas.setAttribute('role', 'img');
    Object.assign(this.canvas.style, { width: '100%', display: 'block', borderRadius: '8px', background: COLORS.background });
    this.caption = doc.createElement('figcaption');
    this.caption.setAttribute('aria-live', 'polite');
    Object.assign(this.caption.style, { font: `15px/1.45 ${FONT}`, color: '#c9d3e6' });
    this.root.append(this.canvas, this.caption);
    container.append(this.root);
    this.cover = null;
    this.shown = null;   // per row: how much of its height it has (0 gone .. 1 in)
    this.frame = 0;
    this.canvas.addEventListener('pointermove', (e) => { this.canvas.title = this.rowWords(this.rowAt(e.offsetY)); });
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
  }

  /** The matrix of a puzzle and the recording to replay on it. */
  setModel(cover, recording, puzzle) {
    this.cover = cover;
    this.puzzle = puzzle;
    this.replay = new CoverReplay(cover, recording);
    this.shown = new Float32Array(cover.rowCount).fill(1);
    this.chosen = -1;
    this.tried = -1;
    // rows grouped by piece, in the order of the table; a row's number within its piece
    this.rowNumber = new Int32Array(cover.rowCount);
    const seen = new Map();
    for (let r = 0; r < cover.rowCount; r++) {
      const s = cover.rowShape[r];
      seen.set(s, (seen.get(s) || 0) + 1);
      this.rowNumber[r] = seen.get(s);
    }
    this.schedule();
  }

  /** Follow the replay: the matrix after player.step events, the chosen column of its innermost open level. */
  setStep(player) {
    if (!this.cover) return;
    const jump = Math.abs(player.step - this.replay.step) > 1;
    this.replay.seek(player.step);
    const level = player.levels[player.levels.length - 1];
    this.chosen = level ? this.cover.columnOfTarget(level.target) : -1;
    const last = this.cover.placed[this.cover.placed.length - 1];
    this.tried = level && level.busy && last !== undefined ? last : -1;
    this.candidates = level && this.chosen >= 0 ? new Set(level.candidates.map((c) => c.image)) : new Set();
    if (jump) for (let r = 0; r < this.cover.rowCount; r++) this.shown[r] = this.wanted(r);
    this.describe(player);
    this.schedule();
  }

  activeRows() {
    return this.cover ? this.cover.activeRows() : [];
  }

  /** Rows drawn at full height now (once the animation has settled: the placed and the active rows). */
  drawnRows() {
    const out = [];
    if (this.shown) this.shown.forEach((h, r) => { if (h > 0.99) out.push(r); });
    return out;
  }

  wanted(r) {
    return this.cover.isRowActive(r) || this.cover.placed.includes(r) ? 1 : 0;
  }

  get animating() {
    return this.frame !== 0;
  }

  destroy() {
    cancelAnimationFrame(this.frame);
    this.resizeObserver.disconnect();
    this.root.remove();
  }

  resize() {
    const w = Math.max(160, Math.round(this.container.clientWidth));
    const opt = this.heightOption;
    const h = opt === 'fill' ? Math.max(160, this.container.clientHeight - this.caption.offsetHeight - 6)
      : opt > 0 ? opt : Math.round(Math.max(320, Math.min(560, w * 0.8)));
    if (w === this.width && h === this.height) return;
    this.width = w;
    this.height = h;
    this.dpr = (this.container.ownerDocument.defaultView || {}).devicePixelRatio || 1;
    this.canvas.width = Math.round(w * this.dpr);
    this.canvas.height = Math.round(h * this.dpr);
    this.canvas.style.height = `${h}px`;
    this.schedule();
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderNow();
    });
  }

  /** Ease the rows towards their heights and draw; goes on each frame until they are there. */
  renderNow() {
    if (!this.cover) return;
    let moving = false;
    for (let r = 0; r < this.cover.rowCount; r++) {
      const want = this.wanted(r);
      const h = this.shown[r];
      if (h === want) continue;
      const next = h + (want - h) * EASE;
      this.shown[r] = Math.abs(want - next) < 0.01 ? want : next;
      moving = true;
    }
    this.draw();
    if (moving) this.schedule();
  }

  colour(r) {
    const col = this.cover.columns[this.cover.columnOfShape.get(this.cover.rowShape[r])];
    if (this.colourOf) return this.colourOf(col.instance);
    return PALETTE[(col.instance >= 0 ? col.instance : 0) % PALETTE.length];
  }

  /** Geometry of the grid now: column width, row height, the y of each row. */
  geometry() {
    const cover = this.cover;
    const cols = cover.columns.length;
    const gap = 8; // between the cells' columns and the pieces'
    const colW = Math.max(6, Math.min(46, (this.width - LABEL_W - gap - 8) / cols));
    let total = 0;
    for (let r = 0; r < cover.rowCount; r++) total += this.shown[r];
    const rowH = Math.max(0.5, Math.min(26, (this.height - HEADER - 8) / Math.max(8, total)));
    // the grid centred in the canvas, its row labels at its left
    const left = Math.max(LABEL_W, (this.width - cols * colW - gap) / 2 + LABEL_W / 2);
    const xOf = (j) => left + j * colW + (j >= cover.cellColumns ? gap : 0);
    return { colW, rowH, xOf, gap, total, left };
  }

  draw() {
    const ctx = this.canvas.getContext('2d');
    const cover = this.cover;
    const { colW, rowH, xOf, left } = this.geometry();
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, this.width, this.height);
    const cols = cover.columns.length;
    const bottom = this.height - 4;
    const right = xOf(cols - 1) + colW;
    // the chosen column, behind everything
    if (this.chosen >= 0) {
      ctx.fillStyle = 'rgba(255, 210, 63, 0.16)';
      ctx.fillRect(xOf(this.chosen), HEADER - 4, colW, bottom - HEADER + 4);
    }
    // a stripe per row; the covered columns darken; then each row's squares, the rows placed
    // last and framed (over the darkened columns they covered)
    const ys = new Float32Array(cover.rowCount);
    let y = HEADER;
    for (let r = 0; r < cover.rowCount; r++) {
      ys[r] = y;
      const h = this.shown[r] * rowH;
      if (h >= 0.2 && r % 2 === 0) {
        ctx.fillStyle = COLORS.stripe;
        ctx.fillRect(left - 4, y, right - left + 4, h);
      }
      y += h;
    }
    for (let j = 0; j < cols; j++) {
      if (!cover.isColumnCovered(j)) continue;
      ctx.fillStyle = COLORS.covered;
      ctx.fillRect(xOf(j), HEADER - 2, colW, bottom - HEADER + 2);
    }
    const placedRows = new Set(cover.placed);
    const labels = rowH >= 9;
    const drawRow = (r) => {
      const h = this.shown[r] * rowH;
      if (h < 0.2) return;
      const placed = placedRows.has(r);
      const top = ys[r];
      ctx.globalAlpha = Math.min(1, this.shown[r] * 1.2);
      ctx.fillStyle = this.colour(r);
      const inset = Math.min(2, h * 0.15, colW * 0.12);
      for (const j of cover.rowColumns(r)) ctx.fillRect(xOf(j) + inset, top + inset, colW - 2 * inset, Math.max(0.5, h - 2 * inset));
      if (placed) {
        ctx.strokeStyle = COLORS.placed;
        ctx.lineWidth = r === this.tried ? 3 : 2;
        ctx.strokeRect(left - 3, top + 0.5, right - left + 3, Math.max(1, h - 1));
      }
      if (labels && h > 6) {
        ctx.font = `${placed ? 700 : 600} ${Math.min(14, rowH - 2)}px ${FONT}`;
        ctx.textAlign = 'right';
        ctx.textBaseline = 'middle';
        ctx.fillStyle = placed ? COLORS.placed : this.candidates.has(r) ? COLORS.text : COLORS.muted;
        ctx.fillText(`${this.pieceName(r)} ${this.rowNumber[r]}`, left - 8, top + h / 2);
        if (this.candidates.has(r) && !placed) {
          ctx.fillStyle = COLORS.chosen;
          ctx.fillText('▸', left - 44, top + h / 2);
        }
      }
    };
    for (let r = 0; r < cover.rowCount; r++) if (!placedRows.has(r)) drawRow(r);
    for (const r of cover.placed) drawRow(r);
    ctx.globalAlpha = 1;
    // the grid's column lines
    ctx.strokeStyle = COLORS.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let j = 0; j <= cols; j++) {
      const x = Math.round(j === cols ? right : xOf(j)) + 0.5;
      ctx.moveTo(x, HEADER - 4);
      ctx.lineTo(x, bottom);
    }
    ctx.stroke();
    this.drawHeader(ctx, colW, xOf);
    if (this.chosen >= 0) {
      ctx.strokeStyle = COLORS.chosen;
      ctx.lineWidth = 2.5;
      ctx.strokeRect(xOf(this.chosen) + 1, HEADER - 4, colW - 2, bottom - HEADER + 3);
    }
  }

  drawHeader(ctx, colW, xOf) {
    const cover = this.cover;
    const cols = cover.columns.length;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    // the groups of columns, named: the cells (a box's by layer), the pieces
    ctx.font = `600 12px ${FONT}`;
    ctx.fillStyle = COLORS.muted;
    const layerOf = (j) => cellCoords(this.puzzle, cover.columns[j].cell).z;
    for (let j = 0; j < cover.cellColumns;) {
      let k = j;
      while (k + 1 < cover.cellColumns && (this.puzzle.zDim === 1 || layerOf(k + 1) === layerOf(j))) k++;
      const mid = (xOf(j) + xOf(k) + colW) / 2;
      ctx.fillText(this.puzzle.zDim > 1 ? layerLabel(layerOf(j)) : 'cells', mid, 10);
      if (this.puzzle.zDim > 1 && j > 0) ctx.fillRect(xOf(j) - 1, 4, 2, HEADER - 6);
      j = k + 1;
    }
    if (cols > cover.cellColumns) ctx.fillText('pieces', (xOf(cover.cellColumns) + xOf(cols - 1) + colW) / 2, 10);
    if (colW < 14) return; // too narrow for a label per column
    ctx.font = `700 ${Math.min(13, colW * 0.5)}px ${FONT}`;
    for (let j = 0; j < cols; j++) {
      const col = cover.columns[j];
      const label = col.kind === 'cell' ? squareLabel(this.puzzle, col.cell) : this.instanceName(col.instance) + (col.copies > 1 ? `×${col.copies}` : '');
      const covered = cover.isColumnCovered(j);
      if (j === this.chosen) {
        // column c: its name on a lit tag
        const w = Math.max(colW - 2, ctx.measureText(label).width + 8);
        ctx.fillStyle = COLORS.chosen;
        ctx.beginPath();
        ctx.roundRect(xOf(j) + (colW - w) / 2, HEADER - 24, w, 20, 5);
        ctx.fill();
      }
      ctx.fillStyle = j === this.chosen ? '#1b1300' : covered ? '#4d5876' : COLORS.header;
      ctx.fillText(label, xOf(j) + colW / 2, HEADER - 14);
      if (covered) {
        // struck through: covered, out of the matrix
        const w = Math.min(colW - 4, ctx.measureText(label).width + 4);
        ctx.fillRect(xOf(j) + (colW - w) / 2, HEADER - 14, w, 1.5);
      }
    }
  }

  instanceName(instance) {
    const inst = this.puzzle && this.puzzle.instances[instance];
    return inst ? inst.name : '?';
  }

  pieceName(r) {
    return this.instanceName(this.cover.columns[this.cover.columnOfShape.get(this.cover.rowShape[r])].instance);
  }

  /** The row drawn at height y (CSS pixels), or -1. */
  rowAt(py) {
    if (!this.cover) return -1;
    const { rowH } = this.geometry();
    let y = HEADER;
    for (let r = 0; r < this.cover.rowCount; r++) {
      const h = this.shown[r] * rowH;
      if (py >= y && py < y + h) return r;
      y += h;
    }
    return -1;
  }

  rowWords(r) {
    if (r < 0) return '';
    const cover = this.cover;
    const cells = Array.from(cover.rowColumns(r)).filter((j) => j < cover.cellColumns).map((j) => cellLabel(this.puzzle, cover.columns[j].cell));
    const state = cover.placed.includes(r) ? 'placed' : cover.isRowActive(r) ? 'in the matrix' : 'out: it clashes with a row placed';
    return `Row ${this.pieceName(r)} ${this.rowNumber[r]}: piece ${this.pieceName(r)} on ${cells.join(', ')} (${state})`;
  }

  /** The matrix in words: the caption under it and the canvas's aria-label. */
  describe(player) {
    const cover = this.cover;
    const active = cover.activeRows().length;
    const coveredCols = cover.columns.filter((_, j) => cover.isColumnCovered(j)).length;
    const parts = [`${plural(cover.rowCount, 'row')} (a placement each) and ${plural(cover.columns.length, 'column')} (${plural(cover.cellColumns, 'cell')}, ${plural(cover.columns.length - cover.cellColumns, 'piece')}).`];
    parts.push(`Placed: ${cover.placed.length ? cover.placed.map((r) => `${this.pieceName(r)} ${this.rowNumber[r]}`).join(', ') : 'nothing yet'}; ${plural(coveredCols, 'column')} covered, ${plural(active, 'row')} left.`);
    if (this.chosen >= 0) {
      const col = cover.columns[this.chosen];
      const name = col.kind === 'cell' ? `cell ${cellLabel(this.puzzle, col.cell)}` : `piece ${this.instanceName(col.instance)}`;
      parts.push(`Column c = ${name}: ${plural(cover.columnSize(this.chosen), 'row')} in it.`);
    }
    const text = parts.join(' ');
    this.caption.textContent = text;
    this.canvas.setAttribute('aria-label', `Exact-cover matrix after step ${num(player.step)}: ${text}`);
  }
}
