# Shared by the CLI test scripts (tests/cli/*.sh, run by ctest as SCRIPT POLYCUBE REPO_ROOT):
# the arguments, a scratch directory removed on exit, and the pass/fail bookkeeping; `finish`
# ends the script with the verdict. Also what several scripts compare: a --json line's totals
# and the solutions printed, as a sorted set.
set -uo pipefail
cli=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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
