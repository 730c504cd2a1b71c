// The lesson data (lesson/lessons.js) against real recordings from the WebAssembly engine: every
// lesson is well formed, every narrated step finds its place in its scene's search, the facts its
// words quote exist there, and the pieces the lesson screen computes (lesson/script.js: the
// branch below a position, the next cell; lesson/knuth.js: random dives; lesson/config-words.js)
// say what the recording says.
import { describe, expect, test } from 'vitest';
import { LESSONS, checkLesson, lessonById, lessonLink, lessonOfLink, stepScenes } from '../../web/src/lesson/lessons.js';
import { branchBelow, factsAt, fill, nextCell, placeholders, resolvePositions, stuckBefore } from '../../web/src/lesson/script.js';
import { branchTable, dives, randomDive, seededRandom } from '../../web/src/lesson/knuth.js';
import { configParts, configWords, fixedPieceWords } from '../../web/src/lesson/config-words.js';
import { worstHole } from '../../web/src/trace/holes.js';
import { TracePlayer } from '../../web/src/trace/player.js';
import { summarise } from '../../web/src/trace/summary.js';
import { decodeState } from '../../web/src/share/link.js';
import { TRACE_OP } from '../../web/src/worker/protocol.js';
import { record } from './helpers.js';

// facts that only the lesson screen has (app/lesson-actions.js: the hole, the second search, the
// dives, the engine's configuration, a check's answer), not factsAt of a position
const SCREEN_FACTS = new Set(['holeMade', 'holeFound', 'holeCleared', 'wasted', 'wastedNodes', 'holeSize', 'otherNodes', 'otherLabel', 'otherSolutions',
  'ratio', 'dives', 'estimate', 'estimateError', 'config', 'pieceFixed', 'parityText', 'answer', 'answerWays', 'clicked', 'clickedWays', 'branchSize', 'branchWords']);

