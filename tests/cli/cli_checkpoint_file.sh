#!/usr/bin/env bash
# Checkpoint files of format 2 (parallel/checkpoint.hpp; docs/file-formats.md): the file holds
# the puzzle and the search options, so `polycube --resume FILE` alone finishes the search,
# with the uninterrupted totals and solutions, after the puzzle file is gone, and `polycube
# --split N --jobs-out DIR --resume FILE` splits what is left across machines. A format 1 file
# still resumes with its puzzle file. Search options beside a file that holds its own, and a
# damaged file, are refused with a message. The run is stopped deterministically: SIGTERM once
# it has printed its 40th solution (it cannot finish meanwhile: its output waits in a pipe
# that is not read). Usage: cli_checkpoint_file.sh POLYCUBE REPO_ROOT
source "$(dirname "$0")/lib.sh"
export POLYCUBE_CHECKPOINT_SECONDS=0.05
cp "$root/def/pentominoes_10x6.txt" "$tmp/puzzle.txt"

"$cli" -r -j 1 --json "$tmp/puzzle.txt" >"$tmp/full.out" || fail "uninterrupted run"
want=$(totals "$tmp/full.out")
solution_set "$tmp/full.out" >"$tmp/full.set"
[[ $(wc -l <"$tmp/full.set") -eq 2339 ]] || fail "uninterrupted run: $(wc -l <"$tmp/full.set") solutions"

# stopped_run CHECKPOINT OUT ARGS...: the run, stopped by SIGTERM after its 40th solution.
stopped_run() {
  local ck=$1 out=$2; shift 2
  mkfifo "$tmp/pipe"
  "$cli" "$@" --checkpoint "$ck" >"$tmp/pipe" 2>"$tmp/stopped.err" &
  local pid=$! n=0 line
  exec {fd}<"$tmp/pipe"
  : >"$out"
  while (( n < 40 )) && IFS= read -r line <&"$fd"; do
    printf '%s\n' "$line" >>"$out"
    [[ $line == "# --- SOLUTION"* ]] && n=$((n + 1))
  done
  kill -TERM "$pid"
  cat <&"$fd" >>"$out"  # (what it wrote before the signal, then its JSON line)
  exec {fd}<&-
  wait "$pid"; stopped_rc=$?
  rm -f "$tmp/pipe"
}

stopped_run "$tmp/run.ck" "$tmp/part1.out" -r -j 1 --json "$tmp/puzzle.txt"
[[ $stopped_rc -eq 143 ]] || fail "the stopped run exited $stopped_rc ($(head -c 300 "$tmp/stopped.err"))"
grep -q "go on with polycube --resume $tmp/run.ck" "$tmp/stopped.err" || fail "the stop does not say how to go on: $(head -c 300 "$tmp/stopped.err")"
[[ $(head -1 "$tmp/run.ck") == "polycube-checkpoint 2" ]] || fail "the checkpoint is not of format 2: $(head -1 "$tmp/run.ck")"
pieces=$(sed -n 's/^pieces //p' "$tmp/run.ck")
(( pieces > 0 )) && ok "stopped midway: $pieces pieces left" || fail "nothing left to search after the stop ($pieces pieces)"
grep -qx "source 10" "$tmp/run.ck" && grep -qx "puzzle.txt" "$tmp/run.ck" || fail "the source is not the file's name alone"
rm "$tmp/puzzle.txt"  # the checkpoint alone finishes it

# Search options beside a file that holds its own: refused before anything is searched.
expect_exit "search options with a file that holds its own" 2 \
  "run.ck holds its puzzle and its search options \('-r'\): --redundancyFilter cannot be given with it" \
  "$cli" -r -q --resume "$tmp/run.ck"
cp "$tmp/run.ck" "$tmp/damaged.ck"
sed -i "s/^D:xDim=10:yDim=6:zDim=1$/D:xDim=6:yDim=10:zDim=1/" "$tmp/damaged.ck"  # the puzzle it holds, edited
if cmp -s "$tmp/run.ck" "$tmp/damaged.ck"; then fail "the damage did not apply"; else
  expect_exit "a damaged puzzle inside" 1 "damaged.ck: the checkpoint is damaged" "$cli" -q --resume "$tmp/damaged.ck"
fi

