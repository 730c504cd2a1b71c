#!/usr/bin/env bash
# Checkpoints (issue 10): a search stopped at random points (SIGTERM, SIGINT, SIGKILL) and
# resumed until done gives exactly the uninterrupted totals (solutions, placements, fits);
# after SIGTERM/SIGINT the solutions printed before and after are the uninterrupted set, none
# twice. A checkpoint of another search, a damaged or truncated one, and a search that cannot
# be split are refused with a message. Usage: cli_checkpoint.sh POLYCUBE REPO_ROOT
source "$(dirname "$0")/lib.sh"
export POLYCUBE_CHECKPOINT_SECONDS=0.1
puzzle="$root/def/pentominoes_10x6.txt"   # -r -o s: plain DLX, 2339 solutions in ~1.4 s

"$cli" -r -o s -j 1 --json "$puzzle" >"$tmp/full.out" || fail "uninterrupted run"
want=$(totals "$tmp/full.out")
solution_set "$tmp/full.out" >"$tmp/full.set"
[[ $(wc -l <"$tmp/full.set") -eq 2339 ]] || fail "uninterrupted run: $(wc -l <"$tmp/full.set") solutions"

interrupted_run() {  # NAME JOBS SIGNALS...: stop with each signal in turn at a random point, then finish
  local name=$1 jobs=$2; shift 2
  rm -f "$tmp/ck" "$tmp"/part*.out
  local k=0 sig delay rc stopped=0
  for sig in "$@"; do
    # A random point of the run, in the process's CPU time (not wall time: a loaded machine
    # would make it a point of the setup, or of nothing yet, far more often): 150-640 ms.
    delay=$(( 150 + RANDOM % 50 * 10 ))
    local resume=()
    [[ -f $tmp/ck ]] && resume=(--resume "$tmp/ck")
    "$cli" -r -o s -j "$jobs" --json --checkpoint "$tmp/ck" "${resume[@]}" "$puzzle" >"$tmp/part$k.out" 2>"$tmp/part$k.err" &
    local pid=$!
    # SIGKILL keeps only what a checkpoint holds, and the runs write one every
    # POLYCUBE_CHECKPOINT_SECONDS of wall time: it waits for there to be one, or two runs
    # killed before their first (two threads reach 150 ms of CPU in 75 ms) would leave nothing
    # to resume.
    [[ $sig == KILL ]] && wait_until 300 "$pid" test -s "$tmp/ck"
    wait_until 300 "$pid" used_cpu "$pid" "$delay"  # (or until it ended; a hang guard of 300 s)
    kill -s "$sig" "$pid" 2>/dev/null
    { wait "$pid"; } 2>/dev/null; rc=$?
    (( rc != 0 )) && stopped=$((stopped + 1))
    # stopped by INT or TERM with its work written: it says where, and how to go on (QA)
    if (( rc == 130 || rc == 143 )) && [[ -f $tmp/ck ]] && ! grep -q "interrupted: in the setup" "$tmp/part$k.err"; then
      grep -q "the remaining work is in $tmp/ck (with the puzzle and its search options); go on with polycube --resume $tmp/ck" "$tmp/part$k.err" ||
        { fail "$name: SIG$sig: $(head -c 300 "$tmp/part$k.err")"; return; }
    fi
    if [[ ! -f $tmp/ck ]]; then
      # Stopped before its first checkpoint (a signal during setup, or a run that ended before
      # its SIGKILL): legitimate; the next run starts afresh.
      [[ $sig == KILL || ! -s $tmp/part$k.out ]] || { fail "$name: no checkpoint after SIG$sig at $delay ms of CPU (exit $rc: $(head -c 200 "$tmp/part$k.err"))"; return; }
      rm -f "$tmp/part$k.out"
    else
      resumed_total=$((resumed_total + 1))
    fi
    k=$((k + 1))
  done
  "$cli" -r -o s -j "$jobs" --json --resume "$tmp/ck" "$puzzle" >"$tmp/part$k.out" 2>"$tmp/part$k.err" || { fail "$name: last resume exited $? ($(head -c 300 "$tmp/part$k.err"))"; return; }
  local got; got=$(totals "$tmp/part$k.out")
  [[ $got == "$want" ]] || { fail "$name: totals $got, uninterrupted $want"; return; }
  if [[ " $* " != *" KILL "* ]]; then
    solution_set "$tmp"/part*.out >"$tmp/got.set"
    cmp -s "$tmp/full.set" "$tmp/got.set" || { fail "$name: the solutions printed are not the uninterrupted set ($(wc -l <"$tmp/got.set") of 2339 lines)"; return; }
  fi
  (( stopped > 0 )) || { fail "$name: no run was stopped before its end (a search of under 150 ms of CPU?)"; return; }
  ok "$name: totals equal ($got), $stopped of $# runs stopped midway"
}

