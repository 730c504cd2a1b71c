// web/src/app/link-sync.js: the address and the kept session follow the state while it keeps
// changing (a running search), and a change not yet written is written when the page goes away.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { LinkSync } from '../../web/src/app/link-sync.js';
import { Store } from '../../web/src/app/store.js';
import { initialState } from '../../web/src/app/state.js';
import { MAX_LINK_CHARS, decodeState, encodeState } from '../../web/src/share/link.js';
import { optionsSliceForText } from '../../web/src/app/options-actions.js';

const FILES = ['a.txt', 'b.txt'];

function fakeWindow() {
  const listeners = {};
  const win = {
    location: { href: 'http://127.0.0.1/', hash: '' },
    history: { replaceState: vi.fn((_, __, link) => { win.location.hash = link; }) },
    addEventListener: (type, fn) => { (listeners[type] ||= []).push(fn); },
    fire: (type) => { for (const fn of listeners[type] || []) fn(); },
  };
  return win;
}

function setup() {
  const store = new Store(initialState());
  store.replace({ source: { kind: 'library', file: 'a.txt', id: '', title: 'A', text: 'D:xDim=1\n~D\n', name: 'a.txt' } });
  const persist = { saveSession: vi.fn() };
  const win = fakeWindow();
  const sync = new LinkSync(store, {}, { editor: { active: false } }, persist, { libraryFiles: FILES, win });
  sync.follow();
  const shownFile = () => decodeState(win.location.hash, { libraryFiles: FILES }).state.puzzle.library;
  return { store, persist, win, shownFile };
}

describe('LinkSync follows the state', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test('changes several times a second still reach the address and the kept session', () => {
    const { store, persist, shownFile } = setup();
    expect(shownFile()).toBe('a.txt');
    store.update('source', { file: 'b.txt' });
    // a search streams solutions: the state changes every 100 ms for 2 s
    for (let k = 0; k < 20; k++) {
      store.update('options', { text: `-r -l ${k + 1}` });
      vi.advanceTimersByTime(100);
    }
    // written while the changes go on (a delay restarted by each change never wrote)
    expect(shownFile()).toBe('b.txt');
    expect(persist.saveSession.mock.calls.at(-1)[0].source.file).toBe('b.txt');
    // at most one write per 250 ms; the latest state is written within 250 ms of the last change
    vi.advanceTimersByTime(250);
    expect(persist.saveSession.mock.calls.length).toBeLessThanOrEqual(1 + 2250 / 250);
    expect(persist.saveSession.mock.calls.at(-1)[0].options).toBe('-r -l 20');
  });

  test('a change not yet written when the page goes away is written then', () => {
    const { store, persist, win, shownFile } = setup();
    const writes = persist.saveSession.mock.calls.length;
    store.update('source', { file: 'b.txt' });
    expect(shownFile()).toBe('a.txt'); // not yet: within the delay
    win.fire('pagehide');
    expect(shownFile()).toBe('b.txt');
    expect(persist.saveSession.mock.calls.length).toBe(writes + 1);
    vi.advanceTimersByTime(1000); // and not twice
    expect(persist.saveSession.mock.calls.length).toBe(writes + 1);
  });
});

// A stand-in for app/actions.js with what restore uses: library files load their own text into
// the box and become the source, as the real actions do.
function fakeActions(store, texts) {
  const load = (file) => {
    if (!(file in texts)) return false;
    store.update('definition', { text: texts[file], error: '' });
    store.replace({ source: { kind: 'library', file, id: '', title: file.toUpperCase(), text: texts[file], name: file }, puzzles: [{ title: file.toUpperCase() }], puzzleIndex: 0 });
    return true;
  };
  return {
    defaultFile: 'a.txt',
    start: vi.fn(async ({ loadDefault = true } = {}) => (loadDefault ? load('a.txt') : true)),
    selectLibrary: vi.fn(async (file) => load(file)),
    openMine: vi.fn(async () => false),
    // a definition the engine refuses, as the real loadDefinition leaves it: the text and its error
    loadDefinition: vi.fn(async (text) => {
      store.update('definition', { text, error: 'link.txt:1: D directive: xDim must be at least 1', open: true });
      return false;
    }),
    selectPuzzle: vi.fn(),
    setOptionsText: vi.fn((text) => store.update('options', optionsSliceForText(text))),
    setView: vi.fn(),
  };
}

