// The solver's Web Worker (a module worker): loads the WebAssembly engine (../engine-module.js)
// and speaks the protocol documented in ./protocol.js. Create it with
//   new Worker(new URL('./worker/solver.worker.js', import.meta.url), { type: 'module' })
// (SolverClient in ../solver-client.js does this by default). A missing or broken module is
// reported as {type:'error', id:null, message} instead of killing the worker.
import { loadEngine } from '../engine-module.js';
import { createSolverHost } from './protocol.js';

const host = createSolverHost({
  loadModule: loadEngine,
  postMessage: (msg, transfer) => self.postMessage(msg, transfer || []),
});

self.onmessage = (event) => host.handleMessage(event.data);
