// Playing by hand: the piece in hand's geometry (web/src/model/play.js), the link's game field
// (share/link.js play) against hostile values, the library's challenges file as the page reads
// it, and the engine's play questions through the WebAssembly Session and the worker protocol.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  fits, flatPlacements, flipHand, handCells, handFor, handFromPlacement, linkPlacements, packingKey,
  placeShares, placementsFromLink, playGrid, turnHand, unplaced,
} from '../../web/src/model/play.js';
import { decodeState, encodeState, checkState, LINK_PREFIX, toBase64Url } from '../../web/src/share/link.js';
import { readChallenges } from '../../web/src/ui/challenges.js';
import { deflateSync } from 'fflate';
import { DEF_DIR, STEP, makeHost, openDef, readDef } from './helpers.js';

async function tenBySix() {
  const { session, puzzles } = await openDef('pentominoes_10x6.txt');
  return { session, puzzle: puzzles[0] };
}

const instanceNamed = (puzzle, name) => puzzle.instances.findIndex((i) => i.name === name);
const at = (x, y, z = 0) => x + 10 * (y + 6 * z);

function answer(session, index, placed, question, limit = 0, fixed = 0, piece = -1) {
  const started = session.startPlay(index, flatPlacements(placed), question, limit, fixed, piece);
  if (!started.ok) return { error: started.error.message, code: started.error.code };
  let stepped;
  do stepped = session.step(200000); while (stepped.state === STEP.RUNNING);
  if (stepped.state !== STEP.DONE) return { error: stepped.ok ? '' : stepped.error.message, state: stepped.state };
  return JSON.parse(session.playJson());
}

describe('the piece in hand (model/play.js)', () => {
  it('turns, flips and lands with its handle on the cell pointed at', async () => {
    const { session, puzzle } = await tenBySix();
    session.delete();
    const l = instanceNamed(puzzle, 'L');
    const hand = handFor(puzzle, l);
    expect(hand.cells).toHaveLength(5);
    // four quarter turns come back to the start, the handle on the same cell
    let turned = hand;
    for (let k = 0; k < 4; k++) turned = turnHand(turned, 'z');
    expect(turned).toEqual(hand);
    // turned over twice: as it was; once: the mirror image (L is chiral), still 5 flat cells
    expect(flipHand(flipHand(hand))).toEqual(hand);
    const flipped = flipHand(hand);
    expect(flipped.cells.every((c) => c[2] === 0)).toBe(true);
    expect(flipped.cells).not.toEqual(hand.cells);
    // the handle lands on the cell pointed at
    const cells = handCells(puzzle, hand, at(4, 3));
    expect(cells).toContain(at(4, 3));
    expect(cells).toHaveLength(5);
    // out of the board: null
    expect(handCells(puzzle, hand, at(0, 0))).toBeNull();
    expect(handCells(puzzle, hand, -1)).toBeNull();
  });

  it('keeps the grid of a packing, what fits, and the pieces left', async () => {
    const { session, puzzle } = await tenBySix();
    session.delete();
    const x = instanceNamed(puzzle, 'X');
    const placed = [{ instance: x, cells: [at(1, 0), at(0, 1), at(1, 1), at(2, 1), at(1, 2)] }];
    const grid = playGrid(puzzle, placed);
    expect(grid[at(1, 1)]).toBe(x);
    expect(grid[at(0, 0)]).toBe(-1);
    expect(playGrid(puzzle, placed)).toBe(grid); // cached by identity
    expect(fits(grid, [at(0, 0)])).toBe(true);
    expect(fits(grid, [at(0, 0), at(1, 0)])).toBe(false);
    expect(fits(grid, null)).toBe(false);
    expect(unplaced(puzzle, placed)).toHaveLength(11);
    // a damaged link's cells out of the board are left out of the drawing
    expect(() => playGrid(puzzle, [{ instance: x, cells: [999, -4] }, { instance: 77, cells: [0] }])).not.toThrow();
    expect(flatPlacements(placed)).toEqual([x, 5, ...placed[0].cells]);
    expect(placementsFromLink(linkPlacements(placed))).toEqual(placed);
    expect(packingKey(placed)).toBe(packingKey([{ instance: x, cells: [...placed[0].cells].reverse() }]));
    // taken back from the board: the same cells where it lay, held by the cell taken
    const hand = handFromPlacement(puzzle, placed[0], at(2, 1));
    expect(handCells(puzzle, hand, at(2, 1)).sort((a, b) => a - b)).toEqual([...placed[0].cells].sort((a, b) => a - b));
  });
});

