#!/usr/bin/env bash
# Install what a fresh Debian bookworm machine lacks to build, run and test polycube-web,
# then the npm packages. Idempotent and quiet when there is nothing to do.
#
#   bash scripts/setup.sh
#
# As root: runs `apt-get update` once (only when something is missing) and installs the
# missing packages. As another user: prints exactly what to install and exits 1.
# Then `npm ci` when node_modules is missing or package-lock.json is newer than it.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'setup: %s\n' "$*"; }

# package -> how to tell it is present (a command on PATH, or the dpkg package itself)
missing=()
need_pkg() {  # need_pkg PACKAGE [COMMAND]
  local pkg=$1 cmd=${2:-}
  if [[ -n $cmd ]] && command -v "$cmd" >/dev/null 2>&1; then return; fi
  if [[ $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) == "install ok installed" ]]; then return; fi
  missing+=("$pkg")
}

need_pkg cmake cmake
need_pkg g++ g++
need_pkg make make
need_pkg libgtest-dev
need_pkg libgmock-dev
need_pkg nlohmann-json3-dev
need_pkg clang clang++               # the native build's compiler, and the fuzzers (libFuzzer)
need_pkg libclang-rt-14-dev          # libFuzzer and the sanitizer runtimes for clang 14
need_pkg emscripten emcc
need_pkg chromium chromium
need_pkg fonts-liberation        # chromium's recommended fonts (we install without recommends)
need_pkg parallel parallel           # GNU parallel: the tests run --split job files with it (docs/parallel-search.md)
need_pkg nodejs node
need_pkg npm npm

if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: missing packages: ${missing[*]}" >&2
    echo "setup: install them as root with:" >&2
    echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  log "installing ${missing[*]} (apt-get; output in build-setup.log)"
  export DEBIAN_FRONTEND=noninteractive
  if ! { apt-get update && apt-get install -y --no-install-recommends "${missing[@]}"; } >build-setup.log 2>&1; then
    tail -n 30 build-setup.log >&2
    echo "setup: apt-get failed (full log: build-setup.log)" >&2
    exit 1
  fi
fi

# Vite 8 needs node >= 20.19 (Debian bookworm's own nodejs is 18: use NodeSource's 20.x).
node_version=$(node -p 'process.versions.node')
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)'; then
  echo "setup: node $node_version is too old: Vite 8 and vitest 4 need node >= 20.19" >&2
  exit 1
fi

# npm packages (committed package-lock.json).
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  log "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
