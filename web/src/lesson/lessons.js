// The lessons of the page's lesson mode, as data: a class on backtracking search from zero, one
// lesson after another. A lesson is a puzzle (or a few: "scenes") searched and recorded with
// given options, and a list of narrated steps, each at a position of that recording, with the
// words said there. A teacher's own lesson is one more entry in LESSONS (docs/lessons.md says
// how); nothing else in the page needs to change.
//
// A lesson:
//   id        the name in its link (lowercase letters, digits and '-')
//   title     shown on the lesson screen and in the list of lessons
//   summary   one line for the list of lessons
//   scenes    [{puzzle, options, label?, record?, window?, compare?}]
//             puzzle: a file of def/ ('soma.txt') or {definition: '<definition text>'}
//             options: the solver's options (shown only under "Details", in plain words first)
//             label: the search in plain words (the "Details" line and the tree's caption)
//             record: false for a scene that is only looked at (no search recorded)
//             window: steps recorded at most (the default: DEFAULT_CAPACITY)
//             compare: {options, label}: a second search of the same puzzle recorded beside it,
//               its tree drawn next to the first (sizes compared)
//   steps     [{at, say, scene?, show?, ask?}]; the last is usually free play ({free: true})
//             at: where the replay stands (lesson/script.js resolvePositions): 'start', 'end',
//               'same', 'hole', 'holeFound', 'holeCleared', {find: KIND, nth?, before?}, {step}
//             say: the narration; {name} quotes a fact of that position (lesson/script.js
//               factsAt: cell, ways, left, tried, piece, nodes, totalNodes, solutions, ...);
//               {name|noun} the number with its noun ({holeSize|cell}: "1 cell", "4 cells")
//             scene: which scene the step shows (default: that of the step before, else 0)
//             show: {mch, shade: 'parity', parityArgument, matrix, compare, dives, solve, config}
//             ask: a check for understanding (see ASK_KINDS below): {kind, question, answer,
//               right, wrong, choices?}
import { encodeState } from '../share/link.js';
import { FIND_KINDS, NAMED_POSITIONS, placeholders } from './script.js';

// Facts a narration may quote. Some exist only at some positions (a level's cell, the piece of
// a placement), which the walk of every lesson in the tests checks.
export const FACTS = Object.freeze([
  'pieces', 'cells', 'step', 'steps', 'onBoard', 'nodes', 'totalNodes', 'solutions', 'totalSolutions', 'deadEnds',
  'totalDeadEnds', 'stuck', 'totalStuck', 'ways', 'tried', 'left', 'cell', 'target', 'piece', 'deadCell', 'region', 'mchCell', 'mchWays',
  'holeMade', 'holeFound', 'holeCleared', 'wasted', 'wastedNodes', 'holeSize', 'otherNodes', 'otherLabel', 'otherSolutions', 'ratio',
  'dives', 'estimate', 'estimateError', 'config', 'pieceFixed', 'branchSize', 'branchWords',
  'answer', 'answerWays', 'clicked', 'clickedWays', 'parityText',
]);

// Check questions: 'cell' (click a cell of the board; answer: 'nextCell' the cell the search
// fills next, or 'holeCell' a cell of the troublesome hole) and 'choice' (buttons; answer:
// 'branchSolves', whether the branch on the board leads to a solution).
export const ASK_KINDS = Object.freeze({ cell: ['nextCell', 'holeCell'], choice: ['branchSolves'] });

const TINY = 'lesson_tiny_4x3.txt';

