#!/usr/bin/env bash
# Inductor's scheduler dumps (ir_pre_fusion.txt, ir_post_fusion.txt) read as graphs: the format is
# detected from the content (a `.txt` that is not FX text), `info` and `convert` work, and bad
# input exits 2 with file:line:col.
. "$(dirname "$0")/lib.bash"
d="$DATA/corpus/inductor/softmax/debug/model__0_inference_0.0"
expect_exit 0 "$FXKIT" info "$d/ir_post_fusion.txt"
expect_out "nodes: 3"
expect_out "arg0_1: f32[4096, 1024][1024, 1]cuda:0"
expect_out "1  inductor.fused_node"
expect_exit 0 "$FXKIT" info "$d/ir_pre_fusion.txt"
expect_out "3  inductor.scheduler_node"
expect_exit 0 "$FXKIT" convert "$d/ir_post_fusion.txt" --to fx
expect_out "call_function[target=inductor.fused_node](args = (%arg0_1,), kwargs = {writes: [(buf0, d0), (buf1, d0), (buf2, 1024*d0 + d1)], reads: [(arg0_1, 1024*d0 + d1)], members: [op0, op1, op2]})"
expect_exit 0 "$FXKIT" convert - --from inductor-ir --to json < "$d/ir_pre_fusion.txt"
expect_out '"target": "inductor.scheduler_node"'
expect_exit 0 "$FXKIT" convert - --to fx < "$d/ir_pre_fusion.txt"
expect_out "%op2 : [num_users=1] = call_function[target=inductor.scheduler_node](args = (%op0, %op1, %arg0_1)"
# Extern kernels and a layout without a tensor type (the attention op's MultiOutputLayout).
t="$DATA/corpus/inductor/transformer_layer/debug/model__0_forward_1.0/ir_post_fusion.txt"
expect_exit 0 "$FXKIT" info "$t"
expect_out "inductor.extern_kernel"
# The FX text output is a graph fxkit reads back.
"$FXKIT" convert "$t" --to fx -o "$WORK/t.graph.txt" || fail "convert to a file failed"
expect_exit 0 "$FXKIT" info "$WORK/t.graph.txt"
# Malformed input: an unknown field, and a dump cut off inside a node's outputs.
sed 's/^op0_op1_op2.met_dependencies/op0_op1_op2.met_dependences/' "$d/ir_post_fusion.txt" > "$WORK/ir_post_fusion.txt"
expect_exit 2 "$FXKIT" info "$WORK/ir_post_fusion.txt"
expect_err "ir_post_fusion.txt:7:13: error: unknown field 'met_dependences' of scheduler node 'op0_op1_op2'"
head -n 12 "$d/ir_post_fusion.txt" > "$WORK/cut.txt"
expect_exit 2 "$FXKIT" convert "$WORK/cut.txt" --to fx -o "$WORK/out.graph.txt"
expect_err "cut.txt:13:1: error: end of file inside 'op0_op1_op2.outputs = [' (no closing ']')"
[ ! -e "$WORK/out.graph.txt" ] || fail "a failed convert left a file"
finish
