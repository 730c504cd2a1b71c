#!/usr/bin/env bash
# The test command. Installs and builds first, then runs the core tier:
#   - C++ unit tests and CLI scripts (ctest, optimised build), less tests/cpp/extended-tests.txt;
#   - the JavaScript/WebAssembly tests (vitest, tests/js; its fuzz loops included; the catalog's
#     slow puzzles through wasm are extended);
#   - the browser tests of tests/browser/tiers.js's core files (headless Chromium).
# --extended runs the extended tier instead: the optimised tests of extended-tests.txt, one
# ASan+UBSan build of the engine (build-sanitize/) for the C++ tests again (less
# tests/cpp/sanitized-skip.txt) and every libFuzzer target for a short while (scripts/fuzz.sh;
# FUZZ_SECONDS each, default 12), and the other browser files. The core tier compiles the engine
# twice (native, WebAssembly), the extended tier once more. --full runs both (what .ci/run
# does). docs/testing.md has the measured times.
# Exits non-zero if anything fails; every suite runs even when an earlier one failed.
#
#   bash scripts/test.sh [--extended | --full]
set -euo pipefail
cd "$(dirname "$0")/.."

export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
JOBS=${JOBS:-$(($(nproc) + 1))}  # ctest's parallelism: the cores plus one (a CLI script waits on its processes)
tier=${1:---core}
case $tier in --core | --extended | --full) ;; *) echo "usage: $0 [--extended | --full]" >&2; exit 2 ;; esac
core() { [[ $tier != --extended ]]; }
extended() { [[ $tier != --core ]]; }
t_start=$SECONDS
failed=()
timings=()

# CPU seconds (user + system) of the finished children so far, in $cpu_now: a phase's CPU is
# the difference across it. The machine may be shared, so wall time says little of a phase's
# cost; CPU time is its own. (`times` runs in this shell: in a pipe or $(...) it would report
# a subshell's children.)
times_file=$(mktemp)
trap 'rm -f "$times_file"' EXIT
cpu_now=0
read_cpu() {
  times > "$times_file"
  cpu_now=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$times_file")
}

phase() {  # phase NAME COMMAND...: run, time and record a failure without stopping
  local name=$1; shift
  local t0=$SECONDS c0 result=ok
  read_cpu; c0=$cpu_now
  echo "== test: $name"
  if ! "$@"; then
    failed+=("$name")
    result=FAILED
  fi
  read_cpu
  timings+=("$name: $result ($((SECONDS - t0)) s, $((cpu_now - c0)) s CPU)")
}

t0=$SECONDS
bash scripts/setup.sh
bash scripts/build.sh
read_cpu
timings+=("setup + build: $((SECONDS - t0)) s, $cpu_now s CPU")

# A ctest -R/-E expression from a list file (one expression per line, '#' comments).
test_list() { sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1" | paste -sd'|'; }
extended_tests=$(test_list tests/cpp/extended-tests.txt)

core && phase "C++ (ctest)" ctest --test-dir build --output-on-failure -j"$JOBS" -E "$extended_tests"
extended && phase "C++ extended (ctest, tests/cpp/extended-tests.txt)" \
  ctest --test-dir build --output-on-failure -j"$JOBS" -R "$extended_tests"
core && phase "JS + wasm (vitest tests/js)" env POLYCUBE_JS_TIER=core npx vitest run tests/js
extended && phase "JS + wasm extended (the catalog's slow tier)" \
  env POLYCUBE_JS_TIER=extended npx vitest run tests/js/catalog.test.js

# Sanitizers: the C++ tests once more under ASan + UBSan (one clang build, shared with the
# fuzzers), where a search is 5-20x slower: the tests listed in tests/cpp/sanitized-skip.txt
# (watchdogs that time the optimised code, and the exhaustive sweeps) ran on the real build,
# and the rest cover every line the whole suite covers (docs/testing.md). Tests with several
# puzzles leave out their largest ones there (test_support.hpp kReducedRun).
# scripts/nightly.sh runs every test sanitized, ThreadSanitizer and longer fuzzing.
sanitized_ctest() {
  BUILD_ONLY=1 TARGETS= bash scripts/fuzz.sh 1 &&
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir build-sanitize --output-on-failure -j"$JOBS" -E "$(test_list tests/cpp/sanitized-skip.txt)"
}
extended && phase "C++ under ASan+UBSan (build-sanitize)" sanitized_ctest
extended && phase "fuzz (${FUZZ_SECONDS:-12} s per target, ASan+UBSan)" bash scripts/fuzz.sh "${FUZZ_SECONDS:-12}"

# Browser tests, one tier of tests/browser/tiers.js (the page is built once per run).
browser_tier() { POLYCUBE_BROWSER_TIER=$1 npx vitest run --config tests/browser/vitest.config.js; }
core && phase "browser, core files (vitest tests/browser)" browser_tier core
extended && phase "browser, extended files (vitest tests/browser)" browser_tier extended

read_cpu
echo "== test summary ($((SECONDS - t_start)) s, $cpu_now s CPU)"
printf '   %s\n' "${timings[@]}"
if ((${#failed[@]})); then
  echo "test: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "test: all passed"
