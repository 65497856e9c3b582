#!/usr/bin/env bash
# fxkit plan: MiniMalloc CSV in, id,lower,upper,size,offset out; exit 0 when the plan fits the
# capacity (or, without one, when minimised), 1 when none fits (the best plan is still written),
# 2 on bad input (file:line:col, nothing written).
. "$(dirname "$0")/lib.bash"
M="$DATA/minimalloc"

# A hard problem (capacity = lower bound) fits, to a file, with a one-line summary on stderr.
expect_exit 0 "$FXKIT" plan --intervals "$M/A.1048576.csv" --capacity 1048576 -o "$WORK/A.csv" \
  --max-nodes 2000000 --time-limit 600
expect_err "154 buffers, lower bound 1048576, pool 1048576, capacity 1048576: fits"
[ "$(head -1 "$WORK/A.csv")" = "id,lower,upper,size,offset" ] || fail "A.csv: wrong header"
[ "$(wc -l < "$WORK/A.csv")" -eq 155 ] || fail "A.csv: expected 154 buffers"
# Input order and columns are kept; every offset is within the capacity.
diff <(cut -d, -f1-4 "$WORK/A.csv") "$M/A.1048576.csv" > /dev/null || fail "A.csv: input columns changed"
awk -F, 'NR > 1 && ($5 < 0 || $5 + $4 > 1048576) { bad = 1 } END { exit bad }' "$WORK/A.csv" \
  || fail "A.csv: an offset is out of range"

# The plan written can be read back as a problem once the offsets are dropped.
cut -d, -f1-4 "$WORK/A.csv" > "$WORK/A-again.csv"
expect_exit 0 "$FXKIT" plan --intervals "$WORK/A-again.csv" --capacity 1048576 -o "$WORK/A2.csv" \
  --max-nodes 2000000 --time-limit 600

# Names as ids, stdout by default; without a capacity the pool is minimised.
expect_exit 0 "$FXKIT" plan --intervals "$M/example.12.csv"
expect_out "id,lower,upper,size,offset"
expect_out "b5,0,21,4,"
expect_err "pool 12: minimised, proved optimal"

# Below the lower bound nothing fits: exit 1, and the best plan is still written.
expect_exit 1 "$FXKIT" plan --intervals "$M/example.12.csv" --capacity 11 -o "$WORK/ex.csv"
expect_err "does not fit"
expect_err "proved"
[ -s "$WORK/ex.csv" ] || fail "no plan written when it does not fit"

# A plan (with offsets) is not a problem: exit 2, file:line:col, no output file.
expect_exit 2 "$FXKIT" plan --intervals "$WORK/A.csv" --capacity 1048576 -o "$WORK/bad.csv"
expect_err "A.csv:1:21: error: column 'offset'"
[ ! -e "$WORK/bad.csv" ] || fail "an output file was left behind after an error"

# A bad field names its line and column; an existing output file is left untouched.
printf 'id,lower,upper,size\n0,0,3,4\n1,0,three,4\n' > "$WORK/badfield.csv"
echo "keep me" > "$WORK/existing.csv"
expect_exit 2 "$FXKIT" plan --intervals "$WORK/badfield.csv" --capacity 8 -o "$WORK/existing.csv"
expect_err "badfield.csv:3:5: error: 'three' is not an integer (column 'upper')"
[ "$(cat "$WORK/existing.csv")" = "keep me" ] || fail "existing output was overwritten"
ls -A "$WORK" | grep -q '\.tmp\.' && fail "a temporary file was left behind"

printf 'id,lower,upper,size\n0,0,3,4\n0,1,3,4\n' > "$WORK/dup.csv"
expect_exit 2 "$FXKIT" plan --intervals "$WORK/dup.csv"
expect_err "dup.csv:3:1: error: duplicate id '0'"
printf 'id,lower,upper,size\n0,0,3\n' > "$WORK/short.csv"
expect_exit 2 "$FXKIT" plan --intervals "$WORK/short.csv"
expect_err "short.csv:2:6: error: missing field 'size'"

# Bad usage: exit 2.
expect_exit 2 "$FXKIT" plan --intervals "$M/example.12.csv" --capacity -5
expect_exit 2 "$FXKIT" plan --intervals "$M/example.12.csv" --capacity lots
expect_exit 2 "$FXKIT" plan --capacity 12
# --timeline: the plan as an SVG picture, one rectangle per buffer.
expect_exit 0 "$FXKIT" plan --intervals "$M/example.12.csv" -o "$WORK/e.csv" --timeline "$WORK/e.svg"
[ "$(grep -c 'class="buffer"' "$WORK/e.svg")" -eq "$(($(wc -l <"$WORK/e.csv") - 1))" ] ||
  fail "--timeline: not one rectangle per buffer"
expect_exit 2 "$FXKIT" plan --intervals "$WORK/does-not-exist.csv"
expect_err "cannot open"
finish
