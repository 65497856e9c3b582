#!/usr/bin/env bash
# Real models end to end: every file of the zoo (../shared/zoo: PyTorch 2.11 compiles of Hugging
# Face and torchvision models; not copied into tests/data, 35 MB) through the interpreter, the
# LLVM CPU JIT and OpenCL against the recorded outputs, and every Inductor pre/post-grad ATen
# graph through fuse --plan and both wrapper exporters; on OpenCL no op may run on the host.
# Counts are asserted, so a file that appears or stops working is noticed. Exits 77 (CTest: skipped) where the zoo is absent.
# Usage: zoo.sh FXKIT ZOO_DIR
. "$(dirname "$0")/../cli/lib.bash"
ZOO="${ZOO_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/zoo}"
[ -d "$ZOO/reference" ] || { echo "zoo not found at $ZOO: skipped"; exit 77; }

# Reference graphs whose recorded run needs a value the capture did not save (bloom's traced
# constant `_tensor_constant0`, a get_attr): checked to fail with that reason.
needs_constant="bloom/fw_0"

checked=0
for g in "$ZOO"/reference/*/*.graph.txt; do
  base="${g%.graph.txt}"; name="${base#$ZOO/reference/}"
  [ -e "$base.inputs.safetensors" ] || continue
  for backend in interp llvm opencl; do
    if [ "$name" = "$needs_constant" ]; then
      expect_exit 2 "$FXKIT" run "$g" --backend "$backend" --inputs "$base.inputs.safetensors"
      expect_err "get_attr"
      continue
    fi
    stats=()
    [ "$backend" = opencl ] && stats=(--stats)
    expect_exit 0 "$FXKIT" run "$g" --backend "$backend" --inputs "$base.inputs.safetensors" \
      --check "$base.outputs.safetensors" "${stats[@]}"
    # On OpenCL every op runs on the device: generated kernels, CLBlast or fxkit's device
    # kernels, never the host's reference kernels.
    [ "$backend" = opencl ] && expect_err "host extern calls 0;"
    checked=$((checked + 1))
  done
done
[ "$checked" -eq 30 ] || fail "checked $checked reference runs, expected 30 (10 graphs x 3 backends)"

# The same graphs with every float32 matrix product and convolution through fxkit's GEMM template
# (GPUs choose it per shape by timing; CPUs keep CLBlast unless told, as here, untuned). The
# template is reached through the matrix products CLBlast would run: builds with CLBlast only.
if "$FXKIT" run "$ZOO/reference/bert/fw_0.graph.txt" --backend opencl --stats \
  --inputs "$ZOO/reference/bert/fw_0.inputs.safetensors" 2>&1 | grep -q "CLBlast calls [1-9]"; then
  templated=0 calls=0 epilogues=0
  for g in "$ZOO"/reference/*/*.graph.txt; do
    base="${g%.graph.txt}"; name="${base#$ZOO/reference/}"
    [ -e "$base.inputs.safetensors" ] && [ "$name" != "$needs_constant" ] || continue
    FXKIT_GEMM=template expect_exit 0 "$FXKIT" run "$g" --backend opencl --no-tune \
      --inputs "$base.inputs.safetensors" --check "$base.outputs.safetensors" --stats
    expect_err "CLBlast calls 0,"
    n=$(grep -o "GEMM template calls [0-9]*" "$WORK/err" | awk '{print $4}')
    [ "${n:-0}" -gt 0 ] && templated=$((templated + 1))
    calls=$((calls + ${n:-0}))
    e=$(grep -o "epilogues fused [0-9]*" "$WORK/err" | awk '{print $3}')
    epilogues=$((epilogues + ${e:-0}))
  done
  # Every graph with float32 products or convolutions (all but misc_ops and mlp_bf16).
  [ "$templated" -eq 8 ] || fail "$templated reference graphs ran the GEMM template, expected 8"
  [ "$calls" -eq 122 ] || fail "$calls GEMM template calls over the zoo's references, expected 122"
  # Pointwise kernels after those products and convolutions that ran inside the template
  # (FusionKind::GemmEpilogue; `fuse --explain` lists each decision), every output still checked
  # above: 12 after matrix products, 34 after convolutions.
  [ "$epilogues" -eq 46 ] ||
    fail "$epilogues GEMM epilogues fused over the zoo's references, expected 46"
