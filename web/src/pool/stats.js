// Statistics of a search shared among workers (the pool): every node is counted by exactly one
// worker, so the counters add up to a one-worker run's (engine/solver/solver.hpp,
// Solver::startSubproblem). One list of what is summed, used for totals and for the piece
// deltas a checkpoint keeps.

/** Counters summed over workers: single numbers, and per-level arrays (index = pieces left). */
export const SUMMED_NUMBERS = Object.freeze(['solutions', 'found', 'redundant', 'attempts', 'fits', 'monteCarloTrials']);
export const SUMMED_LEVELS = Object.freeze([
  'attemptsByRemaining', 'fitsByRemaining', 'parityBacktracks', 'volumeBacktracks',
  'parityFiltered', 'volumeFiltered', 'fitFiltered',
]);

/** into += sign * from, over the summed counters (missing ones count as 0). Returns into. */
export function addStats(into, from, sign = 1) {
  if (!from) return into;
  for (const key of SUMMED_NUMBERS) {
    if (typeof from[key] === 'number') into[key] = (into[key] || 0) + sign * from[key];
  }
  for (const key of SUMMED_LEVELS) {
    const levels = from[key];
    if (!Array.isArray(levels)) continue;
    const sum = Array.isArray(into[key]) ? into[key] : (into[key] = []);
    for (let i = 0; i < levels.length; i++) sum[i] = (sum[i] || 0) + sign * (levels[i] || 0);
  }
  return into;
}

/** A piece's own counters: the worker's totals at its end minus those at its start. */
export function statsBetween(after, before) {
  return addStats(addStats({}, after), before, -1);
}

/** Only the summed counters of `stats` (what a checkpoint keeps). */
export function summedPart(stats) {
  return addStats({}, stats);
}
