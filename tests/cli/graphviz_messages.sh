#!/usr/bin/env bash
# Graphviz's own messages never reach the terminal raw (issue 21): cairo's "(null): graph is too
# large for cairo-renderer bitmaps. Scaling by 0.47 to fit", which its plugin prints straight to
# stderr, is caught in the layout process and said in fxkit's words, by convert and the shell's
# render and export; an SVG of the same graph says nothing.
. "$(dirname "$0")/lib.bash"
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
if "$FXKIT" convert "$DATA/repl/small.graph.txt" --to svg 2>&1 | grep -q "without Graphviz"; then
  echo "built without Graphviz: skipped"
  exit 77
fi

# A chain of 600 relus: its picture is about 70000 pixels tall, over cairo's 32767.
python3 - "$WORK/chain.graph.txt" <<'PY'
import sys
lines = ["graph():", '    %x : Tensor "f32[4][1]cpu" = placeholder[target=x]']
prev = "x"
for i in range(600):
    lines.append(f'    %n{i} : Tensor "f32[4][1]cpu" = call_function['
                 f'target=torch.ops.aten.relu.default](args = (%{prev},), kwargs = {{}})')
    prev = f"n{i}"
lines.append(f"    return ({prev},)")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
c="$WORK/chain.graph.txt"
warning='picture too large for a bitmap: scaled to [0-9.]+% \(use --to svg, or --collapse\)'

# no_raw_graphviz: nothing of Graphviz's own wording in $WORK/err.
no_raw_graphviz() {
  grep -qE '\(null\)|cairo-renderer|Scaling by' "$WORK/err" && fail "Graphviz's raw message: $(cat "$WORK/err")"
}

expect_exit 0 "$FXKIT" convert "$c" -o "$WORK/chain.png"
[ "$(head -c 4 "$WORK/chain.png" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "no PNG written"
grep -qxE "fxkit: warning: $warning" "$WORK/err" || fail "convert --to png: no warning: $(cat "$WORK/err")"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "convert --to png said more than the warning: $(cat "$WORK/err")"
no_raw_graphviz

# The shell: render and export say it as the shell's warnings, then what they wrote.
expect_exit 0 "$FXKIT" -c "render $WORK/r.png; export png $WORK/e.png" "$c"
[ "$(grep -cxE "warning: $warning" "$WORK/err")" -eq 2 ] ||
  fail "render and export png: not one warning each: $(cat "$WORK/err")"
expect_err "wrote $WORK/r.png (png, 602 nodes)"
expect_err "wrote $WORK/e.png (png)"
no_raw_graphviz

# SVG has no size limit: no warning.
expect_exit 0 "$FXKIT" convert "$c" -o "$WORK/chain.svg"
[ -s "$WORK/err" ] && fail "convert --to svg printed: $(cat "$WORK/err")"
finish