fi

# The same graphs with fxkit's device kernels in their GPU forms (FXKIT_GPU_EXTERN_FORMS=1: tiled
# attention, lanes per row) on whatever device runs the tests: the forms GPUs take, checked on
# real models where no GPU is.
gpu_forms=0 gpu_externs=0
for g in "$ZOO"/reference/*/*.graph.txt; do
  base="${g%.graph.txt}"; name="${base#$ZOO/reference/}"
  [ -e "$base.inputs.safetensors" ] && [ "$name" != "$needs_constant" ] || continue
  FXKIT_GPU_EXTERN_FORMS=1 expect_exit 0 "$FXKIT" run "$g" --backend opencl \
    --inputs "$base.inputs.safetensors" --check "$base.outputs.safetensors" --stats
  expect_err "host extern calls 0;"
  n=$(grep -o "device extern calls [0-9]*" "$WORK/err" | awk '{print $4}')
  gpu_externs=$((gpu_externs + ${n:-0}))
  gpu_forms=$((gpu_forms + 1))
done
[ "$gpu_forms" -eq 10 ] || fail "checked $gpu_forms graphs in the GPU forms, expected 10"
[ "$gpu_externs" -eq 33 ] || fail "$gpu_externs device extern calls in the GPU forms, expected 33"

graphs=0
for g in "$ZOO"/inductor/*/aten_p*_*.graph.txt; do
  expect_exit 0 "$FXKIT" fuse "$g" --plan
  expect_exit 0 "$FXKIT" compile "$g" --to wrapper-py -o "$WORK/w.py"
  rm -rf "$WORK/wc"
  expect_exit 0 "$FXKIT" compile "$g" --to wrapper-cpp -o "$WORK/wc"
  graphs=$((graphs + 1))
done
[ "$graphs" -eq 48 ] || fail "compiled $graphs Inductor ATen graphs, expected 48"

# Inductor's C++ wrapper code (cpp_wrapper=True) of every model reads into wrapper IR (forward
# and backward, fallbacks through the C shim), and launches as many kernels and allocates as
# many buffers as the Python wrapper of the same compile says.
cpp=0
for f in "$ZOO"/inductor/*/cpp_wrapper_*.py; do
  expect_exit 0 "$FXKIT" convert "$f" --from inductor-cpp --to fx -o "$WORK/c.fx"
  cpp=$((cpp + 1))
  py="${f/cpp_wrapper_/output_code_}"
  [ -e "$py" ] || continue
  expect_exit 0 "$FXKIT" convert "$py" --from inductor-py --to fx -o "$WORK/p.fx"
  for target in fxkit.kernel torch.empty_strided fxkit.extern; do
    [ "$(grep -c "target=$target\]" "$WORK/c.fx")" = "$(grep -c "target=$target\]" "$WORK/p.fx")" ] ||
      fail "$f: not as many $target nodes as in $py"
  done
done
[ "$cpp" -eq 7 ] || fail "read $cpp cpp_wrapper files, expected 7"

# print_readable() code of every stage reads (Dynamo's subscripts, and bloom's nested GraphModule
# classes: autograd_function_apply's forward and backward bodies, read as submodules), prints
# back with every code line as it was (comments and blank lines are not kept), and describes
# the same graph as the graph.txt of its stage: same nodes in the same order, names, ops,
# targets, args and kwargs, as FX text. What legitimately differs is the type after a node's
# name, cut from both before comparing: graph.txt prints node.type (Dynamo's torch.Tensor,
# torch.nn.parameter.Parameter, torch.SymInt), the readable code the meta value instead. Nested
# classes have no counterpart in graph.txt (str(graph) prints the get_attr of them only).
code_lines() { grep -vE '^[[:space:]]*(#|$)' "$1"; }
untyped() { sed -E 's/^(    %[A-Za-z0-9_]+ : )[^[]*\[num_users/\1[num_users/' "$1"; }
readable=0
pairs=0
for f in "$ZOO"/*/*/*.readable.py "$ZOO"/*/*.readable.py; do
  [ -e "$f" ] || continue
  expect_exit 0 "$FXKIT" convert "$f" --to fxpy -o "$WORK/r.py"
  cmp -s <(code_lines "$f") <(code_lines "$WORK/r.py") || fail "$f: code lines differ after fxpy -> fxpy"
  # fxkit's JSON keeps all of it, nested classes (bloom's) included.
  expect_exit 0 "$FXKIT" convert "$f" --to json -o "$WORK/r.json"
  expect_exit 0 "$FXKIT" convert "$WORK/r.json" --to fxpy -o "$WORK/rj.py"
  cmp -s "$WORK/r.py" "$WORK/rj.py" || fail "$f: fxpy -> json -> fxpy differs from fxpy -> fxpy"
  readable=$((readable + 1))
  txt="${f%.readable.py}.graph.txt"
  [ -e "$txt" ] || continue
  expect_exit 0 "$FXKIT" convert "$f" --to fx -o "$WORK/r.txt"
  cmp -s <(untyped "$WORK/r.txt") <(untyped "$txt") || fail "$f: not the graph of $txt"
  pairs=$((pairs + 1))