export const LESSONS = Object.freeze([
  {
    id: 'backtracking',
    title: 'What backtracking is',
    summary: 'A packing puzzle, and how a computer searches it: place, get stuck, back up, try the next.',
    scenes: [{ puzzle: TINY, options: '-b 3', label: 'fills the first empty cell each time (de Bruijn\'s order)' }],
    steps: [
      { at: 'start', say: 'A packing puzzle: put all {pieces} pieces on the board so that each of its {cells} cells is covered exactly once. How can a computer find every way to do it?' },
      { at: { find: 'place', before: true }, say: 'It does not guess the whole answer. It takes one empty cell ({cell}, framed) and lists every way a piece can cover it: {ways} ways. Each way is a branch of the tree beside the board.' },
      { at: { find: 'place' }, say: 'It tries the first way: {piece} goes on the board. The tree grows one branch, from the root (the empty board) to this position.' },
      { at: { find: 'noFit' }, say: 'It goes on: the next empty cell had one way to be covered, so a second piece went on. But now no piece left fits {deadCell} (red). A dead end: nothing below this position can be a solution.' },
      { at: { find: 'backUp', nth: 2 }, say: 'So it backs up: the last piece comes off, and as its cell had no other way, {piece} comes off too. Back at {cell}: {left} of its {ways} ways are left to try.' },
      {
        at: { find: 'place' },
        say: 'The next way: {piece} goes on the board, a new branch of the tree.',
        ask: {
          kind: 'choice', question: 'Will this branch lead to a solution?', answer: 'branchSolves',
          right: 'Right: {answer}. {branchWords} Step on to watch the search find out.',
          wrong: 'Not this time: {answer}. {branchWords} You can only know by trying, and that is what the search does.',
        },
      },
      { at: { find: 'solution' }, say: 'Every cell covered: a solution! The search does not stop: it backs up again and tries the ways that are left, to find every solution.' },
      { at: 'end', say: 'Every way has been tried. The whole tree has {totalNodes} nodes: {totalStuck} dead ends where nothing fits, and {totalSolutions|solution}: one packing, turned around the board (lesson 5 comes back to that). That is backtracking: place a piece; when stuck, back up and try the next way.' },
      { at: 'same', free: true, say: 'Your turn: step through the search with the buttons below, or click a node of the tree to jump to that position.' },
    ],
  },
  {
    id: 'dead-ends',
    title: 'Dead ends, and the cost of seeing them late',
    summary: 'A hole no piece can fill, and the thousands of steps spent before the search notices it.',
    scenes: [{ puzzle: 'pentominoes_10x6.txt', options: '-b 12 -l 1', label: 'fills the first empty cell each time (de Bruijn\'s order), up to its first solution' }],
    steps: [
      { at: 'start', say: 'The twelve pentominoes in a 10×6 box. The search fills the first empty cell each time, in a fixed order, as in the first lesson.' },
      { at: 'hole', say: 'This placement walls in a hole (red) of {holeSize|cell} that no piece can ever fill. The search cannot see that: it only looks at the next empty cell.' },
      {
        at: 'same', say: 'Look at the board.',
        ask: {
          kind: 'cell', question: 'Which cell can never be filled? Click it.', answer: 'holeCell',
          right: 'Yes: {clicked} lies in the hole. No piece left fits in it, wherever it goes.',
          wrong: 'Not that one: {clicked} can still be covered. The hole is the red region: look at its shape.',
        },
      },
      { at: 'holeFound', say: 'Here, {holeFound} steps in, the search finally reaches the hole: nothing fits it. It backs up one piece at a time…' },
      { at: 'holeCleared', say: '…and only here does it take back the piece that made the hole: {wasted} steps and {wastedNodes|node} of the tree spent below a position that could never be completed, the whole branch below it.' },
      { at: 'hole', show: { mch: true }, say: 'Back where the hole was made. Count the ways to cover each empty cell: the framed cell has {mchWays}. A rule that fills that cell first would back up at the very next step.' },
      { at: 'same', free: true, say: 'Your turn: step through, or jump with the tree. The next lesson is about that smarter rule.' },
    ],
  },
  {
    id: 'most-constrained',
    title: 'Choose the most constrained cell',
    summary: 'Fill first the cell with the fewest ways to be covered: a far smaller tree.',
    scenes: [{
      puzzle: 'pentominoes_10x6.txt', options: '-m 12 -l 1', label: 'fills the cell with the fewest ways to be covered (MCH), up to its first solution',
      compare: { options: '-b 12 -l 1', label: 'the first empty cell (de Bruijn, as in lesson 1), up to its first solution' },
    }],
    steps: [
      { at: 'start', say: 'The same puzzle, a new rule: fill next the empty cell that has the fewest ways to be covered, the most constrained cell (MCH).' },
      { at: { find: 'place', before: true }, say: 'On the empty board every cell has many ways; it picks the framed one: {ways} ways.' },
      {
        at: { find: 'choose', nth: 4, before: true }, say: '{onBoard|piece} on the board now.',
        ask: {
          kind: 'cell', question: 'Which cell will MCH fill next? Click it.', answer: 'nextCell',
          right: 'Yes: {clicked} has only {clickedWays|way} to be covered; no other empty cell has fewer.',
          wrong: 'Not that one: {clicked} has {clickedWays|way} to be covered, but {answer} has only {answerWays}. MCH takes the fewest.',
        },
      },
      { at: { find: 'noFit' }, say: 'A hole that nothing fits has 0 ways: MCH picks it at once and backs up, instead of placing pieces around it.' },
      { at: 'end', show: { compare: true }, say: 'Both rules, each up to its first solution. MCH (left): {totalNodes} nodes. The first empty cell (right): {otherNodes} nodes, {ratio} times as many, most of them below holes that MCH sees at once.' },
      { at: 'same', free: true, show: { compare: true }, say: 'Your turn: step both searches together and compare the two trees.' },
    ],
  },
  {
    id: 'exact-cover',
    title: 'Exact cover and dancing links',
    summary: 'The puzzle as a table of rows and columns, and Knuth\'s dancing links.',
    scenes: [{ puzzle: TINY, options: '-o s', label: 'dancing links: the column with the fewest rows first (DLX)' }],
    steps: [
      { at: 'start', show: { matrix: true }, say: 'Write the puzzle as a table: a column for each cell and each piece, a row for each way to place a piece. A solution is a set of rows that covers every column exactly once.' },
      { at: { find: 'place', before: true }, show: { matrix: true }, say: 'Dancing links picks the column with the fewest rows: {target}, {ways} rows. One of them must be in the solution.' },
      { at: { find: 'place' }, show: { matrix: true }, say: 'It takes a row: {piece} goes on the board. Every row that shares a column with it clashes, and is hidden.' },
      { at: { find: 'deadEnd' }, show: { matrix: true }, say: 'A column with no row left: nothing can cover it. A dead end.' },
      { at: { find: 'backUp' }, show: { matrix: true }, say: 'Backing up puts the hidden rows back, exactly as they were: the links dance back into place.' },
      { at: { find: 'solution' }, show: { matrix: true }, say: 'Every column covered exactly once: a solution.' },
      { at: 'same', free: true, show: { matrix: true }, say: 'Your turn: step forwards and back and watch the rows go and come back.' },
    ],
  },
  {
    id: 'pruning',
    title: 'Pruning by counting: volume and parity',
    summary: 'Count cells and colours to cut off branches, or the whole puzzle, before searching them.',
    scenes: [
      { puzzle: 'pentominoes_10x6.txt', options: '-o s -v 5 -l 1', label: 'dancing links with the volume check, up to its first solution' },
      {
        puzzle: 'soma.txt', options: '-o s -p -l 20', label: 'dancing links with the parity check, up to 20 solutions',
        compare: { options: '-o s -l 20', label: 'without the parity check, up to 20 solutions' },
      },
      { puzzle: 'hexominoes_rect_15x14.txt', options: '-r', record: false, label: 'the 35 hexominoes in a 15×14 box' },
    ],
    steps: [
      { at: 'start', say: 'Counting can prove a position hopeless before any piece is tried. Pentominoes cover cells five at a time.' },
      { at: { find: 'volume' }, say: 'This placement closes off a region of {region|cell}: not a multiple of 5, so no set of pentominoes can fill it. The search backs up at once.' },
      { scene: 1, at: 'start', show: { shade: 'parity' }, say: 'Colour the Soma cube like a 3-D chessboard. Most pieces cover as many dark cells as light ones, or one more of either; only T covers 3 of one colour and 1 of the other.' },
      { at: { find: 'parity' }, show: { shade: 'parity' }, say: 'Here the cells left have the wrong mix of dark and light for the pieces left, wherever they go: the parity check backs up at once.' },
      { at: 'end', show: { compare: true, shade: 'parity' }, say: 'With the parity check (left) the tree has {totalNodes} nodes for 20 solutions; without it (right), {otherNodes}.' },
      { scene: 2, at: 'start', show: { shade: 'parity', parityArgument: true }, say: 'Sometimes counting rules out a whole puzzle: these {pieces} pieces can never fill this box. Count the dark and the light cells: the argument, with this board\'s numbers, is set out next to the view.' },
      { at: 'same', free: true, show: { shade: 'parity', parityArgument: true }, say: 'No search is needed: the solver checks this before it starts, and says the puzzle is impossible.' },
    ],
  },
  {
    id: 'symmetry',
    title: 'Symmetry',
    summary: 'Every solution of a rectangle comes in four turned copies; find each once.',
    scenes: [{
      puzzle: 'lesson_symmetry_4x3.txt', options: '-b 4', label: 'every solution, turned copies too',
      compare: { options: '-r -b 4', label: 'turned copies counted once: one piece held still' },
    }],
    steps: [
      { at: 'start', say: 'Four pieces on a 4×3 board. Any solution can be turned end over end, or upside down: four copies of one answer.' },
      { at: { find: 'solution' }, say: 'A first solution. The search will find its turned copies too, each in its own branch of the tree.' },
      { at: 'end', say: 'The whole search: {totalSolutions} solutions, {totalNodes} nodes in the tree. But only a quarter of them are really different.' },
      { at: 'end', show: { compare: true }, say: 'Hold one piece still, in its positions that no turn of the board can reach, and each solution is found once: {otherSolutions} solutions, {otherNodes} nodes instead of {totalNodes}.' },
      { at: 'same', free: true, show: { compare: true }, say: 'Your turn: compare the two trees step by step.' },
    ],
  },
  {
    id: 'tree-size',
    title: 'How big is the tree?',
    summary: 'Knuth\'s estimate: a few random dives predict the size of the whole tree.',
    scenes: [{ puzzle: 'soma.txt', options: '-r -o s', label: 'dancing links, every solution once (the whole search)' }],
    steps: [
      { at: 'start', say: 'Before a long search, we would like to know how long it takes. Knuth\'s idea: dive from the root to a leaf, choosing a random branch at each level.' },
      { at: 'start', show: { dives: 1 }, say: 'One dive. If a level offers 5 ways, pretend each of them looks like the one taken: the tree holds 1 + 5 + 5 × 3 + … nodes. This dive says {estimate}.' },
      { at: 'start', show: { dives: 10 }, say: 'Ten dives, averaged: about {estimate} nodes.' },
      { at: 'start', show: { dives: 1000 }, say: 'A thousand dives: about {estimate} nodes. The whole search, recorded here, has {totalNodes}: the estimate is off by {estimateError}.' },
      { at: 'same', free: true, show: { dives: 1000 }, say: 'Your turn: dive again, and watch the average settle. Each dive is cheap; the whole search is not.' },
    ],
  },
  {
    id: 'tetris-cube',
    title: 'The real thing: the Tetris Cube',
    summary: 'Twelve pieces in a 4×4×4 box, the solver\'s own choices explained, and solved.',
    scenes: [{ puzzle: 'tetriscube.txt', options: '-r', window: 4000, label: 'the solver\'s automatic choices' }],
    steps: [
      { at: 'start', say: 'The Tetris Cube: {pieces} pieces fill a 4×4×4 box. Far too big to draw its whole tree; its first steps are recorded here.' },
      { at: 'start', show: { config: true }, say: 'When no method is given, the solver chooses for itself, from the shape of the puzzle and a few random dives. Its choices, in plain words, are set out next to the view: each is one of the lessons before.' },
      { at: { find: 'place', nth: 3 }, show: { config: true }, say: 'Its first steps. Each level fills the cell or places the piece with the fewest choices.' },
      { at: 'same', show: { solve: true, config: true }, say: 'Now the whole search, on every core of this computer. One piece is held still, so that each solution is found once (lesson 5). Press Solve it.' },
      { at: 'same', free: true, show: { solve: true }, say: 'That is the whole class: backtracking, dead ends, the most constrained choice, exact cover, counting, symmetry and estimates, all at work in one search.' },
    ],
  },
]);

