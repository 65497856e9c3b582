#!/usr/bin/env bash
# fxkit devices, fxkit run --backend opencl|loops (every reference workload checked against its
# recorded outputs, the kernel cache, bad devices and backends: exit 2, no output file), and
# fxkit compile --to opencl.
. "$(dirname "$0")/lib.bash"
REF="$DATA/corpus/reference"
export FXKIT_CACHE_DIR="$WORK/cache"

expect_exit 0 "$FXKIT" devices
expect_out "[default]"

for dir in "$REF"/*/; do
  for backend in loops opencl; do
    expect_exit 0 "$FXKIT" run "$dir/fw_0.graph.txt" --backend "$backend" \
      --inputs "$dir/fw_0.inputs.safetensors" --check "$dir/fw_0.outputs.safetensors"
    expect_out "check passed"
  done
done

# The second process finds the binaries and tuned configurations in the cache.
S="$REF/softmax/fw_0"
expect_exit 0 "$FXKIT" run "$S.graph.txt" --backend opencl --stats --inputs "$S.inputs.safetensors" \
  --check "$S.outputs.safetensors"
expect_err "kernels built 0, from cache 1; configurations tuned 0, from cache 1"

# FXKIT_TUNE_LOG=1: the work-group limit and every timed configuration on stderr.
FXKIT_TUNE_LOG=1 expect_exit 0 "$FXKIT" run "$S.graph.txt" --backend opencl --no-cache
expect_err "fxkit: tune fused_amax_sum_sub_exp_0: work-group limit "
expect_err "fxkit: tune fused_amax_sum_sub_exp_0 x16_r100 lanes="
# The tuning budget (FXKIT_TUNE_BUDGET_S): once spent, the fastest configuration so far is kept.
FXKIT_TUNE_BUDGET_S=0.000001 FXKIT_TUNE_LOG=1 expect_exit 0 "$FXKIT" run "$S.graph.txt" \
  --backend opencl --no-cache --inputs "$S.inputs.safetensors" --check "$S.outputs.safetensors"
expect_err "fxkit: tune fused_amax_sum_sub_exp_0 x16_r100: budget of 0.0 s spent after 1 configurations"

# Bad device and backend: exit 2, clear message, no output file.
expect_exit 2 "$FXKIT" run "$S.graph.txt" --backend opencl --device 99 -o "$WORK/o.safetensors"
expect_err "no OpenCL device 99"
[ ! -e "$WORK/o.safetensors" ] || fail "an output file was left behind after an error"
expect_exit 2 "$FXKIT" run "$S.graph.txt" --backend opencl --device tpu
expect_err "expected cpu, gpu or a device number"
expect_exit 2 "$FXKIT" run "$S.graph.txt" --backend cuda
expect_err "unknown backend 'cuda'"

# The kernels as OpenCL C.
expect_exit 0 "$FXKIT" compile "$S.graph.txt" --to opencl -o "$WORK/k.cl"
grep -q "__kernel void fused_amax_sum_sub_exp_0(" "$WORK/k.cl" || fail "no kernel in --to opencl"
grep -q "typedef FX_INDEX_T fx_index_t;" "$WORK/k.cl" || fail "no prelude in --to opencl"
# As a folder: one .cl per kernel (each with the prelude) and a manifest naming them, for every
# reference workload; the manifest's launches list kernels and extern calls in schedule order.
for dir in "$DATA"/corpus/reference/*/; do
  name="$(basename "$dir")"
  expect_exit 0 "$FXKIT" compile "$dir/fw_0.graph.txt" --to opencl -o "$WORK/cl/$name"
  python3 - "$WORK/cl/$name" <<'PY' || fail "$name: the OpenCL folder does not match its manifest"
import json, os, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "manifest.json")))
assert m["format"] == "fxkit-opencl" and m["version"] == 1
names = {k["name"] for k in m["kernels"]}
for k in m["kernels"]:
    src = open(os.path.join(d, k["file"])).read()
    assert "__kernel void " + k["name"] + "(" in src and "fx_index_t" in src, k["name"]
for launch in m["launches"]:
    assert ("kernel" in launch and launch["kernel"] in names) or "extern" in launch, launch
assert len(m["launches"]) >= 1 and len(m["inputs"]) >= 1 and len(m["outputs"]) >= 1
assert sorted(os.listdir(d)) == sorted([k["file"] for k in m["kernels"]] + ["manifest.json"])
PY
done
[ "$(ls "$WORK/cl" | wc -l)" -eq 10 ] || fail "expected 10 OpenCL folders"

# A second compile into a folder replaces the first generation whole (softmax's kernels do not
# linger beside layernorm's); a folder holding files fxkit did not write is refused, untouched.
expect_exit 0 "$FXKIT" compile "$REF/layernorm/fw_0.graph.txt" --to opencl -o "$WORK/cl/softmax"
python3 - "$WORK/cl/softmax" <<'PY' || fail "the replaced OpenCL folder mixes two generations"
import json, os, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "manifest.json")))
assert sorted(os.listdir(d)) == sorted([k["file"] for k in m["kernels"]] + ["manifest.json"])
assert not any("amax_sum_sub_exp" in f for f in os.listdir(d)), os.listdir(d)
PY
mkdir -p "$WORK/mine" && echo "keep me" > "$WORK/mine/notes.txt"
expect_exit 2 "$FXKIT" compile "$S.graph.txt" --to opencl -o "$WORK/mine"
expect_err "it holds 'notes.txt', which this output does not write"
[ "$(ls "$WORK/mine")" = "notes.txt" ] || fail "a refused folder output changed the folder"
echo "x" > "$WORK/afile"
expect_exit 2 "$FXKIT" compile "$S.graph.txt" --to opencl -o "$WORK/afile/"
expect_err "a file of that name exists"
finish
