#!/usr/bin/env bash
# ThreadSanitizer over the multi-threaded code: polycube -j (ParallelSearch: the
# pool, donation, progress, checkpointed pieces; ParallelMemo: --memo -j's threads, their
# published shares and shared cancel, without its corpus test) in the C++ tests that run threads, built with
# clang -fsanitize=thread in build-tsan/. Exits non-zero on a reported race.
#
#   bash scripts/tsan.sh            # a full clang build, then the threaded tests: minutes
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}
cxx=$(command -v clang++ || true)
[[ -n $cxx ]] || { echo "tsan: clang++ is needed (bash scripts/setup.sh installs it)" >&2; exit 1; }
b=build-tsan
mkdir -p $b
cmake -S . -B $b -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" -DPOLYCUBE_TSAN=ON \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread -O1" >$b/configure.log 2>&1 || { cat $b/configure.log >&2; exit 1; }
cmake --build $b -j"$JOBS" --target polycube_tests >$b/build.log 2>&1 || { tail -30 $b/build.log >&2; exit 1; }
# halt_on_error: the first race fails the run; second_deadlock_stack: both stacks of a lock inversion.
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  $b/tests/cpp/polycube_tests --gtest_filter='Parallel.*:Checkpoint.*:Progress.*:ParallelMemo.*-ParallelMemo.ThreadsCountWhatOneThreadCounts'
