// Vite (web app) and vitest (tests/js) configuration.
//
// The page lives in web/ (web/index.html, web/src/). It imports the puzzle library from
// def/*.txt (outside web/, hence fs.allow) and the WebAssembly module built into web/wasm/
// by scripts/build.sh. The solver runs in a module worker (worker.format 'es').
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompressWasm } from './scripts/vite-precompress.js';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.PORT || 5173);

export default defineConfig({
  root: 'web',
  base: './',
  publicDir: false,
  plugins: [precompressWasm()], // the .wasm served compressed by vite preview (scripts/vite-precompress.js)
  server: {
    host,
    port,
    strictPort: true,
    fs: { allow: [repoRoot] },
  },
  preview: {
    host,
    port,
    strictPort: true,
  },
  worker: {
    format: 'es',
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500, // three.js
  },
  test: {
    root: repoRoot,
    include: ['tests/js/**/*.test.js'],
    setupFiles: ['tests/js/setup-engine.js'], // the engine's option parser, as the page has it
    environment: 'node',
    // A test file per core: vitest's default leaves one core to its main process, which only
    // collects results here, so on two cores the files would run one at a time.
    maxWorkers: os.availableParallelism(),
    // Safety nets only (no test waits for time): a machine shared with other programs runs a
    // second of search in a minute or more.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
