// The pseudo-code's lit line (web/src/lesson/pseudo-code.js) at every step of real traces from
// the WebAssembly engine, against golden files read and checked by a person
// (tests/golden/lesson/*.code: one line per step: the step, its event, the line lit, its
// variables). Regenerate with POLYCUBE_UPDATE_GOLDEN=1 and review the diff. Also: every step
// lights a line the algorithm's code has, and stepping back lights the same line as going
// there forwards.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ALGORITHM_KEYS, algorithmOf, codeFor, explainStep, usesChecks } from '../../web/src/lesson/pseudo-code.js';
import { TracePlayer } from '../../web/src/trace/player.js';
import { TRACE_OP } from '../../web/src/worker/protocol.js';
import { ROOT, record } from './helpers.js';

const GOLDEN = path.join(ROOT, 'tests', 'golden', 'lesson');
const UPDATE = process.env.POLYCUBE_UPDATE_GOLDEN === '1';
const OP_NAMES = Object.fromEntries(Object.entries(TRACE_OP).map(([k, v]) => [v, k.toLowerCase().replace('_', ' ')]));

const CASES = [
  { name: 'tiny_4x3_bruijn', file: 'lesson_tiny_4x3.txt', options: '-b 3 -t 1' },
  { name: 'tiny_4x3_dlx', file: 'lesson_tiny_4x3.txt', options: '-o s -t 1' },
  { name: 'tiny_2x2x3_bruijn', file: 'lesson_tiny_2x2x3.txt', options: '-r -b 3 -t 1' },
];

/** One golden line: step, event, the line lit (number and text), the loop around it, the variables. */
function goldenLine(code, s, ev, at) {
  const n = code.lines.findIndex((l) => l.id === at.line);
  const event = ev ? `${OP_NAMES[ev.op]} ${ev.a} ${ev.b}` : 'start';
  const vars = at.vars.map((v) => `${v.name}=${v.value}`).join('; ');
  return `${String(s).padStart(3)}  ${event.padEnd(18)} -> ${n + 1}${at.loop ? '*' : ' '} ${code.lines[n].text.padEnd(62)} | ${vars}`;
}

describe('pseudo-code lit step by step', () => {
  for (const c of CASES) {
    test(`${c.file} ${c.options}: the golden lines, forwards, and the same backwards`, async () => {
      const { rec, puzzle, table, cellCount } = await record(c.file, c.options);
      const key = algorithmOf(c.options);
      const code = codeFor(key, { checks: usesChecks(rec) });
      const player = new TracePlayer(rec, table, cellCount);
      const lines = [];
      const forward = [];
      for (let s = 0; s <= rec.length; s++) {
        player.seek(s);
        const at = explainStep(key, player, puzzle);
        expect(code.lines.some((l) => l.id === at.line), `step ${s}: line '${at.line}'`).toBe(true);
        forward.push(JSON.stringify(at));
        lines.push(goldenLine(code, s, player.current(), at));
      }
      for (let s = rec.length; s >= 0; s--) {
        player.seek(s);
        expect(JSON.stringify(explainStep(key, player, puzzle)), `back at step ${s}`).toBe(forward[s]);
      }
      const header = [`# ${c.file} ${c.options}: ${code.title} (web/src/lesson/pseudo-code.js codeFor('${key}')), the line lit at each step`,
        ...code.lines.map((l, i) => `#   ${String(i + 1).padStart(2)}  ${'  '.repeat(l.depth)}${l.text}`),
        '# step  event (op a b)  -> line lit (* inside the loop)  | variables'];
      const text = `${[...header, ...lines].join('\n')}\n`;
      const file = path.join(GOLDEN, `${c.name}.code`);
      if (UPDATE) {
        fs.mkdirSync(GOLDEN, { recursive: true });
        fs.writeFileSync(file, text);
      }
      expect(fs.existsSync(file), `${file} is missing: POLYCUBE_UPDATE_GOLDEN=1`).toBe(true);
      const want = fs.readFileSync(file, 'utf8').split('\n');
      const got = text.split('\n');
      const diff = want.findIndex((w, i) => w !== got[i]);
      expect(diff === -1 ? null : { line: diff + 1, want: want[diff], got: got[diff] }).toBeNull();
      expect(got.length).toBe(want.length);
    });
  }

  test('every algorithm has its code, a dozen lines at most; the options choose it', () => {
    for (const key of ALGORITHM_KEYS) {
      const code = codeFor(key, { checks: true });
      expect(code.lines.length).toBeGreaterThanOrEqual(9);
      expect(code.lines.length).toBeLessThanOrEqual(12);
      for (const id of ['start', 'solution', 'check', 'choose', 'ways', 'none', 'loop', 'place', 'remove', 'done']) {
        expect(code.lines.map((l) => l.id)).toContain(id);
      }
      expect(codeFor(key).lines.some((l) => l.id === 'check')).toBe(false);
    }
    expect(() => codeFor('nope')).toThrow(/no pseudo-code for 'nope'/);
    expect(algorithmOf('-r -b 12')).toBe('bruijn');
    expect(algorithmOf('-m 12 -l 20')).toBe('mch');
    expect(algorithmOf('-e 5')).toBe('emch');
    expect(algorithmOf('-o s')).toBe('dlx');
    expect(algorithmOf('-r')).toBe('backtrack');
    expect(algorithmOf('-o s -f 4')).toBe('backtrack');
    expect(algorithmOf('-x nonsense')).toBe('backtrack');
  });

  test('the counting checks light their own line', async () => {
    const { rec, puzzle, table, cellCount } = await record('pentominoes_10x6.txt', '-r -o s -p -v 5 -l 1 -t 1');
    expect(usesChecks(rec)).toBe(true);
    const player = new TracePlayer(rec, table, cellCount);
    const i = player.find(0, 1, (ev) => ev.op === TRACE_OP.VOLUME_TRIGGER);
    expect(i).toBeGreaterThan(0);
    player.seek(i + 1);
    const at = explainStep('dlx', player, puzzle);
    expect(at.line).toBe('check');
    expect(at.vars.find((v) => v.name === 'check').value).toMatch(/^a region of \d+ cells at [A-J]\d+$/);
  });
});
