#!/usr/bin/env bash
# The automatic choice's race (engine/memo/count_race.hpp) on the command line: a -q count the
# forecast leaves to the enumerating search, whose layers take over (one-sided pentominoes 18x5:
# -i says so and why, the count is exact; measured in attempts, POLYCUBE_RACE_UNITS=attempts,
# so the race runs the same way every time); on two threads (the clock's race: the count,
# whichever way it went); --no-memo never races; a signal during the race stops both.
# Usage: cli_race.sh POLYCUBE REPO_ROOT
source "$(dirname "$0")/lib.sh"
def="$root/def"
# Hang guards: a sanitized CLI (POLYCUBE_SANITIZED, set by ctest in build-sanitize) takes about
# a minute per 18x5 count on an idle machine, several under a loaded ctest -j.
guard=120
[[ -n ${POLYCUBE_SANITIZED:-} ]] && guard=600

POLYCUBE_RACE_UNITS=attempts timeout $guard "$cli" -q -i -r -j 1 "$def/pentominoes_1s_18x5.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '^SOLUTIONS=686628$' "$tmp/out" && grep -q '^# The enumerating search stopped' "$tmp/out" &&
  grep '^COUNTING=' "$tmp/out" | tail -1 | grep -q '^COUNTING=memoized after the enumerating search did [0-9.]*%: the layers forecast' &&
  grep -q '^MEMO_LAYERED_TERMS=1$' "$tmp/out" &&
  ok "-j 1: 18x5 -r taken over by the layers, 686628" || fail "18x5 race: $(head -c 800 "$tmp/out") $(cat "$tmp/err")"
# The repetition runs the same lines again: the optimised build checks it, the sanitized one
# saves its minute.
if [[ -n ${POLYCUBE_SANITIZED:-} ]]; then ok "-j 1 in attempts: the same race again: left out (sanitized)"
else
  POLYCUBE_RACE_UNITS=attempts timeout $guard "$cli" -q -i -r -j 1 "$def/pentominoes_1s_18x5.txt" >"$tmp/again" 2>"$tmp/err"
  [[ $(grep '^COUNTING=' "$tmp/again") == $(grep '^COUNTING=' "$tmp/out") ]] &&
    ok "-j 1 in attempts: the same race again" || fail "race not repeated: $(grep '^COUNTING=' "$tmp/out" "$tmp/again")"
fi

timeout $guard "$cli" -q --json -r -j 2 "$def/pentominoes_1s_18x5.txt" >"$tmp/out" 2>"$tmp/err"
[[ $(wc -l <"$tmp/out") == 1 ]] && grep -q '"solutions":686628' "$tmp/out" && grep -q '"state":"done"' "$tmp/out" &&
  ok "-j 2 --json: 18x5 -r counts 686628, one line" || fail "-j 2 race: $(cat "$tmp/out" "$tmp/err")"

timeout $guard "$cli" -q -i -r -j 1 --no-memo "$def/pentominoes_10x6.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '^SOLUTIONS=2339$' "$tmp/out" && ! grep -q '^COUNTING\|^MEMO_' "$tmp/out" &&
  ok "--no-memo: no race" || fail "--no-memo: $(head -c 400 "$tmp/out")"

# SIGINT while the race runs (the probe starts after 3e7 attempts, about half a second of the
# Tetris Cube's search): cancelled, with the search's statistics, exit 130.
POLYCUBE_RACE_UNITS=attempts "$cli" -q --json -r -j 1 "$def/tetriscube.txt" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_until 900 "$pid" used_cpu "$pid" 1500
kill -INT $pid
wait $pid
rc=$?
[[ $rc -eq 130 ]] && grep -q '"state":"cancelled"' "$tmp/out" && grep -q '"counting":"enumerating' "$tmp/out" &&
  ok "SIGINT during the race: cancelled, exit 130" || fail "SIGINT: exit $rc, $(cat "$tmp/out" "$tmp/err")"
finish
