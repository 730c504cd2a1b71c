// web/src/model/options.js: the option language as values, and back; agreement with the
// engine's parser (Session.start through wasm) on accepted and rejected strings and on counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP, openDef, runToEnd } from './helpers.js';
import {
  CONTROLS,
  buildOptions,
  defaultOptionValues,
  isAutomatic,
  optionProblems,
  parseOptions,
  scheduleError,
  splitWords,
} from '../../web/src/model/options.js';

const values = (over) => ({ ...defaultOptionValues(), ...over });

describe('splitWords (as the engine)', () => {
  it('splits on white space, keeps quoted spaces, drops quotes', () => {
    expect(splitWords('  -r   L\t-M\n')).toEqual(['-r', 'L', '-M']);
    expect(splitWords('-o "x:s=20" ""')).toEqual(['-o', 'x:s=20', '']);
    expect(splitWords('a"b c"d')).toEqual(['ab cd']);
    expect(splitWords('')).toEqual([]);
  });
});

describe('parseOptions', () => {
  it.each([
    ['', {}],
    ['-r', { redundancy: true }],
    ['-r L', { redundancy: true, redundancyPiece: 'L' }],
    ['-rL', { redundancy: true, redundancyPiece: 'L' }],
    ['-r=L', { redundancy: true, redundancyPiece: 'L' }],
    ['--redundancyFilter=L', { redundancy: true, redundancyPiece: 'L' }],
    ['--redundancyFilter L', { redundancy: true, redundancyPiece: 'L' }],
    ['-r -M', { redundancy: true, mirror: true }],
    ['-rM', { redundancy: true, redundancyPiece: 'M' }], // as the engine: the rest of the word is -r's value
    ['-Mr', { redundancy: true, mirror: true }],
    ['-u -l 10', { unique: true, limit: 10 }],
    ['-l10 -l 20', { limit: 20 }], // the last one wins, as in the engine
    ['--limit=007', { limit: 7 }],
    ['-f11 -n', { fila: 11, nof: true }],
    ['-f 11', { fila: 11 }],
    ['--fila=11', { fila: 11 }],
    ['-oe=11:f=3', { order: 'e=11:f=3' }],
    ['-o x:s=20', { order: 'x:s=20' }],
    ['-o=s', { order: 's' }],
    ['-b 5 -m 6 -e 7', { bruijn: 5, mch: 6, emch: 7 }],
    ['-p -v 3', { parityBacktrack: true, volumeBacktrack: 3 }],
    ['-pv3', { parityBacktrack: true, volumeBacktrack: 3 }],
    ['-P', { parityFilter: 'once' }],
    ['-P 5', { parityFilter: 5 }],
    ['-P=5 -V -F 2', { parityFilter: 5, volumeFilter: 'once', fitFilter: 2 }],
    ['-P -V', { parityFilter: 'once', volumeFilter: 'once' }],
    ['-r=', { redundancy: true }], // the engine drops the '=' and finds no value
    ['--parityFilter --volumeFilter=4 --fitFilter 9', { parityFilter: 'once', volumeFilter: 4, fitFilter: 9 }],
    ['-s 1000,5', { monteCarlo: { trials: 1000, remaining: 5, seed: '' } }],
    ['-s 1000,5,42', { monteCarlo: { trials: 1000, remaining: 5, seed: '42' } }],
    ['-s 10,0,9223372036854775807', { monteCarlo: { trials: 10, remaining: 0, seed: '9223372036854775807' } }],
    ['-t 3', { trace: 3 }],
    ['-t -3', { trace: -3 }],
    ['-i', { info: true }],
    ['-pMiu', { parityBacktrack: true, mirror: true, info: true, unique: true }],
  ])('%s', (text, expected) => {
    const r = parseOptions(text);
    expect(r.errors).toEqual([]);
    expect(r.values).toEqual(values(expected));
    expect(r.rest).toBe('');
  });

  it('keeps command-line output switches in rest', () => {
    expect(parseOptions('-qr --json')).toEqual({ values: values({ redundancy: true }), rest: '-q --json', errors: [] });
    // -j N (the CLI's threads) is accepted and kept as typed, with its value.
    expect(parseOptions('-r -j 4 -j2')).toEqual({ values: values({ redundancy: true }), rest: '-j 4 -j2', errors: [] });
    expect(parseOptions('-r -j')).toMatchObject({ errors: [expect.stringMatching(/-j needs a value/)] });
  });

  it.each([
    ['-x', /unknown option '-x'/],
    ['--nope', /unknown option '--nope'/],
    ['-f', /option -f needs a value/],
    ['--fila', /option --fila needs a value/],
    ['-f 0', /-f needs a whole number from 1 to 1000000, got '0'/],
    ['-f abc', /-f needs a whole number/],
    ['-f +3', /-f needs a whole number/],
    ['-f 1000001', /-f needs a whole number/],
    ['-P 0', /-P needs a whole number from 1 to 100000/],
    ['-l 0', /-l needs a positive whole number, got '0'/],
    ['-l x', /-l needs a positive whole number/],
    ['-t 100001', /-t needs a whole number from -100000 to 100000/],
    ['-s 5', /-s needs T,R\[,SEED\]/],
    ['-s 0,1', /-s needs T,R/],
    ['-s 5,1,2,3', /-s needs T,R/],
    ['-s 5,-1', /-s needs T,R/],
    ['--redundancyFilter=', /-r: empty piece name/],
    ['-Vr', /-V needs a whole number from 1 to 100000, got 'r'/],
    ['--mirror=1', /option --mirror takes no value/],
    ['-h', /command-line options/],
    ['--version', /command-line options/],
    ['L', /unexpected word 'L'/],
    ['-r -- x', /unexpected word 'x'/],
    ['-M', /-M counts a solution and its mirror image as one.*give -r or -u/],
    ['-M -l 5', /give -r or -u with it/],
  ])('error: %s', (text, message) => {
    const r = parseOptions(text);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(message);
  });

  it('isAutomatic: no algorithm option', () => {
    expect(isAutomatic(parseOptions('-r -M -p -P -l 5 -s 10,2 -t 3 -i').values)).toBe(true);
    for (const s of ['-f 9', '-o s', '-n', '-b 3', '-m 3', '-e 3']) expect(isAutomatic(parseOptions(s).values), s).toBe(false);
  });
});

