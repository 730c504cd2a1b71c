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
