// The options in plain words (issue 8 §4), in Node: the option actions (text and controls in
// step through state.options.text), the refusal of bad options, the finish messages (the limit,
// impossible puzzles, Monte Carlo), the run details of -i/-s/-t, and Actions.solve keeping the
// solutions found when the engine refuses the options (a fake solver client).
import { describe, expect, test, vi } from 'vitest';
import { Store } from '../../web/src/app/store.js';
import { initialState, PHASE } from '../../web/src/app/state.js';
import { Actions } from '../../web/src/app/actions.js';
import { SolutionStore } from '../../web/src/ui/solution-store.js';
import {
  OptionsActions, isOptionsError, limitOf, optionsRefusal, optionsSliceForText,
} from '../../web/src/app/options-actions.js';
import { finishMessage, runDetails } from '../../web/src/app/run-report.js';
import { controlOfMessage } from '../../web/src/panels/options-panel.js';

function optionsStore(text = '-r') {
  return new Store({ ...initialState(), options: optionsSliceForText(text) });
}

describe('OptionsActions: one text, controls and text in step', () => {
  test('controls rewrite the text in the CLI form, keeping words without a control', () => {
    const store = optionsStore('-r --json');
    const o = new OptionsActions(store);
    expect(o.setControl('limit', 100)).toBe(true);
    expect(store.get().options.text).toBe('-r -l 100 --json');
    o.setControl('redundancyPiece', 'X');
    expect(store.get().options.text).toBe('-r X -l 100 --json');
    o.setControl('redundancy', false);
    expect(store.get().options.text).toBe('-l 100 --json');
    // choosing a piece to hold still turns "count rotations as one" on
    o.setControl('redundancyPiece', 'L');
    expect(store.get().options.text).toBe('-r L -l 100 --json');
    o.setControl('fitFilter', 9);
    o.setControl('monteCarlo', { trials: 50, remaining: 4, seed: '3' });
    expect(store.get().options.text).toBe('-r L -l 100 -F 9 -s 50,4,3 --json');
    o.setControl('nof', true);
    o.setControl('fila', 8);
    expect(store.get().options.text).toBe('-r L -l 100 -f 8 -n -F 9 -s 50,4,3 --json');
    o.useAutomaticAlgorithm();
    expect(store.get().options.text).toBe('-r L -l 100 -F 9 -s 50,4,3 --json');
    expect(store.get().options).toMatchObject({ error: '', errorKey: '' });
  });

  test('counting mirror images as one keeps its companion: -r comes with -M, and goes with the last of -r and -u', () => {
    const store = optionsStore('-r -M');
    const o = new OptionsActions(store);
    expect(o.setControl('redundancy', false)).toBe(true); // (QA: a bare "-M" greyed every control out)
    expect(store.get().options).toMatchObject({ text: '', error: '', errorKey: '' });
    expect(o.setControl('mirror', true)).toBe(true);
    expect(store.get().options.text).toBe('-r -M');
    o.setControl('unique', true);
    o.setControl('redundancy', false);
    expect(store.get().options.text).toBe('-M -u'); // -u still carries it
    o.setControl('unique', false);
    expect(store.get().options.text).toBe('');
  });

  test('a value that cannot be written marks its control and leaves the text alone', () => {
    const store = optionsStore('-r');
    const o = new OptionsActions(store);
    expect(o.setControl('limit', 0)).toBe(false);
    expect(store.get().options).toMatchObject({ text: '-r', errorKey: 'limit' });
    expect(store.get().options.error).toBe('Stop after N solutions: needs a whole number of at least 1');
    expect(optionsRefusal(store.get().options)).toMatch(/^Not started: “Stop after N solutions” has an error .* kept\.$/);
    expect(o.setControl('order', 'x y')).toBe(false);
    expect(store.get().options.errorKey).toBe('order');
    o.setControl('limit', null);
    expect(store.get().options).toMatchObject({ text: '-r', error: '', errorKey: '' });
    expect(optionsRefusal(store.get().options)).toBe('');
  });

  test('text that does not parse is kept as typed, marked, and blocks the controls and Solve', () => {
    const store = optionsStore('-r');
    const o = new OptionsActions(store);
    o.setText('-r -l abc');
    expect(store.get().options).toMatchObject({ text: '-r -l abc', errorKey: 'text' });
    expect(store.get().options.error).toMatch(/-l needs a positive whole number, got 'abc'/);
    expect(o.values()).toBe(null);
    expect(o.setControl('mirror', true)).toBe(false); // the typed text is never thrown away
    expect(store.get().options.text).toBe('-r -l abc');
    expect(optionsRefusal(store.get().options)).toMatch(/^Not started: the command-line options have an error/);
    o.setText('-rL -M');
    expect(store.get().options).toMatchObject({ text: '-rL -M', error: '', errorKey: '' });
    expect(o.values()).toMatchObject({ redundancy: true, redundancyPiece: 'L', mirror: true });
    // an engine refusal does not block a retry
    expect(optionsRefusal({ text: '-r Q', error: "-r: no piece named 'Q'", errorKey: 'engine' })).toBe('');
  });

  test('an engine refusal is forgotten when another puzzle is loaded; a text error is not', () => {
    const store = optionsStore('-r Q');
    new OptionsActions(store);
    store.update('options', { error: "-r: no piece named 'Q'", errorKey: 'engine' });
    store.replace({ puzzles: [{}], puzzleIndex: 0 });
    expect(store.get().options).toMatchObject({ text: '-r Q', error: '', errorKey: '' });
    store.update('options', optionsSliceForText('-l x'));
    store.replace({ puzzles: [{}, {}] });
    expect(store.get().options.errorKey).toBe('text');
  });

  test('engine messages are recognised as being about the options, and about which control', () => {
    expect(isOptionsError("custom.txt:7: -r: no piece named 'Q' in this puzzle")).toBe(true);
    expect(isOptionsError('-o: unknown heuristic \'zz\'')).toBe(true);
    expect(isOptionsError("unknown option '-Q'")).toBe(true);
    expect(isOptionsError('custom.txt:3: C directive: layout must be a list')).toBe(false);
    expect(controlOfMessage("x.txt:7: -r: no piece named 'Q' in this puzzle")).toBe('redundancyPiece');
    expect(controlOfMessage("-o: unknown heuristic 'zz'")).toBe('order');
    expect(controlOfMessage('-F needs a whole number from 1 to 100000')).toBe('fitFilter');
    expect(controlOfMessage('something else')).toBe('');
    expect(limitOf('-r -l 100')).toBe(100);
    expect(limitOf('-r')).toBe(null);
  });
});

