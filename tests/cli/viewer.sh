#!/usr/bin/env bash
# The report's interactive graph (exporters/report/GraphViewer.h) in a real browser: Debian's
# Chromium, headless (setup.sh installs it for the tests; without it this test FAILS, it does
# not skip). The report of a corpus graph and of a generated graph (tests/browser/
# gen-large-graph.sh) must open without a console error and become interactive: the page writes
# its state, time-to-interactive and any error into #fxkit-viewer-status, which --dump-dom
# shows. With #fxkit-viewer-selftest the page also searches, opens each collapsed view, colours
# and sizes the nodes by bytes and selects a node. A screenshot must show the graph: the
# viewer's canvas area holds the nodes' colours, counted by a second page that reads the PNG.
# Times are not asserted (bench/README.md has time-to-interactive at 10k and 100k nodes).
source "$(dirname "$0")/lib.bash"
HERE="$(cd "$(dirname "$0")" && pwd)"

CHROMIUM="${FXKIT_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$CHROMIUM" ]; then
  echo "FAIL: no Chromium to open the report in: apt-get install chromium (setup.sh installs it)" >&2
  exit 1
fi
# The flags keep Chromium off the network (it would try the closed network) and out of $HOME.
# The limit only stops a hung browser: under a loaded parallel ctest (PoCL building kernels on
# every core) one page took over 60 s.
browser() {
  local profile
  profile="$(mktemp -d "$WORK/profile.XXXX")"
  timeout 240 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --enable-unsafe-swiftshader --enable-logging=stderr --v=0 --user-data-dir="$profile" "$@" \
    2>>"$WORK/chromium.log"
}

# status FILE: the viewer's status element of the DOM dump in FILE.
status() { grep -o '<div id="fxkit-viewer-status"[^>]*>' "$1" | head -1; }
attr() { sed -n "s/.* $2=\"\\([^\"]*\\)\".*/\\1/p" <<<"$1"; }

# open_page HTML WHAT: dumps the DOM of HTML with the self-test, checks it became interactive
# without errors; sets $STATUS.
open_page() {
  local html="$1" what="$2"
  : >"$WORK/chromium.log"
  browser --window-size=1280,1000 --dump-dom "file://$html#fxkit-viewer-selftest" >"$WORK/dom.html"
  STATUS="$(status "$WORK/dom.html")"
  [ "$(attr "$STATUS" data-state)" = ready ] || fail "$what: not interactive: '$STATUS' $(grep -o '<ul id="fxkit-viewer-errors">.\{0,400\}' "$WORK/dom.html")"
  [ "$(attr "$STATUS" data-errors)" = 0 ] || fail "$what: console errors: $(grep -o '<ul id="fxkit-viewer-errors">.\{0,400\}' "$WORK/dom.html")"
  if grep -E "CONSOLE.*(Uncaught|Error|error)" "$WORK/chromium.log" >/dev/null; then
    fail "$what: console error: $(grep -E 'CONSOLE' "$WORK/chromium.log" | head -3)"
  fi
  echo "$what: time to interactive $(attr "$STATUS" data-tti-ms) ms, $(attr "$STATUS" data-nodes) nodes; $(attr "$STATUS" data-selftest)"
}

