#!/usr/bin/env bash
# --memo on the command line: the counts of -i and --json, several puzzles in one run, the
# solutions by number and through each placement, the options it refuses (with what it cannot combine with said), --memo-mb's range, and a
# cancelled count (SIGINT) that still prints its statistics and exits 130.
# Usage: cli_memo.sh POLYCUBE REPO_ROOT
source "$(dirname "$0")/lib.sh"
def="$root/def"

timeout 60 "$cli" --memo -q -i -r "$def/pentominoes_10x6.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '^SOLUTIONS=2339$' "$tmp/out" && grep -q '^MEMO_LAYERED_TERMS=1$' "$tmp/out" && grep -q '^MEMO_SUBPROBLEMS=[1-9]' "$tmp/out" &&
  grep -q '^MEMO_FALLBACK_TERMS=0$' "$tmp/out" && grep -q '^MEMO_TERMS=1 count$' "$tmp/out" &&
  ok "-i: 10x6 -r counts 2339 layer by layer" || fail "-i: $(head -c 400 "$tmp/out") $(cat "$tmp/err")"
timeout 60 "$cli" --memo --memo-table -q -i -r "$def/pentominoes_10x6.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '^SOLUTIONS=2339$' "$tmp/out" && grep -q '^MEMO_HITS=[1-9]' "$tmp/out" && grep -q '^MEMO_LAYERED_TERMS=0$' "$tmp/out" &&
  ok "--memo-table -i: 10x6 -r counts 2339 with hits" || fail "--memo-table: $(head -c 400 "$tmp/out") $(cat "$tmp/err")"
"$cli" --memo-table -q "$def/pentominoes_10x6.txt" >"$tmp/out" 2>"$tmp/err" && fail "--memo-table alone accepted" ||
  { grep -q 'give --memo too' "$tmp/err" && ok "--memo-table without --memo refused" || fail "--memo-table alone: $(cat "$tmp/err")"; }
timeout 60 "$cli" --memo -q --json -r -M "$def/solid_pentominoes_2x3x10.txt" "$def/soma.txt" >"$tmp/out" 2>"$tmp/err"
[[ $(grep -o '"solutions":[0-9]*' "$tmp/out" | tr '\n' ' ') == '"solutions":12 "solutions":240 ' ]] &&
  grep -q '"memo":{' "$tmp/out" && ok "--json: two files, -r -M" || fail "--json: $(cat "$tmp/out" "$tmp/err")"
timeout 60 "$cli" --memo --memo-mb 1 -q -i "$def/pentominoes_1s_30x3.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '^SOLUTIONS=184$' "$tmp/out" && grep -q '^MEMO_BUDGET_BYTES=1048576$' "$tmp/out" &&
  ok "--memo-mb 1: 30x3 counts 184" || fail "--memo-mb 1: $(head -c 400 "$tmp/out")"
# -j 2: the layers' threads, the same count. With --memo-table, -j 2 and -j 3: the threads'
# partitioned count, the same counts; -i says the threads and sums their tables.
timeout 120 "$cli" --memo -q -i -r -j 2 "$def/pentominoes_10x6.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '^SOLUTIONS=2339$' "$tmp/out" && grep -q '^MEMO_THREADS=2$' "$tmp/out" && ! grep -q '^MEMO_TASKS=' "$tmp/out" &&
  grep -q '^MEMO_LAYERED_TERMS=1$' "$tmp/out" && ok "-j 2 -i: 10x6 -r counts 2339 layer by layer" || fail "-j 2 layers: $(head -c 600 "$tmp/out") $(cat "$tmp/err")"
timeout 120 "$cli" --memo --memo-table -q -i -r -j 2 "$def/pentominoes_10x6.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '^SOLUTIONS=2339$' "$tmp/out" && grep -q '^MEMO_THREADS=2$' "$tmp/out" && grep -q '^MEMO_TASKS=[1-9]' "$tmp/out" &&
  grep -q '^MEMO_HITS=[1-9]' "$tmp/out" && ok "-j 2 -i: 10x6 -r counts 2339" || fail "-j 2: $(head -c 600 "$tmp/out") $(cat "$tmp/err")"
