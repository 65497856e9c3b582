#!/usr/bin/env bash
# fxkit fuse: kernels and decisions on corpus graphs; bad input exits 2.
. "$(dirname "$0")/lib.bash"
S="$DATA/corpus/reference/softmax/fw_0.graph.txt"
expect_exit 0 "$FXKIT" fuse "$S" --explain
expect_out "fused_amax_sub_exp_sum_0: op0(amax), op1(sub exp), op2(sum_1), op3(div)"
expect_out "fused   op2 into kernel of op0 (same rows"
expect_out "generated kernels: 1 distinct, 1 launches"
expect_exit 0 "$FXKIT" fuse "$S" --no-fusion
expect_out "generated kernels: 4 distinct, 4 launches"
expect_exit 0 "$FXKIT" fuse "$S" --loops
expect_out "op0: reduction max {x0: 16} {r0: 100}"
# Every aten graph of the corpus lowers and fuses.
for g in "$DATA"/corpus/inductor/*/aten_post_*.graph.txt; do
  expect_exit 0 "$FXKIT" fuse "$g"
done
printf 'graph():\n    %%x : [num_users=1] = placeholder[target=x]\n    %%y : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%%x,), kwargs = {})\n    return (y,)\n' > "$WORK/untyped.graph.txt"
expect_exit 2 "$FXKIT" fuse "$WORK/untyped.graph.txt"
expect_err "placeholder 'x' has no value"
finish
