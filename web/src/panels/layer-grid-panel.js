// The flat per-layer grid of a solution, like the CLI's printout: the z layers side
// by side (bottom layer first), rows from the top (y = yDim-1) down, every cell in its piece's
// colour with the piece's name in it. Shown over the 3-D view when "flat grid" is on; a click on
// a layer shows that layer only (again: all layers). Built with DOM calls (no innerHTML).
import { puzzleColors } from '../viewer/colors.js';
import { PNG_BACKGROUND, drawCaption, encodePng } from '../viewer/piece-emphasis.js';
import { shownPuzzle } from '../app/selectors.js';
import { stepInstances } from '../model/build-order.js';
import { byId, h, setProp } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const DIMMED = 0.25;
const NAME_INK = '#0b0f1a';
const CAPTION_INK = '#9aa8c2'; // styles.css --muted, as .layer-caption
const OUTLINE_INK = '#ffffff'; // the cells of the step shown while building

function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * The SVG of each z layer of `grid` (box cell -> instance, -1 empty), as the CLI prints them:
 * rows from the top (y = yDim-1) down, every cell in its piece's colour with the piece's name.
 * Options: cell (pixels), colors (puzzleColors), emphasis (a piece index drawn full, the others
 * dimmed; -1 none), hidden / isolate (pieces left out), outline (a Set of instances framed).
 */
export function layerSvgs(p, grid, { cell, colors, emphasis = -1, hidden = [], isolate = -1, outline = null }) {
  const { xDim: X, yDim: Y, zDim: Z } = p;
  const out = [];
  for (let z = 0; z < Z; z++) {
    const svg = svgEl('svg', { width: X * cell, height: Y * cell, viewBox: `0 0 ${X * cell} ${Y * cell}`, class: 'layer-svg' });
    const frames = [];
    for (let row = 0; row < Y; row++) {
      const y = Y - 1 - row; // the top row first, as the CLI prints
      for (let x = 0; x < X; x++) {
        const inst = grid[x + X * (y + Y * z)];
        const instance = p.instances[inst];
        const piece = instance ? instance.piece : -1;
        const named = instance && !(instance.stationary && instance.name === '*');
        const left = piece >= 0 && (hidden.includes(piece) || (isolate >= 0 && piece !== isolate));
        const fill = !named || left ? 'none' : `#${colors.instanceColor(inst).getHexString()}`;
        const rect = svgEl('rect', {
          x: x * cell + 0.5, y: row * cell + 0.5, width: cell - 1, height: cell - 1, rx: 2,
          fill, stroke: named ? 'rgba(0,0,0,0.45)' : 'rgba(160,180,220,0.25)',
          'fill-opacity': emphasis >= 0 && piece !== emphasis ? DIMMED : 1,
        });
        svg.append(rect);
        if (outline && outline.has(inst)) {
          frames.push(svgEl('rect', { x: x * cell + 2, y: row * cell + 2, width: cell - 4, height: cell - 4, rx: 3, fill: 'none', stroke: OUTLINE_INK, 'stroke-width': 2.5, class: 'layer-step-cell' }));
        }
        if (named && !left && cell >= 14) {
          // (the text's look in attributes, not only the page's CSS: the PNG draws the SVG alone)
          const t = svgEl('text', {
            x: x * cell + cell / 2, y: row * cell + cell / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central',
            'font-size': Math.round(cell * 0.5), class: 'layer-cell-name', fill: NAME_INK, 'font-weight': 700, 'font-family': 'system-ui, sans-serif',
            'fill-opacity': emphasis >= 0 && piece !== emphasis ? 0.35 : 1,
          });
          t.textContent = p.pieces[piece].name; // text node: names never parsed as markup
          svg.append(t);
        }
      }
    }
    svg.append(...frames); // over every cell, so no neighbour covers a frame
    out.push(svg);
  }
  return out;
}

