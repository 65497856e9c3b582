#!/usr/bin/env python3
"""Writes the graphs and inputs of tests/data/lowering-py: one small graph per family of ops
that lower to loops with their own Python wrapper form (reductions with indices, scans, gathers,
scatters, grid sampling, distances, a norm backward). Run here, then record the outputs with
fxkit's reference interpreter:
    for d in */; do fxkit run $d/fw_0.graph.txt --inputs $d/fw_0.inputs.safetensors \
        -o $d/fw_0.outputs.safetensors; done
The test `python.wrapper_py_lowering` runs the exported Python wrappers with PyTorch on these
inputs (tests/python/check_wrapper_py.py); the interpreter's outputs agree with eager PyTorch
on these ops (tests/OpInfoSamplesTest.cpp)."""
import json, struct, os, random, math
random.seed(1)
def st(path, tensors):
    hdr = {}; body = b''
    for name, (dt, shape, vals) in tensors.items():
        fmt = {'F32': 'f', 'I64': 'q', 'BOOL': 'B'}[dt]
        data = struct.pack('<%d%s' % (len(vals), fmt), *vals)
        hdr[name] = {'dtype': dt, 'shape': shape, 'data_offsets': [len(body), len(body) + len(data)]}
        body += data
    h = json.dumps(hdr).encode()
    open(path, 'wb').write(struct.pack('<Q', len(h)) + h + body)