export const lessonById = (id) => LESSONS.find((l) => l.id === id) || null;

// The names of the lessons the page had before these, in links sent since: each opens the part
// of a lesson here that shows what it showed.
const FORMER = Object.freeze({ hole: ['dead-ends', 1], constrained: ['most-constrained', 0], volume: ['pruning', 1], parity: ['pruning', 5] });

/** The lesson a link names, and the part to open when the link names none: {lesson, part} or null. */
export function lessonOfLink(id) {
  const lesson = lessonById(id);
  if (lesson) return { lesson, part: 0 };
  const former = Object.hasOwn(FORMER, id) ? FORMER[id] : null;
  return former ? { lesson: lessonById(former[0]), part: former[1] } : null;
}

/** The number shown with a lesson (its place in the class: 0 is the first). */
export const lessonNumber = (lesson) => LESSONS.indexOf(lesson);

/** The scene each step shows (a step without one keeps the scene of the step before). */
export function stepScenes(lesson) {
  let scene = 0;
  return lesson.steps.map((s) => (scene = Number.isInteger(s.scene) ? s.scene : scene));
}

/** The share-link fragment that opens a lesson at one of its steps (0-based). */
export function lessonLink(lesson, step = 0) {
  const scene = lesson.scenes[stepScenes(lesson)[step] || 0];
  const puzzle = typeof scene.puzzle === 'string' ? { library: scene.puzzle, index: 0 } : { definition: scene.puzzle.definition };
  const view = { lesson: lesson.id };
  if (step > 0) view.lessonStep = step;
  return encodeState({ puzzle, options: scene.options, view });
}

