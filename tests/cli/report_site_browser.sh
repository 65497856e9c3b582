#!/usr/bin/env bash
# Every page of `fxkit report`'s site for every corpus workload folder (tests/data/corpus/
# inductor/*: 10 sites, ~240 pages, ~190 with the interactive graph) opens in headless Chromium
# without a console error: one Chromium driven over its DevTools protocol
# (tests/browser/open_pages.py) visits each page, waits for its load and for the interactive
# graph to be ready, and fails on an uncaught exception, console.error/assert, an error in the
# log (a missing file:// resource) or a viewer that is not ready or recorded errors. The number
# of pages opened must be the number of .html files the sites hold. The driver is first shown to
# catch each kind of error on small pages made here. Chromium is needed (as for cli.viewer:
# without it this test FAILS). ~1 min on 2 cores, labelled scale (the sanitizer stage leaves it
# out). The zoo's sites: zoo.report_site_browser (tests/zoo/report_site_browser.sh).
source "$(dirname "$0")/lib.bash"
HERE="$(cd "$(dirname "$0")" && pwd)"
OPEN="$HERE/../browser/open_pages.py"

# The driver catches each kind of error, names the page, and passes a clean page.
mkdir "$WORK/bad"
echo '<html><body><script>throw new Error("thrown here")</script></body></html>' >"$WORK/bad/throw.html"
echo '<html><body><script>console.error("said here", 42)</script></body></html>' >"$WORK/bad/console.html"
echo '<html><body><script>console.assert(1 === 2, "asserted here")</script></body></html>' >"$WORK/bad/assert.html"
echo '<html><body><img src="missing.png"></body></html>' >"$WORK/bad/missing.html"
{
  echo '<html><body><div id="fxkit-viewer"></div><div id="fxkit-viewer-status" data-state="error"'
  echo ' data-errors="1"></div><ul id="fxkit-viewer-errors"><li>no data</li></ul></body></html>'
} >"$WORK/bad/viewer.html"
echo '<html><body><p>fine</p></body></html>' >"$WORK/good.html"
expect_exit 1 python3 "$OPEN" "$WORK/bad" "$WORK/good.html"
expect_out "bad/throw.html: uncaught: Error: thrown here"
expect_out "bad/console.html: console.error: said here 42"
expect_out "bad/assert.html: console.assert: asserted here"
expect_out "bad/missing.html: log (network): Failed to load resource: net::ERR_FILE_NOT_FOUND"
expect_out "bad/viewer.html: the interactive graph is not ready: state 'error' no data"
expect_out "opened 6 pages, 5 with errors, 0 with the interactive graph ready"
grep -q "good.html" "$WORK/out" && fail "the clean page was reported: $(cat "$WORK/out")"

. "$(dirname "$0")/../browser/open_sites.bash"
open_every_site "$DATA/corpus/inductor" 10 "corpus workload folders" 200 150
finish
