// Whether this browser can run the solver engine: the module (web/wasm/) is built with
// WebAssembly SIMD (-msimd128; FILA's fit tests run two boards per vector), which a browser
// without it refuses to compile, with an error that names an opcode, not the cause. Checked
// before loading, so that the page can say what is missing.

// A module of one function, () -> i32, using the SIMD instructions the fit tests use:
// i64.const 0, i64x2.splat, twice; i64x2.eq; i64x2.bitmask.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, //       type section: () -> i32
  0x03, 0x02, 0x01, 0x00, //                         function section: one of type 0
  0x0a, 0x12, 0x01, 0x10, 0x00, //                   code section: one body of 16 bytes, no locals
  0x42, 0x00, 0xfd, 0x12, //                         i64.const 0, i64x2.splat
  0x42, 0x00, 0xfd, 0x12, //                         i64.const 0, i64x2.splat
  0xfd, 0xd6, 0x01, //                               i64x2.eq
  0xfd, 0xc4, 0x01, //                               i64x2.bitmask
  0x0b, //                                           end
]);

export const SIMD_BROWSERS = 'Chrome or Edge 91, Firefox 89, Safari 16.4 or later';

/**
 * Why the solver engine cannot run here, or null when it can.
 * @param {object} [wasm] the WebAssembly namespace (globalThis.WebAssembly)
 * @returns {string|null}
 */
export function engineUnsupported(wasm = globalThis.WebAssembly) {
  if (!wasm || typeof wasm.validate !== 'function') {
    return `this browser does not run WebAssembly, which the solver engine needs (${SIMD_BROWSERS} do)`;
  }
  if (!wasm.validate(SIMD_PROBE)) {
    return `this browser's WebAssembly lacks SIMD, which the solver engine needs (${SIMD_BROWSERS} have it)`;
  }
  return null;
}
