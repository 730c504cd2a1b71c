// The page: puzzle library and custom definitions, solver options, Solve/Cancel with live progress,
// and a browser over the solutions found, drawn in 3-D. The search runs in a Web Worker behind
// SolverClient, so the page never blocks.
//
// Test hooks (harmless for users): document.body.dataset.state is one of
// 'loading' | 'ready' | 'running' | 'done' | 'cancelled' | 'error'; #solution-count holds the
// number of solutions (also in its data-count); #solution-index the 1-based solution shown;
// window.__polycube = { solutionsShown, piecesDrawn, currentSolution, storedSolutions, puzzle,
// sample() } where solutionsShown counts solution drawings and piecesDrawn is the number of
// pieces in the current drawing.
import { SolverClient } from './solver-client.js';
import { Viewer } from './viewer/viewer.js';
import { puzzleColors } from './viewer/colors.js';
import { libraryEntries, knownCount, DEFAULT_FILE, TIER_LABEL } from './ui/library.js';
import { SolutionStore } from './ui/solution-store.js';

const $ = (id) => document.getElementById(id);
const el = {
  library: $('library'),
  pickRow: $('puzzle-pick-row'),
  pick: $('puzzle-pick'),
  info: $('puzzle-info'),
  custom: $('custom'),
  defText: $('def-text'),
  defLoad: $('def-load'),
  defReset: $('def-reset'),
  defError: $('def-error'),
  defErrorText: $('def-error-text'),
  defGoto: $('def-goto'),
  optR: $('opt-r'),
  optExtra: $('opt-extra'),
  solve: $('solve'),
  cancel: $('cancel'),
  status: $('status'),
  count: $('solution-count'),
  attempts: $('stat-attempts'),
  seconds: $('stat-seconds'),
  prev: $('prev'),
  next: $('next'),
  index: $('solution-index'),
  navSome: $('nav-some'),
  navNone: $('nav-none'),
  total: $('solution-total'),
  slider: $('solution-slider'),
  storeNote: $('store-note'),
  explodeRow: $('explode-row'),
  explode: $('explode'),
  explodeMode: $('explode-mode'),
  resetView: $('reset-view'),
  stageTitle: $('stage-title'),
  stageSub: $('stage-sub'),
  stageSolution: $('stage-solution'),
  legend: $('legend'),
  legendBox: $('legend-box'),
  legendSummary: $('legend-summary'),
  overlayTop: $('overlay-top'),
  overlayBottom: $('overlay-bottom'),
  viewport: $('viewport'),
};

const CUSTOM = '__custom__';
const CUSTOM_SOURCE = 'custom.txt';
const fmt = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 3 });
const num = (n) => fmt.format(Math.round(n || 0));
/** Short form for big counters: 6,761 / 6.76M / 1.2B. */
const big = (n) => (n >= 1e6 ? compact.format(n) : num(n));
const secs = (s) => `${(s || 0).toFixed(s >= 100 ? 0 : s >= 10 ? 1 : 2)} s`;

const hooks = {
  solutionsShown: 0,
  piecesDrawn: 0,
  currentSolution: 0,
  storedSolutions: 0,
  puzzle: null,
  sample: () => (viewer ? viewer.sample() : null),
};
window.__polycube = hooks;

const entries = libraryEntries();
let viewer = null;
let client = null;

// What is loaded
let source = { kind: 'library', entry: null, text: '', name: '' }; // text and name given to the engine
let puzzles = [];
let puzzleIndex = 0;
let engineText = null; // text the engine currently holds (null: unknown, reload before solving)
let customText = null; // last custom text that loaded successfully

// The search
let run = null;        // { id, token, start, store, stats, timer }
let runToken = 0;
let store = null;
let shown = -1;        // 0-based index of the solution drawn, -1 for none
let lastStats = null;

// ---------------------------------------------------------------- state and status

function setState(state, message) {
  document.body.dataset.state = state;
  if (message !== undefined) el.status.textContent = message;
  const running = state === 'running';
  el.solve.disabled = running || state === 'loading' || puzzles.length === 0;
  el.cancel.disabled = !running;
  el.library.disabled = state === 'loading';
}

function currentPuzzle() {
  return puzzles[puzzleIndex] || null;
}

