#!/usr/bin/env bash
# Writes the OpenCL benchmark graphs (FX text) into $1: memory-bound kernels at a size where
# bandwidth, not launch overhead, decides (N x N float32, N from $2, default 8192).
set -euo pipefail
out="$1"; n="${2:-8192}"
mkdir -p "$out"
cat >"$out/pointwise.graph.txt" <<G
graph():
    %x : Tensor "f32[$n, $n][$n, 1]cuda:0"[num_users=2] = placeholder[target=x]
    %y : Tensor "f32[$n, $n][$n, 1]cuda:0"[num_users=1] = placeholder[target=y]
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %y), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, %x), kwargs = {})
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%add,), kwargs = {})
    return (relu,)
G
cat >"$out/bias.graph.txt" <<G
graph():
    %x : Tensor "f32[$n, $n][$n, 1]cuda:0"[num_users=1] = placeholder[target=x]
    %b : Tensor "f32[$n][1]cuda:0"[num_users=1] = placeholder[target=b]
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, %b), kwargs = {})
    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%add,), kwargs = {})
    return (relu,)
G
cat >"$out/softmax.graph.txt" <<G
graph():
    %x : Tensor "f32[$n, $n][$n, 1]cuda:0"[num_users=2] = placeholder[target=x]
    %amax : [num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%x, [1], True), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %amax), kwargs = {})
    %exp : [num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [1], True), kwargs = {})
    %div : [num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
    return (div,)
G
cat >"$out/layernorm.graph.txt" <<G
graph():
    %x : Tensor "f32[$n, $n][$n, 1]cuda:0"[num_users=2] = placeholder[target=x]
    %vm : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%x, [1]), kwargs = {correction: 0, keepdim: True})
    %v : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 0), kwargs = {})
    %m : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 1), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%v, 1e-05), kwargs = {})
    %rs : [num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add,), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %m), kwargs = {})
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub, %rs), kwargs = {})
    return (mul,)
G
# Rows of 1024 points, as a transformer's hidden size (the same N * N elements): the persistent
# form of softmax and layer norm.
m=$((n * n / 1024))
cat >"$out/softmax_r1024.graph.txt" <<G
graph():
    %x : Tensor "f32[$m, 1024][1024, 1]cuda:0"[num_users=1] = placeholder[target=x]
    %sm : [num_users=1] = call_function[target=torch.ops.aten._softmax.default](args = (%x, 1, False), kwargs = {})
    return (sm,)
G
cat >"$out/layernorm_r1024.graph.txt" <<G
graph():
    %x : Tensor "f32[$m, 1024][1024, 1]cuda:0"[num_users=2] = placeholder[target=x]
    %vm : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%x, [1]), kwargs = {correction: 0, keepdim: True})
    %v : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 0), kwargs = {})
    %m : [num_users=1] = call_function[target=operator.getitem](args = (%vm, 1), kwargs = {})
    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%v, 1e-05), kwargs = {})
    %rs : [num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add,), kwargs = {})
    %sub : [num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %m), kwargs = {})
    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub, %rs), kwargs = {})
    return (mul,)
G
cat >"$out/rowsum.graph.txt" <<G
graph():
    %x : Tensor "f32[$n, $n][$n, 1]cuda:0"[num_users=1] = placeholder[target=x]
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x, [1]), kwargs = {})
    return (sum_1,)
G
cat >"$out/colsum.graph.txt" <<G
graph():
    %x : Tensor "f32[$n, $n][$n, 1]cuda:0"[num_users=1] = placeholder[target=x]
    %sum_1 : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x, [0]), kwargs = {})
    return (sum_1,)
G
