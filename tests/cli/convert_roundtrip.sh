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
# A readable.py converts to the same FX text as the graph.txt beside it.
r="$DATA/corpus/reference/attention/fw_0"
expect_exit 0 "$FXKIT" convert "$r.readable.py" --to fx -o "$WORK/r.txt"
cmp -s "$r.graph.txt" "$WORK/r.txt" || fail "readable.py and graph.txt disagree"
finish
