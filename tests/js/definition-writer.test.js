// web/src/model/definition-writer.js: write the model as definition text; round trip through
// the engine (wasm Session) over every puzzle in def/, and the fast catalog counts from the
// written text.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEF_DIR, STEP, loadModule, openDef, runToEnd } from './helpers.js';
import { DRAW_LIMIT, definitionFileName, writeDefinition } from '../../web/src/model/definition-writer.js';
import { cellCounts, fromEngineJson, shapeKey, validatePuzzle } from '../../web/src/model/puzzle.js';

const DEF_FILES = readdirSync(DEF_DIR).filter((f) => f.endsWith('.txt')).sort();
const catalog = JSON.parse(readFileSync(path.join(DEF_DIR, 'catalog.json'), 'utf8'));

/** Parse `text` with a fresh Session: {ok, puzzles (engine JSON), error, session}. */
async function parse(text, source = 'written.txt') {
  const module = await loadModule();
  const session = new module.Session();
  const loaded = session.load(text, source);
  if (!loaded.ok) {
    const error = loaded.error.message;
    session.delete();
    return { ok: false, error };
  }
  const puzzles = [];
  for (let i = 0; i < session.puzzleCount(); i++) puzzles.push((session.puzzle(i).puzzle));
  return { ok: true, puzzles, session };
}

async function roundTrip(puzzle) {
  const text = writeDefinition(puzzle);
  const r = await parse(text);
  if (!r.ok) throw new Error(`${r.error}\n--- text ---\n${text}`);
  r.session.delete();
  expect(r.puzzles).toHaveLength(1);
  return { text, back: fromEngineJson(r.puzzles[0]), json: r.puzzles[0] };
}

// Shapes with counts, as a multiset of "key x count" (independent of names and order).
function shapeCensus(puzzle) {
  return puzzle.pieces
    .filter((p) => !p.stationary)
    .map((p) => `${shapeKey(p.cells, puzzle.oneSide)} x${p.count}`)
    .sort();
}

describe('round trip over def/', () => {
  it.each(DEF_FILES)('%s: parse, write, parse gives the same puzzle', async (file) => {
    const { session, puzzles } = await openDef(file);
    session.delete();
    for (const json of puzzles) {
      const puzzle = fromEngineJson(json);
      const { back, json: json2 } = await roundTrip(puzzle);
      expect(back).toEqual(puzzle);
      expect(shapeCensus(back)).toEqual(shapeCensus(puzzle));
      expect(cellCounts(back)).toEqual(cellCounts(puzzle));
      expect(json2.title).toBe(json.title);
      expect(json2.volume).toBe(json.volume);
      expect(json2.instances.length).toBe(json.instances.length);
    }
  });

  const fast = catalog
    .filter((e) => e.tier === 'fast' && e.counts['-r'] !== undefined)
    .map((e) => [`${e.file} -r: ${e.counts['-r']}`, e]);
  it.each(fast)('%s solutions from the written text', { timeout: 120_000 }, async (_, entry) => {
    const { session, puzzles } = await openDef(entry.file);
    session.delete();
    const r = await parse(writeDefinition(fromEngineJson(puzzles[0])));
    try {
      const run = runToEnd(r.session, 0, '-r', { budget: 1e6 });
      expect(run.state).toBe(STEP.DONE);
      expect(run.solutions).toBe(entry.counts['-r']);
    } finally {
      r.session.delete();
    }
  });
});

