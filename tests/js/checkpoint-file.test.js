// The page's kept search as the command line's checkpoint file and back, through the built
// wasm (the worker protocol's 'checkpointFile' and 'openCheckpoint', Session.checkpointFileJson
// and openCheckpointJson): the engine writes and reads the file; the page's piece book is only
// its in-memory form. A search stopped in the pool, written as a file, opened again and resumed
// in a fresh pool adds up to one run; damage and the command line's own options are refused.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SolverClient } from '../../web/src/solver-client.js';
import { SolverPool } from '../../web/src/pool/solver-pool.js';
import { checkpointFileName } from '../../web/src/app/kept-search-actions.js';
import { CLI, DEF_DIR, makeFakeWorker, readDef } from './helpers.js';

const newPool = (size) => new SolverPool({ size, splitAfterMs: 0, createClient: () => new SolverClient(() => makeFakeWorker()) });
const FILE = 'pentominoes_10x6.txt';

// The search stopped once `stopAfter` solutions came: its checkpoint (PieceBook.checkpoint()).
async function stoppedCheckpoint(pool, stopAfter) {
  await pool.load(readDef(FILE), FILE);
  let checkpoint = null;
  let found = 0;
  let id = null;
  const started = pool.solve(0, '-r', {
    onSolutions: ({ count }) => {
      found += count;
      if (found >= stopAfter && !checkpoint) {
        checkpoint = pool.checkpoint(id);
        pool.cancel(id);
      }
    },
  });
  id = started.id;
  await started.done;
  return checkpoint;
}

describe('checkpoint files: the page\'s kept search in the command line\'s format', () => {
  it('a kept search becomes a file, comes back the same, and resumes to one run\'s count', async () => {
    const pool = newPool(2);
    const ck = await stoppedCheckpoint(pool, 400);
    expect(ck.pending.length).toBeGreaterThan(0);
    expect(ck.solutions).toBeLessThan(2339);
    const { fingerprint, doneShare, solutions, stats, pending } = ck;
    const kept = { definition: readDef(FILE), source: FILE, puzzle: 0, options: '-r', checkpoint: { fingerprint, doneShare, solutions, stats, pending } };
    const made = await pool.checkpointFile(kept);
    expect(made.ok, made.error && made.error.message).toBe(true);
    expect(made.text.split('\n')[0]).toBe('polycube-checkpoint 2');
    expect(made.text).toContain(`fingerprint ${fingerprint}\n`);

    const opened = await pool.openCheckpoint(made.text, 'pentominoes_10x6.ck');
    expect(opened.ok, opened.error && opened.error.message).toBe(true);
    expect(opened.definition).toBe(readDef(FILE));
    expect(opened.options).toBe('-r');
    expect(opened.puzzle).toBe(0);
    expect(opened.source).toBe(FILE);
    const back = opened.checkpoint;
    expect(back.fingerprint).toBe(fingerprint);
    expect(back.doneShare).toBe(doneShare); // (17 significant digits: exact)
    expect(back.solutions).toBe(solutions);
    expect(back.pending).toEqual(pending);
    for (const key of ['solutions', 'found', 'redundant', 'attempts', 'fits', 'attemptsByRemaining', 'fitsByRemaining']) {
      expect(back.stats[key], key).toEqual(stats[key]);
    }
    pool.terminate();

    // A fresh pool (another page) resumes from what the file gave: the totals of one run.
    const fresh = newPool(2);
    await fresh.load(opened.definition, opened.source);
    const { done } = fresh.solve(opened.puzzle, opened.options, { resume: { ...back, grids: new Uint8Array(0), gridsComplete: false, cellCount: 60 } });
    const result = await done;
    expect(result.reason).toBe('finished');
    expect(result.stats.solutions).toBe(2339);
    fresh.terminate();
  }, 480_000); // (a safety net: minutes where other programs take the cores)

  it('refuses damage, a file without its puzzle and the command line\'s own options, saying where', async () => {
    const pool = newPool(1);
    const ck = await stoppedCheckpoint(pool, 1);
    const { fingerprint, doneShare, solutions, stats, pending } = ck;
    const kept = { definition: readDef(FILE), source: FILE, puzzle: 0, options: '-r', checkpoint: { fingerprint, doneShare, solutions, stats, pending } };
    const made = await pool.checkpointFile(kept);
    expect(made.ok, made.error && made.error.message).toBe(true);

    const damaged = made.text.replace(/^done (\S+)$/m, (line, share) => `done ${share}1`);
    expect(damaged).not.toBe(made.text);
    const refused = await pool.openCheckpoint(damaged, 'run.ck');
    expect(refused).toEqual({ ok: false, error: { code: 'bad-argument', message: 'run.ck: the checkpoint is damaged (its checksum does not match its contents)' } });
    expect((await pool.openCheckpoint(made.text.slice(0, 100), 'cut.ck')).error.message).toMatch(/^cut\.ck: not a complete polycube checkpoint/);
    expect((await pool.openCheckpoint('hello', 'x.ck')).ok).toBe(false);

    const cli = await pool.checkpointFile({ ...kept, options: '-r --checkpoint run.ck' });
    expect(cli.ok).toBe(false);
    expect(cli.error.message).toContain('--checkpoint is an option of the polycube command line, not a search option');
    const twice = await pool.checkpointFile({ ...kept, checkpoint: { ...kept.checkpoint, pending: [...pending, pending[0]] } });
    expect(twice.ok).toBe(false);
    expect(twice.error.message).toMatch(/^the kept search: piece \d+ is the same as piece/);
    expect((await pool.checkpointFile({ ...kept, puzzle: -1 })).error.message).toContain('the puzzle number is not a whole number');
    pool.terminate();
  }, 240_000);

  it('the page\'s fingerprint of a search is the command line\'s, whatever the workers, -j or -q', async () => {
    // The command line's checkpoint of 10x6 -r (finished: its fingerprint is what matters here).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'polycube-fp-'));
    try {
      const file = path.join(dir, 'run.ck');
      execFileSync(CLI, ['-q', '-r', '-j', '2', '--checkpoint', file, path.join(DEF_DIR, FILE)]);
      const pool = newPool(1);
      const opened = await pool.openCheckpoint(fs.readFileSync(file, 'utf8'), 'run.ck');
      pool.terminate();
      expect(opened.ok, opened.error && opened.error.message).toBe(true);
      expect(opened.options).toBe('-r');
      for (const options of ['-r', '-r -j 3', '-q -r', '-r -j 1 -q -i --json']) {
        const client = new SolverClient(() => makeFakeWorker());
        await client.load(opened.definition, opened.source);
        const prepared = await client.prepare(0, options).done;
        expect(prepared.fingerprint, options).toBe(opened.checkpoint.fingerprint);
        client.terminate();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it('names the file after the puzzle\'s definition file', () => {
    expect(checkpointFileName('tetriscube.txt')).toBe('tetriscube.ck');
    expect(checkpointFileName('my puzzle (2).txt')).toBe('my-puzzle-2-.ck');
    expect(checkpointFileName('../../etc/passwd')).toBe('passwd.ck');
    expect(checkpointFileName('')).toBe('search.ck');
  });
});
