// Solutions as text, written by the engine through the worker (SolverClient.solutionsText,
// Session::solutionsText) byte-identical to the built CLI (build/cli/polycube, bash
// scripts/build.sh native), and web/src/io/solutions-text.js: the JSON export with its parser.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, DEF_DIR, STEP, loadModule, makeChecker, makeFakeWorker, readDef, runToEnd } from './helpers.js';
import { SolverClient } from '../../web/src/solver-client.js';
import {
  instanceCells,
  parseSolutionsJson,
  solutionsToJson,
} from '../../web/src/io/solutions-text.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'polycube-solutions-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Solve `text` through wasm: {puzzle (engine JSON), solutions: [{index, grid}]} */
async function solveWasm(text, options) {
  const module = await loadModule();
  const session = new module.Session();
  try {
    const loaded = session.load(text, 'x.txt');
    if (!loaded.ok) throw new Error(loaded.error.message);
    const puzzle = (session.puzzle(0).puzzle);
    const cellCount = puzzle.volume;
    const solutions = [];
    const r = runToEnd(session, 0, options, {
      onGrids: (grids, count) => {
        for (let k = 0; k < count; k++) solutions.push({ index: solutions.length + 1, grid: grids.slice(k * cellCount, (k + 1) * cellCount) });
      },
    });
    expect(r.state).toBe(STEP.DONE);
    return { puzzle, solutions };
  } finally {
    session.delete();
  }
}

const cli = (file, options) => execFileSync(CLI, [...options.split(' ').filter(Boolean), file], { encoding: 'utf8' });

// Names of different widths, including multi-byte UTF-8 (the CLI pads by bytes).
const WIDE_NAMES = `# Wide names
D:xDim=4:yDim=2:zDim=2
C:name=Ω:layout=0 0 0, 1 0 0, 2 0 0, 3 0 0
C:name=Long:layout=0 0 0, 1 0 0, 2 0 0, 3 0 0
C:name=ab:layout=0 0 0, 1 0 0, 0 1 0, 1 1 0
C:name=c:layout=0 0 0, 1 0 0, 0 1 0, 1 1 0
~D
`;

describe('text export is byte-identical to the CLI', () => {
  it('has the CLI built', () => {
    expect(existsSync(CLI), `${CLI} is missing: run bash scripts/build.sh native`).toBe(true);
  });

  it.each([
    ['soma.txt', '-r -l 5'],
    ['soma.txt', '-l 4'],
    ['pentominoes_10x6.txt', '-r -l 6'],
    ['pentominoes_8x8_hole.txt', '-r -l 3'],
    ['tetriscube.txt', '-r -l 2'],
    ['wide', '-l 6'],
  ])('%s %s', async (file, options) => {
    let text;
    let filePath;
    if (file === 'wide') {
      text = WIDE_NAMES;
      filePath = path.join(tmp, 'wide.txt');
      writeFileSync(filePath, text);
    } else {
      text = readDef(file);
      filePath = path.join(DEF_DIR, file);
    }
    const { solutions } = await solveWasm(text, options);
    expect(solutions.length).toBeGreaterThan(1);
    const expected = cli(filePath, options);
    expect(await textThroughWorker(text, solutions)).toBe(expected);
  });
});

// The page's way: the worker's engine writes the text (protocol 'solutionsText').
async function textThroughWorker(text, solutions, puzzle = 0) {
  const client = new SolverClient(() => makeFakeWorker());
  try {
    await client.ready;
    await client.load(text, 'x.txt');
    return await client.solutionsText(puzzle, solutions);
  } finally {
    client.terminate();
  }
}

describe('solutions as text, by the engine', () => {
  const TWO = `D:xDim=3:yDim=1:zDim=2
C:name=AA:layout=0 0 0, 1 0 0, 0 0 1
C:name=B:layout=0 0 0, 1 0 0, 1 0 1
~D
`;
  it('numbers each solution as asked, pads to the longest name, cuts trailing spaces', async () => {
    const text = await textThroughWorker(TWO, [{ index: 7, grid: [0, 0, 1, 0, 1, 1] }, { index: 9007199254740991, grid: [1, 1, 0, 1, 0, 0] }]);
    expect(text).toBe('\n# --- SOLUTION 7 ---\nAA AA B   AA B  B\n\n# --- SOLUTION 9007199254740991 ---\nB  B  AA   B  AA AA\n');
  });

  it('refuses a grid of the wrong size, a cell that names no piece, a bad number or puzzle', async () => {
    await expect(textThroughWorker(TWO, [{ index: 1, grid: [0, 0, 1, 0, 1] }])).rejects.toThrow(/5 grid cells for 1 solutions of 6 cells/);
    await expect(textThroughWorker(TWO, [{ index: 1, grid: [0, 0, 1, 0, 1, 2] }])).rejects.toThrow(/cell 5 holds 2, which is no piece/);
    await expect(textThroughWorker(TWO, [{ index: 0, grid: [0, 0, 1, 0, 1, 1] }])).rejects.toThrow(/not a whole number from 1/);
    await expect(textThroughWorker(TWO, [{ index: 1, grid: [0, 0, 1, 0, 1, 1] }], 3)).rejects.toThrow(/no puzzle number 3/);
  });
});

