#!/usr/bin/env bash
# The main job on the bundled example (a softmax graph PyTorch 2.11 produced, with its
# nodes.json meta): import, inspect, convert through every format and check nothing was lost.
# Outputs go to out/example/. Grows with the project (run and check, fusion, compile, OpenCL
# kernels run and checked on the default device, wrapper code; next: pictures, report).
set -euo pipefail
fxkit="${1:-build/repl/fxkit}"
here="$(cd "$(dirname "$0")" && pwd)"
src="$here/softmax/fw_0.graph.txt"
out="out/example"
mkdir -p "$out"

echo "== fxkit info $src"
"$fxkit" info "$src"

echo "== convert: FX text -> JSON -> annotated Python -> FX text"
"$fxkit" convert "$src" -o "$out/softmax.json"
"$fxkit" convert "$out/softmax.json" -o "$out/softmax.py"
"$fxkit" convert "$out/softmax.py" -o "$out/softmax.graph.txt"
cmp "$src" "$out/softmax.graph.txt"
echo "FX text round trip through JSON and Python: identical"

# The Python form printed from the JSON (which carries the nodes.json meta) must equal
# PyTorch's own print_readable() output, less comments, blank lines and the class line (FX
# text does not record the module's class name).
grep -v '^\s*#' "$here/softmax/fw_0.readable.py" | grep -v '^\s*$' | tail -n +2 > "$out/expected.py"
grep -v '^\s*$' "$out/softmax.py" | tail -n +2 > "$out/actual.py"
cmp "$out/expected.py" "$out/actual.py"
echo "annotated Python equals PyTorch's print_readable() (comments aside)"

echo "== fxkit run: the reference interpreter on the inputs PyTorch recorded, checked against its outputs"
"$fxkit" run "$src" --inputs "$here/softmax/fw_0.inputs.safetensors" \
  --check "$here/softmax/fw_0.outputs.safetensors" -o "$out/softmax.outputs.safetensors"

echo "== fxkit fuse --explain: loop ops, fusion decisions and kernels"
"$fxkit" fuse "$src" --explain | tee "$out/softmax.fusion.txt"

echo "== fxkit compile: lower, fuse, plan memory, and write the wrapper program as FX"
"$fxkit" compile "$src" --time-passes -o "$out/softmax.wrapper.graph.txt"
"$fxkit" fuse "$src" --plan | grep -E "^(buf|[0-9]+ buffers)"
echo "== fxkit compile --to opencl / wrapper-py / fxir: the compiled program as code"
"$fxkit" compile "$src" --to opencl -o "$out/softmax.cl"
"$fxkit" compile "$src" --to wrapper-py -o "$out/softmax_wrapper.py"
"$fxkit" compile "$src" --to fxir -o "$out/softmax.fxir.txt"
grep -c "__kernel void" "$out/softmax.cl" | sed 's/^/OpenCL kernels written: /'

echo "== fxkit devices, then the compiled kernels on the default OpenCL device, checked"
"$fxkit" devices
# A cache inside the output folder, so the example starts cold and runs twice: built and
# tuned, then loaded from the cache.
for pass in cold cached; do
  echo "-- $pass"
  "$fxkit" run "$src" --backend opencl --cache-dir "$out/kernel-cache" --stats \
    --inputs "$here/softmax/fw_0.inputs.safetensors" \
    --check "$here/softmax/fw_0.outputs.safetensors" 2>&1 | grep -v "^opencl: 0:"
done

echo "== the same kernels JIT-compiled by the linked LLVM for this CPU (where built with LLVM)"
if "$fxkit" run "$src" --backend llvm --cache-dir "$out/kernel-cache" \
     --inputs "$here/softmax/fw_0.inputs.safetensors" \
     --check "$here/softmax/fw_0.outputs.safetensors" 2>"$out/llvm.err"; then :
elif grep -q "without LLVM" "$out/llvm.err"; then cat "$out/llvm.err"
else cat "$out/llvm.err"; exit 1; fi

echo "== the C++ wrapper: exported, built with CMake against this build's runtime, run, checked"
"$fxkit" compile "$src" --to wrapper-cpp --name softmax -o "$out/softmax_cpp"
cmake -S "$out/softmax_cpp" -B "$out/softmax_cpp/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$out/softmax_cpp/build" -j"$(nproc)" >/dev/null
"$out/softmax_cpp/build/softmax_driver" "$here/softmax/fw_0.inputs.safetensors" \
  --check "$here/softmax/fw_0.outputs.safetensors" --cache-dir "$out/kernel-cache" --stats

echo "== pictures and the report: program picture, memory timeline, one HTML page"
"$fxkit" compile "$src" --to svg --fusion -o "$out/softmax.program.svg"
"$fxkit" compile "$src" --to timeline -o "$out/softmax.timeline.svg"
"$fxkit" report "$src" -o "$out/softmax.report.html"
ls -l "$out/softmax.program.svg" "$out/softmax.timeline.svg" "$out/softmax.report.html" |
  awk '{print $5, $9}'
echo "outputs in $out/"
