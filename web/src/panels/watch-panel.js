// "Watch the search": record the search of the puzzle on screen, then replay it step by step
// (forwards and back, exactly), play it at a speed from one step per two seconds to thousands
// per second, jump to the next solution or dead end or back to where a hole appeared; a step
// counter, what each step did in words, the depth of the search over the steps, and how many
// placements were tried at each number of pieces left; an estimate of the whole search's size;
// a second algorithm's recording replayed beside it (compare); the list of lessons, which open
// the lesson screen (panels/lesson-screen.js).
import { SPEEDS, estimateAt } from '../app/watch-actions.js';
import { PHASE } from '../app/state.js';
import { replayOnStage } from '../app/selectors.js';
import { num, plural } from '../app/format.js';
import { cellName, describe } from '../trace/explain.js';
import { LESSONS, lessonLink } from '../lesson/lessons.js';
import { ALGORITHMS } from '../trace/algorithms.js';
import { stationaryCells } from '../trace/holes.js';
import { puzzleColors } from '../viewer/colors.js';
import { drawMiniBoard } from './mini-board.js';
import { TRACE_OP } from '../worker/protocol.js';
import { byId, h, isTyping, setAttr, setProp, setText } from './dom.js';

const CHART_W = 300, CHART_H = 70;

export function mountWatchPanel(store, actions, watch) {
  const body = byId('watch-body');
  const btn = (id, text, label, onclick) => h('button', { type: 'button', id, title: label, 'aria-label': label, onclick }, text);
  const recordBtn = btn('watch-record', 'Record the search', 'Record the search of this puzzle to replay it', () => watch.record());
  const closeBtn = btn('watch-close', 'Stop watching', 'Leave the replay', () => watch.close());
  // As a media player's: |◀ and ▶| go to the ends, ‹ and › one step (a "▶|" that steps once
  // beside a "◀" that steps back would read as a pair of something else)
  const startBtn = btn('watch-first', '|◀', 'Back to the start', () => watch.seek(0));
  const backBtn = btn('watch-back', '‹', 'Step back', () => watch.stepBy(-1));
  const playBtn = btn('watch-play', '▶', 'Play', () => (store.get().watch.playing ? watch.pause() : watch.play()));
  const fwdBtn = btn('watch-forward', '›', 'Step forward', () => watch.stepBy(1));
  const endBtn = btn('watch-last', '▶|', 'To the last step recorded', () => watch.seek(store.get().watch.steps));
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
  const estimate = h('p', { id: 'watch-estimate', className: 'hint' });
  const mchText = h('p', { id: 'watch-mch', className: 'watch-event' });
  const mchBox = h('input', { type: 'checkbox', id: 'watch-show-mch', onchange: () => watch.setShowMch(mchBox.checked) });
  // compare two algorithms on the same puzzle, side by side
  const algoSelect = h('select', { id: 'watch-compare-algo', 'aria-label': 'Algorithm to compare with' },
    ...ALGORITHMS.map((a) => h('option', { value: a.key, title: a.help }, a.label)));
  const compareBtn = btn('watch-compare', 'Compare side by side', 'Record the same puzzle with this algorithm and replay both in step', () => watch.compare(algoSelect.value));
  const compareClose = btn('watch-compare-close', 'Stop comparing', 'Close the comparison', () => watch.closeCompare());
  const sides = [0, 1].map((k) => {
    const canvas = h('canvas', { id: `compare-board-${k}`, className: 'compare-board', role: 'img' });
    const title = h('figcaption', { className: 'compare-title' });
    const line = h('p', { className: 'compare-line', id: `compare-line-${k}` });
    return { canvas, title, line, fig: h('figure', { className: 'compare-side' }, title, canvas, line) };
  });
  const compareTable = h('table', { id: 'compare-table', className: 'watch-profile' });
  const compareStatus = h('p', { id: 'compare-status', className: 'hint' });
  const compareView = h('div', { id: 'compare-view', className: 'compare-view' },
    h('div', { className: 'compare-sides' }, ...sides.map((x) => x.fig)), compareTable, compareClose);
  const controls = h('div', { className: 'watch-controls', id: 'watch-controls' },
    h('div', { className: 'row' }, startBtn, backBtn, playBtn, fwdBtn, endBtn),
    h('div', { className: 'row' }, h('label', { htmlFor: 'watch-speed', className: 'inline' }, 'Speed'), speed, speedText),
    scrub, counter, eventText,
    h('div', { className: 'row wrap' }, nextSolution, nextDead), origin, worst,
    h('label', { className: 'check' }, mchBox, ' Frame the cell the most-constrained-hole rule would fill next'), mchText, note,
    h('h3', {}, 'How big is the whole search?'), estimate,
    h('h3', {}, 'Depth of the search'), chart,
    h('h3', {}, 'By pieces left'), profile,
    h('h3', {}, 'Compare with another algorithm'),
    h('div', { className: 'row wrap compare-pick' }, algoSelect, compareBtn), compareStatus, compareView);
  const learn = h('details', { id: 'learn', className: 'learn' }, h('summary', {}, `Lessons: a class on backtracking in ${LESSONS.length} lessons`),
    h('ol', { start: 0 }, ...LESSONS.map((l) => h('li', {}, h('a', { href: lessonLink(l), dataset: { lesson: l.id } }, l.title)))));
  body.replaceChildren(
    h('p', { className: 'hint' }, 'Record the search, then replay it one step at a time: see which cell it fills next, each piece it tries, and where it gets stuck and backs up.'),
    learn,
    h('div', { className: 'row' }, recordBtn, closeBtn), status, controls);

  document.addEventListener('keydown', (e) => {
    const s = store.get();
    // (the lesson screen has its own keys: panels/lesson-screen.js)
    if (!s.watch.active || s.lesson.open || isTyping(e) || e.altKey || e.ctrlKey || e.metaKey) return;
    // ← → too while the replay is on the stage (they browse the solutions otherwise)
    const onStage = replayOnStage(s);
    if (e.key === ',' || (onStage && e.key === 'ArrowLeft')) watch.stepBy(-1);
    else if (e.key === '.' || (onStage && e.key === 'ArrowRight')) watch.stepBy(1);
    else return;
    e.preventDefault();
  });

  let depthSeries = null; // depth after each step, computed once per recording length
  store.subscribe(['watch', 'run', 'puzzles', 'puzzleIndex'], (s) => {
    const w = s.watch;
    setProp(recordBtn, 'disabled', s.run.phase === PHASE.RUNNING || s.puzzles.length === 0);
    setProp(closeBtn, 'hidden', !w.active);
    setProp(controls, 'hidden', !w.active || !watch.player);
    // no replay open: the note says why the last one was closed (a search started meanwhile)
    status.textContent = w.error || (!w.active ? w.note : w.recording ? `Recording… ${num(w.steps)} steps so far.`
      : `Recorded ${num(w.steps)} steps${w.full ? ` (only the first ${num(watch.capacity)} are kept for the replay)`
        : w.ended === 'limit' ? ' (up to the solution limit, where the search stopped)'
          : w.ended === 'cancelled' ? ' (until the search was cancelled)' : ' (the whole search)'}.`);
    if (!watch.player) return;
    const player = watch.player;
    setProp(speed, 'value', String(w.speed));
    setText(speedText, `${SPEEDS[w.speed] < 1 ? `1 step per ${1 / SPEEDS[w.speed]} s` : `${num(SPEEDS[w.speed])} steps/s`}`);
    setText(playBtn, w.playing ? '⏸' : '▶');
    setAttr(playBtn, 'aria-label', w.playing ? 'Pause' : 'Play');
    setProp(backBtn, 'disabled', w.step <= 0);
    // (at the end of a finished recording there is nothing to play: the button is disabled, not dead)
    setProp(playBtn, 'disabled', !w.playing && !w.recording && w.step >= w.steps);
    setProp(fwdBtn, 'disabled', w.step >= w.steps);
    setProp(startBtn, 'disabled', w.step <= 0);
    setProp(endBtn, 'disabled', w.step >= w.steps);
    setProp(scrub, 'max', String(w.steps));
    setProp(scrub, 'value', String(w.step));
    setText(counter, `Step ${num(w.step)} of ${num(w.steps)}`);
    setText(eventText, describe(watch.puzzle, player.current()));
    const pick = w.showMch ? watch.mchPick() : null;
    setText(mchText, !pick ? '' : `The most-constrained-hole rule would fill ${cellName(watch.puzzle, pick.cell)} next (framed in blue): ${pick.ways === 0 ? 'no piece fits it, a dead end at once' : `${pick.ways} way${pick.ways === 1 ? '' : 's'} to cover it`}.`);
    setText(note, w.note);
    if (!depthSeries || depthSeries.length !== w.steps + 1) depthSeries = depths(player);
    drawChart(chart, depthSeries, w.step, watch.puzzle.instances.filter((i) => !i.stationary).length);
    renderProfile(profile, player, w.steps);
    setProp(mchBox, 'checked', !!w.showMch);
    setText(estimate, estimateText(w, player));
    setProp(compareBtn, 'disabled', w.recording || s.run.phase === PHASE.RUNNING);
    renderCompare(w, watch, sides, compareTable, compareStatus, compareView);
  });
}

