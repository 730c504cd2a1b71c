// Fuzz loops for the JavaScript that takes hostile input (issue 11): share-link decoding
// (web/src/share/link.js), worker messages through the protocol handler (with the real
// WebAssembly module), and the worker pool's message sequences (issue 10). Each runs for POLYCUBE_FUZZ_SECONDS (scripts/fuzz.sh) or a few seconds
// in the normal test run; the generator is seeded, so a failure names its seed and input.
import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { LINK_ERRORS, LINK_PREFIX, decodeState, encodeState, toBase64Url } from '../../web/src/share/link.js';
import { MSG, createSolverHost } from '../../web/src/worker/protocol.js';
import { loadModule, readDef } from './helpers.js';

const SECONDS = Number(process.env.POLYCUBE_FUZZ_SECONDS) || 4;
const MESSAGES = Number(process.env.POLYCUBE_FUZZ_MESSAGES) || 600;
const SEED = Number(process.env.POLYCUBE_FUZZ_SEED) || 20251123;

// mulberry32: small, seedable, good enough to pick mutations.
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (xs) => xs[int(xs.length)];
  return { next, int, pick };
}

const ERROR_TEXTS = new Set(Object.values(LINK_ERRORS).filter((v) => typeof v === 'string'));

function randomValue(r, depth = 0) {
  switch (r.int(depth > 3 ? 6 : 9)) {
    case 0: return r.pick([0, -1, 1, 0.5, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 53, 1e300, 4999, 5000, 100001]);
    case 1: return r.pick(['', '-r', 'soma.txt', 'x'.repeat(r.int(3000)), '\u0000', '\ud800', 'D:xDim=1:yDim=1:zDim=1\nC:name=A:layout=0 0 0\n~D\n']);
    case 2: return r.pick([true, false, null]);
    case 3: return undefined;
    case 4: return r.int(100);
    case 5: return String.fromCharCode(...Array.from({ length: r.int(20) }, () => r.int(0x3000)));
    case 6: return Array.from({ length: r.int(8) }, () => randomValue(r, depth + 1));
    case 7: {
      const o = {};
      for (let k = r.int(5); k > 0; k--) o[r.pick(['puzzle', 'options', 'solution', 'view', 'library', 'index', 'definition', 'grid', 'camera', '__proto__', 'constructor'])] = randomValue(r, depth + 1);
      return o;
    }
    default: return Array.from({ length: r.int(200) }, () => r.int(40) - 2);
  }
}

