// web/src/app/saved-search.js: the localStorage journal written with every save stands in for an
// IndexedDB write that the page's going away dropped, borrowing the grids of the older record.
import { describe, expect, test } from 'vitest';
import { SavedSearches, validSavedSearch } from '../../web/src/app/saved-search.js';

function memoryStorage() {
  const m = new Map();
  return { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k) };
}

// IndexedDB stood in by one slot; `drop` loses the next writes (as the page going away does)
function kept() {
  const storage = memoryStorage();
  const saved = new SavedSearches({}, { storage });
  const db = { value: undefined, drop: false };
  saved.run = async (mode, fn) => {
    const store = {
      put: (v) => { if (!db.drop) db.value = v; return {}; },
      get: () => ({ result: db.value }),
      delete: () => { if (!db.drop) db.value = undefined; return {}; },
    };
    return fn(store).result;
  };
  return { saved, db };
}

const record = (savedAt, solutions, kept, extra = {}) => ({
  version: 1, text: 'D:xDim=2\n~D\n', options: '-r', puzzleIndex: 0, source: { kind: 'library', file: 'x.txt' }, title: 'X',
  elapsed: savedAt / 1000, savedAt,
  checkpoint: { fingerprint: '0123456789abcdef', cellCount: 2, pending: [{ path: [1, 2], share: 0.5 }], doneShare: 0.5, solutions, stats: { attempts: solutions * 10 }, grids: new Uint8Array(2 * kept).fill(1), gridsComplete: kept === solutions },
  ...extra,
});

describe('SavedSearches journal', () => {
  test('a write dropped with the page: load() gives the newer journal with the older record grids', async () => {
    const { saved, db } = kept();
    await saved.save(record(5000, 10, 10));
    db.drop = true;
    await saved.save(record(9000, 25, 25));
    const r = await saved.load();
    expect(r.savedAt).toBe(9000);
    expect(r.checkpoint.solutions).toBe(25);
    expect(r.checkpoint.grids.length).toBe(20); // the 10 grids of the 5 s record; the rest counted
    expect(validSavedSearch(r)).toBe('');
  });

  test('the record wins when it landed; another search journal gets no grids of the record', async () => {
    const { saved, db } = kept();
    await saved.save(record(5000, 10, 10));
    expect((await saved.load()).checkpoint.grids.length).toBe(20);
    db.drop = true;
    await saved.save(record(9000, 3, 3, { options: '-r -M' }));
    const r = await saved.load();
    expect(r.options).toBe('-r -M');
    expect(r.checkpoint.grids.length).toBe(0);
    expect(validSavedSearch(r)).toBe('');
    db.drop = false;
    await saved.clear();
    expect(await saved.load()).toBe(undefined);
  });
});