function currentEntry() {
  return source.kind === 'library' ? source.entry : null;
}

function optionsString() {
  const extra = el.optExtra.value.trim();
  return [el.optR.checked ? '-r' : '', extra].filter(Boolean).join(' ');
}

// ---------------------------------------------------------------- library and definitions

function fillLibrary() {
  el.library.textContent = '';
  const groups = new Map();
  for (const e of entries) {
    const label = e.tier === 'fast' ? 'Quick' : e.tier === 'slow' ? 'Takes a while' : e.tier === 'bench' ? 'Long searches' : 'More';
    if (!groups.has(label)) {
      const g = document.createElement('optgroup');
      g.label = label;
      groups.set(label, g);
      el.library.appendChild(g);
    }
    const o = document.createElement('option');
    o.value = e.file;
    o.textContent = e.title;
    groups.get(label).appendChild(o);
  }
  const own = document.createElement('optgroup');
  own.label = 'Your own';
  const o = document.createElement('option');
  o.value = CUSTOM;
  o.textContent = 'Custom definition';
  own.appendChild(o);
  el.library.appendChild(own);
}

async function selectLibrary(file) {
  if (file === CUSTOM) {
    el.custom.open = true;
    if (customText !== null) {
      el.defText.value = customText;
      await loadText({ kind: 'custom', entry: null, text: customText, name: CUSTOM_SOURCE });
    } else {
      // nothing of the user's loaded yet: keep showing what is loaded, open the editor
      el.library.value = source.kind === 'library' && source.entry ? source.entry.file : CUSTOM;
      el.defText.focus();
    }
    return;
  }
  const entry = entries.find((e) => e.file === file);
  if (!entry) return;
  el.library.value = entry.file;
  el.defText.value = entry.text;
  hideDefError();
  await loadText({ kind: 'library', entry, text: entry.text, name: entry.file });
}

/** The solver client; a new worker replaces one that died (e.g. out of memory). */
async function ensureClient() {
  if (client && !client._failure) return client;
  if (client) {
    try { client.terminate(); } catch { /* already gone */ }
  }
  engineText = null;
  client = new SolverClient();
  await client.ready;
  return client;
}

/** Load definition text into the engine. Returns true on success. */
async function loadText(next) {
  stopRun();
  setState('loading', `Loading ${next.kind === 'custom' ? 'your definition' : next.entry.title}…`);
  let loaded;
  try {
    await ensureClient();
    loaded = await client.load(next.text, next.name);
  } catch (err) {
    engineText = null; // whatever the engine holds now, reload before the next search
    const message = err && err.message ? err.message : String(err);
    if (next.kind === 'custom') {
      showDefError(message);
      setState('error', 'The custom definition has an error (see above). The previous puzzle is still shown.');
    } else {
      setState('error', `Could not load ${next.name}: ${message}`);
    }
    return false;
  }
  if (!loaded || loaded.length === 0) {
    engineText = null;
    if (next.kind === 'custom') showDefError(`${next.name}: no puzzle found (a puzzle starts with a D: line and ends with ~D)`);
    setState('error', 'The definition holds no puzzle.');
    return false;
  }
  engineText = next.text;
  source = next;
  puzzles = loaded;
  if (next.kind === 'custom') {
    customText = next.text;
    el.library.value = CUSTOM;
    hideDefError();
  }
  fillPuzzlePick();
  selectPuzzle(0);
  return true;
}

function fillPuzzlePick() {
  el.pick.textContent = '';
  puzzles.forEach((p, i) => {
    const o = document.createElement('option');
    o.value = String(i);
    o.textContent = `${i + 1}. ${p.title || 'Untitled'} (${dimsText(p)})`;
    el.pick.appendChild(o);
  });
  el.pickRow.hidden = puzzles.length < 2;
}

function dimsText(p) {
  return p.zDim > 1 ? `${p.xDim}×${p.yDim}×${p.zDim}` : `${p.xDim}×${p.yDim}`;
}

