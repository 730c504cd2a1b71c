// web/src/model/options.js: the option language as values, and back, read by the engine's
// own parser (tests/js/setup-engine.js gives it to every test file, as main.js does on the
// page); the page's form and the engine's option table (web/src/generated/engine-rules.js)
// agree by construction, and Session.start says what the page says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP, loadModule, openDef, runToEnd } from './helpers.js';
import {
  CONTROLS,
  ENGINE_OPTIONS,
  buildOptions,
  defaultOptionValues,
  isAutomatic,
  optionProblems,
  parseOptions,
} from '../../web/src/model/options.js';
import { ENGINE_RULES } from '../../web/src/generated/engine-rules.js';
import { sharingRefusal } from '../../web/src/pool/solver-pool.js';

const values = (over) => ({ ...defaultOptionValues(), ...over });

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
    ['-s 1000,5', { monteCarlo: { trials: 1000, remaining: 5, seed: '0' } }], // the engine's default seed
    ['-s 1000,5,42', { monteCarlo: { trials: 1000, remaining: 5, seed: '42' } }],
    ['-s 10,0,9223372036854775807', { monteCarlo: { trials: 10, remaining: 0, seed: '9223372036854775807' } }],
    ['-t 3', { trace: 3 }],
    ['-t -3', { trace: -3 }],
    ['-t 0', {}], // no trace
    ['-i', { info: true }],
    ['-pMiu', { parityBacktrack: true, mirror: true, info: true, unique: true }],
  ])('%s', (text, expected) => {
    const r = parseOptions(text);
    expect(r.errors).toEqual([]);
    expect(r.values).toEqual(values(expected));
    expect(r.rest).toBe('');
  });

  it('keeps command-line output switches in rest', () => {
    expect(parseOptions('-qr --json')).toEqual({ values: values({ redundancy: true }), rest: '-q --json', errors: [], splitRefusal: '' });
    // -j N (the CLI's threads) is accepted and kept, with its value.
    expect(parseOptions('-r -j 4 --jobs=2')).toEqual({ values: values({ redundancy: true }), rest: '-j 4 -j 2', errors: [], splitRefusal: '' });
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
    values({ monteCarlo: { trials: 100, remaining: 3, seed: '0' }, trace: -2, info: true }),
    values({ monteCarlo: { trials: 100, remaining: 0, seed: '18446744' } }),
  ];

  it.each(samples.map((v) => [buildOptions(v) || '(empty)', v]))('parse(build(v)) == v: %s', (_, v) => {
    const text = buildOptions(v);
    expect(parseOptions(text)).toMatchObject({ values: v, rest: '', errors: [] });
    expect(parseOptions(buildOptions(v, '-q --json'))).toMatchObject({ values: v, rest: '-q --json', errors: [] });
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
    expect(() => buildOptions(values({ monteCarlo: { trials: 0, remaining: 1, seed: '' } }))).toThrow(/Monte Carlo estimate: -s needs T,R/);
    expect(() => buildOptions(values({ fila: 0 }))).toThrow(/Switch to FILA at N pieces: -f needs a whole number from 1 to 1000000/);
    expect(() => buildOptions(values({ order: 'zz' }))).toThrow(/Heuristic schedule: -o: unknown heuristic 'zz'/);
    expect(() => buildOptions(values({ order: 'x y' }))).toThrow(/Heuristic schedule/);
    expect(optionProblems(values({}))).toEqual([]);
  });
});

describe('--memo and --memo-mb: controls of their own, judged by the engine', () => {
  it('the controls write the option text and read it back', () => {
    expect(buildOptions(values({ redundancy: true, memo: true, memoMb: 64 }))).toBe('-r --memo --memo-mb 64');
    const back = parseOptions('-r --memo --memo-mb 64');
    expect(back.errors).toEqual([]);
    expect(back.values.memo).toBe(true);
    expect(back.values.memoMb).toBe(64);
    expect(back.splitRefusal).toMatch(/^--memo: /); // one worker counts it
  });

  it('a listing option beside --memo, or --memo-mb alone, is refused with the engine\'s message', () => {
    expect(parseOptions('--memo -l 5').errors).toEqual(['--memo cannot be combined with -l (the count comes whole, not solution by solution)']);
    expect(parseOptions('--memo-mb 64').errors).toEqual(["--memo-mb N sets the budget of --memo's count: give --memo too"]);
    expect(parseOptions('--memo --memo-mb 100000').errors[0]).toMatch(/more than the 768 MiB a memo table may take here/);
  });
});

