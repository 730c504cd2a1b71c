#!/usr/bin/env bash
# The CLI under hostile input, signals and failing output (issue 11). Run by ctest
# (tests/cpp/CMakeLists.txt: cli_reliability) as: cli_reliability.sh POLYCUBE REPO_ROOT
# Every check has a time limit (timeout), so a hang fails the test instead of stalling it.
source "$(dirname "$0")/lib.sh"
hostile=$root/tests/hostile
now_ms() { date +%s%3N; }

# Standard input a directory: a message and exit 1 (was an uncaught exception, exit 134).
expect_exit "stdin is a directory" 1 "standard input is a directory" timeout 5 "$cli" -q < /tmp
expect_exit "file is a directory" 1 "is a directory" timeout 5 "$cli" -q -- /tmp
# Endless input: refused once past the 16 MB limit while reading (was read without bound).
t0=$(now_ms)
expect_exit "/dev/zero" 1 "more than the limit of 16777216 bytes" timeout 5 "$cli" -q /dev/zero
(( $(now_ms) - t0 < 2000 )) || fail "/dev/zero took $(( $(now_ms) - t0 )) ms"
expect_exit "endless stdin" 1 "more than the limit" timeout 5 bash -c "yes '# comment' | '$cli' -q"
# A full disk: the output is lost, so exit 1 with a message (was exit 0).
expect_exit "stdout /dev/full (-q --json)" 1 "cannot write the output" timeout 10 bash -c "'$cli' -q --json '$root/def/soma.txt' > /dev/full"
expect_exit "stdout /dev/full (solutions)" 1 "cannot write the output" timeout 10 bash -c "'$cli' '$root/def/pentominoes_10x6.txt' > /dev/full"
expect_exit "stdout /dev/full (--help)" 1 "cannot write the output" timeout 10 bash -c "'$cli' --help > /dev/full"
# Too large for memory: refused before allocating, with the size and the limit.
expect_exit "memory limit" 1 "need about 1031 MiB of memory, more than the limit of 768 MiB" timeout 20 "$cli" -q "$hostile/random165.txt"

# signal_case NAME SIGNAL DELAY EXPECTED_EXIT PHASE OPTIONS_AND_FILE...: start the CLI, send
# the signal after DELAY seconds (timeout(1) forwards it to the CLI), and require the exit
# within 200 ms with the partial statistics (-i) and the JSON line saying "cancelled" in PHASE.
signal_case() {
  local name=$1 sig=$2 delay=$3 want=$4 phase=$5; shift 5
  # The CLI itself, not under timeout(1), which may deliver the signal twice (to the child and
  # to its process group): a second signal kills by design, with no statistics. A watchdog
  # kills a CLI that does not end.
  "$cli" -q -i --json "$@" >"$tmp/out" 2>"$tmp/err" &
  local pid=$!
  ( sleep 60; kill -9 "$pid" 2>/dev/null ) >/dev/null 2>&1 &  # off the test's output: ctest waits for it
  local watchdog=$!
  sleep "$delay"
  local t0; t0=$(now_ms)
  kill -s "$sig" "$pid" 2>/dev/null
  wait "$pid"
  local rc=$? dt=$(( $(now_ms) - t0 ))
  kill "$watchdog" 2>/dev/null; wait "$watchdog" 2>/dev/null
  if [[ $rc -ne $want ]]; then fail "$name: exit $rc, expected $want ($(head -c 300 "$tmp/err"))"; return; fi
  if (( dt > 200 )); then
    # Once more before failing: on a shared 2-core machine (ctest -j2 beside other programs)
    # the exit itself can wait for a CPU; a CLI that is really slow to stop is slow twice.
    if [[ -z ${slow_retried:-} ]]; then
      echo "note: $name: exited $dt ms after SIG$sig; trying once more"
      slow_retried=1 signal_case "$name (again)" "$sig" "$delay" "$want" "$phase" "$@"
      return
    fi
    fail "$name: exited $dt ms after SIG$sig"; return
  fi
  if ! grep -q '"state":"cancelled"' "$tmp/out"; then
    # Nothing printed at all: the signal came before setup began (reading and parsing end at
    # once, by design, with no statistics yet), which happens when a loaded machine starts
    # the process late. Try once more, later.
    if [[ ! -s $tmp/out && -z ${retried:-} ]]; then
      retried=1 signal_case "$name (again, later)" "$sig" "$(awk -v d="$delay" 'BEGIN { print d * 3 }')" "$want" "$phase" "$@"
      return
    fi
    fail "$name: no JSON line with \"state\":\"cancelled\""; return
  fi
  if ! grep -q "\"phase\":\"$phase\"" "$tmp/out"; then
    # Meant for the search but still in the setup: a loaded machine (CI beside other work) set
    # up slower. Once more, later; a CLI that never leaves the setup fails twice.
    if [[ $phase == search ]] && grep -q '"phase":"setup"' "$tmp/out" && [[ -z ${late_retried:-} ]]; then
      late_retried=1 signal_case "$name (again, later)" "$sig" "$(awk -v d="$delay" 'BEGIN { print d * 3 }')" "$want" "$phase" "$@"
      return
    fi
    fail "$name: not cancelled in $phase: $(grep -o '"phase":"[a-z]*"' "$tmp/out")"; return
  fi
  if ! grep -q '^SETUP_SECONDS=' "$tmp/out"; then fail "$name: no partial statistics"; return; fi
  ok "$name ($dt ms)"
}

