#!/usr/bin/env bash
# `fxkit diff A B` and the REPL's `diff` (issue 22, item 3) on the corpus copy in tests/data:
# golden text for pre-grad against post-grad ATen graphs (softmax's amax/sum became
# prepare_softmax_online, attention's addmm became mm + add: one region each, the renamed sub
# and exp paired by structure), both directions; the same graph (exit 0); names only; JSON;
# Inductor's provenance pairing kernel calls with their post-grad nodes and post-grad nodes with
# the Dynamo graph's; Inductor's wrapper FX IR against fxkit's; bad input (exit 2, nothing on
# stdout).
. "$(dirname "$0")/lib.bash"
cd "$DATA/corpus/inductor" || exit 1
S=softmax/aten_pre_0.graph.txt
T=softmax/aten_post_0.graph.txt

expect_exit 1 "$FXKIT" diff "$S" "$T"
cat >"$WORK/want" <<'TXT'
--- softmax/aten_pre_0.graph.txt (7 nodes)
+++ softmax/aten_post_0.graph.txt (8 nodes)
~ amax, sum_1 -> prepare_softmax_online_default, getitem, getitem_1 (region)
= sub -> sub_tensor (structure)
= exp -> exp_default (structure)
summary: 6 pairs (provenance 0, name 3, structure 2, region 1), 0 changed, 2 renamed, 1 regions, 0 removed, 0 added; call nodes paired: 5 of 5 (100.0%) and 6 of 6 (100.0%)
TXT
diff -u "$WORK/want" "$WORK/out" >&2 || fail "softmax pre/post diff differs"

expect_exit 1 "$FXKIT" diff attention/aten_pre_0.graph.txt attention/aten_post_0.graph.txt
cat >"$WORK/want" <<'TXT'
--- attention/aten_pre_0.graph.txt (53 nodes)
+++ attention/aten_post_0.graph.txt (54 nodes)
~ addmm -> mm_default, add_tensor (region)
summary: 53 pairs (provenance 0, name 52, structure 0, region 1), 0 changed, 0 renamed, 1 regions, 0 removed, 0 added; call nodes paired: 47 of 47 (100.0%) and 48 of 48 (100.0%)
TXT
diff -u "$WORK/want" "$WORK/out" >&2 || fail "attention pre/post diff differs"
expect_exit 1 "$FXKIT" diff attention/aten_post_0.graph.txt attention/aten_pre_0.graph.txt
expect_out "~ mm_default, add_tensor -> addmm (region)"
expect_out " 0 removed, 0 added;"

# --all lists the identical pairs too, one line each.
expect_exit 1 "$FXKIT" diff "$S" "$T" --all
[ "$(grep -c '^= ' "$WORK/out")" -eq 5 ] || fail "--all: expected 5 '=' lines: $(cat "$WORK/out")"
expect_out "= arg0_1 (name)"

# The same graph: exit 0.
expect_exit 0 "$FXKIT" diff "$S" "$S"
expect_out "no differences"

# Names alone: the renamed and decomposed nodes are removed and added.
expect_exit 1 "$FXKIT" diff "$S" "$T" --by name
expect_out "- %amax : "
expect_out "+ %prepare_softmax_online_default = "
expect_out "~ div (name): args"
expect_out "summary: 3 pairs (provenance 0, name 3, structure 0, region 0), 1 changed, 0 renamed, 0 regions, 4 removed, 5 added;"

# JSON: the same pairs and counts.
expect_exit 1 "$FXKIT" diff "$S" "$T" --json
if command -v python3 >/dev/null; then
  python3 - "$WORK/out" <<'PY' || fail "JSON diff: $(head -c 400 "$WORK/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["pairs"][0] == {"a": ["amax", "sum_1"], "b": ["prepare_softmax_online_default", "getitem", "getitem_1"], "why": "region", "status": "region"}, d["pairs"][0]
s = d["summary"]
assert (s["pairs"], s["region"], s["renamed"], s["removed"], s["added"], s["differ"]) == (6, 1, 2, 0, 0, True), s
PY
fi

# Provenance: the kernel calls of Inductor's wrapper (its debug folder's mapping attached when
# it is read) against the post-grad graph they compute.
A=attention/debug/model__0_forward_1.0
expect_exit 1 "$FXKIT" diff "$A/output_code.py" attention/aten_post_0.graph.txt
expect_out "= mm -> mm_default (provenance)"
expect_out "~ triton_per_fused__softmax_amax_div_mul_sub_view_3 -> view_7, mul_tensor, amax_default, sub_tensor, div_tensor, exp, sum_1, div_1 (provenance)"
expect_out "~ triton_poi_fused_clone_transpose_view_4 -> view_10, permute_5, clone_3 (provenance)"
expect_out "summary: 17 pairs (provenance 7,"
# The post-grad graph with the mapping against the Dynamo graph it came from.
expect_exit 1 "$FXKIT" diff attention/aten_post_0.graph.txt attention/dynamo_0.graph.txt \
  --provenance-a "$A/inductor_provenance_tracking_node_mappings.json"
