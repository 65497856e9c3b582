#!/usr/bin/env bash
# Issue 19: deeply nested JSON (100k levels exhausted the stack: SIGSEGV) is a located error with
# exit 2 in every JSON input: safetensors headers (`run --inputs`), nodes.json sidecars, fxkit
# JSON, provenance mappings; FXKIT_JSON_MAX_DEPTH sets the limit (default 1000). And text fxkit
# writes reads back: ill-formed UTF-8 in FX text and empty targets in JSON are refused, strings
# print quoted where they would not read back bare. The big inputs are generated here.
. "$(dirname "$0")/lib.bash"
G="$DATA/corpus/reference/softmax/fw_0.graph.txt"
brackets() { printf "%$2s" '' | tr ' ' "$1"; } # brackets CHAR N: CHAR N times

# The reproducer: a safetensors header {"zz":[[[...]]],"yy":1} with 100000 arrays.
deep_header() { # deep_header N > FILE
  local header len i
  header="{\"zz\":$(brackets '[' "$1")$(brackets ']' "$1"),\"yy\":1}"
  len=${#header}
  for i in 0 1 2 3 4 5 6 7; do printf "\\x$(printf %02x $(((len >> (8 * i)) & 255)))"; done
  printf '%s' "$header"
}
deep_header 100000 >"$WORK/deep.safetensors"
expect_exit 2 "$FXKIT" run "$G" --inputs "$WORK/deep.safetensors"
expect_err "deep.safetensors:1:1006: error: safetensors header is not valid JSON: JSON nested deeper than 1000 levels"
expect_err "FXKIT_JSON_MAX_DEPTH"
expect_exit 2 "$FXKIT" run "$G" --inputs "$DATA/corpus/reference/softmax/fw_0.inputs.safetensors" \
  --check "$WORK/deep.safetensors"
expect_err "deep.safetensors:1:1006:"
# Within a raised limit the header parses, and the reader's own check speaks.
deep_header 1500 >"$WORK/d1500.safetensors"
expect_exit 2 "$FXKIT" run "$G" --inputs "$WORK/d1500.safetensors"
expect_err "JSON nested deeper than 1000 levels"
FXKIT_JSON_MAX_DEPTH=2000 expect_exit 2 "$FXKIT" run "$G" --inputs "$WORK/d1500.safetensors"
expect_err "safetensors tensor 'zz': entry is not an object"

# nodes.json sidecar beside a graph.
cp "$G" "$WORK/s.graph.txt"
printf '[{"name": "x", "val": %s%s}]' "$(brackets '[' 100000)" "$(brackets ']' 100000)" \
  >"$WORK/s.nodes.json"
expect_exit 2 "$FXKIT" info "$WORK/s.graph.txt"
expect_err "s.nodes.json:1:1021: error: JSON nested deeper than 1000 levels"

# fxkit's own JSON: a deep value where one is kept whole (crashed in the message's dump()).
printf '{"format": "fxkit.graph", "version": %s%s, "nodes": []}' "$(brackets '[' 100000)" \
  "$(brackets ']' 100000)" >"$WORK/deep.json"
expect_exit 2 "$FXKIT" convert "$WORK/deep.json" --to fx
expect_err "deep.json:1:1037: error: JSON nested deeper than 1000 levels"
# The limit is configurable: a tiny one refuses an ordinary graph.
"$FXKIT" convert "$G" -o "$WORK/g.json" || fail "convert to JSON failed"
FXKIT_JSON_MAX_DEPTH=3 expect_exit 2 "$FXKIT" info "$WORK/g.json"
expect_err "JSON nested deeper than 3 levels"
expect_exit 0 "$FXKIT" info "$WORK/g.json"

# Provenance mapping.
printf '{"preToPost": {"a": %s%s}}' "$(brackets '[' 100000)" "$(brackets ']' 100000)" \
  >"$WORK/prov.json"
expect_exit 2 "$FXKIT" convert "$G" --provenance "$WORK/prov.json" --to json -o "$WORK/p.json"
expect_err "prov.json:1:1019: error: JSON nested deeper than 1000 levels"

# Ill-formed UTF-8 in FX text (a surrogate, an overlong form): located errors, nothing written.
for bytes in '\xed\xa0\x80' '\xe0\x80\xaf' '\xc0\xaf' '\xf0\x80\x80\xaf'; do
  printf "graph():\n    %%x : [num_users=1] = placeholder[target=x]\n    %%y : [num_users=1] = call_function[target=f](args = (%%x, a${bytes}b), kwargs = {})\n    return (y,)\n" >"$WORK/u.graph.txt"
  expect_exit 2 "$FXKIT" convert "$WORK/u.graph.txt" -o "$WORK/u.json"
  expect_err "u.graph.txt:3:63: error: invalid UTF-8 byte"
  [ ! -e "$WORK/u.json" ] || fail "JSON written from ill-formed UTF-8 ($bytes)"
done

# An empty target in JSON is refused at the value; strings that would not read back bare print
# quoted, and FX text -> JSON -> FX text is the same text.
cat >"$WORK/e.json" <<'EOF'
{"format": "fxkit.graph", "version": 1, "nodes": [
 {"name": "x", "op": "placeholder", "target": "x"},
 {"name": "y", "op": "call_function", "target": "torch.ops.aten._assert_scalar.default",
  "args": [{"node": "x"}, "Runtime assertion failed for expression Eq(s0, 4) on node 'eq'"]},
 {"name": "z", "op": "call_function", "target": "f", "args": [{"tuple": ["", "a,b", "1", "cpu", "ok"]}]},
 {"name": "output", "op": "output", "target": "output", "args": [{"tuple": [{"node": "z"}]}]}
]}
EOF
expect_exit 0 "$FXKIT" convert "$WORK/e.json" --to fx -o "$WORK/e.graph.txt"
grep -qF "(args = (%x, \"Runtime assertion failed for expression Eq(s0, 4) on node 'eq'\"), kwargs = {})" \
  "$WORK/e.graph.txt" || fail "assertion message not quoted: $(cat "$WORK/e.graph.txt")"
grep -qF "(args = (('', 'a,b', '1', cpu, ok),), kwargs = {})" "$WORK/e.graph.txt" ||
  fail "strings not quoted: $(cat "$WORK/e.graph.txt")"
expect_exit 0 "$FXKIT" convert "$WORK/e.graph.txt" -o "$WORK/e2.json"
expect_exit 0 "$FXKIT" convert "$WORK/e2.json" --to fx -o "$WORK/e2.graph.txt"
cmp -s "$WORK/e.graph.txt" "$WORK/e2.graph.txt" || fail "FX text -> JSON -> FX text changed the text"
sed 's/"target": "f"/"target": ""/' "$WORK/e.json" >"$WORK/empty.json"
expect_exit 2 "$FXKIT" convert "$WORK/empty.json" --to fx
expect_err "empty.json:5:49: error: node 'z' (nodes[2]): empty target"
finish
