// web/src/app/persist.js: My puzzles, the session and the settings in the browser's storage,
// which can be missing, full or forbidden: nothing saved is hidden, nothing dropped without a word.
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_SAVED_PUZZLES, Persist, browserStorage, saveNotice } from '../../web/src/app/persist.js';
import { StorageGuard, completePrefix } from '../../web/src/app/storage-guard.js';

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
    get length() { return data.size; },
    key: (i) => [...data.keys()][i] ?? null,
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

describe('a damaged store is set aside, said, and read as far as it can be', () => {
  const KEY = 'polycube.myPuzzles.v1';
  const twoSaved = () => {
    const storage = fakeStorage();
    const p = new Persist(storage);
    p.savePuzzle({ title: 'First', text: TEXT });
    p.savePuzzle({ title: 'Second', text: TEXT.replace('xDim=2', 'xDim=3') });
    return storage;
  };
  const guarded = (storage) => {
    const issues = [];
    const guard = new StorageGuard(storage, { onIssue: (i) => issues.push(i), now: () => Date.UTC(2030, 0, 2, 3, 4, 5) });
    return { persist: new Persist(storage, { guard }), issues, guard };
  };

  test('My puzzles cut short: copied aside before anything writes, its complete entries recovered (bug: shown empty, then overwritten 1,454 -> 149 characters)', () => {
    const storage = twoSaved();
    const whole = storage.getItem(KEY);
    const cut = whole.slice(0, -30);
    storage.setItem(KEY, cut);
    const { persist, issues } = guarded(storage);
    // the entry cut short is lost, the other is read
    expect(persist.puzzles().map((p) => p.title)).toEqual(['Second']);
    expect(issues).toHaveLength(1);
    const [issue] = issues;
    expect(issue.message).toMatch(/^My puzzles \("polycube\.myPuzzles\.v1"\) could not be read back from this browser's storage as the page wrote it: its text is cut short\. 1 entry was recovered\. Its text \([\d,]+ characters\) is kept as "polycube\.myPuzzles\.v1\.damaged\.2030-01-02T03-04-05-000Z": download it to mend it, or delete it\.$/);
    expect(storage.getItem(issue.backupKey)).toBe(cut);
    // the next save keeps what was recovered, and the damaged text stays aside
    persist.savePuzzle({ title: 'Third', text: TEXT.replace('xDim=2', 'xDim=4') });
    expect(persist.puzzles().map((p) => p.title)).toEqual(['Third', 'Second']);
    expect(storage.getItem(issue.backupKey)).toBe(cut);
    expect(issues).toHaveLength(1); // said once
  });

  test('a malformed entry in a good list: the list is copied aside and the entry named (bug: dropped without a word at the next save)', () => {
    const storage = twoSaved();
    const list = JSON.parse(storage.getItem(KEY));
    list.splice(1, 0, { id: 'x', title: 3, text: null }, { ...list[0] }, { ...list[1], id: 'p-other', colour: 'red' });
    const raw = JSON.stringify(list);
    storage.setItem(KEY, raw);
    const { persist, issues } = guarded(storage);
    expect(persist.puzzles().map((p) => p.title)).toEqual(['Second', 'First', 'First']);
    expect(issues[0].problems).toEqual([
      'entry 2 of 5 has no title, no text (as text)',
      'entry 3 of 5 repeats the id of an earlier one',
      'entry 4 of 5 has fields the page does not write ("colour")',
    ]);
    expect(storage.getItem(issues[0].backupKey)).toBe(raw);
  });

  // a session as the page writes it (link-sync.js)
  const SESSION = {
    source: { kind: 'library', file: 'soma.txt', id: '', colourSlots: null }, puzzleIndex: 0, options: '-r', definition: null,
    editor: { active: false, savedId: '', colourSlots: null }, lessonBefore: null, lost: null,
  };

  test('the session and the settings: each damage said, what is sound of them used', () => {
    const sound = new Persist(fakeStorage());
    sound.saveSession(SESSION);
    expect(sound.session()).toEqual(SESSION);
    expect(sound.guard.issues).toEqual([]);
    for (const [key, raw, want, problem] of [
      ['polycube.settings.v1', '{"workers":"NaN"}', {}, /its "workers" is not what the page writes/],
      ['polycube.settings.v1', '{"workers":1e308}', {}, /"workers"/],
      ['polycube.settings.v1', '[]', {}, /it is not a settings record/],
      ['polycube.session.v1', '{"options":"-r","definition":"D:xDim=3', { options: '-r' }, /cut short; its "source" is missing/],
      ['polycube.session.v1', JSON.stringify({ ...SESSION, puzzleIndex: -1, extra: { a: [[[]]] } }), { ...SESSION, puzzleIndex: undefined },
        /as the page wrote it: its "puzzleIndex" is not what the page writes; it has fields the page does not write \("extra"\)\./],
      ['polycube.session.v1', JSON.stringify({ ...SESSION, editor: undefined }), { ...SESSION, editor: undefined }, /its "editor" is missing/],
      ['polycube.session.v1', '\u0000\u0001garbage', null, /not readable text of the page/],
      ['polycube.session.v1', '', null, /it is empty/],
    ]) {
      const storage = fakeStorage();
      storage.setItem(key, raw);
      const { persist, issues } = guarded(storage);
      persist.checkAll();
      const got = key === 'polycube.settings.v1' ? persist.settings() : persist.session();
      if (want === null) expect(got === null || Object.keys(got).length === 0, raw).toBe(true);
      else expect(got, raw).toEqual(JSON.parse(JSON.stringify(want)));
      expect(issues, raw).toHaveLength(1);
      expect(issues[0].message, raw).toMatch(problem);
      expect(storage.getItem(issues[0].backupKey), raw).toBe(raw);
    }
  });

  test('a damaged store that cannot be copied aside (storage full) is not written over', () => {
    const storage = fakeStorage(3000);
    new Persist(storage).savePuzzle({ title: 'First', text: TEXT });
    const cut = storage.getItem(KEY).slice(0, -10);
    storage.setItem(KEY, cut);
    storage.fill();
    const { persist, issues, guard } = guarded(storage);
    expect(persist.puzzles()).toEqual([]);
    expect(issues[0].backupKey).toBe('');
    expect(issues[0].message).toMatch(/could not be copied aside \(the storage is full\), so nothing is written over it/);
    expect(guard.writable(KEY)).toBe(false);
    expect(persist.savePuzzle({ title: 'Other', text: TEXT })).toBe('');
    expect(saveNotice(persist)).toMatch(/^My puzzles \("polycube\.myPuzzles\.v1"\) could not be read back as the page wrote it, nor copied aside \(the storage is full\): nothing is written over it/);
    expect(storage.getItem(KEY)).toBe(cut);
  });

  test('a copy set aside is not made twice for the same damage, and is listed until deleted', () => {
    const storage = fakeStorage();
    storage.setItem('polycube.settings.v1', '{"workers":0}');
    guarded(storage).persist.checkAll();
    const again = guarded(storage);
    again.persist.checkAll(); // a reload: the value is still damaged
    const backups = again.guard.backups();
    expect(backups.map((b) => b.of)).toEqual(['polycube.settings.v1']);
    expect(again.issues[0].backupKey).toBe(backups[0].key);
    expect(again.guard.removeBackup(backups[0].key)).toBe(true);
    expect(again.guard.backups()).toEqual([]);
    expect(again.guard.removeBackup('polycube.settings.v1')).toBe(false); // only copies
  });

  test('completePrefix: the complete elements of a JSON list or record cut short', () => {
    expect(completePrefix('[{"a":1},{"b":[2,3]},{"c":')).toEqual([{ a: 1 }, { b: [2, 3] }]);
    expect(completePrefix('[1,2,3')).toEqual([1, 2]);
    expect(completePrefix('{"a":"x,y","b":{"c":1},"d":"unterm')).toEqual({ a: 'x,y', b: { c: 1 } });
    expect(completePrefix('{"a":1,"b":')).toEqual({ a: 1 });
    expect(completePrefix('[{"a":"}],["}')).toEqual([{ a: '}],[' }]); // (brackets inside strings are text)
    expect(completePrefix('[{"a":"}],["')).toEqual([]);
    expect(completePrefix('  [')).toEqual([]);
    expect(completePrefix('nonsense')).toBe(undefined);
    expect(completePrefix('[1,2]x')).toBe(undefined);
  });
});
