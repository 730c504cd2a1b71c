// Recording a search to replay (app/watch-actions.js record): the replay needs the image table,
// which the page asks for once the search has started; a search shorter than a slice ends
// before the table comes, and the recording must wait for it (a lesson on the Soma cube found
// no replay at the end of its recording).
import { describe, expect, test } from 'vitest';
import { Store } from '../../web/src/app/store.js';
import { initialState, PHASE } from '../../web/src/app/state.js';
import { WatchActions } from '../../web/src/app/watch-actions.js';
import { record } from './helpers.js';

describe('a recording whose search ends before its image table comes', () => {
  test('has its replay when record() returns', async () => {
    const { rec, table, puzzle } = await record('lesson_tiny_4x3.txt', '-b 3 -t 1');
    const store = new Store(initialState());
    const events = rec.data.slice(0, rec.length * 4);
    const actions = {
      running: null,
      currentPuzzle: () => puzzle,
      // as the worker answers: the trace and the end of the search first, the table a task later
      solve: async ({ onTrace, onImageTable }) => {
        onTrace(events);
        setTimeout(() => onImageTable(table), 0);
        store.update('run', { phase: PHASE.DONE, reason: 'finished', options: '-b 3 -t 1' });
      },
    };
    const watch = new WatchActions(store, actions, { now: () => 0, frame: () => {} });
    await watch.record();
    expect(watch.player).not.toBeNull();
    expect(watch.player.length).toBe(98);
    expect(store.get().watch.ended).toBe('finished');
    expect(store.get().watch.accuracy).not.toBeNull(); // the estimate checked against the whole search
  });

  test('so has the second search of a comparison', async () => {
    const { rec, table, puzzle } = await record('lesson_tiny_4x3.txt', '-b 3 -t 1');
    const other = await record('lesson_tiny_4x3.txt', '-o s -t 1');
    const store = new Store(initialState());
    const runs = [[rec, table], [other.rec, other.table]];
    const actions = {
      running: null,
      currentPuzzle: () => puzzle,
      solve: async ({ onTrace, onImageTable }) => {
        const [r, t] = runs.shift();
        onTrace(r.data.slice(0, r.length * 4));
        setTimeout(() => onImageTable(t), 0);
        store.update('run', { phase: PHASE.DONE, reason: 'finished', options: '' });
      },
    };
    const watch = new WatchActions(store, actions, { now: () => 0, frame: () => {} });
    await watch.record();
    await watch.compareWith({ label: 'dancing links', options: '-o s' });
    expect(watch.other && watch.other.player).toBeTruthy();
    expect(watch.other.player.length).toBe(other.rec.length);
    expect(store.get().watch.compare).toMatchObject({ recording: false, steps: other.rec.length });
  });

  test('a search that never started leaves no replay and does not wait', async () => {
    const store = new Store(initialState());
    const { puzzle } = await record('lesson_tiny_4x3.txt', '-b 3 -t 1');
    const actions = { running: null, currentPuzzle: () => puzzle, solve: async () => {} };
    const watch = new WatchActions(store, actions, { now: () => 0, frame: () => {} });
    await watch.record();
    expect(watch.player).toBeNull();
  });
});