describe('fuzz: share-link decoding', () => {
  it(`never throws, answers a known message or a state that encodes again (${SECONDS} s)`, async () => {
    const { grid } = { grid: Array.from({ length: 27 }, (_, i) => i % 7) };
    const seeds = [
      encodeState({ puzzle: { library: 'soma.txt', index: 0 }, options: '-r', solution: { index: 1, grid } }),
      encodeState({ puzzle: { definition: readDef('pentominoes_10x6.txt') }, options: '-r -l 5' }),
      encodeState({ puzzle: { library: 'tetriscube.txt', index: 0 }, options: '' }),
    ];
    const r = rng(SEED);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/#:% ';
    const end = performance.now() + SECONDS * 1000;
    let runs = 0;
    while (performance.now() < end) {
      let input;
      const kind = r.int(4);
      if (kind === 0) {
        // byte-level mutations of a valid link
        const chars = [...r.pick(seeds)];
        for (let k = 1 + r.int(4); k > 0; k--) {
          const at = r.int(chars.length);
          const op = r.int(3);
          if (op === 0) chars[at] = alphabet[r.int(alphabet.length)];
          else if (op === 1) chars.splice(at, 1 + r.int(20));
          else chars.splice(at, 0, ...alphabet.slice(r.int(60), r.int(72)));
        }
        input = chars.join('');
      } else if (kind === 1) {
        // structure-aware: a random state, deflated as a link would be
        const value = r.int(3) === 0 ? randomValue(r) : { puzzle: randomValue(r), options: randomValue(r), solution: randomValue(r), view: randomValue(r) };
        let json;
        try { json = JSON.stringify(value); } catch { json = '{'; }
        input = LINK_PREFIX + toBase64Url(deflateSync(strToU8(json ?? 'null')));
      } else if (kind === 2) {
        input = r.pick(['', '#', '#p1:', '#p2:abc', '#p999999:', 'p1:AAAA', `#p1:${'A'.repeat(r.int(200000))}`]);
      } else {
        input = randomValue(r);
      }
      runs++;
      let out;
      try {
        out = decodeState(input, { libraryFiles: ['soma.txt', 'tetriscube.txt', 'pentominoes_10x6.txt'] });
      } catch (e) {
        throw new Error(`decodeState threw on seed ${SEED} run ${runs}: ${e.message}; input ${JSON.stringify(String(input).slice(0, 200))}`);
      }
      expect(typeof out.ok).toBe('boolean');
      if (out.ok) {
        // a state that decodes encodes again to a link that decodes to the same state
        const again = decodeState(encodeState(out.state), { libraryFiles: ['soma.txt', 'tetriscube.txt', 'pentominoes_10x6.txt'] });
        expect(again).toEqual(out);
      } else {
        expect(typeof out.error).toBe('string');
        expect(out.error.length).toBeLessThan(400);
        const known = ERROR_TEXTS.has(out.error) || /^(This link was made by another version|The link is too long|The link does not describe)/.test(out.error);
        expect(known, out.error).toBe(true);
      }
    }
    console.log(`fuzz: share links: ${runs} inputs in ${SECONDS} s, no finding`);
    expect(runs).toBeGreaterThan(100);
  }, SECONDS * 1000 + 30000);
});

