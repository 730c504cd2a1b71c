// The search algorithms a person can compare side by side in "Watch the search", in plain
// words, and the option string that runs each on the puzzle on screen: the person's counting
// options (-r, -M, -l ...) are kept and only the algorithm options are replaced.
//
//   algorithmOptions('mch', '-r -l 20 -b 12', 12)   // '-r -l 20 -m 12'
import { automaticValues, buildOptions, parseOptions } from '../model/options.js';

export const ALGORITHMS = Object.freeze([
  { key: 'bruijn', label: "First open cell (de Bruijn)", set: (pieces) => ({ bruijn: pieces }),
    help: 'fills the cells in reading order, always the first empty one' },
  { key: 'mch', label: 'Most constrained hole (MCH)', set: (pieces) => ({ mch: pieces }),
    help: 'fills the empty cell with the fewest ways to be covered' },
  { key: 'emch', label: 'Estimated most constrained hole (EMCH)', set: (pieces) => ({ emch: pieces }),
    help: 'fills the empty cell with the fewest open neighbours, then the fewest ways' },
  { key: 'dlx', label: 'Dancing links, fewest choices first (DLX)', set: () => ({ order: 's' }),
    help: 'picks the cell or the piece with the fewest placements left' },
  { key: 'auto', label: "The solver's automatic choice", set: () => ({}),
    help: 'what Solve uses when no algorithm is set' },
]);

export const algorithmByKey = (key) => ALGORITHMS.find((a) => a.key === key) || null;

/**
 * The options that run `key` on a puzzle of `pieces` mobile pieces, keeping everything of
 * `text` but its algorithm options (and its -t, which the recorder adds). Returns null when
 * `text` does not parse (the options panel shows that error).
 */
export function algorithmOptions(key, text, pieces) {
  const algo = algorithmByKey(key);
  const { values, rest, errors } = parseOptions(text || '');
  if (!algo || errors.length > 0) return null;
  try {
    return buildOptions({ ...automaticValues(values), trace: null, ...algo.set(pieces) }, rest);
  } catch {
    return null; // values out of range: the options panel marks them
  }
}
