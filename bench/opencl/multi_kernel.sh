#!/usr/bin/env bash
# Multi-kernel (issue 23 items 4 and 6) on a GPU: ab_kernels.sh with multi-kernel variants off (A,
# FXKIT_MULTI_KERNEL=0) and on (B, FXKIT_MULTI_KERNEL=1); the configuration kept names a variant
# where one won.
# Usage: multi_kernel.sh FXKIT [N ...]   (default N: 8192)
here="$(cd "$(dirname "$0")" && pwd)"
fxkit="$1"; shift
exec "$here/ab_kernels.sh" "$fxkit" FXKIT_MULTI_KERNEL=0 FXKIT_MULTI_KERNEL=1 "$@"
