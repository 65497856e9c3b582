#!/usr/bin/env bash
# The main job on the bundled example (a softmax graph PyTorch 2.11 produced, with its
# nodes.json meta): import, inspect, convert through every format and check nothing was lost.
# Outputs go to out/example/. Grows with the project (run and check, fusion; next: compile,
# wrapper code, pictures, report).
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
echo "outputs in $out/"