/** The estimate of the whole search in words: now, live while recording, and checked at the end. */
function estimateText(w, player) {
  const parts = [];
  const now = estimateAt(player);
  if (now) parts.push(`At this step ${pct(now.fraction)} of the search tree is behind it, so the whole search would take about ${num(now.total)} steps.`);
  else parts.push('The estimate starts once the search has finished a first branch.');
  if (w.recording && w.live) parts.push(`Recording so far: ${pct(w.live.fraction)} done, about ${num(w.live.total)} steps in all.`);
  if (!w.recording && w.ended !== 'finished' && w.live) parts.push(`The recording ends at step ${num(w.steps)}, ${pct(w.live.fraction)} of a search estimated at ${num(w.live.total)} steps.`);
  if (w.accuracy) {
    const said = w.accuracy.filter((a) => a.total).map((a) => `${Math.round(a.share * 100)}% in: ${num(a.total)}`);
    if (said.length) parts.push(`This recording holds the whole search, ${num(w.steps)} steps; the estimate said ${said.join(', ')}.`);
  }
  parts.push('(Each level counts its untried choices as equal parts of the tree: Kilby et al., 2006.)');
  return parts.join(' ');
}

const pct = (f) => (f >= 0.1 ? `about ${Math.round(f * 100)}%` : f >= 0.001 ? `about ${(f * 100).toFixed(1)}%` : 'less than 0.1%');

