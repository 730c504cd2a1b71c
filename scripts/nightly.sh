#!/usr/bin/env bash
# The long checks that scripts/test.sh leaves out to stay short: every C++
# test under ASan + UBSan (test.sh skips the sweeps of tests/cpp/sanitized-skip.txt there; the
# watchdogs that time optimised code stay out), without the reduced cases (kReducedRun), then
# ThreadSanitizer over the threaded code (scripts/tsan.sh) and each fuzz target for
# NIGHTLY_FUZZ_SECONDS (default 600): the fuzzing alone is five times that. Run after scripts/test.sh (it
# reuses its builds) or alone.
#
#   bash scripts/nightly.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
JOBS=${JOBS:-2}
failed=()

bash scripts/setup.sh
bash scripts/build.sh native

# Every test sanitized, the full sizes too: a build of its own (build-sanitize-full), since
# the reduced cases are chosen at compile time.
b=build-sanitize-full
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cxx=$(command -v clang++)
cmake -S . -B $b -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="$sanitize -O1 -DPOLYCUBE_TEST_FULL" >$b.configure.log 2>&1 || { cat $b.configure.log >&2; exit 1; }
cmake --build $b -j"$JOBS" >$b.build.log 2>&1 || { tail -30 $b.build.log >&2; exit 1; }
# (cli_reliability runs the CLI under ulimit -v, which AddressSanitizer cannot start under.)
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir $b --output-on-failure -j"$JOBS" \
    -E "cli_reliability" ||
  failed+=("C++ under ASan+UBSan, every test")

bash scripts/tsan.sh || failed+=("ThreadSanitizer")
bash scripts/fuzz.sh "${NIGHTLY_FUZZ_SECONDS:-600}" || failed+=("fuzz")

if ((${#failed[@]})); then
  echo "nightly: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "nightly: all passed"
