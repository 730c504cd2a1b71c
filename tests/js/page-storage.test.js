// What the page keeps in the browser, through the app's own actions and link sync (the real
// engine behind a fake worker): a definition too large to keep is said to be so, beside "too
// large for a link", and again after the reload that lost it; a kept search that cannot be
// resumed stays kept, said, until it is discarded; one finished in another tab is no longer
// offered here.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { Store } from '../../web/src/app/store.js';
import { initialState } from '../../web/src/app/state.js';
import { Actions } from '../../web/src/app/actions.js';
import { keptSearchActions } from '../../web/src/app/kept-search-actions.js';
import { LinkSync } from '../../web/src/app/link-sync.js';
import { MAX_SAVED_TEXT, Persist } from '../../web/src/app/persist.js';
import { SAVED_SEARCH_VERSION, SavedSearches } from '../../web/src/app/saved-search.js';
import { SolverClient } from '../../web/src/solver-client.js';
import { SolverPool } from '../../web/src/pool/solver-pool.js';
import { makeFakeWorker, openDef, readDef } from './helpers.js';

function memoryStorage() {
  const m = new Map();
  return {
    getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k),
    get length() { return m.size; }, key: (i) => [...m.keys()][i] ?? null,
  };
}

function fakeWindow() {
  const win = {
    location: { href: 'http://127.0.0.1/', hash: '' },
    history: { replaceState: (_, __, link) => { win.location.hash = link; } },
    addEventListener: () => {},
  };
  return win;
}

const LIBRARY = [{ file: 'soma.txt', title: 'Soma', text: readDef('soma.txt') }];

/** The page as main.js composes it (without panels), over `storage`. */
async function openPage(storage, { savedSearches = null, pool = false } = {}) {
  const persist = new Persist(storage);
  persist.checkAll();
  const store = new Store({ ...initialState(), myPuzzles: persist.puzzles() });
  // (a kept search resumes through the worker pool, as in the page: main.js)
  const createClient = pool ? () => new SolverPool({ size: 2, createClient: () => new SolverClient(() => makeFakeWorker()) }) : () => new SolverClient(makeFakeWorker());
  const actions = new Actions(store, { createClient, entries: LIBRARY, defaultFile: 'soma.txt', persist, savedSearches });
  const editor = { editor: { active: false }, close() {} };
  const sync = new LinkSync(store, actions, editor, persist, { libraryFiles: ['soma.txt'], win: fakeWindow() });
  if (savedSearches) savedSearches.listen((message) => actions.savedChangedElsewhere(message));
  await sync.restore('');
  sync.follow();
  return { store, actions, sync, persist };
}

afterEach(() => vi.useRealTimers());

describe('a definition too large to keep', () => {
  test('both facts are said, and after the reload that the puzzle could not be kept (bug: "not saved" replaced at once, then lost unannounced)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }); // the link sync's delay (the fake worker runs on setImmediate)
    const storage = memoryStorage();
    const before = await openPage(storage);
    // a puzzle of its own with a long comment: over My puzzles' limit, and no link can hold it
    let noise = '';
    for (let k = 0; noise.length <= MAX_SAVED_TEXT; k++) noise += `# ${(k * 7919).toString(36).repeat(12)}\n`;
    const text = `${noise}\n${readDef('soma.txt')}`;
    const loaded = await before.actions.loadDefinition(text);
    expect(loaded, before.store.get().definition.error).toBe(true);
    vi.advanceTimersByTime(1000); // the address and the session follow
    const notice = before.store.get().notice;
    expect(notice).toMatch(/^This puzzle's text \([\d,]+ characters\) is longer than My puzzles keeps \(524,288 characters\): it is not kept in the browser, and a reload will not bring it back\./);
    expect(notice).toMatch(/ This puzzle is too large for a link \(.*\); download its definition to share it\.$/);
    // the reload
    const after = await openPage(storage);
    const { title } = before.store.get().puzzles[0];
    expect(after.store.get().notice).toBe(`The puzzle on screen before this reload, "${title}", could not be brought back: its text (${text.length.toLocaleString('en-US')} characters) `
      + 'was larger than the browser keeps (524,288 characters). Load its file again to go on with it.');
    expect(after.store.get().source.file).toBe('soma.txt'); // and a usable page
    // said once: the next session written no longer holds it
    vi.advanceTimersByTime(1000);
    expect(JSON.parse(storage.getItem('polycube.session.v1')).lost).toBe(null);
  }, 240_000); // (a safety net: minutes where other programs take the cores)
});

// IndexedDB stood in by one slot, and the channel between tabs by a shared list of listeners.
function keptSearches(db, tabs) {
  const channel = { postMessage: (m) => tabs.filter((t) => t !== channel).forEach((t) => t.onmessage && t.onmessage({ data: structuredClone(m) })) };
  tabs.push(channel);
  const saved = new SavedSearches({}, { storage: memoryStorage(), channel });
  saved.run = async (mode, fn) => fn({
    put: (v) => { db.value = structuredClone(v); return {}; },
    get: () => ({ result: db.value }),
    delete: () => { db.value = undefined; return {}; },
  }).result;
  return saved;
}

