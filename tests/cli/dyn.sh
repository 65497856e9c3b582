#!/usr/bin/env bash
# Dynamic-shape and unbacked-size models (tests/data/dyn, PROVENANCE.md): every file of each
# kind goes through each capability, as ../shared/zoo/score.sh runs them, and the counts are
# asserted. Graphs with data-dependent values (u0 of item(), nonzero's size) run on the
# reference interpreter; compiled backends refuse them with the reason.
. "$(dirname "$0")/lib.bash"
D="$DATA/dyn"
count() { # name expected-passed expected-total: compares with $passed/$total
  [ "$passed" -eq "$2" ] && [ "$total" -eq "$3" ] || fail "$1: $passed/$total, expected $2/$3"
}

# FX text reproduces every graph byte for byte (SymInt placeholders, a node inside slice(...)).
passed=0 total=0
for f in "$D"/*/*/*.graph.txt; do
  total=$((total + 1))
  "$FXKIT" convert "$f" --to fx -o "$WORK/a.fx" 2>"$WORK/err" && cmp -s "$f" "$WORK/a.fx" &&
    passed=$((passed + 1)) || echo "fx-roundtrip: $f: $(head -c 300 "$WORK/err")" >&2
done
count fx-roundtrip 7 7

# Readable code with Sym(u0 >= 0), Sym(zf55)-style annotations.
passed=0 total=0
for f in "$D"/*/*/*.readable.py; do
  total=$((total + 1))
  "$FXKIT" convert "$f" --to fx -o "$WORK/b.fx" 2>"$WORK/err" && passed=$((passed + 1)) ||
    echo "readable-parse: $f: $(head -c 300 "$WORK/err")" >&2
done
count readable-parse 2 2

# fxkit JSON and back (nodes.json values: SymInts, SymBools, outputs mixing tensors and SymInts).
passed=0 total=0
for f in "$D"/inductor/*/aten_post_*.graph.txt; do
  total=$((total + 1))
  "$FXKIT" convert "$f" --to json -o "$WORK/c.json" 2>"$WORK/err" &&
    "$FXKIT" convert "$WORK/c.json" --to fx -o "$WORK/c.fx" 2>>"$WORK/err" &&
    cmp -s "$f" "$WORK/c.fx" && passed=$((passed + 1)) ||
    echo "json-roundtrip: $f: $(head -c 300 "$WORK/err")" >&2
done
count json-roundtrip 4 4

# The unbacked reference graph runs on the interpreter against PyTorch's outputs...
r="$D/reference/unbacked_ops/fw_0"
expect_exit 0 "$FXKIT" run "$r.graph.txt" --inputs "$r.inputs.safetensors" --check "$r.outputs.safetensors"
expect_out "check passed: 3 of 3 outputs match"
# ... and compiled on every backend: item(), nonzero and the boolean mask run as extern calls
# that bind u0, u1, u2 when they have run; later kernels take them as size arguments.
for b in loops opencl llvm; do
  expect_exit 0 "$FXKIT" run "$r.graph.txt" --backend $b --inputs "$r.inputs.safetensors" \
    --check "$r.outputs.safetensors"
  expect_out "check passed: 3 of 3 outputs match"
done
# The C++ wrapper, built in process (where fxkit has LLVM), reads them from the host results.
FXKIT_CACHE_DIR="$WORK/cache" "$FXKIT" run "$r.graph.txt" --backend cpp-wrapper \
  --inputs "$r.inputs.safetensors" --check "$r.outputs.safetensors" >"$WORK/out" 2>"$WORK/err"
grep -q "LLVM component" "$WORK/err" || expect_out "check passed: 3 of 3 outputs match"
# Buffers sized by them are allocated when they are bound, outside the pool.
expect_exit 0 "$FXKIT" fuse "$D/inductor/unbacked_ops/aten_post_0.graph.txt" --plan
expect_out "i64  16*u1 B  own, allocated when u1 is bound"
expect_out "2 sized by unbacked symbols"

# Fusion, planning and both wrappers: every graph (SymInt arithmetic on the host, fma,
# CeilToInt sizes, unbacked sizes).
for cap in fuse-plan wrapper-py wrapper-cpp; do
  passed=0 total=0
  for f in "$D"/inductor/*/aten_post_*.graph.txt; do
    total=$((total + 1))
    rm -rf "$WORK/w"
    case $cap in
      fuse-plan) "$FXKIT" fuse "$f" --plan ;;
      *) "$FXKIT" compile "$f" --to $cap -o "$WORK/w" ;;
    esac >/dev/null 2>"$WORK/err" && passed=$((passed + 1))
  done
  count "$cap" 4 4
done
# The wrappers read the symbols from the extern results as Inductor's do, then check them.
expect_exit 0 "$FXKIT" compile "$D/inductor/unbacked_ops/aten_post_0.graph.txt" --to wrapper-py
expect_out "    u1 = extern_out.size(0)"
expect_out "    u3 = extern_out"
expect_out "    if not (u3 <= 16):"
rm -rf "$WORK/w"
expect_exit 0 "$FXKIT" compile "$D/inductor/unbacked_ops/aten_post_0.graph.txt" --to wrapper-cpp -o "$WORK/w"
grep -q "const int64_t u1 = kExtern1_result.tensors\[0\].sizes\[0\];" "$WORK/w/aten_post_0.cpp" ||
  fail "wrapper-cpp: no u1 from nonzero's result"
# The C++ wrapper prints CeilToInt(IntTrueDiv(s27, 32)) as integer ceil-division.
rm -rf "$WORK/w"
expect_exit 0 "$FXKIT" compile "$D/inductor/llama_dyn/aten_post_1.graph.txt" --to wrapper-cpp -o "$WORK/w"
grep -q "fx_ceildiv(s27, 32)" "$WORK/w/aten_post_1.cpp" || fail "wrapper-cpp: no fx_ceildiv(s27, 32)"

# Scheduler dumps with unbacked sizes and CPU iteration groups.
passed=0 total=0
for f in "$D"/inductor/*/debug/*/ir_post_fusion.txt; do
  total=$((total + 1))
  "$FXKIT" info "$f" --from inductor-ir >/dev/null 2>"$WORK/err" && passed=$((passed + 1)) ||
    echo "import-sched-dump: $f: $(head -c 300 "$WORK/err")" >&2
done
count import-sched-dump 2 2
expect_exit 0 "$FXKIT" convert "$D/inductor/llama_dyn/debug/model__1_forward_1.0/ir_post_fusion.txt" --to fx
expect_out "iteration: ((), ())"
finish
