// Solve / Cancel, the status line, the counting and listing hints and the live counters.
import { PHASE } from '../app/state.js';
import { canSolve, countingHint, listingHint } from '../app/selectors.js';
import { big, linkedWords, mib, num, progressText, secs } from '../app/format.js';
import { byId, isTyping, setMessage, setText, setProp } from './dom.js';

export function mountSolvePanel(store, actions, editor, options) {
  const el = {
    solve: byId('solve'), cancel: byId('cancel'), status: byId('status'),
    hint: byId('count-hint'), hintText: byId('count-hint-text'), countInstead: byId('count-instead'),
    listHint: byId('list-hint'), listHintText: byId('list-hint-text'), listInstead: byId('list-instead'),
    count: byId('solution-count'), attempts: byId('stat-attempts'), seconds: byId('stat-seconds'),
    progress: byId('stat-progress'),
  };
  el.solve.addEventListener('click', () => editor.solveShown()); // (the editor's puzzle while it shows one)
  el.cancel.addEventListener('click', () => actions.cancel());
  el.countInstead.addEventListener('click', () => actions.countInstead(options));
  el.listInstead.addEventListener('click', () => actions.listInstead(options));
  // Escape stops a running search from anywhere on the page (the focus may be anywhere after Solve).
  document.addEventListener('keydown', (e) => {
    // (not from a text field, where Escape belongs to the field)
    if (e.key === 'Escape' && !e.defaultPrevented && !isTyping(e) && store.get().run.phase === PHASE.RUNNING) actions.cancel();
  });
  // Whether the keyboard focus belongs to Solve/Cancel. A disabled button drops its focus to
  // <body> without a focusin anywhere, so "focus on body" keeps the last owner: Solve goes
  // through LOADING ("Reloading the puzzle…") and RUNNING, disabled in both, and the focus
  // must come back to Solve afterwards instead of being lost.
  let ownsFocus = false;
  document.addEventListener('focusin', (e) => {
    ownsFocus = e.target === el.solve || e.target === el.cancel;
  });

  let lastPhase = null;
  store.subscribe(['run', 'solutions', 'puzzles', 'editor', 'source', 'saved'], (s) => {
    const { phase } = s.run;
    const running = phase === PHASE.RUNNING;
    // Keep the keyboard focus on the button that makes sense now: a disabled button drops it.
    const active = document.activeElement;
    const hadFocus = active === el.solve || active === el.cancel || (ownsFocus && (!active || active === document.body));
    setProp(el.solve, 'disabled', !canSolve(s));
    setProp(el.cancel, 'disabled', !running);
    if (hadFocus && phase !== lastPhase) {
      const target = running ? el.cancel : el.solve;
      if (!target.disabled) target.focus();
    }
    lastPhase = phase;
    // a kept search offered for resuming (resume-panel.js): the status speaks of both ways on,
    // not of Solve alone beside the offer; a solution the address kept is named first
    const offered = phase === PHASE.READY && s.saved && !s.saved.refused;
    setMessage(el.status, offered ? offerStatus(s.solutions) : s.run.message);
    setProp(el.status.dataset, 'beat', running && Math.floor(s.run.elapsed * 2) % 2 === 1 ? '1' : '0'); // styles.css

    const hint = countingHint(s);
    setProp(el.hint, 'hidden', !hint);
    if (hint) setText(el.hintText, hintWords(hint));
    const listing = listingHint(s);
    setProp(el.listHint, 'hidden', !listing);
    if (listing) setText(el.listHintText, listingWords(listing));

    const stats = s.run.stats || {};
    const total = Math.max(s.solutions.total, stats.solutions || 0);
    // (past eight digits the full number does not fit its box: the short form, the full one as its title)
    setText(el.count, total >= 1e7 ? big(total) : num(total));
    setProp(el.count, 'title', total >= 1e7 ? `${num(total)} solutions` : '');
    setProp(el.count.dataset, 'count', String(total));
    setText(el.attempts, big(stats.attempts));
    setProp(el.attempts.dataset, 'value', String(stats.attempts || 0));
    setProp(el.attempts, 'title', stats.attempts ? `${num(stats.attempts)} placements tried, ${num(stats.fits)} fitted` : '');
    setText(el.seconds, secs(s.run.elapsed + (s.run.elapsedBefore || 0))); // (a resumed search: its whole time)
    // Progress: the engine's estimate while running; 100% once the search is done.
    const fraction = phase === PHASE.DONE && s.run.reason === 'finished' ? 1 : stats.fractionDone;
    setText(el.progress, phase === PHASE.READY || phase === PHASE.LOADING ? '–' : progressText(fraction, running ? s.run.elapsed : 0, stats.fractionAtStart, s.run.leftRange)); // no time left once stopped
    setProp(el.progress.dataset, 'value', String(typeof fraction === 'number' ? fraction : -1));
  });
}

/** The status beside a kept search's offer, after the solution a link or the address shows. */
function offerStatus(solutions) {
  const both = 'Resume goes on with the unfinished search kept above; Solve starts a new one.';
  return solutions.linked ? `Showing solution ${num(solutions.linked)} ${linkedWords(solutions.reloaded)}. ${both}` : `Ready. ${both}`;
}

/** The counting hint in plain words: why counting alone is quicker here, with the engine's figures. */
function hintWords({ subproblems, steps }) {
  const against = steps ? `, where listing takes about ${big(Math.round(steps))} steps` : '';
  return `Only need the number? Counting without listing finds the same count by remembering subproblems: at most ${big(Math.round(subproblems))} to remember here${against}.`;
}

/** The listing hint in plain words: the memory the layers passed, what the count does now. */
function listingWords({ budgetBytes, more }) {
  return `Remembering needs more memory here than its ${mib(budgetBytes)}: the count goes on with a table that forgets what does not fit, ` +
    `which can take far longer. Listing finds the same count without remembering${more ? ' (or give more memory: Options, Counting)' : ''}.`;
}
