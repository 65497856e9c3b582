#!/usr/bin/env bash
# Pictures that scale (issue 22 item 5), as DOT text (no layout: fast). Golden files in
# tests/data/pictures (README.md there says how each was made and checked):
# - a graph returning values from more than 8 nodes: the output node is a summary (the count,
#   the first 4 types) and each returned node carries "-> output[i]" and a double border, with
#   no edge into the output (those edges cost dot minutes on training graphs);
# - an Inductor wrapper collapsed by kernel: one box per launch, edges from the launch that
#   last wrote a buffer (through views and reuse=) to each launch reading it; a small wrapper
#   graph with an in-place kernel, full and collapsed;
# - a post-grad graph collapsed by the kernels of Inductor's provenance.
# Also: the full wrapper picture draws those writer edges bold (program order), compiled
# programs mark their outputs too, a post-grad graph takes its modules from the Dynamo graph
# through provenance (--modules), and --collapse refuses graphs without modules or kernels with
# a message, writing nothing.
. "$(dirname "$0")/lib.bash"
FXKIT="$(realpath "$FXKIT")"
DATA="$(realpath "$DATA")"
P="$DATA/pictures"
I="$DATA/corpus/inductor"
golden() { # golden FILE CMD...: CMD exits 0 and its stdout equals FILE
  local want="$1"; shift
  expect_exit 0 "$@"
  diff -u "$want" "$WORK/out" >"$WORK/diff" || fail "$(basename "$want") differs: $(head -c 600 "$WORK/diff")"
}
golden "$P/many_outputs.dot" "$FXKIT" convert "$P/many_outputs.graph.txt" --to dot
# A small wrapper graph: program-order (writer) edges through an in-place kernel, and a launch
# that fused 8 ops drawn with 5 boxes and "+3 more".
golden "$P/small_wrapper.dot" "$FXKIT" convert "$P/small_wrapper.graph.txt" --to dot
golden "$P/small_wrapper_kernels.dot" "$FXKIT" convert "$P/small_wrapper.graph.txt" --to dot \
  --collapse kernel
# The golden files were written from inside these folders: paths never appear in them.
cd "$I/attention" &&
  golden "$P/attention_wrapper_kernels.dot" "$FXKIT" convert output_code_0.py --to dot --collapse kernel
cd "$I/mlp/debug/model__0_forward_1.0" &&
  golden "$P/mlp_post_grad_kernels.dot" "$FXKIT" convert fx_graph_transformed.py --to dot --collapse kernel
cd "$WORK" || exit 1
# The same kernels through --provenance on the post-grad graph itself.
M="$I/mlp/debug/model__0_forward_1.0/inductor_provenance_tracking_node_mappings.json"
golden "$P/mlp_post_grad_kernels.dot" "$FXKIT" convert "$I/mlp/aten_post_0.graph.txt" \
  --provenance "$M" --to dot --collapse kernel

# Up to 8 returning nodes keep their edges into the output node.
expect_exit 0 "$FXKIT" convert "$DATA/corpus/reference/softmax/fw_0.graph.txt" --to dot
expect_out '"div" -> "output"'
grep -q 'marked -> output' "$WORK/out" && fail "softmax's one output was summarised"

# The full wrapper picture: the launch that wrote a buffer -> its reader, bold, in program
# order: bmm writes buf3, the softmax kernel updates it in place as buf6 (reuse=buf3), bmm_1
# reads it through a view.
expect_exit 0 "$FXKIT" convert "$I/attention/output_code_0.py" --to dot
expect_out '"bmm" -> "triton_per_fused__softmax_amax_div_mul_sub_view_3" [penwidth=2'
expect_out '"triton_per_fused__softmax_amax_div_mul_sub_view_3" -> "bmm_1" [penwidth=2'
expect_out '"addmm" -> "output" [penwidth=2'

# A compiled training graph returning hundreds of values (deep_mlp's forward saves 448):
# marked on the kernels and loop ops, no edge into the output, in both pictures.
G="$I/deep_mlp/aten_post_0.graph.txt"
for collapse in none kernel; do
  expect_exit 0 "$FXKIT" compile "$G" --to dot --collapse "$collapse"
  expect_out '"output" [label="output\n448 values, marked -> output[i]'
  expect_out '"in:primals_3" [label="primals_3\nf32[32, 128][128, 1]cuda:0\n-> output[1]", shape=ellipse, peripheries=2]'
  expect_out '\n-> output[0'
  grep -q -- '-> "output"' "$WORK/out" && fail "compile --collapse $collapse drew edges into the output"
done

# Graphs without modules or kernels: a clear refusal, exit 2, no file.
expect_exit 2 "$FXKIT" convert "$I/mlp/aten_post_0.graph.txt" --to svg --collapse module \
  -o "$WORK/m.svg"
expect_err "--collapse module: this graph names no module"
expect_err "dynamo_N.graph.txt"
[ -e "$WORK/m.svg" ] && fail "a refused --collapse module wrote m.svg"
expect_exit 2 "$FXKIT" convert "$I/mlp/aten_post_0.graph.txt" --to dot --collapse kernel
expect_err "--collapse kernel needs kernels"
expect_err "--provenance"
# A post-grad graph takes the modules of the Dynamo graph it came from through Inductor's
# provenance (--modules with --provenance): mlp's Linear 0 (addmm, permute, and the GELU the
# Dynamo graph's rule puts in module 0) and Linear 2; without provenance, a clear refusal.
D="$I/mlp/dynamo_0.graph.txt"
expect_exit 0 "$FXKIT" convert "$I/mlp/aten_post_0.graph.txt" --provenance "$M" --modules "$D" \
  --to dot --collapse module
expect_out '"0" [label="0\n7 nodes\n3 x mul.Tensor\n1 x add.Tensor\n1 x addmm.default\n1 x erf.default\n..."];'
expect_out '"2" [label="2\n2 nodes\n1 x addmm.default\n1 x permute.default"];'
expect_out '"0" -> "2" [label="2097152 B"];'
expect_exit 2 "$FXKIT" convert "$I/mlp/aten_post_0.graph.txt" --modules "$D" --to dot \
  --collapse module
expect_err "no node leads to a module of the Dynamo graph"
# Dynamo's graph names its modules: one box per module.
expect_exit 0 "$FXKIT" convert "$I/attention/dynamo_0.graph.txt" --to dot --collapse module
expect_out '"(inputs)"'
finish
