// "Where did this hole appear?" (trace/holes.js explainDeadEnd, app/watch-actions.js holeOrigin):
// a position is called one that could never be completed only when the board is never filled
// below it in the recording. QA found the page saying so of the position just above Solution 1
// on 10x6 -r (the dead end at step 12,335 is the level at cell (9, 2) exhausted after that
// solution, not a hole). Checked on a synthetic event list that has every kind of answer, and
// on real traces from the WebAssembly engine against a direct count of the solutions.
import { describe, expect, test } from 'vitest';
import { TraceRecording } from '../../web/src/trace/recording.js';
import { TracePlayer, isDeadEnd } from '../../web/src/trace/player.js';
import { completionsBefore, explainDeadEnd, isCompletion, matchingRemoves, worstHole } from '../../web/src/trace/holes.js';
import { WatchActions } from '../../web/src/app/watch-actions.js';
import { Store } from '../../web/src/app/store.js';
import { PHASE, initialState } from '../../web/src/app/state.js';
import { TRACE_OP } from '../../web/src/worker/protocol.js';
import { record } from './helpers.js';

const { PLACE, REMOVE, CHOOSE, CANDIDATE, SOLUTION, NO_FIT, EXHAUSTED, PARITY_TRIGGER } = TRACE_OP;

function recordingOf(events) {
  const rec = new TraceRecording(1000);
  rec.append(Int32Array.from(events.flat()));
  return rec;
}

const analysis = (rec) => ({ match: matchingRemoves(rec), done: completionsBefore(rec) });

/** Replay to just after event `index` and explain it. */
function explainAt(puzzle, player, rec, index) {
  player.seek(index + 1);
  return explainDeadEnd(puzzle, player, analysis(rec));
}

// A row of 5 cells (0..4) and three pieces: P (image 0: cells 1, 2), R (image 1: cells 3, 4) and
// Q (image 2: cell 3; image 3: cell 0). Each record: [op, pieces left, a, b].
const row = { xDim: 5, yDim: 1, zDim: 1, pieces: [], instances: [{ name: 'P', piece: 0 }, { name: 'R', piece: 1 }, { name: 'Q', piece: 2 }] };
const rowImages = { offsets: Int32Array.from([0, 2, 4, 5, 6]), cells: Int32Array.from([1, 2, 3, 4, 3, 0]) };
const rowEvents = [
  [PLACE, 3, 0, 0],        // 0  P on 1-2: cell 0 is walled in, alone
  [CHOOSE, 2, 3, 2],       // 1  cell 3: R or Q
  [CANDIDATE, 2, 1, 1],    // 2
  [CANDIDATE, 2, 2, 2],    // 3
  [PLACE, 2, 1, 1],        // 4  R on 3-4
  [CHOOSE, 1, 0, 1],       // 5  cell 0: Q
  [CANDIDATE, 1, 2, 3],    // 6
  [PLACE, 1, 2, 3],        // 7  Q on 0: the board is full
  [SOLUTION, 0, 1, 0],     // 8  Solution 1
  [REMOVE, 1, 2, 3],       // 9
  [EXHAUSTED, 1, 0, 1],    // 10 cell 0's one way tried: it led to Solution 1 (the QA case)
  [REMOVE, 2, 1, 1],       // 11
  [PLACE, 2, 2, 2],        // 12 Q on 3: cell 4 walled in; cell 0 still alone, as since event 0
  [CHOOSE, 1, 0, 0],       // 13
  [NO_FIT, 1, 0, 0],       // 14 nothing fits cell 0 -- but the position after event 0 was completed
  [REMOVE, 2, 2, 2],       // 15
  [EXHAUSTED, 2, 3, 2],    // 16 cell 3's two ways tried, one led to Solution 1
  [REMOVE, 3, 0, 0],       // 17
  [PLACE, 3, 2, 2],        // 18 Q on 3: cell 4 walled in
  [CHOOSE, 2, 4, 0],       // 19
  [NO_FIT, 2, 4, 0],       // 20 nothing fits cell 4, and no board is ever filled below event 18
  [REMOVE, 3, 2, 2],       // 21
  [PARITY_TRIGGER, 3, -1, 0], // 22
];

