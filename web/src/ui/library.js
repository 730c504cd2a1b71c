// The puzzle library: every def/*.txt bundled into the page, with titles and known solution
// counts from def/catalog.json. Both imports go through import.meta.glob so a missing file
// leaves an empty library instead of breaking the build.
const texts = import.meta.glob('../../../def/*.txt', { query: '?raw', import: 'default', eager: true });
const catalogs = import.meta.glob('../../../def/catalog.json', { import: 'default', eager: true });

export const DEFAULT_FILE = 'pentominoes_10x6.txt';

const TIER_ORDER = { fast: 0, slow: 1, bench: 2 };
export const TIER_LABEL = {
  fast: 'quick',
  slow: 'takes a while',
  bench: 'long search',
};

/** Title from the file's text when the catalog has none: the last comment line before D:. */
function titleFromText(text, file) {
  let last = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('D:')) break;
    if (line.startsWith('#')) {
      const t = line.replace(/^#+/, '').trim();
      if (t) last = t;
    }
  }
  return last || file.replace(/\.txt$/, '');
}

/**
 * Library entries, catalog order first, then any other files by name:
 * [{file, title, text, counts: {'-r'?: n, ''?: n}, tier}]
 */
export function libraryEntries() {
  const catalog = Object.values(catalogs)[0] || [];
  const byFile = new Map();
  for (const [path, text] of Object.entries(texts)) {
    const file = path.split('/').pop();
    byFile.set(file, text);
  }
  const entries = [];
  for (const c of Array.isArray(catalog) ? catalog : []) {
    if (!c || !byFile.has(c.file)) continue;
    entries.push({
      file: c.file,
      title: c.title || titleFromText(byFile.get(c.file), c.file),
      text: byFile.get(c.file),
      counts: c.counts || {},
      tier: c.tier || '',
    });
    byFile.delete(c.file);
  }
  for (const [file, text] of [...byFile.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    entries.push({ file, title: titleFromText(text, file), text, counts: {}, tier: '' });
  }
  // stable: quick puzzles first, keeping catalog order inside a tier
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (TIER_ORDER[a.e.tier] ?? 3) - (TIER_ORDER[b.e.tier] ?? 3) || a.i - b.i)
    .map(({ e }) => e);
}

/** Known count for an options string, when the catalog has it ('-r' alone or no options). */
export function knownCount(entry, options) {
  if (!entry || !entry.counts) return undefined;
  const key = options.trim();
  return Object.prototype.hasOwnProperty.call(entry.counts, key) ? entry.counts[key] : undefined;
}
