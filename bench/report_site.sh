#!/usr/bin/env bash
# `fxkit report DIR -o SITE` on every zoo model folder (issue 22 item 1: under a second each):
# the best of three runs, wall and CPU (user + system, fxkit and its Graphviz children), pages
# and the site's size. usage: bench/report_site.sh FXKIT [ZOO_INDUCTOR_DIR]
set -u
FXKIT="$1"
ZOO="${2:-$(dirname "$0")/../../shared/zoo/inductor}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
echo "| model | graph pages | diff pages | site (MB) | wall (s) | CPU (s) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for dir in "$ZOO"/*/; do
  model="$(basename "$dir")"
  best_wall=999 best_cpu=999
  for _ in 1 2 3; do
    /usr/bin/time -o "$OUT/time" -f "%e %U %S" "$FXKIT" report "$dir" -o "$OUT/site" >/dev/null 2>&1
    read -r wall user sys <"$OUT/time"
    best_wall=$(awk -v a="$best_wall" -v b="$wall" 'BEGIN { print (b < a ? b : a) }')
    best_cpu=$(awk -v a="$best_cpu" -v b="$user" -v c="$sys" 'BEGIN { s = b + c; print (s < a ? s : a) }')
  done
  diffs=$(ls "$OUT/site" | grep -c '^diff-')
  pages=$(($(ls "$OUT/site" | wc -l) - 1 - diffs))
  mb=$(du -sk "$OUT/site" | awk '{ printf "%.1f", $1 / 1024 }')
  echo "| $model | $pages | $diffs | $mb | $best_wall | $best_cpu |"
done
