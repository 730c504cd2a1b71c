// The editor's saves into My puzzles: after a pause in the edits, and at once when the page goes
// away (saveNow on pagehide), so that no edit made just before a reload or a closed tab is lost.
// saved() is what the browser tests wait for.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { EditorActions } from '../../web/src/app/editor-actions.js';
import { setTitle } from '../../web/src/app/commands.js';
import { Persist } from '../../web/src/app/persist.js';
import { Store } from '../../web/src/app/store.js';
import { initialState } from '../../web/src/app/state.js';
import { writeDefinition } from '../../web/src/model/definition-writer.js';

function memoryStorage() {
  const data = new Map();
  return {
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => { data.set(k, String(v)); },
    removeItem: (k) => { data.delete(k); },
    get length() { return data.size; },
    key: (i) => [...data.keys()][i] ?? null,
  };
}

function editorWithStorage() {
  const store = new Store(initialState());
  const persist = new Persist(memoryStorage());
  const drafts = [];
  const actions = {
    stopRun() {},
    currentPuzzle: () => null,
    reportSave() {},
    draft: async (text) => { drafts.push(text); return { ok: false, error: 'not checked here' }; },
  };
  return { store, persist, drafts, editor: new EditorActions(store, actions, persist) };
}

describe('EditorActions: saving into My puzzles', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  test('an edit is saved after the pause, and saved() says when My puzzles holds it as drawn', async () => {
    const { persist, editor } = editorWithStorage();
    expect(editor.saved()).toBe(true); // (the editor closed: nothing to save)
    editor.newPuzzle(4, 2, 1);
    expect(editor.saved()).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(editor.saved()).toBe(true);
    const [entry] = persist.puzzles();
    expect(entry).toMatchObject({ id: editor.editor.savedId, title: 'My puzzle', text: writeDefinition(editor.editor.puzzle) });
    editor.run(setTitle(editor.target, 'Delta'));
    expect(editor.saved()).toBe(false); // the title changed, not yet saved
    await vi.advanceTimersByTimeAsync(200);
    expect(editor.saved()).toBe(true);
    expect(persist.puzzles()).toHaveLength(1); // the same entry, saved over
    expect(persist.puzzles()[0].title).toBe('Delta');
  });

  test('saveNow (the page going away) saves within the pause, once; the checks still follow the pause', async () => {
    const { persist, drafts, editor } = editorWithStorage();
    editor.newPuzzle(4, 2, 1);
    editor.saveNow();
    expect(editor.saved()).toBe(true);
    expect(persist.puzzles()).toHaveLength(1);
    const id = editor.editor.savedId;
    editor.run(setTitle(editor.target, 'Gamma'));
    editor.saveNow();
    expect(persist.puzzles().map((p) => [p.id, p.title])).toEqual([[id, 'Gamma']]);
    editor.saveNow(); // nothing changed: nothing written
    await vi.advanceTimersByTimeAsync(200);
    expect(persist.puzzles().map((p) => [p.id, p.title])).toEqual([[id, 'Gamma']]);
    expect(drafts).toEqual([writeDefinition(editor.editor.puzzle)]); // (a page back from the back-forward cache checks it)
  });

  test('a puzzle changed in My puzzles by another tab is not "saved" here until this tab saves it', () => {
    const { persist, editor } = editorWithStorage();
    editor.newPuzzle(4, 2, 1);
    editor.saveNow();
    const id = editor.editor.savedId;
    persist.savePuzzle({ id, title: 'Changed elsewhere', text: persist.puzzles()[0].text });
    expect(editor.saved()).toBe(false);
    editor.saveNow();
    expect(editor.saved()).toBe(true);
    expect(persist.puzzles()[0].title).toBe('My puzzle');
  });
});
