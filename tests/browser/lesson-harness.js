// A test page for the lesson components (web/src/lesson/): the search tree, the pseudo-code, the
// dancing-links matrix and the flat board with its coordinates mounted on a page of their own,
// driven by a recording made here in Node through the WebAssembly engine (tests/js/helpers.js
// record). The page's modules are the sources themselves, served as they are (three.js through
// an import map); the page script is tests/browser/lesson-page.js.
//
//   const server = await startLessonServer();            // {url, close()}
//   const data = await recordForPage('lesson_tiny_4x3.txt', '-b 3 -t 1');
//   await page.goto(`${server.url}lesson.html`);
//   await page.evaluate((d) => window.lesson.mount(d, { width: 1400 }), data);
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { record } from '../js/helpers.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html', '.css': 'text/css', '.json': 'application/json' };

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lesson components</title>
<script type="importmap">{"imports": {"three": "/node_modules/three/build/three.module.js"}}</script>
<style>
  :root { color-scheme: dark; }
  body { margin: 0; background: #0d1322; color: #e7ecf5; font: 15px/1.45 system-ui, sans-serif; }
  main { display: grid; grid-template-columns: minmax(0, 1.25fr) minmax(0, 1fr); gap: 14px; padding: 14px; box-sizing: border-box; }
  section { background: #182135; border: 1px solid #263251; border-radius: 10px; padding: 10px; min-width: 0; }
  h2 { margin: 0 0 8px; font-size: 15px; color: #9aa8c2; font-weight: 600; }
  #tree { height: 430px; }
  #step { font-weight: 700; }
  @media (max-width: 700px) { main { grid-template-columns: minmax(0, 1fr); padding: 8px; gap: 8px; } #tree { height: 470px; } }
</style></head>
<body><main>
  <section id="tree-card"><h2>The search tree · <span id="step"></span></h2><div id="tree"></div></section>
  <section id="code-card"><h2>The algorithm</h2><div id="code"></div><div id="board"></div></section>
  <section id="matrix-card" style="grid-column: 1 / -1"><h2>Dancing links: the exact-cover matrix</h2><div id="matrix"></div></section>
</main>
<script type="module" src="/tests/browser/lesson-page.js"></script>
</body></html>`;

/**
 * Serve the page and the sources (web/src, tests/browser) on a free port; `files` maps more
 * paths to their bytes (a benchmark's recording).
 */
export function startLessonServer({ files = {} } = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (files[url.pathname]) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(files[url.pathname]);
      return;
    }
    if (url.pathname === '/lesson.html' || url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PAGE);
      return;
    }
    const rel = url.pathname.replace(/^\/+/, '');
    const file = path.join(repoRoot, rel);
    const allowed = [path.join(repoRoot, 'web', 'src'), path.join(repoRoot, 'web', 'wasm'), path.join(repoRoot, 'tests', 'browser'), path.join(repoRoot, 'node_modules', 'three', 'build')];
    if (!allowed.some((dir) => file.startsWith(dir + path.sep)) || !fs.existsSync(file)) {
      res.writeHead(404);
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    res.end(fs.readFileSync(file));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/** A recording as plain data for page.evaluate: events, puzzle, image table, cell count. */
export async function recordForPage(file, options) {
  const { rec, puzzle, table, cellCount } = await record(file, options);
  return {
    file, options, cellCount, puzzle,
    events: Array.from(rec.data.subarray(0, rec.length * 4)),
    table: { offsets: Array.from(table.offsets), cells: Array.from(table.cells), imageShapes: Array.from(table.imageShapes), instanceShapes: Array.from(table.instanceShapes) },
  };
}
