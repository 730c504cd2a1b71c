// The Workers control (issue 10): how many solver workers share a search (pool/solver-pool.js).
// Kept in the browser; one per logical core is the default and, measured, the fastest.
import { PHASE } from '../app/state.js';
import { byId, setProp, setText } from './dom.js';
import { MAX_POOL_SIZE, defaultPoolSize } from '../pool/solver-pool.js';

export function mountWorkersPanel(store, actions) {
  const input = byId('workers');
  const note = byId('workers-note');
  input.max = String(MAX_POOL_SIZE);
  const commit = () => {
    const n = Number(input.value);
    if (input.value.trim() === '' || !Number.isFinite(n)) {
      input.value = String(store.get().settings.workers); // nothing sensible typed: keep the setting
      return;
    }
    actions.setWorkers(n);
    input.value = String(store.get().settings.workers);
  };
  input.addEventListener('change', commit);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') commit();
  });
  store.subscribe(['settings', 'run'], (s) => {
    if (document.activeElement !== input) input.value = String(s.settings.workers);
    const running = s.run.phase === PHASE.RUNNING;
    const stats = s.run.stats || {};
    const cores = defaultPoolSize();
    let text = `${s.settings.workers === 1 ? 'One worker searches' : `${s.settings.workers} workers share each search`}; this device has ${cores} ${cores === 1 ? 'core' : 'cores'}.`;
    if (running && stats.workers > 0) text = `${stats.workers} ${stats.workers === 1 ? 'worker' : 'workers'} searching, ${stats.pieces} pieces of the tree so far.`;
    else if (running && s.run.options && stats.attempts !== undefined && !stats.workers) text = 'One worker searches (these options cannot be shared).';
    setText(note, text);
    setProp(input, 'title', 'Solver workers sharing the next search (one per core is fastest). A change applies from the next Solve.');
  });
}