function selectPuzzle(i) {
  stopRun();
  puzzleIndex = i;
  el.pick.value = String(i);
  const p = currentPuzzle();
  showPuzzleInfo();
  fillLegend();
  el.explode.value = '0';
  el.explodeRow.hidden = p.zDim < 2;
  fitMargins();
  resetSolutions();
  viewer.setPuzzle(p);
  hooks.puzzle = { title: p.title, xDim: p.xDim, yDim: p.yDim, zDim: p.zDim, pieces: mobileCount(p) };
  updateHooks();
  setState('ready', 'Ready. Press Solve to find every solution.');
}

function mobileCount(p) {
  return p.instances.filter((i) => !i.stationary).length;
}

function showPuzzleInfo() {
  const p = currentPuzzle();
  const entry = currentEntry();
  const n = mobileCount(p);
  const kind = p.zDim > 1 ? `${dimsText(p)} box` : `${dimsText(p)} board`;
  const freeCells = p.pieces.filter((x) => !x.stationary).reduce((s, x) => s + x.cells.length * (x.count || 1), 0);
  const bits = [`<strong>${kind}</strong>`, `${n} piece${n === 1 ? '' : 's'}`, `${freeCells} cells`];
  if (p.oneSide) bits.push('one-sided');
  let html = bits.join(' · ');
  if (entry && puzzles.length === 1) {
    const known = [];
    if (entry.counts['-r'] !== undefined) known.push(`${num(entry.counts['-r'])} with -r`);
    if (entry.counts[''] !== undefined) known.push(`${num(entry.counts[''])} without`);
    const tier = entry.tier && TIER_LABEL[entry.tier] ? `<span class="tier ${entry.tier}">${TIER_LABEL[entry.tier]}</span>` : '';
    if (known.length || tier) html += `<br>${known.length ? `Known: ${known.join(', ')}` : ''} ${tier}`;
  }
  el.info.innerHTML = html;
  el.stageTitle.textContent = p.title || (entry ? entry.title : 'Custom puzzle');
  el.stageSub.textContent = `${kind} · ${n} pieces${p.oneSide ? ' · one-sided' : ''}`;
}

function fillLegend() {
  const p = currentPuzzle();
  const { byPiece } = puzzleColors(p);
  el.legend.textContent = '';
  p.pieces.forEach((piece, i) => {
    if (piece.stationary && piece.name === '*') return;
    const li = document.createElement('li');
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = byPiece.get(i);
    li.appendChild(sw);
    li.appendChild(document.createTextNode(piece.name));
    if (piece.stationary || (piece.count || 1) > 1) {
      const c = document.createElement('span');
      c.className = 'count';
      c.textContent = piece.stationary ? 'fixed' : `×${piece.count}`;
      li.appendChild(c);
    }
    el.legend.appendChild(li);
  });
  const shown = el.legend.children.length;
  const many = shown > 24;
  el.legendBox.classList.toggle('many', many);
  el.legendBox.open = !many;
  el.legendSummary.textContent = `Pieces (${shown})`;
  el.legendBox.hidden = shown === 0;
}

/** Keep the puzzle clear of the overlays on the canvas when framing it. */
function fitMargins() {
  viewer.setMargins({ top: el.overlayTop.offsetHeight + 4, bottom: el.overlayBottom.offsetHeight + 8 });
}

function showDefError(message) {
  el.custom.open = true;
  el.defErrorText.textContent = message;
  el.defError.hidden = false;
  const m = /^[^\n]*?:(\d+):/.exec(message);
  const line = m ? Number(m[1]) : 0;
  el.defGoto.hidden = !(line > 0);
  el.defGoto.dataset.line = String(line);
  el.defGoto.textContent = `Select line ${line} in the text`;
}

function hideDefError() {
  el.defError.hidden = true;
  el.defErrorText.textContent = '';
}

function selectTextLine(line) {
  const text = el.defText.value;
  let start = 0;
  for (let i = 1; i < line && start >= 0; i++) {
    const nl = text.indexOf('\n', start);
    start = nl < 0 ? -1 : nl + 1;
  }
  if (start < 0) return;
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  el.defText.focus();
  el.defText.setSelectionRange(start, end);
  // scroll the line into view
  const lineHeight = parseFloat(getComputedStyle(el.defText).lineHeight) || 16;
  el.defText.scrollTop = Math.max(0, (line - 3) * lineHeight);
}

// ---------------------------------------------------------------- solutions browser

