// A browser whose WebAssembly lacks SIMD (the engine's module needs it): the page says so
// instead of failing with a compile error. Chromium's V8 without SSE4.1 (--js-flags=
// --no-enable-sse4-1) has no WebAssembly SIMD, in the page and in its workers alike.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openPage } from './page-driver.js';
import { startServer } from './server.js';
import { SIMD_BROWSERS } from '../../web/src/wasm-support.js';

let server;
let ui;

beforeAll(async () => {
  server = await startServer();
  ui = await openPage(server.url, { width: 1400, height: 860, args: ['--js-flags=--no-enable-sse4-1'] });
}, 120_000);

afterAll(async () => {
  if (ui) await ui.browser.close();
  if (server) await server.close();
});

test('the page reports the missing WebAssembly SIMD and the browsers that have it', async () => {
  expect(await ui.waitState(['ready', 'error'])).toBe('error');
  const status = await ui.page.textContent('#status');
  expect(status).toMatch(/^The solver engine failed to load: .*this browser's WebAssembly lacks SIMD/);
  expect(status).toContain(SIMD_BROWSERS);
  // and at the top of the panel, where a person looks first
  expect(await ui.page.isVisible('#notice')).toBe(true);
  expect(await ui.page.textContent('#notice-text')).toBe(status);
  await ui.shot('no-simd-1400.png');
  await ui.page.setViewportSize({ width: 390, height: 844 });
  expect(await ui.page.isVisible('#notice')).toBe(true);
  await ui.shot('no-simd-390.png');
});
