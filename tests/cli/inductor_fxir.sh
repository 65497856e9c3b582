#!/usr/bin/env bash
# Inductor wrapper code as PyTorch's FX IR (`convert --to fxir|fxir-code`), `info` on wrapper
# code (kernels, allocations, frees, extern calls, peak), memory re-planning of an imported
# program (`plan --wrapper`) and substitute-size-args on one (`compile --passes ... --to fxir`).
. "$(dirname "$0")/lib.bash"
C="$DATA/corpus/inductor"

# Byte-identical to PyTorch's WrapperFxCodegen, both forms, to a file and to stdout.
for w in attention dynamic_broadcast layernorm mlp; do
  "$FXKIT" convert "$C/$w/output_code_0.py" --to fxir -o "$WORK/$w.graph.txt" 2>"$WORK/err" \
    || fail "$w: convert --to fxir failed: $(cat "$WORK/err")"
  cmp -s "$WORK/$w.graph.txt" "$C/$w/fxir_0.graph.txt" || fail "$w: fxir differs from PyTorch's"
  [ -s "$WORK/err" ] && fail "$w: unexpected stderr: $(cat "$WORK/err")"
  "$FXKIT" convert "$C/$w/output_code_0.py" --to fxir-code > "$WORK/$w.code.py" \
    || fail "$w: convert --to fxir-code failed"
  cmp -s "$WORK/$w.code.py" "$C/$w/fxir_0.code.py" || fail "$w: fxir-code differs from PyTorch's"
done

# Where PyTorch's converter failed, fxkit converts and says what it added, on stderr.
expect_exit 0 "$FXKIT" convert "$C/resnet_block/output_code_0.py" --to fxir
expect_out "call_function[target=torch.ops.aten.convolution.default](args = (%primals_2, %primals_1)"
expect_err "fxkit: fxir: node kinds PyTorch's WrapperFxCodegen does not convert: assert_size_stride x2, extern call that allocates its result (extern_kernels.convolution) x2"
expect_exit 0 "$FXKIT" convert "$C/transformer_layer/output_code_0.py" --to fxir-code
expect_out "torch.ops.aten._scaled_dot_product_efficient_attention.default("
expect_err "ATen fallback call (torch.ops.aten._scaled_dot_product_efficient_attention.default) x1"
expect_exit 0 "$FXKIT" convert "$C/deep_mlp/output_code_0.py" --to fxir
expect_err "repeated launch of one kernel (same kernel_idx) x63"

# FX IR needs wrapper code; a plain graph is refused with exit 2 and no output file.
expect_exit 2 "$FXKIT" convert "$C/mlp/aten_post_0.graph.txt" --to fxir -o "$WORK/no.txt"
expect_err "not read from Inductor's wrapper code"
[ ! -e "$WORK/no.txt" ] || fail "an output file was left behind after an error"

# Several inputs: one at a time (exit 2, a clear message).
expect_exit 2 "$FXKIT" convert "$C/mlp/output_code_0.py" "$C/softmax/output_code_0.py" -o "$WORK/many" --to fxir
expect_err "--to fxir converts one wrapper file at a time"

# info: kernels with the ops they fuse, allocations, frees, extern calls, peak.
expect_exit 0 "$FXKIT" info "$C/attention/output_code_0.py"
expect_out "  triton_per_fused__softmax_amax_div_mul_sub_view_3  [triton persistent_reduction]  launches: 1"
expect_out "    fuses: matmul, p"
expect_out "  buf3: f32[64, 128, 128][16384, 128, 1]cuda:0  4194304 bytes  reused as buf6  [output]"
expect_out "frees: 4  (primals_2 buf0 primals_3 primals_5)"
expect_out "  extern_kernels.addmm -> buf10"
expect_out "peak bytes: 9437184  (at buf9)"
expect_exit 0 "$FXKIT" info "$C/dynamic_broadcast/output_code_0.py" --json
expect_out '"peak_bytes": 8580'

# plan --wrapper: the imported program's storages re-planned into one pool, against
# Inductor's own peak (and meta.json's measurement, shown, not compared).
expect_exit 0 "$FXKIT" plan --wrapper "$C/attention/output_code_0.py" -o "$WORK/attention.csv"
expect_err "fxkit plan: 7 buffers, lower bound 9437184, pool 9437184: minimised, proved optimal"
expect_err "Inductor's allocations peak at 9437184 bytes; the re-planned pool is 9437184 bytes (100.0% of Inductor's)"
expect_err "meta.json's compiled_peak_bytes"
[ "$(head -1 "$WORK/attention.csv")" = "id,lower,upper,size,offset" ] || fail "plan csv header"
grep -q '^buf3,' "$WORK/attention.csv" || fail "plan csv lacks buf3"
expect_exit 2 "$FXKIT" plan --wrapper "$C/attention/output_code_0.py" --intervals "$WORK/attention.csv"
expect_exit 2 "$FXKIT" plan --wrapper "$C/attention/aten_post_0.graph.txt"

# substitute-size-args on an imported wrapper: the size argument becomes an expression in the
# launch, and the FX IR of the result is still PyTorch's.
d="$C/dynamic_broadcast"
expect_exit 0 "$FXKIT" compile "$d/output_code_0.py" --passes substitute-size-args --to fx
expect_out "xnumel: s17*s77, r0_numel: %s27"
expect_exit 0 "$FXKIT" compile "$d/output_code_0.py" --passes substitute-size-args --to fxir \
  -o "$WORK/db.graph.txt"
cmp -s "$WORK/db.graph.txt" "$d/fxir_0.graph.txt" || fail "substituted dynamic_broadcast fxir differs"

# Malformed wrapper code: unbalanced parentheses name file:line:col, exit 2, nothing written.
sed 's/^            buf0 = empty_strided_cuda((s77, s17), (s17, 1), torch.float32)$/            buf0 = empty_strided_cuda((s77, s17), (s17, 1), torch.float32/' \
  "$d/output_code_0.py" > "$WORK/unbalanced.py"
expect_exit 2 "$FXKIT" convert "$WORK/unbalanced.py" --to fxir -o "$WORK/u.txt"
expect_err "unbalanced.py:128:38: error: unbalanced parentheses"
expect_err "unbalanced parentheses: '(' is never closed"
[ ! -e "$WORK/u.txt" ] || fail "an output file was left behind after an error"
finish