let compareColours = { puzzle: null, of: null };
function renderCompare(w, watch, sides, table, status, view) {
  const c = w.compare;
  status.textContent = !c ? '' : c.recording ? `Recording ${c.label} (${c.options || 'no options'})… ${num(c.steps)} steps so far.` : '';
  const other = watch.other;
  view.hidden = !c || c.recording || !other || !other.player;
  if (view.hidden) return;
  const puzzle = watch.puzzle;
  if (compareColours.puzzle !== puzzle) {
    const colours = puzzleColors(puzzle);
    compareColours = { puzzle, of: (i) => `#${colours.instanceColor(i).getHexString()}`, closed: stationaryCells(puzzle) };
  }
  const tracks = [
    { label: `Your options (${watch.baseOptions || 'automatic'})`, player: watch.player, summary: watch.summary, full: w.full },
    { label: `${other.label} (${other.options || 'automatic'})`, player: other.player, summary: other.summary, full: other.recording.full },
  ];
  tracks.forEach((t, k) => {
    const side = sides[k];
    const level = t.player.levels[t.player.levels.length - 1];
    side.title.textContent = t.label;
    // as wide as its column (the title's box: the figure itself has none, .compare-side)
    drawMiniBoard(side.canvas, puzzle, t.player.grid, compareColours.of, { target: level ? level.target : -1, closed: compareColours.closed, width: side.title.clientWidth || 150 });
    side.canvas.setAttribute('aria-label', `${t.label}: the board at step ${t.player.step}`);
    const sum = t.summary;
    const at = t.player.step;
    side.line.textContent = sum
      ? `Step ${num(at)}${at >= sum.steps && at < w.step ? ' (its end)' : ''}: ${plural(sum.solutionsBefore[at], 'solution')}, ${plural(sum.deadEndsBefore[at], 'dead end')}`
      : `Step ${num(at)}`;
  });
  const [a, b] = tracks.map((t) => t.summary);
  if (!a || !b) return;
  const row = (name, f) => h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, f(a, tracks[0])), h('td', {}, f(b, tracks[1])));
  const steps = (x, t) => `${num(x.steps)}${t.full ? '+' : ''}`;
  table.replaceChildren(
    h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, 'left'), h('th', { scope: 'col' }, 'right'))),
    h('tbody', {},
      row('steps recorded', steps),
      row('first solution at step', (x) => (x.firstSolution ? num(x.firstSolution) : 'none')),
      row('solutions', (x) => num(x.solutions)),
      row('placements tried', (x) => num(x.placements)),
      row('dead ends', (x) => num(x.deadEnds))));
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
    // like the CLI's -i: the ways offered (candidates listed at a level), the pieces placed, and
    // the dead ends, by pieces left
    const offered = new Map(), placed = new Map(), dead = new Map();
    const add = (m, k) => m.set(k, (m.get(k) || 0) + 1);
    for (let i = 0; i < player.length; i++) {
      const op = player.rec.op(i), rem = player.rec.remaining(i);
      if (op === TRACE_OP.CANDIDATE) add(offered, rem);
      else if (op === TRACE_OP.PLACE) add(placed, rem);
      else if (op >= TRACE_OP.NO_FIT) add(dead, rem);
    }
    const keys = [...new Set([...offered.keys(), ...placed.keys(), ...dead.keys()])].sort((a, b) => b - a);
    profileCache = { length: steps, player, rows: keys.map((k) => [k, offered.get(k) || 0, placed.get(k) || 0, dead.get(k) || 0]) };
    table.replaceChildren(
      h('thead', {}, h('tr', {}, h('th', {}, 'Pieces left'), h('th', {}, 'Ways offered'), h('th', {}, 'Placed'), h('th', {}, 'Dead ends'))),
      h('tbody', {}, ...profileCache.rows.map((r) => h('tr', {}, h('td', {}, String(r[0])), ...r.slice(1).map((v) => h('td', {}, num(v)))))));
  }
}
