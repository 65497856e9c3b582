#!/usr/bin/env bash
# `fxkit convert` through every format reproduces corpus graphs byte for byte.
. "$(dirname "$0")/lib.sh"
for f in "$DATA"/corpus/inductor/dynamic_broadcast/aten_post_0.graph.txt \
         "$DATA"/corpus/inductor/transformer_layer/dynamo_0.graph.txt \
         "$DATA"/corpus/reference/attention/fw_0.graph.txt; do
  expect_exit 0 "$FXKIT" convert "$f" -o "$WORK/g.json"
  expect_exit 0 "$FXKIT" convert "$WORK/g.json" -o "$WORK/g.py"
  expect_exit 0 "$FXKIT" convert "$WORK/g.py" --to fx -o "$WORK/g.txt"
  cmp -s "$f" "$WORK/g.txt" || fail "round trip of $f differs"
  # stdin to stdout
  "$FXKIT" convert - --from fx --to fx < "$f" > "$WORK/s.txt" || fail "stdin convert of $f"
  cmp -s "$f" "$WORK/s.txt" || fail "stdin/stdout round trip of $f differs"
done
finish
