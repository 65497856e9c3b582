#!/usr/bin/env bash
# torch.export's default IR (tests/data/composite-ops, PyTorch 2.11's own archives of real
# models): the composite ops it keeps (linear, layer_norm, scaled_dot_product_attention,
# to.dtype, in-place writes through views, weight norm, wrap_with_set_grad_enabled bodies, ...)
# decompose, and the programs give the eager outputs on the interpreter and when compiled;
# `compile --passes decompose` writes the decomposed program, with no composite op left.
. "$(dirname "$0")/lib.bash"
C="$DATA/composite-ops"

if ! "$FXKIT" info "$C/hf_wav2vec2.pt2" >/dev/null 2>&1; then
  echo "skipped: this fxkit reads no .pt2 archives"
  exit 0
fi
count=0
for a in "$C"/*.pt2; do
  name="$(basename "$a" .pt2)"
  count=$((count + 1))
  for backend in interp loops; do
    expect_exit 0 "$FXKIT" run "$a" --inputs "$C/$name.inputs.safetensors" \
      --check "$C/$name.outputs.safetensors" --backend "$backend"
    expect_out "check passed"
  done
  expect_exit 0 "$FXKIT" compile "$a" --passes decompose --to fx -o "$WORK/$name.graph.txt"
  grep -qE "aten\.(linear|layer_norm|scaled_dot_product_attention|dropout|to\.|conv1d|group_norm)" \
    "$WORK/$name.graph.txt" && fail "$name: composite ops left after decompose"
done
[ "$count" -eq 3 ] || fail "ran $count archives in $C, expected 3"

# The untyped FX text of misc_ops runs on the eager inputs (the inputs type the placeholders).
expect_exit 0 "$FXKIT" run "$C/misc_ops.graph.txt" --inputs "$C/misc_ops.inputs.safetensors" \
  --check "$C/misc_ops.outputs.safetensors"
expect_out "check passed: 9 of 9 outputs match"
finish
