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
. "$(dirname "$0")/../browser/open_sites.bash"
open_every_site "$ZOO/inductor" 12 "zoo model folders" 250 200
finish
