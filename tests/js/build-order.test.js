// Build orders through the WebAssembly engine (Session.buildOrder), the worker protocol
// ('buildOrder') and the page's model of them (web/src/model/build-order.js): the same orders as
// the native CLI's --build-order, every step's way in replayed cell by cell from the model's
// paths, bad requests refused with a reason.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, DEF_DIR, makeFakeWorker, makeHost, openDef, readDef, runToEnd } from './helpers.js';
import { SolverClient } from '../../web/src/solver-client.js';
import {
  buildStepCount, placedGrid, placedInstances, stepInstances, stepMotion, stepPath, stepWords, orderSummary, turnedWords,
} from '../../web/src/model/build-order.js';

const HOOKS = 'D:xDim=3:yDim=1:zDim=3\nC:name=A:layout=0 0 0, 0 0 1, 1 0 1\nC:name=B:layout=1 0 0, 2 0 0, 2 0 1, 2 0 2, 1 0 2, 0 0 2\n~D\n';
const HOOKS_GRID = [0, 1, 1, 0, 0, 1, 1, 1, 1];

/** The first `n` solutions of puzzle 0 with -r, one thread (the CLI's -j 1 order). */
function solutions(session, n) {
  const out = [];
  runToEnd(session, 0, `-r -l ${n}`, {
    onGrids(grids, count) {
      const size = grids.length / count;
      for (let k = 0; k < count; k++) out.push(grids.slice(k * size, (k + 1) * size));
    },
  });
  return out;
}

/**
 * Replays every step of `order` from the model's paths, one cell at a time: each position of
 * the moving pieces is above the box or inside its walls, on no placed cell; the step starts
 * above the box and ends at the solution's cells. Returns '' or what went wrong.
 */
function replay(puzzle, grid, order) {
  const { xDim: X, yDim: Y, zDim: Z } = puzzle;
  for (let k = 1; k <= buildStepCount(order); k++) {
    const before = placedGrid(puzzle, grid, order, k - 1);
    const moving = stepInstances(order, k);
    const cells = [];
    for (let c = 0; c < grid.length; c++) if (moving.includes(grid[c])) cells.push([c % X, Math.floor(c / X) % Y, Math.floor(c / (X * Y))]);
    const free = ([x, y, z]) => z >= Z || (z >= 0 && x >= 0 && x < X && y >= 0 && y < Y && before[x + X * (y + Y * z)] < 0);
    const path = stepPath(puzzle, grid, order, k);
    if (path[path.length - 1].some((v) => v !== 0)) return `step ${k} does not end in place`;
    if (!cells.every(([, , z]) => z + path[0][2] >= Z)) return `step ${k} does not start above the box`;
    for (let j = 1; j < path.length; j++) {
      const d = [0, 1, 2].map((a) => Math.sign(path[j][a] - path[j - 1][a]));
      const n = Math.abs(path[j][0] - path[j - 1][0]) + Math.abs(path[j][1] - path[j - 1][1]) + Math.abs(path[j][2] - path[j - 1][2]);
      if (d.filter((v) => v !== 0).length !== 1) return `step ${k}: a slide along two axes`;
      for (let t = 0; t <= n; t++) {
        const at = path[j - 1].map((v, a) => v + d[a] * t);
        if (!cells.every((c) => free(c.map((v, a) => v + at[a])))) return `step ${k} collides at offset ${at}`;
      }
    }
  }
  return '';
}

describe('build orders in the WebAssembly engine', () => {
  let tetris;
  let grids;
  beforeAll(async () => {
    tetris = await openDef('tetriscube.txt');
    grids = solutions(tetris.session, 12);
  });
  afterAll(() => tetris?.session.delete());

  it('are the native CLI\'s, and every step replays from the model\'s paths', () => {
    const out = execFileSync(CLI, ['-r', '-l', '12', '-j', '1', '--build-order', '--json', path.join(DEF_DIR, 'tetriscube.txt')], { encoding: 'utf8' });
    const native = out.split('\n').filter((l) => l.startsWith('{"solution"')).map((l) => JSON.parse(l).buildOrder);
    expect(native).toHaveLength(12);
    expect(grids).toHaveLength(12);
    const { puzzles: [puzzle] } = tetris;
    grids.forEach((grid, k) => {
      const order = tetris.session.buildOrder(0, grid);
      expect(order).toEqual(native[k]);
      expect(['above', 'sideways', 'interlocked']).toContain(order.class);
      expect(replay(puzzle, grid, order)).toBe('');
      if (order.turned) expect(replay(puzzle, order.turned.grid, order.turned.order)).toBe('');
      // after the last step the box holds the solution
      expect(Array.from(placedGrid(puzzle, grid, order, buildStepCount(order)))).toEqual(Array.from(grid));
      expect(placedInstances(order, buildStepCount(order)).size).toBe(12);
    });
  });

  it('refuses a grid that is not a solution, with the reason', () => {
    const grid = Int32Array.from(grids[0]);
    const other = grid.findIndex((v) => v !== grid[0]); // two cells of different pieces swapped
    [grid[0], grid[other]] = [grid[other], grid[0]];
    const order = tetris.session.buildOrder(0, grid);
    expect(order.ok).toBe(false);
    expect(order.error.code).toBe('bad-argument');
    expect(order.error.message).toMatch(/^not a solution of this puzzle: piece /);
    expect(tetris.session.buildOrder(1, grids[0])).toEqual({ ok: false, error: { code: 'bad-argument', message: 'no puzzle number 1 (1 loaded)' } });
  });
});