describe('finishMessage', () => {
  const base = { elapsed: 0.25, stats: {} };
  test('a search that reached -l N stopped at the limit, whatever the worker called it', () => {
    for (const reason of ['finished', 'limit']) {
      expect(finishMessage({ ...base, reason, total: 100, options: '-r X -l 100' }))
        .toBe('Stopped at the limit of 100 solutions: 100 solutions found in 0.25 s. There may be more.');
    }
    // fewer than the limit: the search was exhausted
    expect(finishMessage({ ...base, reason: 'finished', total: 65, options: '-r -l 100', known: 65 }))
      .toBe('Finished: 65 solutions in 0.25 s. ✓ matches the known count.');
    expect(finishMessage({ ...base, reason: 'cancelled', total: 3, options: '-l 100' })).toBe('Cancelled after 0.25 s with 3 solutions found.');
  });

  test('a memoized count (--memo) says it counted without listing, and has no partial figure when cancelled', () => {
    expect(finishMessage({ ...base, reason: 'finished', total: 480, options: '--memo -r', known: 480 }))
      .toBe('Finished: counted 480 solutions in 0.25 s, by remembering subproblems (none listed to browse). ✓ matches the known count.');
    expect(finishMessage({ ...base, reason: 'cancelled', total: 0, options: '-r --memo --memo-mb 64' }))
      .toBe('Cancelled after 0.25 s: a count by remembering subproblems has no partial figure.');
  });

  test('a resumed search says the whole search\'s time, and the time since resuming (QA: only the latter)', () => {
    expect(finishMessage({ elapsed: 3.55, before: 7.09, stats: {}, reason: 'cancelled', total: 9, options: '-r' }))
      .toBe('Cancelled after 10.6 s (3.55 s since resuming) with 9 solutions found.');
    expect(finishMessage({ elapsed: 3, before: 7, stats: {}, reason: 'finished', total: 5, options: '-r', known: 5 }))
      .toBe('Finished: 5 solutions in 10.0 s (3.00 s since resuming). ✓ matches the known count.');
  });

  test('an impossible puzzle says so, with the engine\'s reason', () => {
    const stats = { impossible: 'impossible by parity: the space to fill has parity 0 (its cells of one checkerboard colour minus the other\'s), which no placement of the pieces can match' };
    expect(finishMessage({ ...base, stats, reason: 'finished', total: 0, options: '-r' }))
      .toBe('Impossible, proved before searching: by parity: the space to fill has parity 0 (its cells of one checkerboard colour minus the other\'s), which no placement of the pieces can match. No solution exists.');
  });

  test('a weighting proof (issue 12) reads the same way, with its certificate', () => {
    const stats = {
      impossible: 'impossible by corner cells: the board has 5 corner cells (cells with a wall, the border or a stationary piece, on at least one side along every axis); the pieces can cover at most 4 of them between them (at most 2 for each of the 2 copies of T)',
      impossibleBy: 'corner cells',
    };
    expect(finishMessage({ ...base, stats, reason: 'finished', total: 0, options: '-r' })).toBe(
      'Impossible, proved before searching: by corner cells: the board has 5 corner cells (cells with a wall, the border or a stationary piece, on at least one side along every axis); the pieces can cover at most 4 of them between them (at most 2 for each of the 2 copies of T). No solution exists.',
    );
  });

  test('Monte Carlo is not a count; the known count is compared only when it applies', () => {
    expect(finishMessage({ ...base, stats: { monteCarloTrials: 200 }, reason: 'finished', total: 6, options: '-r -s 200,6,7' }))
      .toBe('Monte Carlo estimate done: 200 trials in 0.25 s (6 solutions met on the way; not a full count).');
    expect(finishMessage({ ...base, reason: 'finished', total: 2339, options: '-r', known: 2339, compareKnown: false }))
      .toBe('Finished: 2,339 solutions in 0.25 s.');
    expect(finishMessage({ ...base, reason: 'finished', total: 2338, options: '-r', known: 2339 }))
      .toBe('Finished: 2,338 solutions in 0.25 s. (the known count is 2,339).');
  });
});

