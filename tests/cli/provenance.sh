#!/usr/bin/env bash
# Inductor's provenance mapping (inductor_provenance_tracking_node_mappings.json): `info` on a
# debug folder's output_code.py and fx_graph_transformed.py (the mapping beside them attached by
# itself) and the REPL's `why`/`find` give the pinned text of tests/data/provenance; `--provenance`
# names a mapping for any graph; it survives `convert --to json` and shows in pictures and the
# report; malformed mappings fail with file:line:col and exit 2; and every mapping of the corpus
# copy agrees with its wrapper, post-grad and pre-grad graphs (tests/zoo/provenance_check.py).
. "$(dirname "$0")/lib.bash"
P="$DATA/provenance"
D="$DATA/corpus/inductor/mlp/debug/model__0_forward_1.0"
M="inductor_provenance_tracking_node_mappings.json"

# Golden text, run inside the debug folder so that the printed paths are relative.
golden() { # golden FILE CMD...: CMD's stdout from the first `provenance:` line equals FILE
  local want="$1"; shift
  (cd "$D" && "$@") >"$WORK/got" 2>"$WORK/err" || fail "'$*' failed: $(cat "$WORK/err")"
  sed -n '/^provenance:/,$p' "$WORK/got" >"$WORK/section"
  diff -u "$want" "$WORK/section" >"$WORK/diff" || fail "'$*' differs from $want: $(cat "$WORK/diff")"
}
golden "$P/mlp_forward_wrapper.info.txt" "$FXKIT" info output_code.py
golden "$P/mlp_forward_post_grad.info.txt" "$FXKIT" info fx_graph_transformed.py
(cd "$D" && "$FXKIT" -c "load output_code.py as w; why triton_poi_fused_gelu_0; why addmm_1; \
find post=mul_1; find pre=input_3; \
load ../../aten_post_0.graph.txt as p --provenance $M; \
find kernel=triton_poi_fused_gelu_0; find kernel=extern_kernels.addmm:*; \
find kernel!=* kind=call_function") >"$WORK/repl" 2>"$WORK/err" || fail "REPL session failed: $(cat "$WORK/err")"
diff -u "$P/mlp_forward.repl.txt" "$WORK/repl" >"$WORK/diff" || fail "REPL output differs: $(cat "$WORK/diff")"

# `why` on a post-grad node: Inductor's kernel first, then fxkit's own fusion decisions.
expect_exit 0 "$FXKIT" -c "load $D/../../aten_post_0.graph.txt --provenance $D/$M; why mul_1"
expect_out "mul_1: Inductor provenance"
expect_out "  kernels: triton_poi_fused_gelu_0:2"
expect_out "mul_1: computed by op"

# Named on the command line: the pre-grad graph Dynamo captured takes the same mapping.
expect_exit 0 "$FXKIT" info "$DATA/corpus/inductor/mlp/dynamo_0.graph.txt" --provenance "$D/$M"
expect_out "pre-grad graph: 4 of 10 nodes carry provenance; the file names 4 pre-grad nodes"
expect_out "    post-grad: mul, mul_1, erf, add, mul_2"
expect_exit 0 "$FXKIT" info "$D/output_code.py" --json
expect_out '"stage": "kernel calls"'
expect_out '"post_grad": ['

# Through fxkit JSON and back, byte for byte; pictures name the kernels.
expect_exit 0 "$FXKIT" convert "$D/output_code.py" --to json -o "$WORK/w.json"
grep -qF '"provenance": {"pre_grad": ["input_2"], "post_grad": ["mul_2", "mul", "add", "erf", "mul_1"], "kernels": ["triton_poi_fused_gelu_0:2"]}' "$WORK/w.json" \
  || fail "the JSON form lacks the kernel's provenance"
expect_exit 0 "$FXKIT" convert "$WORK/w.json" --to json -o "$WORK/w2.json"
cmp -s "$WORK/w.json" "$WORK/w2.json" || fail "provenance does not round-trip through JSON"
expect_exit 0 "$FXKIT" info "$WORK/w.json"
expect_out "provenance: (kept on the nodes)"
expect_exit 0 "$FXKIT" convert "$WORK/w.json" --to dot
expect_out 'tooltip="kernels: triton_poi_fused_gelu_0:2\npost-grad: mul_2, mul, add, erf, mul_1\npre-grad: input_2"'
expect_exit 0 "$FXKIT" convert "$D/fx_graph_transformed.py" --to dot
expect_out '\nkernels: extern_kernels.addmm:3", tooltip="kernels: extern_kernels.addmm:3\npre-grad: input_3, input_4"'

# The report sets Inductor's kernels beside fxkit's.
expect_exit 0 "$FXKIT" report "$DATA/corpus/inductor/mlp/aten_post_0.graph.txt" --provenance "$D/$M" \
  -o "$WORK/report.html"
grep -qF "<h2 id=\"inductor\">Inductor's kernels (3, from its provenance mapping)</h2>" "$WORK/report.html" \
  || fail "the report has no section of Inductor's kernels"
grep -qF '<td class="m">triton_poi_fused_gelu_0:2</td><td class="m">mul, mul_1, erf, add, mul_2</td><td class="m">input_2</td><td class="m">fused_' "$WORK/report.html" \
  || fail "the report does not set Inductor's gelu kernel beside fxkit's"

# Bad mappings: exit 2 with file:line:col, nothing written.
printf '{"preToPost": {"a": ["b"]},\n "cppCodeToPost": {"k:1": ["x", 3]}}\n' >"$WORK/bad.json"
expect_exit 2 "$FXKIT" info "$DATA/corpus/inductor/mlp/aten_post_0.graph.txt" --provenance "$WORK/bad.json"
expect_err "bad.json:2:33: error: 'cppCodeToPost'[\"k:1\"][1] must be a name (a string), not integer"
head -c 200 "$D/$M" >"$WORK/cut.json"
expect_exit 2 "$FXKIT" convert "$D/fx_graph_transformed.py" --provenance "$WORK/cut.json" --to json -o "$WORK/cut_out.json"
expect_err "cut.json:1:"
expect_err "JSON syntax error"
[ ! -e "$WORK/cut_out.json" ] || fail "a partial output was left behind"
expect_exit 2 "$FXKIT" info "$DATA/corpus/inductor/mlp/aten_post_0.graph.txt" \
  --provenance "$DATA/corpus/inductor/softmax/debug/model__0_inference_0.0/$M"
expect_err "names none of the graph's nodes"
expect_exit 2 "$FXKIT" convert "$D/output_code.py" "$D/fx_graph_transformed.py" -o "$WORK/batch" \
  --to json --provenance "$D/$M"
expect_err "--provenance names one graph's mapping"
# A corrupt mapping beside a wrapper is reported, not ignored.
mkdir -p "$WORK/debug" && cp "$D/output_code.py" "$WORK/debug/" && echo '{"postToPre": 1}' >"$WORK/debug/$M"
expect_exit 2 "$FXKIT" info "$WORK/debug/output_code.py"
expect_err "$M:1:15: error: 'postToPre' must be an object"

# Every mapping of the corpus copy, on all three stages.
python3 "$(dirname "$0")/../zoo/provenance_check.py" "$FXKIT" "$DATA/corpus" 20 >"$WORK/out" 2>"$WORK/err" \
  || fail "corpus provenance check: $(cat "$WORK/err")"
expect_out "provenance: 20 mappings, 316 kernel handles checked"
finish