describe('explainDeadEnd on a synthetic search', () => {
  const rec = recordingOf(rowEvents);
  const player = new TracePlayer(rec, rowImages, 5);

  test('the end of a level whose ways led to a solution is the end of a branch, not a hole', () => {
    expect(explainAt(row, player, rec, 10)).toEqual({ kind: 'branchEnd', target: 0, level: 5, found: 10, completions: 1, last: 8 });
    expect(explainAt(row, player, rec, 16)).toEqual({ kind: 'branchEnd', target: 3, level: 1, found: 16, completions: 1, last: 8 });
  });

  test('a region whose maker position was completed is not called one that could never be completed', () => {
    const why = explainAt(row, player, rec, 14);
    expect(why).toMatchObject({ kind: 'completed', made: 0, found: 14, cleared: 17, clearedInRecord: true, cell: 0, size: 1, completions: 1, first: 8 });
  });

  test('a hole below which no board is filled is one', () => {
    expect(explainAt(row, player, rec, 20)).toEqual({ kind: 'hole', made: 18, found: 20, cleared: 21, clearedInRecord: true, cell: 4, size: 1 });
  });

  test('a parity dead end is about no one cell; a step that is no dead end has nothing to explain', () => {
    expect(explainAt(row, player, rec, 22)).toEqual({ kind: 'notAtCell', op: PARITY_TRIGGER });
    expect(explainAt(row, player, rec, 12)).toEqual({ kind: 'none' });
    player.seek(0);
    expect(explainDeadEnd(row, player, analysis(rec))).toEqual({ kind: 'none' });
  });

  test('stepping back over a dead end and forth again gives the same answer', () => {
    const first = explainAt(row, player, rec, 10);
    player.seek(3);
    expect(explainAt(row, player, rec, 10)).toEqual(first);
  });

  test('a hole not yet cleared when the recording ends says so', () => {
    const cut = recordingOf(rowEvents.slice(0, 21)); // ends at the dead end of event 20
    const p = new TracePlayer(cut, rowImages, 5);
    expect(explainAt(row, p, cut, 20)).toEqual({ kind: 'hole', made: 18, found: 20, cleared: 21, clearedInRecord: false, cell: 4, size: 1 });
  });

  test('a region small from the start was made by no step', () => {
    // three cells, the middle one taken by a stationary piece: cell 0 is alone before any placement
    const puzzle = { xDim: 3, yDim: 1, zDim: 1, pieces: [{ cells: [[1, 0, 0]] }, {}], instances: [{ name: 'S', piece: 0, stationary: true }, { name: 'A', piece: 1 }] };
    const r = recordingOf([[CHOOSE, 1, 0, 0], [NO_FIT, 1, 0, 0]]);
    const p = new TracePlayer(r, { offsets: Int32Array.from([0, 1]), cells: Int32Array.from([2]) }, 3);
    expect(explainAt(puzzle, p, r, 1)).toEqual({ kind: 'fromStart', cell: 0, size: 1, found: 1 });
  });

  test('completions: the SOLUTION event (a turned copy too), or the last piece placed by an engine that does not report it', () => {
    const r = recordingOf([[PLACE, 1, 0, 0], [SOLUTION, 0, 0, 0], [REMOVE, 1, 0, 0], [PLACE, 1, 0, 0], [REMOVE, 1, 0, 0], [PLACE, 2, 0, 0]]);
    expect([0, 1, 2, 3, 4, 5].map((i) => isCompletion(r, i))).toEqual([false, true, false, true, false, false]);
    expect(Array.from(completionsBefore(r))).toEqual([0, 0, 1, 1, 2, 2, 2]);
  });
});

/** Boards filled among events (from, to), counted directly. */
function filledBetween(rec, from, to) {
  let n = 0;
  for (let i = from + 1; i < to; i++) if (rec.op(i) === SOLUTION || (rec.op(i) === PLACE && rec.remaining(i) === 1 && rec.op(i + 1) !== SOLUTION)) n++;
  return n;
}

