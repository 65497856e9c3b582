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

# FX text as str(graph) prints it, with no sidecar: its placeholders have no types, so the
# inputs given are the types (as torch.compile specialises on its first call's inputs), on the
# interpreter and on a compiled backend; without inputs the error says what to give.
cp "$REF/softmax/fw_0.graph.txt" "$WORK/untyped.graph.txt"
for backend in interp loops; do
  expect_exit 0 "$FXKIT" run "$WORK/untyped.graph.txt" --backend $backend \
    --inputs "$REF/softmax/fw_0.inputs.safetensors" --check "$REF/softmax/fw_0.outputs.safetensors"
  expect_out "out_0: f32[16, 100]: ok"
done
expect_exit 2 "$FXKIT" run "$WORK/untyped.graph.txt"
expect_err "placeholder 'arg0_1' has no type to make a random input from"

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
# A tensor constant the graph reads by get_attr (HF masks: `torch.tensor(0.0)`) and does not
# hold: its value comes from --inputs under the target's name; without it, a clear error (exit
# 2); with random inputs, a random value and a note.
cat > "$WORK/const.graph.txt" <<'G'
graph():
    %x : Tensor "f32[3][1]cpu"[num_users=1] = placeholder[target=x]
    %_tensor_constant0 : Tensor "f32[][]cpu"[num_users=1] = get_attr[target=_tensor_constant0]
    %gt : [num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%x, 0.0), kwargs = {})
    %where : [num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%gt, %_tensor_constant0, %x), kwargs = {})
    return (where,)
G
python3 - "$WORK" <<'PY'
import json, struct, sys
def write(path, tensors):
    header, data = {}, b""
    for name, (shape, values) in tensors.items():
        raw = struct.pack("<%df" % len(values), *values)
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    open(path, "wb").write(struct.pack("<Q", len(h)) + h + data)
w = sys.argv[1]
write(w + "/const.in.safetensors", {"arg_0": ([3], [-1, 2, -3]), "_tensor_constant0": ([], [7])})
write(w + "/const.out.safetensors", {"out_0": ([3], [-1, 7, -3])})
write(w + "/noconst.in.safetensors", {"arg_0": ([3], [-1, 2, -3])})
PY
for b in interp loops; do
  expect_exit 0 "$FXKIT" run "$WORK/const.graph.txt" --backend $b --inputs "$WORK/const.in.safetensors" \
    --check "$WORK/const.out.safetensors"
  expect_out "check passed: 1 of 1"
done
expect_exit 2 "$FXKIT" run "$WORK/const.graph.txt" --inputs "$WORK/noconst.in.safetensors"
expect_err "no tensor '_tensor_constant0': the graph reads it with get_attr"
expect_exit 0 "$FXKIT" run "$WORK/const.graph.txt"
expect_err "note: tensor constant '_tensor_constant0' is not in the graph file"
expect_out "out_0: f32[3]"
# A real model's: BLOOM's causal mask (tests/data/constants/PROVENANCE.md), on every backend.
B="$DATA/constants/bloom/fw_0"
for b in interp loops opencl llvm; do
  expect_exit 0 "$FXKIT" run "$B.graph.txt" --backend $b --inputs "$B.inputs.safetensors" \
    --check "$B.outputs.safetensors"
  expect_out "check passed: 1 of 1"
done
finish
