#!/usr/bin/env bash
# Benchmark (npm run bench): build the optimised native CLI and the WebAssembly module, then
# time every reference puzzle natively and in Node (bench/run.mjs) and write bench/RESULTS.md.
#
#   BENCH_MAX_SECONDS=120   time limit per run (runs cut there are reported as such)
#   BENCH_ONLY=tetris,soma  only puzzles whose file name contains one of these
#   BENCH_SKIP_WASM=1       native only (the wasm build is skipped too)
#   BENCH_SKIP_PARALLEL=1   skip the parallel tables (bench/PARALLEL.md: polycube -j;
#                           bench/POOL.md: the page's worker pool in Chromium; minutes each)
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

if [[ ${BENCH_SKIP_WASM:-} =~ ^(1|true|yes)$ ]]; then
  bash scripts/build.sh native
else
  bash scripts/build.sh all
fi
# Eager optimising wasm compilation: V8 otherwise runs baseline (Liftoff) code first and tiers
# up while running, which dominates runs of a few hundredths of a second such as 10x6 (the
# figures are in bench/README.md).
node --no-wasm-lazy-compilation --no-liftoff bench/run.mjs
if [[ ! ${BENCH_SKIP_PARALLEL:-} =~ ^(1|true|yes)$ ]]; then
  # One search on several threads and in the page's worker pool: speed-ups in one
  # run per table, as ratios (bench/README.md).
  node bench/parallel.mjs
  [[ ${BENCH_SKIP_WASM:-} =~ ^(1|true|yes)$ ]] || node bench/pool.mjs
fi
