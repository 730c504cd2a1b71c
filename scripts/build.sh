#!/usr/bin/env bash
# Build the native engine + CLI + C++ tests (build/) and the WebAssembly module
# (build-wasm/ -> web/wasm/polycube.mjs + polycube.wasm). Incremental: reuses the build dirs.
#
#   bash scripts/build.sh            # both
#   bash scripts/build.sh native     # build/cli/polycube, build/tests/cpp/polycube_tests
#   bash scripts/build.sh wasm       # web/wasm/
#
# JOBS (default 2) sets the parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS=${JOBS:-2}
# Debian's Emscripten 3.1.6 needs Debian's node modules (acorn) for optimised builds.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

# configure DIR COMMAND...: (re)configure, showing the output only when it fails.
configure() {
  local dir=$1; shift
  mkdir -p "$dir"
  if ! "$@" >"$dir/configure.log" 2>&1; then
    cat "$dir/configure.log" >&2
    echo "build: configuring $dir failed" >&2
    exit 1
  fi
}

what=${1:-all}
case $what in all | native | wasm) ;; *) echo "usage: $0 [all|native|wasm]" >&2; exit 2 ;; esac

if [[ $what == all || $what == native ]]; then
  # Compiler: POLYCUBE_CXX, else clang++ when installed (Debian's clang 14 makes the 3-D
  # searches 10-15% faster than g++ 12: Tetris Cube 3.7 s instead of 4.1 s, Bedlam 4.9 s
  # instead of 5.7 s; flat 128-bit boards are about 10% slower: 18x5 one-sided), else g++.
  cxx=${POLYCUBE_CXX:-$(command -v clang++ || command -v g++ || command -v c++ || true)}
  cached=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' build/CMakeCache.txt 2>/dev/null || true)
  if [[ -n $cached && -n $cxx && $cached != "$cxx" ]]; then
    rm -rf build/CMakeCache.txt build/CMakeFiles  # a compiler change needs a fresh cache
  fi
  configure build cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"}
  echo "build: native compiler $("${cxx:-c++}" --version | head -1)"
  cmake --build build -j"$JOBS"
  # The engine's rules for the page (options, limits, trace ops): rewritten when they change.
  mkdir -p web/src/generated
  build/tools/engine_rules web/src/generated/engine-rules.js
fi

if [[ $what == all || $what == wasm ]]; then
  configure build-wasm emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release
  cmake --build build-wasm -j"$JOBS"
  ls -l web/wasm/polycube.mjs web/wasm/polycube.wasm | awk '{ printf "build: %s %d bytes\n", $NF, $5 }'
fi
