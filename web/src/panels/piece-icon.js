// A small drawing of a piece's shape: squares for flat pieces, little isometric cubes for 3-D
// ones. SVG built with DOM calls (names and cells never go through innerHTML).
const SVG = 'http://www.w3.org/2000/svg';

function el(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * @param {number[][]} cells [x, y, z] cells (any offset)
 * @param {string} color CSS colour
 * @param {number} [size] the drawing's larger side in px
 * @returns {SVGSVGElement}
 */
export function pieceIcon(cells, color, size = 40) {
  const svg = el('svg', { class: 'piece-icon', 'aria-hidden': 'true' });
  if (!cells.length) return svg;
  const min = [0, 1, 2].map((a) => Math.min(...cells.map((c) => c[a])));
  const pts = cells.map((c) => c.map((v, a) => v - min[a]));
  const max = [0, 1, 2].map((a) => Math.max(...pts.map((c) => c[a])));
  const flat = max[2] === 0;
  if (flat) {
    const u = Math.min(12, size / (Math.max(max[0], max[1]) + 1));
    svg.setAttribute('viewBox', `0 0 ${(max[0] + 1) * u} ${(max[1] + 1) * u}`);
    svg.setAttribute('width', String((max[0] + 1) * u));
    svg.setAttribute('height', String((max[1] + 1) * u));
    for (const [x, y] of pts) {
      svg.append(el('rect', { x: x * u + 0.5, y: (max[1] - y) * u + 0.5, width: u - 1, height: u - 1, rx: 1.5, fill: color, stroke: 'rgba(0,0,0,0.55)', 'stroke-width': 1 }));
    }
    return svg;
  }
  // isometric: x to the right-down, y to the left-down, z up; paint back to front
  const s = Math.min(8, size / (max[0] + max[1] + 2 + max[2] * 1.2));
  const hx = s * 0.866, hy = s * 0.5;
  const proj = (x, y, z) => [(x - y) * hx, (x + y) * hy - z * s];
  const order = [...pts].sort((a, b) => a[0] + a[1] - (b[0] + b[1]) || a[2] - b[2]);
  const shapes = [];
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [x, y, z] of order) {
    const faces = [
      [[x, y, z + 1], [x + 1, y, z + 1], [x + 1, y + 1, z + 1], [x, y + 1, z + 1]], // top
      [[x + 1, y, z], [x + 1, y + 1, z], [x + 1, y + 1, z + 1], [x + 1, y, z + 1]], // right
      [[x, y + 1, z], [x + 1, y + 1, z], [x + 1, y + 1, z + 1], [x, y + 1, z + 1]], // left
    ];
    faces.forEach((f, i) => {
      const p = f.map(([a, b, c]) => proj(a, b, c));
      for (const [px, py] of p) { minX = Math.min(minX, px); maxX = Math.max(maxX, px); minY = Math.min(minY, py); maxY = Math.max(maxY, py); }
      shapes.push({ p, shade: [1, 0.78, 0.6][i] });
    });
  }
  svg.setAttribute('viewBox', `${minX - 1} ${minY - 1} ${maxX - minX + 2} ${maxY - minY + 2}`);
  svg.setAttribute('width', String(Math.round(maxX - minX + 2)));
  svg.setAttribute('height', String(Math.round(maxY - minY + 2)));
  for (const { p, shade } of shapes) {
    svg.append(el('polygon', {
      points: p.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' '),
      fill: color, 'fill-opacity': 1, stroke: 'rgba(0,0,0,0.6)', 'stroke-width': 0.7,
      style: `filter: brightness(${shade})`,
    }));
  }
  return svg;
}
