// A flat grid of cells to click and drag over: the editor's space (one layer of the box) and its
// piece drawer. SVG, one rect per cell; rows drawn top-down from y = rows-1 like the definition
// format's L blocks. Painting: pointer down on a cell starts a stroke whose mode (set or clear)
// comes from that cell, dragging applies the same mode to every cell passed over. Keyboard: the
// grid is one tab stop; arrows move a cursor, Space or Enter toggles the cell under it.
// A stroke follows the pointer's movement over the grid as it lay when the stroke began: a change
// the first cell makes elsewhere on the page (a line added above) can move the grid under a
// pointer that has not moved, and a click must still change the one cell pressed. A scroll
// during the stroke (the wheel turned while dragging) is the person's own move: the stroke then
// follows the grid where it lies, and the cell that came under the pointer is passed over.
// Cells are as large as the width the grid is given allows (the parent's), up to 34 px with a
// mouse, and up to a 44 px target on a phone or touch screen, like the page's other controls
// there (smaller cells leave a small board a fraction of a phone's width). Wider boards shrink to fit
// that width, never wider: the page does not scroll sideways. On a phone or touch screen, a
// board that would shrink below TOUCH_MIN_FIT_PX a cell (too small to tap) keeps its
// 44 px cells and scrolls sideways inside its frame instead: a sideways swipe scrolls, a tap
// changes the cell tapped, a drag up or down paints (a touch is told apart by its first move).
//
//   const grid = createCellGrid({ label: 'Layer 1 of the box', onStroke(cells, set) {...}, onStrokeStart() {...} });
//   grid.render({ cols, rows, state: (x, y) => 'open' | 'hole' | 'on' | 'off' | 'fixed', color: (x, y) => css|null, text: (x,y) => '' });
//   parent.append(grid.container);   // the grid (grid.element, the svg) in its frame, with its hint
const SVG = 'http://www.w3.org/2000/svg';
const MAX_CELL_PX = 34;
const TOUCH_CELL_PX = 46; // a 44 px rect: each cell keeps a 1 px gap on every side
const MIN_CELL_PX = 9;
const TOUCH_MIN_FIT_PX = 32; // fitted smaller than this on a touch layout: the grid scrolls instead
const TAP_SLOP_PX = 8;       // a touch that moves less than this is a tap
// the layouts whose controls are 44 px targets (styles.css: a narrow window or a coarse pointer)
const touchSized = window.matchMedia('(max-width: 760px), (pointer: coarse)');
// What a cell's state means, as a screen reader says it (the space: open or removed; a piece's
// drawer: on or off, 'other' on another layer; 'fixed': a stationary piece's, named after it).
const STATE_WORDS = { open: 'in the space', hole: 'removed', on: 'in the piece', off: 'empty', other: 'empty (the piece has a cell on another layer here)', fixed: 'fixed piece' };
let grids = 0; // a prefix per grid for its cells' ids (aria-activedescendant)

