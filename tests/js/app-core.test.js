// The web app's core, in Node: the state store and the undo history.
import { describe, expect, test } from 'vitest';
import { Store } from '../../web/src/app/store.js';
import { History, MERGE_MS } from '../../web/src/app/history.js';

describe('Store', () => {
  test('update merges into a slice, replaces it by a new object and notifies its listeners only', () => {
    const store = new Store({ a: { x: 1, y: 2 }, b: 5 });
    const seen = [];
    store.subscribe(['a'], (s, changed) => seen.push(['a', s.a.x, [...changed]]));
    store.subscribe(['b'], (s) => seen.push(['b', s.b]));
    const before = store.get().a;
    store.update('a', { x: 3 });
    expect(store.get().a).toEqual({ x: 3, y: 2 });
    expect(store.get().a).not.toBe(before);
    expect(before).toEqual({ x: 1, y: 2 }); // never mutated in place
    store.update('b', 7);
    expect(seen).toEqual([['a', 3, ['a']], ['b', 7]]);
  });

  test('a listener that updates the store gets the nested change delivered, not lost; listeners see the current state', () => {
    const store = new Store({ a: 0, b: 0 });
    const log = [];
    store.subscribe(['a'], (s) => { if (s.a === 1) store.update('b', 10); });
    store.subscribe('*', (s, changed) => log.push([...changed].sort().join(',') + `:${s.a}/${s.b}`));
    store.update('a', 1);
    expect(log).toEqual(['a:1/10', 'b:1/10']);
    expect(store.get().b).toBe(10);
  });

  test('unsubscribe stops notifications', () => {
    const store = new Store({ a: 0 });
    let n = 0;
    const off = store.subscribe(['a'], () => n++);
    store.update('a', 1);
    off();
    store.update('a', 2);
    expect(n).toBe(1);
  });
});

/** A command that adds `k` to a counter; mergeable under `key`. */
function addCommand(target, k, key) {
  return {
    name: `add ${k}`,
    mergeKey: key,
    k,
    execute() { target.value += this.k; },
    undo() { target.value -= this.k; },
    merge(next) { this.k += next.k; return true; },
  };
}

describe('History', () => {
  test('undo and redo restore each state exactly', () => {
    const t = { value: 0 };
    const h = new History();
    h.execute(addCommand(t, 1));
    h.execute(addCommand(t, 10));
    expect(t.value).toBe(11);
    h.undo();
    expect(t.value).toBe(1);
    h.undo();
    expect(t.value).toBe(0);
    expect(h.undo()).toBe(null);
    h.redo();
    h.redo();
    expect(t.value).toBe(11);
    expect(h.status()).toMatchObject({ canUndo: true, canRedo: false, undoName: 'add 10' });
  });

  test('rapid edits of one kind merge into one step; slower ones and other kinds do not', () => {
    let clock = 0;
    const t = { value: 0 };
    const h = new History({ now: () => clock });
    h.execute(addCommand(t, 1, 'paint'));
    clock += MERGE_MS / 2;
    h.execute(addCommand(t, 2, 'paint'));
    clock += MERGE_MS / 2;
    h.execute(addCommand(t, 4, 'paint'));
    expect(h.undos.length).toBe(1);
    clock += MERGE_MS * 2;
    h.execute(addCommand(t, 8, 'paint')); // too late to merge
    h.execute(addCommand(t, 16, 'rename')); // another kind
    expect(h.undos.length).toBe(3);
    expect(t.value).toBe(31);
    h.undo(); h.undo();
    expect(t.value).toBe(7);
    h.undo();
    expect(t.value).toBe(0);
  });

  test('a new edit clears the redo list; an undone step is never merged into', () => {
    let clock = 0;
    const t = { value: 0 };
    const h = new History({ now: () => clock });
    h.execute(addCommand(t, 1, 'paint'));
    h.undo();
    h.execute(addCommand(t, 2, 'paint'));
    expect(h.status().canRedo).toBe(false);
    expect(h.undos.length).toBe(1);
    h.undo();
    expect(t.value).toBe(0);
  });

  test('onChange fires after every change', () => {
    let n = 0;
    const h = new History({ onChange: () => n++ });
    const t = { value: 0 };
    h.execute(addCommand(t, 1));
    h.undo();
    h.redo();
    h.clear();
    expect(n).toBe(4);
  });
});

import * as commands from '../../web/src/app/commands.js';
import { emptyPuzzle } from '../../web/src/model/puzzle.js';
import { pieceSet } from '../../web/src/model/piece-sets.js';

