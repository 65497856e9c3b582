#!/usr/bin/env bash
# The reference kernels of triton_like.cl on an NVIDIA GPU through its OpenCL (bench/README.md,
# session 18): softmax and layer norm over rows of 1024 and 8192 points, row sums, at N x N
# float32 (N from $1, default 8192), each at several lanes x rows, with the share of the triad
# (bench/opencl/triad.py) measured first. Needs g++ and OpenCL headers (CL_PREFIX, default
# /usr) and NVIDIA's ICD.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
n="${1:-8192}"; prefix="${CL_PREFIX:-/usr}"
g++ -O2 -std=c++17 -I"$prefix/include" "$here/clbench.cpp" -o /tmp/fxkit-clbench \
  -L"$prefix/lib/x86_64-linux-gnu" -l:libOpenCL.so.1
line=$(python3 "$here/../triad.py" "$n"); echo "$line"
big=$((n * n * 4)); x1024=$((n * n / 1024))
run() { # kernel row rows lanes rows-per-group unroll bytes-moved output-bytes
  local k=$1 row=$2 x=$3 l=$4 w=$5 u=$6 moved=$7 ob=$8 groups=$(($3 / $5))
  [ $groups -gt 65536 ] && groups=65536
  out=$(BUILD="-cl-std=CL1.2 -DROW=$row -DL=$l -DW=$w -DU=$u" /tmp/fxkit-clbench \
    "$here/triton_like.cl" "$k" $((groups * l * w)) $((l * w)) b:$((x * row * 4)) o:"$ob" i:"$x")
  ms=$(echo "$out" | sed 's/.*median \([0-9.]*\) ms.*/\1/')
  echo "$k rows of $row, ${l} lanes x $w rows: $ms ms, $(python3 -c "print(f'{$moved / ($ms * 1e-3) / 1e9:,.0f}')") GB/s"
}
for c in "32 8" "64 4" "128 2" "256 1"; do set -- $c
  run tsm 1024 $x1024 $1 $2 1 $((2 * big)) $big
  run tln 1024 $x1024 $1 $2 1 $((2 * big)) $big
done
for l in 256 512; do run tsm "$n" "$n" $l 1 1 $((2 * big)) $big; done
for c in "256 1 4" "128 2 2" "512 1 2"; do set -- $c; run trs "$n" "$n" $1 $2 $3 $big $((n * 4)); done
# The tensor-core GEMM (tf32x3_gemm.cl, bench/README.md session 19): 4096 x 4096 x 1024 at the
# tile the template's tensor-core tiles use, summed on the tensor cores and with float32 sums.
g++ -O2 -std=c++17 -I"$prefix/include" "$here/gemmbench.cpp" -o /tmp/fxkit-gemmbench \
  -L"$prefix/lib/x86_64-linux-gnu" -l:libOpenCL.so.1
for x in "" -DSPLITACC; do
  TM=128 TN=256 WTM=4 WTN=8 BUILD="-DTK=16 -DDB=1 $x" /tmp/fxkit-gemmbench "$here/tf32x3_gemm.cl" \
    4096 4096 1024
done