describe('buildOptions', () => {
  const samples = [
    values({}),
    values({ redundancy: true }),
    values({ redundancy: true, redundancyPiece: 'L', mirror: true }),
    values({ unique: true, limit: 123456789012 }),
    values({ fila: 11, order: 'x:s=20', nof: true, bruijn: 3, mch: 4, emch: 5 }),
    values({ parityBacktrack: true, volumeBacktrack: 2, parityFilter: 'once', volumeFilter: 7, fitFilter: 'once' }),
    values({ monteCarlo: { trials: 100, remaining: 3, seed: '' }, trace: -2, info: true }),
    values({ monteCarlo: { trials: 100, remaining: 0, seed: '18446744' }, trace: 0 }),
  ];

  it.each(samples.map((v) => [buildOptions(v) || '(empty)', v]))('parse(build(v)) == v: %s', (_, v) => {
    const text = buildOptions(v);
    expect(parseOptions(text)).toEqual({ values: v, rest: '', errors: [] });
    expect(parseOptions(buildOptions(v, '-q --json'))).toEqual({ values: v, rest: '-q --json', errors: [] });
  });

  it('writes the canonical form', () => {
    expect(buildOptions(values({ redundancy: true, redundancyPiece: 'L', limit: 10, parityFilter: 5 }))).toBe('-r L -l 10 -P 5');
    expect(buildOptions(parseOptions('-V -r --fila=3 -pP').values)).toBe('-r -f 3 -p -P -V');
    expect(buildOptions({ mirror: true })).toBe('-M'); // missing keys are off
  });

  it('refuses values it cannot write, naming the control', () => {
    expect(() => buildOptions(values({ limit: 0 }))).toThrow(/Stop after N solutions/);
    expect(() => buildOptions(values({ redundancyPiece: 'a b' }))).toThrow(/Piece to hold still/);
    expect(() => buildOptions(values({ redundancyPiece: '-x' }))).toThrow(/cannot start with '-'/);
    expect(() => buildOptions(values({ parityFilter: 'twice' }))).toThrow(/Parity filter/);
    expect(() => buildOptions(values({ monteCarlo: { trials: 0, remaining: 1, seed: '' } }))).toThrow(/Monte Carlo/);
    expect(() => buildOptions(values({ order: 'x y' }))).toThrow(/Heuristic schedule/);
    expect(optionProblems(values({}))).toEqual([]);
  });
});

describe('CONTROLS', () => {
  it('one control per value, each with a label and a one-line explanation', () => {
    expect(CONTROLS.map((c) => c.key).sort()).toEqual(Object.keys(defaultOptionValues()).sort());
    for (const c of CONTROLS) {
      expect(c.label.length).toBeGreaterThan(3);
      expect(c.help).toMatch(/^[A-Z].*\.$/);
      expect(c.help).not.toMatch(/\n/);
      expect(['Counting', 'Algorithm', 'Constraints', 'Diagnostics']).toContain(c.group);
    }
  });
});

