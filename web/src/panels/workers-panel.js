// The Workers control (issue 10): how many solver workers share a search (pool/solver-pool.js).
// Kept in the browser; one per logical core is the default and, measured, the fastest.
import { PHASE } from '../app/state.js';
import { byId, setProp, setText } from './dom.js';
import { plural } from '../app/format.js';
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
    const n = s.settings.workers;
    let text = `${n === 1 ? 'One worker searches' : `${n} workers share each search`}; this device has ${plural(cores, 'core')}.`;
    // More workers than cores search no faster, and the page itself then waits for a core (QA:
    // Cancel answered 1.3-1.5 s late with 8 or 16 workers on 2 cores, 0.2 s with 2).
    const warning = n > cores ? ' More workers than cores make no search faster and can make the page slow to respond.' : '';
    text += warning;
    if (running && stats.workers > 0) text = `${plural(stats.workers, 'worker')} searching, ${plural(stats.pieces, 'piece')} of the tree so far.`;
    else if (running && s.run.options && stats.attempts !== undefined && !stats.workers) text = 'One worker searches (these options cannot be shared).';
    setText(note, text);
    setProp(note.dataset, 'over', warning && text.endsWith(warning) ? '1' : '0');
    setProp(input, 'title', 'Solver workers sharing the next search (one per core is fastest). A change applies from the next Solve.');
  });
}
