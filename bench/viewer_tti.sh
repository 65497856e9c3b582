#!/usr/bin/env bash
# Time to interactive of the report's interactive graph (exporters/report/GraphViewer.h) in
# headless Chromium, for generated graphs of N nodes (tests/browser/gen-large-graph.sh):
#   bench/viewer_tti.sh build/repl/fxkit [N...]        (default: 10000 100000)
# For each N: `fxkit report` (wall time, page and data size), then Chromium opens the page
# three times; the page writes its time to interactive (navigation start to the first frame
# drawn, performance.now()) and its phases (page up to the viewer's script, JSON.parse, the
# graphology graph, sigma's first frame) into #fxkit-viewer-status. Also the same page cut
# after the viewer (no kernel and fusion tables): the viewer's own cost. --disable-gpu: WebGL
# runs on SwiftShader (the CPU), slower than a desktop GPU.
set -euo pipefail
FXKIT="$(realpath "$1")"
shift
sizes=("$@")
[ $# -gt 0 ] || sizes=(10000 100000)
HERE="$(cd "$(dirname "$0")" && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
CHROMIUM="$(command -v chromium || command -v chromium-browser)"
echo "$("$CHROMIUM" --version 2>/dev/null | tail -1); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
open_page() {
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --enable-unsafe-swiftshader --disable-quic \
    --no-first-run --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d "$WORK/p.XXXX")" --window-size=1280,1000 --dump-dom "file://$1" \
    2>/dev/null | grep -o 'data-phases-ms="[^"]*" data-tti-ms="[^"]*"'
}
for n in "${sizes[@]}"; do
  bash "$HERE/../tests/browser/gen-large-graph.sh" "$n" >"$WORK/g.graph.txt"
  start=$(date +%s.%N)
  "$FXKIT" report "$WORK/g.graph.txt" -o "$WORK/full.html"
  end=$(date +%s.%N)
  data=$(sed -n 's/.*id="fxkit-viewer-data">\(.*\)<\/script>.*/\1/p' "$WORK/full.html" | head -1 | wc -c)
  printf '%s nodes: fxkit report %.1f s; page %s bytes, viewer data %s bytes\n' \
    "$(grep -c ' = ' "$WORK/g.graph.txt")" "$(awk "BEGIN { print $end - $start }")" \
    "$(stat -c %s "$WORK/full.html")" "$data"
  awk '/<h2 id="kernels"/ { exit } { print }' "$WORK/full.html" >"$WORK/viewer.html"
  echo "</body></html>" >>"$WORK/viewer.html"
  for page in full viewer; do
    for run in 1 2 3; do
      echo "  $page page, run $run: $(open_page "$WORK/$page.html")"
    done
  done
done
