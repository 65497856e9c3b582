#!/usr/bin/env bash
# fxkit run --backend opencl --resident: the inputs stay on the device after the first run,
# the outputs are read once after the last, the numbers are the recorded ones; --stats counts
# what moved and prints the device time of the runs from queue events beside the wall time.
# A backend without a device refuses --resident (exit 2). The C++ wrapper's runtime reuses the
# device buffers a call frees.
. "$(dirname "$0")/lib.bash"
export FXKIT_CACHE_DIR="$WORK/cache"
M="$DATA/corpus/reference/mlp/fw_0"

# Three runs of the MLP (5 inputs, one output): copied once, kept twice, read once.
expect_exit 0 "$FXKIT" run "$M.graph.txt" --backend opencl --no-tune --resident --repeat 3 \
  --stats --inputs "$M.inputs.safetensors" --check "$M.outputs.safetensors"
expect_out "check passed: 1 of 1 outputs match"
expect_err "opencl: 3 runs: inputs copied to the device 5 (13632 bytes), kept there 10; outputs read 1 (512 bytes); other copies 0 (0 bytes); device allocations 6; host waits 1"
expect_err "opencl: device time per run (queue events): first "
expect_err ", later runs "

# Without --resident every run copies its inputs and reads its outputs.
expect_exit 0 "$FXKIT" run "$M.graph.txt" --backend opencl --no-tune --repeat 3 --stats \
  --inputs "$M.inputs.safetensors" --check "$M.outputs.safetensors"
expect_err "opencl: 3 runs: inputs copied to the device 15 (40896 bytes), kept there 0; outputs read 3 (1536 bytes); other copies 0 (0 bytes); device allocations 6; host waits 3"

# The reference interpreter has no device: refused before anything runs, no output file.
expect_exit 2 "$FXKIT" run "$M.graph.txt" --resident -o "$WORK/o.safetensors"
expect_err "fxkit: error: --resident: this backend keeps nothing on a device between runs"
[ ! -e "$WORK/o.safetensors" ] || fail "an output file was left behind after an error"
# The REPL's bench: --resident keeps the inputs on the device; the device time of the runs
# from queue events is printed under the wall times. Refused without a device.
expect_exit 0 "$FXKIT" -c "bench 3 --backend opencl --resident" "$M.graph.txt"
expect_out "fw_0: 3 runs on opencl: min "
expect_out "fw_0: device time per run (queue events): min "
expect_out ", inputs kept on the device"
expect_exit 2 "$FXKIT" -c "bench 2 --resident" "$M.graph.txt"
expect_err "bench --resident: this backend keeps nothing on a device between runs"

# The exported C++ wrapper's runtime (here built and loaded in process, --backend cpp-wrapper)
# keeps the device buffers a call frees for the next call: the second and third calls allocate
# nothing; every call gets its device time from queue events. Where LLVM is not built in, the
# backend is refused (cli.cpp_wrapper_build checks that).
"$FXKIT" run "$M.graph.txt" --backend cpp-wrapper --no-tune --repeat 3 --stats \
  --inputs "$M.inputs.safetensors" --check "$M.outputs.safetensors" >"$WORK/out" 2>"$WORK/err"
rc=$?
if ! grep -q "LLVM component" "$WORK/err"; then
  [ "$rc" -eq 0 ] || fail "run --backend cpp-wrapper exited $rc: $(head -c 400 "$WORK/err")"
  expect_out "check passed: 1 of 1 outputs match"
  expect_err "; device buffers: 6 allocated, 12 reused"
  expect_err "cpp-wrapper: device time per run (queue events): first "
fi
finish
