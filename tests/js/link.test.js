// web/src/share/link.js: share links round trip; every kind of hostile link gets its own
// message; measured sizes.
import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { openDef, runToEnd } from './helpers.js';
import {
  INFLATE_PUSH_BYTES,
  LINK_ERRORS,
  LINK_PREFIX,
  MAX_DECOMPRESSED_BYTES,
  MAX_LINK_CHARS,
  checkState,
  decodeState,
  encodeState,
  fromBase64Url,
  inflateCapped,
  solutionProblem,
  toBase64Url,
} from '../../web/src/share/link.js';
import { writeDefinition } from '../../web/src/model/definition-writer.js';
import { fromEngineJson } from '../../web/src/model/puzzle.js';

const link = (json) => LINK_PREFIX + toBase64Url(deflateSync(strToU8(json)));

/** The first solution of def/`file` with `options`: {definition, grid}. */
async function firstSolution(file, options) {
  const { session, puzzles } = await openDef(file);
  try {
    let grid = null;
    runToEnd(session, 0, `${options} -l 1`, {
      onGrids: (grids) => {
        if (!grid) grid = Array.from(grids.slice(0, session.cellCount()));
      },
    });
    return { definition: writeDefinition(fromEngineJson(puzzles[0])), grid };
  } finally {
    session.delete();
  }
}

describe('base64url', () => {
  it('round trips every length and byte', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n * 11) & 255);
      const text = toBase64Url(bytes);
      expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(text).toBe(Buffer.from(bytes).toString('base64url'));
      expect(fromBase64Url(text)).toEqual(bytes);
    }
    expect(fromBase64Url('abc=')).toBeNull();
    expect(fromBase64Url('a+b/')).toBeNull();
    expect(fromBase64Url('abcde')).toBeNull(); // length 1 mod 4 is impossible
    expect(fromBase64Url('é')).toBeNull();
  });
});

describe('round trip and sizes', () => {
  it('a custom 10x6 puzzle with one solution is well under 2,000 characters', async () => {
    const { definition, grid } = await firstSolution('pentominoes_10x6.txt', '-r');
    expect(grid).toHaveLength(60);
    const withSolution = { puzzle: { definition }, options: '-r', solution: { index: 1, grid } };
    const a = encodeState(withSolution);
    const b = encodeState({ puzzle: { definition }, options: '-r' });
    const soma = await firstSolution('soma.txt', '-r');
    const c = encodeState({ puzzle: { library: 'soma.txt', index: 0 }, options: '-r', solution: { index: 1, grid: soma.grid } });
    const d = encodeState({ puzzle: { library: 'pentominoes_10x6.txt', index: 0 }, options: '-r', solution: { index: 1, grid } });
    const tetris = await firstSolution('tetriscube.txt', '-r');
    const e = encodeState({ puzzle: { definition: tetris.definition }, options: '-r', solution: { index: 1, grid: tetris.grid } });
    console.log(
      `link sizes (characters): 10x6 custom definition (${definition.length} chars of text) + options + 1 solution: ${a.length}; ` +
        `without the solution: ${b.length}; library soma.txt + solution: ${c.length}; library 10x6 + solution: ${d.length}; ` +
        `Tetris Cube custom definition + solution: ${e.length}`,
    );
    expect(a.length).toBeLessThan(1000);
    expect(decodeState(a)).toEqual({ ok: true, state: withSolution });
    expect(decodeState(c).state.puzzle).toEqual({ library: 'soma.txt', index: 0 });
    expect(decodeState(e).state.solution.grid).toEqual(tetris.grid);
  });

  it('keeps view settings, drops unknown fields, accepts the hash without #', () => {
    const state = {
      puzzle: { library: 'soma.txt', index: 0, extra: 1 },
      options: '-r -M',
      view: { camera: [1, 2.5, -3], layer: 2, labels: true, hidden: ['A', 'B'], mode: 'flat' },
      somethingNew: { deep: true },
    };
    const hash = link(JSON.stringify(state));
    const r = decodeState(hash);
    expect(r).toEqual({
      ok: true,
      state: {
        puzzle: { library: 'soma.txt', index: 0 },
        options: '-r -M',
        view: { camera: [1, 2.5, -3], layer: 2, labels: true, hidden: ['A', 'B'], mode: 'flat' },
      },
    });
    expect(decodeState(hash.slice(1))).toEqual(r);
    expect(decodeState(link('{"puzzle":{"library":"soma.txt"}}')).state).toEqual({ puzzle: { library: 'soma.txt', index: 0 }, options: '' });
    const second = { puzzle: { definition: 'D:xDim=1...', index: 1 }, options: '' };
    expect(decodeState(encodeState(second)).state).toEqual(second);
    // the pieces' colour slots as the sender's editor had them
    const coloured = { puzzle: { definition: 'D:xDim=1...', colours: [2, 0, 1] }, options: '' };
    expect(decodeState(encodeState(coloured)).state).toEqual(coloured);
    expect(decodeState(link('{"puzzle":{"definition":"D","index":-2}}')).error).toMatch(/puzzle.index must be a whole number from 0/);
  });

  it('encodeState refuses what decodeState would refuse', () => {
    expect(() => encodeState({ puzzle: { library: '../secret.txt' }, options: '' })).toThrow(/puzzle.library/);
    expect(() => encodeState({ puzzle: {}, options: '' })).toThrow(/either a library file or a definition/);
    // Incompressible text: the link would pass the length cap.
    let seed = 1;
    const noise = Array.from({ length: 120_000 }, () => {
      seed ^= seed << 13; // xorshift32
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      seed >>>= 0;
      return String.fromCharCode(33 + (seed % 90));
    }).join('');
    expect(() => encodeState({ puzzle: { definition: noise }, options: '' })).toThrow(/more than 100000/);
  });
});