# Each hostile case, cancelled in setup and in the search, by SIGINT (130) and SIGTERM (143).
signal_case "SIGINT in setup (1.1 million images)" INT 0.15 130 setup "$hostile/random100.txt"
signal_case "SIGTERM in setup" TERM 0.15 143 setup "$hostile/random100.txt"
signal_case "SIGINT in the search (10 ms placements)" INT 1.5 130 search "$hostile/random100.txt"
signal_case "SIGTERM in the fit filter" TERM 1.5 143 search -F1 "$hostile/random100.txt"
# Later in the setup (the matrix being linked) the statistics read per-level counters not yet
# sized: SIGTERM at 0.2-0.4 s crashed (exit 139) instead of reporting. Any phase is fine here.
# (The CLI itself here; timeout(1) below.)
for delay in 0.2 0.3 0.4; do
  "$cli" -q -i --json "$hostile/random100.txt" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  sleep "$delay"
  kill -s TERM "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
  if [[ $rc -eq 143 ]] && grep -q '"state":"cancelled"' "$tmp/out"; then ok "SIGTERM at $delay s: exit 143 with the JSON line"
  else fail "SIGTERM at $delay s: exit $rc ($(head -c 200 "$tmp/err"))"; fi
done
# One stop sent twice at once, as timeout(1) does (to the child, then to its process group):
# the second copy is the same stop, not the second Ctrl-C that kills (QA: 1 run in 30 of
# `timeout -s INT` lost the statistics, the JSON line and the checkpoint).
for round in 1 2 3; do
  for delay in 0.4 1.2; do  # (later when a loaded machine was still in the setup: no checkpoint then, by design)
    rm -f "$tmp/twice.ck"
    "$cli" -q -r -j 1 --json --checkpoint "$tmp/twice.ck" "$root/def/tetriscube.txt" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    sleep "$delay"
    kill -s INT "$pid" 2>/dev/null; kill -s INT "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    grep -q '"phase":"setup"' "$tmp/out" || break
  done
  if [[ $rc -eq 130 ]] && grep -q '"state":"cancelled"' "$tmp/out" && [[ -s $tmp/twice.ck ]]; then ok "SIGINT twice at once ($round): exit 130, the JSON line and the checkpoint"
  else fail "SIGINT twice at once ($round): exit $rc, $(wc -c <"$tmp/out") bytes out, checkpoint $([[ -s $tmp/twice.ck ]] && echo kept || echo missing) ($(head -c 200 "$tmp/err"))"; fi
done
if timeout -s INT 0.4 "$cli" -q -r -j 1 --json "$root/def/tetriscube.txt" >"$tmp/out" 2>"$tmp/err"; then fail "timeout -s INT: the search ended first"
elif grep -q '"state":"cancelled"' "$tmp/out"; then ok "timeout -s INT: the JSON line"
else fail "timeout -s INT: no JSON line ($(head -c 200 "$tmp/err"))"; fi
# --job stopped by Ctrl-C: says so, exit 130, and leaves no result (a partial one would merge wrong)
"$cli" -q -r --split 2 --jobs-out "$tmp/jobs" "$root/def/tetriscube.txt" >/dev/null 2>"$tmp/err" || fail "--split for the --job case: $(head -c 200 "$tmp/err")"
"$cli" -q -j 1 --job "$tmp/jobs/1.job" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 0.4
kill -s INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
if [[ $rc -eq 130 ]] && grep -q interrupted "$tmp/err" && [[ ! -e $tmp/jobs/1.result ]]; then ok "--job stopped by SIGINT: exit 130, no result"
else fail "--job stopped by SIGINT: exit $rc, result $([[ -e $tmp/jobs/1.result ]] && echo written || echo none) ($(head -c 200 "$tmp/err"))"; fi

