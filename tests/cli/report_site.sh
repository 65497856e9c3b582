#!/usr/bin/env bash
# `fxkit report DIR -o SITE`: one offline site over a whole compile. On the corpus pointwise
# model folder (tests/data/corpus/inductor/pointwise: Dynamo, ATen pre/post, debug folders,
# wrappers, FX IR): the site's pages (golden list), its index (golden, times blanked), every
# internal link resolves, every kernel call of every output_code.py links to its post-grad nodes
# (report_site_check.py); the diff pages of each compile (pre-grad against post-grad, Inductor's
# FX IR against fxkit's: the text of `fxkit diff` on the same graphs, rows linking both graphs'
# nodes, linked from the index and both pages, each node linked back to its row); the post-grad
# pages' module sections (this workload is a function: they say why there are none); a diff of
# 5,102 identical pairs lists 5,000 and says so; one debug folder alone; a bad file is listed
# with its error and loses nothing else, a post-grad graph fxkit cannot compile leaves an FX IR
# diff page that says so; bad input exits 2 and writes nothing.
. "$(dirname "$0")/lib.bash"
HERE="$(cd "$(dirname "$0")" && pwd)"
GOLD="$DATA/report-site"
PW="$DATA/corpus/inductor/pointwise"
expect_exit 0 "$FXKIT" report "$PW" -o "$WORK/site"
expect_err "fxkit report: 20 graph pages, 4 diff pages and index.html in $WORK/site"
(cd "$WORK/site" && ls) >"$WORK/pages.txt"
diff -u "$GOLD/pointwise.pages.txt" "$WORK/pages.txt" || fail "the site's pages differ from the golden list"
sed -e 's|<td class="t">[^<]*</td>|<td class="t">T</td>|g' "$WORK/site/index.html" >"$WORK/index.html"
diff -u "$GOLD/pointwise.index.html" "$WORK/index.html" || fail "index.html differs from the golden"
python3 "$HERE/report_site_check.py" "$WORK/site" "$PW" >"$WORK/check.txt" || fail "links: $(cat "$WORK/check.txt")"
grep -q "4 diff pages, 0 of 4 post-grad pages with module paths, 3 kernel calls with provenance, 3 linked" "$WORK/check.txt" ||
  fail "diff pages, modules or provenance links: $(cat "$WORK/check.txt")"

# The diff pages hold the text `fxkit diff` prints for the same two graphs, read the same way.
difftext() { python3 -c 'import html, re, sys; print(html.unescape(re.search(r"<h2 id=\"text\">[^\n]*\n<pre>(.*?)</pre>", open(sys.argv[1]).read(), re.S).group(1)), end="")' "$1"; }
(cd "$PW" && "$FXKIT" diff aten_pre_0.graph.txt aten_post_0.graph.txt \
  --provenance-b debug/model__0_inference_0.0/inductor_provenance_tracking_node_mappings.json) >"$WORK/want"
difftext "$WORK/site/diff-0-pre-post.html" >"$WORK/got"
diff -u "$WORK/want" "$WORK/got" >&2 || fail "the pre/post diff page differs from fxkit diff"
grep -q "^summary: 8 pairs (provenance 5, name 3, " "$WORK/got" || fail "pre/post diff: $(tail -1 "$WORK/got")"
(cd "$PW" && "$FXKIT" compile aten_post_0.graph.txt --to fxir -o "$WORK/fxkit.fxir.txt" &&
  cd "$WORK" && "$FXKIT" diff "$PW/fxir_0.graph.txt" fxkit.fxir.txt) >"$WORK/want"
sed -i "1s|--- .*/fxir_0.graph.txt|--- fxir_0.graph.txt|" "$WORK/want"
difftext "$WORK/site/diff-0-fxir.html" >"$WORK/got"
diff -u "$WORK/want" "$WORK/got" >&2 || fail "the FX IR diff page differs from fxkit diff"
# Its rows: a changed pair linking Inductor's node on the FX IR page and fxkit's on this page.
grep -q '<tr id="d-b-buf4" class="changed"><td class="m">~</td><td class="m"><a href="fxir_0_graph_txt.html#n-buf0">buf0</a></td><td class="m"><a href="#b-buf4">buf4</a></td><td>structure</td><td>target, args</td></tr>' \
  "$WORK/site/diff-0-fxir.html" || fail "the FX IR diff lacks the changed buffer's row"
grep -q '<tr id="d-b-pool" class="added"><td class="m">+</td><td class="m"></td><td class="m"><a href="#b-pool">pool</a>' \
  "$WORK/site/diff-0-fxir.html" || fail "the FX IR diff lacks fxkit's pool as added"
grep -q '<tr id="b-buf4">' "$WORK/site/diff-0-fxir.html" || fail "fxkit's FX IR nodes are not listed"
# Back-links: Inductor's buf0 on the FX IR page links to its row there (report_site_check.py
# checks every node of every diff row); a check that loses one back-link fails.
grep -q '<tr id="n-buf0">.*<td class="p"><a href="diff-0-fxir.html#d-b-buf4">FX IR: changed</a></td></tr>' \
  "$WORK/site/fxir_0_graph_txt.html" || fail "the FX IR page's buf0 does not link back to its diff row"
