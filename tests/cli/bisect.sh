#!/usr/bin/env bash
# `fxkit bisect` (issue 22): a kernel made wrong on purpose (FXKIT_FAULT=corrupt-kernel:K,
# ir/FaultInjection.h) is found by name, with the FX nodes it computes, the worst element and
# the tolerance; healthy programs agree (exit 0); --minimize cuts the corpus attention (43 call
# nodes) and a zoo model down to at most 10 nodes that still fail, written with their inputs.
# The loops backend gives exact golden text; opencl and llvm are checked where built.
. "$(dirname "$0")/lib.bash"
A="$DATA/corpus/reference/attention/fw_0"
ARGS=("$A.graph.txt" --inputs "$A.inputs.safetensors")
export FXKIT_CACHE_DIR="$WORK/cache"

# ---- Healthy: every kernel agrees, exit 0. ----
expect_exit 0 "$FXKIT" bisect "${ARGS[@]}" --backend loops
cat >"$WORK/want" <<'TXT'
bisect: loops against the reference interpreter, 7 kernels run one by one, 9 buffers compared
every kernel agrees with the reference interpreter
TXT
diff -u "$WORK/want" "$WORK/out" >&2 || fail "healthy bisect output differs"

# ---- One corrupted kernel (by name without its number), loops: golden, exit 1. ----
FXKIT_FAULT=corrupt-kernel:fused_div_amax_sum_sub expect_exit 1 "$FXKIT" bisect "${ARGS[@]}" \
  --backend loops
cat >"$WORK/want" <<'TXT'
bisect: loops against the reference interpreter, 7 kernels run one by one, 6 buffers compared
first bad kernel: #3 fused_div_amax_sum_sub_1
  FX nodes it computes: %div %amax %sum_1 %sub %exp %div_1
  buf9 holds %div_1 f32[2, 4, 16, 16]: 2048 of 2048 elements not close
  worst element [0, 0, 0, 2]: expected 0.078826845, got 1.0788269
  tolerance (float32): rtol 0.0001, atol 0.0001
TXT
diff -u "$WORK/want" "$WORK/out" >&2 || fail "corrupted-kernel bisect output differs"

# ---- The same kernel by index on the compiled backends built here. ----
for backend in opencl llvm; do
  "$FXKIT" bisect "${ARGS[@]}" --backend "$backend" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  if [ "$rc" -eq 2 ] && grep -q "built without\|no OpenCL\|device" "$WORK/err"; then
    echo "note: $backend not here: $(head -c 200 "$WORK/err")"
    continue
  fi
  [ "$rc" -eq 0 ] || fail "healthy bisect on $backend exited $rc: $(head -c 400 "$WORK/err")"
  FXKIT_FAULT=corrupt-kernel:3 expect_exit 1 "$FXKIT" bisect "${ARGS[@]}" --backend "$backend"
  expect_out "first bad kernel: #3 fused_div_amax_sum_sub_1"
  expect_out "buf9 holds %div_1 f32[2, 4, 16, 16]: 2048 of 2048 elements not close"
  # `run` with the same fault: the corrupted kernel really changes the result.
  FXKIT_FAULT=corrupt-kernel:3 expect_exit 1 "$FXKIT" run "${ARGS[@]}" --backend "$backend" \
    --check "$A.outputs.safetensors"
done

# ---- cpp-wrapper runs the program as a whole: its outputs are compared. ----
"$FXKIT" bisect "${ARGS[@]}" --backend cpp-wrapper >"$WORK/out" 2>"$WORK/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "built without" "$WORK/err"; then
  echo "note: cpp-wrapper not here"
else
  [ "$rc" -eq 0 ] || fail "healthy bisect on cpp-wrapper exited $rc: $(head -c 400 "$WORK/err")"
  expect_out "7 kernels (the cpp-wrapper backend runs the program as a whole: outputs compared)"
  expect_out "every output agrees with the reference interpreter"
fi

# ---- --minimize: at most 10 call nodes that still fail, with their inputs. ----
FXKIT_FAULT=corrupt-kernel:fused_div_amax_sum_sub expect_exit 1 "$FXKIT" bisect "${ARGS[@]}" \
  --backend loops --minimize -o "$WORK/small"
expect_out "minimized: 6 call nodes (from 43)"
expect_out "wrote $WORK/small/graph.txt and $WORK/small/inputs.safetensors"
calls=$(grep -c "call_function" "$WORK/small/graph.txt")
[ "$calls" -le 10 ] || fail "minimized graph has $calls call nodes"
# The small graph fails alone with its inputs, and agrees without the fault.
FXKIT_FAULT=corrupt-kernel:fused_div_amax_sum_sub expect_exit 1 "$FXKIT" bisect \
  "$WORK/small/graph.txt" --inputs "$WORK/small/inputs.safetensors" --backend loops
expect_out "first bad kernel: #0 fused_div_amax_sum_sub_0"
expect_exit 0 "$FXKIT" bisect "$WORK/small/graph.txt" --inputs "$WORK/small/inputs.safetensors" \
  --backend loops

# ---- The REPL's bisect on the current graph (random inputs, as its run): the graph unchanged. ----
FXKIT_FAULT=corrupt-kernel:3 expect_exit 0 "$FXKIT" -c "load $A.graph.txt; bisect --backend loops; info"
expect_out "first bad kernel: #3 fused_div_amax_sum_sub_1"
expect_out "call_function: 43"
expect_exit 2 "$FXKIT" -c "load $A.graph.txt; bisect --backend interp"
expect_err "the interp backend runs no compiled kernels"

# ---- Bad input: exit 2, nothing written. ----
expect_exit 2 "$FXKIT" bisect "${ARGS[@]}" --backend interp
expect_err "the interp backend runs no compiled kernels"
expect_exit 2 "$FXKIT" bisect "${ARGS[@]}" --backend cuda
expect_err "unknown backend 'cuda'"
expect_exit 2 "$FXKIT" bisect "${ARGS[@]}" -o "$WORK/none"
expect_err "give --minimize"
[ -e "$WORK/none" ] && fail "-o without --minimize wrote something"
expect_exit 2 "$FXKIT" bisect "$WORK/missing.graph.txt" --backend loops

# ---- A zoo model (../shared/zoo; skipped where absent): BERT's GELU kernel. ----
ZOO="$DATA/../../../shared/zoo/reference/bert/fw_0"
if [ -f "$ZOO.graph.txt" ]; then
  Z=("$ZOO.graph.txt" --inputs "$ZOO.inputs.safetensors")
  FXKIT_FAULT=corrupt-kernel:fused_mul_erf_add expect_exit 1 "$FXKIT" bisect "${Z[@]}" \
    --backend loops
  expect_out "first bad kernel: #9 fused_mul_erf_add_3"
  expect_out "FX nodes it computes: %mul_4 %mul_5 %erf %add_9 %mul_6"
  FXKIT_FAULT=corrupt-kernel:fused_mul_erf_add expect_exit 1 "$FXKIT" bisect "${Z[@]}" \
    --backend loops --minimize -o "$WORK/zsmall"
  calls=$(grep -c "call_function" "$WORK/zsmall/graph.txt")
  [ "$calls" -le 10 ] || fail "minimized zoo graph has $calls call nodes"
else
  echo "note: $ZOO.graph.txt absent: the zoo part is skipped"
fi
finish
