"""Zoo reference numerics (../shared/zoo/capture/gen_zoo_ref.py, plus tensor constants: see save_tensors): capture post-decomposition ATen graphs (forward and backward) with the
real tensors that flowed through them. python gen_ref.py MODEL OUTDIR [device]

Writes, per captured graph G (fw_0, bw_0, ...):
  G.graph.txt        str(gm.graph)
  G.readable.py      gm.print_readable(...) with dtype/shape/stride/device annotations
  G.nodes.json       per-node meta (dtype, shape, stride, device)
  G.inputs.safetensors / G.outputs.safetensors   arg_<i> / out_<i> tensors; ints and symints in the header metadata
"""
import json
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from safetensors.torch import save_file
from torch._dynamo.backends.common import aot_autograd
import torch._inductor.lowering  # noqa: F401  (decompositions refer to it lazily)
from torch._inductor.decomposition import select_decomp_table

model, out = sys.argv[1], sys.argv[2]
device = sys.argv[3] if len(sys.argv) > 3 else "cpu"
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from zoo_models import MODELS  # noqa: E402

torch.set_default_device(device)
fn, args, opts = MODELS[model]()
autocast = opts.pop("autocast", None)
if isinstance(fn, nn.Module):
    fn = fn.to(device)
args = [a.to(device) for a in args]
train = opts.pop("train", False)
count = {"fw": 0, "bw": 0}


def meta_of(v):
    if isinstance(v, torch.Tensor):
        return {"dtype": str(v.dtype).replace("torch.", ""), "shape": [str(s) for s in v.shape],
                "stride": [str(s) for s in v.stride()], "device": str(v.device)}
    if isinstance(v, (list, tuple)):
        return [meta_of(x) for x in v]
    if v is None:
        return None
    return str(v)


def save_tensors(path, values, prefix, named=None):
    tensors, md = {}, {}
    # Tensors the graph reads by get_attr (torch.tensor(0.0) in a model becomes
    # `%_tensor_constant0 = get_attr[...]`): the graph text holds only their types, so their
    # values go beside the inputs under their target names (fxkit run --inputs reads them).
    for name, t in (named or {}).items():
        tensors[name] = t.detach().contiguous().clone().cpu()
    for i, v in enumerate(values):
        if isinstance(v, torch.Tensor):
            tensors[f"{prefix}_{i}"] = v.detach().contiguous().clone().cpu()
        else:
            md[f"{prefix}_{i}"] = json.dumps(v if isinstance(v, (int, float, bool)) or v is None else str(v))
    save_file(tensors, path, metadata=md)


def capture(kind):
    def compiler(gm, example_inputs):
        name = f"{kind}_{count[kind]}"
        count[kind] += 1
        base = os.path.join(out, name)
        with open(base + ".graph.txt", "w") as f:
            f.write(str(gm.graph))
        with open(base + ".readable.py", "w") as f:
            f.write(gm.print_readable(print_output=False, include_stride=True, include_device=True))
        with open(base + ".nodes.json", "w") as f:
            json.dump([{"name": n.name, "op": n.op, "target": str(n.target), "val": meta_of(n.meta.get("val"))}
                       for n in gm.graph.nodes], f, indent=1)
        saved = [False]

        def run(*a):
            res = gm(*a)
            if not saved[0]:
                saved[0] = True
                constants = {n.target: getattr(gm, n.target) for n in gm.graph.nodes
                             if n.op == "get_attr" and isinstance(getattr(gm, n.target, None), torch.Tensor)}
                save_tensors(base + ".inputs.safetensors", list(a), "arg", constants)
                outs = res if isinstance(res, (list, tuple)) else [res]
                save_tensors(base + ".outputs.safetensors", list(outs), "out")
            return res
        return run
    return compiler


backend = aot_autograd(fw_compiler=capture("fw"), bw_compiler=capture("bw"), decompositions=select_decomp_table())
opt = torch.compile(fn, backend=backend, **opts)
import contextlib
ac = torch.autocast(device, dtype=autocast) if autocast else contextlib.nullcontext()
with ac:
    if train:
        y = opt(*args)
        y = y[0] if isinstance(y, (list, tuple)) else y
        (y.float() * y.float()).mean().backward()
    else:
        with torch.no_grad():
            opt(*args)
print(model, count)