describe('fuzz: worker messages', () => {
  it(`every request gets one answer, nothing traps, the worker stays usable (${MESSAGES} messages)`, async () => {
    const messages = [];
    const host = createSolverHost({ loadModule, postMessage: (m) => messages.push(m), schedule: (fn) => setImmediate(fn) });
    await host.ready;
    const r = rng(SEED + 1);
    const texts = [readDef('soma.txt'), readDef('pentominoes_10x6.txt'), readDef('tetriscube.txt'), 'D:xDim=2:yDim=1:zDim=1\nC:name=A:layout=0 0 0, 1 0 0\n~D\n', 'garbage', ''];
    const types = [...Object.values(MSG), 'bogus', undefined, 42];
    const terminal = new Set([MSG.LOADED, MSG.ERROR, MSG.DONE, MSG.DRAFTED, MSG.IMAGE_TABLE, MSG.IMAGE_CELLS, MSG.PREPARED,
      MSG.PLAYED, MSG.CHECKED, MSG.BUILD_ORDER, MSG.SOLUTIONS_TEXT, MSG.CHECKPOINT_FILE, MSG.CHECKPOINT_OPENED]);
    const donateIds = new Set(); // 'donated' answers a donate request (a draining subproblem sends it too, not as its answer)
    const expected = new Map(); // id -> requests sent with it that need one answer each
    let runs = 0;
    let id = 0;
    // a fixed number of messages from a fixed seed: the same sequence on a fast or a loaded machine
    while (runs < MESSAGES) {
      const type = r.int(3) === 0 ? r.pick(types) : r.pick([MSG.LOAD, MSG.SOLVE, MSG.SOLVE, MSG.CANCEL, MSG.DRAFT, MSG.IMAGE_CELLS, MSG.IMAGE_TABLE, MSG.PREPARE, MSG.SUBPROBLEM, MSG.SUBPROBLEM, MSG.DONATE]);
      const msg = { type, id: ++id };
      if (r.int(2)) msg.text = r.int(4) ? r.pick(texts) : randomValue(r);
      if (r.int(2)) msg.source = randomValue(r);
      if (type === MSG.SOLVE || type === MSG.PREPARE || r.int(4) === 0) {
        msg.puzzle = r.int(5) ? r.int(2) : randomValue(r);
        msg.options = r.int(3) ? r.pick(['', '-r', '-r -l 3', '-t 3', '-s 5,2', '-F1', '-o s', '-x', '-r "L']) : randomValue(r);
        if (r.int(3) === 0) msg.maxSolutions = randomValue(r);
        if (r.int(3) === 0) msg.stepBudget = randomValue(r);
      }
      if (type === MSG.IMAGE_CELLS) msg.image = randomValue(r);
      if (type === MSG.SUBPROBLEM) {
        msg.path = r.int(3) ? Array.from({ length: r.int(4) }, () => r.int(3) ? r.int(400) : randomValue(r)) : randomValue(r);
      }
      if (type === MSG.DONATE) {
        msg.search = r.int(2) ? id - 1 : randomValue(r);
        if (r.int(2)) msg.max = r.int(3) ? 1 + r.int(5) : randomValue(r);
        if (r.int(3) === 0) msg.drain = r.int(3) ? r.pick([0, 0.001, 0.2, 1]) : randomValue(r);
        donateIds.add(msg.id);
      }
      if (type === MSG.CANCEL) msg.id = r.int(2) ? id - 1 : randomValue(r);
      const payload = r.int(20) === 0 ? randomValue(r) : msg; // sometimes not even an object
      runs++;
      try {
        host.handleMessage(structuredClone(payload));
      } catch (e) {
        throw new Error(`handleMessage threw on seed ${SEED + 1} run ${runs}: ${e.message}`);
      }
      if (payload === msg && type !== MSG.CANCEL) expected.set(msg.id, (expected.get(msg.id) || 0) + 1);
      // let a search run a few slices before the next message ends it
      for (let k = r.int(4); k > 0; k--) await new Promise((done) => setImmediate(done));
    }
    host.handleMessage({ type: MSG.CANCEL, id });
    // The host still works: the Soma cube counts 480 with -r.
    host.handleMessage({ type: MSG.LOAD, id: 'final-load', text: readDef('soma.txt'), source: 'soma.txt' });
    host.handleMessage({ type: MSG.SOLVE, id: 'final', puzzle: 0, options: '-r' });
    for (let k = 0; k < 2000 && !messages.some((m) => m.id === 'final' && m.type === MSG.DONE); k++) {
      await new Promise((done) => setTimeout(done, 5));
    }
    const final = messages.find((m) => m.id === 'final' && m.type === MSG.DONE);
    expect(final && final.stats.solutions).toBe(480);
    expect(messages.filter((m) => m.type === MSG.RESTARTED)).toEqual([]); // no trap
    expect(messages.filter((m) => m.type === MSG.ERROR && m.id === null)).toEqual([]);
    // Exactly one terminal answer per request (a search's answer is its done or error).
    const answers = new Map();
    for (const m of messages) {
      if ((terminal.has(m.type) || (m.type === MSG.DONATED && donateIds.has(m.id))) && typeof m.id === 'number') answers.set(m.id, (answers.get(m.id) || 0) + 1);
    }
    for (const [k, n] of expected) expect(answers.get(k) || 0, `request ${k}`).toBe(n);
    for (const m of messages) if (m.type === MSG.ERROR) expect(String(m.message).length, m.message.slice(0, 100)).toBeLessThan(1000);
    console.log(`fuzz: worker messages: ${runs} messages, no finding`);
  }, 300_000);
});

