#!/usr/bin/env bash
# The files the CLI writes for itself (checkpoints, job results, split directories) never
# replace what is not theirs, and are checked before the search; options that cannot go
# together are refused at once (exit 2) instead of some being ignored. Each case was a QA
# finding: `--resume /dev/null` as root had replaced the system's /dev/null with a regular
# file. Usage: cli_files.sh POLYCUBE REPO_ROOT
source "$(dirname "$0")/lib.sh"
soma="$root/def/soma.txt"
# A search of hours (60 random pieces, placements of milliseconds) after a setup of about a
# second: what must be said before the search is said, or the hang guard (timeout 120) ends
# the run (exit 124).
endless="$root/tests/hostile/random60.txt"


# --- Checkpoint targets: only regular files that are empty or the resumed checkpoint.
mkfifo "$tmp/fifo.ck"
expect_exit "--checkpoint on a FIFO" 2 "it is a FIFO .*give the name of a regular file" timeout 120 "$cli" -q -r --checkpoint "$tmp/fifo.ck" "$soma"
[[ -p $tmp/fifo.ck ]] && ok "the FIFO is still a FIFO" || fail "the FIFO was replaced"
echo "keep me" >"$tmp/target.txt"
ln -s "$tmp/target.txt" "$tmp/link.ck"
expect_exit "--checkpoint on a symbolic link" 2 "it is a symbolic link" timeout 120 "$cli" -q -r --checkpoint "$tmp/link.ck" "$soma"
[[ -L $tmp/link.ck && $(cat "$tmp/target.txt") == "keep me" ]] && ok "the link and its target are untouched" || fail "the link or its target changed"
expect_exit "--checkpoint on a directory" 2 "it is a directory" timeout 120 "$cli" -q -r --checkpoint "$tmp" "$soma"
cp "$soma" "$tmp/mydef.txt"
expect_exit "--checkpoint on a puzzle file" 2 "exists and is not a checkpoint: not overwritten" timeout 120 "$cli" -q -r --checkpoint "$tmp/mydef.txt" "$soma"
cmp -s "$soma" "$tmp/mydef.txt" && ok "the puzzle file is intact" || fail "the puzzle file was overwritten"
# A device: a null device of our own (mknod needs root), never the system's /dev/null, which
# a regression would replace (running this script against the old build did, once).
if mknod -m 666 "$tmp/null" c 1 3 2>/dev/null; then
  expect_exit "--resume a device" 1 "null: it is a device, not a regular file" timeout 120 "$cli" -q -r --resume "$tmp/null" "$soma"
  expect_exit "--checkpoint on a device" 2 "it is a device" timeout 120 "$cli" -q -r --checkpoint "$tmp/null" "$soma"
  [[ -c $tmp/null ]] && ok "the device is still a device" || fail "the device was replaced by a file"
else
  ok "(not root: no device of our own to test with)"
fi
: >"$tmp/empty.ck"
expect_exit "--resume an empty file" 1 "the file is empty" timeout 120 "$cli" -q -r --resume "$tmp/empty.ck" "$soma"
[[ ! -s $tmp/empty.ck ]] && ok "the empty file was left alone" || fail "the empty file was written"
# An empty file is a fine place for a new checkpoint (mktemp makes one).
"$cli" -q -r --checkpoint "$tmp/empty.ck" "$soma" >/dev/null 2>"$tmp/err" && head -1 "$tmp/empty.ck" | grep -q '^polycube-checkpoint ' &&
  ok "--checkpoint into an empty file" || fail "--checkpoint into an empty file: $(head -c 300 "$tmp/err")"
# The same file again without --resume would start over and lose the progress kept in it.
expect_exit "--checkpoint over a checkpoint" 2 "holds a checkpoint already: go on with --resume" timeout 120 "$cli" -q -r --checkpoint "$tmp/empty.ck" "$soma"
"$cli" -q -r --resume "$tmp/empty.ck" "$soma" >/dev/null 2>"$tmp/err" && ok "--resume of that checkpoint writes it again" ||
  fail "--resume of a finished checkpoint: $(head -c 300 "$tmp/err")"
# Unwritable: said before the search, not after it.
expect_exit "--checkpoint in a missing directory, before the search" 1 "cannot write beside it .*No such file or directory" timeout 120 "$cli" -q --checkpoint "$tmp/missing/x.ck" "$endless"

# --- Job and result files.
"$cli" -q -r --split 3 --jobs-out "$tmp/jobs" "$soma" 2>"$tmp/err" || fail "--split: $(head -c 300 "$tmp/err")"
cp "$tmp/jobs/1.job" "$tmp/weird.result"
"$cli" -q --job "$tmp/weird.result" 2>"$tmp/err" || fail "--job weird.result: $(head -c 300 "$tmp/err")"
head -1 "$tmp/weird.result" | grep -q '^polycube-job ' && [[ -s $tmp/weird.result.result ]] &&
  ok "a job named *.result keeps its file; its result is NAME.result" || fail "the job file was overwritten or no result written"
