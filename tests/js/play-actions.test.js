// Playing by hand as the page's actions do it (web/src/app/play-actions.js): a real SolverClient
// over the worker protocol and the WebAssembly engine (a fake worker in between), the store and
// undo history of the page. Every wait is for a state of the store, never for time.
import { describe, expect, it } from 'vitest';
import { Store } from '../../web/src/app/store.js';
import { NO_BUILD, NO_SOLUTIONS, initialState } from '../../web/src/app/state.js';
import { BuildActions } from '../../web/src/app/build-actions.js';
import { COUNT_LIMIT, PlayActions } from '../../web/src/app/play-actions.js';
import { SolverClient } from '../../web/src/solver-client.js';
import { packingKey } from '../../web/src/model/play.js';
import { challengesFor } from '../../web/src/ui/challenges.js';
import { makeFakeWorker, openDef, readDef } from './helpers.js';

/** The page's store and a stand-in for its Actions: the puzzle on screen, opened from def/. */
async function setUp(file = 'pentominoes_10x6.txt') {
  const store = new Store(initialState());
  const open = async (f) => {
    const { session, puzzles } = await openDef(f);
    session.delete();
    store.replace({ source: { kind: 'library', file: f, id: '', title: '', text: readDef(f), name: f }, puzzles, puzzleIndex: 0 });
    return true;
  };
  await open(file);
  const actions = { currentPuzzle: () => store.get().puzzles[store.get().puzzleIndex] || null, selectLibrary: open, selectPuzzle() {} };
  let clients = 0;
  const play = new PlayActions(store, actions, { createClient: () => { clients++; return new SolverClient(makeFakeWorker()); } });
  return { store, play, clients: () => clients };
}

/** Resolves once pred(state) holds (checked now and after every change of the store). */
function until(store, pred) {
  return new Promise((resolve) => {
    if (pred(store.get())) return resolve(store.get());
    const off = store.subscribe('*', (s) => {
      if (!pred(s)) return;
      off();
      resolve(s);
    });
  });
}

const counted = (store) => until(store, (s) => s.play.count && s.play.count.status === 'done' && s.play.count.key === packingKey(s.play.placed)).then((s) => s.play.count);
const at = (x, y) => x + 10 * y;
const named = (store, name) => store.get().puzzles[0].instances.findIndex((i) => i.name === name);

