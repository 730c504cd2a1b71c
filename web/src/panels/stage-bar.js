// The stage's bar on a phone or a touch screen: Solve (Stop while a search runs), the previous
// and next solution with "n / N", and Share, on the view itself. There the controls of the panel
// lie far below the first screen (Solve at 1,000 px, the solutions at 2,000 on a 390x844
// phone), and the view, sticky at the top, is what a person is looking at. The same actions as
// the panel's buttons; styles.css shows the bar only on narrow or touch screens.
import { PHASE } from '../app/state.js';
import { canSolve, canStep } from '../app/selectors.js';
import { num } from '../app/format.js';
import { byId, setProp, setText } from './dom.js';

export function mountStageBar(store, actions, editor, share) {
  const el = {
    solve: byId('bar-solve'), prev: byId('bar-prev'), index: byId('bar-index'), next: byId('bar-next'),
    share: byId('bar-share'), note: byId('bar-note'),
  };
  el.solve.addEventListener('click', () => {
    if (store.get().run.phase === PHASE.RUNNING) actions.cancel();
    else editor.solveShown();
  });
  el.prev.addEventListener('click', () => actions.stepSolution(-1));
  el.next.addEventListener('click', () => actions.stepSolution(1));
  el.share.addEventListener('click', async () => {
    const said = await share.copyLink(false); // (the link's box is in the panel, out of sight)
    setText(el.note, said.startsWith('Copy the selected') ? 'Copy the link from "Share and keep" below.' : said);
    setProp(el.note, 'hidden', !said);
  });

  store.subscribe(['run', 'solutions', 'puzzles', 'editor', 'source', 'watch'], (s, changed) => {
    const running = s.run.phase === PHASE.RUNNING;
    setText(el.solve, running ? 'Stop' : 'Solve');
    setProp(el.solve, 'disabled', !running && !canSolve(s));
    const step = canStep(s);
    setProp(el.prev, 'disabled', !step.prev);
    setProp(el.next, 'disabled', !step.next);
    const sol = s.solutions;
    const stored = sol.store ? sol.store.stored : 0;
    setText(el.index, sol.linked ? `${num(sol.linked)} (link)` : stored ? `${num(sol.shown + 1)} / ${num(stored)}` : running ? '…' : '–');
    setProp(el.index, 'title', stored ? `Solution ${num(sol.shown + 1)} of ${num(stored)}` : 'No solutions yet');
    // what Share said belongs to the moment it was pressed
    if (changed.has('solutions') || changed.has('puzzles')) setProp(el.note, 'hidden', true);
  });
}
