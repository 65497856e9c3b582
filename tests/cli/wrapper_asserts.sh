#!/usr/bin/env bash
# Inductor's nan_asserts and size checks in the exported C++ and Python wrappers: after every kernel, each floating-point
# buffer it wrote is checked for NaN and infinity when the runtime is asked to
# (FXKIT_NAN_ASSERTS=1, or the driver's --nan-asserts); off by default. Checked through the
# wrapper built and loaded in process (--backend cpp-wrapper; skipped without LLVM).
. "$(dirname "$0")/lib.bash"
export FXKIT_CACHE_DIR="$WORK/cache"
cat >"$WORK/nan.txt" <<'G'
graph():
    %x : Tensor "f32[4, 8][8, 1]cpu"[num_users=1] = placeholder[target=x]
    %log : [num_users=1] = call_function[target=torch.ops.aten.log.default](args = (%x,), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%log, 1), kwargs = {})
    return (add,)
G

# The check is in the generated code, guarded by the runtime's switch.
expect_exit 0 "$FXKIT" compile "$WORK/nan.txt" --to wrapper-cpp -o "$WORK/w"
grep -qF 'if (rt_.nanAsserts()) FXKIT_TRY(rt_.checkFinite(DeviceTensor{buf1, "float32", {4, 8}, {8, 1}, 0}, "buf1", "fused_log_add_0"));' \
  "$WORK/w/nan.cpp" || fail "no nan_asserts check after the launch: $(grep -n rt_.launch "$WORK/w/nan.cpp")"

# The Python wrapper has the same check, switched by the same variable.
expect_exit 0 "$FXKIT" compile "$WORK/nan.txt" --to wrapper-py -o "$WORK/w.py"
grep -qF "    if nan_asserts: check_finite(buf1, 'buf1', 'fused_log_add_0')" "$WORK/w.py" ||
  fail "no nan_asserts check after the Python launch: $(grep -n 'fused_log_add_0(' "$WORK/w.py")"
python3 -m py_compile "$WORK/w.py" || fail "the Python wrapper does not compile"
if python3 -c "import torch" 2>/dev/null; then
  # Where PyTorch is installed: off by default, on names the buffer, the kernel and the index.
  python3 -c "import sys; sys.argv=['w']; exec(open('$WORK/w.py').read().replace('__main__', 'x')); call(list(get_args()))" ||
    fail "the Python wrapper failed without nan_asserts"
  FXKIT_NAN_ASSERTS=1 python3 -c "import sys; exec(open('$WORK/w.py').read().replace('__main__', 'x')); call(list(get_args()))" \
    2>"$WORK/pyerr" && fail "the Python wrapper passed a NaN with nan_asserts on"
  grep -qF "nan_asserts: buffer buf1 written by kernel fused_log_add_0 holds NaN at [" "$WORK/pyerr" ||
    fail "the Python check said: $(tail -c 300 "$WORK/pyerr")"
else
  echo "note: no PyTorch here; the Python wrapper's check was read, not run"
fi

"$FXKIT" run "$WORK/nan.txt" --backend cpp-wrapper >"$WORK/out" 2>"$WORK/err"
rc=$?
if grep -q "LLVM component" "$WORK/err"; then
  echo "skipped the runs: this fxkit was built without LLVM"
  finish
  exit 0
fi
# Off by default: the random input's negative elements give NaN, returned as they are.
[ "$rc" -eq 0 ] || fail "run without nan_asserts exited $rc: $(head -c 400 "$WORK/err")"
expect_out "out_0: f32[4, 8]"
# On: the first NaN fails the call, naming the buffer and the kernel that wrote it (exit 2).
FXKIT_NAN_ASSERTS=1 expect_exit 2 "$FXKIT" run "$WORK/nan.txt" --backend cpp-wrapper \
  -o "$WORK/o.safetensors"
expect_err "nan_asserts: buffer buf1 written by kernel fused_log_add_0 holds NaN at ["
[ ! -e "$WORK/o.safetensors" ] || fail "an output file was left behind after an error"
# Finite results pass the check.
sed 's/aten.log.default/aten.exp.default/' "$WORK/nan.txt" >"$WORK/exp.txt"
FXKIT_NAN_ASSERTS=1 expect_exit 0 "$FXKIT" run "$WORK/exp.txt" --backend cpp-wrapper
expect_out "out_0: f32[4, 8]"
# Inputs are checked against the program's sizes (Inductor's assert_size_stride): a [8, 4]
# input for the [4, 8] placeholder is refused, naming both.
python3 - "$WORK/bad.safetensors" <<'PY'
import json, struct, sys
data = b"\x00\x00\x80\x3f" * 32
head = json.dumps({"arg_0": {"dtype": "F32", "shape": [8, 4], "data_offsets": [0, len(data)]}})
head = head.encode() + b" " * ((8 - len(head) % 8) % 8)
open(sys.argv[1], "wb").write(struct.pack("<Q", len(head)) + head + data)
PY
expect_exit 2 "$FXKIT" run "$WORK/exp.txt" --backend cpp-wrapper --inputs "$WORK/bad.safetensors"
expect_err "wrapper exp: x: expected size [4, 8], got [8, 4]"
finish
