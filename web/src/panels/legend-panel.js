// The pieces of the loaded puzzle and their colours, on the canvas's bottom overlay.
import { puzzleColors } from '../viewer/colors.js';
import { byId, h } from './dom.js';
import { shownPuzzle } from '../app/selectors.js';

const MANY = 24; // above this the legend starts folded, so it does not hide the puzzle

export function mountLegendPanel(store, stage) {
  const el = { list: byId('legend'), box: byId('legend-box'), summary: byId('legend-summary') };
  el.box.addEventListener('toggle', () => stage.fitMargins());
  let drawn = null;
  store.subscribe(['puzzles', 'puzzleIndex', 'editor', 'source'], (s) => {
    const p = shownPuzzle(s).puzzle;
    if (p === drawn) return;
    drawn = p;
    if (!p) return;
    const { byPiece } = puzzleColors(p);
    const items = [];
    p.pieces.forEach((piece, i) => {
      if (piece.stationary && piece.name === '*') return;
      const extra = piece.stationary ? 'fixed' : (piece.count || 1) > 1 ? `×${piece.count}` : '';
      items.push(h('li', {},
        h('span', { className: 'swatch', style: { background: byPiece.get(i) } }),
        piece.name,
        extra ? h('span', { className: 'count' }, extra) : null));
    });
    el.list.replaceChildren(...items);
    el.box.classList.toggle('many', items.length > MANY);
    el.box.open = items.length <= MANY;
    el.summary.textContent = `Pieces (${items.length})`;
    el.box.hidden = items.length === 0;
    stage.fitMargins();
  });
}
