// The library's challenges: start positions with exactly one way to finish, made by the engine
// from solutions (scripts/make-challenges.sh writes def/challenges.json; the engine's tests
// check that each one is unique). Read through import.meta.glob, so a missing file leaves no
// challenges instead of breaking the build.
const files = import.meta.glob('../../../def/challenges.json', { import: 'default', eager: true });

export const GRADE_WORDS = Object.freeze({ starter: 'Starter', junior: 'Junior', expert: 'Expert', master: 'Master' });

const ID = /^[A-Za-z0-9_.-]{1,120}$/;
const wholeNumbers = (list) => Array.isArray(list) && list.length >= 2 && list.every((v) => Number.isInteger(v) && v >= 0);

/**
 * The challenges of the data file by library file:
 * Map(file -> [{id, file, puzzle, grade, placements, given: [{instance, cells}]}]), in the
 * order of the file (from the smallest search to the largest). Entries that are not well
 * formed are left out.
 */
export function readChallenges(data) {
  const out = new Map();
  if (!data || data.version !== 1 || !Array.isArray(data.puzzles)) return out;
  for (const entry of data.puzzles) {
    if (!entry || typeof entry.file !== 'string' || !Array.isArray(entry.challenges)) continue;
    const list = [];
    for (const c of entry.challenges) {
      if (!c || typeof c.id !== 'string' || !ID.test(c.id) || !Array.isArray(c.given) || !c.given.every(wholeNumbers)) continue;
      list.push({
        id: c.id,
        file: entry.file,
        puzzle: Number.isInteger(entry.puzzle) ? entry.puzzle : 0,
        grade: Object.prototype.hasOwnProperty.call(GRADE_WORDS, c.grade) ? c.grade : 'starter',
        placements: Number.isSafeInteger(c.placements) ? c.placements : 0,
        given: c.given.map(([instance, ...cells]) => ({ instance, cells })),
      });
    }
    if (list.length) out.set(entry.file, list);
  }
  return out;
}

const library = readChallenges(Object.values(files)[0]);

/** The challenges of a library file (puzzle `index` of it), or []. */
export function challengesFor(file, index = 0) {
  return (library.get(file) || []).filter((c) => c.puzzle === index);
}

/** A challenge by its id, or null. */
export function challengeById(id) {
  for (const list of library.values()) {
    const c = list.find((x) => x.id === id);
    if (c) return c;
  }
  return null;
}
