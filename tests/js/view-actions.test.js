// ViewActions (web/src/app/view-actions.js) in Node with the real store: piece choices, layers,
// the reset on a new puzzle, and "go to solution n" refusing everything that is not a solution.
import { describe, expect, test } from 'vitest';
import { Store } from '../../web/src/app/store.js';
import { initialState } from '../../web/src/app/state.js';
import { ViewActions, linkView, viewFromLink } from '../../web/src/app/view-actions.js';

const piece = (name) => ({ name, cells: [[0, 0, 0]], stationary: false, count: 1 });
const puzzle = (z = 3) => ({ title: 't', xDim: 3, yDim: 3, zDim: z, pieces: [piece('A'), piece('B'), piece('C')], instances: [] });

function setup({ stored = 0, total = stored } = {}) {
  const store = new Store(initialState());
  const shown = [];
  const actions = { showSolution: (k) => { shown.push(k); store.update('solutions', { shown: k }); } };
  const view = new ViewActions(store, actions);
  store.replace({ puzzles: [puzzle()], puzzleIndex: 0 });
  if (stored) store.update('solutions', { store: { stored }, total, shown: 0 });
  return { store, view, shown, v: () => store.get().view };
}

describe('ViewActions', () => {
  test('highlight toggles, hide and isolate exclude each other, show all clears', () => {
    const { view, v } = setup();
    view.highlightPiece(1);
    expect(v().highlight).toBe(1);
    view.highlightPiece(1);
    expect(v().highlight).toBe(-1);
    view.highlightPiece(7); // not a piece
    expect(v().highlight).toBe(-1);
    view.hidePiece(2);
    expect(v().hidden).toEqual([2]);
    view.isolatePiece(2); // isolating a hidden piece shows it
    expect(v()).toMatchObject({ isolate: 2, hidden: [], highlight: 2 });
    view.hidePiece(2);
    expect(v()).toMatchObject({ isolate: -1, hidden: [2] });
    view.setLayer(2);
    expect(v().layer).toBe(2);
    view.setLayer(3); // the box has layers 0..2
    expect(v().layer).toBe(-1);
    view.setLayer(1);
    view.showAllPieces();
    expect(v()).toMatchObject({ hidden: [], isolate: -1, highlight: -1, layer: -1 });
  });

  test('a new puzzle starts with every piece shown (labels stay as chosen)', () => {
    const { store, view, v } = setup();
    view.hidePiece(0);
    view.setLabels(true);
    view.setLayer(1);
    store.replace({ puzzles: [puzzle(1)], puzzleIndex: 0 });
    expect(v()).toMatchObject({ hidden: [], layer: -1, labels: true });
    view.setLabels(false);
    const many = { ...puzzle(1), pieces: Array.from({ length: 35 }, (_, i) => piece(`H${i}`)) };
    store.replace({ puzzles: [many], puzzleIndex: 0 });
    expect(v().labels).toBe(true); // 35 pieces: names on them from the start
    store.replace({ puzzles: [puzzle()], puzzleIndex: 0 });
    expect(v().labels).toBe(false); // back to 3 pieces: the person's choice (off) again
  });

  test('go to solution n: only whole numbers from 1 to the solutions stored move', () => {
    const none = setup();
    expect(none.view.goToSolution('1')).toBe(false);
    expect(none.v().gotoError).toMatch(/Solve/);
    const { view, v, shown } = setup({ stored: 2339 });
    expect(view.goToSolution(' 1,234 ')).toBe(true);
    expect(shown).toEqual([1233]);
    expect(v().gotoError).toBe('');
    for (const bad of ['0', '2340', 'abc', '-3', '1.5', '', '1e3', '99999999999999999999999']) {
      expect(view.goToSolution(bad)).toBe(false);
      expect(v().gotoError).toMatch(/1 to 2,339/);
    }
    expect(shown).toEqual([1233]);
    view.clearGotoError();
    expect(v().gotoError).toBe('');
    // found, but past the solutions the page keeps (QA: "There is no solution 150,000")
    const many = setup({ stored: 100000, total: 686628 });
    expect(many.view.goToSolution('150000')).toBe(false);
    expect(many.v().gotoError).toBe('Solution 150,000 was found but not kept: the page keeps the first 100,000 solutions (the command-line solver prints every one); type 1 to 100,000.');
    expect(many.view.goToSolution('700000')).toBe(false);
    expect(many.v().gotoError).toMatch(/^There is no solution 700,000/);
  });
});

describe('the view settings a share link carries', () => {
  const puzzle = { zDim: 3, pieces: new Array(7).fill({}) };
  test('what the person chose travels and reads back the same', () => {
    const view = { ...initialState().view, explode: 0.4, explodeMode: 'layers', labels: true, layer: 2, flat: true, isolate: 3, hidden: [1, 5], hover: 4, highlight: 3 };
    const link = linkView(view);
    expect(link).toEqual({ explode: 40, explodeMode: 'layers', labels: 1, layer: 2, flat: 1, isolate: 3, hidden: [1, 5] });
    expect(viewFromLink(JSON.parse(JSON.stringify(link)), puzzle)).toEqual({ explode: 0.4, explodeMode: 'layers', labels: true, layer: 2, flat: true, isolate: 3, hidden: [1, 5] });
    expect(linkView(initialState().view)).toEqual({}); // nothing chosen: nothing in the link
  });
  test('what does not fit the puzzle opened is left out', () => {
    expect(viewFromLink({ layer: 3, isolate: 7, hidden: [-1, 2, 2, 9, 1.5, 'x'], explode: 1e9, labels: 'yes' }, puzzle)).toEqual({ hidden: [2], explode: 1 });
    expect(viewFromLink({ layer: 0, isolate: 0 }, null)).toEqual({});
  });
});
