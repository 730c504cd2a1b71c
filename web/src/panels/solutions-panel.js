// Browsing the solutions found: previous / next, a slider, the keyboard, and a note when the
// page keeps only the first solutions to bound its memory.
import { PHASE } from '../app/state.js';
import { num } from '../app/format.js';
import { canStep, pickedSolution, replayOnStage } from '../app/selectors.js';
import { byId, isTyping, setText, setAttr, setProp } from './dom.js';

export function mountSolutionsPanel(store, actions) {
  const el = {
    prev: byId('prev'), next: byId('next'), index: byId('solution-index'), total: byId('solution-total'),
    some: byId('nav-some'), none: byId('nav-none'), linked: byId('nav-linked'), linkedIndex: byId('linked-index'), slider: byId('solution-slider'), note: byId('store-note'),
    replay: byId('nav-replay'),
  };
  el.prev.addEventListener('click', () => actions.stepSolution(-1));
  el.next.addEventListener('click', () => actions.stepSolution(1));
  el.slider.addEventListener('input', () => actions.showSolution(Number(el.slider.value) - 1));
  document.addEventListener('keydown', (e) => {
    // (while a replay is on the stage, the arrows are the replay's: watch-panel.js; while a
    // solution is being built, the build's: build-panel.js)
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e) || replayOnStage(store.get()) || store.get().build.active) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
    if (e.key in moves) actions.stepSolution(moves[e.key]);
    else if (e.key === 'Home') actions.showSolution(0);
    else if (e.key === 'End') actions.lastSolution();
    else return;
    e.preventDefault();
  });

  store.subscribe(['solutions', 'run', 'watch', 'editor'], (s) => {
    const sol = s.solutions;
    const stored = sol.store ? sol.store.stored : 0;
    const k = sol.shown >= 0 ? sol.shown + 1 : 0;
    const running = s.run.phase === PHASE.RUNNING;
    setText(el.index, num(k));
    setProp(el.index.dataset, 'index', String(k));
    setText(el.total, num(stored));
    setProp(el.some, 'hidden', stored === 0 || !!sol.linked);
    setProp(el.linked, 'hidden', !sol.linked);
    setText(el.linkedIndex, num(sol.linked));
    setProp(el.none, 'hidden', stored > 0);
    // (a count that lists nothing, e.g. --memo's, still has its number of solutions)
    const counted = sol.store && sol.total > 0 ? `${num(sol.total)} counted, none listed` : 'No solutions';
    setText(el.none, running ? 'Searching…' : sol.store ? counted : 'No solutions yet');
    const replay = replayOnStage(s);
    setProp(el.replay, 'hidden', !replay || stored === 0);
    const step = canStep(s);
    setProp(el.prev, 'disabled', !step.prev);
    setProp(el.next, 'disabled', !step.next);
    setProp(el.slider, 'disabled', replay || stored < 2);
    setProp(el.slider, 'max', String(Math.max(1, stored)));
    setProp(el.slider, 'value', String(Math.max(1, k)));
    setAttr(el.slider, 'aria-valuetext', `Solution ${k} of ${stored}`);
    // (a memoized count's solutions listed by number: which one of all the counted is shown)
    const picked = pickedSolution(s);
    setProp(el.note, 'hidden', !picked && !(sol.store && sol.total > stored));
    if (picked) setText(el.note, `This is solution number ${BigInt(picked.number).toLocaleString('en-US')} of the ${num(picked.of)} counted (in the order the count meets them).`);
    else if (!el.note.hidden) setText(el.note, `Keeping the first ${num(sol.store.cap)} solutions to save memory; all ${num(sol.total)} are counted.`);
  });
}
