#!/usr/bin/env bash
# The OpenCL backend on an NVIDIA GPU (the device machine): registers NVIDIA's OpenCL driver
# with the ICD loader, checks every reference workload on the GPU, then times the benchmark
# graphs (kernel time from device events) beside PyTorch eager and torch.compile on the same GPU,
# then the triad probe (triad.py); then the same graphs device-resident (--resident: inputs kept
# on the device, outputs read after the last run; time per call from queue events, as CUDA
# events time PyTorch) and every Inductor workload of the corpus end to end (e2e_gpu.py, which
# writes e2e_gpu.json and e2e_gpu.md to $OUT where set). E2E=0 skips the end-to-end part.
# Usage: run-gpu.sh FXKIT [N]
set -uo pipefail
fxkit="$1"; n="${2:-8192}"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 >/tmp/icd/nvidia.icd &&
  cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/icd FXKIT_CACHE_DIR=/tmp/fxkit-cache
"$fxkit" devices
echo "== reference workloads on the GPU"
for d in "$here"/../../tests/data/corpus/reference/*/; do
  w="$(basename "$d")"
  printf '%s: ' "$w"
  "$fxkit" run "$d/fw_0.graph.txt" --inputs "$d/fw_0.inputs.safetensors" \
    --check "$d/fw_0.outputs.safetensors" --backend opencl --device gpu 2>&1 | tail -1
done
echo "== benchmark graphs, N=$n"
"$here/graphs.sh" /tmp/fxbench "$n"
for g in pointwise softmax layernorm rowsum colsum; do
  echo "-- $g"
  "$fxkit" run /tmp/fxbench/$g.graph.txt --backend opencl --device gpu --repeat 6 --profile \
    --stats 2>&1 | grep -v "^out_\|opencl: 0:"
done
python3 "$here/torch_eager.py" "$n"
python3 "$here/triad.py" "$n" # the bandwidth the memory-bound kernels are measured against
echo "== benchmark graphs, N=$n, device-resident (--resident --repeat 20)"
for g in pointwise softmax layernorm rowsum colsum; do
  echo "-- $g"
  "$fxkit" run /tmp/fxbench/$g.graph.txt --backend opencl --device gpu --repeat 20 --resident \
    --stats 2>&1 | grep "first run\|device time\|runs: inputs"
done
if [ "${E2E:-1}" != 0 ]; then
  echo "== Inductor workloads end to end (e2e_gpu.py)"
  python3 "$here/e2e_gpu.py" "$fxkit" "$here/../../tests/data/corpus/inductor" /tmp/fxe2e
fi