describe("the link's game (share/link.js play)", () => {
  const base = { puzzle: { library: 'pentominoes_10x6.txt' }, options: '-r' };
  const forged = (value) => LINK_PREFIX + toBase64Url(deflateSync(new TextEncoder().encode(JSON.stringify(value))));

  it('carries the pieces placed, the given count and the challenge', () => {
    const play = { placed: [[3, 0, 1, 2, 10, 20], [5, 30, 31, 32, 33, 34]], given: 1, challenge: 'pentominoes_10x6-2' };
    const r = decodeState(encodeState({ ...base, play }));
    expect(r.ok).toBe(true);
    expect(r.state.play).toEqual(play);
    // a 10x6 game of all 12 pieces stays a short link
    const all = { placed: Array.from({ length: 12 }, (_, k) => [k, ...Array.from({ length: 5 }, (__, c) => k * 5 + c)]) };
    const link = encodeState({ ...base, play: all });
    expect(link.length).toBeLessThan(400);
    console.log(`a 10x6 game with 12 pieces placed: ${link.length} characters`);
  });

  it('refuses hostile values with a message naming the field', () => {
    const cases = [
      [{ placed: 'x' }, /play.placed must be a list/],
      [[], /play must be an object/],
      [{ placed: [[1]] }, /play.placed\[0\] must be a piece number followed by its cells/],
      [{ placed: [[1.5, 2]] }, /play.placed\[0\]\[0\] must be a whole number/],
      [{ placed: [[-1, 2]] }, /play.placed\[0\]\[0\]/],
      [{ placed: [[1, 100000]] }, /play.placed\[0\]\[1\] must be a whole number from 0 to 99999/],
      [{ placed: [[1, '3']] }, /play.placed\[0\]\[1\]/],
      [{ placed: [[1, null]] }, /play.placed\[0\]\[1\]/],
      [{ placed: [[1, 1e300]] }, /play.placed\[0\]\[1\]/],
      [{ placed: new Array(5001).fill([0, 1]) }, /at most 5000 pieces/],
      [{ placed: [[1, ...new Array(100001).fill(0)]] }, /more than 100000 cells/],
      [{ placed: [[1, 2]], given: 2 }, /play.given must be a whole number from 0 to 1/],
      [{ placed: [], challenge: '<img src=x>' }, /play.challenge is not the name of a challenge/],
      [{ placed: [], challenge: 'x'.repeat(121) }, /play.challenge is longer than 120/],
      [{ placed: [], challenge: 7 }, /play.challenge must be text/],
    ];
    for (const [play, message] of cases) {
      const r = decodeState(forged({ ...base, play }));
      expect(r.ok, JSON.stringify(play).slice(0, 80)).toBe(false);
      expect(r.error).toMatch(message);
      expect(() => checkState({ ...base, play })).toThrow(message);
    }
    // unknown fields of the game are dropped
    const r = decodeState(forged({ ...base, play: { placed: [], script: 'alert(1)' } }));
    expect(r.ok).toBe(true);
    expect(r.state.play).toEqual({ placed: [] });
  });
});

