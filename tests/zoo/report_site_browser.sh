#!/usr/bin/env bash
# Every page of `fxkit report`'s site for every zoo model folder (../shared/zoo/inductor/*: 12
# sites, ~280 pages, ~220 with the interactive graph) opens in headless Chromium without a
# console error, as cli.report_site_browser checks the corpus's (tests/browser/open_pages.py: one
# Chromium over its DevTools protocol; uncaught exceptions, console.error/assert, errors in the
# log such as a missing file:// resource, a viewer not ready or with errors). The number of pages
# opened must be the number of .html files the sites hold. Needs Chromium (fails without it);
# exits 77 (CTest: skipped) where the zoo is absent. Labelled scale: ~1 min of browser time on 2
# cores, whose code paths the corpus test covers, so the sanitizer stage leaves it out.
# Usage: report_site_browser.sh FXKIT DATA
. "$(dirname "$0")/../cli/lib.bash"
ZOO="${ZOO_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/zoo}"
[ -d "$ZOO/inductor" ] || { echo "zoo not found at $ZOO: skipped"; exit 77; }
OPEN="$(dirname "$0")/../browser/open_pages.py"

sites=()
for dir in "$ZOO"/inductor/*/; do
  out="$WORK/site-$(basename "$dir")"
  expect_exit 0 "$FXKIT" report "$dir" -o "$out"
  sites+=("$out")
done
[ "${#sites[@]}" -eq 12 ] || fail "${#sites[@]} zoo model folders, expected 12"
pages=$(find "${sites[@]}" -name '*.html' | wc -l)
viewers=$(grep -rl --include="*.html" 'id="fxkit-viewer-status"' "${sites[@]}" | wc -l)
expect_exit 0 python3 "$OPEN" "${sites[@]}"
grep FAIL "$WORK/out" | head -20 >&2
tail -1 "$WORK/out"
expect_out "opened $pages pages, 0 with errors, $viewers with the interactive graph ready"
[ "$pages" -gt 250 ] && [ "$viewers" -gt 200 ] || fail "$pages pages, $viewers with a viewer: fewer than expected"
finish
