#!/usr/bin/env bash
# The CLI's own files (checkpoints, job and result files) and its limits under hostile input:
# a file that is not its own is refused from its first bytes, in bounded memory (ulimit -v in
# subshells), never by an abort; a FIFO is refused, never waited on; long paths are cut in
# messages; -l takes every 64-bit count. Every command has a timeout, so a hang fails.
# Usage: cli_limits.sh POLYCUBE REPO_ROOT
source "$(dirname "$0")/lib.sh"
soma="$root/def/soma.txt"

# limited KB COMMAND...: the command under ulimit -v KB (in a shell of its own: the limit stays there).
# A sanitized CLI (POLYCUBE_SANITIZED, set by ctest in build-sanitize) cannot start under any
# such limit, since ASan maps terabytes of shadow memory: there the command runs unlimited, and
# what it says is still checked; the optimised build's run checks the memory bound itself.
if [[ -n ${POLYCUBE_SANITIZED:-} ]]; then
  limited() { shift; "$@"; }
  echo "note: a sanitized CLI: the ulimit -v cases run without their limit, the memory-limit sweep is left out"
else
  limited() { bash -c 'ulimit -v "$0" && exec "$@"' "$@"; }
fi

# A split of the Soma cube, its jobs run: the genuine files the cases below start from.
"$cli" -q -r --split 4 --jobs-out "$tmp/jobs" "$soma" 2>"$tmp/err" || fail "--split: $(head -c 300 "$tmp/err")"
for job in "$tmp/jobs"/*.job; do timeout 120 "$cli" -q -j 1 --job "$job" 2>>"$tmp/err" || fail "--job $job: $(head -c 300 "$tmp/err")"; done
timeout 120 "$cli" -q -r -j 1 --checkpoint "$tmp/run.ck" "$soma" >/dev/null 2>"$tmp/err" || fail "--checkpoint: $(head -c 300 "$tmp/err")"

# --- Foreign files, however large, are refused from their first bytes, in bounded memory
# (they were read whole first: 1 GiB of zeros as a job took 1.05 GB; under a memory limit
# std::bad_alloc aborted, exit 134). Sparse files: no disk is used.
truncate -s 300M "$tmp/zeros.job"
expect_exit "--job: 300 MB of zeros under ulimit -v 400000" 1 "zeros.job: not a polycube job file" limited 400000 timeout 120 "$cli" -q --job "$tmp/zeros.job"
truncate -s 1G "$tmp/huge.job"
expect_exit "--job: 1 GiB of zeros under ulimit -v 100000" 1 "not a polycube job file" limited 100000 timeout 120 "$cli" -q --job "$tmp/huge.job"
expect_exit "--resume /dev/urandom under ulimit -v 200000" 1 "--resume /dev/urandom: it is a device, not a regular file" \
  limited 200000 timeout 120 "$cli" -q -r --resume /dev/urandom "$soma"
truncate -s 200M "$tmp/big.ck"
expect_exit "--resume: 200 MB of zeros under ulimit -v 200000" 1 "big.ck: not a polycube checkpoint" limited 200000 timeout 120 "$cli" -q -r --resume "$tmp/big.ck" "$soma"
cp -r "$tmp/jobs" "$tmp/m1"
truncate -s 200M "$tmp/m1/9.result"
expect_exit "--merge: a 200 MB foreign result under ulimit -v 300000" 1 "9.result: not a polycube result file" \
  limited 300000 timeout 120 "$cli" -q --merge "$tmp/m1"
[[ ! -s $tmp/out ]] && ok "nothing printed" || fail "--merge printed a total beside a foreign result"
# A genuine header on a file too large for its kind: its size and the limit, before reading it.
{ head -1 "$tmp/jobs/1.job"; } >"$tmp/toolarge.job" && truncate -s 200M "$tmp/toolarge.job"
expect_exit "--job: a job file of 200 MB" 1 "toolarge.job: 200 MiB \(209715200 bytes\), more than the limit of 128 MiB" \
  limited 400000 timeout 120 "$cli" -q --job "$tmp/toolarge.job"
{ head -1 "$tmp/run.ck"; } >"$tmp/toolarge.ck" && truncate -s 100M "$tmp/toolarge.ck"
expect_exit "--resume: a checkpoint of 100 MB" 1 "toolarge.ck: 100 MiB \(104857600 bytes\), more than the limit of 64 MiB" \
  limited 400000 timeout 120 "$cli" -q -r --resume "$tmp/toolarge.ck" "$soma"

# --- A genuine result of 4 MB merges in a few MB of memory: its solutions are copied from the
# file, never held (it was read whole and copied four times: under ulimit -v 20000, exit 134).
# The Soma cube's 11,520 solutions, its piece names 12 characters long.
python3 - "$soma" >"$tmp/longsoma.txt" <<'EOF'
import re, sys
print(re.sub(r'name=([A-Z])', lambda m: 'name=' + m.group(1) * 12, open(sys.argv[1]).read()))
EOF
timeout 120 "$cli" -j 1 --split 1 --jobs-out "$tmp/long" "$tmp/longsoma.txt" >/dev/null 2>"$tmp/err" &&
  timeout 120 "$cli" -j 1 --job "$tmp/long/1.job" >/dev/null 2>>"$tmp/err" || fail "the long-named split: $(head -c 300 "$tmp/err")"
size=$(stat -c %s "$tmp/long/1.result")
(( size > 4000000 )) && ok "a result of $size bytes" || fail "the result is only $size bytes"
limited 20000 timeout 60 "$cli" -i --merge "$tmp/long" >"$tmp/merged" 2>"$tmp/err"
rc=$?
n=$(grep -c '^# --- SOLUTION' "$tmp/merged")
[[ $rc -eq 0 && $n -eq 11520 ]] && grep -q '^# --- SOLUTION 11520 ---$' "$tmp/merged" &&
  ok "--merge of a 4 MB result under ulimit -v 20000${POLYCUBE_SANITIZED:+ (sanitized: no limit)}: the 11520 solutions, numbered" || fail "--merge under ulimit -v 20000: exit $rc, $n solutions ($(head -c 300 "$tmp/err"))"

# --- No std::bad_alloc escapes (exit 134, "terminate called"): a job whose solutions are
# kept for its result, at memory limits from too little to enough, ends with 0 or with 1 and
# a message saying memory ran out.
aborts=0
kbs="12000 16000 20000 25000 30000"
[[ -n ${POLYCUBE_SANITIZED:-} ]] && kbs=""
for kb in $kbs; do
  rm -f "$tmp/long/1.result"
  timeout 60 bash -c "ulimit -v $kb && exec '$cli' -j 1 --job '$tmp/long/1.job'" >/dev/null 2>"$tmp/err"
  rc=$?
  if [[ $rc -ne 0 ]] && { [[ $rc -ne 1 ]] || ! grep -q "out of memory\|not enough memory" "$tmp/err" || grep -q "terminate called" "$tmp/err"; }; then
    aborts=$((aborts + 1)); echo "  ulimit -v $kb: exit $rc: $(head -c 200 "$tmp/err")"
  fi
done
if [[ -n ${POLYCUBE_SANITIZED:-} ]]; then ok "--job under ulimit -v 12000..30000: left out (sanitized)"
elif (( aborts == 0 )); then ok "--job under ulimit -v 12000..30000: exit 0, or 1 saying memory ran out"
else fail "--job under memory limits: $aborts aborts or unclear failures"; fi

# --- FIFOs: refused, named, never waited on (each had blocked forever).
mkfifo "$tmp/fifo"
expect_exit "--job FIFO" 1 "fifo: it is a FIFO \(named pipe\), not a regular file" timeout 10 "$cli" -q --job "$tmp/fifo"
expect_exit "--resume FIFO" 1 "fifo: it is a FIFO \(named pipe\), not a regular file" timeout 10 "$cli" -q -r --resume "$tmp/fifo" "$soma"
cp -r "$tmp/jobs" "$tmp/m2" && mkfifo "$tmp/m2/7.result" && mkfifo "$tmp/m2/8.job"
expect_exit "--merge with a FIFO result and a FIFO job" 1 "7.result: it is a FIFO" timeout 10 "$cli" -q --merge "$tmp/m2"
grep -q "8.job: it is a FIFO" "$tmp/err" && ok "the FIFO job named too" || fail "the FIFO job is not named: $(head -c 300 "$tmp/err")"

# --- Long paths are cut to 200 characters in messages (a 100,000-character path was quoted
# whole), with the length said.
segment=$(printf 'd%.0s' {1..240})
long=$tmp
while (( ${#long} < 100000 )); do long+="/$segment"; done
long=${long:0:100000}
check_cut() {  # NAME: the last command's messages quote the long path cut
  local name=$1 longest
  longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/err")
  if (( longest > 1000 )); then fail "$name: a message line of $longest characters"; return; fi
  grep -q "(100000 characters)" "$tmp/err" && ok "$name: cut ($longest characters)" || fail "$name: $(head -c 300 "$tmp/err")"
}
timeout 120 "$cli" -q -r --checkpoint "$long" "$soma" >/dev/null 2>"$tmp/err"; check_cut "--checkpoint LONG"
timeout 120 "$cli" -q -r --resume "$long" "$soma" >/dev/null 2>"$tmp/err"; check_cut "--resume LONG"
timeout 120 "$cli" -q -r --split 2 --jobs-out "$long" "$soma" >/dev/null 2>"$tmp/err"; check_cut "--jobs-out LONG"
timeout 120 "$cli" -q --job "$long" >/dev/null 2>"$tmp/err"; check_cut "--job LONG"
timeout 120 "$cli" -q --merge "$long" >/dev/null 2>"$tmp/err"; check_cut "--merge LONG"
timeout 120 "$cli" -q "$long" >/dev/null 2>"$tmp/err"; check_cut "a puzzle file LONG"

# --- Empty names and -l's range.
expect_exit "-r '' (an empty file name)" 1 "'': the file name is empty" timeout 10 "$cli" -q -r '' "$soma"
expect_exit "--resume ''" 2 "resume: empty|the file name is empty" timeout 10 "$cli" -q -r --resume '' "$soma"
timeout 120 "$cli" -q --json -l 18446744073709551615 "$soma" >"$tmp/out" 2>"$tmp/err" && grep -q '"solutions":11520' "$tmp/out" &&
  ok "-l 18446744073709551615: taken, every solution counted" || fail "-l 18446744073709551615: $(head -c 300 "$tmp/err")"
expect_exit "-l 18446744073709551616" 2 "-l: 18446744073709551616 is more than the largest count, 18446744073709551615" timeout 10 "$cli" -q -l 18446744073709551616 "$soma"

# --- Piece names drawn in an L block follow the C directive's rules: a NUL made a 13th piece
# of the 10x6 box (142,985 solutions, exit 0), an ESC reached the terminal raw.
python3 - "$root/def/pentominoes_10x6.txt" "$tmp" <<'EOF'
import sys
text = open(sys.argv[1]).read()
for name, bad in (("nul", "\0"), ("esc", "\x1b[31m")):
    open(f"{sys.argv[2]}/{name}.txt", "w").write(text.replace("\nF F . . I", "\nF F" + bad + " . . I", 1))
EOF
line=$(grep -an "^F F" "$tmp/nul.txt" | cut -d: -f1)
expect_exit "a NUL in an L block's name" 1 "nul.txt:$line: L block: piece name 'F\?' contains the control character 0x00" timeout 120 "$cli" -q -r "$tmp/nul.txt"
expect_exit "an ESC in an L block's name" 1 "esc.txt:$line: L block: piece name 'F\?\[31m' contains the control character 0x1B" timeout 120 "$cli" -q -r "$tmp/esc.txt"
! grep -q $'\x1b' "$tmp/err" && ok "no ESC printed" || fail "the ESC reached the terminal"

# --- 4,000 random 16-cell pieces in a 40^3 box: refused as soon as the count of placements
# passes its limit (they were all counted first: 4.9 billion, 37.7 s).
python3 "$root/tests/hostile/make_random_pieces.py" 4000 16 40 40 40 1 >"$tmp/random4000.txt"
expect_exit "4,000 random pieces in a 40^3 box" 1 "random4000.txt:2: puzzle too large: .*more than (4,000,000 piece placements|60,000,000 cells in all), the limit \(counting stopped there" \
  timeout 120 "$cli" -q "$tmp/random4000.txt"
finish
