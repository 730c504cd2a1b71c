// Golden search traces through WebAssembly (issue 9): every case of tests/golden/trace/cases.json
// runs in the wasm Session with `-t 1`, is drained in small step() slices and small takeTrace()
// chunks (so batching cannot hide a lost or reordered record), and must equal the golden events
// record by record -- the same files tests/cpp/trace_test.cpp checks natively. Also keeps the
// page's copy of the op numbers (protocol.js TRACE_OP) in step with engine/search/trace.hpp.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, STEP, loadModule } from './helpers.js';
import { TRACE_OP } from '../../web/src/worker/protocol.js';

const GOLDEN = path.join(ROOT, 'tests', 'golden', 'trace');
const { cases } = JSON.parse(fs.readFileSync(path.join(GOLDEN, 'cases.json'), 'utf8'));

/** The golden records of one case: one 'op remaining a b' per line, words after '#' ignored. */
function goldenEvents(name) {
  const lines = fs.readFileSync(path.join(GOLDEN, `${name}.events`), 'utf8').split('\n');
  return lines.map((l) => l.replace(/#.*/, '').trim()).filter(Boolean).map((l) => l.split(/\s+/).map(Number));
}

/** Run one case in wasm; returns its records as arrays of 4 ints. */
async function wasmEvents(c) {
  const module = await loadModule();
  const session = new module.Session();
  try {
    expect(session.load(fs.readFileSync(path.join(GOLDEN, c.puzzle), 'utf8'), c.puzzle).ok).toBe(true);
    expect(session.start(0, `${c.options} -t 1`)).toEqual({ ok: true });
    const out = [];
    const drain = () => {
      for (;;) {
        const chunk = session.takeTrace(3); // 3 records: deliberately not a divisor of anything
        for (let i = 0; i < chunk.length; i += 4) out.push(Array.from(chunk.subarray(i, i + 4)));
        if (chunk.length < 12) break;
      }
    };
    let state;
    do {
      state = session.step(7).state;
      drain();
    } while (state === STEP.RUNNING);
    expect(state).toBe(STEP.DONE);
    return out;
  } finally {
    session.delete();
  }
}

describe('golden traces through WebAssembly', () => {
  it('has cases for DLX, FILA-F and FILA-E on both tiny puzzles', () => {
    const byOptions = (re) => cases.filter((c) => re.test(c.options)).map((c) => c.puzzle);
    expect(new Set(byOptions(/-o s/))).toEqual(new Set(['tiny_3x2.txt', 'ntvy_5x4.txt']));
    expect(new Set(byOptions(/-o f/))).toEqual(new Set(['tiny_3x2.txt', 'ntvy_5x4.txt']));
    expect(new Set(byOptions(/-o e/))).toEqual(new Set(['tiny_3x2.txt', 'ntvy_5x4.txt']));
  });

  for (const c of cases) {
    it(`${c.name}: ${c.puzzle} ${c.options} -t 1 gives the golden events, record by record`, async () => {
      const want = goldenEvents(c.name);
      expect(want.length).toBeGreaterThan(0);
      const got = await wasmEvents(c);
      const firstDiff = want.findIndex((w, i) => !got[i] || w.join(' ') !== got[i].join(' '));
      expect(firstDiff === -1 ? null : { record: firstDiff, want: want[firstDiff], got: got[firstDiff] }).toBeNull();
      expect(got.length).toBe(want.length);
    });
  }

  it('the 5x4 case shows a dead end, so its cause is exercised', () => {
    const deadEnds = new Set([TRACE_OP.NO_FIT, TRACE_OP.EXHAUSTED, TRACE_OP.PARITY_TRIGGER, TRACE_OP.VOLUME_TRIGGER,
      TRACE_OP.DEAD_CELL, TRACE_OP.FILTER_EMPTIED]);
    const ops = new Set(cases.filter((c) => c.puzzle === 'ntvy_5x4.txt').flatMap((c) => goldenEvents(c.name).map((e) => e[0])));
    expect([...ops].some((op) => deadEnds.has(op))).toBe(true);
  });

  it('protocol.js TRACE_OP equals the op numbers of engine/search/trace.hpp', () => {
    const header = fs.readFileSync(path.join(ROOT, 'engine', 'search', 'trace.hpp'), 'utf8');
    const opEnum = header.match(/enum Op : int32_t \{([^}]*)\}/)[1];
    const fromHeader = {};
    for (const [, name, value] of opEnum.matchAll(/k(\w+)\s*=\s*(\d+)/g)) {
      fromHeader[name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()] = Number(value);
    }
    expect(fromHeader).toEqual({ ...TRACE_OP });
  });
});
