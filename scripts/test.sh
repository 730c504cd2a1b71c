#!/usr/bin/env bash
# Run every test: C++ unit tests (ctest), the JavaScript/WebAssembly tests (vitest, tests/js),
# the C++ tests again under AddressSanitizer + UndefinedBehaviorSanitizer, every fuzz target
# for a short while (scripts/fuzz.sh; FUZZ_SECONDS each, default 12: about a minute in all)
# and the browser tests (tests/browser, headless Chromium). Installs and builds first.
# Exits non-zero if anything fails; every suite runs even when an earlier one failed.
#
#   bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
JOBS=${JOBS:-2}
t_start=$SECONDS
failed=()
timings=()

phase() {  # phase NAME COMMAND...: run, time and record a failure without stopping
  local name=$1; shift
  local t0=$SECONDS
  echo "== test: $name"
  if "$@"; then
    timings+=("$name: ok ($((SECONDS - t0)) s)")
  else
    failed+=("$name")
    timings+=("$name: FAILED ($((SECONDS - t0)) s)")
  fi
}

t0=$SECONDS
bash scripts/setup.sh
bash scripts/build.sh
timings+=("setup + build: $((SECONDS - t0)) s")

phase "C++ (ctest)" ctest --test-dir build --output-on-failure -j"$JOBS"
phase "JS + wasm (vitest tests/js)" npx vitest run tests/js

# Sanitizers: the C++ tests once more under ASan + UBSan (one clang build, shared with the
# fuzzers), where a search is 5-20x slower: the tests listed in tests/cpp/sanitized-skip.txt
# (watchdogs that time the optimised code, and the exhaustive sweeps) ran above on the real
# build, and the rest cover every line the whole suite covers (docs/testing.md). Tests with
# several puzzles leave out their largest ones there (test_support.hpp kReducedRun).
# scripts/nightly.sh runs every test sanitized, ThreadSanitizer and longer fuzzing.
sanitized_ctest() {
  local skip
  skip=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' tests/cpp/sanitized-skip.txt | paste -sd'|')
  BUILD_ONLY=1 TARGETS= bash scripts/fuzz.sh 1 &&
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir build-sanitize --output-on-failure -j"$JOBS" -E "$skip"
}
phase "C++ under ASan+UBSan (build-sanitize)" sanitized_ctest
phase "fuzz (${FUZZ_SECONDS:-12} s per target, ASan+UBSan)" bash scripts/fuzz.sh "${FUZZ_SECONDS:-12}"

# Browser tests: whichever runner tests/browser provides.
if [[ -f tests/browser/run.mjs ]]; then
  phase "browser (tests/browser/run.mjs)" node tests/browser/run.mjs
elif [[ -f tests/browser/vitest.config.js ]]; then
  phase "browser (vitest tests/browser)" npx vitest run --config tests/browser/vitest.config.js
else
  echo "== test: browser: tests/browser has no runner yet (run.mjs or vitest.config.js), skipped"
  timings+=("browser: skipped (no runner)")
fi

echo "== test summary ($((SECONDS - t_start)) s)"
printf '   %s\n' "${timings[@]}"
if ((${#failed[@]})); then
  echo "test: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "test: all passed"
