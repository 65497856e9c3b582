#!/usr/bin/env bash
# A chain of 20 residual blocks, each with a row mean (tests/browser/gen-large-graph.sh 200):
# fusion splits it where a kernel's pass over the reduced points would make again more than 32
# instructions of the chain before it (pass option max-recompute), says so in fuse --explain,
# the OpenCL C of every kernel stays small (it was 0.6 to 1.2 MB a kernel, quadratic in the
# chain), and the LLVM backend's result matches the reference interpreter's.
. "$(dirname "$0")/lib.bash"
export FXKIT_CACHE_DIR="$WORK/cache"
G="$WORK/chain.graph.txt"
bash "$(dirname "$0")/../browser/gen-large-graph.sh" 200 >"$G" || fail "gen-large-graph.sh failed"

expect_exit 0 "$FXKIT" fuse "$G" --explain
expect_out "  refused op8 into kernel of op0 (reduction epilogue, 131328 bytes): would recompute too much: the kernel's pass 4 over reduced points would make again 36 instructions of 5 ops that earlier passes made and that never leave the kernel (limit 32)"
[ "$(grep -c 'would recompute too much' "$WORK/out")" -eq 6 ] ||
  fail "expected 6 refusals for recomputation: $(grep 'would recompute' "$WORK/out")"
expect_out "loop ops: 60, generated kernels: 3 distinct, 7 launches;"

# Every kernel definition under 64 KB (unbounded, this chain's were 0.3 to 1.2 MB).
expect_exit 0 "$FXKIT" compile "$G" --to opencl -o "$WORK/cl"
n=0
for f in "$WORK"/cl/*.cl; do
  size=$(wc -c <"$f")
  [ "$size" -lt 65536 ] || fail "$(basename "$f") is $size bytes of OpenCL C"
  n=$((n + 1))
done
[ "$n" -eq 3 ] || fail "expected 3 kernel definitions, got $n"

# The split chain computes what the graph does (LLVM compiles its 3 kernels in about a second;
# PoCL takes tens of seconds cold, so the OpenCL backend is not run here).
if "$FXKIT" run "$G" --backend llvm 2>&1 | grep -q "without LLVM"; then
  echo "llvm run skipped: this fxkit was built without LLVM"
else
  expect_exit 0 "$FXKIT" run "$G" -o "$WORK/want.safetensors"
  expect_exit 0 "$FXKIT" run "$G" --backend llvm --check "$WORK/want.safetensors"
  expect_out "check passed: 1 of 1 outputs match"
fi
finish
