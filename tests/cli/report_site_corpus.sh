#!/usr/bin/env bash
# `fxkit report` on every corpus workload folder (tests/data/corpus/inductor/*: 10, each with
# its debug folders, Dynamo graphs, ATen graphs, wrappers and FX IR): every site is built with
# no file left unread, every internal link resolves, and every kernel call of every
# output_code.py that its provenance mapping names links to its post-grad nodes
# (report_site_check.py). The zoo's folders are cli.report_site_zoo's.
. "$(dirname "$0")/lib.bash"
HERE="$(cd "$(dirname "$0")" && pwd)"
folders=0
args=()
for dir in "$DATA"/corpus/inductor/*/; do
  dir="${dir%/}"
  folders=$((folders + 1))
  out="$WORK/site$folders"
  expect_exit 0 "$FXKIT" report "$dir" -o "$out"
  grep -q "files not read" "$WORK/err" && fail "$dir: $(cat "$WORK/err")"
  args+=("$out" "$dir")
done
[ "$folders" -eq 10 ] || fail "$folders corpus workload folders, expected 10"
python3 "$HERE/report_site_check.py" "${args[@]}" >"$WORK/check.txt" ||
  fail "the sites' links: $(tail -5 "$WORK/check.txt")"
kernels=$(awk '{ k += $(NF - 6) } END { print k }' "$WORK/check.txt")
linked=$(awk '{ k += $(NF - 1) } END { print k }' "$WORK/check.txt")
echo "$folders sites, $kernels kernel calls with provenance, $linked linked"
[ "$kernels" -gt 400 ] && [ "$kernels" -eq "$linked" ] || fail "kernel calls $kernels, linked $linked"
finish
