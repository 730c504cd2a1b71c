// Builds the page once for the whole browser run (vite build into a temporary directory) and
// hands it to every test file through PC_BROWSER_DIST, which server.js serves instead of
// building again: each file used to run its own `vite build`. A dist or dev server the person
// chose (PC_BROWSER_DIST, PC_BROWSER_DEV) is left as it is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildPage } from './server.js';

export default function setup() {
  if (process.env.PC_BROWSER_DIST || process.env.PC_BROWSER_DEV) return undefined;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'polycube-dist-'));
  buildPage(dist);
  process.env.PC_BROWSER_DIST = dist;
  return () => {
    delete process.env.PC_BROWSER_DIST;
    fs.rmSync(dist, { recursive: true, force: true });
  };
}
