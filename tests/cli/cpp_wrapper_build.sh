#!/usr/bin/env bash
# `compile G -o DIR --build` and `run G --backend cpp-wrapper [--wrapper DIR]`: for every reference
# workload the wrapper is compiled in process by Clang into DIR/NAME.o, a second build is a
# cache hit, and the loaded wrapper reproduces the reference outputs on the default OpenCL
# device. A corrupt object is detected and rebuilt; a broken source gives Clang's diagnostics
# with the file:line:col of the source, exit 2, and leaves no output and the last object.
. "$(dirname "$0")/lib.bash"
REF="$DATA/corpus/reference"
export FXKIT_CACHE_DIR="$WORK/cache"
S="$REF/softmax/fw_0"

# Without the LLVM component both entry points say what they need (exit 2, nothing written).
"$FXKIT" compile "$S.graph.txt" -o "$WORK/probe" --build >"$WORK/out" 2>"$WORK/err"
if grep -q "LLVM component" "$WORK/err"; then
  expect_exit 2 "$FXKIT" compile "$S.graph.txt" -o "$WORK/nollvm" --build
  expect_err "LLVM component"
  [ ! -e "$WORK/nollvm" ] || fail "a refused --build wrote $WORK/nollvm"
  expect_exit 2 "$FXKIT" run "$S.graph.txt" --backend cpp-wrapper --wrapper "$WORK/nollvm"
  expect_err "LLVM component"
  echo "skipped the rest: this fxkit was built without LLVM"
  finish
  exit 0
fi

# Bad usage.
expect_exit 2 "$FXKIT" compile "$S.graph.txt" --build
expect_err "give a folder with -o DIR"
expect_exit 2 "$FXKIT" compile "$S.graph.txt" --to opencl -o "$WORK/x" --build
expect_err "--build compiles the C++ wrapper: it goes with --to wrapper-cpp"
[ ! -e "$WORK/x" ] || fail "a refused --build wrote $WORK/x"
expect_exit 2 "$FXKIT" run "$S.graph.txt" --backend cpp-wrapper --no-cache
expect_err "give --wrapper DIR"
expect_exit 2 "$FXKIT" run "$S.graph.txt" --backend cpp-wrapper --wrapper "$WORK/missing"
expect_err "is not a folder written by"

