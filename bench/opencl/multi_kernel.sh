#!/usr/bin/env bash
# Multi-kernel (issue 23 items 4 and 6) on a GPU: the memory-bound benchmark graphs (graphs.sh)
# at each N given, with multi-kernel variants off and on (FXKIT_MULTI_KERNEL=0|1), side by side
# in one job, each from an empty kernel cache so that both tune. Per graph and mode: the later
# runs' kernel time from device events (--repeat 6 --profile), the configuration each kernel
# kept (a variant's name where one won) and the share of the triad measured in the same job
# (triad.py, before each size); then PyTorch eager / torch.compile on the same graphs. FXKIT_TUNE_LOG=1 trials go to $OUT/tune-*.log
# where OUT is set.
# Usage: multi_kernel.sh FXKIT [N ...]   (default N: 8192)
set -uo pipefail
fxkit="$1"; shift
sizes=("${@:-8192}")
here="$(cd "$(dirname "$0")" && pwd)"
out="${OUT:-/tmp/fxkit-multi-kernel}"; mkdir -p "$out"
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 >/tmp/icd/nvidia.icd &&
  cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/icd
"$fxkit" devices
for n in "${sizes[@]}"; do
  "$here/graphs.sh" "/tmp/fxbench-$n" "$n"
  triad=$(python3 "$here/triad.py" "$n" | tee /dev/stderr | grep -o "[0-9,]* GB/s" | tr -d ', GB/s')
  printf '| N | graph | least bytes | off: kernels ms | off: of triad | on: kernels ms | on: of triad | on / off | configuration kept (on) |\n'
  printf '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n'
  for g in pointwise softmax layernorm rowsum colsum; do
    declare -A ms=() cfg=()
    for mode in 0 1; do
      cache="/tmp/fxkit-cache-mk$mode-$n-$g"; rm -rf "$cache"
      log="$out/tune-$n-$g-mk$mode.log"
      FXKIT_CACHE_DIR="$cache" FXKIT_MULTI_KERNEL=$mode FXKIT_TUNE_LOG=1 \
        "$fxkit" run "/tmp/fxbench-$n/$g.graph.txt" --backend opencl --device gpu --repeat 6 \
        --profile --stats >"$log" 2>&1
      # "later runs' kernels S s each"
      ms[$mode]=$(grep -o "later runs' kernels [0-9.e-]* s each" "$log" |
        awk '{printf "%.4f", $4 * 1e3}')
      cfg[$mode]=$(grep "^opencl: .* x[0-9]*_r[0-9]*: " "$log" | sed 's/^opencl: //' |
        tr '\n' ';' | sed 's/;$//')
    done
    # The least bytes the graph moves: inputs read once, outputs written once (float32).
    case $g in
      pointwise) bytes=$((3 * n * n * 4)) ;;
      softmax | layernorm) bytes=$((2 * n * n * 4)) ;;
      rowsum | colsum) bytes=$((n * n * 4 + n * 4)) ;;
    esac
    python3 - "$n" "$g" "$bytes" "${ms[0]:-nan}" "${ms[1]:-nan}" "${cfg[1]:-}" "${triad:-0}" <<'PY'
import sys
n, g, b, off, on, cfg, triad = sys.argv[1:8]
b = int(b); off = float(off); on = float(on); triad = float(triad) * 1e9
tri = lambda ms: f"{b / (ms * 1e-3) / triad * 100:.0f}%" if ms == ms and triad > 0 else "-"
print(f"| {n} | {g} | {b} | {off:.4f} | {tri(off)} | {on:.4f} | {tri(on)} | {on / off:.3f} | {cfg} |")
PY
  done
  python3 "$here/torch_eager.py" "$n"
done