describe('fuzz: the pool\'s message sequences', () => {
  // Mostly well-formed sequences, as the pool sends them, in hostile orders: prepare, pieces
  // from paths the worker gave, donations asked before a piece's first slice or while it runs
  // (with max or a drain), cancels of running and waiting pieces. Every request gets exactly
  // one answer (a donation that waits for a slice too, whatever ends the piece meanwhile).
  it(`every request gets one answer; the worker stays usable (${SECONDS} s)`, async () => {
    const messages = [];
    const host = createSolverHost({ loadModule, postMessage: (m) => messages.push(m), schedule: (fn) => setImmediate(fn) });
    await host.ready;
    const r = rng(SEED + 2);
    const files = ['pentominoes_10x6.txt', 'soma.txt', 'tetriscube.txt'];
    const expected = new Map(); // request id -> answers it needs (1)
    const donateIds = new Set();
    const pieces = []; // ids of subproblem requests, newest last
    let id = 0;
    let runs = 0;
    const send = (msg, answered = true) => {
      runs++;
      host.handleMessage(structuredClone(msg));
      if (answered) expected.set(msg.id, 1);
    };
    const given = () => messages.filter((m) => m.type === MSG.DONATED).flatMap((m) => m.paths || []);
    const end = performance.now() + SECONDS * 1000;
    while (performance.now() < end) {
      const file = r.pick(files);
      send({ type: MSG.LOAD, id: ++id, text: readDef(file), source: file });
      send({ type: MSG.PREPARE, id: ++id, puzzle: 0, options: r.pick(['-r', '-r', '', '-r -o s', '-r -f 7']) });
      for (let n = 3 + r.int(25); n > 0; n--) {
        const k = r.int(10);
        if (k < 3) {
          const paths = given();
          const path = r.int(3) && paths.length ? r.pick(paths) : [];
          const msg = { type: MSG.SUBPROBLEM, id: ++id, path };
          send(msg);
          pieces.push(msg.id);
        } else if (k < 7 && pieces.length) {
          const msg = { type: MSG.DONATE, id: ++id, search: r.int(3) ? pieces[pieces.length - 1] : r.pick(pieces) };
          if (r.int(4) === 0) msg.drain = r.pick([0, 0.001, 0.05]);
          else if (r.int(2)) msg.max = 1 + r.int(4);
          donateIds.add(msg.id);
          send(msg);
        } else if (k < 9 && pieces.length) {
          send({ type: MSG.CANCEL, id: r.int(2) ? pieces[pieces.length - 1] : r.pick(pieces) }, false);
        }
        // (often none: a donation and a cancel in one task, before the piece's first slice)
        for (let w = r.int(2) ? 0 : r.int(4); w > 0; w--) await new Promise((done) => setImmediate(done));
      }
    }
    // let everything end: cancel the last pieces, then wait for the answers
    for (const p of pieces.slice(-5)) host.handleMessage({ type: MSG.CANCEL, id: p });
    host.handleMessage({ type: MSG.LOAD, id: 'final-load', text: readDef('soma.txt'), source: 'soma.txt' });
    host.handleMessage({ type: MSG.SOLVE, id: 'final', puzzle: 0, options: '-r' });
    for (let k = 0; k < 2000 && !messages.some((m) => m.id === 'final' && m.type === MSG.DONE); k++) {
      await new Promise((done) => setTimeout(done, 5));
    }
    expect(messages.find((m) => m.id === 'final' && m.type === MSG.DONE).stats.solutions).toBe(480);
    expect(messages.filter((m) => m.type === MSG.RESTARTED)).toEqual([]); // no trap
    const terminal = new Set([MSG.LOADED, MSG.ERROR, MSG.DONE, MSG.PREPARED]);
    const answers = new Map();
    for (const m of messages) {
      if ((terminal.has(m.type) && !donateIds.has(m.id)) || (donateIds.has(m.id) && (m.type === MSG.DONATED || m.type === MSG.ERROR))) {
        answers.set(m.id, (answers.get(m.id) || 0) + 1);
      }
    }
    for (const [k, n] of expected) expect(answers.get(k) || 0, `request ${k}`).toBe(n);
    console.log(`fuzz: pool sequences: ${runs} messages in ${SECONDS} s, no finding`);
  }, SECONDS * 1000 + 60000);
});
