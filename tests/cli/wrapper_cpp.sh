#!/usr/bin/env bash
# `compile --to wrapper-cpp -o DIR`: for every reference workload, the exported C++ wrapper builds
# with CMake against this build's runtime and its driver reproduces the reference outputs on the
# default OpenCL device (PoCL here), from a cold and then a warm kernel cache.
. "$(dirname "$0")/lib.bash"
REF="$DATA/corpus/reference"
command -v cmake >/dev/null || { echo "skipped: no cmake"; exit 0; }
if ! "$FXKIT" devices 2>/dev/null | grep -q '^ *[0-9]*:'; then
  echo "skipped: no OpenCL device"
  exit 0
fi
# Bad usage first: no folder, and a graph that was not planned.
expect_exit 2 "$FXKIT" compile "$REF/mlp/fw_0.graph.txt" --to wrapper-cpp
expect_err "give a folder with -o DIR"
expect_exit 2 "$FXKIT" compile "$REF/mlp/fw_0.graph.txt" --passes lower,fuse --to wrapper-cpp \
  -o "$WORK/unplanned"
expect_err "run the passes lower, fuse and plan"
[ ! -e "$WORK/unplanned" ] || fail "a failed export left $WORK/unplanned behind"

mkdir -p "$WORK/all"
{
  echo "cmake_minimum_required(VERSION 3.16)"
  echo "project(all_wrappers CXX)"
} >"$WORK/all/CMakeLists.txt"
names=()
for dir in "$REF"/*/; do
  name="$(basename "$dir")"
  [ -f "$dir/fw_0.inputs.safetensors" ] || continue
  expect_exit 0 "$FXKIT" compile "$dir/fw_0.graph.txt" --to wrapper-cpp -o "$WORK/all/$name" \
    --name "$name"
  for f in "$name.h" "$name.cpp" driver.cpp CMakeLists.txt; do
    [ -s "$WORK/all/$name/$f" ] || fail "$name: no $f"
  done
  echo "add_subdirectory($name)" >>"$WORK/all/CMakeLists.txt"
  names+=("$name")
done
[ "${#names[@]}" -eq 10 ] || fail "expected 10 reference workloads, exported ${#names[@]}"
grep -q "fxkit::rt::Status run(const fxkit::rt::HostTensor &arg0_1" "$WORK/all/mlp/mlp.h" ||
  fail "the typed entry point is missing from mlp.h"
# Release, as users build them; the sanitizer build's CTest asks for Debug (tests/CMakeLists.txt).
cmake -S "$WORK/all" -B "$WORK/build" -DCMAKE_BUILD_TYPE="${FXKIT_WRAPPER_BUILD_TYPE:-Release}" \
  >"$WORK/cmake.log" 2>&1 ||
  { cat "$WORK/cmake.log"; fail "configuring the exported wrappers failed"; finish; }
cmake --build "$WORK/build" -j"$(nproc)" >"$WORK/build.log" 2>&1 ||
  { tail -40 "$WORK/build.log"; fail "building the exported wrappers failed"; finish; }
for name in "${names[@]}"; do
  driver="$WORK/build/$name/${name}_driver"
  for pass in cold warm; do
    expect_exit 0 "$driver" "$REF/$name/fw_0.inputs.safetensors" -o "$WORK/$name.out.safetensors" \
      --check "$REF/$name/fw_0.outputs.safetensors" --cache-dir "$WORK/cache" --stats
    grep -q MISMATCH "$WORK/out" && fail "$name ($pass cache): $(cat "$WORK/out")"
    # A second process takes every kernel binary and launch configuration from the cache.
    if [ "$pass" = warm ]; then
      grep -q "kernels: 0 built" "$WORK/err" || fail "$name: warm run rebuilt: $(cat "$WORK/err")"
      grep -q "configurations: 0 tuned" "$WORK/err" || fail "$name: warm run retuned"
    fi
    grep -q "^ok out_0" "$WORK/out" || fail "$name ($pass cache): no output checked: $(cat "$WORK/out")"
  done
  [ -s "$WORK/$name.out.safetensors" ] || fail "$name: no outputs file"
done
# mlp's two addmm run on the device: through CLBlast where the runtime has it, else through
# fxkit's device kernels.
expect_exit 0 "$WORK/build/mlp/mlp_driver" "$REF/mlp/fw_0.inputs.safetensors" --stats \
  --cache-dir "$WORK/cache"
grep -qE "extern ops: (2 by CLBlast, 0 by the GEMM template, 0|0 by CLBlast, 0 by the GEMM template, 2) by device kernels, 0 on the host, 0 with their epilogue kernel inside" "$WORK/err" ||
  fail "mlp: expected its 2 addmm as extern ops: $(cat "$WORK/err")"
# On the GEMM template (untuned: fused), the first addmm runs the GELU kernel fusion made its
# epilogue inside it, which then is not launched; FXKIT_GEMM_EPILOGUE=0 launches it apart. Both
# reproduce the reference outputs.
for fused in 1 0; do
  FXKIT_GEMM=template FXKIT_GEMM_EPILOGUE=$fused expect_exit 0 "$WORK/build/mlp/mlp_driver" \
    "$REF/mlp/fw_0.inputs.safetensors" --check "$REF/mlp/fw_0.outputs.safetensors" --stats \
    --no-tune --cache-dir "$WORK/cache"
  grep -q "extern ops: 0 by CLBlast, 2 by the GEMM template, 0 by device kernels, 0 on the host, $fused with their epilogue kernel inside" "$WORK/err" ||
    fail "mlp on the GEMM template (epilogues $fused): $(cat "$WORK/err")"
  grep -q "launches: $((1 - fused));" "$WORK/err" || fail "mlp (epilogues $fused): $(cat "$WORK/err")"
  grep -q MISMATCH "$WORK/out" && fail "mlp on the GEMM template: $(cat "$WORK/out")"
done
# Bad input to a driver: a truncated inputs file is an error (exit 2) and writes nothing.
head -c 20 "$REF/mlp/fw_0.inputs.safetensors" >"$WORK/truncated.safetensors"
expect_exit 2 "$WORK/build/mlp/mlp_driver" "$WORK/truncated.safetensors" -o "$WORK/none.safetensors"
[ ! -e "$WORK/none.safetensors" ] || fail "a failed driver run wrote an outputs file"
finish
