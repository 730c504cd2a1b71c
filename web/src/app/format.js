// Number and time formatting shared by the panels (one copy of each).
const fmt = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 3 });

/** A puzzle's title as the page says it: "Untitled puzzle" when it has none. */
export const titleOf = (title) => title || 'Untitled puzzle';
/** Where a solution drawn without solving came from (a link, or the page's own address at a reload). */
export const linkedWords = (reloaded) => (reloaded ? 'shown before the reload' : 'from the link');
/** 12,345 */
export const num = (n) => fmt.format(Math.round(n || 0));
/** Short form for big counters: 6,761 / 6.76M / 1.2B. */
export const big = (n) => (n >= 1e6 ? compact.format(n) : num(n));
/** 384 MiB / 1.5 GiB (memory budgets) */
export const mib = (bytes) => (bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(1)} GiB` : `${num(bytes / 1024 ** 2)} MiB`);
/** 0.05 s / 12.3 s / 123 s */
export const secs = (s) => `${(s || 0).toFixed(s >= 100 ? 0 : s >= 10 ? 1 : 2)} s`;
/** "1 solution" / "2 solutions" */
export const plural = (n, word, many = `${word}s`) => `${num(n)} ${n === 1 ? word : many}`;
/** "10×6" or "3×3×3" */
export const dimsText = (p) => (p.zDim > 1 ? `${p.xDim}×${p.yDim}×${p.zDim}` : `${p.xDim}×${p.yDim}`);
/** Time left as the counters say it: 40 s / 12 min / 1.5 h. */
function leftText(left) {
  return left < 90 ? `${Math.round(left)} s` : left < 5400 ? `${Math.round(left / 60)} min` : `${(left / 3600).toFixed(1)} h`;
}

/** Seconds of search before a share under 1% bounds the time left ("over 10 min left"). */
const LOWER_BOUND_AFTER = 5;

/** Seconds left projected from the share gained since the run began (atStart: a resumed search). */
export function timeLeft(fraction, elapsed, atStart = 0) {
  const f = Math.min(1, fraction);
  const gained = f - (atStart > 0 ? atStart : 0);
  if (!(gained >= 0.01) || !(elapsed >= 1) || f >= 1) return null;
  return (elapsed * (1 - f)) / gained;
}

/**
 * The search's progress for the counters: "about 35%, ~40 s left (30-55 s)" from the engine's
 * estimate of the share of the tree done (stats.fractionDone, the weighted backtrack estimate)
 * and the time elapsed; time left = elapsed x (1 - f) / (f - atStart), once there is something
 * to project from. atStart: the share already done when this run began (a resumed search).
 * range: [least, most] seconds left of the recent projections (ProjectionSpread), shown
 * when they differ by more than a tenth of the whole: how far to trust the figure (as the CLI's
 * --progress line), not a confidence interval; without it (too few projections yet) no time
 * left is said.
 */
/**
 * A share as a percentage: whole percents from 1%, one significant digit below (0.4%, 0.03%),
 * so that a search of hours visibly moves (whole percents alone leave a long search such as the
 * box-in-a-diamond hexominoes at "about 0%" for minutes); the CLI's progress line writes it the
 * same way (cli/progress.cpp percentText).
 */
export function percentText(f) {
  if (!(f > 0)) return '0%';
  if (f >= 0.01) return `${Math.floor(f * 100)}%`;
  if (f < 1e-6) return 'under 0.0001%';
  return `${Number((f * 100).toPrecision(1))}%`;
}

export function progressText(fraction, elapsed, atStart = 0, range = null) {
  if (!(fraction >= 0)) return '–';
  const f = Math.min(1, fraction);
  const shown = percentText(f);
  const pct = shown.startsWith('under') ? shown : `about ${shown}`;
  if (f >= 1) return '100%';
  const left = timeLeft(f, elapsed, atStart);
  if (left === null) {
    // Under 1% gained after a few seconds: too little to project from, but the estimate still
    // bounds it, so a slow start says more than "about 0%"
    const gained = f - (atStart > 0 ? atStart : 0);
    if (elapsed >= LOWER_BOUND_AFTER && gained >= 0 && gained < 0.01) return `${pct}, over ${leftText((elapsed * (1 - f)) / 0.01)} left`;
    return pct;
  }
  // No figure until a few projections agree on something (ProjectionSpread.range): the first
  // ones swing widely as the first subtrees end (Bedlam read "~1 s left", then "~9 s left")
  if (!range) return `${pct}, estimating time left`;
  let spread = '';
  if (range[1] - range[0] > 0.1 * (elapsed + left)) {
    const lo = leftText(Math.max(0, range[0]));
    const hi = leftText(Math.max(0, range[1]));
    const unit = (t) => t.slice(t.indexOf(' '));
    spread = ` (${unit(lo) === unit(hi) ? lo.slice(0, lo.indexOf(' ')) : lo}-${hi})`;
  }
  // (under half a second would round to "~0 s left", which reads as if it were over)
  return left < 0.5 ? `${pct}, under 1 s left` : `${pct}, ~${leftText(left)} left${spread}`;
}

/**
 * The spread of the time-left projection over the last readings (one a second at most, ten
 * kept): the estimate moves in steps as subtrees of unequal size end.
 *   const spread = new ProjectionSpread(); spread.add(now, left); spread.range(now) -> [lo, hi]
 */
export class ProjectionSpread {
  constructor(keep = 10, everySeconds = 1) {
    this.keep = keep;
    this.every = everySeconds;
    this.ends = []; // projected end times, seconds
    this.last = -Infinity;
  }

  add(now, left) {
    if (left === null || now - this.last < this.every) return;
    this.last = now;
    this.ends.push(now + left);
    if (this.ends.length > this.keep) this.ends.shift();
  }

  /**
   * [least, most] seconds left from `now`, or null with fewer than 3 projected ends still ahead
   * (an end already passed was proved wrong: it bounds nothing).
   */
  range(now) {
    const ahead = this.ends.filter((end) => end > now);
    if (ahead.length < 3) return null;
    return [Math.min(...ahead) - now, Math.max(...ahead) - now];
  }
}

/** The notice `notice` with `line` said after what it says already (each thing said once). */
export function withNotice(notice, line) {
  if (!line || notice.includes(line)) return notice;
  return notice ? `${notice} ${line}` : line;
}

/** The notice `notice` without `line` (what else it says stays). */
export function withoutNotice(notice, line) {
  if (!line || !notice.includes(line)) return notice;
  return notice.replace(` ${line}`, '').replace(`${line} `, '').replace(line, '');
}