export function mountLayerGridPanel(store, stage, view) {
  const box = byId('layer-grid');
  let drawnKey = null;

  const draw = () => {
    const s = store.get();
    const p = shownPuzzle(s).puzzle;
    const sol = s.solutions;
    const grid = p && s.view.flat && stage.viewer.grid ? stage.viewer.grid : null;
    setProp(box, 'hidden', !grid); // (not rewritten on every redraw of the counters)
    if (!grid) {
      drawnKey = null;
      return;
    }
    const v = s.view;
    const key = [p, grid, sol.shown, v.highlight, v.hover, v.hidden.join(','), v.isolate, v.layer, s.build.step, s.build.order ? 1 : 0, box.clientWidth, box.clientHeight].join('|');
    if (key === drawnKey) return;
    drawnKey = key;
    const { xDim: X, yDim: Y, zDim: Z } = p;
    const colors = puzzleColors(p);
    // cell size: all layers in one row when they fit, else wrapped, never below 12 px
    const gap = 18;
    const availW = Math.max(200, box.clientWidth - 32);
    const availH = Math.max(120, box.clientHeight - 60);
    const cell = Math.max(12, Math.min(64, Math.floor((availW - gap * (Z - 1)) / (X * Z)), Math.floor(availH / Y)));
    const emphasis = v.hover >= 0 ? v.hover : v.highlight;
    // building by hand: the pieces of the step shown framed (model/build-order.js)
    const b = s.build;
    const outline = b.active && b.order ? new Set(stepInstances(b.order, b.step)) : null;
    const svgs = layerSvgs(p, grid, { cell, colors, emphasis, hidden: v.hidden, isolate: v.isolate, outline });
    const layers = [];
    for (let z = 0; z < Z; z++) {
      const svg = svgs[z];
      const label = Z > 1 ? `Layer ${z + 1}${z === 0 ? ' (bottom)' : z === Z - 1 ? ' (top)' : ''}` : 'The board';
      const fig = h('button', {
        type: 'button', className: `layer-fig${v.layer === z ? ' chosen' : ''}`, dataset: { layer: String(z) },
        title: Z > 1 ? (v.layer === z ? 'Show all layers' : 'Show this layer only') : '',
        'aria-pressed': Z > 1 ? String(v.layer === z) : undefined,
        onclick: () => { if (Z > 1) view.setLayer(v.layer === z ? -1 : z); },
      }, svg, h('span', { className: 'layer-caption' }, label));
      layers.push(fig);
    }
    box.replaceChildren(...layers);
  };

  store.subscribe(['view', 'solutions', 'puzzles', 'puzzleIndex', 'editor', 'source', 'build'], draw);
  new ResizeObserver(() => draw()).observe(box.parentElement);
}

/**
 * The flat layer grid as shown in `box` (#layer-grid), as a PNG: each layer's SVG and caption
 * where the page lays them out, on the 3-D export's background, with `caption` above: the PNG
 * export saves what is on screen, this grid when it is shown, not the 3-D view under it.
 * @returns {Promise<Blob>}
 */
export async function flatGridPng(box, caption) {
  const top = caption ? 40 : 12;
  const origin = box.getBoundingClientRect();
  const figs = [...box.querySelectorAll('.layer-fig')].map((fig) => ({
    svg: fig.querySelector('svg'), label: fig.querySelector('.layer-caption'),
  }));
  const rectOf = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left - origin.left, y: r.top - origin.top, w: r.width, h: r.height };
  };
  const placed = figs.map(({ svg, label }) => ({ svg, label: label.textContent, at: rectOf(svg), labelAt: rectOf(label) }));
  const left = Math.min(...placed.map((p) => Math.min(p.at.x, p.labelAt.x)));
  const right = Math.max(...placed.map((p) => Math.max(p.at.x + p.at.w, p.labelAt.x + p.labelAt.w)));
  const first = Math.min(...placed.map((p) => Math.min(p.at.y, p.labelAt.y)));
  const last = Math.max(...placed.map((p) => Math.max(p.at.y + p.at.h, p.labelAt.y + p.labelAt.h)));
  const pad = 16;
  const out = document.createElement('canvas');
  out.width = Math.ceil(right - left + 2 * pad);
  out.height = Math.ceil(last - first + top + pad);
  const ctx = out.getContext('2d');
  ctx.fillStyle = PNG_BACKGROUND;
  ctx.fillRect(0, 0, out.width, out.height);
  const dx = pad - left, dy = top - first;
  for (const p of placed) {
    const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(p.svg)], { type: 'image/svg+xml' }));
    try {
      const img = new Image();
      img.src = url;
      await img.decode();
      ctx.drawImage(img, p.at.x + dx, p.at.y + dy, p.at.w, p.at.h);
    } finally {
      URL.revokeObjectURL(url);
    }
    ctx.font = '600 12px system-ui, sans-serif';
    ctx.fillStyle = CAPTION_INK;
    ctx.textBaseline = 'top';
    ctx.fillText(p.label, p.labelAt.x + dx, p.labelAt.y + dy);
  }
  drawCaption(ctx, caption);
  return encodePng(out);
}
