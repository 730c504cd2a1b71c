// Small statistics shared by the benchmarks.

/** The median of `xs` (the mean of the middle two for an even count); `xs` is not changed. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