describe('runDetails', () => {
  const stats = {
    configuration: 'automatic: DLX', redundancyFilter: 'X (8 of 32 images kept)', found: 10, redundant: 0,
    setupSeconds: 0.01, searchSeconds: 0.2, attempts: 600, solutions: 10, monteCarloTrials: 20,
    attemptsByRemaining: [300, 200, 100], fitsByRemaining: [30, 20, 10],
    parityBacktracks: [0, 0, 0], volumeFiltered: [0, 0, 125], fitFiltered: [1, 0, 0],
  };
  test('-i: one row per number of pieces left, extra columns only for filters that did something', () => {
    const d = runDetails({ options: '-r -i', stats, phase: PHASE.DONE });
    expect(d.monteCarlo).toBeUndefined();
    expect(d.trace).toBeUndefined();
    expect(d.info.columns).toEqual(['volume filtered', 'fit filtered']);
    expect(d.info.rows).toEqual([
      { left: 1, attempts: 300, fits: 30, extra: [0, 1] },
      { left: 2, attempts: 200, fits: 20, extra: [0, 0] },
      { left: 3, attempts: 100, fits: 10, extra: [125, 0] },
    ]);
    expect(d.info.configuration).toBe('automatic: DLX');
    // On boards with holes the root's column, chosen as the search starts, is reported apart.
    const root = 'the root on the constrained piece, chosen by probes';
    expect(runDetails({ options: '-i', stats: { ...stats, root }, phase: PHASE.DONE }).info.configuration)
      .toBe(`automatic: DLX; ${root}`);
  });
  test('-s: trials and placements per trial; -t: the events counted', () => {
    const d = runDetails({ options: '-r -s 20,4 -t 3', stats, traceEvents: 14, phase: PHASE.DONE });
    expect(d.monteCarlo).toEqual({ trials: 20, asked: 20, remaining: 4, attempts: 600, perTrial: 30, solutions: 10 });
    expect(d.trace).toEqual({ at: 3, events: 14 });
    expect(d.info).toBeDefined(); // the per-level table is the estimate's detail
  });
  test('nothing to show without those options, or without statistics', () => {
    expect(runDetails({ options: '-r -l 5', stats, phase: PHASE.DONE })).toBe(null);
    expect(runDetails({ options: '-r -i', stats: null, phase: PHASE.DONE })).toBe(null);
  });
});