timeout 120 "$cli" --memo -q --json -r -M -j 3 "$def/solid_pentominoes_2x3x10.txt" "$def/soma.txt" >"$tmp/out" 2>"$tmp/err"
[[ $(grep -o '"solutions":[0-9]*' "$tmp/out" | tr '\n' ' ') == '"solutions":12 "solutions":240 ' ]] && grep -q '"threads":3' "$tmp/out" &&
  ok "-j 3 --json: -r -M" || fail "-j 3 --json: $(cat "$tmp/out" "$tmp/err")"

# The automatic choice (memo/memo_choice.hpp): a -q count of many copies of few shapes is
# memoized, -i's COUNTING line says why; --no-memo enumerates; a listing or a puzzle of
# distinct pieces enumerates.
timeout 60 "$cli" -q -i "$def/copies/dominoes_8x8.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '^COUNTING=memoized: at most' "$tmp/out" && grep -q '^SOLUTIONS=12988816$' "$tmp/out" && grep -q '^MEMO_LOOKUPS=' "$tmp/out" &&
  ok "automatic: 8x8 dominoes memoized" || fail "automatic 8x8: $(head -c 600 "$tmp/out") $(cat "$tmp/err")"
timeout 60 "$cli" -q --json -r -j 2 "$def/copies/dominoes_4x4x4.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '"solutions":210519848' "$tmp/out" && grep -q '"counting":"memoized: ' "$tmp/out" && grep -q '"threads":2' "$tmp/out" &&
  ok "automatic: 4x4x4 dominoes -r -j 2 memoized" || fail "automatic 4x4x4: $(cat "$tmp/out" "$tmp/err")"
timeout 60 "$cli" -q -i --no-memo "$def/copies/dominoes_7x6.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '^SOLUTIONS=31529$' "$tmp/out" && grep -q '^FOUND=31529$' "$tmp/out" && ! grep -q '^COUNTING=\|^MEMO_' "$tmp/out" &&
  ok "--no-memo: 7x6 dominoes enumerated" || fail "--no-memo: $(head -c 600 "$tmp/out") $(cat "$tmp/err")"
timeout 60 "$cli" -i "$def/copies/dominoes_7x6.txt" >"$tmp/out" 2>"$tmp/err"
[[ $(grep -c '^# --- SOLUTION' "$tmp/out") == 31529 ]] && ! grep -q '^COUNTING=' "$tmp/out" &&
  ok "a listing enumerates" || fail "listing: $(head -c 300 "$tmp/out") $(cat "$tmp/err")"
timeout 60 "$cli" -q --json "$def/pentominoes_10x6.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '"counting":"enumerating: at most' "$tmp/out" && grep -q '"solutions":9356' "$tmp/out" &&
  ok "automatic: 10x6 enumerated, --json says why" || fail "automatic 10x6: $(cat "$tmp/out" "$tmp/err")"
timeout 60 "$cli" -q -i -r "$def/soma.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '^COUNTING=enumerating: a search of at most 8 pieces is short$' "$tmp/out" && grep -q '^SOLUTIONS=480$' "$tmp/out" && grep -q '^FOUND=' "$tmp/out" &&
  ok "automatic: Soma enumerated" || fail "automatic Soma: $(head -c 600 "$tmp/out") $(cat "$tmp/err")"

