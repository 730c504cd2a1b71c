#!/usr/bin/env bash
# polycube --build-order: each solution followed by how to put it together, in text and in
# --json, the classes counted after the puzzle (with -q too), the same counts on one thread and
# on several, and the options it does not go with refused. Usage: cli_build_order.sh POLYCUBE REPO_ROOT
source "$(dirname "$0")/lib.sh"
soma="$root/def/soma.txt"

# --- Text: a "# build order:" block after every solution, then the counts.
"$cli" -r -j 1 --build-order "$soma" >"$tmp/text" 2>"$tmp/err" || fail "soma text: exit $? ($(head -c 300 "$tmp/err"))"
solutions=$(grep -c '^# --- SOLUTION' "$tmp/text")
orders=$(grep -c '^# build order: ' "$tmp/text")
[[ $solutions == 480 && $orders == 480 ]] && ok "480 solutions, each with its build order" || fail "$solutions solutions, $orders build orders"
# every order lists the 7 pieces, numbered 1..7, each lowered ("down N")
steps=$(grep -cE '^#   [1-7]\. [A-Z]  down [1-3]' "$tmp/text")
[[ $steps == $((480 * 7)) ]] && ok "7 steps per order" || fail "$steps step lines, expected $((480 * 7))"
counts=$(tail -1 "$tmp/text")
[[ $counts =~ ^#\ build\ orders\ of\ 480\ solutions:\ ([0-9]+)\ from\ above,\ ([0-9]+)\ with\ sideways\ slides,\ ([0-9]+)\ interlocked$ ]] \
  && (( BASH_REMATCH[1] + BASH_REMATCH[2] + BASH_REMATCH[3] == 480 )) && ok "the counts: $counts" || fail "the counts line: '$counts'"
text_above=${BASH_REMATCH[1]:-x}

# --- JSON: one line per solution, and the counts in the puzzle's line; -j 2 counts the same.
"$cli" -r -j 1 --build-order --json "$soma" >"$tmp/json" 2>"$tmp/err" || fail "soma json: exit $?"
lines=$(grep -c '^{"solution":[0-9]*,"buildOrder":{"ok":true,"class":"\(above\|sideways\|interlocked\)"' "$tmp/json")
[[ $lines == 480 ]] && ok "480 JSON build orders" || fail "$lines JSON build orders"
summary=$(tail -1 "$tmp/json")
json_above=$(grep -o '"buildOrders":{"above":[0-9]*' <<<"$summary" | grep -o '[0-9]*$')
[[ $json_above == "$text_above" ]] && ok "the JSON counts agree with the text ($json_above from above)" || fail "JSON '$summary' vs text $text_above"
"$cli" -q -r -j 2 --build-order --json "$soma" >"$tmp/json2" 2>"$tmp/err" || fail "soma -j 2: exit $?"
counts_of() { grep -o '"buildOrders":{[^}]*' "$1" | sed 's/,"states".*//'; }
[[ $(counts_of "$tmp/json2") == $(counts_of "$tmp/json") && $(wc -l <"$tmp/json2") == 1 ]] \
  && ok "-q -j 2: no solution lines, the same counts" || fail "-j 2: '$(counts_of "$tmp/json2")' vs '$(counts_of "$tmp/json")'"

# --- A flat board: laid in from above, bottom-left first.
"$cli" -r -l 1 --build-order "$root/def/pentominoes_10x6.txt" >"$tmp/flat" 2>&1
grep -q '^# build order: a flat board: every piece is laid in from above' "$tmp/flat" && grep -qE '^#   12\. [A-Z]  down 1$' "$tmp/flat" \
  && ok "a flat board" || fail "flat: $(head -c 400 "$tmp/flat")"

# --- Hand-made: two hooks that hold each other down (every solution of the 3x1x3 box).
cat >"$tmp/hooks.txt" <<'DEF'
D:xDim=3:yDim=1:zDim=3
C:name=A:layout=0 0 0, 0 0 1, 1 0 1
C:name=B:layout=1 0 0, 2 0 0, 2 0 1, 2 0 2, 1 0 2, 0 0 2
~D
DEF
"$cli" -j 1 --build-order "$tmp/hooks.txt" >"$tmp/hooks" 2>&1
grep -q '^# build order: not one piece at a time: A and B interlock' "$tmp/hooks" && tail -1 "$tmp/hooks" | grep -q ' 4 interlocked; the best way up: 8 from above, ' \
  && ok "the hooks interlock in 4 of 8 solutions" || fail "hooks: $(cat "$tmp/hooks")"
[[ $(grep -c '^# turned with its left face (-x) at the bottom, it goes in from above$' "$tmp/hooks") == 4 ]] \
  && ok "turned on their left side, those 4 go in from above" || fail "hooks turned: $(grep '^# turned' "$tmp/hooks")"

# --- Refused: a search run elsewhere (its solutions are not printed here).
"$cli" -r --build-order --split 2 --jobs-out "$tmp/jobs" "$soma" >/dev/null 2>"$tmp/err"
[[ $? == 2 ]] && grep -q -- '--build-order prints with the solutions of a search run here' "$tmp/err" && ok "--split refused" || fail "--split: $(cat "$tmp/err")"
"$cli" --job "$tmp/none.job" --build-order >/dev/null 2>"$tmp/err"
[[ $? == 2 ]] && grep -q -- '--build-order cannot be given here' "$tmp/err" && ok "--job refused" || fail "--job: $(cat "$tmp/err")"
finish
