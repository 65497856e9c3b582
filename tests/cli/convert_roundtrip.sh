#!/usr/bin/env bash
# `fxkit convert` through every format reproduces corpus graphs byte for byte. The Python form
# does not carry Dynamo's Python types (`torch.nn.parameter.Parameter`), so graphs with them go
# FX -> JSON -> FX only.
. "$(dirname "$0")/lib.bash"
for f in "$DATA"/corpus/inductor/dynamic_broadcast/aten_post_0.graph.txt \
         "$DATA"/corpus/reference/attention/fw_0.graph.txt \
         "$DATA"/corpus/inductor/transformer_layer/dynamo_0.graph.txt; do
  expect_exit 0 "$FXKIT" convert "$f" -o "$WORK/g.json"
  if grep -q ' : torch\.' "$f"; then
    expect_exit 0 "$FXKIT" convert "$WORK/g.json" -o "$WORK/g.txt"
  else
    expect_exit 0 "$FXKIT" convert "$WORK/g.json" -o "$WORK/g.py"
    expect_exit 0 "$FXKIT" convert "$WORK/g.py" --to fx -o "$WORK/g.txt"
  fi
  cmp -s "$f" "$WORK/g.txt" || fail "round trip of $f differs"
  "$FXKIT" convert - --from fx --to fx < "$f" > "$WORK/s.txt" || fail "stdin convert of $f"
  cmp -s "$f" "$WORK/s.txt" || fail "stdin/stdout round trip of $f differs"
done
# Nested GraphModules (the bodies of cond, while_loop, invoke_subgraph, map, flex_attention, ...)
# go through JSON: every print_readable() file of PyTorch 2.11's captures with a nested class
# converts fxpy -> JSON -> fxpy to what fxpy -> fxpy prints, the JSON holding the children.
nested=0
for f in "$DATA"/fx-capture/*/*.readable.py "$DATA"/fx-capture/*/*/*.readable.py; do
  [ -f "$f" ] && grep -q '^    class ' "$f" || continue
  nested=$((nested + 1))
  expect_exit 0 "$FXKIT" convert "$f" --to fxpy -o "$WORK/direct.py"
  expect_exit 0 "$FXKIT" convert "$f" --to json -o "$WORK/n.json"
  grep -q '"submodules": \[' "$WORK/n.json" || fail "JSON of $f has no submodules"
  expect_exit 0 "$FXKIT" convert "$WORK/n.json" --to fxpy -o "$WORK/n.py"
  cmp -s "$WORK/direct.py" "$WORK/n.py" || fail "fxpy -> json -> fxpy of $f differs"
done
[ "$nested" -eq 40 ] || fail "expected 40 fx-capture files with nested classes, found $nested"
# torch.export's unlifted module reads get_attr nodes before its placeholder (Graph.lint allows
# it): FX -> JSON -> FX keeps that order byte for byte.
u="$DATA/fx-capture/export/unlifted_module.graph.txt"
expect_exit 0 "$FXKIT" convert "$u" -o "$WORK/u.json"
expect_exit 0 "$FXKIT" convert "$WORK/u.json" -o "$WORK/u.txt"
cmp -s "$u" "$WORK/u.txt" || fail "round trip of $u differs"
# A readable.py converts to the same FX text as the graph.txt beside it.
r="$DATA/corpus/reference/attention/fw_0"
expect_exit 0 "$FXKIT" convert "$r.readable.py" --to fx -o "$WORK/r.txt"
cmp -s "$r.graph.txt" "$WORK/r.txt" || fail "readable.py and graph.txt disagree"
finish
