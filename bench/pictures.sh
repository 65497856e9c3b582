#!/usr/bin/env bash
# Pictures of the zoo: `fxkit convert F --to svg` for every FX text graph (`*.graph.txt`) and
# every Inductor wrapper (`output_code*.py`) of the zoo, then the same with `--collapse module`
# (graphs) or `--collapse kernel` (wrappers). Best CPU time (user + system, fxkit and its
# Graphviz layout child) of RUNS runs (default 3) with that run's wall time, and the peak
# resident memory from /usr/bin/time (the largest process: fxkit or its layout child, which
# fxkit waits for). The targets are checked on CPU time: on a shared machine wall time is CPU
# time times the load. Post-grad graphs (`aten_post_*`) also through `fxkit compile F --to svg`
# (fxkit's kernels) and `--collapse kernel`. Prints one markdown row per picture, then a summary
# against the targets of issue 22 (every SVG under 2 s and 300 MB, every collapsed picture no
# slower than the uncollapsed one). A refused collapse (exit 2: the file carries no modules)
# counts as met: it costs nothing and says why.
# Usage: bench/pictures.sh FXKIT [ZOO_DIR] [TIMEOUT_S] [RUNS]
set -uo pipefail
F="$1"; Z="${2:-$(dirname "$0")/../../shared/zoo}"; LIMIT="${3:-60}"; RUNS="${4:-3}"
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT

# measure ARGS...: sets s (the best of RUNS CPU times: user + system of fxkit and its layout
# child), w (the wall time of that run), mb (the largest peak MB) and rc of `fxkit ARGS`; a
# failing run is not repeated.
measure() {
  s=""; w=""; mb=0
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f '%e %U %S %M' -o "$T/time" timeout "$LIMIT" "$F" "$@" >/dev/null 2>"$T/err"
    rc=$?
    # GNU time puts "Command exited with non-zero status N" first when the command fails.
    read -r wall user sys kb < <(tail -n 1 "$T/time")
    local cpu; cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    [ $((kb / 1024)) -gt "$mb" ] && mb=$((kb / 1024))
    if [ -z "$s" ] || awk -v t="$cpu" -v b="$s" 'BEGIN { exit !(t < b) }'; then s=$cpu; w=$wall; fi
    [ "$rc" -ne 0 ] && break
  done
}

printf '| picture | SVG CPU s | wall s | MB | collapse | collapsed CPU s | wall s | MB |\n'
printf '| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |\n'
files=0 slow=0 big=0 failed=0 worse=0 maxs=0 maxmb=0
# row NAME MODE CMD ARGS...: one picture uncollapsed and collapsed by MODE, one table row.
row() {
  local name="$1" mode="$2"; shift 2
  measure "$@" --to svg -o "$T/p.svg"
  files=$((files + 1)); local svg_s=$s svg_w=$w svg_mb=$mb svg_rc=$rc c_s c_w c_mb
  if [ "$svg_rc" -ne 0 ]; then
    failed=$((failed + 1)); svg_s="fail($svg_rc)"
  else
    awk -v s="$s" 'BEGIN { exit !(s >= 2) }' && slow=$((slow + 1))
    [ "$mb" -ge 300 ] && big=$((big + 1))
    maxs=$(awk -v a="$maxs" -v b="$s" 'BEGIN { print (b > a ? b : a) }')
    [ "$mb" -gt "$maxmb" ] && maxmb=$mb
  fi
  measure "$@" --to svg --collapse "$mode" -o "$T/c.svg"
  if [ "$rc" -eq 2 ]; then
    c_s="refused: $(head -n 1 "$T/err" | cut -c15-60)..."; c_w=-; c_mb=-
  elif [ "$rc" -ne 0 ]; then
    c_s="fail($rc)"; c_w=$w; c_mb=$mb; failed=$((failed + 1))
  else
    c_s=$s; c_w=$w; c_mb=$mb
    [ "$svg_rc" -eq 0 ] && awk -v c="$s" -v u="$svg_s" 'BEGIN { exit !(c > u + 0.05) }' &&
      worse=$((worse + 1))
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$svg_s" "$svg_w" "$svg_mb" "$mode" \
    "$c_s" "$c_w" "$c_mb"
}
while IFS= read -r f; do
  rel="${f#"$Z"/}"
  case "$f" in *.py) mode=kernel ;; *) mode=module ;; esac
  row "$rel" "$mode" convert "$f"
  # Post-grad graphs also as fxkit compiles them (its kernels: `compile --to svg`).
  case "$f" in */aten_post_*.graph.txt) row "$rel (compile)" kernel compile "$f" ;; esac
done < <(find -L "$Z" \( -name '*.graph.txt' -o -name 'output_code*.py' \) | sort)
printf '\n%d pictures: %d failed, %d SVGs at or over 2 s of CPU, %d at or over 300 MB (slowest %s s, ' \
  "$files" "$failed" "$slow" "$big" "$maxs"
printf 'largest %d MB), %d collapsed pictures slower than uncollapsed (+0.05 s)\n' "$maxmb" "$worse"
