// Beside the lesson's view (below it on a phone): what the step shows besides the board. The
// search tree as it grows, the algorithm with the line being run, the exact-cover table
// (lesson/ components), and the lesson's own panels: two searches compared side by side with
// their sizes, Knuth's random dives against the true size, the checkerboard argument, the
// solver's own words for its configuration ("Details": one click away for the curious).
import { num, plural } from '../app/format.js';
import { parityArgument } from '../trace/parity.js';
import { stationaryCells } from '../trace/holes.js';
import { puzzleColors } from '../viewer/colors.js';
import { SearchTree } from '../lesson/search-tree.js';
import { TreeView } from '../lesson/tree-view.js';
import { CodeView } from '../lesson/code-view.js';
import { algorithmOf, codeFor, explainStep, usesChecks } from '../lesson/pseudo-code.js';
import { ExactCover } from '../lesson/exact-cover.js';
import { MatrixView } from '../lesson/matrix-view.js';
import { configParts, fixedPieceWords } from '../lesson/config-words.js';
import { drawMiniBoard } from './mini-board.js';
import { h, setProp, setText } from './dom.js';

const CHART_H = 130;

export function mountLessonSide(store, lessons, watch) {
  // the tree of the search (and of the second search, side by side when two are compared)
  const treeCaption = h('figcaption', { id: 'lesson-tree-caption', className: 'lesson-pane-title' });
  const treeCount = h('p', { id: 'lesson-tree-count', className: 'lesson-count' });
  const treeBox = h('div', { id: 'lesson-tree', className: 'lesson-tree' });
  const otherCaption = h('figcaption', { id: 'lesson-tree-caption-1', className: 'lesson-pane-title' });
  const otherBoard = h('canvas', { id: 'lesson-other-board', className: 'lesson-other-board', role: 'img' });
  const otherCount = h('p', { id: 'lesson-tree-count-1', className: 'lesson-count' });
  const otherTreeBox = h('div', { id: 'lesson-tree-1', className: 'lesson-tree' });
  const otherPane = h('figure', { className: 'lesson-pane lesson-tree-pane', id: 'lesson-pane-1', hidden: true }, otherCaption, otherBoard, otherCount, otherTreeBox);
  const trees = h('div', { className: 'lesson-trees', id: 'lesson-trees' },
    h('figure', { className: 'lesson-pane lesson-tree-pane', id: 'lesson-pane-0' }, treeCaption, treeCount, treeBox), otherPane);
  const compareTable = h('table', { id: 'lesson-compare', className: 'lesson-table', hidden: true });
  const code = h('div', { id: 'lesson-code', className: 'lesson-pane lesson-code' });
  const matrix = h('div', { id: 'lesson-matrix', className: 'lesson-pane lesson-matrix', hidden: true });
  // Knuth's dives
  const diveChart = h('canvas', { id: 'lesson-dive-chart', className: 'lesson-dive-chart', role: 'img', height: CHART_H, width: 320 });
  const diveText = h('p', { id: 'lesson-dive-text' });
  const diveBtn = h('button', { type: 'button', id: 'lesson-dive-again', onclick: () => lessons.diveAgain(10) }, 'Dive 10 more times');
  const dives = h('section', { id: 'lesson-dives', className: 'lesson-pane', hidden: true, 'aria-label': 'Random dives' }, h('h3', {}, 'Random dives against the truth'), diveText, diveChart, diveBtn);
  const parity = h('section', { id: 'lesson-parity', className: 'lesson-pane', hidden: true, 'aria-label': 'The checkerboard argument' });
  const config = h('section', { id: 'lesson-config', className: 'lesson-pane', hidden: true, 'aria-label': 'How the solver set itself up' });
  const details = h('section', { id: 'lesson-detail-box', className: 'lesson-pane lesson-detail-box', hidden: true, 'aria-label': 'Details' });
  const element = h('section', { id: 'lesson-side', className: 'lesson-side', hidden: true, 'aria-label': 'The search tree and the algorithm' },
    config, trees, compareTable, dives, parity, matrix, code, details);

  let parityFor = null;
  let colours = { puzzle: null };
  // the components (lesson/), made once and given each new recording
  const views = { tree: null, otherTree: null, code: null, matrix: null };
  let treeFor = null, otherFor = null, codeRec = null, matrixFor = null;
  // a click on a node of a tree jumps there (the other search's tree: the replay to that step)
  const jump = (step) => watch.seek(step);

  /** Each component follows the recording it shows: a new one when the recording changes. */
  function follow(scene, player, comparing, showMatrix) {
    if (player && player.rec !== treeFor) {
      treeFor = player.rec;
      if (!views.tree) views.tree = new TreeView(treeBox, { onJump: jump });
      views.tree.setTree(new SearchTree(player.rec), watch.puzzle);
    }
    if (views.tree && player) views.tree.setStep(player.step);
    const other = comparing ? watch.other : null;
    if (other && other.recording !== otherFor) {
      otherFor = other.recording;
      if (!views.otherTree) views.otherTree = new TreeView(otherTreeBox, { onJump: jump });
      views.otherTree.setTree(new SearchTree(other.recording), watch.puzzle);
    }
    if (views.otherTree && other) views.otherTree.setStep(other.player.step);
    // the algorithm: the pseudo-code of the search shown, its line lit
    if (player && player.rec !== codeRec) {
      codeRec = player.rec;
      if (!views.code) views.code = new CodeView(code);
      views.code.algorithm = algorithmOf(scene.options);
      views.code.setCode(codeFor(views.code.algorithm, { checks: usesChecks(player.rec) }));
    }
    setProp(code, 'hidden', !player);
    if (views.code && player) views.code.show(explainStep(views.code.algorithm, player, watch.puzzle));
    // the exact-cover matrix (dancing links, lesson 3)
    if (showMatrix && player && player.rec !== matrixFor && watch.table) {
      matrixFor = player.rec;
      if (!views.matrix) views.matrix = new MatrixView(matrix, { colourOf: (i) => colourOf(watch.puzzle)(i) });
      views.matrix.setModel(new ExactCover(watch.table), player.rec, watch.puzzle);
    }
    if (views.matrix && showMatrix && player) views.matrix.setStep(player);
  }

  /** The colour of a piece instance as the 3-D view draws it. */
  function colourOf(puzzle) {
    if (colours.puzzle !== puzzle) {
      const c = puzzleColors(puzzle);
      colours = { puzzle, of: (i) => `#${c.instanceColor(i).getHexString()}`, closed: stationaryCells(puzzle) };
    }
    return colours.of;
  }

  function render(s, lesson, sceneIndex) {
    const L = s.lesson;
    setProp(element, 'hidden', !L.open);
    if (!L.open) return;
    const scene = lesson.scenes[sceneIndex];
    const player = L.busy ? null : watch.player;
    const summary = lessons.summary;
    const comparing = !!L.show.compare && !!watch.other && !!watch.other.player;
    follow(scene, player, comparing && !!player, !!L.show.matrix);
    setProp(element.dataset, 'compare', comparing ? '1' : '');
    document.body.dataset.lessonLayout = comparing ? 'compare' : '';
    setProp(trees, 'hidden', !player);
    if (player && summary) {
      setText(treeCaption, comparing ? `Left: ${scene.label}` : `The search tree: ${scene.label}`);
      const total = 1 + summary.placements;
      const shown = 1 + summary.placementsBefore[player.step];
      const of = player.rec.full ? `of the ${num(total)} in its first ${num(player.length)} steps (only these are recorded)` : `of ${num(total)}`;
      setText(treeCount, `${plural(shown, 'node')} so far ${of}: the root is the empty board, and each node one more piece placed.`);
    }
    setProp(otherPane, 'hidden', !comparing);
    setProp(compareTable, 'hidden', !comparing || !summary);
    if (comparing && summary) renderCompare(s, scene, summary);
    // the exact-cover table (lesson 3), the dives (lesson 6), the argument (lesson 4)
    setProp(matrix, 'hidden', !L.show.matrix || !player);
    renderDives(L);
    const puzzle = L.show.parityArgument ? lessons.actions.currentPuzzle() : null;
    if (puzzle !== parityFor) {
      parityFor = puzzle;
      parity.replaceChildren(...(puzzle ? parityView(parityArgument(puzzle)) : []));
    }
    setProp(parity, 'hidden', !puzzle);
    renderConfig(L);
    setProp(details, 'hidden', !L.details);
    if (L.details) renderDetails(s, scene);
  }

  function renderCompare(s, scene, summary) {
    const other = watch.other;
    const puzzle = watch.puzzle;
    setText(otherCaption, `Right: ${scene.compare.label}`);
    colourOf(puzzle);
    const level = other.player.levels[other.player.levels.length - 1];
    drawMiniBoard(otherBoard, puzzle, other.player.grid, colours.of, { target: level ? level.target : -1, closed: colours.closed, width: 120 });
    setProp(otherBoard, 'ariaLabel', `The board of the right-hand search at its step ${num(other.player.step)}`);
    const os = other.summary;
    const at = other.player.step;
    setText(otherCount, `${plural(1 + os.placementsBefore[at], 'node')} so far of ${num(1 + os.placements)}${other.recording.full ? '+' : ''}; its step ${num(at)}${at < s.watch.step ? ' (its end)' : ''}.`);
    const step = watch.player.step;
    const row = (name, a, b) => h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, a), h('td', {}, b));
    compareTable.replaceChildren(
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, 'left'), h('th', { scope: 'col' }, 'right'))),
      h('tbody', {},
        row('nodes in the whole tree', num(1 + summary.placements), num(1 + os.placements)),
        row('solutions found', num(summary.solutions), num(os.solutions)),
        row('dead ends met', num(summary.deadEnds), num(os.deadEnds)),
        row('nodes by this step', num(1 + summary.placementsBefore[step]), num(1 + os.placementsBefore[at]))));
  }

  function renderDives(L) {
    const d = L.show.dives ? lessons.diveResult : null;
    setProp(dives, 'hidden', !d);
    if (!d || !lessons.summary) return;
    const truth = 1 + lessons.summary.placements;
    const estimate = Math.round(d.means[d.count - 1]);
    setText(diveText, `After ${plural(d.count, 'dive')} the estimate is ${num(estimate)} nodes; the recorded tree has ${num(truth)}. The blue line is the average after each dive, the green one the truth.`);
    drawDives(diveChart, d.means, truth);
    setProp(diveChart, 'ariaLabel', `The average of the dives, ending at ${num(estimate)}, against the true ${num(truth)} nodes`);
  }

  let configShown = null;
  /** The solver's own configuration of the search, in plain words (the last lesson). */
  function renderConfig(L) {
    const stats = L.show.config ? lessons.config : null;
    setProp(config, 'hidden', !stats);
    if (stats === configShown) return;
    configShown = stats;
    if (!stats) return;
    const said = configParts(stats.configuration);
    const fixed = fixedPieceWords(stats.redundancyFilter);
    config.replaceChildren(h('h3', {}, 'How the solver set itself up'),
      h('ul', { id: 'lesson-config-list' }, ...[...said, ...(fixed ? [fixed] : [])].map((t) => h('li', {}, t))),
      h('p', { className: 'lesson-count' }, 'The solver\'s own words are under Details.'));
  }

  function renderDetails(s, scene) {
    const stats = lessons.config;
    const lines = [
      ['This search', scene.label],
      ['Solver options', scene.options || 'none (automatic)'],
    ];
    if (scene.compare) lines.push(['The search beside it', `${scene.compare.label}: ${scene.compare.options}`]);
    if (stats && stats.configuration) lines.push(['How the solver set itself up', stats.configuration]);
    if (stats && stats.redundancyFilter && stats.redundancyFilter !== 'OFF') lines.push(['Each solution once', stats.redundancyFilter]);
    details.replaceChildren(h('h3', {}, 'Details'), h('dl', {}, ...lines.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])));
  }

  return { element, render, views };
}