function resetSolutions() {
  store = null;
  shown = -1;
  lastStats = null;
  viewer.showSolution(null);
  el.count.textContent = '0';
  el.count.dataset.count = '0';
  el.attempts.textContent = '0';
  el.attempts.dataset.value = '0';
  el.attempts.title = '';
  el.seconds.textContent = secs(0);
  el.storeNote.hidden = true;
  updateNav();
}

function show(k) {
  if (!store || store.stored === 0) return;
  k = Math.max(0, Math.min(store.stored - 1, k));
  shown = k;
  viewer.showSolution(store.get(k));
  hooks.solutionsShown++;
  updateNav();
}

function updateNav() {
  const stored = store ? store.stored : 0;
  const total = store ? store.total : 0;
  const k = shown >= 0 ? shown + 1 : 0;
  el.index.textContent = num(k);
  el.index.dataset.index = String(k);
  el.total.textContent = num(stored);
  el.navSome.hidden = stored === 0;
  el.navNone.hidden = stored > 0;
  el.navNone.textContent = run ? 'Searching…' : store ? 'No solutions' : 'No solutions yet';
  el.prev.disabled = shown <= 0;
  el.next.disabled = shown < 0 || shown >= stored - 1;
  el.slider.disabled = stored < 2;
  el.slider.max = String(Math.max(1, stored));
  el.slider.value = String(Math.max(1, k));
  el.slider.setAttribute('aria-valuetext', `Solution ${k} of ${stored}`);
  el.stageSolution.textContent = k > 0 ? `Solution ${num(k)} of ${num(stored)}${run ? ' so far' : ''}` : '';
  if (store && total > stored) {
    el.storeNote.hidden = false;
    el.storeNote.textContent = `Keeping the first ${num(store.cap)} solutions to save memory; all ${num(total)} are counted.`;
  }
  updateHooks();
}

function updateHooks() {
  hooks.piecesDrawn = viewer ? viewer.piecesDrawn : 0;
  hooks.currentSolution = shown + 1;
  hooks.storedSolutions = store ? store.stored : 0;
}

function step(delta) {
  if (!store || store.stored === 0) return;
  show((shown < 0 ? 0 : shown) + delta);
}

// ---------------------------------------------------------------- solving

function showProgress() {
  if (!run) return;
  const total = Math.max(store ? store.total : 0, lastStats && lastStats.solutions ? lastStats.solutions : 0);
  el.count.textContent = num(total);
  el.count.dataset.count = String(total);
  if (lastStats) {
    el.attempts.textContent = big(lastStats.attempts);
    el.attempts.dataset.value = String(lastStats.attempts || 0);
  }
  el.seconds.textContent = secs((performance.now() - run.start) / 1000);
  updateNav();
}

