#!/usr/bin/env bash
# The prims Inductor lowers (tests/data/prims, a post-grad-style graph: elementwise prims with
# special functions, broadcast_in_dim, sum, var, rev, convert_element_type, an effect token):
# every backend gives the reference interpreter's outputs, `fuse --plan` plans it without extern
# calls, and the Python wrapper spells the special functions as torch does.
. "$(dirname "$0")/lib.bash"
G="$DATA/prims/postgrad_prims.graph.txt"

expect_exit 0 "$FXKIT" run "$G" --seed 3 -o "$WORK/ref.safetensors"
expect_out "out_0: f64[4]"
backends="loops opencl cpp-wrapper"
"$FXKIT" devices >/dev/null 2>&1 || backends="loops cpp-wrapper"
"$FXKIT" run "$G" --seed 3 --backend llvm --check "$WORK/ref.safetensors" >/dev/null 2>&1 &&
  backends="$backends llvm"
count=0
for b in $backends; do
  expect_exit 0 "$FXKIT" run "$G" --seed 3 --backend "$b" --check "$WORK/ref.safetensors"
  expect_out "check passed: 3 of 3 outputs match"
  count=$((count + 1))
done
[ "$count" -ge 2 ] || fail "checked $count backends, expected at least 2"

expect_exit 0 "$FXKIT" fuse "$G" --plan
expect_out "extern calls: 0"
expect_exit 0 "$FXKIT" compile "$G" --to wrapper-py -o "$WORK/prims.py"
for f in torch.lgamma torch.digamma torch.special.erfcx torch.signbit; do
  grep -qF "$f(" "$WORK/prims.py" || fail "wrapper-py lacks $f"
done
expect_exit 0 "$FXKIT" compile "$G" --to opencl -o "$WORK/prims.cl"
grep -qF "fx_digamma_f" "$WORK/prims.cl" || fail "OpenCL C lacks fx_digamma_f"

# Prims neither broadcast nor promote: a clear error, exit 2.
sed 's/prims.add.default](args = (%abs_1, %abs_2)/prims.add.default](args = (%abs_1, %arg1_1)/' "$G" \
  >"$WORK/bad.graph.txt"
expect_exit 2 "$FXKIT" run "$WORK/bad.graph.txt" --seed 3
expect_err "prims do not broadcast"
finish
