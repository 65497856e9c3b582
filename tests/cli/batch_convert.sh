#!/usr/bin/env bash
# `fxkit convert IN... -o DIR --to FMT [--jobs N]`: a batch converts every good input even when
# one is bad, exits 1, prints a summary, leaves no file for the bad input, and the outputs do not
# depend on the number of workers.
. "$(dirname "$0")/lib.bash"
R="$DATA/corpus/reference"
mkdir -p "$WORK/in"
for g in attention mlp softmax layernorm pointwise; do
  cp "$R/$g/fw_0.graph.txt" "$WORK/in/$g.graph.txt"
done
printf 'graph():\n    %%x : [num_users=1] = placeholder[target=x]\n    %%y = bogus(\n' \
  > "$WORK/in/bad.graph.txt"

expect_exit 2 "$FXKIT" convert "$WORK"/in/*.graph.txt -o "$WORK/o1/sub" --to json --jobs 1
expect_err "converted 5, failed 1"
expect_err "bad.graph.txt:"
[ -e "$WORK/o1/sub/bad.json" ] && fail "a file was written for the bad input"
ls -a "$WORK/o1/sub" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
for g in attention mlp softmax layernorm pointwise; do
  [ -s "$WORK/o1/sub/$g.json" ] || fail "no output for $g"
done
# Not a terminal: no progress line, only errors and the summary.
grep -q $'\r' "$WORK/err" && fail "progress drawn when stderr is not a terminal"

expect_exit 2 "$FXKIT" convert "$WORK"/in/*.graph.txt -o "$WORK/o2" --to json --jobs 2
expect_err "converted 5, failed 1"
diff -r "$WORK/o1/sub" "$WORK/o2" >/dev/null || fail "--jobs 1 and --jobs 2 differ"

# Back to FX text: the batch output round-trips to the original bytes.
expect_exit 0 "$FXKIT" convert "$WORK"/o2/*.json -o "$WORK/o3" --to fx
expect_err "converted 5, failed 0"
for g in attention mlp softmax layernorm pointwise; do
  cmp -s "$WORK/in/$g.graph.txt" "$WORK/o3/$g.graph.txt" || fail "round trip of $g differs"
done

# A writer's note reaches the batch's stderr, once, naming its input: a chain of 600 relus is a
# PNG over cairo's 32767 pixels (Graphviz's warning, as `convert G -o G.png` says it), the small
# graph beside it says nothing.
if "$FXKIT" convert "$WORK/in/mlp.graph.txt" --to svg 2>&1 | grep -q "without Graphviz"; then
  echo "built without Graphviz: batch notes not checked"
else
  mkdir -p "$WORK/pic"
  {
    echo 'graph():'
    echo '    %x : Tensor "f32[4][1]cpu" = placeholder[target=x]'
    prev=x
    for i in $(seq 0 599); do
      echo "    %n$i : Tensor \"f32[4][1]cpu\" = call_function[target=torch.ops.aten.relu.default](args = (%$prev,), kwargs = {})"
      prev=n$i
    done
    echo "    return ($prev,)"
  } >"$WORK/pic/chain.graph.txt"
  cp "$WORK/in/mlp.graph.txt" "$WORK/pic/"
  expect_exit 0 "$FXKIT" convert "$WORK/pic/chain.graph.txt" "$WORK/pic/mlp.graph.txt" \
    -o "$WORK/o7" --to png
  [ -s "$WORK/o7/chain.png" ] && [ -s "$WORK/o7/mlp.png" ] || fail "batch --to png: missing outputs"
  grep -qxE "fxkit: $WORK/pic/chain.graph.txt: warning: picture too large for a bitmap: scaled to [0-9.]+% \(use --to svg, or --collapse\)" \
    "$WORK/err" || fail "batch --to png: no warning for the chain: $(cat "$WORK/err")"
  [ "$(grep -c 'fxkit: ' "$WORK/err")" -eq 1 ] || fail "batch --to png: not one note: $(cat "$WORK/err")"
  expect_err "converted 2, failed 0"
fi

# Bad usage: no --to, stdout as a folder, two inputs with one stem under --flat (without it the
# tree is kept: tests/cli/batch_tree.sh), --jobs 0.
expect_exit 2 "$FXKIT" convert "$WORK/in/mlp.graph.txt" "$WORK/in/softmax.graph.txt" -o "$WORK/o4"
expect_exit 2 "$FXKIT" convert "$WORK/in/mlp.graph.txt" "$WORK/in/softmax.graph.txt" --to json
expect_exit 2 "$FXKIT" convert "$WORK/in/mlp.graph.txt" "$WORK/o2/mlp.json" -o "$WORK/o5" --to fx \
  --flat
expect_err "would both be written to '$WORK/o5/mlp.graph.txt'"
[ -e "$WORK/o5" ] && fail "bad usage created the output folder"
expect_exit 2 "$FXKIT" convert "$WORK/in/mlp.graph.txt" "$WORK/in/softmax.graph.txt" \
  -o "$WORK/o6" --to json --jobs 0
finish
