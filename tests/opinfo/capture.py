"""Per-op samples from PyTorch's OpInfo database, for fxkit's tests (tests/OpInfoSamplesTest.cpp).

python capture.py OUT_DIR REGISTERED.json

For every OpInfo of torch.testing._internal.common_methods_invocations.op_db and each dtype it
supports on the CPU (from a fixed list), a few of its sample inputs are traced with make_fx into
an ATen graph. A sample is kept when every op of its graph is one fxkit registers (REGISTERED.json:
the targets of `fxkit ops --json`) and its tensors are small. The graph is run eagerly on the same
inputs; both are recorded:
  OUT_DIR/opinfo-samples.json         {"torch": version, "samples": [{"name", "op", "dtype",
                                        "graph" (FX text), "inputs": n, "outputs": [kinds],
                                        "scalars": {key: json}}], "skipped": {reason: count}}
  OUT_DIR/opinfo-samples.safetensors  s<k>_arg_<i>, s<k>_out_<i> (contiguous copies)
"""
import collections
import json
import math
import os
import sys
import time

import torch
from safetensors.torch import save_file
from torch.fx.experimental.proxy_tensor import make_fx
from torch.testing._internal.common_methods_invocations import op_db

out_dir, registered_path = sys.argv[1], sys.argv[2]
registered = set(json.load(open(registered_path)))
DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
          torch.int8, torch.uint8, torch.bool]
PER_DTYPE = {torch.float32: 3}  # samples kept per (op, dtype); 1 otherwise
MAX_NUMEL = 512                 # inputs and outputs of one sample, elements
MAX_TOTAL_BYTES = 3_500_000
torch.manual_seed(0)

tensors, samples = {}, []
skipped = collections.Counter()
total = 0
start = time.time()


def flat_tensors(x):
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        return [t for item in x for t in flat_tensors(item)]
    return []


def replace_tensors(x, it):
    if isinstance(x, torch.Tensor):
        return next(it)
    if isinstance(x, list):
        return [replace_tensors(i, it) for i in x]
    if isinstance(x, tuple):
        return tuple(replace_tensors(i, it) for i in x)
    return x


for info in op_db:
    if time.time() - start > 420:
        skipped["time limit"] += 1
        continue
    try:
        supported = info.supported_dtypes("cpu")
    except Exception:
        skipped["no dtypes"] += 1
        continue
    for dtype in DTYPES:
        if dtype not in supported:
            continue
        try:
            sample_iter = info.sample_inputs("cpu", dtype, requires_grad=False)
        except Exception:
            skipped["sample_inputs failed"] += 1
            continue
        kept = 0
        for s in sample_iter:
            if kept >= PER_DTYPE.get(dtype, 1):
                break
            args, kwargs = [s.input] + list(s.args), dict(s.kwargs)
            ins = flat_tensors(args) + flat_tensors(list(kwargs.values()))
            if not ins or any(t.is_complex() or t.is_sparse or t.layout != torch.strided
                              for t in ins):
                skipped["inputs not plain tensors"] += 1
                continue

            def fn(*ts):
                it = iter(ts)
                a = replace_tensors(args, it)
                k = {key: replace_tensors(v, it) for key, v in kwargs.items()}
                return info.op(*a, **k)
            try:
                gm = make_fx(fn, tracing_mode="fake")(*ins)
            except Exception:
                skipped["make_fx failed"] += 1
                continue
            nodes = list(gm.graph.nodes)
            if any(n.op == "get_attr" for n in nodes):
                skipped["tensor constants"] += 1
                continue
            targets = {"torch.ops." + str(n.target) if str(n.target).startswith(("aten.", "prims."))
                       else str(n.target) for n in nodes if n.op == "call_function"}
            if not targets:
                skipped["no call"] += 1
                continue
            missing = targets - registered
            if missing:
                skipped["ops fxkit lacks"] += 1
                continue
            try:
                res = gm(*ins)
            except Exception:
                skipped["eager run failed"] += 1
                continue
            outs = res if isinstance(res, (list, tuple)) else [res]
            outs = list(outs)
            if any(isinstance(o, torch.Tensor) and (o.is_complex() or o.layout != torch.strided)
                   for o in outs):
                skipped["outputs not plain tensors"] += 1
                continue
            numel = sum(t.numel() for t in ins) + sum(o.numel() for o in outs
                                                       if isinstance(o, torch.Tensor))
            if numel > MAX_NUMEL:
                skipped["too large"] += 1
                continue
            nbytes = sum(t.numel() * t.element_size() for t in ins) + sum(
                o.numel() * o.element_size() for o in outs if isinstance(o, torch.Tensor))
            if total + nbytes > MAX_TOTAL_BYTES:
                skipped["size budget"] += 1
                continue
            k = len(samples)
            kinds, scalars = [], {}
            ok = True
            for i, o in enumerate(outs):
                if isinstance(o, torch.Tensor):
                    kinds.append("tensor")
                elif o is None or isinstance(o, (bool, int, float)):
                    kinds.append("scalar")
                    scalars[f"s{k}_out_{i}"] = json.dumps(o)
                else:
                    ok = False
            if not ok:
                skipped["outputs not tensors or numbers"] += 1
                continue
            for i, t in enumerate(ins):
                tensors[f"s{k}_arg_{i}"] = t.detach().contiguous().clone()
            for i, o in enumerate(outs):
                if isinstance(o, torch.Tensor):
                    tensors[f"s{k}_out_{i}"] = o.detach().contiguous().clone()
            # Non-contiguous inputs: their layout is in the graph's placeholder annotations;
            # the stored copy is contiguous and the test lays it out again.
            samples.append({"name": f"{info.name}.{info.variant_test_name}".rstrip("."),
                            "op": sorted(targets), "dtype": str(dtype).replace("torch.", ""),
                            "graph": str(gm.graph), "inputs": len(ins), "outputs": kinds,
                            "scalars": scalars})
            total += nbytes
            kept += 1

os.makedirs(out_dir, exist_ok=True)
save_file(tensors, os.path.join(out_dir, "opinfo-samples.safetensors"))
with open(os.path.join(out_dir, "opinfo-samples.json"), "w") as f:
    json.dump({"torch": torch.__version__, "samples": samples, "skipped": dict(skipped)}, f, indent=0)
covered = sorted({t for s in samples for t in s["op"]})
print(f"{len(samples)} samples, {total} bytes, {len(covered)} ops covered, skipped {dict(skipped)}")
print("uncovered registered ops:", sorted(t for t in registered if t not in covered)[:400])