done
[ "$readable" -eq 34 ] || fail "read $readable readable.py files, expected 34"
[ "$pairs" -eq 34 ] || fail "compared $pairs readable.py/graph.txt pairs, expected 34"
# The same print_readable() form in Inductor's debug folders (AOT graphs before and after the
# post-grad passes): each reads and prints back line for line.
debug=0
for f in "$ZOO"/inductor/*/debug/*/fx_graph_readable.py "$ZOO"/inductor/*/debug/*/fx_graph_transformed.py; do
  [ -e "$f" ] || continue
  expect_exit 0 "$FXKIT" convert "$f" --to fxpy -o "$WORK/r.py"
  cmp -s <(code_lines "$f") <(code_lines "$WORK/r.py") || fail "$f: code lines differ after fxpy -> fxpy"
  debug=$((debug + 1))
done
[ "$debug" -eq 48 ] || fail "read $debug fx_graph_readable/transformed.py files, expected 48"
grep -q "^    class bwd_body_1(torch.nn.Module):" <(
  "$FXKIT" convert "$ZOO/inductor/bloom/dynamo_0.readable.py" --to fxpy) ||
  fail "bloom's nested classes are not printed back"
grep -q '"module": "bwd_body_1"' <("$FXKIT" convert "$ZOO/inductor/bloom/dynamo_0.readable.py" --to json) ||
  fail "bloom's nested classes are not in its JSON"
# Inductor's provenance mappings, every one of the zoo and of the corpus beside it: each read
# on the kernel calls of its output_code.py (every handle a kernel of that file, taken by its
# call), on fx_graph_transformed.py and on the Dynamo graph (tests/zoo/provenance_check.py).
check_provenance() { # ROOT COUNT
  python3 "$(dirname "$0")/provenance_check.py" "$FXKIT" "$1" "$2" >"$WORK/out" 2>"$WORK/err" \
    || fail "provenance mappings of $1: $(head -c 600 "$WORK/err")"
  expect_out "provenance: $2 mappings"
}
check_provenance "$ZOO" 23
[ -d "$ZOO/../corpus/inductor" ] && check_provenance "$ZOO/../corpus" 20
# Inductor's Python wrapper code (output_code.py, its debug copies): every file reads into
# wrapper IR and converts to PyTorch's FX IR, which fxkit reads back and prints the same.
wrappers=0
for f in "$ZOO"/inductor/*/output_code_*.py "$ZOO"/inductor/*/debug/*/output_code.py; do
  [ -e "$f" ] || continue
  expect_exit 0 "$FXKIT" convert "$f" --to fxir -o "$WORK/w.fxir"
  expect_exit 0 "$FXKIT" convert "$WORK/w.fxir" --to fx -o "$WORK/w2.fx"
  cmp -s "$WORK/w.fxir" "$WORK/w2.fx" || fail "the FX IR of $f does not print the same read back"
  wrappers=$((wrappers + 1))
done
[ "$wrappers" -eq 37 ] || fail "read $wrappers output_code files, expected 37"
finish