describe('JSON export', () => {
  it('round trips through the parser; the pieces are the instances\' cells, and the checker accepts them', async () => {
    const definition = readDef('soma.txt');
    const { puzzle, solutions } = await solveWasm(definition, '-r -l 3');
    const json = solutionsToJson({ puzzle, definition, options: '-r -l 3', solutions });
    const r = parseSolutionsJson(json);
    expect(r.ok).toBe(true);
    const v = r.value;
    expect(v).toMatchObject({ format: 'polycube-solutions', version: 1, options: '-r -l 3' });
    expect(v.puzzle).toEqual({ title: 'Soma cube', xDim: 3, yDim: 3, zDim: 3, oneSide: false, definition, instances: ['V', 'L', 'T', 'Z', 'A', 'B', 'P'] });
    expect(v.solutions.map((s) => s.index)).toEqual([1, 2, 3]);
    const check = makeChecker(puzzle);
    for (const [k, s] of v.solutions.entries()) {
      expect(s.grid).toEqual(Array.from(solutions[k].grid));
      expect(check(s.grid)).toBeNull();
      expect(s.pieces.map((p) => p.name)).toEqual(['V', 'L', 'T', 'Z', 'A', 'B', 'P']);
      expect(s.pieces.map((p) => p.cells.length)).toEqual([3, 4, 4, 4, 4, 4, 4]);
      // Each listed cell is where the grid has that instance.
      s.pieces.forEach((p, inst) => {
        for (const [x, y, z] of p.cells) expect(s.grid[x + 3 * (y + 3 * z)]).toBe(inst);
      });
    }
    expect(instanceCells(puzzle, solutions[0].grid)).toEqual(v.solutions[0].pieces);
  });

  it('the parser names what is wrong', () => {
    const puzzle = { title: 't', xDim: 2, yDim: 1, zDim: 1, oneSide: false, instances: [{ name: 'A' }, { name: 'B' }] };
    const good = JSON.parse(solutionsToJson({ puzzle, definition: 'D', options: '', solutions: [{ index: 1, grid: [1, 0] }] }));
    expect(good.solutions[0].pieces).toEqual([{ name: 'A', cells: [[1, 0, 0]] }, { name: 'B', cells: [[0, 0, 0]] }]);
    const broken = (edit) => {
      const v = structuredClone(good);
      edit(v);
      return parseSolutionsJson(JSON.stringify(v));
    };
    expect(parseSolutionsJson('{')).toMatchObject({ ok: false, error: expect.stringMatching(/^not JSON/) });
    expect(parseSolutionsJson('[]')).toEqual({ ok: false, error: 'the file is not a JSON object' });
    expect(broken((v) => (v.format = 'x')).error).toMatch(/not a solutions file/);
    expect(broken((v) => (v.version = 2)).error).toMatch(/version 2 is not supported/);
    expect(broken((v) => (v.puzzle.xDim = 0)).error).toMatch(/puzzle.xDim must be a whole number/);
    expect(broken((v) => (v.puzzle.instances = [1])).error).toMatch(/puzzle.instances/);
    expect(broken((v) => (v.options = null)).error).toMatch(/options must be text/);
    expect(broken((v) => (v.solutions[0].index = 0)).error).toMatch(/solutions\[0\].index/);
    expect(broken((v) => (v.solutions[0].grid = [0])).error).toMatch(/solutions\[0\].grid must have 2 cells/);
    expect(broken((v) => (v.solutions[0].grid = [0, 2])).error).toMatch(/solutions\[0\].grid\[1\] is not an instance index/);
    expect(broken((v) => (v.solutions[0].pieces[0].name = 'Z')).error).toMatch(/pieces do not match its grid/);
    expect(broken(() => {}).ok).toBe(true);
  });
});
