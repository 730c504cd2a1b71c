// "Build it": the solution shown put together one piece at a time (app/build-actions.js). The
// controls step through the engine's build order (buttons, slider, ← → Home End while it is
// open); the stage and the flat grid draw the box after the step; the steps print as a sheet
// (build-sheet.js) or download as one PNG.
import { buildStepCount, orderSummary, stepWords, turnPhrase, turnedWords } from '../model/build-order.js';
import { replayOnStage, shownPuzzle } from '../app/selectors.js';
import { num } from '../app/format.js';
import { downloadBlob } from './download.js';
import { PRINT_BACKGROUND, sheetPng, showPrintSheet, stepPictures } from './build-sheet.js';
import { byId, isTyping, setAttr, setProp, setText } from './dom.js';

export function mountBuildPanel(store, build, stage) {
  const el = {
    open: byId('build-open'), error: byId('build-error'), controls: byId('build-controls'), summary: byId('build-summary'),
    back: byId('build-back'), next: byId('build-next'), step: byId('build-step'), total: byId('build-total'),
    slider: byId('build-slider'), words: byId('build-words'), print: byId('build-print'), png: byId('build-png'),
    close: byId('build-close'), status: byId('build-status'), sheet: byId('build-sheet'),
    turnRow: byId('build-turn-row'), turnWords: byId('build-turn-words'), turn: byId('build-turn'),
  };
  el.open.addEventListener('click', () => build.open());
  el.close.addEventListener('click', () => build.close());
  el.turn.addEventListener('click', () => (store.get().build.asFound ? build.unturn() : build.turn()));
  el.back.addEventListener('click', () => build.back());
  el.next.addEventListener('click', () => build.next());
  el.slider.addEventListener('input', () => build.go(Number(el.slider.value)));
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e) || !store.get().build.order) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in moves) build.go(store.get().build.step + moves[e.key]);
    else if (e.key === 'Home') build.go(0);
    else if (e.key === 'End') build.go(build.total());
    else if (e.key === 'Escape') build.close();
    else return;
    e.preventDefault();
  });

  // ---- on paper ----
  const say = (text) => setText(el.status, text);
  let busy = false;
  const title = () => {
    const s = store.get();
    const p = s.build.puzzle;
    const n = s.solutions.linked || s.build.shown + 1;
    return `${(p && p.title) || 'Puzzle'}, solution ${num(n)}${s.build.turn ? ` turned ${turnPhrase(s.build.turn)}` : ''}: how to build it`;
  };
  const pictures = async (background) => {
    const b = store.get().build;
    return stepPictures(b.puzzle, b.grid, b.order, {
      camera: stage.viewer.cameraView(),
      background,
      onStep: (k, n) => {
        say(`Drawing step ${k} of ${n}…`);
        return new Promise((resolve) => setTimeout(resolve, 0)); // (the page stays responsive)
      },
    });
  };
  const onPaper = async (what, background) => {
    const b = store.get().build;
    if (busy || !b.order) return;
    busy = true;
    setProp(el.print, 'disabled', true);
    setProp(el.png, 'disabled', true);
    try {
      const steps = await pictures(background);
      if (store.get().build.order !== b.order) return say(''); // closed meanwhile
      await what(steps, orderSummary(b.puzzle, b.order));
    } catch (err) {
      say(`Could not draw the steps: ${err.message || err}`);
    } finally {
      busy = false;
      setProp(el.print, 'disabled', false);
      setProp(el.png, 'disabled', false);
    }
  };
  el.print.addEventListener('click', () => onPaper(async (steps, summary) => {
    showPrintSheet(el.sheet, title(), summary, steps);
    say(`The sheet has ${steps.length} step${steps.length === 1 ? '' : 's'}: printing…`);
    document.body.classList.add('printing-build');
    window.print();
  }, PRINT_BACKGROUND));
  window.addEventListener('afterprint', () => document.body.classList.remove('printing-build'));
  el.png.addEventListener('click', () => onPaper(async (steps, summary) => {
    const blob = await sheetPng(title(), summary, steps);
    const p = store.get().build.puzzle;
    const base = ((p && p.title) || 'puzzle').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'puzzle';
    const name = `${base}-solution-${store.get().solutions.linked || store.get().build.shown + 1}-steps.png`;
    downloadBlob(blob, name);
    say(`Saved ${name} (${steps.length} steps, ${Math.round(blob.size / 1024)} KB).`);
  }));

  // ---- drawing the state ----
  store.subscribe(['build', 'solutions', 'watch', 'editor', 'puzzles', 'puzzleIndex', 'run', 'play'], (s) => {
    const b = s.build;
    const sol = s.solutions;
    const solutionShown = !!sol.store && sol.shown >= 0 && !shownPuzzle(s).editing;
    setProp(el.open, 'hidden', b.active || !solutionShown);
    setProp(el.open, 'disabled', replayOnStage(s) || s.play.active); // (the stage shows the replay, or a game)
    setProp(el.error, 'hidden', !b.error);
    setText(el.error, b.error);
    setProp(el.controls, 'hidden', !b.active);
    if (!b.active) {
      if (!busy) say('');
      return;
    }
    const p = b.puzzle;
    const total = b.order ? buildStepCount(b.order) : 0;
    setText(el.summary, b.loading ? 'Working out the order…' : orderSummary(p, b.order));
    // a turn of the solution that goes in more easily: offered, or built (and back)
    const offer = b.order && !b.asFound ? turnedWords(b.order) : '';
    setProp(el.turnRow, 'hidden', !offer && !b.asFound);
    setText(el.turnWords, b.asFound ? `This is the solution turned ${turnPhrase(b.turn)}.` : offer);
    setText(el.turn, b.asFound ? 'Build it as found' : 'Build it turned');
    setProp(el.summary, 'className', `hint build-${b.order ? b.order.class : 'loading'}`);
    setText(el.step, num(b.step));
    setText(el.total, num(total));
    setProp(el.back, 'disabled', !b.order || b.step <= 0);
    setProp(el.next, 'disabled', !b.order || b.step >= total);
    setProp(el.slider, 'disabled', !b.order);
    setProp(el.slider, 'max', String(Math.max(1, total)));
    setProp(el.slider, 'value', String(b.step));
    setAttr(el.slider, 'aria-valuetext', `Step ${b.step} of ${total}`);
    setText(el.words, b.order ? stepWords(p, b.order, b.step) : '');
    setProp(el.print, 'disabled', busy || !b.order);
    setProp(el.png, 'disabled', busy || !b.order);
  });
}