function page({ session = null } = {}) {
  const store = new Store(initialState());
  const texts = { 'a.txt': 'D:xDim=1\n~D\n', 'b.txt': 'D:xDim=2\n~D\n' };
  const actions = fakeActions(store, texts);
  let kept = session;
  const persist = { session: () => kept, saveSession: vi.fn((s) => { kept = JSON.parse(JSON.stringify(s)); }) };
  const win = fakeWindow();
  // the editor as link-sync sees it: its slice of the state, and close() leaving it
  const editor = { get editor() { return store.get().editor; }, close: vi.fn(() => store.update('editor', { active: false })) };
  const sync = new LinkSync(store, actions, editor, persist, { libraryFiles: FILES, win });
  return { store, sync, win, persist, kept: () => kept };
}

const DRAFT = 'D:xDim=3:yDim=1:zDim=1\nC:name=MYTYPED:layout=0 0 0, 1 0 0, 2 0 0\n~D\n';

describe('LinkSync keeps the draft (text typed but not loaded) whatever the address holds', () => {
  test('a reload (the address holds the link the page wrote) brings the draft back, and it stays kept', async () => {
    // the page before the reload: b.txt open, a draft typed in the box
    const before = page();
    await before.sync.restore(''); // (no session: the default a.txt)
    before.store.update('definition', { text: DRAFT });
    before.sync.follow();
    const hash = before.win.location.hash;
    expect(before.kept().definition).toBe(DRAFT);
    // the reload: same address, same storage
    const after = page({ session: before.kept() });
    await after.sync.restore(hash);
    after.sync.follow();
    expect(after.store.get().definition.text).toBe(DRAFT);
    expect(after.store.get().definition.open).toBe(true);
    expect(after.kept().definition).toBe(DRAFT);
  });

  test('a link opened in a new tab shows its puzzle and keeps the draft in the box and the session', async () => {
    const b = page({ session: { source: { kind: 'library', file: 'a.txt' }, puzzleIndex: 0, options: '-r', definition: DRAFT, editor: { active: false } } });
    const link = encodeState({ puzzle: { library: 'b.txt', index: 0 }, options: '-r -M' });
    await b.sync.restore(link);
    b.sync.follow();
    expect(b.store.get().source.file).toBe('b.txt');
    expect(b.store.get().options.text).toBe('-r -M');
    expect(b.store.get().definition.text).toBe(DRAFT);
    expect(b.kept().definition).toBe(DRAFT);
  });

  test('a link opened in the same tab (hash change) keeps the draft and clears the notice of a refused link', async () => {
    const t = page();
    await t.sync.restore('');
    t.sync.follow();
    t.store.update('definition', { text: DRAFT });
    t.win.location.hash = `#p1:${'A'.repeat(MAX_LINK_CHARS + 10)}`;
    t.win.fire('hashchange');
    await vi.waitFor(() => expect(t.store.get().notice).toMatch(/too long/));
    // refused in this tab: nothing was replaced, and the notice says so
    expect(t.store.get().notice).toMatch(/still shows "A.TXT"/);
    expect(t.store.get().notice).not.toMatch(/default/);
    expect(t.store.get().definition.text).toBe(DRAFT);
    t.win.location.hash = encodeState({ puzzle: { library: 'b.txt', index: 0 }, options: '-r' });
    t.win.fire('hashchange');
    await vi.waitFor(() => expect(t.store.get().source.file).toBe('b.txt'));
    expect(t.store.get().notice).toBe('');
    expect(t.store.get().definition.text).toBe(DRAFT);
  });

  test('a refused link at start-up opens the session (with its draft) and says so; the default only without one', async () => {
    const session = { source: { kind: 'library', file: 'b.txt' }, puzzleIndex: 0, options: '-r', definition: DRAFT, editor: { active: false } };
    const t = page({ session });
    await t.sync.restore('#p1:@@@garbage@@@');
    expect(t.store.get().source.file).toBe('b.txt');
    expect(t.store.get().definition.text).toBe(DRAFT);
    expect(t.store.get().notice).toMatch(/opened the puzzle you had open last, "B.TXT", instead/);
    const fresh = page();
    await fresh.sync.restore('#p1:@@@garbage@@@');
    expect(fresh.store.get().source.file).toBe('a.txt');
    expect(fresh.store.get().notice).toMatch(/opened its default puzzle, "A.TXT", instead/);
  });

  test('a link whose definition has an error: the session\'s puzzle, the link\'s text and error in the box, the draft still kept', async () => {
    const BAD = 'D:xDim=0:yDim=1:zDim=1\n~D\n';
    const session = { source: { kind: 'library', file: 'b.txt' }, puzzleIndex: 0, options: '-r', definition: DRAFT, editor: { active: false } };
    const t = page({ session });
    await t.sync.restore(encodeState({ puzzle: { definition: BAD }, options: '-r' }));
    t.sync.follow();
    expect(t.store.get().source.file).toBe('b.txt');
    expect(t.store.get().definition).toMatchObject({ text: BAD, error: expect.stringMatching(/^link\.txt:1:/), open: true });
    const notice = t.store.get().notice;
    expect(notice).toMatch(/could not be read: link\.txt:1: D directive: xDim must be at least 1\. /);
    expect(notice).toMatch(/opened the puzzle you had open last, "B\.TXT", instead\. The link's definition is in the text box/);
    expect(t.kept().definition).toBe(DRAFT); // the person's draft is not replaced by the link's text
    // the same link in a tab already open: the page keeps what it shows
    const u = page();
    await u.sync.restore('');
    u.sync.follow();
    u.win.location.hash = encodeState({ puzzle: { definition: BAD }, options: '' });
    u.win.fire('hashchange');
    await vi.waitFor(() => expect(u.store.get().notice).toMatch(/could not be read/));
    expect(u.store.get().notice).toMatch(/still shows "A\.TXT"\. The link's definition is in the text box/);
    expect(u.store.get().definition.text).toBe(BAD);
  });

  test('a notice names the puzzle being edited when the editor shows its own', async () => {
    const t = page();
    await t.sync.restore('');
    t.sync.follow();
    const puzzle = { title: 'Precious', xDim: 2, yDim: 1, zDim: 1, oneSide: false, holes: [], pieces: [{ name: 'A', cells: [[0, 0, 0], [1, 0, 0]], count: 1, stationary: false }] };
    t.store.update('editor', { active: true, puzzle });
    t.win.location.hash = '#p1:@@@garbage@@@';
    t.win.fire('hashchange');
    await vi.waitFor(() => expect(t.store.get().notice).toMatch(/still shows/));
    expect(t.store.get().notice).toMatch(/still shows "Precious" \(being edited\)\./);
  });

  test('a bad link in the tab of an open editor: the editor closes, the draft it held stays kept', async () => {
    const BAD = 'D:xDim=0:yDim=1:zDim=1\n~D\n';
    const t = page();
    await t.sync.restore('');
    t.sync.follow();
    const puzzle = { title: 'Precious', xDim: 2, yDim: 1, zDim: 1, oneSide: false, holes: [], pieces: [{ name: 'A', cells: [[0, 0, 0], [1, 0, 0]], count: 1, stationary: false }] };
    t.store.update('editor', { active: true, puzzle });
    t.sync.heldDraft = DRAFT; // (a reload while editing: the session's draft waits for the box)
    t.win.location.hash = encodeState({ puzzle: { definition: BAD }, options: '' });
    t.win.fire('hashchange');
    await vi.waitFor(() => expect(t.store.get().notice).toMatch(/could not be read/));
    expect(t.store.get().editor.active).toBe(false);
    expect(t.store.get().notice).toMatch(/What you were editing is kept in My puzzles\./);
    expect(t.store.get().definition.text).toBe(BAD);
    t.sync.write();
    expect(t.kept().definition).toBe(DRAFT);
  });

  test('options in a link that the page refuses are said as the link opens (QA: only at Solve)', async () => {
    const t = page();
    await t.sync.restore(encodeState({ puzzle: { library: 'b.txt', index: 0 }, options: '-r --checkpoint x.ck' }));
    expect(t.store.get().source.file).toBe('b.txt');
    expect(t.store.get().notice).toMatch(/^The link's options have a problem: --checkpoint .*\. The options box marks it; Solve waits until it is mended\.$/);
  });
});