# Every reference workload: built, then cached.
names=()
for dir in "$REF"/*/; do
  name="$(basename "$dir")"
  [ -f "$dir/fw_0.inputs.safetensors" ] || continue
  expect_exit 0 "$FXKIT" compile "$dir/fw_0.graph.txt" -o "$WORK/w/$name" --build --name "$name"
  expect_err "$WORK/w/$name/$name.o: built in"
  [ -s "$WORK/w/$name/$name.o" ] || fail "$name: no object"
  expect_exit 0 "$FXKIT" compile "$dir/fw_0.graph.txt" -o "$WORK/w/$name" --build --name "$name"
  expect_err "$WORK/w/$name/$name.o: cached (up to date)"
  names+=("$name")
done
[ "${#names[@]}" -eq 10 ] || fail "expected 10 reference workloads, built ${#names[@]}"

if ! "$FXKIT" devices 2>/dev/null | grep -q '^ *[0-9]*:'; then
  echo "skipped running the wrappers: no OpenCL device"
  finish
  exit 0
fi
for name in "${names[@]}"; do
  dir="$REF/$name"
  expect_exit 0 "$FXKIT" run "$dir/fw_0.graph.txt" --backend cpp-wrapper --wrapper "$WORK/w/$name" \
    --inputs "$dir/fw_0.inputs.safetensors" --check "$dir/fw_0.outputs.safetensors" --stats
  expect_out "check passed"
  grep -q MISMATCH "$WORK/out" && fail "$name: $(cat "$WORK/out")"
  expect_err "$name.o: cached; loaded in"
done

# Multi-kernel (issue 23 item 6): the softmax kernel's variant in the other form follows the
# kernels in the wrapper's table; with variants on (FXKIT_MULTI_KERNEL=1, as on a GPU) the
# runtime builds both, times both on the first launch, and the outputs still match.
grep -q '"fused_amax_sum_sub_exp_0_looped", kSource_fused_amax_sum_sub_exp_0_looped, true, "fused_amax_sum_sub_exp_0", 0}' \
  "$WORK/w/softmax/softmax.cpp" || fail "softmax.cpp has no variant entry for its kernel"
FXKIT_MULTI_KERNEL=1 FXKIT_CACHE_DIR="$WORK/cache-mk" expect_exit 0 "$FXKIT" run "$S.graph.txt" \
  --backend cpp-wrapper --wrapper "$WORK/w/softmax" --inputs "$S.inputs.safetensors" \
  --check "$S.outputs.safetensors" --stats
expect_out "check passed"
expect_err "kernels: 2 built, 0 from cache; configurations: 1 tuned"
expect_err "multi-kernel: 1 shapes timed against variants"

# Without --wrapper: the graph's own wrapper is written and built in the kernel cache, then
# found there (a folder per generated source).
expect_exit 0 "$FXKIT" run "$S.graph.txt" --backend cpp-wrapper --stats \
  --inputs "$S.inputs.safetensors" --check "$S.outputs.safetensors"
expect_err "$FXKIT_CACHE_DIR/cpp-wrapper/fw_0-"
expect_err "fw_0.o: built in"
expect_out "check passed"
expect_exit 0 "$FXKIT" run "$S.graph.txt" --backend cpp-wrapper --stats \
  --inputs "$S.inputs.safetensors" --check "$S.outputs.safetensors"
expect_err "fw_0.o: cached; loaded in"
expect_out "check passed"
[ "$(ls "$FXKIT_CACHE_DIR/cpp-wrapper" | wc -l)" = 1 ] || fail "a second run made another folder"

# A corrupt object (truncated) is detected by its checksum and rebuilt before it is loaded.
W="$WORK/w/softmax"
head -c 100 "$W/softmax.o" >"$W/softmax.o.part" && mv "$W/softmax.o.part" "$W/softmax.o"
expect_exit 0 "$FXKIT" run "$S.graph.txt" --backend cpp-wrapper --wrapper "$W" --stats \
  --inputs "$S.inputs.safetensors" --check "$S.outputs.safetensors"
expect_err "softmax.o: built in"
expect_err "replaced a corrupt object"
expect_out "check passed"
expect_exit 0 "$FXKIT" compile "$S.graph.txt" -o "$W" --build --name softmax
expect_err "cached (up to date)"

# A broken source: Clang's diagnostic names the source's file and line; exit 2; no outputs file;
# the last good object and its stamp stay as they were.
object_sum="$(md5sum <"$W/softmax.o")"
stamp_sum="$(md5sum <"$W/softmax.o.stamp")"
line=$(($(wc -l <"$W/softmax.cpp") + 1))
echo "int broken() { return no_such_name; }" >>"$W/softmax.cpp"
expect_exit 2 "$FXKIT" run "$S.graph.txt" --backend cpp-wrapper --wrapper "$W" \
  --inputs "$S.inputs.safetensors" -o "$WORK/never.safetensors"
expect_err "$W/softmax.cpp:$line:23: error: use of undeclared identifier 'no_such_name'"
expect_err "clang cannot compile $W/softmax.cpp (1 error)"
[ ! -e "$WORK/never.safetensors" ] || fail "a failed build wrote an outputs file"
[ "$(md5sum <"$W/softmax.o")" = "$object_sum" ] || fail "a failed build changed softmax.o"
[ "$(md5sum <"$W/softmax.o.stamp")" = "$stamp_sum" ] || fail "a failed build changed the stamp"
ls -a "$W" | grep -q '\.tmp' && fail "a failed build left a temporary file: $(ls -a "$W")"
# Exporting again restores the source: the old object is up to date again.
expect_exit 0 "$FXKIT" compile "$S.graph.txt" -o "$W" --build --name softmax
expect_err "cached (up to date)"
finish