/** `maxWidth`: the widest the grid is drawn with a mouse (a touch screen takes the whole width given). */
export function createCellGrid({ label, onStroke, onStrokeStart = () => {}, maxWidth = 300 }) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'cell-grid');
  svg.setAttribute('role', 'grid');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('tabindex', '0');
  // Read by a screen reader as a grid of labelled cells: rows of gridcells, the keyboard's cursor
  // the active descendant, so that the reader announces the cell as the cursor moves.
  const idPrefix = `cell-grid-${++grids}`;
  // the frame the grid scrolls in when it is wider than the width given, and the hint that says so
  const frame = document.createElement('div');
  frame.className = 'cell-grid-frame';
  frame.append(svg);
  const swipeHint = document.createElement('p');
  swipeHint.className = 'hint cell-grid-swipe';
  swipeHint.hidden = true;
  swipeHint.textContent = 'The board is wider than the screen: swipe sideways on it to see the rest; tap a cell, or drag up or down, to change cells.';
  const container = document.createElement('div');
  container.append(swipeHint, frame);
  let scrolls = false; // drawn wider than the width given (touch layouts only): the frame scrolls
  let pending = null;  // scrolling, a touch not yet a tap, a paint stroke or a swipe: {cell, x, y, id}
  let view = { cols: 0, rows: 0, state: () => 'open', color: () => null, text: () => '' };
  let rects = [];
  let cursor = { x: 0, y: 0 };
  let stroke = null; // { set: boolean, seen: Set<string>, origin: DOMRect at pointer down, last: [x, y] }
  let cellPx = MAX_CELL_PX; // the drawn size of a cell, in the svg's own units

  const cellAt = (target) => {
    const d = target && target.dataset;
    return d && d.x !== undefined ? { x: Number(d.x), y: Number(d.y) } : null;
  };
  const isSet = (state) => state === 'open' || state === 'on';

  function apply(cell) {
    const key = `${cell.x},${cell.y}`;
    if (stroke.seen.has(key)) return;
    stroke.seen.add(key);
    // a stroke sets cells that are not set, clears cells that are: only cells it would change
    if (view.state(cell.x, cell.y) === 'fixed') return;
    if (isSet(view.state(cell.x, cell.y)) === stroke.set) return;
    onStroke([cell], stroke.set);
  }

  /**
   * The cell at a client point, placed against the grid as it lay at pointer down (null off the
   * grid or in the gap between two cells, like the rects' own hit areas).
   */
  function cellAtPoint(px, py) {
    const { origin } = stroke;
    const scale = origin.width / Math.max(1, view.cols * cellPx); // CSS pixels per svg unit
    const u = (px - origin.left) / scale, v = (py - origin.top) / scale;
    const col = Math.floor(u / cellPx), row = Math.floor(v / cellPx);
    if (col < 0 || col >= view.cols || row < 0 || row >= view.rows) return null;
    const du = u - col * cellPx, dv = v - row * cellPx;
    if (du < 1 || du > cellPx - 1 || dv < 1 || dv > cellPx - 1) return null;
    return { x: col, y: view.rows - 1 - row };
  }

  /** A stroke starts on `cell`, pressed at client point (x, y) by pointer `id`. */
  function beginStroke(cell, x, y, id) {
    if (id !== undefined) svg.setPointerCapture(id);
    stroke = { set: !isSet(view.state(cell.x, cell.y)), seen: new Set(), origin: svg.getBoundingClientRect(), last: [x, y] };
    // (capture: a scroll event does not bubble; the page's and every scrolling panel's reach here)
    document.addEventListener('scroll', followScroll, { capture: true, passive: true });
    cursor = cell;
    onStrokeStart();
    apply(cell);
  }

  svg.addEventListener('pointerdown', (e) => {
    const cell = cellAt(e.target);
    if (!cell || e.button !== 0 || view.state(cell.x, cell.y) === 'fixed') return;
    if (scrolls && e.pointerType === 'touch') {
      // the browser may take this touch for a sideways swipe (touch-action: pan-x): wait for
      // its first move, or its end (a tap), before changing anything
      pending = { cell, x: e.clientX, y: e.clientY, id: e.pointerId };
      return;
    }
    e.preventDefault();
    beginStroke(cell, e.clientX, e.clientY, e.pointerId);
  });
  // A quick drag delivers few (coalesced) move events: walk the segment from the last point in
  // small steps so that no cell passed over is skipped.
  const STEP_PX = 4;
  function passOver(x, y) {
    const [x0, y0] = stroke.last;
    if (x === x0 && y === y0) return; // not moved: nothing new passed over
    const n = Math.max(1, Math.ceil(Math.hypot(x - x0, y - y0) / STEP_PX));
    for (let k = 1; k <= n; k++) {
      const cell = cellAtPoint(x0 + ((x - x0) * k) / n, y0 + ((y - y0) * k) / n);
      if (cell) apply(cell);
    }
    stroke.last = [x, y];
  }
  svg.addEventListener('pointermove', (e) => {
    if (pending && e.pointerId === pending.id) {
      const dx = e.clientX - pending.x, dy = e.clientY - pending.y;
      if (Math.hypot(dx, dy) < TAP_SLOP_PX) return;
      const p = pending;
      pending = null;
      if (Math.abs(dy) <= Math.abs(dx)) return; // sideways: the browser scrolls (or it was not a paint)
      beginStroke(p.cell, p.x, p.y, p.id); // up or down: a paint stroke from the cell first touched
    }
    if (!stroke) return;
    const events = typeof e.getCoalescedEvents === 'function' && e.getCoalescedEvents().length ? e.getCoalescedEvents() : [e];
    for (const ev of events) passOver(ev.clientX, ev.clientY);
  });
  function followScroll() {
    if (!stroke) return;
    stroke.origin = svg.getBoundingClientRect();
    const cell = cellAtPoint(...stroke.last);
    if (cell) apply(cell);
  }
  const end = (e) => {
    if (pending && e && e.type === 'pointerup' && e.pointerId === pending.id) beginStroke(pending.cell, pending.x, pending.y); // a tap
    pending = null; // (pointercancel: the browser took the touch for a swipe)
    if (stroke && e && e.type === 'pointerup') passOver(e.clientX, e.clientY);
    stroke = null;
    document.removeEventListener('scroll', followScroll, { capture: true });
  };
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);
  svg.addEventListener('keydown', (e) => {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (e.key in moves) {
      const [dx, dy] = moves[e.key];
      cursor = { x: Math.max(0, Math.min(view.cols - 1, cursor.x + dx)), y: Math.max(0, Math.min(view.rows - 1, cursor.y + dy)) };
      drawCursor();
    } else if (e.key === ' ' || e.key === 'Enter') {
      if (view.state(cursor.x, cursor.y) !== 'fixed') {
        onStrokeStart();
        onStroke([cursor], !isSet(view.state(cursor.x, cursor.y)));
      }
    } else return;
    e.preventDefault();
  });
  svg.addEventListener('focus', drawCursor);
  svg.addEventListener('blur', drawCursor);

  function drawCursor() {
    let active = null;
    rects.forEach((r) => {
      const here = Number(r.dataset.x) === cursor.x && Number(r.dataset.y) === cursor.y;
      if (here) active = r;
      r.classList.toggle('cursor', document.activeElement === svg && here);
    });
    if (active) svg.setAttribute('aria-activedescendant', active.id);
    else svg.removeAttribute('aria-activedescendant');
  }

  /** The size of a cell for `cols` columns in the width the grid has now, and whether it scrolls. */
  function layout(cols) {
    const given = container.parentElement ? container.parentElement.clientWidth : 0; // 0: not laid out (hidden)
    const touch = touchSized.matches;
    const width = touch ? given || maxWidth : Math.min(maxWidth, given || maxWidth);
    const fit = Math.floor(width / Math.max(1, cols));
    if (touch && given > 0 && fit < TOUCH_MIN_FIT_PX) return { cell: TOUCH_CELL_PX, scrolls: true };
    return { cell: Math.max(MIN_CELL_PX, Math.min(touch ? TOUCH_CELL_PX : MAX_CELL_PX, fit)), scrolls: false };
  }

  // The width given changes with the window (a phone turned, a window narrowed past 760 px), and
  // a grid drawn while its card is hidden has none yet: redraw the cells at the size that fits.
  let watched = null;
  const resized = new ResizeObserver(() => {
    if (!view.cols) return;
    const next = layout(view.cols);
    if (next.cell !== cellPx || next.scrolls !== scrolls) render(view);
  });

  function render(next) {
    const { cols, rows } = next;
    const fitted = layout(cols);
    const cell = fitted.cell;
    const sizeChanged = cols !== view.cols || rows !== view.rows || cell !== cellPx;
    view = { color: () => null, text: () => '', ...next };
    cellPx = cell;
    if (fitted.scrolls !== scrolls) {
      scrolls = fitted.scrolls;
      frame.classList.toggle('scrolls', scrolls);
      svg.classList.toggle('scrolls', scrolls);
      swipeHint.hidden = !scrolls;
    }
    if (container.parentElement !== watched) {
      if (watched) resized.unobserve(watched);
      watched = container.parentElement;
      if (watched) resized.observe(watched);
    }
    if (sizeChanged) {
      svg.replaceChildren();
      rects = [];
      svg.setAttribute('viewBox', `0 0 ${cols * cell} ${rows * cell}`);
      svg.setAttribute('width', String(cols * cell));
      svg.setAttribute('height', String(rows * cell));
      for (let r = 0; r < rows; r++) {
        const row = document.createElementNS(SVG, 'g');
        row.setAttribute('role', 'row');
        svg.append(row);
        for (let x = 0; x < cols; x++) {
          const y = rows - 1 - r;
          const g = document.createElementNS(SVG, 'g');
          g.setAttribute('role', 'none');
          const rect = document.createElementNS(SVG, 'rect');
          rect.id = `${idPrefix}-${x}-${y}`;
          rect.setAttribute('role', 'gridcell');
          rect.setAttribute('x', String(x * cell + 1));
          rect.setAttribute('y', String(r * cell + 1));
          rect.setAttribute('width', String(cell - 2));
          rect.setAttribute('height', String(cell - 2));
          rect.setAttribute('rx', '3');
          rect.dataset.x = String(x);
          rect.dataset.y = String(y);
          const t = document.createElementNS(SVG, 'text');
          t.setAttribute('x', String(x * cell + cell / 2));
          t.setAttribute('y', String(r * cell + cell / 2 + 4));
          t.setAttribute('text-anchor', 'middle');
          t.setAttribute('font-size', String(Math.max(8, Math.min(13, cell * 0.45))));
          t.setAttribute('pointer-events', 'none');
          t.setAttribute('aria-hidden', 'true'); // (the cell's label says it)
          g.append(rect, t);
          row.append(g);
          rects.push(rect);
        }
      }
      cursor = { x: Math.min(cursor.x, cols - 1), y: Math.min(cursor.y, rows - 1) };
    }
    for (const rect of rects) {
      const x = Number(rect.dataset.x), y = Number(rect.dataset.y);
      const state = view.state(x, y);
      rect.setAttribute('class', `cell ${state}`);
      const color = view.color(x, y);
      if (color) rect.style.fill = color;
      else rect.style.removeProperty('fill');
      rect.nextSibling.textContent = view.text(x, y) || '';
      const text = view.text(x, y);
      rect.setAttribute('aria-label', `x ${x + 1}, y ${y + 1}: ${STATE_WORDS[state] || state}${text ? ` ${text}` : ''}`);
    }
    drawCursor();
  }

  return { element: svg, container, render };
}
