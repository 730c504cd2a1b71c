// web/src/app/persist.js: My puzzles, the session and the settings in the browser's storage,
// which can be missing, full or forbidden: nothing saved is hidden, nothing dropped without a word.
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_SAVED_PUZZLES, Persist, browserStorage, saveNotice } from '../../web/src/app/persist.js';

/** A Storage of at most `quota` characters (keys and values), as a browser's localStorage. */
function fakeStorage(quota = Infinity) {
  const data = new Map();
  const used = () => [...data].reduce((n, [k, v]) => n + k.length + v.length, 0);
  return {
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => {
      const before = data.get(k);
      data.set(k, String(v));
      if (used() > quota) {
        if (before === undefined) data.delete(k); else data.set(k, before);
        const err = new Error('The quota has been exceeded.');
        err.name = 'QuotaExceededError';
        throw err;
      }
    },
    removeItem: (k) => data.delete(k),
    fill() { // what is left, taken by another key (another page of the same origin)
      let filler = '';
      while (used() + filler.length + 1 <= quota) filler += 'x';
      data.set('other', filler.slice('other'.length));
    },
  };
}

const TEXT = 'D:xDim=2:yDim=1:zDim=1\nC:name=A:layout=0 0 0, 1 0 0\n~D\n';

describe('Persist', () => {
  afterEach(() => { delete globalThis.window; });

  test('a full storage still shows what it holds; a save then says why it was not kept', () => {
    const storage = fakeStorage(4000);
    const before = new Persist(storage);
    expect(before.savePuzzle({ title: 'Before full', text: TEXT })).not.toBe('');
    storage.fill();
    // (QA: the page probed the storage by writing to it, and a full one hid every saved puzzle)
    globalThis.window = { localStorage: storage };
    const after = new Persist(browserStorage());
    expect(after.puzzles().map((p) => p.title)).toEqual(['Before full']);
    expect(after.savePuzzle({ title: 'After', text: TEXT.replace('xDim=2', 'xDim=3') })).toBe('');
    expect(saveNotice(after)).toMatch(/^The browser could not save \(its storage for this page is full\).*Download puzzle/);
    expect(after.puzzles().map((p) => p.title)).toEqual(['Before full']);
  });

  test('a storage the browser forbids: no storage, and saving says so', () => {
    globalThis.window = { get localStorage() { throw new Error('SecurityError'); } };
    const p = new Persist(browserStorage());
    expect(p.puzzles()).toEqual([]);
    expect(p.savePuzzle({ title: 'x', text: TEXT })).toBe('');
    expect(saveNotice(p)).toMatch(/keeps no storage for the page/);
  });

  test(`past ${MAX_SAVED_PUZZLES} puzzles the oldest makes room, and the notice names it`, () => {
    const p = new Persist(fakeStorage());
    for (let k = 0; k < MAX_SAVED_PUZZLES; k++) p.savePuzzle({ title: `Saved ${k}`, text: `${TEXT}# ${k}\n` });
    expect(saveNotice(p)).toBe('');
    p.savePuzzle({ title: 'One more', text: `${TEXT}# more\n` });
    expect(p.puzzles()).toHaveLength(MAX_SAVED_PUZZLES);
    expect(p.puzzles()[0].title).toBe('One more');
    expect(saveNotice(p)).toBe(`My puzzles keeps the ${MAX_SAVED_PUZZLES} newest: "Saved 0" made room (download a puzzle to keep it as a file).`);
  });
});
