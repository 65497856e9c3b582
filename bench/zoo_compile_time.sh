#!/usr/bin/env bash
# Import-to-wrapper time per zoo model: fxkit reads each Inductor post-grad ATen graph of the
# model (aten_post_*.graph.txt: forward, and backward for training) and writes the Python
# wrapper (lower, fuse, plan, wrapper passes), best of N runs per graph, summed per model;
# beside it Inductor's own compile_s from the model's meta.json (Dynamo + AOT + Inductor +
# Triton on the capture machine: a different start point and machine, for scale).
# Usage: bench/zoo_compile_time.sh FXKIT [ZOO_DIR] [RUNS]
set -euo pipefail
F="$1"; Z="${2:-$(dirname "$0")/../../shared/zoo}"; N="${3:-3}"
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
printf '| model | post-grad graphs | nodes | fxkit import-to-wrapper-py | Inductor compile_s |\n'
printf '| --- | ---: | ---: | ---: | ---: |\n'
for dir in "$Z"/inductor/*/; do
  model="$(basename "$dir")"; total=0; graphs=0; nodes=0
  for g in "$dir"/aten_post_*.graph.txt; do
    best=""
    for _ in $(seq "$N"); do
      s=$(date +%s.%N); "$F" compile "$g" --to wrapper-py -o "$T/w.py" >/dev/null 2>&1 || { best=fail; break; }
      e=$(date +%s.%N); t=$(awk -v a="$s" -v b="$e" 'BEGIN { print b - a }')
      if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
    done
    [ "$best" = fail ] && { total=fail; break; }
    total=$(awk -v a="$total" -v b="$best" 'BEGIN { print a + b }'); graphs=$((graphs + 1))
    nodes=$((nodes + $(grep -c ' = call_function\| = placeholder' "$g")))
  done
  cs=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['compile_s'])" "$dir/meta.json")
  if [ "$total" = fail ]; then shown=failed; else shown="$(printf '%.3f s' "$total")"; fi
  printf '| %s | %d | %d | %s | %s s |\n' "$model" "$graphs" "$nodes" "$shown" "$cs"
done
