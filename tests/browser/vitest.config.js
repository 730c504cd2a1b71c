// Browser test of the web page (headless Debian Chromium driven by playwright-core).
//   npx vitest run --config tests/browser/vitest.config.js
// Needs the WebAssembly module in web/wasm/ (bash scripts/build.sh wasm); the test builds the
// page itself (vite build into a temporary directory) and serves it with vite preview.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({
  root: repoRoot,
  test: {
    include: ['tests/browser/**/*.test.js'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
