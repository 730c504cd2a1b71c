// The Workers control: how many solver workers share a search (pool/solver-pool.js).
// Kept in the browser; one per logical core is the default and the fastest (bench/POOL.md).
import { PHASE } from '../app/state.js';
import { byId, setProp, setText } from './dom.js';
import { plural } from '../app/format.js';
import { MAX_POOL_SIZE, clampPoolSize, defaultPoolSize } from '../pool/solver-pool.js';

export function mountWorkersPanel(store, actions) {
  const input = byId('workers');
  const note = byId('workers-note');
  input.max = String(MAX_POOL_SIZE);
  // what became of a number that is not a worker count (0, 33 or 1.5 is never changed silently)
  let adjusted = '';
  // typed into since the last commit: the setting's own value typed again is then the person's
  // answer to the note about a rejected one, which goes (33 -> 32, then 32 typed: the note
  // about 33 goes)
  let typedSince = false;
  input.addEventListener('input', () => { typedSince = true; });
  const commit = () => {
    const typed = input.value.trim();
    const edited = typedSince;
    typedSince = false;
    // (Enter, then the change event of the same edit: the second one finds the setting's own value)
    if (typed === String(store.get().settings.workers)) {
      if (edited && adjusted) {
        adjusted = '';
        render(store.get());
      }
      return;
    }
    const n = Number(typed);
    if (typed === '' || !Number.isFinite(n)) {
      input.value = String(store.get().settings.workers); // nothing sensible typed: keep the setting
      if (adjusted) {
        adjusted = ''; // (the note is about an earlier value, not this: a cleared field drops it)
        render(store.get());
      }
      return;
    }
    const workers = clampPoolSize(n);
    adjusted = workers !== n ? `${typed.slice(0, 12)} is not a number of workers (a whole number from 1 to ${MAX_POOL_SIZE}): ${workers} it is. ` : '';
    actions.setWorkers(n);
    input.value = String(store.get().settings.workers);
    render(store.get());
  };
  input.addEventListener('change', commit);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') commit();
  });
  function render(s) {
    if (document.activeElement !== input) input.value = String(s.settings.workers);
    const running = s.run.phase === PHASE.RUNNING;
    const stats = s.run.stats || {};
    const cores = defaultPoolSize();
    const n = s.settings.workers;
    let text = `${n === 1 ? 'One worker searches' : `${n} workers share each search`}; this device has ${plural(cores, 'core')}.`;
    // More workers than cores search no faster, and the page itself then waits for a core
    // (Cancel answers late), hence the warning.
    const warning = n > cores ? ' More workers than cores make no search faster and can make the page slow to respond.' : '';
    text += warning;
    if (running && stats.workers > 0) text = `${plural(stats.workers, 'worker')} searching, ${plural(stats.pieces, 'piece')} of the tree so far.`;
    else if (running && s.run.options && stats.attempts !== undefined && !stats.workers) text = 'One worker searches (these options cannot be shared).';
    else text = adjusted + text;
    if (running) adjusted = ''; // (said until the next search)
    setText(note, text);
    setProp(note.dataset, 'over', warning && text.endsWith(warning) ? '1' : '0');
    setProp(input, 'title', 'Solver workers sharing the next search (one per core is fastest). A change applies from the next Solve.');
  }
  store.subscribe(['settings', 'run'], render);
}
