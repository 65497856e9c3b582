#!/usr/bin/env python3
"""`fxkit bisect` against Inductor's own compiled module, on an NVIDIA GPU (issue 22, item 4).

For each reference graph given (`fw_0.readable.py` of tests/data/corpus/reference/<workload>,
with `fw_0.inputs.safetensors` beside it): the ATen graph is traced with torch.fx, every call
node's value is made an output, and the graph runs eagerly and compiled by Inductor
(torch.compile, CUDA, Triton kernels) on the recorded inputs. In topological order, the first
node whose compiled value disagrees with the eager one while every node it reads agreed is the
culprit; it is printed with the worst element (index, expected, got) and the tolerance, which
is fxkit's per dtype (defaultTolerance, ir/Tensor.h: float32 1e-4 relative and absolute,
float16 1e-3, bfloat16 1.6e-2 relative and 1e-3 absolute, integers exact).

`--corrupt-op OP` (an ATen op name such as exp) replaces Inductor's lowering of
aten.OP.default by one that adds 1 to its result: a wrong Triton kernel on purpose, which the
script must name (as FXKIT_FAULT=corrupt-kernel does for fxkit's own backends). Returning every
node's value keeps each one in memory, so fusion may differ from the plain compiled module.

Usage: inductor_bisect.py [--corrupt-op OP] READABLE.py...
Exit 0 when every graph agrees, 1 when one disagrees, 2 on bad input.
"""
import argparse
import re
import sys

import torch
import torch.fx
from safetensors.torch import load_file

TOLERANCE = {torch.float16: (1e-3, 1e-3), torch.bfloat16: (1.6e-2, 1e-3)}


def load_graph(path):
    src = open(path).read()
    src = re.sub(r"^class [^(]*\(", "class Model(", src, count=1, flags=re.M)
    ns = {"torch": torch, "inf": float("inf"), "nan": float("nan")}
    exec(compile(src, path, "exec"), ns)
    return torch.fx.symbolic_trace(ns["Model"]())


def load_inputs(path, count, device):
    tensors = load_file(path)
    out = []
    for i in range(count):
        t = tensors.get(f"arg_{i}")
        if t is None:
            raise ValueError(f"{path}: no tensor arg_{i}")
        out.append(t.to(device))
    return out


def every_value(gm, inputs):
    """The graph returning every call node's tensor value (and their names)."""
    values = {}

    class Record(torch.fx.Interpreter):
        def run_node(self, n):
            v = super().run_node(n)
            values[n.name] = v
            return v

    Record(gm).run(*[x.clone() for x in inputs])
    graph = torch.fx.Graph()
    env = {}
    names = []
    for n in gm.graph.nodes:
        if n.op == "output":
            continue
        env[n] = graph.node_copy(n, lambda a: env[a])
        if n.op == "call_function" and isinstance(values.get(n.name), torch.Tensor):
            names.append(n.name)
    graph.output(tuple(env[n] for n in gm.graph.nodes if n.name in set(names)))
    return torch.fx.GraphModule(gm, graph), names, values


def compare(got, want):
    rtol, atol = TOLERANCE.get(want.dtype, (1e-4, 1e-4))
    if got.shape != want.shape or got.dtype != want.dtype:
        return None
    if not (want.is_floating_point() or want.is_complex()):
        bad = got != want
        err = (got.to(torch.float64) - want.to(torch.float64)).abs()
        rtol = atol = 0.0
    else:
        g, w = got.to(torch.float64), want.to(torch.float64)
        err = (g - w).abs()
        err = torch.where(torch.isnan(g) & torch.isnan(w), torch.zeros_like(err), err)
        err = torch.where(g == w, torch.zeros_like(err), err)
        bad = ~(err <= atol + rtol * w.abs())
    count = int(bad.sum())
    if count == 0:
        return {"bad": 0}
    masked = torch.where(bad, err.nan_to_num(float("inf")), torch.full_like(err, -1.0))
    flat = int(masked.flatten().argmax())
    idx = list(torch.unravel_index(torch.tensor(flat), want.shape)) if want.dim() else []
    idx = [int(i) for i in idx]
    return {"bad": count, "index": idx, "expected": float(want[tuple(idx)]),
            "got": float(got[tuple(idx)]), "rtol": rtol, "atol": atol}


def corrupt(op):
    from torch._inductor import config
    from torch._inductor import lowering as L

    # A cached compilation of the same graph would skip the lowering.
    config.force_disable_caches = True
    target = getattr(torch.ops.aten, op).default
    original = L.lowerings[target]
    add = L.lowerings[torch.ops.aten.add.Tensor]

    def wrong(*args, **kwargs):
        return add(original(*args, **kwargs), 1.0)

    L.lowerings[target] = wrong


def bisect(path, device):
    gm = load_graph(path)
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    inputs = load_inputs(re.sub(r"\.readable\.py$", ".inputs.safetensors", path),
                         len(placeholders), device)
    all_gm, names, values = every_value(gm, inputs)
    torch._dynamo.reset()
    compiled = torch.compile(all_gm, backend="inductor")
    got = compiled(*[x.clone() for x in inputs])
    print(f"bisect: inductor ({torch.cuda.get_device_name()}) against eager, {len(names)} nodes")
    bad = set()
    for name, g in zip(names, got):
        r = compare(g, values[name])
        if r is None or r["bad"] == 0:
            continue
        node = next(n for n in all_gm.graph.nodes if n.name == name)
        if any(a.name in bad for a in node.all_input_nodes):
            bad.add(name)
            continue
        print(f"first bad node: %{name} ({node.target}), reading "
              + ", ".join("%" + a.name for a in node.all_input_nodes))
        print(f"  {r['bad']} of {values[name].numel()} elements not close")
        print(f"  worst element {r['index']}: expected {r['expected']:.8g}, got {r['got']:.8g}")
        print(f"  tolerance ({values[name].dtype}): rtol {r['rtol']}, atol {r['atol']}")
        return 1
    print("every node agrees with eager")
    return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("graphs", nargs="+")
    p.add_argument("--corrupt-op")
    p.add_argument("--device", default="cuda")
    a = p.parse_args()
    if a.corrupt_op:
        corrupt(a.corrupt_op)
    status = 0
    for path in a.graphs:
        print(f"== {path}")
        try:
            status = max(status, bisect(path, a.device))
        except (OSError, ValueError) as e:
            print(f"error: {e}", file=sys.stderr)
            status = 2
    return status


if __name__ == "__main__":
    sys.exit(main())