# Split across machines from the file alone: its pieces in 3 job files, each searched, merged
# to the uninterrupted totals (with -q: the checkpoint's finished part is counted, its
# solutions were printed by the run that found them).
"$cli" --split 3 --jobs-out "$tmp/jobs" --resume "$tmp/run.ck" 2>"$tmp/split.err" || fail "split of the checkpoint: exit $? ($(head -c 300 "$tmp/split.err"))"
grep -q "3 job files in $tmp/jobs ($pieces pieces; the checkpoint's finished part" "$tmp/split.err" || fail "the split says: $(head -c 300 "$tmp/split.err")"
for job in "$tmp"/jobs/*.job; do "$cli" -q -j 1 --job "$job" 2>>"$tmp/jobs.err" || fail "$job: exit $?"; done
"$cli" -q --json --merge "$tmp/jobs" >"$tmp/merged.out" 2>"$tmp/merge.err" || fail "merge: exit $? ($(head -c 300 "$tmp/merge.err"))"
got=$(totals "$tmp/merged.out")
[[ $got == "$want" ]] && ok "split from the file alone and merged: totals equal ($got)" || fail "split and merged: $got, uninterrupted $want"
expect_exit "a merge that would print part of the solutions" 1 "0.result.* made with -q \(solutions counted, not kept; so is the 0.result of a split of a checkpoint\)" "$cli" --merge "$tmp/jobs"

# Finished from the file alone, on 2 threads, with output options of this command line.
"$cli" -j 2 --json --resume "$tmp/run.ck" >"$tmp/part2.out" 2>"$tmp/part2.err" || fail "resume from the file alone: exit $? ($(head -c 300 "$tmp/part2.err"))"
got=$(totals "$tmp/part2.out")
[[ $got == "$want" ]] && ok "resumed from the file alone: totals equal ($got)" || fail "resumed from the file alone: $got, uninterrupted $want"
solution_set "$tmp/part1.out" "$tmp/part2.out" >"$tmp/got.set"
cmp -s "$tmp/full.set" "$tmp/got.set" && ok "the solutions printed are the uninterrupted set" ||
  fail "the solutions printed are not the uninterrupted set ($(wc -l <"$tmp/got.set") of 2339)"

# A format 1 checkpoint (an earlier build's: the fuzzer's seed, Tetris Cube -r stopped midway)
# resumes with its puzzle file as before, and is written back as format 2.
cp "$root/fuzz/corpus/own_files/checkpoint-tetriscube-midway" "$tmp/old.ck"
"$cli" -q -r -j 2 --json --resume "$tmp/old.ck" "$root/def/tetriscube.txt" >"$tmp/old.out" 2>"$tmp/old.err" ||
  fail "format 1 with its puzzle file: exit $? ($(head -c 300 "$tmp/old.err"))"
grep -q '"solutions":9839' "$tmp/old.out" && ok "format 1 resumed with its puzzle file: 9839" || fail "format 1: $(head -c 300 "$tmp/old.out")"
[[ $(head -1 "$tmp/old.ck") == "polycube-checkpoint 2" ]] || fail "format 1 not written back as format 2"

# All solutions (no -r: the unique ones' symmetric images listed, docs/all-solutions.md),
# stopped midway inside the listing and finished from the file alone: the uninterrupted set.
cp "$root/def/pentominoes_10x6.txt" "$tmp/puzzle.txt"
"$cli" -j 1 --json "$tmp/puzzle.txt" >"$tmp/all.out" || fail "uninterrupted run of all solutions"
all_want=$(totals "$tmp/all.out")
solution_set "$tmp/all.out" >"$tmp/all.set"
[[ $(wc -l <"$tmp/all.set") -eq 9356 ]] || fail "all solutions: $(wc -l <"$tmp/all.set")"
stopped_run "$tmp/all.ck" "$tmp/all1.out" -j 1 --json "$tmp/puzzle.txt"
[[ $stopped_rc -eq 143 ]] || fail "the stopped run of all solutions exited $stopped_rc ($(head -c 300 "$tmp/stopped.err"))"
rm "$tmp/puzzle.txt"
"$cli" -j 2 --json --resume "$tmp/all.ck" >"$tmp/all2.out" 2>"$tmp/all2.err" || fail "resume of all solutions: exit $? ($(head -c 300 "$tmp/all2.err"))"
got=$(totals "$tmp/all2.out")
[[ $got == "$all_want" ]] && ok "all solutions resumed from the file alone: totals equal ($got)" || fail "all solutions resumed: $got, uninterrupted $all_want"
solution_set "$tmp/all1.out" "$tmp/all2.out" >"$tmp/all-got.set"
cmp -s "$tmp/all.set" "$tmp/all-got.set" && ok "all solutions: the solutions printed are the uninterrupted set" ||
  fail "all solutions: the solutions printed are not the uninterrupted set ($(wc -l <"$tmp/all-got.set") of 9356)"
# --no-orbits may be given beside a file that holds its options (a file of an earlier build's
# all-solutions search resumes so); on this file it names another search, and says so.
expect_exit "--no-orbits on a checkpoint of the orbit listing" 1 "a checkpoint of another search" \
  "$cli" -q -j 1 --no-orbits --resume "$tmp/all.ck"
# A checkpoint of the enumerating search resumed with the puzzle file and no options (as a
# file of an earlier build's all-solutions search would be) names another search and says
# how to go on; with --no-orbits it finishes: all 9356.
cp "$root/def/pentominoes_10x6.txt" "$tmp/puzzle.txt"
stopped_run "$tmp/enum.ck" "$tmp/enum1.out" -j 1 --no-orbits --json "$tmp/puzzle.txt"
[[ $stopped_rc -eq 143 ]] || fail "the stopped enumerating run exited $stopped_rc ($(head -c 300 "$tmp/stopped.err"))"
expect_exit "the enumerating search's checkpoint resumed as the orbit listing" 1 "resumes with --no-orbits" \
  "$cli" -q -j 1 --resume "$tmp/enum.ck" "$tmp/puzzle.txt"
"$cli" -q -j 1 --json --no-orbits --resume "$tmp/enum.ck" "$tmp/puzzle.txt" >"$tmp/enum2.out" 2>"$tmp/enum2.err" ||
  fail "the enumerating search resumed with --no-orbits: exit $? ($(head -c 300 "$tmp/enum2.err"))"
grep -q '"solutions":9356' "$tmp/enum2.out" && ok "the enumerating search resumed with --no-orbits: 9356" || fail "enumerating resume: $(head -c 300 "$tmp/enum2.out")"
finish
