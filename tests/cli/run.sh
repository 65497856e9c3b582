#!/usr/bin/env bash
# fxkit run: reference interpreter on recorded inputs, --check exit codes, -o outputs, random
# inputs with --sym, and bad input (exit 2, no output file).
. "$(dirname "$0")/lib.bash"
REF="$DATA/corpus/reference"

# Every reference workload reproduces its recorded outputs.
for dir in "$REF"/*/; do
  g="$dir/fw_0.graph.txt"
  expect_exit 0 "$FXKIT" run "$g" --inputs "$dir/fw_0.inputs.safetensors" \
    --check "$dir/fw_0.outputs.safetensors"
  expect_out "check passed"
done

# Outputs written with -o check against themselves; against another workload's outputs they
# fail with exit 1 and say which output differs.
S="$REF/dynamic_broadcast/fw_0"
expect_exit 0 "$FXKIT" run "$S.graph.txt" --inputs "$S.inputs.safetensors" -o "$WORK/out.safetensors"
expect_out "out_0: f32[33, 65]"
[ -s "$WORK/out.safetensors" ] || fail "-o wrote no file"
expect_exit 0 "$FXKIT" run "$S.graph.txt" --inputs "$S.inputs.safetensors" --check "$WORK/out.safetensors"
expect_out "out_0: f32[33, 65]: ok"
expect_exit 1 "$FXKIT" run "$S.graph.txt" --inputs "$S.inputs.safetensors" \
  --check "$REF/softmax/fw_0.outputs.safetensors"
expect_out "MISMATCH"
expect_out "check failed"

# Random inputs from the sidecar's symbolic types need every symbol.
expect_exit 0 "$FXKIT" run "$S.graph.txt" --sym s77=5 --sym s27=3 --sym s17=4 --seed 3
expect_out "out_0: f32[5, 4]"
expect_exit 2 "$FXKIT" run "$S.graph.txt" --sym s77=5
expect_err "--sym"
expect_exit 2 "$FXKIT" run "$S.graph.txt" --sym s77=five
expect_err "expected NAME=INTEGER"

# Inputs of the wrong workload: a clear error naming the input, exit 2, no output file.
expect_exit 2 "$FXKIT" run "$S.graph.txt" --inputs "$REF/softmax/fw_0.inputs.safetensors" \
  -o "$WORK/bad.safetensors"
expect_err "input"
[ ! -e "$WORK/bad.safetensors" ] || fail "an output file was left behind after an error"

# A truncated inputs file: exit 2.
head -c 100 "$S.inputs.safetensors" > "$WORK/trunc.safetensors"
expect_exit 2 "$FXKIT" run "$S.graph.txt" --inputs "$WORK/trunc.safetensors"
expect_err "trunc.safetensors"

# An op without a kernel names the node and the op.
printf 'graph():\n    %%x : [num_users=1] = placeholder[target=x]\n    %%y : [num_users=1] = call_function[target=torch.ops.aten.frobnicate.default](args = (%%x,), kwargs = {})\n    return (y,)\n' > "$WORK/unknown.graph.txt"
expect_exit 2 "$FXKIT" run "$WORK/unknown.graph.txt" --inputs "$REF/softmax/fw_0.inputs.safetensors"
expect_err "frobnicate"
finish
