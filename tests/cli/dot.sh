#!/usr/bin/env bash
# `--to dot`: any graph converts to Graphviz DOT, a compiled program draws kernels filled and
# extern calls as hexagons, and dot is refused as an input format with a clear error.
. "$(dirname "$0")/lib.bash"
G="$DATA/corpus/reference/attention/fw_0.graph.txt"
expect_exit 0 "$FXKIT" convert "$G" --to dot
expect_out "digraph fxkit {"
expect_exit 0 "$FXKIT" convert "$G" -o "$WORK/g.dot"
grep -q "digraph fxkit {" "$WORK/g.dot" || fail "-o g.dot did not write DOT"
# A compiled program: loop ops in one cluster per kernel, extern calls as hexagons, refused
# fusions with --fusion, one box per kernel with --collapse kernel.
expect_exit 0 "$FXKIT" compile "$G" --to dot
expect_out "subgraph \"cluster_k"
expect_out "fillcolor="
expect_out "shape=hexagon"
expect_exit 0 "$FXKIT" compile "$G" --to dot --fusion
expect_out "style=dashed"
expect_exit 0 "$FXKIT" compile "$G" --to dot --collapse kernel
grep -q "subgraph" "$WORK/out" && fail "--collapse kernel still draws clusters"
expect_exit 2 "$FXKIT" convert "$G" --to dot --collapse kernel
expect_err "needs kernels"
expect_exit 0 "$FXKIT" convert "$DATA/corpus/inductor/softmax/output_code_0.py" --to dot
expect_out "subgraph \"cluster_"
# The memory plan as a picture, and a MiniMalloc plan's.
expect_exit 0 "$FXKIT" compile "$G" --to timeline -o "$WORK/t.svg"
grep -q 'class="buffer"' "$WORK/t.svg" || fail "--to timeline drew no buffer"
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
  # PNG and PDF, in-process, written atomically.
  expect_exit 0 "$FXKIT" compile "$G" -o "$WORK/g.png"
  head -c 4 "$WORK/g.png" | grep -q PNG || fail "-o g.png is not a PNG"
  expect_exit 0 "$FXKIT" convert "$G" --to pdf -o "$WORK/g.pdf"
  head -c 5 "$WORK/g.pdf" | grep -q '%PDF' || fail "--to pdf is not a PDF"
  expect_exit 2 "$FXKIT" convert "$WORK/missing.graph.txt" -o "$WORK/m.png"
  [ -e "$WORK/m.png" ] && fail "a failed conversion left m.png"
else
  expect_err "without Graphviz"
fi
finish