describe("the library's challenges as the page reads them", () => {
  it('reads def/challenges.json: a few a puzzle, each with its pieces', () => {
    const data = JSON.parse(readFileSync(path.join(DEF_DIR, 'challenges.json'), 'utf8'));
    const byFile = readChallenges(data);
    expect(byFile.get('pentominoes_10x6.txt').length).toBeGreaterThanOrEqual(3);
    expect(byFile.get('soma.txt').length).toBeGreaterThanOrEqual(3);
    for (const list of byFile.values()) {
      for (const c of list) {
        expect(c.given.length).toBeGreaterThan(0);
        expect(['starter', 'junior', 'expert', 'master']).toContain(c.grade);
      }
    }
    // entries that are not well formed are left out
    expect(readChallenges({ version: 2, puzzles: [] }).size).toBe(0);
    const odd = readChallenges({ version: 1, puzzles: [{ file: 'a.txt', challenges: [{ id: 'a b', given: [[1, 2]] }, { id: 'ok', given: [[1, -2]] }, { id: 'fine', grade: 'junior', given: [[1, 2]] }] }] });
    expect(odd.get('a.txt').map((c) => c.id)).toEqual(['fine']);
  });

  it('each has one finish, the engine says (through the WebAssembly Session)', async () => {
    const data = readChallenges(JSON.parse(readFileSync(path.join(DEF_DIR, 'challenges.json'), 'utf8')));
    for (const file of ['pentominoes_10x6.txt', 'soma.txt']) {
      const { session } = await openDef(file);
      for (const c of data.get(file)) {
        const a = answer(session, 0, c.given, 'count', 1);
        expect(a.completions, c.id).toBe(1);
        expect(a.capped, c.id).toBe(false);
      }
      session.delete();
    }
  });
});