describe('agreement with the engine (Session.start through wasm)', () => {
  let soma;
  let tenBySix;
  beforeAll(async () => {
    soma = (await openDef('soma.txt')).session;
    tenBySix = (await openDef('pentominoes_10x6.txt')).session;
  });
  afterAll(() => {
    soma.delete();
    tenBySix.delete();
  });

  const typed = [
    '', '-r', '-rL', '-r L', '--redundancyFilter=T', '-r -M', '-Mr', '-u', '-r -u', '-l 100', '-l7 -r',
    '-f 3', '-f3 -n', '-oe=5:f=3', '-o s', '-b 4', '-m 4', '-e 4', '-p', '-v 2', '-pv2', '-P', '-P 3', '-V', '-V=4',
    '-F', '-F 5', '-r -P -V -F', '-s 200,2,7', '-t 6', '-t -6', '-i', '-q', '-r --json', '-r=',
  ];
  const run = (session, options) => {
    const r = runToEnd(session, 0, options, { budget: 1e6 });
    expect(r.state).toBe(STEP.DONE);
    return { solutions: r.solutions, configuration: r.stats.configuration, redundancyFilter: r.stats.redundancyFilter };
  };

  it.each(typed)('soma %s: accepted by both; the built string gives the same count and configuration', (text) => {
    const parsed = parseOptions(text);
    expect(parsed.errors).toEqual([]);
    const built = buildOptions(parsed.values, parsed.rest);
    expect(run(soma, built)).toEqual(run(soma, text));
  });

  it('10x6: -r 2339 and -r -l 5 stops at 5, from the controls', () => {
    expect(run(tenBySix, buildOptions(values({ redundancy: true }))).solutions).toBe(2339);
    expect(run(tenBySix, buildOptions(values({ redundancy: true, limit: 5 }))).solutions).toBe(5);
    expect(run(tenBySix, buildOptions(values({ redundancy: true, redundancyPiece: 'X', fila: 12, nof: true }))).solutions).toBe(2339);
  });

  it('what the parser rejects the engine rejects', () => {
    const bad = ['-x', '--nope', '-f', '-f 0', '-f abc', '-P 0', '-l 0', '-t 100001', '-s 5', '-s 0,1', '--redundancyFilter=', '-Vr', '--mirror=1', '-h', '--version', 'L', '-r -- x',
      '--ordered', '-r --progress', '--checkpoint x.ck', '--resume x.ck', '--split 4', '--jobs-out d', '--job 1.job', '--merge d', '--build-order', '-M', '-o ""'];
    for (const text of bad) {
      expect(parseOptions(text).errors, text).toHaveLength(1);
      const started = soma.start(0, text);
      expect(started.ok, text).toBe(false);
      if ((text.startsWith('--') && !/nope|mirror|redundancy|version/.test(text)) || text === '-M' || text === '-o ""') {
        expect(started.error.message, text).toBe(parseOptions(text).errors[0]); // the same words
      }
    }
  });

  // QA: '-o zz' was refused only when Solve reached the engine. The page now checks a schedule
  // as it is typed (scheduleError, a port of parseSchedule): the same verdict, in the same
  // words, on schedules made of the grammar's parts and its near misses.
  it('-o schedules: the parser and the engine agree on every generated one', () => {
    let seed = 12345;
    const random = (n) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
    const pick = (list) => list[random(list.length)];
    const NAMES = ['s', 'S', 'f', 'F', 'e', 'c', 'C', 'l', 'x', 'y', 'Z', 'xyz', 'a', 'A', 'R', 'q', 'sx', 'r', ''];
    const NUMBERS = ['1', '-2.5', '.5', '5.', '1e3', '1e-400', '1e400', '0x1p3', '0x.8', '0x', 'inf', 'nan', '', '1e', '+7', '.', '3x'];
    const COUNTS = ['1', '0', '20', '-3', '+3', '007', '1000000', '1000001', '99999999999999999999', 'x', ''];
    const item = () => {
      let t = pick(NAMES);
      if (random(3) === 0) t += '@' + Array.from({ length: random(5) }, () => pick(NUMBERS)).join(',') + (random(6) === 0 ? ',' : '');
      if (random(3) === 0) t += '=' + pick(COUNTS);
      return t;
    };
    const cases = ['zz', 's@', 'l@1,2,3,', 's:', ':', 's::f', 'x:s=20', 'e=5:f=3', 'a@0x1p3,1,2', 'R@1,2'];
    for (let k = 0; k < 3000; k++) {
      cases.push(Array.from({ length: 1 + random(3) }, item).join(':') + (random(8) === 0 ? ':' : ''));
    }
    let refused = 0;
    for (const schedule of cases) {
      if (schedule === '') continue; // (-o's own "empty" message, tested above)
      const text = `--order=${schedule}`;
      const started = soma.start(0, text);
      const engineTakes = started.ok;
      const why = scheduleError(schedule);
      expect(why === '', `${schedule}: the engine says ${engineTakes ? 'yes' : started.error.message}`).toBe(engineTakes);
      expect(parseOptions(text).errors, schedule).toEqual(engineTakes ? [] : [why]);
      if (!engineTakes) {
        refused++;
        expect(why, schedule).toBe(started.error.message);
      }
    }
    expect(refused).toBeGreaterThan(300);
    expect(cases.length - refused).toBeGreaterThan(300);
  });
});