describe('Actions.solve and bad options', () => {
  const puzzle = { title: 'T', xDim: 2, yDim: 1, zDim: 1, pieces: [{ name: 'A', cells: [[0, 0, 0], [1, 0, 0]] }], instances: [{ name: 'A', piece: 0, stationary: false }] };

  function setup(solveImpl) {
    const calls = [];
    const client = {
      ready: Promise.resolve({ version: 'test' }),
      load: async () => [puzzle],
      solve: (index, options, handlers) => {
        calls.push(options);
        return solveImpl(index, options, handlers);
      },
      cancel() {},
      terminate() {},
    };
    const store = new Store(initialState());
    const actions = new Actions(store, { createClient: () => client, entries: [], defaultFile: '' });
    const found = new SolutionStore(2, 1);
    found.add(new Int32Array([0, 0, 0, 0]), 2);
    const text = 'D:xDim=2:yDim=1:zDim=1\nC:name=A:layout=0 0 0, 1 0 0\n~D\n';
    return { store, actions, calls, found, text };
  }

  test('text that does not parse never reaches the solver and keeps the solutions', async () => {
    const { store, actions, calls, found, text } = setup(() => { throw new Error('not called'); });
    await actions.loadDefinition(text);
    store.replace({ solutions: { store: found, total: 2, shown: 1, revision: 5 } });
    actions.setOptionsText('-r -l abc');
    expect(store.get().options.errorKey).toBe('text');
    await actions.solve();
    expect(calls).toEqual([]);
    expect(store.get().run.phase).toBe(PHASE.ERROR);
    expect(store.get().run.message).toMatch(/^Not started/);
    expect(store.get().solutions).toMatchObject({ store: found, total: 2, shown: 1 });
  });

  test('an engine refusal marks the options and puts the solutions found back', async () => {
    const message = "custom.txt:1: -r: no piece named 'Q' in this puzzle";
    const { store, actions, calls, found, text } = setup(() => ({ id: 1, done: Promise.reject(new Error(message)) }));
    await actions.loadDefinition(text);
    store.replace({ solutions: { store: found, total: 2, shown: 1, revision: 5 } });
    store.update('run', { stats: { attempts: 77, solutions: 2 }, elapsed: 0.5 });
    actions.setOptionsText('-r Q');
    await actions.solve();
    expect(calls).toEqual(['-r Q']);
    // the counters of the search those solutions came from, with them (QA: they read 0)
    expect(store.get().run).toMatchObject({ stats: { attempts: 77, solutions: 2 }, elapsed: 0.5 });
    expect(store.get().options).toMatchObject({ error: message, errorKey: 'engine' });
    expect(store.get().run.phase).toBe(PHASE.ERROR);
    expect(store.get().run.message).toMatch(/refused the options: .*no piece named 'Q'.*kept/);
    const sol = store.get().solutions;
    expect(sol).toMatchObject({ store: found, total: 2, shown: 1 });
    expect(sol.revision).toBeGreaterThan(5); // redrawn
    // editing the options clears the engine's mark
    actions.setOptionsText('-r');
    expect(store.get().options).toMatchObject({ error: '', errorKey: '' });
  });

  test('Cancel: the time said is until Cancel was pressed, not until the workers answered; a notice goes with the puzzle it was about', async () => {
    let finish = null;
    const { store, actions, text } = setup(() => ({ id: 1, done: new Promise((resolve) => { finish = resolve; }) }));
    store.update('notice', 'The puzzle in the link could not be read: ...');
    await actions.loadDefinition(text);
    expect(store.get().notice).toBe(''); // (QA: it stayed up over the next puzzle solved)
    // (the page's clock is the test's: Cancel is pressed 0.25 s in, whatever the machine's load)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    try {
      const solving = actions.solve();
      await vi.advanceTimersByTimeAsync(250);
      actions.cancel();
      // the workers answer late (more workers than cores): their own clock says 7.3 s
      await vi.advanceTimersByTimeAsync(2000);
      finish({ reason: 'cancelled', stats: { seconds: 7.3, solutions: 0 } });
      await solving;
    } finally {
      vi.useRealTimers();
    }
    expect(store.get().run.phase).toBe(PHASE.CANCELLED);
    expect(store.get().run.message).toBe('Cancelled after 0.25 s with 0 solutions found.');
  });

  test('a search that finds every solution ends the offer to resume the same search stopped earlier (QA)', async () => {
    const { store, actions, text } = setup(() => ({ id: 1, done: Promise.resolve({ reason: 'finished', stats: { solutions: 0 } }) }));
    let cleared = 0;
    actions.savedSearches = { clear: async () => { cleared++; } };
    await actions.loadDefinition(text);
    actions.setOptionsText('-r');
    const record = { text, puzzleIndex: 0, options: '-r' };
    actions.savedRecord = record;
    store.replace({ saved: { title: 'T', options: '-r', fraction: 0.5, solutions: 0, savedAt: 0, elapsed: 1 } });
    actions.setOptionsText('-r -l 5'); // another search: its offer stays
    await actions.solve();
    expect(store.get().saved).not.toBe(null);
    actions.setOptionsText('-r');
    await actions.solve();
    expect(store.get().saved).toBe(null);
    expect(cleared).toBe(1);
  });

  test('solutions found while searching are drawn with the counters, the first too, and all at the end', async () => {
    let handlers = null;
    let finish = null;
    const { store, actions, text } = setup((i, o, h) => {
      handlers = h;
      return { id: 1, done: new Promise((resolve) => { finish = resolve; }) };
    });
    await actions.loadDefinition(text);
    const rounds = [];
    store.subscribe(['solutions'], (s) => rounds.push(s.solutions.total));
    const solving = actions.solve();
    await new Promise((r) => setTimeout(r, 0));
    expect(store.get().run.phase).toBe(PHASE.RUNNING);
    rounds.length = 0;
    const grid = new Int32Array([0, 0]);
    handlers.onSolutions({ grids: grid, count: 1 }); // the first: drawn with the counters (a 3-D
    expect(rounds).toEqual([]);                       // drawing costs the workers CPU without a GPU)
    actions.tick();
    expect(rounds).toEqual([1]);
    expect(store.get().solutions.shown).toBe(0);
    for (let k = 0; k < 30; k++) handlers.onSolutions({ grids: grid, count: 1 }); // a burst of batches
    expect(rounds).toEqual([1]);
    actions.tick(); // the counters' redraw brings them all in one round
    expect(rounds).toEqual([1, 31]);
    actions.tick(); // nothing new: no redraw of the solutions
    expect(rounds).toEqual([1, 31]);
    handlers.onSolutions({ grids: grid, count: 1 });
    finish({ reason: 'finished', stats: { solutions: 32, seconds: 0.1 } });
    await solving;
    expect(rounds).toEqual([1, 31, 32, 32]); // the last batch, then the end's count
    expect(store.get().solutions.total).toBe(32);
    expect(store.get().run.phase).toBe(PHASE.DONE);
  });

  test('the counters are redrawn 5 times a second at first, twice a second once the search is long, never after it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance', 'Date'] });
    try {
      let finish = null;
      const { store, actions, text } = setup(() => ({ id: 1, done: new Promise((resolve) => { finish = resolve; }) }));
      await actions.loadDefinition(text);
      const redraws = [];
      store.subscribe(['run'], (s) => { if (s.run.phase === PHASE.RUNNING) redraws.push(s.run.elapsed); });
      const solving = actions.solve();
      await vi.advanceTimersByTimeAsync(0);
      redraws.length = 0;
      await vi.advanceTimersByTimeAsync(2000);
      expect(redraws.length).toBe(10);
      expect(redraws[9]).toBeCloseTo(2, 5);
      await vi.advanceTimersByTimeAsync(3000);
      expect(redraws.length).toBe(16);
      expect(redraws[15]).toBeCloseTo(5, 5);
      finish({ reason: 'finished', stats: { solutions: 0, seconds: 5 } });
      await solving;
      const count = redraws.length;
      await vi.advanceTimersByTimeAsync(3000);
      expect(redraws.length).toBe(count);
    } finally {
      vi.useRealTimers();
    }
  });

  test('-l N inside the options, reported as finished by the worker, says it stopped at the limit', async () => {
    const { store, actions, text } = setup((i, o, handlers) => {
      handlers.onSolutions({ grids: new Int32Array([0, 0, 0, 0, 0, 0]), count: 3 });
      handlers.onTrace(new Int32Array(8));
      return { id: 1, done: Promise.resolve({ reason: 'finished', stats: { solutions: 3, seconds: 0.5 } }) };
    });
    await actions.loadDefinition(text);
    actions.setOptionsText('-l 3 -t 1');
    await actions.solve();
    expect(store.get().run).toMatchObject({ phase: PHASE.DONE, traceEvents: 2 });
    expect(store.get().run.message).toMatch(/^Stopped at the limit of 3 solutions/);
  });
});