def f(n): return [round(random.uniform(-2, 2), 3) for _ in range(n)]
def ints(n, hi, lo=0): return [random.randint(lo, hi - 1) for _ in range(n)]
cases = {}
cases['argmax_any_prod'] = ('''graph():
    %x : Tensor "f32[4, 6][6, 1]cpu"[num_users=4] = placeholder[target=x]
    %a : [num_users=1] = call_function[target=torch.ops.aten.argmax.default](args = (%x, 1), kwargs = {})
    %b : [num_users=1] = call_function[target=torch.ops.aten.any.dim](args = (%x, 0), kwargs = {})
    %c : [num_users=1] = call_function[target=torch.ops.aten.prod.dim_int](args = (%x, 1), kwargs = {})
    %d : [num_users=1] = call_function[target=torch.ops.aten.logsumexp.default](args = (%x, [1]), kwargs = {})
    return (a, b, c, d)
''', {'arg_0': ('F32', [4, 6], f(24))})
cases['max_dim_var'] = ('''graph():
    %x : Tensor "f32[4, 6][6, 1]cpu"[num_users=2] = placeholder[target=x]
    %m : [num_users=2] = call_function[target=torch.ops.aten.max.dim](args = (%x, 0), kwargs = {})
    %v : [num_users=1] = call_function[target=operator.getitem](args = (%m, 0), kwargs = {})
    %i : [num_users=1] = call_function[target=operator.getitem](args = (%m, 1), kwargs = {})
    %w : [num_users=1] = call_function[target=torch.ops.aten.var.correction](args = (%x, [1]), kwargs = {correction: 1})
    return (v, i, w)
''', {'arg_0': ('F32', [4, 6], f(24))})
cases['index_put_acc'] = ('''graph():
    %x : Tensor "f32[5, 3][3, 1]cpu"[num_users=1] = placeholder[target=x]
    %i : Tensor "i64[6][1]cpu"[num_users=1] = placeholder[target=i]
    %v : Tensor "f32[6, 3][3, 1]cpu"[num_users=1] = placeholder[target=v]
    %p : [num_users=1] = call_function[target=torch.ops.aten.index_put.default](args = (%x, [%i], %v, True), kwargs = {})
    return (p,)
''', {'arg_0': ('F32', [5, 3], f(15)), 'arg_1': ('I64', [6], [1, 3, 1, 0, 4, 1]), 'arg_2': ('F32', [6, 3], f(18))})
cases['scatter_reduce'] = ('''graph():
    %x : Tensor "f32[3, 5][5, 1]cpu"[num_users=2] = placeholder[target=x]
    %i : Tensor "i64[2, 3][3, 1]cpu"[num_users=2] = placeholder[target=i]
    %s : Tensor "f32[2, 4][4, 1]cpu"[num_users=2] = placeholder[target=s]
    %a : [num_users=1] = call_function[target=torch.ops.aten.scatter_reduce.two](args = (%x, 0, %i, %s, amax), kwargs = {include_self: False})
    %b : [num_users=1] = call_function[target=torch.ops.aten.scatter_reduce.two](args = (%x, 0, %i, %s, prod), kwargs = {})
    return (a, b)
''', {'arg_0': ('F32', [3, 5], f(15)), 'arg_1': ('I64', [2, 3], [2, 0, 2, 2, 1, 0]), 'arg_2': ('F32', [2, 4], f(8))})
cases['masked_scatter'] = ('''graph():
    %x : Tensor "f32[3, 4][4, 1]cpu"[num_users=1] = placeholder[target=x]
    %m : Tensor "b8[4][1]cpu"[num_users=1] = placeholder[target=m]
    %s : Tensor "f32[2, 5][5, 1]cpu"[num_users=1] = placeholder[target=s]
    %r : [num_users=1] = call_function[target=torch.ops.aten.masked_scatter.default](args = (%x, %m, %s), kwargs = {})
    return (r,)
''', {'arg_0': ('F32', [3, 4], f(12)), 'arg_1': ('BOOL', [4], [1, 0, 1, 1]), 'arg_2': ('F32', [2, 5], f(10))})
cases['grid_sample'] = ('''graph():
    %x : Tensor "f32[1, 2, 4, 5][40, 20, 5, 1]cpu"[num_users=2] = placeholder[target=x]
    %g : Tensor "f32[1, 3, 4, 2][24, 8, 2, 1]cpu"[num_users=2] = placeholder[target=g]
    %a : [num_users=1] = call_function[target=torch.ops.aten.grid_sampler_2d.default](args = (%x, %g, 0, 2, False), kwargs = {})
    %b : [num_users=1] = call_function[target=torch.ops.aten.grid_sampler_2d.default](args = (%x, %g, 2, 1, True), kwargs = {})
    return (a, b)
''', {'arg_0': ('F32', [1, 2, 4, 5], f(40)), 'arg_1': ('F32', [1, 3, 4, 2], [round(random.uniform(-1.2, 1.2), 3) for _ in range(24)])})
cases['pdist_cdist'] = ('''graph():
    %x : Tensor "f32[5, 3][3, 1]cpu"[num_users=2] = placeholder[target=x]
    %a : [num_users=1] = call_function[target=torch.ops.aten._pdist_forward.default](args = (%x, 2.0), kwargs = {})
    %b : [num_users=1] = call_function[target=torch.ops.aten._cdist_forward.default](args = (%x, %x, 1.0, None), kwargs = {})
    return (a, b)
''', {'arg_0': ('F32', [5, 3], f(15))})
cases['gather_embedding'] = ('''graph():
    %w : Tensor "f32[6, 4][4, 1]cpu"[num_users=2] = placeholder[target=w]
    %i : Tensor "i64[2, 3][3, 1]cpu"[num_users=2] = placeholder[target=i]
    %e : [num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%w, %i), kwargs = {})
    %g : [num_users=1] = call_function[target=torch.ops.aten.gather.default](args = (%w, 0, %i), kwargs = {})
    return (e, g)
''', {'arg_0': ('F32', [6, 4], f(24)), 'arg_1': ('I64', [2, 3], [0, 5, 3, 2, 2, 1])})
cases['layer_norm_bw'] = ('''graph():
    %g : Tensor "f32[3, 4][4, 1]cpu"[num_users=1] = placeholder[target=g]
    %x : Tensor "f32[3, 4][4, 1]cpu"[num_users=1] = placeholder[target=x]
    %m : Tensor "f32[3, 1][1, 1]cpu"[num_users=1] = placeholder[target=m]
    %r : Tensor "f32[3, 1][1, 1]cpu"[num_users=1] = placeholder[target=r]
    %w : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=w]
    %b : Tensor "f32[4][1]cpu"[num_users=1] = placeholder[target=b]
    %n : [num_users=3] = call_function[target=torch.ops.aten.native_layer_norm_backward.default](args = (%g, %x, [4], %m, %r, %w, %b, [True, True, True]), kwargs = {})
    %o0 : [num_users=1] = call_function[target=operator.getitem](args = (%n, 0), kwargs = {})
    %o1 : [num_users=1] = call_function[target=operator.getitem](args = (%n, 1), kwargs = {})
    %o2 : [num_users=1] = call_function[target=operator.getitem](args = (%n, 2), kwargs = {})
    return (o0, o1, o2)
''', {'arg_0': ('F32', [3, 4], f(12)), 'arg_1': ('F32', [3, 4], f(12)), 'arg_2': ('F32', [3, 1], f(3)), 'arg_3': ('F32', [3, 1], [abs(v) + 0.5 for v in f(3)]), 'arg_4': ('F32', [4], f(4)), 'arg_5': ('F32', [4], f(4))})
cases['cumsum'] = ('''graph():
    %x : Tensor "f32[3, 7][7, 1]cpu"[num_users=1] = placeholder[target=x]
    %c : [num_users=1] = call_function[target=torch.ops.aten.cumsum.default](args = (%x, 1), kwargs = {})
    return (c,)
''', {'arg_0': ('F32', [3, 7], f(21))})
for name, (text, inputs) in cases.items():
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    os.makedirs(folder, exist_ok=True)
    open(os.path.join(folder, 'fw_0.graph.txt'), 'w').write(text)
    st(os.path.join(folder, 'fw_0.inputs.safetensors'), inputs)