expect_exit "a checkpoint given to --job" 1 "a checkpoint, not a job file" "$cli" -q --job "$tmp/empty.ck"
expect_exit "a job given to --resume" 1 "a job file of --split, not a checkpoint: run it with --job" "$cli" -q -r --resume "$tmp/jobs/1.job" "$soma"
expect_exit "a directory given to --job" 1 "is a directory" "$cli" -q --job "$tmp/jobs"
mkdir "$tmp/jobs2" && cp "$tmp/jobs/2.job" "$tmp/jobs2/" && mkdir "$tmp/jobs2/2.result"
expect_exit "--job whose result path is a directory" 2 "its result .*it is a directory" "$cli" -q --job "$tmp/jobs2/2.job"
[[ ! -e $tmp/jobs2/2.result.tmp ]] && ok "nothing left beside it" || fail "2.result.tmp left behind"
expect_exit "--split into an unwritable place, before the splitting search" 1 "jobs-out" timeout 120 "$cli" -q --split 4 --jobs-out /proc/polycube-jobs "$endless"

# --merge without -q: every result must hold its solutions.
"$cli" -r --split 3 --jobs-out "$tmp/m" "$soma" 2>/dev/null >/dev/null || fail "--split (solutions kept)"
for job in "$tmp/m"/*.job; do "$cli" --job "$job" || fail "--job $job"; done
"$cli" -q --job "$tmp/m/1.job" || fail "--job -q"
expect_exit "--merge with a result made with -q" 1 "1.result was made with -q .*merge with -q for the totals" "$cli" --merge "$tmp/m"
[[ ! -s $tmp/out ]] && ok "nothing printed" || fail "--merge printed $(wc -l <"$tmp/out") lines before refusing"
"$cli" -q --merge "$tmp/m" --json >"$tmp/out" 2>"$tmp/err" && grep -q '"solutions":480' "$tmp/out" &&
  ok "--merge -q gives the totals" || fail "--merge -q: $(head -c 300 "$tmp/err")"

# --- Options that cannot go together: refused at once, nothing ignored.
expect_exit "--split with --merge" 2 "separate runs: give one of them" "$cli" --split 4 --jobs-out "$tmp/x" --merge "$tmp/m"
expect_exit "--job with --merge" 2 "separate runs" "$cli" --job "$tmp/m/1.job" --merge "$tmp/m"
expect_exit "--jobs-out without --split" 2 "--jobs-out DIR goes with --split N" "$cli" -q --jobs-out "$tmp/y" "$soma"
expect_exit "--split with --checkpoint" 2 "--split writes job files, not checkpoints" "$cli" -q --split 2 --jobs-out "$tmp/z" --checkpoint "$tmp/z.ck" "$soma"
expect_exit "--job with -l" 2 "--job uses the search options the split was made with: --limit cannot be given here" "$cli" -q -l 3 --job "$tmp/m/1.job"
expect_exit "--job with a puzzle file" 2 "--job takes no puzzle file" "$cli" -q --job "$tmp/m/1.job" "$soma"
expect_exit "--merge with -r" 2 "--merge uses the search options .*--redundancyFilter" "$cli" -q -r G --merge "$tmp/m"
expect_exit "--merge with --checkpoint" 2 "--checkpoint cannot be given here" "$cli" -q --merge "$tmp/m" --checkpoint "$tmp/c.ck"
"$cli" -q -i --json -j 2 --progress --job "$tmp/m/2.job" >/dev/null 2>&1 && ok "--job with its output and thread options" || fail "--job -q -i --json -j 2 --progress"
expect_exit "-M alone" 2 "give -r or -u with it" "$cli" -q -M "$soma"
expect_exit "-o with an unknown heuristic: once, as an option" 2 "^polycube: -o: unknown heuristic 'q'" "$cli" -q -o q "$soma" "$soma"
[[ $(wc -l <"$tmp/err") -eq 1 ]] && ok "said once" || fail "said $(wc -l <"$tmp/err") times"

# --- -r's optional piece name never swallows a file: any existing path, or a word with '/'.
want=$("$cli" -q -r --json "$soma" | grep -o '"solutions":[0-9]*')
got=$(cat "$soma" | "$cli" -q -r --json /dev/stdin 2>"$tmp/err" | grep -o '"solutions":[0-9]*')
[[ -n $want && $got == "$want" ]] && ok "-r /dev/stdin reads the puzzle ($got)" || fail "-r /dev/stdin: '$got' ($(head -c 300 "$tmp/err"))"
got=$("$cli" -q -r --json <(cat "$soma") 2>"$tmp/err" | grep -o '"solutions":[0-9]*')
[[ $got == "$want" ]] && ok "-r <(...) reads the puzzle" || fail "-r <(...): '$got' ($(head -c 300 "$tmp/err"))"
expect_exit "-r /dev/zero" 1 "more than the limit of 16777216 bytes" timeout 120 "$cli" -q -r /dev/zero
expect_exit "-r missing/file.txt" 1 "missing/file.txt: cannot open" "$cli" -q -r missing/file.txt
finish
