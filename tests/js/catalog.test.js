// Golden counts of def/catalog.json, tiers "fast" and "slow" (Tetris Cube, Bedlam: about ten
// seconds each), through the WebAssembly build.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEF_DIR, STEP, openDef, runToEnd } from './helpers.js';

const catalog = JSON.parse(readFileSync(path.join(DEF_DIR, 'catalog.json'), 'utf8'));
const cases = catalog
  .filter((entry) => entry.tier === 'fast' || entry.tier === 'slow')
  .flatMap((entry) => Object.entries(entry.counts).map(([options, count]) => ({ ...entry, options, count })))
  .map((c) => [`${c.file} ${c.options || '(no options)'}: ${c.count} solutions`, c]);

describe('catalog (tiers fast and slow) through wasm', () => {
  it('has fast entries', () => {
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
