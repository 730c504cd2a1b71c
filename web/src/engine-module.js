// The WebAssembly engine (web/wasm/, built by scripts/build.sh), loaded by the solver's worker
// for searching and by the page's main thread for the engine's rules (its option parser).
// Both imports are dynamic so that a missing or broken module is a rejected promise the
// caller reports, not a page or worker that fails to start. The .wasm file's URL comes from
// Vite (`?url`), which serves it in development and copies it (hashed) into the build.
// A browser without WebAssembly SIMD gets an error saying so before anything is fetched.
import { engineUnsupported } from './wasm-support.js';

export async function loadEngine() {
  const missing = engineUnsupported();
  if (missing) throw new Error(missing);
  const [{ default: createPolycube }, { default: wasmUrl }] = await Promise.all([
    import('../wasm/polycube.mjs'),
    import('../wasm/polycube.wasm?url'),
  ]);
  return createPolycube({
    locateFile: (path) => (path.endsWith('.wasm') ? wasmUrl : path),
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
  });
}
