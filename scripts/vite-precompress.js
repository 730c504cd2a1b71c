// Vite plugin: the WebAssembly module served compressed by `vite preview` (scripts/start.sh).
//
// Why: vite preview compresses on the fly only text-like types (its compression middleware
// matches /text|javascript|json|xml/), so application/wasm went out raw: 597 KB instead of
// ~190 KB gzipped. At build time every .wasm in the output gets a .wasm.br and a .wasm.gz next to
// it (best compression, done once); in preview a request for a .wasm whose Accept-Encoding names
// br or gzip is answered with the matching file, Content-Encoding set and Vary: Accept-Encoding.
// The dev server (DEV=1) is left alone.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const ENCODINGS = [
  { name: 'br', ext: '.br', test: /\bbr\b/, compress: (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }) },
  { name: 'gzip', ext: '.gz', test: /\bgzip\b/, compress: (b) => zlib.gzipSync(b, { level: 9 }) },
];

function wasmFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...wasmFiles(p));
    else if (entry.name.endsWith('.wasm')) out.push(p);
  }
  return out;
}

export function precompressWasm() {
  let outDir = '';
  return {
    name: 'polycube-precompress-wasm',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      if (!fs.existsSync(outDir)) return;
      for (const file of wasmFiles(outDir)) {
        const raw = fs.readFileSync(file);
        for (const enc of ENCODINGS) fs.writeFileSync(file + enc.ext, enc.compress(raw));
      }
    },
    configurePreviewServer(server) {
      const dir = path.resolve(server.config.root, server.config.build.outDir);
      server.middlewares.use((req, res, next) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return next();
        const url = new URL(req.url || '/', 'http://x');
        if (!url.pathname.endsWith('.wasm')) return next();
        const file = path.resolve(dir, '.' + decodeURIComponent(url.pathname));
        if (!file.startsWith(dir + path.sep)) return next(); // never outside the build
        const accept = String(req.headers['accept-encoding'] || '');
        const enc = ENCODINGS.find((e) => e.test.test(accept) && fs.existsSync(file + e.ext));
        res.setHeader('Vary', 'Accept-Encoding');
        if (!enc) return next();
        const body = fs.readFileSync(file + enc.ext);
        res.statusCode = 200;
        res.setHeader('Content-Type', 'application/wasm');
        res.setHeader('Content-Encoding', enc.name);
        res.setHeader('Content-Length', String(body.length));
        res.setHeader('Cache-Control', 'no-cache');
        res.end(req.method === 'HEAD' ? undefined : body);
      });
    },
  };
}
