#!/usr/bin/env bash
# The REPL's kernel queries (issue 22 item 2): `kernel-of NODE` (which kernels compute a node,
# with every node each computes) and `computes KERNEL` (what a kernel computes), from Inductor's
# provenance where the graph was read with it (the corpus attention's fx_graph_transformed.py)
# and from fxkit's own fusion where not (its aten_post_0.graph.txt): golden output, `let` on
# both, and the errors.
. "$(dirname "$0")/lib.bash"
A="$DATA/corpus/inductor/attention"
expect_exit 0 "$FXKIT" -c "load $A/debug/model__0_forward_1.0/fx_graph_transformed.py; kernel-of %amax_default; computes triton_per_*; computes extern_kernels.bmm; let k = kernel-of exp; set k; computes nothing_here"
cat >"$WORK/want" <<'OUT'
triton_per_fused__softmax_amax_div_mul_sub_view_3:6: [view_7, mul_tensor, amax_default, sub_tensor, div_tensor, exp, sum_1, div_1]
triton_per_fused__softmax_amax_div_mul_sub_view_3:6: [view_7, mul_tensor, amax_default, sub_tensor, div_tensor, exp, sum_1, div_1]
extern_kernels.bmm:5: [bmm]
extern_kernels.bmm:7: [bmm_1]
view_7
mul_tensor
amax_default
sub_tensor
div_tensor
exp
sum_1
div_1
(no kernel of that name)
OUT
diff -u "$WORK/want" "$WORK/out" || fail "kernel queries on Inductor's provenance differ"
expect_err "1 kernel (Inductor's provenance), 8 nodes"
expect_err "2 nodes of 2 of 9 kernels (Inductor's provenance)"
expect_err "\$k = 8 nodes of fx_graph_transformed"

# fxkit's own kernels: the same softmax, one node fewer (the view is no kernel's).
expect_exit 0 "$FXKIT" -c "load $A/aten_post_0.graph.txt; kernel-of amax_default; computes fused_clone_*; kernel-of primals_1"
cat >"$WORK/want" <<'OUT'
fused_mul_amax_sub_div_2: [mul_tensor, amax_default, sub_tensor, div_tensor, exp, sum_1, div_1]
fused_clone_1: [clone, clone_1, clone_2]
fused_clone_3: [clone_3]
(no kernel computes it: inputs, views and outputs are no kernel's)
OUT
diff -u "$WORK/want" "$WORK/out" || fail "kernel queries on fxkit's fusion differ"
expect_err "1 kernel (fxkit's fusion), 7 nodes"
expect_err "4 nodes of 2 of 7 kernels (fxkit's fusion)"

# Errors: a wrapper read without its mapping, a missing argument, an unknown node.
expect_exit 2 "$FXKIT" -c "load $A/output_code_0.py; kernel-of buf0"
expect_err "a compiled program: its kernel calls are nodes"
expect_exit 2 "$FXKIT" -c "load $A/aten_post_0.graph.txt; computes"
expect_err "usage: computes KERNEL..."
expect_exit 2 "$FXKIT" -c "load $A/aten_post_0.graph.txt; kernel-of amax"
expect_err "did you mean 'amax_default'?"
finish