resumed_total=0
interrupted_run "-j 1, SIGTERM" 1 TERM
interrupted_run "-j 2, SIGINT then SIGTERM" 2 INT TERM
interrupted_run "-j 1, SIGKILL then SIGTERM" 1 KILL TERM
interrupted_run "-j 2, SIGKILL twice" 2 KILL KILL
(( resumed_total > 0 )) && ok "$resumed_total stops left a checkpoint to resume" || fail "no stop left a checkpoint"

# Refusals.
expect_refusal() {  # NAME EXIT PATTERN ARGS...
  local name=$1 want=$2 pattern=$3; shift 3
  "$cli" "$@" >"$tmp/r.out" 2>"$tmp/r.err"; local rc=$?
  if [[ $rc -ne $want ]] || ! grep -q -- "$pattern" "$tmp/r.err"; then fail "$name: exit $rc, $(head -c 300 "$tmp/r.err")"; else ok "$name"; fi
}
"$cli" -q -r -o s -j 1 --checkpoint "$tmp/good" "$puzzle" >/dev/null 2>&1 || fail "checkpointed run"
expect_refusal "another puzzle's checkpoint" 1 "a checkpoint of another search" -q -r -j 1 --resume "$tmp/good" "$root/def/soma.txt"
expect_refusal "other options" 1 "a checkpoint of another search" -q -r -j 1 --resume "$tmp/good" "$puzzle"
sed 's/^solutions 2339/solutions 2338/' "$tmp/good" >"$tmp/damaged"
expect_refusal "a damaged checkpoint" 1 "damaged" -q -r -o s -j 1 --resume "$tmp/damaged" "$puzzle"
head -c 200 "$tmp/good" >"$tmp/cut"
expect_refusal "a truncated checkpoint" 1 "not a complete polycube checkpoint" -q -r -o s -j 1 --resume "$tmp/cut" "$puzzle"
expect_refusal "a missing checkpoint" 1 "resume" -q -r -o s --resume "$tmp/none" "$puzzle"
expect_refusal "a search that cannot be split" 2 "cannot be split" -q -r -l 5 --checkpoint "$tmp/x" "$puzzle"

# Stopped in the setup (seconds for 1.1 million images): nothing was searched, so nothing is
# written, the stderr line says so, and a checkpoint being resumed is left byte for byte.
stopped_in_setup() {  # NAME PATTERN ARGS...: SIGINT at 300 ms of CPU, of a setup of about 2 s
  local name=$1 pattern=$2; shift 2
  "$cli" -q --json "$@" "$root/tests/hostile/random100.txt" >"$tmp/s.out" 2>"$tmp/s.err" &
  local pid=$!
  wait_until 300 "$pid" used_cpu "$pid" 300
  kill -s INT "$pid" 2>/dev/null
  { wait "$pid"; } 2>/dev/null; local rc=$?
  grep -q '"phase":"setup"' "$tmp/s.out" || { fail "$name: not stopped in the setup ($(head -c 300 "$tmp/s.out"))"; return; }
  if [[ $rc -eq 130 ]] && grep -q -- "$pattern" "$tmp/s.err"; then ok "$name"; else fail "$name: exit $rc, $(head -c 300 "$tmp/s.err")"; fi
}
rm -f "$tmp/fresh"
stopped_in_setup "stopped in the setup: no checkpoint, and says why" "interrupted: in the setup, before the search began: no checkpoint written" --checkpoint "$tmp/fresh"
[[ ! -e $tmp/fresh ]] || fail "stopped in the setup: a checkpoint was written"
cp "$tmp/good" "$tmp/kept"
stopped_in_setup "stopped in the setup of a resume: the checkpoint is as it was" "interrupted: in the setup, before the search began: $tmp/good is as it was" --resume "$tmp/good"
cmp -s "$tmp/good" "$tmp/kept" || fail "stopped in the setup of a resume: the checkpoint changed"

# One run per checkpoint (QA: two --resume of one file at once searched the same pieces and
# wrote over each other's): the second is refused while the first runs; the lock file goes
# with the first run. The first is a search of hours (random60), stopped by the script: it
# cannot have ended when the second starts.
rm -f "$tmp/busy" "$tmp/busy.lock"
"$cli" -q -j 1 --checkpoint "$tmp/busy" "$root/tests/hostile/random60.txt" >/dev/null 2>&1 &
first=$!
wait_until 300 "$first" test -e "$tmp/busy.lock"
if "$cli" -q -j 1 --checkpoint "$tmp/busy" "$root/tests/hostile/random60.txt" >/dev/null 2>"$tmp/busy.err"; then
  fail "a second run on a checkpoint in use was not refused"
else
  grep -q "is in use by another polycube run" "$tmp/busy.err" && ok "a second run on a checkpoint in use is refused" || fail "second run: $(head -c 300 "$tmp/busy.err")"
fi
kill -INT "$first" 2>/dev/null
{ wait "$first"; } 2>/dev/null
[[ ! -e $tmp/busy.lock ]] && ok "the lock file goes with the run" || fail "the lock file stayed after the run"

finish
