// Which browser test files the test command runs (the core tier) and which only the extended
// tier runs (scripts/test.sh --extended, --full; CI runs both). The core files drive every
// panel a first visit meets: the page, the editor, solving, play, the build guide and the
// lessons, each on a phone too (lessons, build and play open a 390x844 page). The extended files
// go deeper into one subject each (sharing, kept searches, the worker pool, Watch the search, the
// 3-D view's looks, the options, checkpoint files, every lesson walked whole, the phone's bar of
// Solve, previous / next and Share as the page scrolls). POLYCUBE_BROWSER_TIER=core|extended picks one; unset runs
// every file, which is what a person running `npx vitest run --config
// tests/browser/vitest.config.js` expects.
export const CORE_FILES = [
  'build', 'editor', 'lessons', 'modules', 'page', 'play',
].map((name) => `tests/browser/${name}.test.js`);

export function browserTestFiles(tier) {
  if (tier === 'core') return { include: CORE_FILES, exclude: [] };
  if (tier === 'extended') return { include: ['tests/browser/**/*.test.js'], exclude: CORE_FILES };
  if (tier === undefined || tier === '' || tier === 'all') return { include: ['tests/browser/**/*.test.js'], exclude: [] };
  throw new Error(`POLYCUBE_BROWSER_TIER is "${tier}": it must be core, extended or all`);
}
