// Golden counts of def/catalog.json, tiers "fast" and "slow" (Tetris Cube, Bedlam: about ten
// seconds each), through the WebAssembly build. POLYCUBE_JS_TIER=core (the test command's core
// tier) counts the fast ones, =extended the slow ones (scripts/test.sh --extended); unset, both.
// The native C++ tests count the slow ones in the core tier too (Golden.*tetriscube__r, bedlam__r).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEF_DIR, STEP, openDef, runToEnd } from './helpers.js';

const catalog = JSON.parse(readFileSync(path.join(DEF_DIR, 'catalog.json'), 'utf8'));
const JS_TIER = process.env.POLYCUBE_JS_TIER || 'all';
const CATALOG_TIERS = { core: ['fast'], extended: ['slow'], all: ['fast', 'slow'] }[JS_TIER];
if (!CATALOG_TIERS) throw new Error(`POLYCUBE_JS_TIER is "${JS_TIER}": it must be core, extended or all`);
const cases = catalog
  .filter((entry) => CATALOG_TIERS.includes(entry.tier))
  .flatMap((entry) => Object.entries(entry.counts).map(([options, count]) => ({ ...entry, options, count })))
  .map((c) => [`${c.file} ${c.options || '(no options)'}: ${c.count} solutions`, c]);

describe(`catalog (tiers ${CATALOG_TIERS.join(' and ')}) through wasm`, () => {
  it('has entries', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases)('%s', { timeout: 120_000 }, async (_, { file, options, count }) => {
    const { session } = await openDef(file);
    try {
      const r = runToEnd(session, 0, options, { budget: 1e6 });
      expect(r.state).toBe(STEP.DONE);
      expect(r.solutions).toBe(count);
    } finally {
      session.delete();
    }
  });
});
