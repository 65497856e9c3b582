#!/usr/bin/env bash
# `fxkit report` on every corpus workload folder (tests/data/corpus/inductor/*: 10, each with
# its debug folders, Dynamo graphs, ATen graphs, wrappers and FX IR): every site is built with
# no file left unread, every internal link resolves, and every kernel call of every
# output_code.py that its provenance mapping names links to its post-grad nodes, every diff page
# is linked from the index and both graphs' pages, every post-grad page has its module section
# (report_site_check.py): 4 diff pages each; module paths on the post-grad pages of the 5
# workloads that are nn.Modules with parameters (attention, deep_mlp, mlp, resnet_block,
# transformer_layer), a note on the others', and the same paths in the compiled post-grad page's
# interactive graph. The zoo's folders are cli.report_site_zoo's.
. "$(dirname "$0")/lib.bash"
HERE="$(cd "$(dirname "$0")" && pwd)"
folders=0
args=()
for dir in "$DATA"/corpus/inductor/*/; do
  dir="${dir%/}"
  folders=$((folders + 1))
  out="$WORK/site$folders"
  expect_exit 0 "$FXKIT" report "$dir" -o "$out"
  grep -q "files not read" "$WORK/err" && fail "$dir: $(cat "$WORK/err")"
  args+=("$out" "$dir")
  [ "$(basename "$dir")" = mlp ] && mlp="$out"
  [ "$(basename "$dir")" = transformer_layer ] && tl="$out"
done
[ "$folders" -eq 10 ] || fail "$folders corpus workload folders, expected 10"
python3 "$HERE/report_site_check.py" "${args[@]}" >"$WORK/check.txt" ||
  fail "the sites' links: $(tail -5 "$WORK/check.txt")"
kernels=$(awk '{ k += $(NF - 6) } END { print k }' "$WORK/check.txt")
linked=$(awk '{ k += $(NF - 1) } END { print k }' "$WORK/check.txt")
read -r diffs modules posts < <(sed -n 's/.* internal links, \([0-9]*\) diff pages, \([0-9]*\) of \([0-9]*\) post-grad pages .*/\1 \2 \3/p' \
  "$WORK/check.txt" | awk '{ d += $1; m += $2; p += $3 } END { print d, m, p }')
echo "$folders sites, $kernels kernel calls with provenance, $linked linked; $diffs diff pages; $modules of $posts post-grad pages with module paths"
[ "$kernels" -gt 400 ] && [ "$kernels" -eq "$linked" ] || fail "kernel calls $kernels, linked $linked"
[ "$diffs" -eq 40 ] || fail "$diffs diff pages, expected 40"
[ "$modules" -eq 20 ] && [ "$posts" -eq 40 ] || fail "$modules of $posts post-grad pages with module paths, expected 20 of 40"
# mlp (nn.Sequential of Linear, GELU, Linear): the second Linear's nodes in module 2, found
# through the provenance into the Dynamo graph; the inputs outside any module.
grep -q '<tr data-nodes="permute_1 addmm_1"><td class="m">2</td><td class="n">2</td><td class="n">2</td>' \
  "$mlp/aten_post_0_graph_txt.html" || fail "mlp's post-grad page lacks module 2's row"
grep -q '<p>9 of 9 call nodes (9 of 15 nodes) in 2 modules, recovered through Inductor.s provenance' \
  "$mlp/aten_post_0_graph_txt.html" || fail "mlp's module section does not say where its paths come from"
# A module's row counts its submodules' nodes too and sits above them (transformer_layer:
# self_attn, whose nodes here are all out_proj's).
grep -q '<tr data-nodes="[^"]*"><td class="m">self_attn</td><td class="n">0</td><td class="n">0</td><td class="n">37</td>' \
  "$tl/aten_post_0_graph_txt.html" || fail "transformer_layer's self_attn row does not count its submodule"
grep -q '<tr data-nodes="[^"]*"><td class="m">&#160;&#160;self_attn.out_proj</td><td class="n">37</td>' \
  "$tl/aten_post_0_graph_txt.html" || fail "transformer_layer's self_attn.out_proj is not under self_attn"
# The interactive graph of the compiled post-grad page has the same paths (collapse by module).
grep -q '"module":\["0","2"\]' "$mlp/aten_post_0_graph_txt.html" ||
  fail "the compiled post-grad page's interactive graph has no module paths"
finish
