#!/usr/bin/env bash
# Two configurations of fxkit's OpenCL kernels side by side on a GPU (issue 23 item 4): the
# memory-bound benchmark graphs (graphs.sh) at each N given, once with the environment settings A
# and once with B, in one job, each from an empty kernel cache so that both build and tune. Per
# graph and setting: the later runs' kernel time from device events (--repeat 10 --resident
# --profile: inputs kept on the device, as torch.compile is timed), the configuration each kernel
# kept, and the share of the triad measured in the same job (triad.py, before each size); then
# PyTorch eager / torch.compile on the same graphs. FXKIT_TUNE_LOG=1 trials go to
# $OUT/tune-*.log where OUT is set.
# Usage: ab_kernels.sh FXKIT "A settings" "B settings" [N ...]   (default N: 8192)
#   e.g. ab_kernels.sh build/repl/fxkit FXKIT_MULTI_KERNEL=0 FXKIT_MULTI_KERNEL=1 8192 16384
#   A setting list is space-separated NAME=VALUE words ("" for none).
# GRAPHS (default: every graph) limits the graphs; TORCH=0 skips PyTorch.
set -uo pipefail
fxkit="$1"; settingA="$2"; settingB="$3"; shift 3
sizes=("${@:-8192}")
here="$(cd "$(dirname "$0")" && pwd)"
out="${OUT:-/tmp/fxkit-ab}"; mkdir -p "$out"
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 >/tmp/icd/nvidia.icd &&
  cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/icd
read -ra graphs <<<"${GRAPHS:-pointwise bias softmax layernorm softmax_r1024 layernorm_r1024 rowsum colsum}"
"$fxkit" devices
echo "A: ${settingA:-(defaults)}; B: ${settingB:-(defaults)}"
for n in "${sizes[@]}"; do
  "$here/graphs.sh" "/tmp/fxbench-$n" "$n"
  line=$(python3 "$here/triad.py" "$n")
  echo "$line"
  triad=$(echo "$line" | grep -o "[0-9,]* GB/s" | tr -d ', GB/s')
  printf '| N | graph | least bytes | A: kernels ms | A: of triad | B: kernels ms | B: of triad | B / A | configuration kept (B) |\n'
  printf '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n'
  for g in "${graphs[@]}"; do
    declare -A ms=() cfg=()
    for side in A B; do
      [ "$side" = A ] && setting="$settingA" || setting="$settingB"
      read -ra envs <<<"$setting"
      cache="/tmp/fxkit-cache-ab$side-$n-$g"; rm -rf "$cache"
      log="$out/tune-$n-$g-$side.log"
      env "${envs[@]}" FXKIT_CACHE_DIR="$cache" FXKIT_TUNE_LOG=1 \
        "$fxkit" run "/tmp/fxbench-$n/$g.graph.txt" --backend opencl --device gpu --repeat 10 --resident \
        --profile --stats >"$log" 2>&1
      # "later runs' kernels S s each"
      ms[$side]=$(grep -o "later runs' kernels [0-9.e-]* s each" "$log" |
        awk '{printf "%.4f", $4 * 1e3}')
      cfg[$side]=$(grep "^opencl: .* x[0-9]*_r[0-9]*: " "$log" | sed 's/^opencl: //' |
        tr '\n' ';' | sed 's/;$//')
    done
    # The least bytes the graph moves: inputs read once, outputs written once (float32).
    case $g in
      pointwise) bytes=$((3 * n * n * 4)) ;;
      bias) bytes=$((2 * n * n * 4 + n * 4)) ;;
      softmax* | layernorm*) bytes=$((2 * n * n * 4)) ;;
      rowsum | colsum) bytes=$((n * n * 4 + n * 4)) ;;
    esac
    python3 - "$n" "$g" "$bytes" "${ms[A]:-nan}" "${ms[B]:-nan}" "${cfg[B]:-}" "${triad:-0}" <<'PY'
import sys
n, g, b, a, bb, cfg, triad = sys.argv[1:8]
b = int(b); a = float(a); bb = float(bb); triad = float(triad) * 1e9
tri = lambda ms: f"{b / (ms * 1e-3) / triad * 100:.0f}%" if ms == ms and triad > 0 else "-"
print(f"| {n} | {g} | {b} | {a:.4f} | {tri(a)} | {bb:.4f} | {tri(bb)} | {bb / a:.3f} | {cfg} |")
PY
  done
  [ "${TORCH:-1}" = 0 ] || python3 "$here/torch_eager.py" "$n"
done