describe('writeDefinition', () => {
  const base = () => ({
    title: 'Two copies and a block',
    xDim: 3,
    yDim: 2,
    zDim: 2,
    oneSide: false,
    holes: [0, 11],
    pieces: [
      { name: 'S', cells: [[2, 0, 0]], count: 1, stationary: true },
      { name: 'D', cells: [[0, 0, 0], [1, 0, 0]], count: 3, stationary: false },
      { name: 'V', cells: [[0, 0, 0], [1, 0, 0], [0, 1, 0]], count: 1, stationary: false },
    ],
  });

  it('writes the title, a drawn board, stationary pieces and copies (count=N)', async () => {
    const puzzle = base();
    expect(validatePuzzle(puzzle)).toEqual([]);
    const { text, back, json } = await roundTrip(puzzle);
    expect(text).toBe(
      [
        '# Two copies and a block',
        'D:xDim=3:yDim=2:zDim=2',
        "# The space: '*' marks the cells removed from the box.",
        'L:stationary=*',
        '. . . , . . *',
        '* . . , . . .',
        '~L',
        'C:name=S:type=S:layout=2 0 0',
        'C:name=D:count=3:layout=0 0 0, 1 0 0',
        'C:name=V:layout=0 0 0, 1 0 0, 0 1 0',
        '~D',
        '',
      ].join('\n'),
    );
    expect(back).toEqual(puzzle);
    // Instance order: '*' first, then the pieces in model order, copies consecutive.
    expect(json.instances.map((i) => i.name)).toEqual(['*', 'S', 'D', 'D', 'D', 'V']);
  });

  it('solves what it writes: copies are counted once (a ring of 7 cells: exactly 3 solutions)', async () => {
    // A 3x3 board without its centre (hole) and one corner (stationary S): a path of 7 cells,
    // tiled by the V tromino on one of its 3 corners and two copies of the domino.
    const ring = {
      title: 'Ring',
      xDim: 3,
      yDim: 3,
      zDim: 1,
      oneSide: false,
      holes: [4],
      pieces: [
        { name: 'S', cells: [[0, 0, 0]], count: 1, stationary: true },
        { name: 'D', cells: [[0, 0, 0], [1, 0, 0]], count: 2, stationary: false },
        { name: 'V', cells: [[0, 0, 0], [1, 0, 0], [0, 1, 0]], count: 1, stationary: false },
      ],
    };
    expect(validatePuzzle(ring)).toEqual([]);
    const r = await parse(writeDefinition(ring));
    try {
      const run = runToEnd(r.session, 0, '');
      expect(run.state).toBe(STEP.DONE);
      expect(run.solutions).toBe(3);
    } finally {
      r.session.delete();
    }
  });

  it('writes the holes of a large box as one C directive, and keeps oneSide and an empty title', async () => {
    const puzzle = {
      title: '',
      xDim: 100,
      yDim: 41,
      zDim: 1,
      oneSide: true,
      holes: [0, 1, 2, 3, 4099],
      // 4100 cells less 5 holes: 819 copies of the I pentomino.
      pieces: [{ name: 'I', cells: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0], [4, 0, 0]], count: 819, stationary: false }],
    };
    expect(100 * 41).toBeGreaterThan(DRAW_LIMIT);
    expect(validatePuzzle(puzzle)).toEqual([]);
    const { text, back } = await roundTrip(puzzle);
    expect(text.startsWith('D:xDim=100:yDim=41:zDim=1:oneSide\nC:name=*:type=S:layout=0 0 0, 1 0 0, 2 0 0, 3 0 0, 99 40 0\n')).toBe(true);
    expect(back).toEqual(puzzle);
  });

  it('a comment goes before the title, which the engine still reads', async () => {
    const text = writeDefinition(base(), { comment: 'Made with polycube-web\n\nsecond line' });
    expect(text.startsWith('# Made with polycube-web\n#\n# second line\n\n# Two copies and a block\nD:')).toBe(true);
    const r = await parse(text);
    expect(r.ok).toBe(true);
    expect(r.puzzles[0].title).toBe('Two copies and a block');
    r.session.delete();
  });

  it('an invalid puzzle is written as it is; the engine names the problem', async () => {
    const cases = [
      [(p) => (p.pieces[2].name = 'D'), /piece 'D' is already defined/],
      [(p) => (p.pieces[0].cells = [[3, 0, 0]]), /outside the box/],
      [(p) => (p.pieces[0].cells = [[0, 0, 0]]), /overlaps stationary piece '\*'/],
      [(p) => (p.pieces[1].count = 2), /pieces cover 7 cells but the box has 9 free cells/],
      [(p) => (p.pieces[0].count = 2), /count is not allowed for a stationary piece/],
      [(p) => (p.oneSide = true), /oneSide requires zDim=1/],
    ];
    for (const [edit, engineMessage] of cases) {
      const p = base();
      edit(p);
      expect(validatePuzzle(p).length).toBeGreaterThan(0);
      const r = await parse(writeDefinition(p));
      expect(r.ok).toBe(false);
      expect(r.error).toMatch(engineMessage);
    }
  });

  it('definitionFileName', () => {
    expect(definitionFileName({ title: 'Pentominoes 10x6' })).toBe('pentominoes_10x6.txt');
    expect(definitionFileName({ title: '' })).toBe('puzzle.txt');
    expect(definitionFileName({ title: '../../etc/passwd' })).toBe('etc_passwd.txt');
    expect(definitionFileName({ title: 'Écrit à la main' })).toBe('ecrit_a_la_main.txt');
    expect(definitionFileName({ title: 'x'.repeat(100) })).toBe(`${'x'.repeat(60)}.txt`);
  });
});
