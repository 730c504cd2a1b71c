// The lesson screen (app/lesson-actions.js, lesson/lessons.js): the page turned into a class.
// The 3-D view takes the screen with the narration on it in large type, the search tree and the
// algorithm beside it (below it on a phone: panels/lesson-side.js), and the controls along the
// bottom: the lesson's parts (back, next), the replay (start, step back, play or pause, step,
// end, speed), the details for the curious, full screen. Driven from the keyboard as
// presentation software is: Space, → and Page Down go on, ← and Page Up go back, Esc leaves.
// A check question waits on the view: buttons to answer, or a click on a cell of the board.
import { LESSONS, lessonLink, stepScenes } from '../lesson/lessons.js';
import { SPEEDS } from '../app/watch-actions.js';
import { PHASE } from '../app/state.js';
import { describe } from '../trace/explain.js';
import { cellAt } from '../viewer/cell-pick.js';
import { num } from '../app/format.js';
import { mountLessonSide } from './lesson-side.js';
import { byId, h, isTyping, setAttr, setProp, setText } from './dom.js';

const NEXT_KEYS = new Set(['ArrowRight', 'PageDown']);
const PREV_KEYS = new Set(['ArrowLeft', 'PageUp', 'Backspace']);
const CLICK_PX = 6; // a pointer that moved further was turning the view, not pointing at a cell

const speedWords = (speed) => (speed < 1 ? `1 step every ${1 / speed} s` : speed === 1 ? '1 step a second' : `${num(speed)} steps a second`);

