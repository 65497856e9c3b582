#!/usr/bin/env bash
# `fxkit report` on every zoo model folder and every debug folder of ../shared/zoo (skipped,
# and says so, where the zoo is absent): each site is built, every graph file has a page (or is
# listed with its error), every internal link resolves, and every kernel call of every
# output_code.py that its provenance mapping names links to its post-grad nodes, every diff page
# is linked from the index and both graphs' pages, every post-grad page has its module section
# (report_site_check.py). The counts of folders, diff pages and post-grad pages with module paths
# are asserted: each model folder has 4 diff pages (pre/post and FX IR for its two compiles),
# each debug folder alone 2; module paths on every post-grad page of a model folder but
# misc_ops' (no parameters) and llama_train's backward (no provenance mapping); none in a debug
# folder alone (no Dynamo graph), which says so.
. "$(dirname "$0")/lib.bash"
HERE="$(cd "$(dirname "$0")" && pwd)"
ZOO="$DATA/../../../shared/zoo/inductor"
if [ ! -d "$ZOO" ]; then
  echo "skipped: $ZOO is absent"
  finish
  exit 0
fi
models=0
debugs=0
args=()
# Two reports at a time (the 36 take ~6 s of CPU, a third of it Graphviz laying out each
# compiled post-grad graph); each one's exit code and messages are checked after.
report() { "$FXKIT" report "$1" -o "$2" >"$2.out" 2>"$2.err"; echo $? >"$2.rc"; }
for dir in "$ZOO"/*/ "$ZOO"/*/debug/*/; do
  dir="${dir%/}"
  case "$dir" in */debug/*) debugs=$((debugs + 1)) ;; *) models=$((models + 1)) ;; esac
  out="$WORK/site$((models + debugs))"
  [ "$(jobs -rp | wc -l)" -ge 2 ] && wait -n
  report "$dir" "$out" &
  args+=("$out" "$dir")
done
wait
for ((i = 0; i < ${#args[@]}; i += 2)); do
  out="${args[i]}" dir="${args[i + 1]}"
  [ "$(cat "$out.rc")" = 0 ] || fail "fxkit report $dir exited $(cat "$out.rc"): $(head -c 400 "$out.err")"
  grep -q "files not read" "$out.err" && fail "$dir: $(cat "$out.err")"
done
[ "$models" -eq 12 ] || fail "$models zoo model folders, expected 12"
[ "$debugs" -eq 24 ] || fail "$debugs zoo debug folders, expected 24"
python3 "$HERE/report_site_check.py" "${args[@]}" >"$WORK/check.txt" ||
  fail "the sites' links: $(tail -5 "$WORK/check.txt")"
kernels=$(awk '{ k += $(NF - 6) } END { print k }' "$WORK/check.txt")
linked=$(awk '{ k += $(NF - 1) } END { print k }' "$WORK/check.txt")
read -r diffs modules posts < <(sed -n 's/.* internal links, \([0-9]*\) diff pages, \([0-9]*\) of \([0-9]*\) post-grad pages .*/\1 \2 \3/p' \
  "$WORK/check.txt" | awk '{ d += $1; m += $2; p += $3 } END { print d, m, p }')
echo "36 sites, $kernels kernel calls with provenance, $linked linked; $diffs diff pages; $modules of $posts post-grad pages with module paths"
[ "$kernels" -gt 2000 ] && [ "$kernels" -eq "$linked" ] || fail "kernel calls $kernels, linked $linked"
[ "$diffs" -eq 96 ] || fail "$diffs diff pages, expected 96 (4 per model folder, 2 per debug folder)"
[ "$modules" -eq 42 ] && [ "$posts" -eq 72 ] || fail "$modules of $posts post-grad pages with module paths, expected 42 of 72"
finish
