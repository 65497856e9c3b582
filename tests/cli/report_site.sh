#!/usr/bin/env bash
# `fxkit report DIR -o SITE`: one offline site over a whole compile. On the corpus pointwise
# model folder (tests/data/corpus/inductor/pointwise: Dynamo, ATen pre/post, debug folders,
# wrappers, FX IR): the site's pages (golden list), its index (golden, times blanked), every
# internal link resolves, every kernel call of every output_code.py links to its post-grad nodes
# (report_site_check.py); one debug folder alone; a bad file is listed with its error and loses
# nothing else; bad input exits 2 and writes nothing.
. "$(dirname "$0")/lib.bash"
HERE="$(cd "$(dirname "$0")" && pwd)"
GOLD="$DATA/report-site"
PW="$DATA/corpus/inductor/pointwise"
expect_exit 0 "$FXKIT" report "$PW" -o "$WORK/site"
expect_err "fxkit report: 20 graph pages and index.html in $WORK/site"
(cd "$WORK/site" && ls) >"$WORK/pages.txt"
diff -u "$GOLD/pointwise.pages.txt" "$WORK/pages.txt" || fail "the site's pages differ from the golden list"
sed -e 's|<td class="t">[^<]*</td>|<td class="t">T</td>|g' "$WORK/site/index.html" >"$WORK/index.html"
diff -u "$GOLD/pointwise.index.html" "$WORK/index.html" || fail "index.html differs from the golden"
python3 "$HERE/report_site_check.py" "$WORK/site" "$PW" >"$WORK/check.txt" || fail "links: $(cat "$WORK/check.txt")"
grep -q "3 kernel calls with provenance, 3 linked" "$WORK/check.txt" || fail "provenance links: $(cat "$WORK/check.txt")"

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
grep -q '<tr id="n-relu" .*<td class="m">fused_mul_add_relu_sigmoid_0</td></tr>' "$POST" ||
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
expect_err "fxkit report: 5 graph pages and index.html in $WORK/one"
python3 "$HERE/report_site_check.py" "$WORK/one" "$D" >"$WORK/check.txt" || fail "links: $(cat "$WORK/check.txt")"

# A file that cannot be read is listed with its error; every other page is there.
cp -r "$PW" "$WORK/broken"
printf 'graph():\n    %%x = bogus\n' >"$WORK/broken/aten_pre_1.graph.txt"
echo '{"preToPost": [' >"$WORK/broken/debug/model__1_inference_1.1/inductor_provenance_tracking_node_mappings.json"
expect_exit 0 "$FXKIT" report "$WORK/broken" -o "$WORK/bsite"
expect_err "19 graph pages and index.html in $WORK/bsite, 1 files not read"
grep -q '<h2 id="unreadable">Files not read (1)</h2>' "$WORK/bsite/index.html" || fail "no list of unread files"
grep -q 'aten_pre_1.graph.txt:2:' "$WORK/bsite/index.html" || fail "the unread file's error lacks its line"
grep -q '<p class="note">Provenance not read: .*model__1_inference_1.1/inductor_provenance_tracking_node_mappings.json:2:1: error: JSON syntax error' "$WORK/bsite/index.html" ||
  fail "the index does not say the broken mapping was not read"
# The graphs beside the broken mapping are read without it, and the index says so.
grep -q '<li><code>debug/model__1_inference_1.1/output_code.py</code>: read without the files beside it: ' "$WORK/bsite/index.html" ||
  fail "the wrapper beside a broken mapping was lost or not noted"
python3 "$HERE/report_site_check.py" "$WORK/bsite" "$WORK/broken" >"$WORK/check.txt" || fail "links: $(cat "$WORK/check.txt")"

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
