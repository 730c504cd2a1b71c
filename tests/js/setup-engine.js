// Every test file's thread gets the engine's option parser, as the page's main thread does
// (web/src/main.js): model/options.js reads option texts with the engine itself. Without a
// built engine (bash scripts/build.sh) the tests that read options fail, saying so.
import { existsSync } from 'node:fs';
import { useOptionParser } from '../../web/src/model/options.js';
import { WASM_BINARY, WASM_GLUE, loadModule } from './helpers.js';

if (existsSync(WASM_GLUE) && existsSync(WASM_BINARY)) {
  const engine = await loadModule();
  useOptionParser((text) => engine.parseOptionsJson(text));
}