# A corpus graph with both kinds of kernel: a transformer layer's post-grad graph as Inductor
# saved it beside its provenance mapping (fxkit's kernels from compiling it, Inductor's from the
# mapping).
GRAPH="$DATA/corpus/inductor/transformer_layer/debug/model__0_forward_1.0/fx_graph_transformed.py"
expect_exit 0 "$FXKIT" report "$GRAPH" -o "$WORK/corpus.html"
open_page "$WORK/corpus.html" "transformer_layer fx_graph_transformed.py"
[ "$(attr "$STATUS" data-nodes)" = 85 ] || fail "corpus page: expected 85 nodes: $STATUS"
SELF="$(attr "$STATUS" data-selftest)"
grep -q 'search=[1-9]' <<<"$SELF" || fail "search for relu found nothing: $SELF"
grep -q 'kernel=[1-9]' <<<"$SELF" || fail "no view by fxkit's kernels: $SELF"
grep -q 'inductor=[1-9]' <<<"$SELF" || fail "no view by Inductor's kernels: $SELF"
grep -q 'selected=' <<<"$SELF" || fail "no selection: $SELF"
grep -q 'panel-rows=[1-9]' <<<"$SELF" || fail "the details panel is empty: $SELF"
# Colour and size by bytes: the graph's values have several sizes, so several of each.
grep -Eq 'bytes-colours=([2-9]|[1-9][0-9]+) bytes-sizes=([2-9]|[1-9][0-9]+) ' <<<"$SELF" || fail "the bytes overlays changed nothing: $SELF"

# The screenshot shows the graph: distinct colours inside the viewer's canvas, read back by a
# page that draws the PNG (as a data: URL, so reading its pixels is allowed).
CANVAS="$(attr "$STATUS" data-canvas)"
browser --window-size=1280,1000 --screenshot="$WORK/shot.png" "file://$WORK/corpus.html" >/dev/null
[ -s "$WORK/shot.png" ] || fail "no screenshot"
{
  echo "<html><body><img id=i src=\"data:image/png;base64,$(base64 -w0 "$WORK/shot.png")\"><pre id=r></pre><script>"
  echo "const [x, y, w, h] = '$CANVAS'.split(',').map(Number);"
  cat <<'EOF'
function count() {
  const img = document.getElementById("i"), c = document.createElement("canvas");
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const g = c.getContext("2d");
  g.drawImage(img, 0, 0);
  const d = g.getImageData(x, y, Math.min(w, c.width - x), Math.min(h, c.height - y)).data;
  const colours = new Set();
  let ink = 0;
  for (let k = 0; k < d.length; k += 4) {
    colours.add((d[k] << 16) | (d[k + 1] << 8) | d[k + 2]);
    if (d[k] + d[k + 1] + d[k + 2] < 720) ++ink;
  }
  document.getElementById("r").textContent = `colours=${colours.size} ink=${ink}`;
}
const img = document.getElementById("i");
if (img.complete) count(); else img.onload = count;
</script></body></html>
EOF
} >"$WORK/pixels.html"
PIXELS="$(browser --dump-dom "file://$WORK/pixels.html" | grep -o 'colours=[0-9]* ink=[0-9]*')"
echo "screenshot (canvas at $CANVAS): $PIXELS"
COLOURS="$(sed -n 's/colours=\([0-9]*\).*/\1/p' <<<"$PIXELS")"
INK="$(sed -n 's/.*ink=\([0-9]*\)/\1/p' <<<"$PIXELS")"
[ "${COLOURS:-0}" -ge 8 ] || fail "the viewer's canvas in the screenshot is blank: $PIXELS"
[ "${INK:-0}" -ge 2000 ] || fail "the viewer's canvas in the screenshot has almost nothing drawn: $PIXELS"

# A generated graph of many nodes (6k here to stay fast; bench/README.md times 100k), with
# Dynamo's module names: every node drawn, module and kernel views offered.
bash "$HERE/../browser/gen-large-graph.sh" 6000 >"$WORK/large.graph.txt"
expect_exit 0 "$FXKIT" report "$WORK/large.graph.txt" -o "$WORK/large.html"
grep -q "no Graphviz picture" "$WORK/large.html" || fail "a large graph still gets a Graphviz picture"
open_page "$WORK/large.html" "generated graph"
[ "$(attr "$STATUS" data-nodes)" = 6002 ] || fail "generated page: expected 6002 nodes: $STATUS"
SELF="$(attr "$STATUS" data-selftest)"
grep -q 'module=602 ' <<<"$SELF" || fail "module view: one group per block and the inputs expected: $SELF"
grep -q 'search=600 ' <<<"$SELF" || fail "search for relu: one per block expected: $SELF"
finish