export const LESSON_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

/**
 * What is wrong with a lesson's data, as a list of messages naming the field ([] when nothing):
 * the tests run it over LESSONS, and a teacher can run it over their own.
 */
export function checkLesson(lesson) {
  const errors = [];
  const where = `lesson ${lesson && lesson.id ? `"${lesson.id}"` : '(no id)'}`;
  const bad = (field, what) => errors.push(`${where}: ${field} ${what}`);
  if (!lesson || typeof lesson !== 'object') return [`${where}: not an object`];
  if (typeof lesson.id !== 'string' || !LESSON_ID.test(lesson.id)) bad('id', 'must be lowercase letters, digits and -');
  for (const f of ['title', 'summary']) if (typeof lesson[f] !== 'string' || !lesson[f].trim()) bad(f, 'must be text');
  if (!Array.isArray(lesson.scenes) || lesson.scenes.length === 0) bad('scenes', 'must list at least one scene');
  (lesson.scenes || []).forEach((s, k) => {
    const f = `scenes[${k}]`;
    const p = s && s.puzzle;
    if (!(typeof p === 'string' ? /^[A-Za-z0-9][A-Za-z0-9_.-]*\.txt$/.test(p) : p && typeof p.definition === 'string')) bad(`${f}.puzzle`, 'must be a file of def/ or {definition}');
    if (typeof (s && s.options) !== 'string') bad(`${f}.options`, 'must be text');
    if (s && s.compare && typeof s.compare.options !== 'string') bad(`${f}.compare.options`, 'must be text');
    if (s && s.window !== undefined && !(Number.isInteger(s.window) && s.window > 0)) bad(`${f}.window`, 'must be a whole number above 0');
  });
  if (!Array.isArray(lesson.steps) || lesson.steps.length === 0) bad('steps', 'must list at least one step');
  const scenes = Array.isArray(lesson.steps) ? stepScenes(lesson) : [];
  (lesson.steps || []).forEach((st, k) => {
    const f = `steps[${k}]`;
    if (typeof st.say !== 'string' || !st.say.trim()) bad(`${f}.say`, 'must be text');
    const texts = [st.say, ...(st.ask ? [st.ask.question, st.ask.right, st.ask.wrong] : [])];
    for (const t of texts) for (const name of placeholders(t || '')) if (!FACTS.includes(name)) bad(`${f}`, `quotes {${name}}, which is no fact (lesson/lessons.js FACTS)`);
    const scene = lesson.scenes && lesson.scenes[scenes[k]];
    if (!scene) bad(`${f}.scene`, `names scene ${scenes[k]}, which the lesson does not have`);
    const at = st.at === undefined ? 'same' : st.at;
    const ok = typeof at === 'string' ? NAMED_POSITIONS.includes(at)
      : at && typeof at === 'object' && (Number.isInteger(at.step) ? at.step >= 0 : !!FIND_KINDS[at.find] && (at.nth === undefined || (Number.isInteger(at.nth) && at.nth > 0)));
    if (!ok) bad(`${f}.at`, 'is no position (lesson/script.js resolvePositions)');
    if (scene && scene.record === false && at !== 'start' && at !== 'same') bad(`${f}.at`, 'moves in a scene that is not recorded');
    if (st.show && st.show.compare && scene && !scene.compare) bad(`${f}.show.compare`, 'needs a scene with compare');
    if (st.ask) {
      const kinds = ASK_KINDS[st.ask.kind];
      if (!kinds) bad(`${f}.ask.kind`, `must be one of ${Object.keys(ASK_KINDS).join(', ')}`);
      else if (!kinds.includes(st.ask.answer)) bad(`${f}.ask.answer`, `must be one of ${kinds.join(', ')}`);
      for (const t of ['question', 'right', 'wrong']) if (typeof st.ask[t] !== 'string' || !st.ask[t].trim()) bad(`${f}.ask.${t}`, 'must be text');
    }
  });
  return errors;
}
