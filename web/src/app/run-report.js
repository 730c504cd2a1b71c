// What a finished search says, in plain words: the status line, and the details
// that options such as -i, -s and -t ask for (panels/run-details-panel.js draws them).
//
//   finishMessage({ reason: 'finished', total: 100, elapsed: 0.2, options: '-r -l 100', stats, known })
//     -> 'Stopped at the limit of 100 solutions (0.20 s).'
//   runDetails(run) -> { info, monteCarlo, trace } or null
//
// Traps:
// - `-l N` inside the option string is applied by the engine, which ends the search with the
//   same step state as an exhausted one, so the worker reports reason 'finished' (its 'limit'
//   reason is only for maxSolutions). The limit is recognised here from the count instead.
// - A puzzle proved impossible before searching (parity, or a cell weighting: colourings mod k,
//   corner cells, few open neighbours...; engine/constraints/weighting.hpp) ends at once with 0
//   solutions; the engine puts its certificate in the stats' "impossible" field ("impossible by
//   corner cells: the board has ...") and the argument in "impossibleBy" (engine/output/format.cpp).
import { parseOptions } from '../model/options.js';
import { num, plural, secs } from './format.js';

/**
 * @param {object} o
 * @param {string} o.reason the worker's done reason: 'finished' | 'limit' | 'cancelled' | 'window'
 * @param {number} o.total solutions found
 * @param {number} o.elapsed seconds
 * @param {string} o.options the option text the search ran with
 * @param {object} o.stats the done stats (statsJson)
 * @param {number} [o.known] the library's known count for these options, if any
 * @param {boolean} [o.compareKnown] whether `known` applies (one puzzle in the file)
 * @returns {string}
 */
export function finishMessage({ reason, total, elapsed, options, stats = {}, known, compareKnown = true, before = 0 }) {
  const found = plural(total, 'solution');
  // before: a resumed search's time before it was resumed (the whole search's time is said)
  const time = before > 0 ? `${secs(before + elapsed)} (${secs(elapsed)} since resuming)` : secs(elapsed);
  const { values } = parseOptions(options || '');
  // --memo counts without listing: nothing partial to say, nothing to browse at the end
  if (reason === 'cancelled' && values.memo) return `Cancelled after ${time}: a count by remembering subproblems has no partial figure.`;
  if (reason === 'cancelled') return `Cancelled after ${time} with ${found} found.`;
  // (a recording's window: watch-actions.js says how many steps it kept)
  if (reason === 'window') return `Stopped where the recording's window ends: ${found} found by then, in ${time}. There may be more.`;
  const limit = values.limit;
  if (reason === 'limit' || (limit !== null && total >= limit)) {
    return `Stopped at the limit of ${plural(limit ?? total, 'solution')}: ${found} found in ${time}. There may be more.`;
  }
  if (stats.impossible) {
    // the engine's reason reads "impossible by parity: ..." or "impossible because piece P fits
    // nowhere ..."; say "impossible" once
    const why = String(stats.impossible).replace(/^impossible\s*/i, '').replace(/\.$/, '');
    return `Impossible, proved before searching: ${why}. No solution exists.`;
  }
  if (values.monteCarlo) {
    return `Monte Carlo estimate done: ${plural(stats.monteCarloTrials ?? values.monteCarlo.trials, 'trial')} in ${time} (${found} met on the way; not a full count).`;
  }
  let note = '';
  if (known !== undefined && compareKnown) note = known === total ? ' ✓ matches the known count.' : ` (the known count is ${num(known)}).`;
  if (values.memo) {
    const picked = stats.memo && Array.isArray(stats.memo.numbers) ? stats.memo.numbers.length : 0;
    const shown = values.solution !== null ? `, and showing solution number ${num(values.solution)}`
      : picked > 0 ? `, and showing ${picked === total ? (picked === 1 ? 'it' : `all ${num(picked)}`) : `${num(picked)} drawn at random`}` : '';
    return `Finished: counted ${found} in ${time}, by remembering subproblems${shown || ' (none listed to browse)'}.${note}`;
  }
  return `Finished: ${found} in ${time}.${note}`;
}

/** Per-level rows (pieces left n = 1..N) of the stats arrays the engine fills. */
function levels(stats) {
  const attempts = stats.attemptsByRemaining || [];
  const fits = stats.fitsByRemaining || [];
  const extra = [
    ['parityBacktracks', 'parity cuts'],
    ['volumeBacktracks', 'volume cuts'],
    ['parityFiltered', 'parity filtered'],
    ['volumeFiltered', 'volume filtered'],
    ['fitFiltered', 'fit filtered'],
  ].filter(([k]) => Array.isArray(stats[k]) && stats[k].some((v) => v > 0));
  const n = Math.max(attempts.length, fits.length);
  const rows = [];
  for (let i = 0; i < n; i++) {
    // index 0 is 1 piece left (engine/output/format.cpp perLevel drops the unused index 0)
    rows.push({ left: i + 1, attempts: attempts[i] || 0, fits: fits[i] || 0, extra: extra.map(([k]) => stats[k][i] || 0) });
  }
  return { columns: extra.map(([, label]) => label), rows };
}

/**
 * What the page shows below the counters for the options a finished search ran with, or null.
 * @param {{options: string, stats: object|null, traceEvents?: number, phase: string}} run
 */
export function runDetails(run) {
  if (!run || !run.stats) return null;
  const { values, errors } = parseOptions(run.options || '');
  if (errors.length) return null;
  const stats = run.stats;
  const out = {};
  if (values.info || values.monteCarlo) {
    out.info = {
      // The root's column, chosen when the search starts on boards with holes, goes with it.
      configuration: [stats.configuration, stats.root].filter(Boolean).join('; '),
      redundancyFilter: stats.redundancyFilter || '',
      found: stats.found ?? null,
      redundant: stats.redundant ?? null,
      setupSeconds: stats.setupSeconds ?? null,
      searchSeconds: stats.searchSeconds ?? null,
      ...levels(stats),
    };
  }
  if (values.monteCarlo) {
    const trials = stats.monteCarloTrials || 0;
    const attempts = stats.attempts || 0;
    out.monteCarlo = {
      trials,
      asked: values.monteCarlo.trials,
      remaining: values.monteCarlo.remaining,
      attempts,
      perTrial: trials > 0 ? attempts / trials : 0,
      solutions: stats.solutions || 0,
    };
  }
  if (values.trace !== null) out.trace = { at: values.trace, events: run.traceEvents || 0 };
  return Object.keys(out).length ? out : null;
}
