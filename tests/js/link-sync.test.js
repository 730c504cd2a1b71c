// web/src/app/link-sync.js: the address and the kept session follow the state while it keeps
// changing (a running search), and a change not yet written is written when the page goes away.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { LinkSync } from '../../web/src/app/link-sync.js';
import { Store } from '../../web/src/app/store.js';
import { initialState } from '../../web/src/app/state.js';
import { decodeState } from '../../web/src/share/link.js';

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