/** A target over a plain variable, recording what the text flag said on each set. */
function puzzleTarget(puzzle) {
  const t = { puzzle, fromText: [] };
  t.get = () => t.puzzle;
  t.set = (p, fromText) => { t.puzzle = p; t.fromText.push(fromText); };
  return t;
}

describe('editor commands', () => {
  test('a drag paints many cells as one undo step, and undo restores the space exactly', () => {
    let clock = 0;
    const t = puzzleTarget(emptyPuzzle({ xDim: 5, yDim: 5 }));
    const h = new History({ now: () => clock });
    for (const cell of [4, 9, 14, 19]) {
      h.execute(commands.paintCells(t, [cell], true, 1));
      clock += 50;
    }
    expect(t.puzzle.holes).toEqual([4, 9, 14, 19]);
    expect(h.undos.length).toBe(1);
    clock += 5000;
    h.execute(commands.paintCells(t, [24], true, 1)); // the same drag, however slow
    expect(h.undos.length).toBe(1);
    h.execute(commands.paintCells(t, [24], false, 0)); // a single click: no gesture
    h.undo();
    h.execute(commands.paintCells(t, [9], false, 2)); // another stroke: its own step
    expect(t.puzzle.holes).toEqual([4, 14, 19, 24]);
    h.undo();
    expect(t.puzzle.holes).toEqual([4, 9, 14, 19, 24]);
    h.undo();
    expect(t.puzzle.holes).toEqual([]);
  });

  test('pieces from the tray, renames merged while typing, rotations and deletion undo in order', () => {
    let clock = 0;
    const t = puzzleTarget(emptyPuzzle({ xDim: 3, yDim: 3, zDim: 3 }));
    const h = new History({ now: () => clock });
    h.execute(commands.addPiecesCommand(t, pieceSet('soma').pieces));
    expect(t.puzzle.pieces.length).toBe(7);
    const names = t.puzzle.pieces.map((p) => p.name);
    for (const typed of ['Q', 'Qu', 'Qua']) {
      clock += 100;
      h.execute(commands.renamePiece(t, 0, typed));
    }
    expect(h.undos.length).toBe(2);
    clock += 10_000;
    const before = t.puzzle.pieces[1].cells;
    h.execute(commands.turnPiece(t, 1, 'x'));
    h.execute(commands.removePiece(t, 2));
    expect(t.puzzle.pieces.length).toBe(6);
    h.undo();
    h.undo();
    expect(t.puzzle.pieces[1].cells).toEqual(before);
    h.undo();
    expect(t.puzzle.pieces.map((p) => p.name)).toEqual(names);
    h.undo();
    expect(t.puzzle.pieces).toEqual([]);
  });

  test('adding a piece twice names the copy uniquely; resizing drops what falls outside', () => {
    const t = puzzleTarget(emptyPuzzle({ xDim: 4, yDim: 4 }));
    const L = pieceSet('tetrominoes').pieces.find((p) => p.name === 'L');
    commands.addPiecesCommand(t, [L]).execute();
    commands.addPiecesCommand(t, [L], 3).execute();
    expect(t.puzzle.pieces.map((p) => [p.name, p.count])).toEqual([['L', 1], ['L2', 3]]);
    commands.paintCells(t, [3, 15], true).execute();
    commands.resizeBoxCommand(t, 3, 4, 1).execute();
    expect(t.puzzle.holes).toEqual([]); // both holes were in the dropped column x = 3
  });

  test('a puzzle read from typed text does not rewrite the text; its redo does', () => {
    const t = puzzleTarget(emptyPuzzle({ xDim: 2, yDim: 2 }));
    const h = new History();
    h.execute(commands.followText(t, emptyPuzzle({ xDim: 3, yDim: 2 })));
    h.undo();
    h.redo();
    expect(t.fromText).toEqual([true, false, false]);
    expect(t.puzzle.xDim).toBe(3);
  });
});

import { ProjectionSpread, progressText, timeLeft } from '../../web/src/app/format.js';

