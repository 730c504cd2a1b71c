// "Watch the search": record the search of the puzzle on screen, then replay it step by step
// (forwards and back, exactly), play it at a speed from one step per two seconds to thousands
// per second, jump to the next solution or dead end or back to where a hole appeared; a step
// counter, what each step did in words, the depth of the search over the steps, and how many
// placements were tried at each number of pieces left.
import { SPEEDS } from '../app/watch-actions.js';
import { PHASE } from '../app/state.js';
import { num } from '../app/format.js';
import { describe } from '../trace/explain.js';
import { LESSONS, lessonById, lessonLink } from '../trace/lessons.js';
import { TRACE_OP } from '../worker/protocol.js';
import { byId, h, isTyping } from './dom.js';

const CHART_W = 300, CHART_H = 70;

export function mountWatchPanel(store, actions, watch) {
  const body = byId('watch-body');
  const btn = (id, text, label, onclick) => h('button', { type: 'button', id, title: label, 'aria-label': label, onclick }, text);
  const recordBtn = btn('watch-record', 'Record the search', 'Record the search of this puzzle to replay it', () => watch.record());
  const closeBtn = btn('watch-close', 'Stop watching', 'Leave the replay', () => watch.close());
  const startBtn = btn('watch-first', '|◀', 'Back to the start', () => watch.seek(0));
  const backBtn = btn('watch-back', '◀', 'Step back', () => watch.stepBy(-1));
  const playBtn = btn('watch-play', '▶', 'Play', () => (store.get().watch.playing ? watch.pause() : watch.play()));
  const fwdBtn = btn('watch-forward', '▶|', 'Step forward', () => watch.stepBy(1));
  const speed = h('input', { type: 'range', id: 'watch-speed', min: 0, max: SPEEDS.length - 1, step: 1, 'aria-label': 'Speed' });
  speed.addEventListener('input', () => watch.setSpeed(Number(speed.value)));
  const speedText = h('span', { id: 'watch-speed-text', className: 'hint' });
  const nextSolution = btn('watch-next-solution', 'Next solution', 'Jump to the next solution', () => watch.jump('solution', 1));
  const nextDead = btn('watch-next-dead', 'Next dead end', 'Jump to the next dead end', () => watch.jump('deadEnd', 1));
  const origin = btn('watch-hole-origin', 'Where did this hole appear?', 'Back to the step where the hole of this dead end appeared', () => watch.holeOrigin());
  const worst = btn('watch-find-hole', 'Find the most troublesome hole', 'The hole that the search took longest to clear', () => watch.findTroublesomeHole());
  const counter = h('p', { id: 'watch-step', className: 'watch-step', 'aria-live': 'polite' });
  const eventText = h('p', { id: 'watch-event', className: 'watch-event' });
  const status = h('p', { id: 'watch-status', className: 'hint' });
  const note = h('p', { id: 'watch-note', className: 'hint' });
  const scrub = h('input', { type: 'range', id: 'watch-scrub', min: 0, max: 0, value: 0, 'aria-label': 'Step of the replay' });
  scrub.addEventListener('input', () => watch.seek(Number(scrub.value)));
  const chart = h('canvas', { id: 'watch-chart', width: CHART_W, height: CHART_H, role: 'img', 'aria-label': 'Pieces placed over the steps' });
  chart.addEventListener('click', (e) => {
    const w = store.get().watch;
    const r = chart.getBoundingClientRect();
    watch.seek(Math.round(((e.clientX - r.left) / r.width) * w.steps));
  });
  const profile = h('table', { id: 'watch-profile', className: 'watch-profile' });
  const controls = h('div', { className: 'watch-controls', id: 'watch-controls' },
    h('div', { className: 'row' }, startBtn, backBtn, playBtn, fwdBtn),
    h('div', { className: 'row' }, h('label', { htmlFor: 'watch-speed', className: 'inline' }, 'Speed'), speed, speedText),
    scrub, counter, eventText,
    h('div', { className: 'row wrap' }, nextSolution, nextDead), origin, worst, note,
    h('h3', {}, 'Depth of the search'), chart,
    h('h3', {}, 'Placements tried, by pieces left'), profile);
  const lessonText = h('p', { id: 'lesson-text', className: 'lesson-text' });
  const learn = h('details', { id: 'learn', className: 'learn' }, h('summary', {}, 'Learn: five short lessons'),
    h('ul', {}, ...LESSONS.map((l) => h('li', {}, h('a', { href: lessonLink(l), dataset: { lesson: l.id } }, l.title)))));
  body.replaceChildren(
    h('p', { className: 'hint' }, 'Record the search, then replay it one step at a time: see which cell it fills next, each piece it tries, and where it gets stuck and backs up.'),
    learn, lessonText,
    h('div', { className: 'row' }, recordBtn, closeBtn), status, controls);

  document.addEventListener('keydown', (e) => {
    const w = store.get().watch;
    if (!w.active || isTyping(e) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === ',') watch.stepBy(-1);
    else if (e.key === '.') watch.stepBy(1);
    else return;
    e.preventDefault();
  });

  let depthSeries = null; // depth after each step, computed once per recording length
  store.subscribe(['watch', 'run', 'puzzles'], (s) => {
    const w = s.watch;
    recordBtn.disabled = s.run.phase === PHASE.RUNNING || s.puzzles.length === 0;
    closeBtn.hidden = !w.active;
    const lesson = lessonById(w.lesson);
    lessonText.hidden = !lesson;
    lessonText.textContent = lesson ? `${lesson.title}. ${lesson.text}` : '';
    controls.hidden = !w.active || !watch.player;
    status.textContent = w.error || (!w.active ? '' : w.recording ? `Recording… ${num(w.steps)} steps so far.`
      : `Recorded ${num(w.steps)} steps${w.full ? ` (only the first ${num(watch.capacity)} are kept for the replay)` : ' (the whole search)'}.`);
    if (!watch.player) return;
    const player = watch.player;
    speed.value = String(w.speed);
    speedText.textContent = `${SPEEDS[w.speed] < 1 ? `1 step per ${1 / SPEEDS[w.speed]} s` : `${num(SPEEDS[w.speed])} steps/s`}`;
    playBtn.textContent = w.playing ? '⏸' : '▶';
    playBtn.setAttribute('aria-label', w.playing ? 'Pause' : 'Play');
    backBtn.disabled = w.step <= 0;
    fwdBtn.disabled = w.step >= w.steps;
    scrub.max = String(w.steps);
    scrub.value = String(w.step);
    counter.textContent = `Step ${num(w.step)} of ${num(w.steps)}`;
    eventText.textContent = describe(watch.puzzle, player.current());
    note.textContent = w.note;
    if (!depthSeries || depthSeries.length !== w.steps + 1) depthSeries = depths(player);
    drawChart(chart, depthSeries, w.step, watch.puzzle.instances.filter((i) => !i.stationary).length);
    renderProfile(profile, player, w.steps);
  });
}

