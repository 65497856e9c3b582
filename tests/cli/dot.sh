#!/usr/bin/env bash
# `--to dot`: any graph converts to Graphviz DOT, a compiled program draws kernels filled and
# extern calls as hexagons, and dot is refused as an input format with a clear error.
. "$(dirname "$0")/lib.bash"
G="$DATA/corpus/reference/attention/fw_0.graph.txt"
expect_exit 0 "$FXKIT" convert "$G" --to dot
expect_out "digraph fxkit {"
expect_exit 0 "$FXKIT" convert "$G" -o "$WORK/g.dot"
grep -q "digraph fxkit {" "$WORK/g.dot" || fail "-o g.dot did not write DOT"
expect_exit 0 "$FXKIT" compile "$G" --to dot
expect_out "fxkit.kernel"
expect_out "fillcolor="
expect_out "shape=hexagon"
expect_exit 2 "$FXKIT" convert "$WORK/g.dot" --to fx
expect_err "dot is an output format only"
expect_exit 2 "$FXKIT" convert "$G" --from dot --to fx
expect_err "dot is an output format only"
if command -v dot >/dev/null; then
  dot -Tsvg "$WORK/g.dot" -o /dev/null || fail "dot rejected the DOT of $G"
fi
# --to svg: laid out in-process by libgvc where the build has it, else a clear error.
if "$FXKIT" convert "$G" --to svg >"$WORK/g.svg" 2>"$WORK/err"; then
  head -c 5 "$WORK/g.svg" | grep -q '<?xml' || fail "the SVG does not start with <?xml"
  grep -q '<svg' "$WORK/g.svg" || fail "the SVG has no <svg element"
  mkdir -p "$WORK/in"
  for g in attention mlp softmax; do
    cp "$DATA/corpus/reference/$g/fw_0.graph.txt" "$WORK/in/$g.graph.txt"
  done
  expect_exit 0 "$FXKIT" convert "$WORK"/in/*.graph.txt -o "$WORK/svg" --to svg --jobs 2
  for g in attention mlp softmax; do
    grep -q '<svg' "$WORK/svg/$g.svg" || fail "batch --to svg: no picture of $g"
  done
else
  expect_err "without Graphviz"
fi
finish