soma="$def/soma.txt"
expect_exit "--memo --no-memo" 2 "opposite ways of counting" "$cli" --memo --no-memo -q "$soma"
expect_exit "--memo without -q" 2 "give -q" "$cli" --memo "$soma"
expect_exit "--memo -u" 2 "cannot be combined with -u" "$cli" --memo -q -u "$soma"
expect_exit "--memo -l" 2 "cannot be combined with -l" "$cli" --memo -q -l 5 "$soma"
expect_exit "--memo -t" 2 "cannot be combined with -t" "$cli" --memo -q -t 1 "$soma"
expect_exit "--memo -s" 2 "cannot be combined with -s" "$cli" --memo -q -s 10,3,1 "$soma"
expect_exit "--memo --checkpoint" 2 "cannot be combined with --checkpoint" "$cli" --memo -q --checkpoint "$tmp/x.ck" "$soma"
expect_exit "--memo -o s" 2 "cannot be combined with -f, -o" "$cli" --memo -q -o s "$soma"
expect_exit "--memo -V" 2 "cannot be combined with -p, -v, -P, -V and -F" "$cli" --memo -q -V "$soma"
expect_exit "--memo-mb without --memo" 2 "give --memo too" "$cli" -q --memo-mb 64 "$soma"
expect_exit "--memo-mb 0" 2 "--memo-mb needs a whole number of MiB from 1 to 1048576, got '0'" "$cli" --memo -q --memo-mb 0 "$soma"
expect_exit "--memo-mb huge" 2 "--memo-mb needs a whole number" "$cli" --memo -q --memo-mb 99999999999 "$soma"
expect_exit "--memo -r with a piece not there" 1 "no piece named 'Q'" "$cli" --memo -q -r Q "$soma"

# Solutions by number (--solution N, --random K[,SEED]): listed as the enumerating search lists
# them (numbered by their number in the count), with the count; a draw repeats with its seed;
# the seed is said; refused without --memo, together, past the count, and with -r's classes.
timeout 60 "$cli" --memo --solution 2 "$def/lesson_tiny_4x3.txt" >"$tmp/out" 2>"$tmp/err"
[[ $(grep -c '^# --- SOLUTION' "$tmp/out") == 1 ]] && grep -q '^# --- SOLUTION 2 ---$' "$tmp/out" &&
  ok "--solution 2: one solution, numbered 2" || fail "--solution: $(cat "$tmp/out" "$tmp/err")"
timeout 60 "$cli" --memo --random 4 "$def/lesson_tiny_4x3.txt" >"$tmp/out" 2>"$tmp/err"
[[ $(grep '^# --- SOLUTION' "$tmp/out" | tr -d '\n') == '# --- SOLUTION 1 ---# --- SOLUTION 2 ---# --- SOLUTION 3 ---# --- SOLUTION 4 ---' ]] &&
  grep -q '^# 4 of 4 solutions, drawn at random (--random 4,[0-9]* draws them again)$' "$tmp/out" &&
  ok "--random 4 of 4: every one, in order" || fail "--random all: $(cat "$tmp/out" "$tmp/err")"
timeout 60 "$cli" --memo --random 5,11 "$def/copies/dominoes_8x8.txt" >"$tmp/a" 2>"$tmp/err"
timeout 60 "$cli" --memo --random 5,11 -q --json "$def/copies/dominoes_8x8.txt" >"$tmp/out" 2>>"$tmp/err"
[[ $(grep -c '^# --- SOLUTION' "$tmp/a") == 5 ]] && grep -q '"picked":5' "$tmp/out" && grep -q '"seed":11' "$tmp/out" &&
  grep -q '"solutions":12988816' "$tmp/out" && ! grep -q 'SOLUTION' "$tmp/out" &&
  [[ $(timeout 60 "$cli" --memo --random 5,11 "$def/copies/dominoes_8x8.txt") == "$(cat "$tmp/a")" ]] &&
  ok "--random 5,11: the same five again; -q --json lists none" || fail "--random 5,11: $(cat "$tmp/a" "$tmp/out" "$tmp/err")"
expect_exit "--solution without --memo" 2 "--solution N lists solutions of a memoized count by their numbers: give --memo too" "$cli" --solution 3 "$soma"
expect_exit "--solution and --random" 2 "give one" "$cli" --memo --solution 3 --random 2 "$soma"
expect_exit "--random 0" 2 "--random needs K\\[,SEED\\]" "$cli" --memo --random 0 "$soma"
expect_exit "--random K,x" 2 "--random needs K\\[,SEED\\]" "$cli" --memo --random 3,x "$soma"
expect_exit "--solution past the count" 1 "--solution 11521: the puzzle has 11,520 solutions" "$cli" --memo --solution 11521 "$soma"
expect_exit "--random of classes" 1 "count is of classes" "$cli" --memo -r --random 2 "$def/copies/dominoes_8x8.txt"

