// Solve / Cancel, the status line and the live counters.
import { PHASE } from '../app/state.js';
import { big, num, secs } from '../app/format.js';
import { byId } from './dom.js';

export function mountSolvePanel(store, actions) {
  const el = {
    solve: byId('solve'), cancel: byId('cancel'), status: byId('status'),
    count: byId('solution-count'), attempts: byId('stat-attempts'), seconds: byId('stat-seconds'),
  };
  el.solve.addEventListener('click', () => actions.solve());
  el.cancel.addEventListener('click', () => actions.cancel());

  let lastPhase = null;
  store.subscribe(['run', 'solutions', 'puzzles'], (s) => {
    const { phase } = s.run;
    const running = phase === PHASE.RUNNING;
    // Keep the keyboard focus on the button that makes sense now: a disabled button drops it.
    const hadFocus = document.activeElement === el.solve || document.activeElement === el.cancel;
    el.solve.disabled = running || phase === PHASE.LOADING || s.puzzles.length === 0;
    el.cancel.disabled = !running;
    if (hadFocus && phase !== lastPhase) (running ? el.cancel : el.solve).focus();
    lastPhase = phase;
    el.status.textContent = s.run.message;

    const stats = s.run.stats || {};
    const total = Math.max(s.solutions.total, stats.solutions || 0);
    el.count.textContent = num(total);
    el.count.dataset.count = String(total);
    el.attempts.textContent = big(stats.attempts);
    el.attempts.dataset.value = String(stats.attempts || 0);
    el.attempts.title = stats.attempts ? `${num(stats.attempts)} placements tried, ${num(stats.fits)} fitted` : '';
    el.seconds.textContent = secs(s.run.elapsed);
  });
}