expect_out "~ view, permute, mm_default, add_tensor, view_1 -> linear (provenance)"
expect_out "~ expand, clone, view_5, expand_1, clone_1, view_6, bmm, view_7 -> matmul (provenance)"
expect_out "= permute_1 -> q_1 (provenance)"
expect_out "summary: 22 pairs (provenance 15,"
# Without the mapping, the names of two stages do not say which is which.
expect_exit 1 "$FXKIT" diff attention/aten_post_0.graph.txt attention/dynamo_0.graph.txt
grep -qF "(provenance)" "$WORK/out" && fail "provenance pairs without a mapping"

# PyTorch's FX IR of Inductor's wrapper against fxkit's own of the same post-grad graph: values
# followed through the buffers the launches write; fxkit's pool and its two views are added,
# every node of Inductor's is paired (its buffers with fxkit's by the launch writing them).
expect_exit 0 "$FXKIT" compile mlp/aten_post_0.graph.txt --to fxir -o "$WORK/mlp.fxir.txt"
expect_exit 1 "$FXKIT" diff mlp/fxir_0.graph.txt "$WORK/mlp.fxir.txt"
expect_out " 0 removed, 2 added;"
expect_out "+ %pool = call_function[target=torch.empty_strided]"
expect_out "~ addmm_out (name): args"
expect_out "~ addmm_out_1 (name): args"

# -o: the two graphs side by side, coloured and linked (DOT always; SVG where Graphviz is built
# in); the text is printed as without it; an unknown picture format writes nothing (exit 2).
expect_exit 1 "$FXKIT" diff "$S" "$T" -o "$WORK/d.dot"
expect_out "= exp -> exp_default (structure)"
grep -qF 'subgraph cluster_a {' "$WORK/d.dot" || fail "diff.dot lacks graph A's cluster"
grep -qF 'b1 [label="prepare_softmax_online_default\nprepare_softmax_online.default", style=filled, fillcolor="#a6cee3"]' "$WORK/d.dot" ||
  fail "diff.dot: the region's node is not in the region's colour"
grep -qF 'a1 -> b1 [style=dashed' "$WORK/d.dot" || fail "diff.dot: amax not linked to its region"
"$FXKIT" diff "$S" "$T" -o "$WORK/d.svg" >/dev/null 2>"$WORK/err"
rc=$?
if [ "$rc" -eq 1 ]; then
  grep -q "<svg" "$WORK/d.svg" || fail "diff -o d.svg wrote no SVG"
else
  grep -q "graphviz\|Graphviz" "$WORK/err" || fail "diff -o d.svg: exit $rc: $(head -c 300 "$WORK/err")"
fi
expect_exit 2 "$FXKIT" diff "$S" "$T" -o "$WORK/d.bmp"
expect_err "diff -o: cannot draw"
[ -e "$WORK/d.bmp" ] && fail "a refused picture was written"

# The REPL's diff is the same diff of the loaded graphs.
expect_exit 0 "$FXKIT" -c "load $S; load $T; diff aten_pre_0 aten_post_0"
expect_out "--- aten_pre_0 (7 nodes)"
expect_out "~ amax, sum_1 -> prepare_softmax_online_default, getitem, getitem_1 (region)"
expect_out "= exp -> exp_default (structure)"
expect_exit 0 "$FXKIT" -c "load $S; load $T; diff aten_pre_0 aten_post_0 --by name --all"
expect_out "- %amax : "
expect_out "= arg0_1 (name)"
expect_out " 4 removed, 5 added;"
expect_exit 2 "$FXKIT" -c "load $S; load $T; diff aten_pre_0 aten_post_0 --by names"
expect_err "diff --by: expected auto, name, structure or provenance"

# Bad input: exit 2 with the reason, nothing on stdout.
for args in "nothere.graph.txt $T" "$S $T --by names" "- - " "$S $T --provenance x.json --provenance-a y.json"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$FXKIT" diff $args </dev/null
  [ -s "$WORK/out" ] && fail "diff $args wrote to stdout"
  grep -q "error" "$WORK/err" || fail "diff $args: no error"
done
expect_exit 2 "$FXKIT" diff "$S" "$T" --by names
expect_err "unknown --by 'names' (expected auto, name, structure or provenance)"
finish