# The solutions through each placement (--placements): a line per placement (piece, cells,
# solutions) after a header with the count; over 10x6 every solution places 12 pieces; --json
# carries them; what it cannot be combined with is refused.
timeout 60 "$cli" --memo --placements "$def/pentominoes_10x6.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '^# The solutions through each placement (--placements), of 9,356: piece, its cells (x,y,z), solutions that keep it there$' "$tmp/out" &&
  [[ $(grep -c $'^[A-Z]\t' "$tmp/out") == 2056 ]] && [[ $(awk -F'\t' 'NF == 3 { s += $3 } END { print s }' "$tmp/out") == 112272 ]] &&
  grep -q $'^X\t1,0,0 0,1,0 1,1,0 2,1,0 1,2,0\t' "$tmp/out" &&
  ok "--placements: 10x6, 2056 placements, 12 per solution" || fail "--placements: $(head -c 400 "$tmp/out") $(cat "$tmp/err")"
timeout 60 "$cli" --memo --placements --json "$def/lesson_tiny_4x3.txt" >"$tmp/out" 2>"$tmp/err"
grep -q '"solutions":4,' "$tmp/out" && grep -q '"placementCounts":\[{"cells":\[\[0,0,0\],\[1,0,0\],\[0,1,0\]\],"piece":"V","solutions":0}' "$tmp/out" &&
  ok "--placements --json" || fail "--placements --json: $(head -c 400 "$tmp/out") $(cat "$tmp/err")"
expect_exit "--placements without --memo" 2 "give --memo too" "$cli" --placements "$soma"
expect_exit "--placements with -r" 2 "drop -r" "$cli" --memo --placements -r "$soma"
expect_exit "--placements and --random" 2 "give one" "$cli" --memo --placements --random 2 "$soma"
expect_exit "--placements past --memo-mb" 1 "--placements keeps every subproblem of the count, and they pass the memory budget of 1024 KiB" \
  "$cli" --memo --placements --memo-mb 1 "$def/pentominoes_10x6.txt"

# A long count stopped by SIGINT: the JSON line says cancelled, exit 130. The 9x10 one-sided
# pentominoes take minutes; the signal comes once the count is under way: at 500 ms of the
# process's CPU (reading and parsing take a few ms), not after a sleep, which on a loaded
# machine may end before the CLI has installed its handler (a background command starts with
# SIGINT ignored: the signal lost, the count run to its end) or begun the count (exit without
# the JSON line). (wait_until: a hang guard of 900 s.)
awk '/^D:/ { print "D:xDim=10:yDim=9:zDim=1:oneSide=true"; next } { print }' "$def/pentominoes_1s_18x5.txt" >"$tmp/9x10.txt"
interrupted_count() {  # NAME CPU_MS PATTERN ARGS...: stopped at CPU_MS, cancelled, exit 130, PATTERN in the JSON line
  local name=$1 cpu=$2 pattern=$3 pid rc
  shift 3
  "$cli" --memo -q --json -r "$@" "$tmp/9x10.txt" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  wait_until 900 "$pid" used_cpu "$pid" "$cpu"
  kill -INT $pid
  wait $pid
  rc=$?
  [[ $rc -eq 130 ]] && grep -q '"state":"cancelled"' "$tmp/out" && grep -q "$pattern" "$tmp/out" &&
    ok "$name: cancelled, exit 130" || fail "$name: exit $rc, $(cat "$tmp/out" "$tmp/err")"
}
interrupted_count "SIGINT" 500 '"solutions":null'
# The same on three threads: the signal reaches every thread's counter (one shared flag), the
# run ends cancelled rather than counting on in the threads not told.
interrupted_count "SIGINT -j 3" 800 '"threads":3' -j 3
finish
