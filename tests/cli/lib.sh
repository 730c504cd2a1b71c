# Shared by the CLI test scripts (tests/cli/*.sh, run by ctest as SCRIPT POLYCUBE REPO_ROOT):
# the arguments, a scratch directory removed on exit, and the pass/fail bookkeeping; `finish`
# ends the script with the verdict. Also what several scripts compare: a --json line's totals
# and the solutions printed, as a sorted set.
set -uo pipefail
cli=$1
root=$2
tmp=$(mktemp -d)
# Removed by this shell only. A background command signalled before its exec (bash forks, then
# execs) is still a copy of this shell, with this shell's traps: without the test, that copy
# removed the directory under the script, which went on without it.
trap '[[ $BASHPID != "$$" ]] || rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
finish() { (( failures == 0 )) || { echo "$failures check(s) failed"; exit 1; }; }
# expect_exit NAME CODE PATTERN COMMAND...: the command exits with CODE, a line of its stderr
# matches PATTERN (grep -E), and no exception escaped ("terminate called").
expect_exit() {
  local name=$1 code=$2 pattern=$3; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -ne $code ]]; then fail "$name: exit $rc, expected $code ($(head -c 300 "$tmp/err"))"; return; fi
  if ! grep -qE -- "$pattern" "$tmp/err"; then fail "$name: stderr '$(head -c 300 "$tmp/err")' lacks /$pattern/"; return; fi
  if grep -q "terminate called" "$tmp/err"; then fail "$name: an exception escaped"; return; fi
  ok "$name"
}
# "fits":N "placements":N "solutions":N of the --json lines in FILE.
totals() { grep -o '"solutions":[0-9]*\|"placements":[0-9]*\|"fits":[0-9]*' "$1" | sort | tr '\n' ' '; }
# The solutions printed in FILES, each as its rows without its number line, sorted.
solution_set() { awk '/^# --- SOLUTION/ { if (s != "") print s; s = ""; next } /^[^#{]/ { s = s $0 "|" } END { if (s != "") print s }' "$@" | sort; }

# Time in these scripts: a loaded machine can keep a process waiting for a CPU for seconds,
# so no check reads the wall clock or bounds a time. What a process did is read from what it
# printed; a signal is sent when the process has reached a state it shows (a line it printed,
# CPU it used (user + system, every thread: /proc/PID/stat), a file it wrote, blocked in a
# read or write), never after a sleep; wall-clock limits are hang guards of minutes only. A signal must also come after the process set up its
# handler: a background command of a script starts with SIGINT ignored (bash without job
# control), so a SIGINT before the handler is lost and the run goes on to its end. The states
# the scripts wait for come after it (the CLI installs it before reading its input).
mkfifo "$tmp/.nap"
exec {nap_fd}<>"$tmp/.nap"  # nobody writes it: a read with -t waits that long, without a fork
nap() { read -r -t "$1" -u "$nap_fd" _ || true; }
tick_ms=$(( 1000 / $(getconf CLK_TCK) ))
# proc_stat PID: sets stat_state (R, S, D, Z...) and stat_cpu_ms (user + system CPU so far,
# every thread, in 10 ms steps) from /proc/PID/stat, with builtins only (no fork between the
# reading and what the caller does next); fails once PID is gone.
proc_stat() {
  local line f
  read -r line 2>/dev/null <"/proc/$1/stat" || return 1
  read -ra f <<<"${line##*) }"  # after "PID (comm) ", which may hold spaces: f[0] is field 3
  stat_state=${f[0]}
  stat_cpu_ms=$(( (f[11] + f[12]) * tick_ms ))  # utime (field 14) + stime (15)
}
# children_cpu: sets children_ms to the CPU time of this shell's reaped children so far, in
# ms (bash's `times`, second line; not in $(...), whose subshell has children of its own).
# The difference around one `wait PID`, with no other child ended between, is that child's
# whole CPU.
children_cpu() {
  times >"$tmp/.times"
  local shell user sys
  { read -r shell; read -r user sys; } <"$tmp/.times"
  children_ms=0
  local t
  for t in "$user" "$sys"; do  # "1m2.345s": 62345 ms
    [[ $t =~ ^([0-9]+)m([0-9]+)\.([0-9]{3}) ]] || continue
    children_ms=$(( children_ms + 10#${BASH_REMATCH[1]} * 60000 + 10#${BASH_REMATCH[2]} * 1000 + 10#${BASH_REMATCH[3]} ))
  done
}
# cpu_after_signal PID SIGNAL: send SIGNAL to the running child PID and reap it; sets rc
# (its exit status) and after_ms (the CPU it used from the signal to its end: its whole CPU,
# counted when reaped, minus what it had used just before the signal).
cpu_after_signal() {
  local pid=$1 sig=$2 before
  children_cpu
  local c0=$children_ms
  proc_stat "$pid"; before=$stat_cpu_ms
  kill -s "$sig" "$pid" 2>/dev/null
  wait "$pid"; rc=$?
  children_cpu
  after_ms=$(( children_ms - c0 - before ))
  (( after_ms >= 0 )) || after_ms=0  # (the 10 ms steps of /proc against `times`' 1 ms)
}
# wait_until GUARD_SECONDS PID COMMAND...: poll COMMAND (true when the awaited state is
# reached) every 10 ms while PID lives; fails when PID ended first or after GUARD_SECONDS
# of wall time (a hang guard).
wait_until() {
  local guard=$1 pid=$2 n; shift 2
  for (( n = 0; n < guard * 100; n++ )); do
    "$@" && return 0
    proc_stat "$pid" && [[ $stat_state != Z ]] || return 1  # ended (a zombie until reaped)
    nap 0.01
  done
  return 1
}
used_cpu() { proc_stat "$1" && (( stat_cpu_ms >= $2 )); }               # PID MS
# shows FILE TEXT: the process wrote TEXT to FILE (read with builtins: no fork per poll). The
# caller empties FILE before starting the process: what an earlier run left there would show
# at once, before the process even began.
shows() { local t=; read -r -d '' t <"$1"; [[ $t == *"$2"* ]]; }
# blocked_in PID WHAT: sleeping in the kernel function WHAT; the name may carry a prefix
# (Linux 6 says anon_pipe_read for a FIFO as for a pipe, older kernels pipe_read).
blocked_in() {
  local w; proc_stat "$1" && [[ $stat_state == S ]] && { read -r w <"/proc/$1/wchan" || [[ -n $w ]]; } 2>/dev/null && [[ $w == "$2" || $w == *_"$2" ]]
}
