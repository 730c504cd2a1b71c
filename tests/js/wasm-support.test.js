// The check that this browser can run the engine (web/src/wasm-support.js): the module is built
// with WebAssembly SIMD, so a WebAssembly without it must be told apart before loading. A real
// WebAssembly without SIMD: V8 with SSE4.1 turned off (--no-enable-sse4-1) has no SIMD.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, WASM_BINARY } from './helpers.js';
import { SIMD_BROWSERS, engineUnsupported } from '../../web/src/wasm-support.js';

const SUPPORT = pathToFileURL(path.join(ROOT, 'web/src/wasm-support.js')).href;

// Runs `code` (an ES module) in a fresh node with `flags`; its stdout.
function node(flags, code) {
  const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', code], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`node ${flags.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout.trim();
}

describe('engineUnsupported', () => {
  it('passes a WebAssembly with SIMD (this node)', () => {
    expect(engineUnsupported()).toBeNull();
  });

  it('names SIMD and the browsers that have it when validation of the probe fails', () => {
    const probes = [];
    const message = engineUnsupported({ validate: (bytes) => { probes.push(bytes); return false; } });
    expect(message).toMatch(/lacks SIMD/);
    expect(message).toContain(SIMD_BROWSERS);
    expect(probes).toHaveLength(1);
    expect(WebAssembly.validate(probes[0])).toBe(true); // a well-formed module where SIMD exists
  });

  it('names WebAssembly itself when there is none', () => {
    expect(engineUnsupported(null)).toMatch(/does not run WebAssembly/);
    expect(engineUnsupported({})).toMatch(/does not run WebAssembly/);
  });

  it('says SIMD is missing in a V8 without SIMD, and nothing in the same V8 with it', () => {
    const code = `import { engineUnsupported } from ${JSON.stringify(SUPPORT)}; console.log(JSON.stringify(engineUnsupported()));`;
    expect(JSON.parse(node(['--no-enable-sse4-1'], code))).toMatch(/lacks SIMD/);
    expect(JSON.parse(node([], code))).toBeNull();
  });

  it.runIf(existsSync(WASM_BINARY))('agrees with the page\'s module: it compiles exactly where the check passes', () => {
    const code = `import { readFileSync } from 'node:fs'; import { engineUnsupported } from ${JSON.stringify(SUPPORT)};
      console.log(JSON.stringify([engineUnsupported() === null, WebAssembly.validate(readFileSync(${JSON.stringify(WASM_BINARY)}))]));`;
    expect(JSON.parse(node([], code))).toEqual([true, true]);
    expect(JSON.parse(node(['--no-enable-sse4-1'], code))).toEqual([false, false]);
  });
});