/** Pieces placed after each step (index 0: before any). */
function depths(player) {
  const out = new Int16Array(player.length + 1);
  let d = 0;
  for (let i = 0; i < player.length; i++) {
    const op = player.rec.op(i);
    if (op === TRACE_OP.PLACE) d++;
    else if (op === TRACE_OP.REMOVE) d--;
    out[i + 1] = d;
  }
  return out;
}

function drawChart(canvas, series, step, pieces) {
  const ctx = canvas.getContext('2d');
  const W = canvas.width, H = canvas.height;
  ctx.fillStyle = '#111829';
  ctx.fillRect(0, 0, W, H);
  const n = series.length;
  const yOf = (d) => H - 2 - (d / Math.max(1, pieces)) * (H - 4);
  // each pixel column covers many steps: a band from the shallowest to the deepest point, and
  // the mean as a line, so both the dives and the usual depth show
  ctx.fillStyle = 'rgba(127, 156, 240, 0.35)';
  ctx.strokeStyle = '#9db4ff';
  ctx.lineWidth = 1.2;
  ctx.beginPath();
  for (let px = 0; px < W; px++) {
    const from = Math.floor((px / W) * n), to = Math.min(n, Math.max(from + 1, Math.floor(((px + 1) / W) * n)));
    let lo = Infinity, hi = -Infinity, sum = 0;
    for (let i = from; i < to; i++) { const d = series[i]; lo = Math.min(lo, d); hi = Math.max(hi, d); sum += d; }
    if (to <= from) continue;
    ctx.fillRect(px, yOf(hi), 1, Math.max(1, yOf(lo) - yOf(hi)));
    const y = yOf(sum / (to - from));
    if (px === 0) ctx.moveTo(px, y); else ctx.lineTo(px, y);
  }
  ctx.stroke();
  ctx.strokeStyle = '#ffc61a';
  const x = n > 1 ? (step / (n - 1)) * W : 0;
  ctx.beginPath();
  ctx.moveTo(x, 0);
  ctx.lineTo(x, H);
  ctx.stroke();
}

let profileCache = { length: -1, rows: null };
function renderProfile(table, player, steps) {
  if (profileCache.length !== steps || profileCache.player !== player) {
    const placed = new Map(), dead = new Map();
    for (let i = 0; i < player.length; i++) {
      const op = player.rec.op(i), rem = player.rec.remaining(i);
      if (op === TRACE_OP.PLACE) placed.set(rem, (placed.get(rem) || 0) + 1);
      else if (op >= TRACE_OP.NO_FIT) dead.set(rem, (dead.get(rem) || 0) + 1);
    }
    const keys = [...new Set([...placed.keys(), ...dead.keys()])].sort((a, b) => b - a);
    profileCache = { length: steps, player, rows: keys.map((k) => [k, placed.get(k) || 0, dead.get(k) || 0]) };
    table.replaceChildren(
      h('thead', {}, h('tr', {}, h('th', {}, 'Pieces left'), h('th', {}, 'Placed'), h('th', {}, 'Dead ends'))),
      h('tbody', {}, ...profileCache.rows.map(([k, p, d]) => h('tr', {}, h('td', {}, String(k)), h('td', {}, num(p)), h('td', {}, num(d))))));
  }
}
