// One checkpoint file for the page and the command line, both ways: (1) a Tetris Cube search
// kept in the page (stopped by Cancel) is downloaded as a checkpoint file, and `polycube
// --resume FILE` alone finishes it with the known count, 9839 with -r; (2) a checkpoint
// written by `polycube -r --checkpoint FILE` (stopped by SIGTERM once it has printed its 40th
// solution: it cannot finish meanwhile, its output waiting in a pipe) is opened in a fresh
// page, which sets up its puzzle and options and offers Resume, and resumed there to 9839.
// Nothing waits for a time: each step waits for a state the page or the program shows.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CLI, openPage, usePage } from './page-driver.js';
import { repoRoot } from './server.js';

const ui = usePage();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'polycube-ck-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `polycube ARGS --checkpoint FILE`, stopped by SIGTERM after its `n`-th solution: its exit code. */
function stoppedCli(args, file, n) {
  return new Promise((resolve, reject) => {
    const child = spawn(CLI, [...args, '--checkpoint', file], { env: { ...process.env, POLYCUBE_CHECKPOINT_SECONDS: '0.05' } });
    let seen = 0;
    let rest = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      if (seen >= n) return; // (read on to the end: the program writes its last lines and exits)
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop();
      seen += lines.filter((l) => l.startsWith('# --- SOLUTION')).length;
      if (seen >= n) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe('checkpoint files shared by the page and the command line', () => {
  test('a search kept in the page, downloaded, is finished by polycube --resume with the known count', async () => {
    const { page } = ui;
    await ui.ui.pickLibrary('tetriscube.txt');
    await page.check('#opt-r');
    await page.click('#solve');
    // searching past the point where the page keeps it (its setup over, pieces finished), then Cancel
    await page.waitForFunction(() => window.__polycube.state().run.elapsed >= 2.5 && window.__polycube.state().solutions.total > 0, null, { timeout: 120_000, polling: 100 });
    await page.click('#cancel');
    expect(await ui.ui.waitState(['cancelled', 'done', 'error'])).toBe('cancelled');
    await page.waitForSelector('#resume-file:not([hidden])');
    const kept = await page.evaluate(() => window.__polycube.state().saved);
    expect(kept.solutions).toBeLessThan(9839);

    const download = page.waitForEvent('download');
    await page.click('#resume-file');
    const file = await download;
    expect(file.suggestedFilename()).toBe('tetriscube.ck');
    const saved = path.join(dir, 'from-page.ck');
    await file.saveAs(saved);
    await page.waitForFunction(() => /Finish the search on the command line with: polycube --resume tetriscube\.ck/.test(document.getElementById('notice-text').textContent));
    const text = fs.readFileSync(saved, 'utf8');
    expect(text.split('\n')[0]).toBe('polycube-checkpoint 2');
    expect(text).toMatch(/\noptions 2\n-r\n/);

    // the command line, given the file alone
    const out = execFileSync(CLI, ['-q', '-j', '2', '--json', '--resume', saved], { encoding: 'utf8' });
    const summary = JSON.parse(out.trim().split('\n').pop());
    expect(summary.solutions).toBe(9839);
    expect(summary.state).toBe('done');
    await ui.ui.shot('checkpoint-file-download.png');
  });

  test('a checkpoint of polycube --checkpoint opens in a fresh page, which resumes it to the known count', async () => {
    const file = path.join(dir, 'tetriscube.ck');
    const stopped = await stoppedCli(['-r', '-j', '1', path.join(repoRoot, 'def', 'tetriscube.txt')], file, 40);
    expect(stopped.code, stopped.stderr).toBe(143);
    const text = fs.readFileSync(file, 'utf8');
    expect(text.split('\n')[0]).toBe('polycube-checkpoint 2');
    const pieces = Number(/\npieces (\d+)\n/.exec(text)[1]);
    expect(pieces).toBeGreaterThan(0);

    const fresh = await openPage(ui.server.url, { width: 1400, height: 860 });
    try {
      const { page } = fresh;
      expect(await fresh.waitState(['ready', 'error'], 120_000)).toBe('ready');
      await page.setInputFiles('#import-file', file);
      await page.waitForSelector('#resume:not([hidden])', { timeout: 60_000 });
      expect(await page.textContent('#notice-text')).toMatch(/^Opened tetriscube\.ck: the search with -r of .*Tetris Cube.*, kept in the browser and ready to resume/i);
      expect(await page.textContent('#resume-text')).toMatch(/^An unfinished search of .*Tetris Cube.* with -r was kept (just now|\d+ s ago): .+ done, [\d,]+ solutions?/i);
      expect(await page.inputValue('#opt-text')).toBe('-r');
      expect(await page.inputValue('#library')).toBe('tetriscube.txt'); // a library puzzle opens as itself
      await fresh.shot('checkpoint-file-opened.png');
      await page.click('#resume');
      expect(await fresh.waitState(['done', 'error', 'cancelled'], 280_000)).toBe('done');
      expect(await fresh.solutionCount()).toBe(9839);
      expect(await page.textContent('#status')).toMatch(/^Finished: 9,839 solutions.*matches the known count/);
      await fresh.shot('checkpoint-file-resumed.png');
      expect(fresh.errors).toEqual([]);
    } finally {
      await fresh.browser.close();
    }
  });

  test('a damaged checkpoint file, or one over the size limit, is refused, saying what is wrong, and nothing is kept', async () => {
    const { page } = ui;
    const bad = path.join(dir, 'damaged.ck');
    fs.writeFileSync(bad, fs.readFileSync(path.join(dir, 'tetriscube.ck'), 'utf8').replace(/^done (\S+)$/m, 'done 0.5'));
    await page.click('#resume-discard'); // (the search the first test kept)
    await page.waitForSelector('#resume-banner', { state: 'hidden' });
    await page.setInputFiles('#import-file', bad);
    await page.waitForFunction(() => /damaged\.ck was not opened/.test(document.getElementById('status').textContent), null, { timeout: 30_000 });
    expect(await page.textContent('#status')).toBe('damaged.ck was not opened: damaged.ck: the checkpoint is damaged (its checksum does not match its contents).');
    expect(await page.isHidden('#resume-banner')).toBe(true);
    // one over the engine's checkpoint limit (64 MiB), dropped on the page: refused by its size
    await page.evaluate(() => {
      const bytes = new Uint8Array(64 * 1048576 + 1).fill(32);
      bytes.set(new TextEncoder().encode('polycube-checkpoint 2\n'));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'huge.ck'));
      document.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.waitForFunction(() => /huge\.ck is/.test(document.getElementById('notice-text').textContent), null, { timeout: 30_000 });
    expect(await page.textContent('#notice-text')).toBe('huge.ck is 64.0 MB; a checkpoint file may have at most 64 MB.');
    expect(await page.isHidden('#resume-banner')).toBe(true);
  });
});
