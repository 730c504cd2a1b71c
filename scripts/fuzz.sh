#!/usr/bin/env bash
# Fuzz the engine: the libFuzzer targets of fuzz/ (definition text through Session::load and a
# short search; option strings through Session::start; checkpoint, job and result files as
# --resume, --job and --merge read them), built with clang under AddressSanitizer
# and UndefinedBehaviorSanitizer in build-sanitize/ (shared with the sanitized C++ tests of
# scripts/test.sh), and the JavaScript fuzz loops of
# tests/js/fuzz.test.js (share-link decoding, worker messages through the protocol handler, the
# pool's message sequences).
#
#   bash scripts/fuzz.sh 60        # each of the five for about 60 seconds
#
# Seeds: def/*.txt, tests/hostile/*.txt (the small ones), fuzz/corpus/options/ and
# fuzz/corpus/own_files/ (a split of def/soma.txt, checkpoints of a short run). What the
# fuzzers add is kept in build-sanitize/corpus/ (not committed) and reused by the next run; a
# crash leaves its input in build-sanitize/ (crash-*) and fails the script. Prints the
# executions. BUILD_ONLY=1 configures and builds without fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
[[ $seconds =~ ^[0-9]+$ && $seconds -gt 0 ]] || { echo "usage: $0 SECONDS" >&2; exit 2; }
JOBS=${JOBS:-2}
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

cxx=$(command -v clang++ || true)
if [[ -z $cxx ]]; then echo "fuzz: clang++ is needed (bash scripts/setup.sh installs it)" >&2; exit 1; fi
# One sanitized build for the fuzzers and the C++ tests (coverage instrumentation is harmless
# in the tests), so the engine is compiled once.
b=build-sanitize
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link"
mkdir -p $b
if ! cmake -S . -B $b -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" \
     -DPOLYCUBE_FUZZ=ON -DCMAKE_CXX_FLAGS="$sanitize -O1" >$b/configure.log 2>&1; then
  cat $b/configure.log >&2; exit 1
fi
cmake --build $b -j"$JOBS" ${TARGETS---target definition_fuzzer options_fuzzer own_files_fuzzer} >$b/build.log 2>&1 || { tail -30 $b/build.log >&2; exit 1; }
[[ -n ${BUILD_ONLY:-} ]] && exit 0

mkdir -p $b/corpus/definition $b/corpus/options $b/corpus/own_files
cp def/*.txt $b/corpus/definition/
for f in tests/hostile/*.txt; do
  # the big random puzzles take seconds each to compile: the small ones seed well enough
  (( $(wc -c <"$f") < 4000 )) && cp "$f" $b/corpus/definition/
done
cp fuzz/corpus/options/* $b/corpus/options/
cp fuzz/corpus/own_files/* $b/corpus/own_files/

status=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for target in definition options own_files; do
  # -rss_limit_mb: the engine refuses puzzles past its own limits well below this. -max_len:
  # the seeds' size (a checkpoint of the Soma cube is about 9 KB).
  log=$b/$target.log
  maxlen=4096
  [[ $target == own_files ]] && maxlen=16384
  if ./$b/fuzz/${target}_fuzzer -max_total_time="$seconds" -timeout=10 -rss_limit_mb=3072 -max_len=$maxlen \
       -artifact_prefix=$b/ -print_final_stats=1 $b/corpus/$target >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz: $target: $runs executions in ${seconds} s, no finding (corpus $(ls $b/corpus/$target | wc -l) inputs)"
  else
    echo "fuzz: $target: FINDING (log: $log)" >&2
    grep -E "ERROR|runtime error|SUMMARY|Test unit written" "$log" | head -10 >&2
    status=1
  fi
done

# The JavaScript fuzz loops (vitest), each for about `seconds`.
if POLYCUBE_FUZZ_SECONDS=$seconds npx vitest run tests/js/fuzz.test.js >$b/js.log 2>&1; then
  sed 's/\x1b\[[0-9;]*m//g' $b/js.log | grep -E "^fuzz:" || true
  echo "fuzz: JavaScript loops: no finding"
else
  echo "fuzz: JavaScript loops: FINDING (log: $b/js.log)" >&2
  tail -40 $b/js.log >&2
  status=1
fi
exit $status
