// The solver's Web Worker (a module worker): loads the WebAssembly engine and speaks the
// protocol documented in ./protocol.js. Create it with
//   new Worker(new URL('./worker/solver.worker.js', import.meta.url), { type: 'module' })
// (SolverClient in ../solver-client.js does this by default).
//
// The module comes from web/wasm/ (built by scripts/build.sh). Both imports are dynamic so
// that a missing or broken module is reported as {type:'error', id:null, message} instead
// of killing the worker. The .wasm file's URL comes from Vite (`?url`), which serves it in
// development and copies it (hashed) into the production build.
import { createSolverHost } from './protocol.js';

const host = createSolverHost({
  async loadModule() {
    const [{ default: createPolycube }, { default: wasmUrl }] = await Promise.all([
      import('../../wasm/polycube.mjs'),
      import('../../wasm/polycube.wasm?url'),
    ]);
    return createPolycube({
      locateFile: (path) => (path.endsWith('.wasm') ? wasmUrl : path),
      print: (text) => console.log(text),
      printErr: (text) => console.warn(text),
    });
  },
  postMessage: (msg, transfer) => self.postMessage(msg, transfer || []),
});

self.onmessage = (event) => host.handleMessage(event.data);
