#!/usr/bin/env bash
# Writes an FX text graph of about N nodes (default 100000) to stdout: a stack of N/10 residual
# blocks, each with its own Dynamo-named parameters (l_self_modules_layers_modules_K_...), so
# the viewer's module collapse and fxkit's fusion both have something to group. Every block is
# pointwise ops and one row reduction over f32[64, 256]: x = x + relu(x * w_K + b_K) - mean.
# Used by tests/browser/viewer.sh (the 100k-node page) and bench/README.md's viewer timings.
set -euo pipefail
n="${1:-100000}"
awk -v n="$n" 'BEGIN {
  t = "Tensor \"f32[64, 256][256, 1]cpu\""
  r = "Tensor \"f32[64, 1][1, 1]cpu\""
  blocks = int(n / 10); if (blocks < 1) blocks = 1
  print "graph():"
  printf "    %%l_x_ : %s[num_users=2] = placeholder[target=L_x_]\n", t
  prev = "l_x_"
  for (k = 0; k < blocks; k++) {
    w = "l_self_modules_layers_modules_" k "_parameters_weight_"
    b = "l_self_modules_layers_modules_" k "_parameters_bias_"
    printf "    %%%s : %s[num_users=1] = placeholder[target=L_self_modules_layers_modules_%d_parameters_weight_]\n", w, t, k
    printf "    %%%s : %s[num_users=1] = placeholder[target=L_self_modules_layers_modules_%d_parameters_bias_]\n", b, t, k
    printf "    %%mul_%d : %s[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%%%s, %%%s), kwargs = {})\n", k, t, prev, w
    printf "    %%add_%d : %s[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%%mul_%d, %%%s), kwargs = {})\n", k, t, k, b
    printf "    %%relu_%d : %s[num_users=2] = call_function[target=torch.ops.aten.relu.default](args = (%%add_%d,), kwargs = {})\n", k, t, k
    printf "    %%mean_%d : %s[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%%relu_%d, [1], True), kwargs = {})\n", k, r, k
    printf "    %%sub_%d : %s[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%%relu_%d, %%mean_%d), kwargs = {})\n", k, t, k, k
    printf "    %%tanh_%d : %s[num_users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%%sub_%d,), kwargs = {})\n", k, t, k
    printf "    %%mul_b_%d : %s[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%%tanh_%d, 0.5), kwargs = {})\n", k, t, k
    printf "    %%res_%d : %s[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%%%s, %%mul_b_%d), kwargs = {})\n", k, t, prev, k
    prev = "res_" k
  }
  printf "    return (%s,)\n", prev
}'
