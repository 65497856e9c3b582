# open_every_site PARENT COUNT WHAT MIN_PAGES MIN_VIEWERS: `fxkit report` builds a site for each
# folder of PARENT (COUNT of them, named WHAT in the failure), then tests/browser/open_pages.py
# opens every page of every site in one headless Chromium; every page must open without a
# console error, the pages opened must be the .html files the sites hold, and there must be more
# than MIN_PAGES pages and MIN_VIEWERS with the interactive graph. Needs tests/cli/lib.bash.
open_every_site() {
  local parent="$1" count="$2" what="$3" min_pages="$4" min_viewers="$5" dir out
  local -a sites=()
  for dir in "$parent"/*/; do
    out="$WORK/site-$(basename "$dir")"
    expect_exit 0 "$FXKIT" report "$dir" -o "$out"
    sites+=("$out")
  done
  [ "${#sites[@]}" -eq "$count" ] || fail "${#sites[@]} $what, expected $count"
  local pages viewers
  pages=$(find "${sites[@]}" -name '*.html' | wc -l)
  viewers=$(grep -rl --include="*.html" 'id="fxkit-viewer-status"' "${sites[@]}" | wc -l)
  expect_exit 0 python3 "$(dirname "${BASH_SOURCE[0]}")/open_pages.py" "${sites[@]}"
  grep FAIL "$WORK/out" | head -20 >&2
  tail -1 "$WORK/out"
  expect_out "opened $pages pages, 0 with errors, $viewers with the interactive graph ready"
  [ "$pages" -gt "$min_pages" ] && [ "$viewers" -gt "$min_viewers" ] ||
    fail "$pages pages, $viewers with a viewer: fewer than expected"
}
