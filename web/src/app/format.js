// Number and time formatting shared by the panels (one copy of each).
const fmt = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 3 });

/** 12,345 */
export const num = (n) => fmt.format(Math.round(n || 0));
/** Short form for big counters: 6,761 / 6.76M / 1.2B. */
export const big = (n) => (n >= 1e6 ? compact.format(n) : num(n));
/** 0.05 s / 12.3 s / 123 s */
export const secs = (s) => `${(s || 0).toFixed(s >= 100 ? 0 : s >= 10 ? 1 : 2)} s`;
/** "1 solution" / "2 solutions" */
export const plural = (n, word, many = `${word}s`) => `${num(n)} ${n === 1 ? word : many}`;
/** "10×6" or "3×3×3" */
export const dimsText = (p) => (p.zDim > 1 ? `${p.xDim}×${p.yDim}×${p.zDim}` : `${p.xDim}×${p.yDim}`);
/**
 * The search's progress for the counters: "about 35%, ~40 s left" from the engine's estimate of
 * the share of the tree done (stats.fractionDone, the weighted backtrack estimate) and the time
 * elapsed; time left = elapsed x (1 - f) / (f - atStart), once there is something to project
 * from. atStart: the share already done when this run began (a resumed search, issue 10).
 */
export function progressText(fraction, elapsed, atStart = 0) {
  if (!(fraction >= 0)) return '–';
  const f = Math.min(1, fraction);
  const pct = `about ${Math.floor(f * 100)}%`;
  if (f >= 1) return '100%';
  const gained = f - (atStart > 0 ? atStart : 0);
  if (gained < 0.01 || !(elapsed >= 1)) return pct;
  const left = (elapsed * (1 - f)) / gained;
  const leftText = left < 90 ? `${Math.round(left)} s` : left < 5400 ? `${Math.round(left / 60)} min` : `${(left / 3600).toFixed(1)} h`;
  return `${pct}, ~${leftText} left`;
}
