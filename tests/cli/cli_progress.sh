#!/usr/bin/env bash
# --progress (issue 10): progress lines on standard error only, their percentages never going
# down, standard output unchanged; none when standard error is not a terminal and --progress
# is not given. Usage: cli_progress.sh POLYCUBE REPO_ROOT
source "$(dirname "$0")/lib.sh"
# A line every 50 ms of wall time, so that each run below (over a second of CPU, so at least
# half a second of wall time on two threads) shows several, however fast the machine.
export POLYCUBE_PROGRESS_SECONDS=0.05

# A search of several seconds: the 10x6 pentominoes with plain DLX, every solution printed.
puzzle="$root/def/pentominoes_10x6.txt"
"$cli" -j 1 -o s "$puzzle" >"$tmp/plain.out" 2>"$tmp/plain.err" || fail "plain run exited $?"
[[ -s $tmp/plain.err ]] && fail "progress without --progress on a non-terminal: $(head -c 200 "$tmp/plain.err")"

check_lines() {  # NAME FILE: at least 2 lines, each a progress line, percentages non-decreasing
  local name=$1 file=$2 last=-1 n=0 pct
  while IFS= read -r line; do
    # "polycube: about 35% done, ~40 s left (30-55 s), 12,345 solutions, 20 s elapsed"; a job's:
    # "polycube: --job DIR/2.job: about 35% done (of this job), ..."
    if [[ ! $line =~ ^polycube:(\ --job\ [^:]+:)?\ (about|under)\ ([0-9]+)(\.[0-9]+)?%\ done(\ \(of\ this\ job\))?(,\ (~[0-9.]+\ (s|min|h)|under\ 1\ s)\ left(\ \([^\)]*\))?)?(,\ [0-9,]+\ solutions?)?,\ [0-9.]+\ (s|min|h)\ elapsed$ ]]; then
      fail "$name: not a progress line: '$line'"; return
    fi
    pct=${BASH_REMATCH[3]}
    (( pct < last )) && { fail "$name: went down from $last% to $pct%"; return; }
    (( pct > 100 )) && { fail "$name: $pct%"; return; }
    last=$pct; n=$((n + 1))
  done <"$file"
  (( n >= 2 )) || { fail "$name: $n progress line(s)"; return; }
  ok "$name: $n lines, last $last%"
}

"$cli" -j 1 -o s --progress "$puzzle" >"$tmp/one.out" 2>"$tmp/one.err" || fail "--progress -j 1 exited $?"
cmp -s "$tmp/plain.out" "$tmp/one.out" && ok "-j 1: standard output unchanged" || fail "-j 1: standard output differs with --progress"
check_lines "-j 1" "$tmp/one.err"

"$cli" -j 2 -o s -q --json --progress "$puzzle" >"$tmp/two.out" 2>"$tmp/two.err" || fail "--progress -j 2 exited $?"
grep -q '"solutions":9356' "$tmp/two.out" && ok "-j 2: 9356 solutions" || fail "-j 2: $(cat "$tmp/two.out")"
check_lines "-j 2" "$tmp/two.err"

# --memo: the memoized count's share done (no number of solutions until it ends), on one
# thread and on two; standard output the same as without --progress.
"$cli" --memo -q --json -r "$puzzle" | sed 's/"[a-zA-Z]*[sS]econds":[0-9.e-]*//g' >"$tmp/memo.out" 2>/dev/null
for j in 1 2; do
  "$cli" --memo -q --json -r -j $j --progress "$puzzle" >"$tmp/memo$j.out" 2>"$tmp/memo$j.err" || fail "--memo --progress -j $j exited $?"
  grep -q '"solutions":2339' "$tmp/memo$j.out" && ok "--memo -j $j: 2339" || fail "--memo -j $j: $(cat "$tmp/memo$j.out")"
  grep -q 'solution' "$tmp/memo$j.err" && fail "--memo -j $j: a count in a progress line: $(head -3 "$tmp/memo$j.err")"
  check_lines "--memo -j $j" "$tmp/memo$j.err"
done
sed 's/"[a-zA-Z]*[sS]econds":[0-9.e-]*//g' "$tmp/memo1.out" | cmp -s - "$tmp/memo.out" &&
  ok "--memo: standard output unchanged" || fail "--memo: standard output differs with --progress"

# A job of a split shows how far its own pieces are (QA: --progress with --job showed nothing).
"$cli" -o s -q --split 2 --jobs-out "$tmp/jobs" "$puzzle" 2>/dev/null || fail "--split exited $?"
job=$(ls -S "$tmp"/jobs/*.job | head -1) # the largest
"$cli" -j 1 -q --progress --job "$job" >/dev/null 2>"$tmp/job.err" || fail "--job --progress exited $?"
grep -q "(of this job)" "$tmp/job.err" || fail "--job --progress: $(head -c 300 "$tmp/job.err")"
check_lines "--job" "$tmp/job.err"

finish
