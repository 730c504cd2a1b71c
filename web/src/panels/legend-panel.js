// The pieces of the loaded puzzle, each with its shape and colour, on the canvas's bottom overlay
// (shown before any solve). Pointing at a piece highlights it in the view; a click keeps it
// highlighted (then "only this piece" / "hide it" in the View card); hidden pieces are struck out.
import { puzzleColors } from '../viewer/colors.js';
import { byId, h, setAttr, setProp, setText } from './dom.js';
import { shownPuzzle } from '../app/selectors.js';
import { pieceIcon } from './piece-icon.js';

const MANY = 24; // above this the legend starts folded, so it does not hide the puzzle

export function mountLegendPanel(store, stage, view) {
  const el = { list: byId('legend'), box: byId('legend-box'), summary: byId('legend-summary') };
  el.box.addEventListener('toggle', () => stage.fitMargins());
  let drawn = null;
  let buttons = new Map(); // piece index -> its button
  store.subscribe(['puzzles', 'puzzleIndex', 'editor', 'source', 'view'], (s) => {
    const p = shownPuzzle(s).puzzle;
    if (p !== drawn) {
      drawn = p;
      if (!p) return;
      const { byPiece } = puzzleColors(p);
      const items = [];
      buttons = new Map();
      p.pieces.forEach((piece, i) => {
        if (piece.stationary && piece.name === '*') return;
        const extra = piece.stationary ? 'fixed' : (piece.count || 1) > 1 ? `×${piece.count}` : '';
        const button = h('button', {
          type: 'button', className: 'legend-piece', dataset: { piece: String(i) }, 'aria-pressed': 'false',
          title: `${piece.name}: point to find it, click to pick it`,
          onclick: () => view.highlightPiece(i),
          onpointerenter: (e) => { if (e.pointerType === 'mouse') view.hoverPiece(i); },
          onpointerleave: () => view.hoverPiece(-1),
        }, pieceIcon(piece.cells, byPiece.get(i), 22), h('span', { className: 'legend-name' }, piece.name),
        extra ? h('span', { className: 'count' }, extra) : null);
        buttons.set(i, button);
        items.push(h('li', {}, button));
      });
      el.list.replaceChildren(...items);
      el.box.classList.toggle('many', items.length > MANY);
      // folded on a phone too: there the chips (44 px targets) would cover half the board
      el.box.open = items.length <= MANY && !window.matchMedia('(max-width: 760px)').matches;
      setText(el.summary, `Pieces (${items.length})`);
      setProp(el.box, 'hidden', items.length === 0);
      stage.fitMargins();
    }
    const v = s.view;
    for (const [i, b] of buttons) {
      const left = v.hidden.includes(i) || (v.isolate >= 0 && v.isolate !== i);
      b.classList.toggle('lit', v.highlight === i || v.hover === i);
      b.classList.toggle('left-out', left);
      setAttr(b, 'aria-pressed', String(v.highlight === i));
      setAttr(b, 'aria-label', `${b.textContent}${left ? ' (hidden)' : ''}`);
    }
  });
}
