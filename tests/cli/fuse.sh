#!/usr/bin/env bash
# fxkit fuse: kernels and decisions on corpus graphs; bad input exits 2.
. "$(dirname "$0")/lib.bash"
S="$DATA/corpus/reference/softmax/fw_0.graph.txt"
expect_exit 0 "$FXKIT" fuse "$S" --explain
# amax and sum(exp(x - amax)) are one online-softmax reduction; sub, exp and div one epilogue.
expect_out "fused_amax_sum_sub_exp_0: op0(amax sum_1), op1(sub exp div)"
expect_out "fused   op1 into kernel of op0 (reduction epilogue"
expect_out "generated kernels: 1 distinct, 1 launches"
expect_exit 0 "$FXKIT" fuse "$S" --no-fusion
expect_out "generated kernels: 2 distinct, 2 launches"
expect_exit 0 "$FXKIT" fuse "$S" --loops
expect_out "op0: reduction online_softmax {x0: 16} {r0: 100}  # amax, sum_1"
# Every aten graph of the corpus lowers and fuses.
for g in "$DATA"/corpus/inductor/*/aten_post_*.graph.txt; do
  expect_exit 0 "$FXKIT" fuse "$g"
done
printf 'graph():\n    %%x : [num_users=1] = placeholder[target=x]\n    %%y : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%%x,), kwargs = {})\n    return (y,)\n' > "$WORK/untyped.graph.txt"
expect_exit 2 "$FXKIT" fuse "$WORK/untyped.graph.txt"
expect_err "placeholder 'x' has no value"
finish