# Monte Carlo trials that place nothing looped for hours; the puzzle is now proved impossible
# before searching (tests/cpp/hostile_test.cpp tests the restart itself with the proofs off).
t0=$(now_ms)
if timeout 5 "$cli" -q --json -s 1000000000000,0 "$hostile/nofit.txt" 2>"$tmp/err" | grep -q '"impossibleBy":"fits nowhere"'; then
  ok "Monte Carlo on a puzzle where nothing fits ends at once ($(( $(now_ms) - t0 )) ms)"
else
  fail "Monte Carlo on a puzzle where nothing fits did not end with the proof"
fi
signal_case "SIGTERM in filters after every placement" TERM 0.5 143 search -P 3 -V 3 -F 5 "$root/def/hexomino_box_in_diamond.txt"
signal_case "SIGINT in a long search" INT 0.5 130 search -r "$root/def/tetriscube.txt"

# SIGINT while reading (standard input that never ends): exit 130 at once, with a message.
timeout 60 "$cli" -q < <(sleep 20) >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 0.3
t0=$(now_ms)
kill -INT "$pid"
wait "$pid"
rc=$?
dt=$(( $(now_ms) - t0 ))
if [[ $rc -ne 130 ]]; then fail "SIGINT while reading: exit $rc"
elif (( dt > 200 )); then fail "SIGINT while reading: $dt ms"
elif ! grep -q interrupted "$tmp/err"; then fail "SIGINT while reading: no message"
else ok "SIGINT while reading ($dt ms)"; fi

# A second Ctrl-C kills: with standard output a pipe nobody reads, the CLI blocks writing
# solutions; the first SIGINT cancels the search but the write still blocks, the second
# must end the process (the handler is reset after the first).
mkfifo "$tmp/fifo"
exec 7<>"$tmp/fifo"   # a reader that never reads: writes block once the pipe is full
"$cli" "$root/def/pentominoes_10x6.txt" >"$tmp/fifo" 2>"$tmp/err" &
pid=$!
sleep 0.5
kill -INT "$pid"
sleep 0.3
if ! kill -0 "$pid" 2>/dev/null; then
  fail "second Ctrl-C: the first one already ended it (the test needs a blocked writer)"
else
  kill -INT "$pid"
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.01; done
  if kill -0 "$pid" 2>/dev/null; then fail "second Ctrl-C did not kill"; kill -KILL "$pid"
  else ok "second Ctrl-C kills"; fi
fi
wait "$pid" 2>/dev/null
exec 7>&-

# -j 2 where a placement is slow: 5000 1x20 bars in a 1000x100 box cost ~2 ms a placement,
# far more than the solver estimates, and the second thread's slice of 32768 budget units
# took over a second: SIGINT to exit 0.44-0.88 s (QA), against 12-22 ms at -j 1. Slices are
# now bounded in time and cancel reaches every thread's solver.
bar=$(printf '%s, ' $(for x in $(seq 0 19); do echo "$x 0 0"; done | tr ' ' '_') | sed 's/_/ /g; s/, $//')
printf 'D:xDim=1000:yDim=100:zDim=1\nC:name=A:count=5000:layout=%s\n~D\n' "$bar" > "$tmp/bar5000.txt"
signal_case "SIGINT in a -j 2 search of slow placements" INT 2.0 130 search -j 2 "$tmp/bar5000.txt"

# Memory: each thread's solver is a copy (random100: 345 MB at -j 1, 2.75 GB at -j 8), and
# under ulimit -v a std::bad_alloc escaped and aborted (exit 134, "terminate called"). Now the
# threads are capped to what fits (JSON "threads" < 8) and SIGINT still ends it with 130.
bash -c "ulimit -v 2000000; exec '$cli' -q --json -j 8 '$hostile/random100.txt'" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 4
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
threads=$(grep -o '"threads":[0-9]*' "$tmp/out" | cut -d: -f2)
if [[ $rc -ne 130 ]]; then fail "-j 8 under ulimit -v 2000000: exit $rc ($(head -c 300 "$tmp/err"))"
elif grep -q "terminate called" "$tmp/err"; then fail "-j 8 under ulimit -v: an exception escaped"
elif [[ -z $threads || $threads -ge 8 ]]; then fail "-j 8 under ulimit -v 2000000: $threads threads (expected fewer, capped by memory)"
else ok "-j 8 under ulimit -v 2000000: $threads threads, no abort"; fi

if (( failures )); then echo "$failures check(s) failed"; exit 1; fi
echo "all CLI reliability checks passed"
