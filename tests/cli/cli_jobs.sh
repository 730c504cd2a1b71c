#!/usr/bin/env bash
# --split / --job / --merge with GNU parallel (issue 10): the jobs of a split search, run by
# `parallel`, merged, give the single run's totals and solutions; a missing, duplicated or
# foreign result is reported by --merge. Usage: cli_jobs.sh POLYCUBE REPO_ROOT
source "$(dirname "$0")/lib.sh"
command -v parallel >/dev/null || { echo "FAIL: GNU parallel is missing (scripts/setup.sh installs it)"; exit 1; }
puzzle="$root/def/pentominoes_10x6.txt"

"$cli" -r -o s -j 1 --json "$puzzle" >"$tmp/full.out" || fail "single run"
want=$(totals "$tmp/full.out")

"$cli" -r -o s --split 6 --jobs-out "$tmp/jobs" "$puzzle" 2>"$tmp/split.err" || fail "--split: $(cat "$tmp/split.err")"
n=$(ls "$tmp/jobs"/*.job 2>/dev/null | wc -l)
(( n >= 6 )) && ok "--split 6: $n job files" || fail "--split 6 wrote $n job files"
parallel -j 2 "$cli" -j 1 --job ::: "$tmp/jobs"/*.job || fail "parallel --job exited $?"
"$cli" --merge "$tmp/jobs" --json >"$tmp/merged.out" 2>"$tmp/merge.err" || fail "--merge: $(cat "$tmp/merge.err")"
got=$(totals "$tmp/merged.out")
[[ $got == "$want" ]] && ok "merged totals equal the single run's ($got)" || fail "merged $got, single run $want"
# times: no wall time of the whole (the jobs ran apart), the jobs' own summed (QA: zeros, as if measured)
grep -q '"seconds":null' "$tmp/merged.out" && grep -Eq '"jobSeconds":[0-9.e-]+' "$tmp/merged.out" && ! grep -q '"jobSeconds":0[,}]' "$tmp/merged.out" &&
  ok "--merge --json: seconds null, jobSeconds summed" || fail "--merge times: $(grep -o '"[a-zA-Z]*Seconds":[^,]*' "$tmp/merged.out" | tr '\n' ' ')"
solution_set "$tmp/full.out" >"$tmp/full.set"
solution_set "$tmp/merged.out" >"$tmp/merged.set"
cmp -s "$tmp/full.set" "$tmp/merged.set" && ok "the same 2339 solutions" || fail "the merged solutions differ ($(wc -l <"$tmp/merged.set") lines)"
[[ $(grep -c '^# --- SOLUTION' "$tmp/merged.out") -eq 2339 && $(grep -c '^# --- SOLUTION 2339 ---' "$tmp/merged.out") -eq 1 ]] &&
  ok "numbered 1..2339" || fail "solution numbers"

expect_merge_error() {  # NAME PATTERN: --merge fails naming the problem
  local name=$1 pattern=$2
  if "$cli" -q --merge "$tmp/jobs" >/dev/null 2>"$tmp/err"; then fail "$name: --merge succeeded"; return; fi
  grep -q -- "$pattern" "$tmp/err" && ok "$name" || fail "$name: $(head -c 300 "$tmp/err")"
}
mv "$tmp/jobs/2.result" "$tmp/2.result.saved"
expect_merge_error "a missing result" "job 2 (2.job) has no result"
mv "$tmp/2.result.saved" "$tmp/jobs/2.result"
cp "$tmp/jobs/3.result" "$tmp/jobs/3-again.result"
expect_merge_error "a duplicated result" "job 3 has 2 results"
rm "$tmp/jobs/3-again.result"
"$cli" -q -r -o s --split 2 --jobs-out "$tmp/other" "$puzzle" 2>/dev/null && "$cli" -q --job "$tmp/other/1.job" ||
  fail "second split"
cp "$tmp/other/1.result" "$tmp/jobs/99.result"
expect_merge_error "a result of another split" "a result of another split"
rm "$tmp/jobs/99.result"
echo "damage" >>"$tmp/jobs/1.result"
expect_merge_error "a damaged result" "1.result: damaged\|1.result: not complete"

# Every job and result file says which split it is of, how many jobs the split has and which
# job it is: a merge is never short without saying so (QA: with 2.job and 2.result both gone,
# --merge printed 375 solutions of the Soma cube's 480, exit 0).
rm -rf "$tmp/s4" && "$cli" -q -r --split 4 --jobs-out "$tmp/s4" "$root/def/soma.txt" 2>/dev/null || fail "--split 4 of the Soma cube"
for job in "$tmp/s4"/*.job; do "$cli" -q -j 1 --job "$job" || fail "--job $job"; done
expect_merge_in() {  # DIR NAME PATTERN: --merge DIR fails naming the problem, and prints no total
  local dir=$1 name=$2 pattern=$3
  if "$cli" -q --json --merge "$dir" >"$tmp/out" 2>"$tmp/err"; then fail "$name: --merge succeeded: $(head -c 200 "$tmp/out")"; return; fi
  if [[ -s $tmp/out ]]; then fail "$name: a total printed: $(head -c 200 "$tmp/out")"; return; fi
  grep -q -- "$pattern" "$tmp/err" && ok "$name" || fail "$name: $(head -c 300 "$tmp/err")"
}
variant() { rm -rf "$tmp/v" && cp -r "$tmp/s4" "$tmp/v"; }
variant && rm "$tmp/v/2.job" "$tmp/v/2.result"
expect_merge_in "$tmp/v" "a job file and its result both missing" "the split has 4 jobs; .* lacks the job file of job 2 and its result"
variant && rm "$tmp/v/2.job" "$tmp/v/2.result" "$tmp/v/3.job" "$tmp/v/3.result" "$tmp/v/4.job"
expect_merge_in "$tmp/v" "three job files and two results missing" "lacks the job files of jobs 2 to 4, and the results of jobs 2, 3"
variant && rm "$tmp/v/3.job"
expect_merge_in "$tmp/v" "a job file missing, its result there" "lacks the job file of job 3$"
variant && rm "$tmp/v/0.result"
expect_merge_in "$tmp/v" "0.result missing" "0.result (what the splitting searched) is missing"
variant && cp "$tmp/v/1.job" "$tmp/v/copy.job"
expect_merge_in "$tmp/v" "a job file twice" "job 1 is in 2 job files: 1.job, copy.job"
variant && cp "$tmp/v/4.result" "$tmp/v/again.result"
expect_merge_in "$tmp/v" "a result twice, under another name" "job 4 has 2 results: 4.result, again.result"
variant && cp "$tmp/other/1.result" "$tmp/v/9.result"
expect_merge_in "$tmp/v" "a result of another split" "9.result: a result of another split"
variant && cp "$tmp/other/1.job" "$tmp/v/9.job"
expect_merge_in "$tmp/v" "a job of another split" "9.job: a job of another split"
variant && sed -i '1s/^polycube-result 2$/polycube-result 1/' "$tmp/v/1.result"
expect_merge_in "$tmp/v" "a result of an older format" "1.result: result file format '1', but this polycube reads format 2"
# Names do not matter, contents do: the results renamed still merge to the whole.
variant && mv "$tmp/v/1.result" "$tmp/v/first.result" && mv "$tmp/v/3.job" "$tmp/v/third.job"
"$cli" -q --json --merge "$tmp/v" >"$tmp/out" 2>"$tmp/err" && grep -q '"solutions":480,' "$tmp/out" && grep -q '"jobs":4' "$tmp/out" &&
  ok "renamed files merge by their contents: 480 solutions, 4 jobs" || fail "renamed files: $(head -c 300 "$tmp/err") $(head -c 200 "$tmp/out")"

# Puzzles whose whole search ends while splitting: one proved impossible in the setup (its job's
# result had an empty fingerprint, which --merge refused: QA) and one searched whole.
for small in "impossible/two_t_tetrominoes.txt:0" "soma.txt:480"; do
  file=${small%%:*} want=${small##*:}
  rm -rf "$tmp/small"
  "$cli" -q -r --split 4 --jobs-out "$tmp/small" "$root/def/$file" 2>"$tmp/split.err" || { fail "$file: --split: $(cat "$tmp/split.err")"; continue; }
  for job in "$tmp/small"/*.job; do "$cli" -q -j 1 --job "$job" 2>>"$tmp/split.err" || fail "$file: --job $job: $(cat "$tmp/split.err")"; done
  if "$cli" -q --json --merge "$tmp/small" >"$tmp/small.out" 2>"$tmp/merge.err" && grep -q "\"solutions\":$want," "$tmp/small.out"; then
    ok "$file: split, jobs and merge: $want solutions ($(head -c 120 "$tmp/split.err"))"
  else
    fail "$file: --merge: $(cat "$tmp/merge.err") $(head -c 300 "$tmp/small.out")"
  fi
done

# A split stopped before its end leaves no job in DIR (QA: 12,541 of them, which a scheduler
# watching DIR could already run, and a DIR that refused the split run again): they are
# written in a staging directory and moved in only when all are; the next split removes it.
# Stopped while it writes them: the CLI raises SIGINT itself once the first job file is
# written (POLYCUBE_RAISE_AT=split-writing), a point no signal from outside can be timed to
# hit (timeout 120: a hang guard).
rm -rf "$tmp/stopped"
POLYCUBE_RAISE_AT=split-writing timeout 120 "$cli" -q -r --split 20 --jobs-out "$tmp/stopped" "$root/def/tetriscube.txt" 2>"$tmp/stop.err"
rc=$?
visible=$(find "$tmp/stopped" -maxdepth 1 \( -name '*.job' -o -name '*.result' \) 2>/dev/null | wc -l)
staged=$(find "$tmp/stopped" -mindepth 2 -name '*.job' 2>/dev/null | wc -l)
if (( rc != 130 )); then fail "a split stopped while writing: exit $rc ($(head -c 300 "$tmp/stop.err"))"
elif (( staged == 0 )); then fail "a split stopped while writing: no job file written in its staging directory"
elif (( visible > 0 )); then fail "a split stopped while writing left $visible files in its directory"
else ok "a split stopped while writing (exit 130, $staged job file(s) staged) left no job in its directory"; fi
"$cli" -q -r --split 4 --jobs-out "$tmp/stopped" "$root/def/tetriscube.txt" 2>"$tmp/again.err" && [[ -z $(find "$tmp/stopped" -maxdepth 1 -name '.split-*') ]] &&
  ok "the same directory takes the split again, its staging gone" || fail "split again: $(cat "$tmp/again.err") $(ls -a "$tmp/stopped" | head -5)"

finish