describe('the page\'s model of a build order', () => {
  let order;
  let puzzle;
  beforeAll(async () => {
    const opened = await openDef('soma.txt');
    opened.session.load(HOOKS, 'hooks.txt');
    puzzle = (opened.session.puzzle(0).puzzle);
    order = opened.session.buildOrder(0, HOOKS_GRID);
    opened.session.delete();
  });

  it('puts an interlocked group in as one step, lowered together', () => {
    expect(order).toMatchObject({ ok: true, class: 'interlocked', interlocked: [0, 1], steps: [] });
    expect(buildStepCount(order)).toBe(1);
    expect(stepInstances(order, 1)).toEqual([0, 1]);
    expect(Array.from(placedGrid(puzzle, HOOKS_GRID, order, 0))).toEqual(new Array(9).fill(-1));
    expect(stepPath(puzzle, HOOKS_GRID, order, 1)).toEqual([[0, 0, 3], [0, 0, 0]]);
    expect(stepWords(puzzle, order, 1)).toBe('Step 1 of 1: A and B, fitted together, lowered in as one.');
    expect(orderSummary(puzzle, order)).toMatch(/^Not one piece at a time: A and B interlock/);
    expect(replay(puzzle, HOOKS_GRID, order)).toBe('');
    // on its left side the same solution goes in from above
    expect(order.turned).toMatchObject({ face: '-x', words: 'with its left face (-x) at the bottom', order: { class: 'above' } });
    expect(turnedWords(order)).toBe('Turned with its left face (−x) at the bottom, every piece is lowered straight in.');
    expect(replay(puzzle, order.turned.grid, order.turned.order)).toBe('');
  });

  it('moves a step in along its path and back out the same way; a jump or reduced motion is still', () => {
    const step = { instance: 1, name: 'C', slides: [{ dir: [0, 0, -1], distance: 2 }, { dir: [-1, 0, 0], distance: 1 }], rests: true };
    const mouth = { ok: true, class: 'sideways', flat: false, sideways: 1, interlocked: [], steps: [{ instance: 0, name: 'A', slides: [{ dir: [0, 0, -1], distance: 3 }], rests: true }, step] };
    const p = { xDim: 3, yDim: 1, zDim: 3, instances: [{ name: 'A', piece: 0 }, { name: 'C', piece: 1 }] };
    const grid = [0, 0, -1, 0, 1, -1, 0, 0, -1];
    expect(stepPath(p, grid, mouth, 2)).toEqual([[1, 0, 2], [1, 0, 0], [0, 0, 0]]);
    const arrive = stepMotion(p, grid, mouth, 1, 2);
    expect(arrive).toMatchObject({ instances: [1], path: [[1, 0, 2], [1, 0, 0], [0, 0, 0]] });
    expect(arrive.ms).toBeGreaterThan(0);
    const leave = stepMotion(p, grid, mouth, 2, 1);
    expect(leave).toMatchObject({ instances: [1], leaving: true, path: [[0, 0, 0], [1, 0, 0], [1, 0, 2]] });
    expect(leave.cellsOf.get(1)).toEqual([4]);
    expect(stepMotion(p, grid, mouth, 0, 2)).toBeNull();
    expect(stepMotion(p, grid, mouth, 1, 2, { instant: true })).toBeNull();
    expect(stepWords(p, mouth, 2)).toBe('Step 2 of 2: C. Lower it into layer 2 beside its place, then slide it 1 cell to the left (−x).');
    expect(stepWords(p, mouth, 1)).toBe('Step 1 of 2: A. Lower it straight down to the bottom.');
    expect(stepWords(p, mouth, 0)).toBe('The empty box: 2 steps to go.');
  });
});

describe('the worker protocol\'s buildOrder', () => {
  it('answers with the order, or refuses with the reason', async () => {
    const { host, next } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: HOOKS, source: 'hooks.txt' });
    await next((m) => m.id === 1);
    host.handleMessage({ type: 'buildOrder', id: 2, puzzle: 0, grid: Int32Array.from(HOOKS_GRID) });
    expect(await next((m) => m.id === 2)).toMatchObject({ type: 'buildOrder', order: { ok: true, class: 'interlocked' } });
    host.handleMessage({ type: 'buildOrder', id: 3, puzzle: 0, grid: HOOKS_GRID }); // a plain array too
    expect((await next((m) => m.id === 3)).order.interlocked).toEqual([0, 1]);
    const refusals = [
      [{ puzzle: 0, grid: 'x' }, /grid must be a list of at most 100000 whole numbers/],
      [{ puzzle: 0, grid: [0, 1.5] }, /grid must be a list/],
      [{ puzzle: 0, grid: new Int32Array(100001) }, /grid must be a list/],
      [{ puzzle: -1, grid: HOOKS_GRID }, /puzzle must be the index of a loaded puzzle/],
      [{ puzzle: 2, grid: HOOKS_GRID }, /no puzzle number 2 \(1 loaded\)/],
      [{ puzzle: 0, grid: [0, 0, 0, 0, 0, 1, 1, 1, 1] }, /not a solution of this puzzle/],
    ];
    let id = 10;
    for (const [fields, why] of refusals) {
      host.handleMessage({ type: 'buildOrder', id: ++id, ...fields });
      const reply = await next((m) => m.id === id);
      expect(reply.type).toBe('error');
      expect(reply.message).toMatch(why);
    }
  });

  it('through SolverClient', async () => {
    const client = new SolverClient(makeFakeWorker());
    await client.load(readDef('soma.txt'), 'soma.txt');
    await expect(client.buildOrder(0, new Int32Array(27))).rejects.toThrow(/not a solution of this puzzle/);
    await client.load(HOOKS, 'hooks.txt');
    expect((await client.buildOrder(0, HOOKS_GRID)).class).toBe('interlocked');
    client.terminate();
  });
});