/** The running average of the dives (blue) against the true size (green), on a log scale of dives. */
function drawDives(canvas, means, truth) {
  const width = Math.max(200, Math.round(canvas.clientWidth || 320));
  if (canvas.width !== width) canvas.width = width;
  const W = canvas.width, H = canvas.height;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#111829';
  ctx.fillRect(0, 0, W, H);
  const n = means.length;
  let top = truth * 2;
  for (const m of means) top = Math.max(top, Math.min(m, truth * 4));
  const y = (v) => H - 6 - (Math.min(v, top) / top) * (H - 12);
  const x = (k) => (n <= 1 ? W / 2 : 4 + (Math.log(k + 1) / Math.log(n)) * (W - 8));
  ctx.strokeStyle = '#2fd37a';
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(0, y(truth));
  ctx.lineTo(W, y(truth));
  ctx.stroke();
  ctx.strokeStyle = '#7fa2ff';
  ctx.beginPath();
  for (let k = 0; k < n; k++) (k ? ctx.lineTo(x(k), y(means[k])) : ctx.moveTo(x(k), y(means[k])));
  ctx.stroke();
}

/** The checkerboard argument with this puzzle's numbers, and the pieces' colours. */
function parityView(arg) {
  const groups = new Map(); // "dark + light" -> names
  for (const p of arg.pieces) {
    const key = `${Math.max(p.dark, p.light)} + ${Math.min(p.dark, p.light)}`;
    groups.set(key, [...(groups.get(key) || []), p.name]);
  }
  return [
    h('h3', {}, 'The checkerboard argument'),
    h('p', { id: 'parity-text' }, arg.text),
    h('table', { className: 'lesson-table', id: 'parity-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'cells of one colour + the other'), h('th', { scope: 'col' }, 'pieces'))),
      h('tbody', {}, ...[...groups].map(([key, names]) => h('tr', {}, h('td', {}, key), h('td', {}, `${names.length}: ${names.join(' ')}`))))),
  ];
}