describe('progressText (the Done counter)', () => {
  test('percent, then the time left projected from the time elapsed', () => {
    expect(progressText(undefined, 3)).toBe('–');
    expect(progressText(0, 0.2)).toBe('about 0%');
    expect(progressText(0.005, 3)).toBe('about 0.5%'); // too little to project from
    expect(progressText(0.005, 10)).toBe('about 0.5%, over 17 min left'); // but a bound after 5 s
    // below 1%, one significant digit: a search of hours moves (QA: "about 0%" for minutes)
    expect(progressText(0.00034, 0)).toBe('about 0.03%');
    expect(progressText(1e-9, 0)).toBe('under 0.0001%');
    expect(progressText(0.25, 0.5)).toBe('about 25%'); // under a second elapsed
    expect(progressText(0.25, 10, 0, [30, 30])).toBe('about 25%, ~30 s left');
    expect(progressText(0.5, 120, 0, [120, 120])).toBe('about 50%, ~2 min left');
    expect(progressText(0.1, 3600, 0, [32400, 32400])).toBe('about 10%, ~9.0 h left');
    expect(progressText(0.999, 10, 0, [0.01, 0.01])).toBe('about 99%, under 1 s left');
    expect(progressText(0.9, 9, 0, [0, 3])).toBe('about 90%, ~1 s left (0-3 s)');
    expect(progressText(1, 10)).toBe('100%');
    expect(progressText(1.2, 10)).toBe('100%');
  });

  test('a resumed search projects from what it gained since; the spread of recent projections is shown', () => {
    expect(progressText(0.6, 10, 0.5, [40, 40])).toBe('about 60%, ~40 s left'); // 10 s for 10%
    expect(progressText(0.25, 10, 0, [25, 35])).toBe('about 25%, ~30 s left (25-35 s)');
    expect(progressText(0.25, 10, 0, [29, 31])).toBe('about 25%, ~30 s left'); // close: no range
    expect(progressText(0.1, 60, 0, [300, 700])).toBe('about 10%, ~9 min left (5-12 min)');
    expect(progressText(0.1, 60, 0, [60, 700])).toBe('about 10%, ~9 min left (60 s-12 min)');
    const spread = new ProjectionSpread(3, 1);
    spread.add(1, 9);
    spread.add(1.5, 100); // under a second after the last: not kept
    expect(spread.range(2)).toBe(null);
    spread.add(2, 10);
    spread.add(3, 13);
    expect(spread.range(3)).toEqual([7, 13]);
    spread.add(4, 12); // the oldest (end 10) drops out
    expect(spread.range(4)).toEqual([8, 12]);
  });
});

describe('the time left while a search runs (the Done counter fed as Actions.tick feeds it)', () => {
  /** The counter's text at each reading [elapsed s, share done], through one ProjectionSpread. */
  const readings = (list) => {
    const spread = new ProjectionSpread();
    return list.map(([t, f]) => {
      spread.add(t, timeLeft(f, t));
      return progressText(f, t, 0, spread.range(t));
    });
  };
  const leftOf = (text) => {
    const m = /~(\d+) s left(?: \((\d+)-(\d+) s\))?/.exec(text);
    return m ? { left: Number(m[1]), lo: m[2] ? Number(m[2]) : Number(m[1]), hi: m[3] ? Number(m[3]) : Number(m[1]) } : null;
  };

  test('Bedlam\'s early jumps (50% at 1.2 s, then 19%): no time left until projections agree, then one inside its range', () => {
    // the engine's estimates as a Bedlam search gave them: an early 50% (a projection of ~1 s
    // left), then 19% a second later (~9 s), then a steady climb to the end at ~11 s
    const texts = readings([[1.2, 0.5], [2.2, 0.19], [3.2, 0.28], [4.2, 0.37], [5.2, 0.46], [6.2, 0.55], [7.2, 0.64], [8.2, 0.73]]);
    expect(texts[0]).toBe('about 50%, estimating time left'); // not "~1 s left"
    expect(texts[1]).toBe('about 19%, estimating time left'); // not "~9 s left"
    expect(texts[2]).toBe('about 28%, estimating time left'); // the end at 2.4 s has passed: two left
    for (const text of texts.slice(3)) {
      const est = leftOf(text);
      expect(est, text).not.toBe(null);
      expect(est.left).toBeGreaterThanOrEqual(est.lo);
      expect(est.left).toBeLessThanOrEqual(est.hi);
      expect(est.lo).toBeGreaterThan(0); // the early "~1 s" end, long passed, bounds nothing
    }
    // the estimate, once shown, no longer jumps: the true end (~11 s) stays inside each range
    texts.slice(3).forEach((text, k) => {
      const t = [4.2, 5.2, 6.2, 7.2, 8.2][k];
      const est = leftOf(text);
      expect(t + est.lo - 1).toBeLessThanOrEqual(11.5);
      expect(t + est.hi + 1).toBeGreaterThanOrEqual(11);
    });
  });

  test('the Tetris Cube (~25 s, then ~8 s): the spread is said with the figure', () => {
    const texts = readings([[1, 0.04], [2, 0.1], [3, 0.2], [4, 0.33]]);
    expect(texts.slice(0, 2).every((t) => !/s left/.test(t))).toBe(true);
    expect(texts[3]).toMatch(/^about 33%, ~8 s left \(\d+-\d+ s\)$/); // a range: the projections disagree
  });
});
