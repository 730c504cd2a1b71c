// The build order on paper: one picture per step (the box after the step, the step's piece in
// full colour and the earlier ones faded, its cells framed in the flat layers below) with the
// step in words. Drawn by a Viewer of its own off screen, so the stage keeps what it shows.
// As a sheet of the page to print (print stylesheet: body.printing-build shows #build-sheet
// only), or as one PNG.
//
//   const steps = await stepPictures(puzzle, solution, order, { camera, onStep });
//   showPrintSheet(sheet, title, summary, steps); window.print();
//   const blob = await sheetPng(title, summary, steps);
import { Viewer } from '../viewer/viewer.js';
import { PNG_BACKGROUND, encodePng } from '../viewer/piece-emphasis.js';
import { puzzleColors } from '../viewer/colors.js';
import { buildStepCount, placedGrid, stepInstances, stepWords } from '../model/build-order.js';
import { layerSvgs } from './layer-grid-panel.js';
import { h } from './dom.js';

const IMAGE_W = 420;  // CSS pixels of each step's 3-D picture
const IMAGE_H = 320;
const LAYER_CELL = 16; // pixels per cell of the flat layers under it
export const PRINT_BACKGROUND = '#eef1f7'; // light: the printed sheet spends little ink
const TEXT_INK = '#e7ecf5';
const MUTED_INK = '#9aa8c2';

/**
 * A picture of every step 1..N: [{step, words, image (a 2-D canvas), layers (SVG elements)}].
 * `camera`: the stage's turned view (viewer.cameraView()) or null for the puzzle's framing;
 * `background`: behind the pieces (the PNG's dark one, PRINT_BACKGROUND for paper);
 * `onStep(k, n)` is told before each step is drawn (the page yields to its event loop there).
 */
export async function stepPictures(puzzle, solution, order, { camera = null, background = PNG_BACKGROUND, onStep = () => {} } = {}) {
  const host = h('div', { style: { position: 'fixed', left: '-10000px', top: '0', width: `${IMAGE_W}px`, height: `${IMAGE_H}px` } });
  document.body.append(host);
  const viewer = new Viewer(host);
  const colors = puzzleColors(puzzle);
  const out = [];
  try {
    viewer.setMargins({ top: 6, bottom: 6, side: 6 });
    viewer.setPuzzle(puzzle);
    if (camera) viewer.setCameraView(camera);
    const n = buildStepCount(order);
    for (let k = 1; k <= n; k++) {
      await onStep(k, n);
      const grid = placedGrid(puzzle, solution, order, k);
      const instances = stepInstances(order, k);
      const pieces = new Set(instances.map((i) => puzzle.instances[i].piece));
      viewer.showSolution(grid);
      viewer.emphasis.set({ highlight: pieces.size === 1 ? [...pieces][0] : -1 });
      viewer.renderNow();
      const image = document.createElement('canvas');
      image.width = viewer.canvas.width;
      image.height = viewer.canvas.height;
      const ctx = image.getContext('2d');
      ctx.fillStyle = background;
      ctx.fillRect(0, 0, image.width, image.height);
      ctx.drawImage(viewer.canvas, 0, 0); // same task as the render: the drawing buffer still holds it
      const layers = puzzle.zDim > 1 || puzzle.xDim * puzzle.yDim <= 400
        ? layerSvgs(puzzle, grid, { cell: LAYER_CELL, colors, outline: new Set(instances) }) : [];
      out.push({ step: k, words: stepWords(puzzle, order, k), image, layers });
    }
  } finally {
    viewer.dispose();
    viewer.renderer.forceContextLoss(); // (a context per print otherwise lingers until collected)
    host.remove();
  }
  return out;
}

/** Fill `sheet` (#build-sheet) with the pictures, for the print stylesheet. */
export function showPrintSheet(sheet, title, summary, steps) {
  const figures = steps.map((s) => h('figure', { className: 'build-step' },
    h('img', { src: s.image.toDataURL('image/png'), alt: s.words, width: IMAGE_W, height: IMAGE_H }),
    s.layers.length ? h('div', { className: 'build-step-layers' }, ...s.layers.map((svg) => svg.cloneNode(true))) : null,
    h('figcaption', {}, s.words)));
  sheet.replaceChildren(h('h1', {}, title), h('p', {}, summary), h('div', { className: 'build-steps' }, ...figures));
}

/** Words broken into lines that fit `width` pixels in the context's font. */
function wrap(ctx, text, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(next).width > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** An SVG element drawn onto a 2-D context at (x, y). */
async function drawSvg(ctx, svg, x, y) {
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(svg)], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    ctx.drawImage(img, x, y);
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The sheet as one PNG: a title, the summary, then the steps in rows of up to three. */
export async function sheetPng(title, summary, steps) {
  const cols = Math.min(3, Math.max(1, steps.length));
  const pad = 16;
  const layersH = steps.some((s) => s.layers.length)
    ? Math.max(...steps.map((s) => (s.layers.length ? Number(s.layers[0].getAttribute('height')) : 0))) + 8 : 0;
  const textH = 56;
  const cellW = IMAGE_W + pad, cellH = IMAGE_H + layersH + textH + pad;
  const rows = Math.ceil(steps.length / cols);
  const measure = document.createElement('canvas').getContext('2d');
  measure.font = '14px system-ui, sans-serif';
  const summaryLines = wrap(measure, summary, cols * cellW - 2 * pad);
  const headH = 44 + summaryLines.length * 18 + 8;
  const out = document.createElement('canvas');
  out.width = cols * cellW + pad;
  out.height = headH + rows * cellH;
  const ctx = out.getContext('2d');
  ctx.fillStyle = PNG_BACKGROUND;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.textBaseline = 'top';
  ctx.fillStyle = TEXT_INK;
  ctx.font = '600 20px system-ui, sans-serif';
  ctx.fillText(title, pad, 14);
  ctx.font = '14px system-ui, sans-serif';
  ctx.fillStyle = MUTED_INK;
  summaryLines.forEach((line, i) => ctx.fillText(line, pad, 44 + i * 18));
  for (const [i, s] of steps.entries()) {
    const x = pad + (i % cols) * cellW, y = headH + Math.floor(i / cols) * cellH;
    ctx.drawImage(s.image, x, y, IMAGE_W, IMAGE_H);
    let lx = x;
    for (const svg of s.layers) {
      if (lx + Number(svg.getAttribute('width')) > x + IMAGE_W) break;
      await drawSvg(ctx, svg, lx, y + IMAGE_H + 4);
      lx += Number(svg.getAttribute('width')) + 10;
    }
    ctx.font = '13px system-ui, sans-serif';
    ctx.fillStyle = TEXT_INK;
    wrap(ctx, s.words, IMAGE_W).slice(0, 3).forEach((line, j) => ctx.fillText(line, x, y + IMAGE_H + layersH + 4 + j * 17));
  }
  return encodePng(out);
}