describe('hostile links: each kind has its own message', () => {
  it('empty, not a link, wrong version', () => {
    expect(decodeState('')).toEqual({ ok: false, error: LINK_ERRORS.empty });
    expect(decodeState('#')).toEqual({ ok: false, error: LINK_ERRORS.empty });
    expect(decodeState(undefined)).toEqual({ ok: false, error: LINK_ERRORS.empty });
    expect(decodeState('#hello')).toEqual({ ok: false, error: LINK_ERRORS.notALink });
    expect(decodeState('#p:abc')).toEqual({ ok: false, error: LINK_ERRORS.notALink });
    const good = encodeState({ puzzle: { library: 'soma.txt', index: 0 }, options: '' });
    const r = decodeState(good.replace('#p1:', '#p2:'));
    expect(r).toEqual({ ok: false, error: LINK_ERRORS.version('2') });
    expect(r.error).toMatch(/another version of the page \(format p2\)/);
  });

  it('oversized', () => {
    const r = decodeState(`#p1:${'A'.repeat(MAX_LINK_CHARS)}`);
    expect(r).toEqual({ ok: false, error: LINK_ERRORS.tooLong(MAX_LINK_CHARS + 4) });
    expect(r.error).toMatch(/too long \(100004 characters; at most 100000\)/);
  });

  it('garbage: characters no link has, or bytes that are not compressed data', () => {
    expect(decodeState('#p1:<script>alert(1)</script>')).toEqual({ ok: false, error: LINK_ERRORS.notBase64 });
    expect(decodeState('#p1:abc%20def')).toEqual({ ok: false, error: LINK_ERRORS.notBase64 });
    // 0xff: a final block of the reserved type 3.
    expect(decodeState(`#p1:${toBase64Url(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))}`)).toEqual({
      ok: false,
      error: LINK_ERRORS.corrupt,
    });
  });

  it('truncated: every cut of a good link gives the cut-short message (or another plain error), never a state', () => {
    const good = encodeState({ puzzle: { library: 'soma.txt', index: 0 }, options: '-r', view: { layer: 1 } });
    expect(decodeState(good.slice(0, LINK_PREFIX.length))).toEqual({ ok: false, error: LINK_ERRORS.truncated });
    expect(decodeState(good.slice(0, Math.floor(good.length / 2)))).toEqual({ ok: false, error: LINK_ERRORS.truncated });
    for (let n = LINK_PREFIX.length; n < good.length; n++) {
      const r = decodeState(good.slice(0, n));
      expect(r.ok, `cut at ${n}`).toBe(false);
      expect(Object.values(LINK_ERRORS).filter((e) => typeof e === 'string')).toContain(r.error);
      // a cut never reads as a link with characters no link has (QA: 3 characters cut did)
      expect(r.error, `cut at ${n}`).not.toBe(LINK_ERRORS.notBase64);
    }
  });

  it('decompression bomb: refused after inflating about the cap, quickly', () => {
    const bomb = deflateSync(new Uint8Array(60_000_000), { level: 9 }); // 60 MB of zeros
    const hash = LINK_PREFIX + toBase64Url(bomb);
    expect(hash.length).toBeLessThan(MAX_LINK_CHARS); // gets past the length check
    const t0 = performance.now();
    expect(decodeState(hash)).toEqual({ ok: false, error: LINK_ERRORS.bomb });
    const ms = performance.now() - t0;
    const r = inflateCapped(bomb, MAX_DECOMPRESSED_BYTES);
    expect(r.ok).toBe(false);
    expect(r.reason).toBe('cap');
    // Stopped within one push of the cap: DEFLATE expands a byte to at most ~1032.
    expect(r.produced).toBeLessThanOrEqual(MAX_DECOMPRESSED_BYTES + 1100 * INFLATE_PUSH_BYTES + 65536);
    console.log(`bomb: ${bomb.length} compressed bytes (${hash.length}-character link) for 60 MB; refused after ${r.produced} bytes in ${ms.toFixed(1)} ms`);
    // A JSON bomb that is valid JSON all the way: a huge definition string.
    const jsonBomb = link(`{"puzzle":{"definition":"${'A'.repeat(3_000_000)}"},"options":""}`);
    expect(decodeState(jsonBomb)).toEqual({ ok: false, error: LINK_ERRORS.bomb });
  });

  it('bad JSON and text that is not UTF-8', () => {
    expect(decodeState(link('{"puzzle": '))).toEqual({ ok: false, error: LINK_ERRORS.notJson });
    expect(decodeState(link('alert(1)'))).toEqual({ ok: false, error: LINK_ERRORS.notJson });
    const notUtf8 = LINK_PREFIX + toBase64Url(deflateSync(new Uint8Array([0x7b, 0xc3, 0x28, 0x7d])));
    expect(decodeState(notUtf8)).toEqual({ ok: false, error: LINK_ERRORS.notJson });
  });

  it.each([
    ['[]', /the state must be an object/],
    ['null', /the state must be an object/],
    ['{}', /puzzle must be an object/],
    ['{"puzzle":{"library":"soma.txt","definition":"D"}}', /not both or neither/],
    ['{"puzzle":{"library":"../../etc/passwd.txt"}}', /puzzle.library is not the name of a puzzle file/],
    ['{"puzzle":{"library":"soma.txt","index":-1}}', /puzzle.index must be a whole number from 0 to 9999/],
    ['{"puzzle":{"library":"soma.txt","index":"0"}}', /puzzle.index must be a whole number/],
    ['{"puzzle":{"library":"soma.txt","index":1.5}}', /puzzle.index must be a whole number/],
    ['{"puzzle":{"library":42}}', /puzzle.library must be text/],
    ['{"puzzle":{"definition":""}}', /puzzle.definition is empty/],
    ['{"puzzle":{"definition":["D"]}}', /puzzle.definition must be text/],
    ['{"puzzle":{"definition":"D\\u0000"}}', /puzzle.definition contains control characters/],
    ['{"puzzle":{"definition":"D","colours":"1,2"}}', /puzzle.colours must be a list of at most 5000 numbers/],
    ['{"puzzle":{"definition":"D","colours":[0,-1]}}', /puzzle.colours\[1\] must be a whole number from 0 to 4999/],
    [`{"puzzle":{"definition":"D","colours":[${Array(5001).fill(0)}]}}`, /puzzle.colours must be a list of at most 5000/],
    ['{"puzzle":{"library":"soma.txt"},"options":7}', /options must be text/],
    ['{"puzzle":{"library":"soma.txt"},"options":"-r\\n-M"}', /options contains control characters/],
    [`{"puzzle":{"library":"soma.txt"},"options":"${'x'.repeat(1001)}"}`, /options is longer than 1000 characters/],
    ['{"puzzle":{"library":"soma.txt"},"solution":[1,2]}', /solution must be an object/],
    ['{"puzzle":{"library":"soma.txt"},"solution":{"index":0,"grid":[0]}}', /solution.index must be a whole number from 1/],
    ['{"puzzle":{"library":"soma.txt"},"solution":{"index":1,"grid":"0,1"}}', /solution.grid must be a list/],
    ['{"puzzle":{"library":"soma.txt"},"solution":{"index":1,"grid":[]}}', /solution.grid must have 1 to 100000 cells/],
    ['{"puzzle":{"library":"soma.txt"},"solution":{"index":1,"grid":[0,5000]}}', /solution.grid\[1\] must be a piece number from -1 to 4999/],
    ['{"puzzle":{"library":"soma.txt"},"solution":{"index":1,"grid":[0,"1"]}}', /solution.grid\[1\] must be a piece number/],
    ['{"puzzle":{"library":"soma.txt"},"view":[]}', /view must be an object/],
    ['{"puzzle":{"library":"soma.txt"},"view":{"a":{"b":1}}}', /view.a must be a number, text or true\/false/],
    ['{"puzzle":{"library":"soma.txt"},"view":{"__proto__":1}}', /view has a setting with an invalid name/],
    [`{"puzzle":{"library":"soma.txt"},"view":{"s":"${'<img onerror=x>'.padEnd(101)}"}}`, /view.s is longer than 100/],
    [`{"puzzle":{"library":"soma.txt"},"view":{"a":[${Array(65).fill(1)}]}}`, /view.a has more than 64 items/],
    [`{"puzzle":{"library":"soma.txt"},"view":{${Array.from({ length: 17 }, (_, i) => `"k${i}":1`)}}}`, /view has more than 16 settings/],
    // a lesson's link: its name, its part and the replay's step are checked for what they mean
    ['{"puzzle":{"library":"soma.txt"},"view":{"lesson":"<b>x</b>"}}', /view.lesson is not the name of a lesson/],
    ['{"puzzle":{"library":"soma.txt"},"view":{"lesson":7}}', /view.lesson is not the name of a lesson/],
    ['{"puzzle":{"library":"soma.txt"},"view":{"lesson":["backtracking"]}}', /view.lesson is not the name of a lesson/],
    ['{"puzzle":{"library":"soma.txt"},"view":{"lesson":"backtracking","lessonStep":-1}}', /view.lessonStep must be a whole number from 0 to 999/],
    ['{"puzzle":{"library":"soma.txt"},"view":{"lesson":"backtracking","lessonStep":2.5}}', /view.lessonStep must be a whole number/],
    ['{"puzzle":{"library":"soma.txt"},"view":{"lesson":"backtracking","lessonStep":"3"}}', /view.lessonStep must be a whole number/],
    ['{"puzzle":{"library":"soma.txt"},"view":{"lesson":"backtracking","lessonStep":1e9}}', /view.lessonStep must be a whole number from 0 to 999/],
    ['{"puzzle":{"library":"soma.txt"},"view":{"step":1e300}}', /view.step must be a whole number from 0 to 100000000/],
    ['{"puzzle":{"library":"soma.txt"},"view":{"step":-3}}', /view.step must be a whole number/],
  ])('wrong types: %s', (json, message) => {
    const r = decodeState(link(json));
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/^The link does not describe a puzzle this page can show: /);
    expect(r.error).toMatch(message);
  });

  it("a lesson's link: its name, part and step come back as they went", () => {
    const hash = encodeState({ puzzle: { library: 'soma.txt', index: 0 }, options: '-r', view: { lesson: 'tree-size', lessonStep: 3, step: 120 } });
    expect(decodeState(hash).state.view).toEqual({ lesson: 'tree-size', lessonStep: 3, step: 120 });
  });

  it('a library file the page does not have', () => {
    const hash = encodeState({ puzzle: { library: 'nothere.txt', index: 0 }, options: '' });
    expect(decodeState(hash, { libraryFiles: ['soma.txt'] }).error).toMatch(/a file the library does not have: nothere.txt/);
    expect(decodeState(hash, { libraryFiles: ['nothere.txt'] }).ok).toBe(true);
  });
});

describe('checkState / solutionProblem', () => {
  it('returns a fresh object', () => {
    const state = { puzzle: { definition: 'D' }, options: '', solution: { index: 2, grid: [0, 1] } };
    const out = checkState(state);
    expect(out).toEqual(state);
    expect(out.solution.grid).not.toBe(state.solution.grid);
  });

  it('solutionProblem checks the grid against the loaded puzzle', () => {
    expect(solutionProblem({ grid: [0, 1, 1] }, 3, 2)).toBeNull();
    expect(solutionProblem({ grid: [0, 1] }, 3, 2)).toMatch(/2 cells but the puzzle has 3/);
    expect(solutionProblem({ grid: [0, 1, 2] }, 3, 2)).toMatch(/names piece 2 but the puzzle has 2 pieces/);
  });
});