grep -q ' [1-9][0-9]* nodes linked back from diff rows' "$WORK/check.txt" ||
  fail "no node linked back: $(cat "$WORK/check.txt")"
cp -r "$WORK/site" "$WORK/lost"
sed -i 's|<a href="diff-0-fxir.html#d-b-buf4">FX IR: changed</a>||' "$WORK/lost/fxir_0_graph_txt.html"
expect_exit 1 python3 "$HERE/report_site_check.py" "$WORK/lost" "$PW"
expect_err "diff-0-fxir.html: fxir_0_graph_txt.html's node buf0 does not link back to its row d-b-buf4"
# Compile 1 has no fxir_1: its Inductor side is fxkit's conversion of the debug folder's wrapper.
grep -q "fxkit convert debug/model__1_inference_1.1/output_code.py --to fxir -o inductor.fxir.txt" \
  "$WORK/site/diff-1-fxir.html" || fail "the converted FX IR diff does not say how to reproduce it"
for page in aten_pre_0_graph_txt.html aten_post_0_graph_txt.html index.html; do
  grep -q 'href="diff-0-pre-post.html"' "$WORK/site/$page" || fail "$page does not link the pre/post diff"
done
grep -q '<td class="n">5 of 5, 5 of 5</td>' "$WORK/site/index.html" || fail "the index lacks the diff's counts"
# The module view: a function has no module paths, and the page says why.
grep -q "<h2 id=\"modules\">Modules</h2>" "$WORK/site/aten_post_0_graph_txt.html" || fail "the post-grad page has no module section"
grep -q 'No module path could be recovered for this graph: the Dynamo graph dynamo_0.graph.txt has no module paths either' \
  "$WORK/site/aten_post_0_graph_txt.html" || fail "the module section does not say why it is empty"

# The post-grad page is fxkit's compile beside Inductor's: both kernel tables, fusion decisions,
# both memory plans, provenance rows that highlight their nodes, and the nodes with their links.
POST="$WORK/site/aten_post_0_graph_txt.html"
for id in kernels inductor fusion memory provenance inductor-memory nodes; do
  grep -q "id=\"$id\"" "$POST" || fail "the post-grad page has no section '$id'"
done
grep -q '<tr id="k-triton_poi_fused_add_mul_relu_sigmoid_sub_0:1" data-nodes="[^"]*relu' "$POST" ||
  fail "the post-grad page's kernel row does not name its nodes"
grep -q '<tr id="n-relu" data-kernels="triton_poi_fused_add_mul_relu_sigmoid_sub_0:1">' "$POST" ||
  fail "the post-grad node relu does not name its kernel"
grep -q 'href="dynamo_0_graph_txt.html#n-' "$POST" || fail "no link from post-grad to pre-grad nodes"
grep -q '<tr id="n-relu" .*<td class="m">fused_mul_add_relu_sigmoid_0</td><td class="p"><a href="diff-0-pre-post.html#d-b-relu">pre/post: same</a></td></tr>' "$POST" ||
  fail "the post-grad node relu does not name fxkit's kernel beside Inductor's"
grep -q '__kernel void' "$POST" || fail "the post-grad page lacks fxkit's kernel code"
grep -q "<script>" "$POST" || fail "the post-grad page has no script"
grep -q '<nav class="site"><a href="index.html">index</a>' "$POST" || fail "no navigation bar"
OC="$WORK/site/output_code_0_py.html"
grep -q 'id="src-triton_poi_fused_add_mul_relu_sigmoid_sub_0"' "$OC" || fail "the wrapper page lacks the Triton code"
grep -q 'href="aten_post_0_graph_txt.html#k-triton_poi_fused_add_mul_relu_sigmoid_sub_0:1"' "$OC" ||
  fail "the wrapper's kernel does not link to its nodes"
grep -q '<tr id="n-triton_poi_fused_add_mul_relu_sigmoid_sub_0" data-kernels="triton_poi_fused_add_mul_relu_sigmoid_sub_0:1">' "$OC" ||
  fail "the wrapper's kernel call node does not name its provenance row"
DY="$WORK/site/dynamo_0_graph_txt.html"
grep -q 'href="aten_post_0_graph_txt.html#n-' "$DY" || fail "no link from pre-grad to post-grad nodes"

# One debug folder alone: its five graphs, provenance linked.
D="$PW/debug/model__0_inference_0.0"
expect_exit 0 "$FXKIT" report "$D" -o "$WORK/one"
expect_err "fxkit report: 5 graph pages, 2 diff pages and index.html in $WORK/one"
python3 "$HERE/report_site_check.py" "$WORK/one" "$D" >"$WORK/check.txt" || fail "links: $(cat "$WORK/check.txt")"

