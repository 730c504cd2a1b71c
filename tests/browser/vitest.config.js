// Browser test of the web page (headless Debian Chromium driven by playwright-core).
//   npx vitest run --config tests/browser/vitest.config.js
// (every file; POLYCUBE_BROWSER_TIER=core or extended runs one tier: tests/browser/tiers.js)
// Needs the WebAssembly module in web/wasm/ (bash scripts/build.sh wasm); global-setup.js builds
// the page once (vite build into a temporary directory) and each file serves it with vite preview.
// The time limits are safety nets for a machine shared with other work, never the pass mark: a
// test waits for states and events, and a passing run is as fast as the machine allows.
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { browserTestFiles } from './tiers.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const files = browserTestFiles(process.env.POLYCUBE_BROWSER_TIER);

export default defineConfig({
  root: repoRoot,
  test: {
    include: files.include,
    exclude: [...configDefaults.exclude, ...files.exclude],
    environment: 'node',
    globalSetup: ['tests/browser/global-setup.js'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