describe('a kept search', () => {
  const record = () => ({
    version: SAVED_SEARCH_VERSION, text: readDef('soma.txt'), sourceName: 'soma.txt', source: { kind: 'library', file: 'soma.txt', id: '', title: 'Soma' },
    puzzleIndex: 0, title: 'Soma', options: '-r', elapsed: 3, savedAt: 1000,
    checkpoint: { fingerprint: '0123456789abcdef', cellCount: 27, pending: [{ path: [], share: 1 }], doneShare: 0, solutions: 0, stats: {}, grids: new Uint8Array(0), gridsComplete: true },
  });

  test('that is damaged stays kept and is said, never searched nor deleted unasked (bug: deleted at the load)', async () => {
    const db = { value: { ...record(), checkpoint: { pending: 'x' } } };
    const { store, actions } = await openPage(memoryStorage(), { savedSearches: keptSearches(db, []) });
    await actions.checkSaved();
    expect(store.get().saved.refused).toBe('the checkpoint has no fingerprint');
    expect(db.value).toBeTruthy(); // still there
    expect(JSON.parse(actions.savedText()).checkpoint.pending).toBe('x'); // offered for download as it is
    await actions.resumeSaved(); // (no Resume is offered; were it pressed, nothing happens)
    expect(store.get().run.phase).not.toBe('running');
    await actions.discardSaved();
    expect(db.value).toBe(undefined);
    expect(store.get().saved).toBe(null);
  }, 240_000); // (a safety net: minutes where other programs take the cores)

  test('a search for every solution kept before they were listed from the unique ones resumes as it ran (bug: refused as another search)', async () => {
    // its fingerprint: the search of every branch, which --no-orbits asks for today
    const { session } = await openDef('soma.txt');
    expect(session.start(0, '--no-orbits')).toEqual({ ok: true });
    while (!session.ready()) session.step(1e6);
    const { fingerprint } = session.fingerprint();
    session.delete();
    const db = { value: { ...record(), options: '', checkpoint: { ...record().checkpoint, fingerprint } } };
    const { store, actions } = await openPage(memoryStorage(), { savedSearches: keptSearches(db, []), pool: true });
    await actions.checkSaved();
    expect(store.get().saved).toMatchObject({ title: 'Soma' });
    expect(store.get().saved.refused).toBeUndefined();
    expect(await actions.resumeSaved()).toBe(true);
    expect(store.get().run.phase).toBe('done');
    expect(store.get().solutions.total).toBe(11520);
    expect(store.get().options.text).toBe('--no-orbits');
    expect(db.value).toBe(undefined); // finished: no longer kept
    // a kept search of another puzzle's tree is still refused, and stays kept as it was
    const other = { ...record(), options: '', checkpoint: { ...record().checkpoint, fingerprint: '0123456789abcdef' } };
    db.value = other;
    await actions.checkSaved();
    await actions.resumeSaved();
    expect(store.get().run.message).toMatch(/could not be resumed: .*another search/);
    expect(store.get().saved.refused).toMatch(/another search/);
    expect(db.value.options).toBe('');
    expect(JSON.parse(actions.savedText()).options).toBe('');
    // one whose options can no longer be split is refused, not searched whole again
    await actions.discardSaved();
    db.value = { ...record(), options: '-r -l 100', checkpoint: { ...record().checkpoint, fingerprint, solutions: 7, pending: [{ path: [3], share: 0.5 }], doneShare: 0.5 } };
    await actions.checkSaved();
    await actions.resumeSaved();
    expect(store.get().run.message).toMatch(/could not be resumed: its options cannot be searched in pieces \(-l: /);
    expect(store.get().saved.refused).toMatch(/cannot be searched in pieces/);
  }, 240_000); // (a safety net: minutes where other programs take the cores)

  test('finished or discarded in one tab is no longer offered in the other; kept anew, it is offered there (bug: offered, and searched again)', async () => {
    const db = { value: record() };
    const tabs = [];
    const a = await openPage(memoryStorage(), { savedSearches: keptSearches(db, tabs) });
    const b = await openPage(memoryStorage(), { savedSearches: keptSearches(db, tabs) });
    await a.actions.checkSaved();
    await b.actions.checkSaved();
    expect(b.store.get().saved.title).toBe('Soma');
    await a.actions.discardSaved(); // (a search finished in tab A discards it so)
    expect(b.store.get().saved).toBe(null);
    const later = { ...record(), savedAt: 2000, elapsed: 9 };
    await a.actions.savedSearches.save(later);
    expect(b.store.get().saved).toMatchObject({ title: 'Soma', elapsed: 9 });
    // and gone from storage meanwhile: a Resume in B says so instead of searching
    db.value = undefined;
    expect(await b.actions.resumeSaved()).toBe(false);
    expect(b.store.get().run.message).toMatch(/finished or discarded in another tab/);
    expect(b.store.get().saved).toBe(null);
  }, 240_000); // (a safety net: minutes where other programs take the cores)

  test('finished while it was being written down is not offered again (bug: the write that ended after the finish brought the offer back)', async () => {
    let written;
    const writing = new Promise((resolve) => { written = resolve; });
    const store = new Store(initialState());
    const page = {
      store, state: { puzzles: [{ title: 'Soma' }] }, refusedRecord: null, savedRecord: null, searchLock: { hold() {} },
      running: { startedAt: performance.now() - 60_000, saved: true, elapsedBefore: 0, index: 0, options: '-r', source: { kind: 'library', file: 'soma.txt', text: readDef('soma.txt'), name: 'soma.txt', title: 'Soma' } },
      client: { checkpoint: () => ({ ...record().checkpoint, doneShare: 0.5, pending: [{ path: [3], share: 0.5 }] }) },
      savedSearches: { lastError: '', save: () => writing, clear: () => Promise.resolve() },
    };
    const saving = keptSearchActions.saveRunning.call(page); // the periodic write, still under way
    page.running = null; // the search finishes meanwhile and needs no resuming
    await keptSearchActions.discardSaved.call(page);
    written();
    await saving;
    expect(store.get().saved).toBe(null);
  });
});
