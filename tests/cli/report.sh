#!/usr/bin/env bash
# `fxkit report`: one self-contained HTML page (no fetches; its one script is the interactive
# graph's, inline, tests/cli/viewer.sh) with the program's picture, kernels and their OpenCL C,
# fusion decisions, memory timeline and pass times, written atomically; then headless Chromium
# opens it: no console errors, and a screenshot that is more than one colour. Skipped (and says
# so) only where Chromium is not installed.
. "$(dirname "$0")/lib.bash"
G="$DATA/corpus/reference/softmax/fw_0.graph.txt"
expect_exit 0 "$FXKIT" report "$G" -o "$WORK/report.html"
R="$WORK/report.html"
for id in graph kernels fusion memory passes; do
  grep -q "id=\"$id\"" "$R" || fail "the report has no section '$id'"
done
grep -q "__kernel void" "$R" || fail "the report has no OpenCL C source"
grep -q "refused\|fused" "$R" || fail "the report has no fusion decision"
grep -q 'class="buffer"' "$R" || fail "the report has no memory timeline rectangle"
grep -q ">lower<" "$R" || fail "the report has no pass timing"
grep -qi "<script src\|<link\|src=\|@import\|url(http" "$R" && fail "the report fetches something"
if "$FXKIT" convert "$G" --to svg -o /dev/null 2>/dev/null; then
  grep -q "<svg" "$R" || fail "libgvc is built in but the report has no picture"
else
  grep -q "without Graphviz" "$R" || fail "the report does not say why it has no picture"
fi
# Bad input: exit 2 and nothing written.
printf 'graph():\n    %%x = bogus\n' >"$WORK/bad.graph.txt"
expect_exit 2 "$FXKIT" report "$WORK/bad.graph.txt" -o "$WORK/bad.html"
[ -e "$WORK/bad.html" ] && fail "a failed report left a file"
ls -a "$WORK" | grep -q '\.tmp\.' && fail "a temporary file was left behind"

CHROMIUM="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$CHROMIUM" ]; then
  echo "skipped: chromium is not installed (apt-get install chromium)"
  finish
  exit 0
fi
run_chromium() {
  timeout 120 "$CHROMIUM" --headless --disable-gpu --enable-unsafe-swiftshader --no-sandbox \
    --enable-logging=stderr --v=0 \
    --user-data-dir="$WORK/profile" --window-size=1280,2000 "$@" "file://$R"
}
run_chromium --dump-dom >"$WORK/dom.html" 2>"$WORK/chromium.err" ||
  fail "chromium --dump-dom failed: $(tail -c 400 "$WORK/chromium.err")"
grep -q 'id="memory"' "$WORK/dom.html" || fail "the DOM lacks the memory section"
run_chromium --screenshot="$WORK/shot.png" >/dev/null 2>>"$WORK/chromium.err" ||
  fail "chromium --screenshot failed: $(tail -c 400 "$WORK/chromium.err")"
# SwiftShader's performance hints (WebGL reading back a pixel under the pointer) are no error.
if grep -E "CONSOLE|Uncaught" "$WORK/chromium.err" | grep -v "GL Driver Message (OpenGL, Performance"; then
  fail "the page logged to the console"
fi
[ -s "$WORK/shot.png" ] || fail "no screenshot"
size=$(stat -c %s "$WORK/shot.png" 2>/dev/null || echo 0)
[ "$size" -gt 10000 ] || fail "the screenshot is only $size bytes"
# More than one colour: decode the PNG (zlib only) and count distinct pixel bytes.
if command -v python3 >/dev/null; then
  python3 - "$WORK/shot.png" <<'PY' || fail "the screenshot is (nearly) one colour"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
raw = zlib.decompress(idat)
sys.exit(0 if len(set(raw)) > 16 else 1)
PY
fi
finish
