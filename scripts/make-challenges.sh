#!/usr/bin/env bash
# Write def/challenges.json: a handful of challenges (start positions with one way to finish)
# for each library puzzle that has a solution, made by the engine (tools/challenges.cpp;
# engine/play/challenge.hpp says how). Deterministic: the same engine writes the same file.
# tests/cpp/play_test.cpp (Challenges.TheLibrarysAreUnique) checks every one of them.
#
#   bash scripts/build.sh native && bash scripts/make-challenges.sh
# (the generator is not part of the default build: this script builds it in build/)
set -euo pipefail
cd "$(dirname "$0")/.."
tool=build/tools/polycube-challenges
[[ -f build/CMakeCache.txt ]] || { echo "make-challenges: build/ is not configured: run bash scripts/build.sh native" >&2; exit 1; }
cmake --build build --target polycube-challenges -j"${JOBS:-2}" >/dev/null
# The library's puzzles with solutions, quick ones first (the impossible 15x14 hexominoes have
# none; the Box-in-a-Diamond's first solution takes longer than a generator should wait).
files=(
  def/pentominoes_10x6.txt def/pentominoes_1s_30x3.txt def/soma.txt def/pentominoes_8x8_hole.txt
  def/tetriscube.txt def/bedlam.txt def/pentominoes_1s_18x5.txt def/diamond_13x13_pt.txt
)
"$tool" "$@" "${files[@]}" > def/challenges.json.tmp
mv def/challenges.json.tmp def/challenges.json
echo "make-challenges: def/challenges.json written"
