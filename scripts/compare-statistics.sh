#!/usr/bin/env bash
# Compare the search statistics of two polycube binaries, puzzle by puzzle: placements,
# fits, filters, backtracks, solutions and the configuration (-q -r -i -j 1), every line of
# -i's report but its timings. A refactoring of the solver must leave them identical.
#
#   bash scripts/compare-statistics.sh OLD_POLYCUBE NEW_POLYCUBE [FILE...]
#
# Without files: the def/ puzzles of the catalog's fast tier, the Tetris Cube, def/impossible/
# and def/families/. Prints one line per file and exits 1 when any differs (the diff shown).
set -uo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 2 ]]; then
  echo "usage: $0 OLD_POLYCUBE NEW_POLYCUBE [FILE...]" >&2
  exit 2
fi
old=$1 new=$2
shift 2
files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
  mapfile -t files < <(node -e '
    const c = require("./def/catalog.json");
    for (const e of Array.isArray(c) ? c : c.entries) if (e.tier === "fast") console.log("def/" + e.file);')
  files+=(def/tetriscube.txt def/impossible/*.txt def/families/*.txt)
fi
# -i's lines without the machine's timings (seconds, rates, the weightings' milliseconds).
statistics() {
  "$1" -q -r -i -j 1 "$2" 2>&1 | grep -vE '_SECONDS=|_PER_SEC=' | sed -E 's/^(WEIGHTINGS=[0-9]+) in .*/\1/'
}
differ=0
same=0
for f in "${files[@]}"; do
  [[ $f == *.json ]] && continue
  if diff <(statistics "$old" "$f") <(statistics "$new" "$f") >/tmp/compare-statistics.$$ 2>&1; then
    same=$((same + 1))
    echo "same    $f"
  else
    differ=$((differ + 1))
    echo "DIFFERS $f"
    head -20 /tmp/compare-statistics.$$
  fi
done
rm -f /tmp/compare-statistics.$$
echo "$same same, $differ differ"
[[ $differ -eq 0 ]]
