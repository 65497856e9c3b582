#!/usr/bin/env bash
# Pictures of every corpus Inductor program with its fusion decisions (`compile --to svg
# --fusion` and `report`): exit 0, a well-formed SVG, an HTML page that embeds it. Graphviz
# 2.43's dot plugin double-frees in gvFreeLayout on clustered graphs with edge labels
# (resnet_block, transformer_layer, deep_mlp); the layout runs in a child process that never
# frees it (exporters/GraphvizRender.cpp). Skipped only where fxkit is built without libgvc.
. "$(dirname "$0")/lib.bash"
if ! "$FXKIT" convert "$DATA/corpus/reference/softmax/fw_0.graph.txt" --to svg -o /dev/null \
  2>/dev/null; then
  echo "skipped: this fxkit is built without libgvc"
  finish
  exit 0
fi
checked=0
for G in "$DATA"/corpus/inductor/*/aten_post_*.graph.txt; do
  name="$(basename "$(dirname "$G")")_$(basename "$G" .graph.txt)"
  S="$WORK/$name.svg"
  expect_exit 0 "$FXKIT" compile "$G" --to svg --fusion -o "$S"
  python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot()
sys.exit(0 if r.tag.endswith("svg") else 1)' "$S" 2>/dev/null ||
    fail "$name: compile --to svg --fusion wrote no well-formed SVG"
  H="$WORK/$name.html"
  expect_exit 0 "$FXKIT" report "$G" -o "$H"
  grep -q "<svg" "$H" && grep -q "</svg>" "$H" && grep -q "</html>" "$H" ||
    fail "$name: the report has no complete picture"
  checked=$((checked + 1))
done
[ "$checked" -eq 20 ] || fail "checked $checked corpus aten_post graphs, expected 20"
ls -a "$WORK" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
finish