describe('play questions through the WebAssembly Session', () => {
  it('counts, hints and finds what is wrong on the 10x6 board', async () => {
    const { session, puzzle } = await tenBySix();
    const x = instanceNamed(puzzle, 'X');
    const xCorner = { instance: x, cells: [at(1, 0), at(0, 1), at(1, 1), at(2, 1), at(1, 2)] };
    // nothing placed: every packing (the count without -r), capped at the limit
    expect(answer(session, 0, [], 'count', 0).completions).toBe(9356);
    const capped = answer(session, 0, [], 'count', 1000);
    expect(capped).toMatchObject({ completions: 1001, capped: true, limit: 1000 });
    // a hint of the empty board, placed, leaves a packing that can be finished
    const hint = answer(session, 0, [], 'hint').hint;
    expect(hint.cells).toHaveLength(5);
    expect(answer(session, 0, [{ instance: hint.instance, cells: hint.cells }], 'count', 1000).completions).toBeGreaterThan(0);
    // the X walling a corner in: no way to finish, no hint, and What's wrong names it
    expect(answer(session, 0, [xCorner], 'count', 1000).completions).toBe(0);
    expect(answer(session, 0, [xCorner], 'hint').hint).toBeNull();
    const wrong = answer(session, 0, [xCorner], 'wrong');
    expect(wrong).toMatchObject({ completable: false, culprit: 0, culpritInstance: x });
    // a challenge's own pieces (fixed) are never named
    expect(answer(session, 0, [xCorner], 'wrong', 0, 1)).toMatchObject({ completable: false, culprit: -1, keep: 1 });
    // bad packings are refused with their reason
    expect(answer(session, 0, [xCorner, { instance: x, cells: xCorner.cells }], 'count').error).toMatch(/placement 2 \(piece X\): the piece is placed twice/);
    expect(answer(session, 0, [{ instance: x, cells: [0, 1, 2, 3, 4] }], 'count').error).toMatch(/not the piece's shape/);
    expect(answer(session, 0, [], 'solve').error).toMatch(/count, hint, wrong or where/);
    // where can it go: every place of X that can be finished, each with its ways to finish
    const where = answer(session, 0, [], 'where', 0, 0, x);
    expect(where).toMatchObject({ kind: 'where', piece: x, completions: 9356 });
    expect(where.places.reduce((sum, p) => sum + p.completions, 0)).toBe(9356);
    expect(where.places[0].completions).toBeGreaterThanOrEqual(where.places.at(-1).completions);
    const best = where.places[0];
    expect(answer(session, 0, [{ instance: x, cells: best.cells }], 'count').completions).toBe(best.completions);
    expect(answer(session, 0, [xCorner], 'where', 0, 0, x).error).toMatch(/is placed already/);
    // where X lies in the ways to finish: never on a corner (it cannot reach one); the shares
    // per cell add up to its 5 cells
    const shares = new Map(placeShares(where.places, where.completions));
    expect(shares.has(at(0, 0))).toBe(false);
    expect([...shares.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(5, 9);
    expect(placeShares([], 0)).toEqual([]);
    expect(placeShares([{ cells: [3, 1], completions: 2 }, { cells: [1, 2], completions: 2 }], 4)).toEqual([[1, 1], [2, 0.5], [3, 0.5]]);
    session.delete();
  });
});

describe("the worker's play message", () => {
  it('answers with progress and the result; refuses hostile fields', async () => {
    const { host, next } = makeHost();
    host.handleMessage({ type: 'load', id: 1, text: readDef('pentominoes_10x6.txt'), source: 'p.txt' });
    await next((m) => m.id === 1);
    host.handleMessage({ type: 'play', id: 2, puzzle: 0, placements: [], question: 'count', limit: 1000 });
    const played = await next((m) => m.id === 2 && m.type !== 'progress');
    expect(played.type).toBe('played');
    expect(played.result).toMatchObject({ kind: 'count', completions: 1001, capped: true });
    const bad = [
      [{ placements: 'x' }, /placements must be a list/],
      [{ placements: [1.5] }, /placements must be a list/],
      [{ placements: [2 ** 31] }, /placements must be a list/],
      [{ placements: new Array(110001).fill(0) }, /placements must be a list of at most 110000/],
      [{ question: 5 }, /question must be text/],
      [{ limit: 0 }, /limit must be a whole number of at least 1/],
      [{ limit: 'many' }, /limit must be a whole number/],
      [{ fixed: -1 }, /fixed must be a whole number of at least 0/],
      [{ question: 'where', piece: 'X' }, /piece must be a whole number/],
      [{ question: 'where', piece: -2 }, /piece must be a whole number/],
      [{ question: 'where', piece: 40 }, /piece 40 is not one of the puzzle's 12 pieces/],
      [{ puzzle: 3 }, /no puzzle number 3/],
      [{ placements: [0, 9] }, /ends inside placement 1/],
    ];
    let id = 10;
    for (const [fields, message] of bad) {
      host.handleMessage({ type: 'play', id, puzzle: 0, placements: [], question: 'count', ...fields });
      const reply = await next((m) => m.id === id);
      expect(reply.type, JSON.stringify(fields).slice(0, 60)).toBe('error');
      expect(reply.message).toMatch(message);
      id++;
    }
    // a play question is cancelled like a search, and a new request replaces it
    host.handleMessage({ type: 'play', id: 40, puzzle: 0, placements: [], question: 'count' });
    host.handleMessage({ type: 'cancel', id: 40 });
    expect((await next((m) => m.id === 40 && m.type !== 'progress')).reason).toBe('cancelled');
    host.handleMessage({ type: 'play', id: 41, puzzle: 0, placements: [], question: 'count' });
    host.handleMessage({ type: 'play', id: 42, puzzle: 0, placements: [], question: 'hint' });
    expect((await next((m) => m.id === 41 && m.type !== 'progress')).reason).toBe('cancelled');
    const hinted = await next((m) => m.id === 42 && m.type !== 'progress');
    expect(hinted.type).toBe('played');
    expect(hinted.result.hint.cells).toHaveLength(5);
  });
});