describe('PlayActions', () => {
  it('counts after every move, says what is wrong, and undoes and redoes moves', async () => {
    const { store, play } = await setUp();
    play.open();
    expect(await counted(store)).toMatchObject({ completions: COUNT_LIMIT + 1, capped: true });
    // the X put down with its middle at (1,1) walls the corner in
    const x = named(store, 'X');
    play.pick(x);
    expect(play.aim(at(1, 1)).ok).toBe(true);
    expect(play.aim(at(0, 0)).cells).toBeNull(); // would stick out
    expect(play.placeAt(at(0, 3))).toBe(false);
    expect(store.get().play.message).toMatch(/X does not fit there: it would stick out of the board/);
    expect(play.placeAt(at(1, 1))).toBe(true);
    expect(store.get().play.hand).toBeNull();
    expect((await counted(store)).completions).toBe(0);
    // a piece over another is refused before the engine is asked
    play.pick(named(store, 'I'));
    expect(play.placeAt(at(1, 2))).toBe(false);
    expect(store.get().play.message).toMatch(/would lie over another piece/);
    play.drop();
    await play.whatsWrong();
    expect(store.get().play.wrong).toMatchObject({ status: 'done', completable: false, culprit: x });
    play.followWrong();
    expect(store.get().play.placed).toEqual([]);
    expect((await counted(store)).completions).toBe(COUNT_LIMIT + 1);
    expect(store.get().play.history).toMatchObject({ canUndo: true, undoName: 'take back X' });
    play.undo();
    expect(store.get().play.placed.map((p) => p.instance)).toEqual([x]);
    expect((await counted(store)).completions).toBe(0);
    play.redo();
    expect(store.get().play.placed).toEqual([]);
    // (the answers are for one packing: the count's key follows the board)
    expect((await counted(store)).key).toBe('');
  });

  it('gives a hint from the count it has, and one from the engine when it has none', async () => {
    const { store, play } = await setUp();
    play.open();
    await counted(store);
    await play.hint();
    const hint = store.get().play.hint;
    expect(hint).toMatchObject({ status: 'done' });
    expect(hint.cells).toContain(at(0, 0)); // the tightest cell: a corner
    play.placeHint();
    expect(store.get().play.placed).toEqual([{ instance: hint.instance, cells: hint.cells }]);
    expect(store.get().play.hint).toBeNull(); // (of the packing before)
    // asked while the count runs: the engine answers, and the count starts again
    const second = play.hint();
    await second;
    expect(store.get().play.hint.status).toBe('done');
    expect((await counted(store)).completions).toBeGreaterThan(0);
  });

  it('Where can it go? weighs every place of the piece in hand, steps through them, and places it; the last question asked is the one answered', async () => {
    const { store, play } = await setUp();
    play.open();
    await counted(store);
    await play.where(); // nothing in hand: nothing asked
    expect(store.get().play.where).toBeNull();
    const f = named(store, 'F');
    play.pick(f);
    await play.hint();
    expect(store.get().play.hint.status).toBe('done');
    await play.where();
    const where = store.get().play.where;
    expect(where).toMatchObject({ status: 'done', instance: f, index: 0, completions: 9356 });
    expect(store.get().play.hint).toBeNull(); // (the answer on screen is the newest)
    expect(where.places.reduce((sum, p) => sum + p.completions, 0)).toBe(9356);
    for (let k = 1; k < where.places.length; k++) expect(where.places[k - 1].completions).toBeGreaterThanOrEqual(where.places[k].completions);
    play.nextPlace();
    play.nextPlace();
    expect(store.get().play.where.index).toBe(2);
    play.placeWhere();
    expect(store.get().play.placed).toEqual([{ instance: f, cells: where.places[2].cells }]);
    expect(store.get().play.hand).toBeNull();
    expect(store.get().play.where).toBeNull(); // (of the packing before)
    expect((await counted(store)).completions).toBe(where.places[2].completions);
    // another piece picked: the answer about F goes; asked for I, then a hint: the hint is shown
    play.pick(named(store, 'I'));
    expect(store.get().play.where).toBeNull();
    await play.where();
    expect(store.get().play.where).toMatchObject({ status: 'done', instance: named(store, 'I') });
    play.pick(named(store, 'I')); // (the same piece again: its answer stays)
    expect(store.get().play.where).not.toBeNull();
    await play.hint();
    expect(store.get().play.where).toBeNull();
    expect(store.get().play.hint.status).toBe('done');
  });

  it('a piece taken off the board and put down elsewhere is one move to undo', async () => {
    const { store, play } = await setUp();
    play.open();
    const l = named(store, 'L');
    play.pick(l);
    play.placeAt(at(5, 2));
    const first = store.get().play.placed[0];
    play.pickUp(l, first.cells[0], { drag: true });
    expect(store.get().play.placed).toEqual([]);
    expect(store.get().play.hand.instance).toBe(l);
    expect(play.placeAt(first.cells[0] + 1)).toBe(true); // one cell to the right
    const moved = store.get().play.placed[0];
    expect(moved.cells).toEqual(first.cells.map((c) => c + 1));
    expect(store.get().play.history.undoName).toBe('move L');
    play.undo();
    expect(store.get().play.placed).toEqual([first]);
    play.undo();
    expect(store.get().play.placed).toEqual([]);
    expect(store.get().play.history.canUndo).toBe(false);
  });

  it("a challenge's pieces stay, are never named by What's wrong?, and its link opens it again", async () => {
    const { store, play } = await setUp();
    const [c] = challengesFor('pentominoes_10x6.txt');
    await play.startChallenge(c.id);
    expect(store.get().play).toMatchObject({ active: true, given: c.given.length, challenge: c.id });
    expect((await counted(store)).completions).toBe(1);
    expect(play.pickUp(c.given[0].instance)).toBe(false);
    expect(store.get().play.message).toMatch(/is part of the challenge: it stays where it is/);
    play.clear(); // (nothing of the person's to clear)
    expect(store.get().play.placed).toHaveLength(c.given.length);
    const link = play.linkState();
    expect(link).toMatchObject({ given: c.given.length, challenge: c.id });
    play.close();
    expect(store.get().play.active).toBe(false);
    play.openFromLink(link);
    expect(store.get().play).toMatchObject({ given: c.given.length, challenge: c.id });
    expect((await counted(store)).completions).toBe(1);
  });

  it("a link's pieces that are no packing are refused with the engine's reason, and the board is empty", async () => {
    const { store, play } = await setUp();
    const x = named(store, 'X');
    play.openFromLink({ placed: [[x, 0, 1, 2, 3, 4]], given: 1, challenge: 'no-such-one' });
    expect(store.get().play.challenge).toBe(''); // not one of the library's for this puzzle
    await until(store, (s) => s.notice !== '');
    expect(store.get().notice).toMatch(/^The pieces in the link could not be placed: placement 1 \(piece X\): its cells are not the piece's shape\. The board is empty\.$/);
    expect(store.get().play).toMatchObject({ active: true, placed: [], given: 0 });
    expect((await counted(store)).completions).toBe(COUNT_LIMIT + 1);
  });

  it('stops playing when another puzzle is opened', async () => {
    const { store, play } = await setUp();
    play.open();
    await counted(store);
    const { session, puzzles } = await openDef('soma.txt');
    session.delete();
    store.replace({ puzzles, source: { kind: 'library', file: 'soma.txt', text: readDef('soma.txt'), name: 'soma.txt' } });
    expect(store.get().play.active).toBe(false);
  });

  it('stops playing when a lesson takes the stage', async () => {
    const { store, play } = await setUp();
    play.open();
    await counted(store);
    store.update('lesson', { open: true, id: 'backtracking' });
    expect(store.get().play.active).toBe(false);
  });

  it('takes the stage from Build it, which waits until play stops', async () => {
    const { store, play } = await setUp();
    const build = new BuildActions(store, { currentPuzzle: () => store.get().puzzles[0] });
    // a solution shown and being built (the order itself does not matter here)
    const solutions = { store: { get: () => new Int32Array(60), stored: 1 }, shown: 0 };
    store.replace({ solutions: { ...NO_SOLUTIONS, ...solutions } });
    store.update('build', { ...NO_BUILD, active: true, puzzle: store.get().puzzles[0], store: solutions.store, shown: 0 });
    play.open();
    expect(store.get().build.active).toBe(false);
    expect(build.whyNot()).toBe('The stage shows your game: press "Stop playing" first.');
    play.close();
    expect(build.whyNot()).toBe('');
  });
});