describe('on the engine\'s traces', () => {
  test('10x6 -r: every dead end is explained truly, and the one after Solution 1 is the end of a branch', async () => {
    const { rec, table, cellCount, puzzle } = await record('pentominoes_10x6.txt', '-r -l 2 -t 1');
    const player = new TracePlayer(rec, table, cellCount);
    const an = analysis(rec);
    const kinds = {};
    while (player.forward()) {
      const ev = player.current();
      if (!isDeadEnd(ev.op)) continue;
      const why = explainDeadEnd(puzzle, player, an);
      kinds[why.kind] = (kinds[why.kind] || 0) + 1;
      if (why.kind === 'hole' || why.kind === 'completed') {
        expect(rec.op(why.made)).toBe(PLACE);
        expect(why.made).toBeLessThan(why.found);
        expect(why.found).toBeLessThan(why.cleared);
        // the claim: "could never be completed" exactly when nothing below the maker is filled
        expect(filledBetween(rec, why.made, why.cleared) === 0).toBe(why.kind === 'hole');
      }
      if (why.kind === 'branchEnd') {
        expect(ev.op).toBe(EXHAUSTED);
        expect(rec.op(why.level)).toBe(CHOOSE);
        expect(rec.a(why.level)).toBe(ev.a);
        expect(filledBetween(rec, why.level, why.found)).toBe(why.completions);
        expect(isCompletion(rec, why.last)).toBe(true);
      }
    }
    expect(kinds.hole).toBeGreaterThan(100);
    expect(kinds.branchEnd).toBeGreaterThan(0);
    // QA's case: the first dead end after Solution 1
    const solution = player.find(0, 1, (ev) => ev.op === SOLUTION && ev.a === 1);
    const dead = player.find(solution, 1, (ev) => isDeadEnd(ev.op));
    expect(rec.op(dead)).toBe(EXHAUSTED);
    const why = explainAt(puzzle, player, rec, dead);
    expect(why.kind).toBe('branchEnd');
    expect(why.last).toBe(solution);
  });

  test('the troublesome hole (lesson 1) is one below which no board is filled', async () => {
    const { rec, table, cellCount, puzzle } = await record('pentominoes_10x6.txt', '-r -l 20 -t 1');
    const player = new TracePlayer(rec, table, cellCount);
    const hole = await worstHole(puzzle, rec, (image) => player.cellsOf(image), { maxDeadEnds: 1e9, pause: () => Promise.resolve() });
    expect(hole).not.toBeNull();
    expect(filledBetween(rec, hole.made, hole.cleared)).toBe(0);
  });
});

describe('the watch panel\'s words (WatchActions.holeOrigin)', () => {
  async function watching(file, options) {
    const { rec, table, cellCount, puzzle } = await record(file, options);
    const store = new Store(initialState());
    const watch = new WatchActions(store, {}, { now: () => 0, frame: () => {} });
    watch.puzzle = puzzle;
    watch.recording = rec;
    watch.table = table;
    watch.player = new TracePlayer(rec, table, cellCount);
    store.update('watch', { active: true, steps: rec.length, ended: 'limit' });
    return { watch, store, rec };
  }

  test('10x6 -r, Next solution, Next dead end, "Where did this hole appear?": the end of a branch after a solution, and the view stays', async () => {
    const { watch, store } = await watching('pentominoes_10x6.txt', '-r -l 2 -t 1');
    watch.jump('solution', 1);
    const atSolution = watch.player.step;
    watch.jump('deadEnd', 1);
    const atDeadEnd = watch.player.step;
    expect(atDeadEnd).toBe(atSolution + 2); // take the last piece back, then the level is exhausted
    watch.holeOrigin();
    const w = store.get().watch;
    expect(w.note).not.toMatch(/could never be completed/);
    expect(w.note).toMatch(/no hole/);
    expect(w.note).toMatch(new RegExp(`end of a branch after solutions`));
    expect(w.note).toMatch(new RegExp(`last at step ${atSolution.toLocaleString('en-US')}\\b`));
    expect(w.origin).toBeNull();
    expect(watch.player.step).toBe(atDeadEnd);
  });

  test('a dead end where nothing fits goes back to the step that walled its hole in', async () => {
    const { watch, store, rec } = await watching('pentominoes_10x6.txt', '-r -l 2 -t 1');
    const i = watch.player.find(0, 1, (ev) => ev.op === NO_FIT && ev.a >= 0);
    watch.seek(i + 1);
    watch.holeOrigin();
    const w = store.get().watch;
    expect(w.note).toMatch(/^Step [\d,]+ walls in a hole of \d+ cells? at cell [A-Z]+\d+\. The search runs into it at step [\d,]+ and only clears it at step [\d,]+, when it takes that piece back: [\d,]+ steps below a position that could never be completed/);
    expect(w.origin.found).toBe(i + 1);
    expect(watch.player.step).toBe(w.origin.made);
    expect(filledBetween(rec, w.origin.made - 1, w.origin.cleared - 1)).toBe(0);
  });

  test('a search started while a replay is open closes the replay and says why; a recording does not', async () => {
    const { watch, store } = await watching('soma.txt', '-r -t 1');
    watch.seek(5);
    store.update('watch', { recording: true }); // its own recording runs a search: kept
    store.update('run', { phase: PHASE.RUNNING });
    expect(store.get().watch.active).toBe(true);
    store.update('run', { phase: PHASE.DONE });
    store.update('watch', { recording: false, compare: { recording: true } }); // the comparison's: kept
    store.update('run', { phase: PHASE.RUNNING });
    expect(store.get().watch.active).toBe(true);
    store.update('run', { phase: PHASE.DONE });
    store.update('watch', { compare: null });
    store.update('run', { phase: PHASE.RUNNING }); // Solve
    const w = store.get().watch;
    expect(w.active).toBe(false);
    expect(watch.player).toBeNull();
    expect(w.note).toMatch(/Stopped watching/);
  });
});