# A file that cannot be read is listed with its error; every other page is there.
cp -r "$PW" "$WORK/broken"
printf 'graph():\n    %%x = bogus\n' >"$WORK/broken/aten_pre_1.graph.txt"
echo '{"preToPost": [' >"$WORK/broken/debug/model__1_inference_1.1/inductor_provenance_tracking_node_mappings.json"
printf 'graph():\n    %%x : [num_users=1] = placeholder[target=x]\n    %%y : [num_users=1] = call_function[target=torch.ops.aten.frobnicate.default](args = (%%x,), kwargs = {})\n    return (y,)\n' \
  >"$WORK/broken/aten_post_1.graph.txt"
rm "$WORK/broken/aten_post_1.nodes.json"
expect_exit 0 "$FXKIT" report "$WORK/broken" -o "$WORK/bsite"
expect_err "19 graph pages, 4 diff pages and index.html in $WORK/bsite, 1 files not read"
grep -q '<h2 id="unreadable">Files not read (1)</h2>' "$WORK/bsite/index.html" || fail "no list of unread files"
grep -q 'aten_pre_1.graph.txt:2:' "$WORK/bsite/index.html" || fail "the unread file's error lacks its line"
grep -q '<p class="note">Provenance not read: .*model__1_inference_1.1/inductor_provenance_tracking_node_mappings.json:2:1: error: JSON syntax error' "$WORK/bsite/index.html" ||
  fail "the index does not say the broken mapping was not read"
# The graphs beside the broken mapping are read without it, and the index says so.
grep -q '<li><code>debug/model__1_inference_1.1/output_code.py</code>: read without the files beside it: ' "$WORK/bsite/index.html" ||
  fail "the wrapper beside a broken mapping was lost or not noted"
python3 "$HERE/report_site_check.py" "$WORK/bsite" "$WORK/broken" >"$WORK/check.txt" || fail "links: $(cat "$WORK/check.txt")"
# The post-grad graph fxkit cannot compile: its FX IR diff page and the index say why.
grep -q "<li>no diff: fxkit could not compile aten_post_1.graph.txt: .*unknown op &#39;torch.ops.aten.frobnicate.default&#39;" \
  "$WORK/bsite/diff-1-fxir.html" || fail "the FX IR diff page of an uncompilable graph does not say why"
grep -q '<td colspan="7">fxkit could not compile aten_post_1.graph.txt: ' "$WORK/bsite/index.html" ||
  fail "the index does not say why a diff is missing"

# A diff of 5,102 identical pairs lists the first 5,000 (a 100k-node graph's page would say
# "the same" 100k times) and says so; every difference would still be listed.
mkdir "$WORK/big"
awk 'BEGIN {
  print "graph():"; print "    %r : [num_users=1] = placeholder[target=x]"; p = "r"
  for (i = 0; i < 5100; i++) {
    printf "    %%r%d : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%%%s,), kwargs = {})\n", i, p
    p = "r" i
  }
  print "    return (r5099,)"
}' >"$WORK/big/aten_pre_0.graph.txt"
cp "$WORK/big/aten_pre_0.graph.txt" "$WORK/big/aten_post_0.graph.txt"
expect_exit 0 "$FXKIT" report "$WORK/big" -o "$WORK/bigsite"
expect_err "fxkit report: 2 graph pages, 1 diff pages and index.html in $WORK/bigsite"
grep -q "<summary>5102 pairs of the same node under the same name (the first 5000 listed; fxkit diff --all lists every one)</summary>" \
  "$WORK/bigsite/diff-0-pre-post.html" || fail "a long list of identical pairs is not cut, or does not say so"
[ "$(grep -c '<tr id="d-b-[^"]*" class="same">' "$WORK/bigsite/diff-0-pre-post.html")" -eq 5000 ] || fail "not 5000 identical pairs listed"
python3 "$HERE/report_site_check.py" "$WORK/bigsite" "$WORK/big" >"$WORK/check.txt" || fail "links: $(cat "$WORK/check.txt")"

# Rebuilding into the same folder replaces it; a folder holding other files is refused.
expect_exit 0 "$FXKIT" report "$D" -o "$WORK/site"
[ -e "$WORK/site/aten_post_0_graph_txt.html" ] && fail "a page of the first site was left"
mkdir "$WORK/mine" && echo keep >"$WORK/mine/notes.txt"
expect_exit 2 "$FXKIT" report "$D" -o "$WORK/mine"
[ "$(ls "$WORK/mine")" = notes.txt ] || fail "the refused folder was changed"
# --from and --provenance name one graph's: refused for a folder.
expect_exit 2 "$FXKIT" report "$D" --from fx -o "$WORK/fsite"
expect_err "a folder's site reads each file as its name says"
[ -e "$WORK/fsite" ] && fail "a refused report left a folder"
# A folder with no artifacts: exit 2, nothing written.
mkdir "$WORK/empty"
expect_exit 2 "$FXKIT" report "$WORK/empty" -o "$WORK/esite"
expect_err "no compile artifacts"
[ -e "$WORK/esite" ] && fail "a failed report left a folder"
ls -a "$WORK" | grep -q '\.tmp' && fail "a temporary folder was left behind"
finish