describe("CONTROLS: the page's form is the engine's option table", () => {
  it('one control per value, each an engine option with its flag, help and range', () => {
    expect(CONTROLS.map((c) => c.key).sort()).toEqual(Object.keys(defaultOptionValues()).sort());
    for (const c of CONTROLS) {
      const o = ENGINE_OPTIONS[c.option];
      expect(o, c.key).toBeDefined();
      expect(c.label.length).toBeGreaterThan(3);
      expect(c.help).toBe(o.help);
      expect(c.flag.startsWith(o.short ? `-${o.short}` : `--${o.long}`)).toBe(true);
      expect(c.tuning).toBe(o.tuning);
      if (o.min !== null) expect([c.min, c.max]).toEqual([o.min, Math.min(o.max, Number.MAX_SAFE_INTEGER)]);
      expect(['Counting', 'Algorithm', 'Constraints', 'Diagnostics']).toContain(c.group);
    }
  });

  it('the form offers every option that changes a search', () => {
    const offered = new Set(CONTROLS.map((c) => c.option));
    const search = ENGINE_RULES.options.filter((o) => o.scope === 'search').map((o) => o.long);
    expect(search.length).toBeGreaterThan(15);
    for (const name of search) expect(offered.has(name), `--${name} has no control`).toBe(true);
  });

  it("every option in the table parses in the engine with its example, or is refused as the command line's", () => {
    for (const o of ENGINE_RULES.options) {
      const text = o.arg === 'none' ? `--${o.long}` : `--${o.long}=${o.example}`;
      const r = parseOptions(text);
      if (o.aloneError) {
        // a rule between options (-M needs -r or -u) or the command line's own option
        expect(r.errors, text).toEqual([o.aloneError]);
      } else if (o.scope === 'search' || o.scope === 'output') {
        expect(r.errors, text).toEqual([]);
        // the split rule the table states is the engine's for the same text, and the pool's
        expect(r.splitRefusal, text).toBe(o.splitRefusal);
        expect(sharingRefusal(text), text).toBe(o.splitRefusal);
      }
      if (o.scope === 'program' || o.scope === 'commandLine') {
        expect(r.errors[0], text).toMatch(/command-line options|option of the polycube command line/);
      }
      if (o.min !== null) {
        // the range the form shows is the one the engine holds to
        expect(parseOptions(`--${o.long}=${BigInt(o.min) - 1n}`).errors, text).toHaveLength(1);
        if (o.max <= Number.MAX_SAFE_INTEGER) expect(parseOptions(`--${o.long}=${o.max + 1}`).errors, text).toHaveLength(1);
      }
    }
    expect(ENGINE_OPTIONS.trace.splitRefusal).toMatch(/^-t: /);
    expect(ENGINE_OPTIONS.fila.splitRefusal).toBe('');
  });

  it('the table the page imports is what the built engine says (web/wasm engineRulesJson)', async () => {
    const engine = await loadModule();
    expect(JSON.parse(engine.engineRulesJson())).toEqual(ENGINE_RULES);
  });

  it('an algorithm option is what the engine calls tuning: isAutomatic agrees with the engine', () => {
    for (const c of CONTROLS) {
      const o = ENGINE_OPTIONS[c.option];
      if (o.scope !== 'search' || c.key === 'redundancyPiece') continue;
      const text = o.arg === 'none' ? `--${o.long}` : `--${o.long}=${o.example}`;
      expect(isAutomatic(parseOptions(text).values), text).toBe(!o.tuning);
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
      expect(started.error.message, text).toBe(parseOptions(text).errors[0]); // the same words
    }
  });

  it('-o schedules: the page and Session.start give the same verdict in the same words', () => {
    for (const schedule of ['zz', 's@', 'l@1,2,3,', 's:', ':', 's::f', 'x:s=20', 'e=5:f=3', 'a@0x1p3,1,2', 'R@1,2', 's=0', 'x:s=1000001']) {
      const text = `--order=${schedule}`;
      const started = soma.start(0, text);
      expect(parseOptions(text).errors, schedule).toEqual(started.ok ? [] : [started.error.message]);
    }
  });
});
