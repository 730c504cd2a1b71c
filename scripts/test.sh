#!/usr/bin/env bash
# Run every test: C++ unit tests (ctest), the JavaScript/WebAssembly tests (vitest, tests/js)
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
