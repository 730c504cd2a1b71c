#!/usr/bin/env bash
# How much of the engine and the CLI the sanitized run of scripts/test.sh covers, against the
# whole C++ suite: two clang builds with source-based coverage (build-coverage-full: every
# test at full size; build-coverage-reduced: -DPOLYCUBE_TEST_REDUCED, the sizes the sanitized
# build uses), the first running every test, the second all but tests/cpp/sanitized-skip.txt.
# Prints both line coverages and the lines only the whole suite reaches (file: line numbers).
# A change to the skip list or to kReducedRun cases is checked with it (docs/testing.md).
# Counters are atomic: the threaded tests' line counts are differences of counters, which
# racing plain increments can make negative or zero.
#
#   bash scripts/sanitized-coverage.sh      # slow: two clang builds, the suite run twice
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}
cxx=$(command -v clang++-14 || command -v clang++)
prof=$(command -v llvm-profdata-14 || command -v llvm-profdata)
cov=$(command -v llvm-cov-14 || command -v llvm-cov)
skip=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' tests/cpp/sanitized-skip.txt | paste -sd'|')

run() {  # run NAME EXTRA_FLAGS CTEST_ARGS...
  local name=$1 flags=$2; shift 2
  local b=build-coverage-$name
  cmake -S . -B $b -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_CXX_FLAGS="-O1 -fprofile-instr-generate -fcoverage-mapping -fprofile-update=atomic $flags" >$b.configure.log 2>&1
  cmake --build $b -j"$JOBS" >$b.build.log 2>&1 || { tail -30 $b.build.log >&2; exit 1; }
  rm -rf $b/profiles && mkdir -p $b/profiles
  LLVM_PROFILE_FILE=$PWD/$b/profiles/%p.profraw ctest --test-dir $b -j"$JOBS" "$@" >$b.ctest.log 2>&1 || true
  "$prof" merge -sparse $b/profiles/*.profraw -o $b/all.profdata
  "$cov" export -format=lcov -instr-profile=$b/all.profdata $b/tests/cpp/polycube_tests -object $b/cli/polycube \
    -ignore-filename-regex='(tests/|/usr/)' >$b/lines.lcov 2>/dev/null
}
run full ""
run reduced "-DPOLYCUBE_TEST_REDUCED" -E "$skip"

node - build-coverage-full/lines.lcov build-coverage-reduced/lines.lcov <<'JS'
const fs = require('fs');
const covered = (file) => {
  const set = new Set(); let sf = '';
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('SF:')) sf = line.slice(3);
    else if (line.startsWith('DA:')) { const [n, c] = line.slice(3).split(','); if (Number(c) > 0) set.add(`${sf}:${n}`); }
  }
  return set;
};
const [full, reduced] = process.argv.slice(2).map(covered);
const only = [...full].filter((l) => !reduced.has(l));
console.log(`lines covered: whole suite ${full.size}, sanitized run ${reduced.size}; only by the whole suite: ${only.length}`);
const byFile = new Map();
for (const l of only) { const i = l.lastIndexOf(':'); const f = l.slice(0, i); byFile.set(f, [...(byFile.get(f) || []), Number(l.slice(i + 1))]); }
for (const [f, ns] of byFile) console.log(`  ${f.replace(process.cwd() + '/', '')}: ${ns.sort((a, b) => a - b).join(' ')}`);
JS
