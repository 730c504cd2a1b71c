// Build the page and serve it for the browser test, and launch Debian's Chromium.
//
// By default the page is built with `vite build` into a temporary directory (so a stale
// web/dist cannot be tested by mistake, and web/dist is left alone) and served by `vite preview`;
// under vitest, global-setup.js builds it once for every file and passes PC_BROWSER_DIST.
// Environment:
//   PC_BROWSER_DIST=<dir>  serve this existing build instead of building
//   PC_BROWSER_DEV=1       serve the sources with the vite dev server (no build)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const viteBin = path.join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function waitForHttp(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = async () => {
      if (child.exitCode !== null) return reject(new Error(`server exited with code ${child.exitCode}`));
      try {
        const res = await fetch(url);
        if (res.ok) return resolve();
      } catch { /* not up yet */ }
      if (Date.now() > deadline) return reject(new Error(`server did not answer at ${url}`));
      setTimeout(attempt, 150);
    };
    attempt();
  });
}

/** `vite build` of the page into `dist` (throws with vite's output when it fails). */
export function buildPage(dist) {
  const b = spawnSync(process.execPath, [viteBin, 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: repoRoot, encoding: 'utf8',
  });
  if (b.status !== 0) throw new Error(`vite build failed:\n${b.stdout}\n${b.stderr}`);
}

/** Build (unless told otherwise) and start a server; resolves to { url, close() }. */
export async function startServer() {
  if (!fs.existsSync(path.join(repoRoot, 'web', 'wasm', 'polycube.mjs'))) {
    throw new Error('web/wasm/polycube.mjs is missing: build the WebAssembly module first (bash scripts/build.sh wasm)');
  }
  const port = await freePort();
  const host = '127.0.0.1';
  const env = { ...process.env, HOST: host, PORT: String(port) };
  let args;
  let tmpDist = null;
  if (process.env.PC_BROWSER_DEV) {
    args = [viteBin, '--host', host, '--port', String(port), '--strictPort'];
  } else {
    let dist = process.env.PC_BROWSER_DIST;
    if (!dist) {
      tmpDist = fs.mkdtempSync(path.join(os.tmpdir(), 'polycube-dist-'));
      dist = tmpDist;
      buildPage(dist);
    }
    args = [viteBin, 'preview', '--outDir', path.resolve(repoRoot, dist), '--host', host, '--port', String(port), '--strictPort'];
  }
  const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => { log += d; });
  child.stderr.on('data', (d) => { log += d; });
  const url = `http://${host}:${port}/`;
  try {
    await waitForHttp(url, child, 30_000);
  } catch (e) {
    child.kill('SIGTERM');
    throw new Error(`${e.message}\n${log}`);
  }
  return {
    url,
    log: () => log,
    async close() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => {
          const t = setTimeout(() => { if (child.exitCode === null) child.kill('SIGKILL'); r(); }, 3000);
          child.once('exit', () => { clearTimeout(t); r(); });
        });
      }
      if (tmpDist) fs.rmSync(tmpDist, { recursive: true, force: true });
    },
  };
}

// One Chromium per set of command-line `args` for a test file, shared by its pages: a page
// that must start afresh (a link opened in another browser, a phone) gets a context of its own,
// which shares no storage, cookies or cache with the others, without a second browser started
// (a launch costs about 2 s of CPU). The browser closes with its last context.
const browsers = new Map(); // args joined -> { launched: Promise<Browser>, contexts }

async function sharedBrowser(args) {
  const key = args.join(' ');
  let entry = browsers.get(key);
  if (!entry) {
    entry = {
      contexts: 0,
      launched: chromium.launch({
        executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        headless: true,
        args: [...CHROMIUM_ARGS, ...args],
      }),
    };
    browsers.set(key, entry);
    const launching = entry;
    launching.launched.catch(() => { if (browsers.get(key) === launching) browsers.delete(key); }); // a failed launch is tried again next time
  }
  entry.contexts++;
  let browser;
  try {
    browser = await entry.launched;
  } catch (e) {
    entry.contexts--;
    throw e;
  }
  const release = async () => {
    entry.contexts--;
    if (entry.contexts === 0 && browsers.get(key) === entry) {
      browsers.delete(key);
      await browser.close().catch(() => {});
    }
  };
  return { browser, release };
}

/**
 * A fresh browser context (no storage from another test) in headless Chromium started with the
 * extra command-line `args`; resolves to { context, close() }.
 */
export async function launchBrowser({ touch = false, args = [] } = {}) {
  const { browser, release } = await sharedBrowser(args);
  let context;
  try {
    context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      deviceScaleFactor: 1,
      // a phone's touch screen: the page's (pointer: coarse) rules apply (44 px controls)
      ...(touch ? { hasTouch: true, isMobile: true } : {}),
    });
  } catch (e) {
    await release();
    throw e;
  }
  // Playwright's default wait (30 s) is a safety net for clicks and waits given no time of their
  // own; a machine busy with other work can take longer than that to lay out a page.
  context.setDefaultTimeout(120_000);
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      await release();
    },
  };
}