async function solve() {
  if (run || puzzles.length === 0) return;
  const p = currentPuzzle();
  const options = optionsString();
  if (!client || client._failure || engineText !== source.text) {
    // the engine lost the puzzle (e.g. a custom definition failed to load since): reload it
    setState('loading', 'Reloading the puzzle…');
    try {
      await ensureClient();
      await client.load(source.text, source.name);
      engineText = source.text;
    } catch (err) {
      setState('error', `Could not reload the puzzle: ${err.message || err}`);
      return;
    }
  }
  resetSolutions();
  store = new SolutionStore(p.xDim * p.yDim * p.zDim, p.instances.length);
  const token = ++runToken;
  const handlers = {
    // SolverClient passes {cellCount, count, grids}; accept (grids, cellCount, count) too.
    onSolutions(a, b, c) {
      if (token !== runToken || !store) return;
      const batch = a && a.grids ? a : { grids: a, cellCount: b, count: c };
      const { grids, count } = batch;
      store.add(grids, count);
      if (shown < 0 && store.stored > 0) show(0);
    },
    onProgress(stats) {
      if (token !== runToken) return;
      lastStats = stats;
    },
  };
  let started;
  try {
    started = client.solve(puzzleIndex, options, handlers);
  } catch (err) {
    setState('error', `Could not start the search: ${err.message || err}`);
    return;
  }
  run = { id: started.id, token, start: performance.now(), options };
  run.timer = setInterval(showProgress, 200);
  setState('running', `Searching${options ? ` with ${options}` : ''}…`);
  el.solve.blur();

  let result;
  try {
    result = await started.done;
  } catch (err) {
    if (token !== runToken) return;
    finishRun();
    setState('error', `Could not search: ${err && err.message ? err.message : err}`);
    return;
  }
  if (token !== runToken) return; // superseded (another puzzle was loaded meanwhile)
  const stats = (result && result.stats) || lastStats || {};
  lastStats = stats;
  const elapsed = typeof stats.seconds === 'number' ? stats.seconds : (performance.now() - run.start) / 1000;
  finishRun();
  const total = Math.max(store.total, stats.solutions || 0);
  el.count.textContent = num(total);
  el.count.dataset.count = String(total);
  el.attempts.textContent = big(stats.attempts);
  el.attempts.dataset.value = String(stats.attempts || 0);
  el.attempts.title = `${num(stats.attempts)} placements tried, ${num(stats.fits)} fitted`;
  el.seconds.textContent = secs(elapsed);
  updateNav();
  const plural = total === 1 ? 'solution' : 'solutions';
  if (result.reason === 'cancelled') {
    setState('cancelled', `Cancelled after ${secs(elapsed)} with ${num(total)} ${plural} found.`);
  } else if (result.reason === 'limit') {
    setState('done', `Stopped at the solution limit: ${num(total)} ${plural} in ${secs(elapsed)}.`);
  } else {
    const known = knownCount(currentEntry(), options);
    let note = '';
    if (known !== undefined && puzzles.length === 1) note = known === total ? ' ✓ matches the known count.' : ` (the known count is ${num(known)}).`;
    setState('done', `Finished: ${num(total)} ${plural} in ${secs(elapsed)}.${note}`);
  }
}

function finishRun() {
  if (run) clearInterval(run.timer);
  run = null;
}

function cancel() {
  if (!run) return;
  el.status.textContent = 'Cancelling…';
  client.cancel(run.id);
}

/** End a running search without waiting (the puzzle is being replaced). */
function stopRun() {
  if (!run) return;
  client.cancel(run.id);
  runToken++;
  finishRun();
}

// ---------------------------------------------------------------- wiring

function wire() {
  el.library.addEventListener('change', () => selectLibrary(el.library.value));
  el.pick.addEventListener('change', () => selectPuzzle(Number(el.pick.value)));
  el.defLoad.addEventListener('click', () => {
    loadText({ kind: 'custom', entry: null, text: el.defText.value, name: CUSTOM_SOURCE });
  });
  el.defReset.addEventListener('click', () => {
    el.defText.value = source.text;
    hideDefError();
  });
  el.defText.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      el.defLoad.click();
    }
  });
  el.defGoto.addEventListener('click', () => selectTextLine(Number(el.defGoto.dataset.line)));
  el.solve.addEventListener('click', solve);
  el.cancel.addEventListener('click', cancel);
  el.optExtra.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') solve();
  });
  el.prev.addEventListener('click', () => step(-1));
  el.next.addEventListener('click', () => step(1));
  el.slider.addEventListener('input', () => show(Number(el.slider.value) - 1));
  el.explode.addEventListener('input', () => viewer.setExplode(Number(el.explode.value) / 100));
  el.explodeMode.addEventListener('change', () => viewer.setExplodeMode(el.explodeMode.value));
  el.resetView.addEventListener('click', () => viewer.resetView());
  el.legendBox.addEventListener('toggle', fitMargins);
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
    if (e.key in moves) {
      e.preventDefault();
      step(moves[e.key]);
    } else if (e.key === 'Home') {
      e.preventDefault();
      show(0);
    } else if (e.key === 'End' && store) {
      e.preventDefault();
      show(store.stored - 1);
    }
  });
}

async function main() {
  fillLibrary();
  viewer = new Viewer(el.viewport);
  wire();
  setState('loading', 'Loading the solver engine…');
  try {
    await ensureClient();
  } catch (err) {
    setState('error', `The solver engine failed to load: ${err && err.message ? err.message : err}`);
    return;
  }
  const first = entries.find((e) => e.file === DEFAULT_FILE) || entries[0];
  if (!first) {
    el.custom.open = true;
    setState('error', 'No puzzle library was bundled; paste a definition under Custom definition.');
    return;
  }
  await selectLibrary(first.file);
}

main();