export function mountLessonScreen(store, lessons, watch, stage) {
  const app = document.querySelector('.app');
  const stageEl = document.querySelector('.stage');
  const btn = (id, text, label, onclick, extra = {}) => h('button', { type: 'button', id, title: label, 'aria-label': label, onclick, ...extra }, text);

  // ---- the entry on the first screen: one click to the first lesson
  const entry = byId('learn-open');
  entry.href = lessonLink(LESSONS[0]);
  // A lesson's link opens it (link-sync.js, as any link); a link to the very address shown
  // changes nothing in the address, so it opens the lesson itself.
  const opens = (a, lesson) => a.addEventListener('click', (e) => {
    if (window.location.hash !== a.getAttribute('href')) return;
    e.preventDefault();
    lessons.open(lesson);
  });
  opens(entry, LESSONS[0]);

  // ---- the bar along the top: the lesson's name, the list of lessons, leave
  const menuList = h('ol', { className: 'lesson-menu-list', start: 0 },
    ...LESSONS.map((l, i) => h('li', {}, h('a', { href: lessonLink(l), dataset: { lesson: l.id } }, h('strong', {}, `${i}. ${l.title}`), h('span', {}, l.summary)))));
  const menu = h('details', { className: 'lesson-menu', id: 'lesson-menu' }, h('summary', {}, 'All lessons'), menuList);
  menuList.querySelectorAll('a').forEach((a, i) => opens(a, LESSONS[i]));
  const title = h('h2', { id: 'lesson-title', className: 'lesson-title' });
  const closeBtn = btn('lesson-close', '✕ Leave', 'Leave the lesson (Esc)', () => lessons.close());
  const bar = h('header', { id: 'lesson-bar', className: 'lesson-bar', hidden: true }, menu, title, closeBtn);

  // ---- the narration, on the view itself
  // (the narration is said by a screen reader as it changes; the step of the search, which
  // changes at every step while playing, is not)
  const say = h('p', { id: 'lesson-say', className: 'lesson-say', 'aria-live': 'polite' });
  const question = h('p', { id: 'lesson-question', className: 'lesson-question' });
  const yes = btn('lesson-answer-yes', 'Yes', 'Answer yes', () => lessons.answer(true));
  const no = btn('lesson-answer-no', 'No', 'Answer no', () => lessons.answer(false));
  const choices = h('div', { className: 'lesson-choices' }, yes, no);
  const feedback = h('p', { id: 'lesson-feedback', className: 'lesson-feedback', role: 'status' });
  const ask = h('div', { id: 'lesson-ask', className: 'lesson-ask', hidden: true }, question, choices, feedback);
  const solveBtn = btn('lesson-solve', 'Solve it', 'Search the whole puzzle now, on every core', () => lessons.solve(), { className: 'primary' });
  const solveLine = h('p', { id: 'lesson-solve-line', className: 'lesson-now' });
  const solveBox = h('div', { id: 'lesson-solve-box', className: 'lesson-solve', hidden: true }, solveBtn, solveLine);
  const now = h('p', { id: 'lesson-now', className: 'lesson-now' });
  const busy = h('p', { id: 'lesson-busy', className: 'lesson-busy', role: 'status' });
  const caption = h('div', { id: 'lesson-caption', className: 'lesson-caption', hidden: true, role: 'region', 'aria-label': 'What the lesson says' },
    busy, say, ask, solveBox, now);
  stageEl.append(caption);

  // ---- the controls along the bottom
  const prevBtn = btn('lesson-prev', '◀ Back', 'The part before (← or Page Up)', () => lessons.prev(), { className: 'lesson-prev' });
  const nextBtn = btn('lesson-next', 'Next ▶', 'The next part (Space, → or Page Down)', () => lessons.next(), { className: 'primary lesson-next' });
  const part = h('span', { id: 'lesson-part', className: 'lesson-part' });
  const firstBtn = btn('lesson-first', '|◀', 'The search from its start', () => watch.seek(0));
  const backBtn = btn('lesson-step-back', '‹', 'One step of the search back (,)', () => watch.stepBy(-1));
  const playBtn = btn('lesson-play', '▶', 'Play the search (P)', () => (store.get().watch.playing ? watch.pause() : watch.play()));
  const fwdBtn = btn('lesson-step', '›', 'One step of the search on (.)', () => watch.stepBy(1));
  const lastBtn = btn('lesson-last', '▶|', 'The search to its last step recorded', () => watch.seek(store.get().watch.steps));
  const speed = h('input', { type: 'range', id: 'lesson-speed', min: 0, max: SPEEDS.length - 1, step: 1, 'aria-label': 'Speed of play' });
  speed.addEventListener('input', () => watch.setSpeed(Number(speed.value)));
  const speedText = h('span', { id: 'lesson-speed-text', className: 'lesson-speed-text' });
  const detailsBtn = btn('lesson-details', 'Details', 'How this search is set up, in the solver\'s own words', () => lessons.toggleDetails(), { 'aria-expanded': 'false' });
  const fullBtn = btn('lesson-fullscreen', 'Full screen', 'Full screen (F)', () => toggleFullscreen());
  const replayRow = h('div', { className: 'lesson-replay', role: 'group', 'aria-label': 'The search' }, firstBtn, backBtn, playBtn, fwdBtn, lastBtn,
    h('label', { className: 'lesson-speed', htmlFor: 'lesson-speed' }, 'Speed', speed), speedText);
  const controls = h('footer', { id: 'lesson-controls', className: 'lesson-controls', hidden: true },
    h('div', { className: 'lesson-parts', role: 'group', 'aria-label': 'The lesson' }, prevBtn, part, nextBtn),
    replayRow, h('div', { className: 'lesson-tools' }, detailsBtn, fullBtn));

  const side = mountLessonSide(store, lessons, watch);
  app.append(bar, side.element, controls);

  // ---- full screen (the Fullscreen API), and leaving it
  function toggleFullscreen() {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => lessons.setFullscreen(false));
  }
  document.addEventListener('fullscreenchange', () => lessons.setFullscreen(!!document.fullscreenElement));

  // ---- the keyboard, as presentation software (capture: before the solutions' and the replay's own keys)
  document.addEventListener('keydown', (e) => {
    const s = store.get();
    if (!s.lesson.open || isTyping(e) || e.altKey || e.ctrlKey || e.metaKey) return;
    // The presenter's keys work wherever the focus is (a button clicked last keeps it), but for
    // the controls that have keys of their own: the speed (arrows, Home, End), a link or the
    // list of lessons, and the answers and buttons of the step (Space presses them).
    const own = e.target && e.target.closest && e.target.closest('input, select, a, summary, .lesson-choices button, .lesson-side button, #lesson-solve');
    const key = e.key;
    if (key === ' ' && !own) (e.shiftKey ? lessons.prev() : lessons.next());
    else if (NEXT_KEYS.has(key) && !own) lessons.next();
    else if (PREV_KEYS.has(key) && !own) lessons.prev();
    else if (key === 'Home' && !own) lessons.goTo(0);
    else if (key === 'End' && !own) lessons.goTo(s.lesson.count - 1);
    else if (key === '.') watch.stepBy(1);
    else if (key === ',') watch.stepBy(-1);
    else if (key === 'p' || key === 'P') (s.watch.playing ? watch.pause() : watch.play());
    else if (key === 'f' || key === 'F') toggleFullscreen();
    else if (key === 'Escape' && !document.fullscreenElement) lessons.close();
    else return;
    e.preventDefault();
    e.stopPropagation();
  }, true);

  // ---- a cell question: a click (not a drag) on a cell of the board answers it
  let down = null;
  stage.viewer.canvas.addEventListener('pointerdown', (e) => { down = { x: e.clientX, y: e.clientY }; });
  stage.viewer.canvas.addEventListener('pointerup', (e) => {
    const d = down;
    down = null;
    const ask = lessons.question();
    if (!d || !ask || ask.kind !== 'cell' || !watch.puzzle || Math.hypot(e.clientX - d.x, e.clientY - d.y) > CLICK_PX) return;
    const cell = cellAt(stage.viewer, watch.puzzle, e.clientX, e.clientY, watch.player ? watch.player.grid : null);
    if (cell >= 0) lessons.answerCell(cell);
  });

  // The board is framed clear of the narration: the view's margins follow the caption's height.
  const fit = () => {
    const covered = store.get().lesson.open ? caption.offsetHeight : 0;
    stageEl.style.setProperty('--lesson-caption-h', `${covered}px`);
    stage.extraBottom = covered;
    stage.fitMargins();
  };
  // (and when the view's own size changes: another layout, two searches compared, a phone turned)
  const refit = new ResizeObserver(() => requestAnimationFrame(fit));
  refit.observe(caption);
  refit.observe(stageEl);

  let wasOpen = false;
  store.subscribe(['lesson', 'watch', 'run', 'solutions'], (s) => {
    const L = s.lesson;
    const lesson = L.open ? lessons.lesson : null;
    if (L.open !== wasOpen) {
      wasOpen = L.open;
      document.body.dataset.mode = L.open ? 'lesson' : '';
      for (const el of [bar, caption, controls]) setProp(el, 'hidden', !L.open);
      menu.open = false;
      if (!L.open && document.fullscreenElement) document.exitFullscreen().catch(() => {});
      requestAnimationFrame(fit);
    }
    if (!lesson) return;
    const number = LESSONS.indexOf(lesson);
    setText(title, `${number >= 0 ? `Lesson ${number} · ` : ''}${lesson.title}`);
    menuList.querySelectorAll('a').forEach((a) => setAttr(a, 'aria-current', a.dataset.lesson === lesson.id ? 'true' : 'false'));
    setText(busy, L.error || L.busy);
    setProp(busy, 'className', `lesson-busy${L.error ? ' bad' : ''}`);
    const step = lesson.steps[L.step];
    setText(say, L.busy && !L.error ? '' : lessons.narration());
    // the question, its buttons (a choice) or the cue to click (a cell), and the answer with its reason
    const q = !L.busy && step.ask ? step.ask : null;
    setProp(ask, 'hidden', !q);
    if (q) {
      setText(question, q.question);
      setProp(choices, 'hidden', q.kind !== 'choice');
      setText(feedback, L.answer ? L.answer.text : '');
      setProp(feedback, 'className', `lesson-feedback${L.answer ? (L.answer.right ? ' right' : ' wrong') : ''}`);
      setAttr(yes, 'aria-pressed', String(!!L.answer && L.answer.given === true));
      setAttr(no, 'aria-pressed', String(!!L.answer && L.answer.given === false));
    }
    setProp(stageEl.dataset, 'asking', q && q.kind === 'cell' && !L.answer ? 'cell' : '');
    // the whole search (the last lesson): the button, then the count as it grows
    const solving = !!L.show.solve && !L.busy;
    setProp(solveBox, 'hidden', !solving);
    if (solving) {
      const running = s.run.phase === PHASE.RUNNING;
      setProp(solveBtn, 'disabled', running);
      setText(solveBtn, running ? 'Solving…' : s.run.phase === PHASE.DONE && !watch.player ? 'Solve it again' : 'Solve it');
      setText(solveLine, solveWords(s));
    }
    // the step of the search in words, its numbers said where they stand
    const player = watch.player;
    setText(now, !player || L.busy ? '' : `Search step ${num(player.step)} of ${num(player.length)}: ${describe(watch.puzzle, player.current())}`);
    setText(part, `Part ${L.step + 1} of ${L.count}`);
    setProp(prevBtn, 'disabled', L.step <= 0 || !!L.busy);
    const last = L.step + 1 >= L.count;
    const following = lessons.nextLesson();
    setText(nextBtn, last ? (following ? 'Next lesson ▶' : 'The end') : 'Next ▶');
    setProp(nextBtn, 'disabled', (last && !following) || !!L.busy);
    setAttr(nextBtn, 'aria-label', last && following ? `Next lesson: ${following.title}` : 'The next part (Space, → or Page Down)');
    const w = s.watch;
    const replay = !!player && !L.busy;
    for (const b of [firstBtn, backBtn]) setProp(b, 'disabled', !replay || w.step <= 0);
    for (const b of [fwdBtn, lastBtn]) setProp(b, 'disabled', !replay || w.step >= w.steps);
    setProp(playBtn, 'disabled', !replay || (!w.playing && w.step >= w.steps));
    setText(playBtn, w.playing ? '⏸' : '▶');
    setAttr(playBtn, 'aria-label', w.playing ? 'Pause (P)' : 'Play the search (P)');
    setProp(speed, 'value', String(w.speed));
    setProp(speed, 'disabled', !replay);
    setText(speedText, speedWords(SPEEDS[w.speed]));
    setProp(replayRow, 'hidden', !player && !L.busy);
    setAttr(detailsBtn, 'aria-expanded', String(!!L.details));
    setText(fullBtn, L.fullscreen ? 'Leave full screen' : 'Full screen');
    side.render(s, lesson, stepScenes(lesson)[L.step]);
  });
  return { views: side.views };
}

/** The whole search in words, as it runs and when it is done. */
function solveWords(s) {
  const run = s.run;
  const total = s.solutions.total;
  if (run.phase === PHASE.RUNNING) return `${num(total)} solution${total === 1 ? '' : 's'} found so far, ${(run.elapsed || 0).toFixed(0)} s.`;
  if (run.phase === PHASE.DONE && run.stats) return `${num(total)} solution${total === 1 ? '' : 's'}, every one found, in ${(run.stats.seconds || run.elapsed || 0).toFixed(1)} s.`;
  if (run.phase === PHASE.CANCELLED) return `Stopped after ${num(total)} solution${total === 1 ? '' : 's'}.`;
  return '';
}