describe('the lessons as data', () => {
  test('every lesson is well formed, with a unique id, and the class starts from zero', () => {
    for (const lesson of LESSONS) expect(checkLesson(lesson), lesson.id).toEqual([]);
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    expect(LESSONS.map((l) => l.id)).toEqual(['backtracking', 'dead-ends', 'most-constrained', 'exact-cover', 'pruning', 'symmetry', 'tree-size', 'tetris-cube']);
  });

  test('checkLesson names what is wrong, field by field', () => {
    const bad = {
      id: 'Bad Id', title: '', summary: 'x', scenes: [{ puzzle: 'no slash/../x', options: 3 }],
      steps: [{ at: { find: 'nowhere' }, say: 'Quotes {nothing}.', ask: { kind: 'cell', answer: 'branchSolves', question: 'q', right: 'r' } }, { scene: 4, say: 'x' }],
    };
    const errors = checkLesson(bad).join('\n');
    expect(errors).toMatch(/id must be lowercase/);
    expect(errors).toMatch(/title must be text/);
    expect(errors).toMatch(/scenes\[0\]\.puzzle must be a file of def\//);
    expect(errors).toMatch(/scenes\[0\]\.options must be text/);
    expect(errors).toMatch(/steps\[0\]\.at is no position/);
    expect(errors).toMatch(/steps\[0\] quotes \{nothing\}, which is no fact/);
    expect(errors).toMatch(/steps\[0\]\.ask\.answer must be one of nextCell, holeCell/);
    expect(errors).toMatch(/steps\[0\]\.ask\.wrong must be text/);
    expect(errors).toMatch(/steps\[1\]\.scene names scene 4/);
  });

  test("links to the page's former lessons open the part that shows what they showed", () => {
    expect(lessonOfLink('backtracking')).toEqual({ lesson: LESSONS[0], part: 0 });
    const hole = lessonOfLink('hole');
    expect([hole.lesson.id, hole.part, hole.lesson.steps[hole.part].at]).toEqual(['dead-ends', 1, 'hole']);
    const volume = lessonOfLink('volume');
    expect([volume.lesson.id, volume.lesson.steps[volume.part].at]).toEqual(['pruning', { find: 'volume' }]);
    const parity = lessonOfLink('parity');
    expect([parity.lesson.id, !!parity.lesson.steps[parity.part].show.parityArgument]).toEqual(['pruning', true]);
    expect(lessonOfLink('constrained').lesson.id).toBe('most-constrained');
    expect(lessonOfLink('symmetry').lesson.id).toBe('symmetry');
    expect(lessonOfLink('toString')).toBeNull();
    expect(lessonOfLink('nope')).toBeNull();
  });

  test("a lesson's link opens it at one of its parts, through the share link's checks", () => {
    const lesson = lessonById('pruning');
    const r = decodeState(lessonLink(lesson, 3));
    expect(r.ok).toBe(true);
    // part 3 belongs to the second scene: the link names that scene's puzzle and options
    expect(r.state).toEqual({ puzzle: { library: 'soma.txt', index: 0 }, options: '-o s -p -l 20', view: { lesson: 'pruning', lessonStep: 3 } });
    expect(decodeState(lessonLink(LESSONS[0])).state.view).toEqual({ lesson: 'backtracking' });
  });
});

/** Record every recorded scene of every lesson once (the tests below share them). */
const recordings = new Map();
async function sceneRecording(scene) {
  const key = `${scene.puzzle}|${scene.options}|${scene.window || 0}`;
  if (!recordings.has(key)) recordings.set(key, await record(scene.puzzle, `${scene.options} -t 1`, { window: scene.window || 1_000_000 }));
  return recordings.get(key);
}

describe('every narrated step stands somewhere in its search, and its words have their numbers', () => {
  for (const lesson of LESSONS) {
    test(lesson.id, { timeout: 60_000 }, async () => {
      const scenes = stepScenes(lesson);
      for (let i = 0; i < lesson.scenes.length; i++) {
        const scene = lesson.scenes[i];
        if (scene.record === false) continue;
        const { rec, puzzle, table } = await sceneRecording(scene);
        const steps = lesson.steps.filter((_, k) => scenes[k] === i);
        const player = new TracePlayer(rec, table, puzzle.xDim * puzzle.yDim * puzzle.zDim);
        const hole = steps.some((s) => /^hole/.test(s.at)) ? await worstHole(puzzle, rec, (image) => player.cellsOf(image), { pause: () => Promise.resolve() }) : null;
        const positions = resolvePositions(steps, rec, { hole });
        positions.forEach((p, j) => expect(p.found, `${lesson.id}: step ${lesson.steps.indexOf(steps[j])} (${JSON.stringify(steps[j].at)})`).toBe(true));
        // the positions go forward within a scene, except named ones
        const summary = { ...summarise(rec), stuckBefore: stuckBefore(rec) };
        positions.forEach((p, j) => {
          player.seek(p.step);
          const facts = factsAt({ puzzle, player, table, summary });
          for (const name of placeholders(steps[j].say)) {
            if (SCREEN_FACTS.has(name)) continue;
            expect(facts[name], `${lesson.id}: {${name}} at step ${lesson.steps.indexOf(steps[j])}`).not.toBeUndefined();
          }
          // every quoted fact is filled in ('?' stands for one missing)
          const all = { ...facts, holeMade: 1, holeFound: 1, holeCleared: 1, wasted: 1, wastedNodes: 2, holeSize: 1, otherNodes: 1, otherSolutions: 1, ratio: 1, dives: 1, estimate: 1, estimateError: '1%', config: 'c', pieceFixed: 'p', parityText: 't' };
          expect(fill(steps[j].say.replace(/\?/g, ''), all), `${lesson.id}: step ${lesson.steps.indexOf(steps[j])}`).not.toMatch(/\?/);
        });
      }
    });
  }
});

describe("lesson 0's tiny puzzle, step by step", () => {
  test('its tree is small, with dead ends and solutions, and the branch the lesson asks about leads to one', async () => {
    const lesson = LESSONS[0];
    const { rec, puzzle, table } = await sceneRecording(lesson.scenes[0]);
    const summary = summarise(rec);
    expect(rec.length).toBe(98);
    expect(1 + summary.placements).toBe(21); // the whole tree: the root and 20 placements
    expect(summary.solutions).toBe(4); // one packing, turned
    expect(stuckBefore(rec)[rec.length]).toBeGreaterThanOrEqual(4); // positions where nothing fits; the other dead ends are levels all tried
    const positions = resolvePositions(lesson.steps, rec);
    const asking = lesson.steps.findIndex((s) => s.ask);
    const branch = branchBelow(rec, positions[asking].step);
    expect(branch.solves).toBe(true);
    // a branch that does not: the first one tried
    expect(branchBelow(rec, positions[2].step)).toEqual({ placed: 1, solves: false });
    expect(branchBelow(rec, 0)).toBeNull();
    // the first cell it fills, and its ways, as the narration says them
    const player = new TracePlayer(rec, table, puzzle.xDim * puzzle.yDim * puzzle.zDim);
    player.seek(positions[1].step);
    const facts = factsAt({ puzzle, player, table, summary });
    expect(facts.ways).toBe(7);
    expect(facts.cell).toBe('cell A1');
    player.seek(positions[4].step); // backed up to the first cell
    expect(factsAt({ puzzle, player, table, summary })).toMatchObject({ cell: 'cell A1', ways: 7, left: 6, piece: 'V' });
    expect(nextCell(rec, 0)).toBe(rec.a(0));
    expect(rec.op(0)).toBe(TRACE_OP.CHOOSE);
  });
});

describe("Knuth's random dives", () => {
  test('on a recorded tree their average tends to the true node count', async () => {
    const { rec } = await sceneRecording(lessonById('symmetry').scenes[0]);
    const tree = branchTable(rec);
    const truth = 1 + summarise(rec).placements;
    expect(tree.nodes).toBe(truth);
    // each dive is a real path: its placements follow one another down the tree
    const dive = randomDive(tree, seededRandom(1));
    expect(dive.path.length).toBeGreaterThan(0);
    dive.path.forEach((i) => expect(rec.op(i)).toBe(TRACE_OP.PLACE));
    const { means } = dives(tree, 20000, seededRandom(3));
    expect(Math.abs(means[means.length - 1] - truth) / truth).toBeLessThan(0.05);
    // the same seed, the same dives
    expect(dives(tree, 50, seededRandom(9)).means).toEqual(dives(tree, 50, seededRandom(9)).means);
  });
});

describe("the solver's configuration in plain words", () => {
  test("the Tetris Cube's automatic configuration and its piece held still", () => {
    const words = configWords('automatic: DLX, FILA when 11 pieces remain with NOF (fixed orders: 8 index cells), volume filter once, parity filter once, heuristics s=12:e=11:c=2');
    expect(words).toMatch(/^It chose for itself\. It starts with dancing links/);
    expect(configParts('automatic: DLX, FILA when 11 pieces remain with NOF (fixed orders: 8 index cells), volume filter once, parity filter once, heuristics s=12:e=11:c=2')).toHaveLength(5);
    expect(words).toMatch(/When 11 pieces are left it switches/);
    expect(words).toMatch(/volume, lesson 4/);
    expect(words).toMatch(/parity, lesson 4/);
    expect(words).toMatch(/from 11 pieces left/);
    expect(configWords('')).toBe('');
    expect(configWords('something new')).toBe('');
    expect(fixedPieceWords('L (12 of 288 images kept, 24 symmetries); chosen by Monte Carlo probes, estimated cost: G 1e+09')).toMatch(/^Piece L is held still: 12 of its 288 positions .* 24 turns .*random dives/);
    expect(fixedPieceWords('OFF')).toBe('');
  });
});
