"""Captures FX graphs with nested GraphModules (higher-order ops) and typed FX text.

Usage (on a machine with PyTorch): python3 capture.py OUTDIR

For each case, every graph Dynamo hands its backend (`dynamo_<i>`) and every forward/backward
graph AOTAutograd compiles (`aot_fw_<i>`, `aot_bw_<i>`), plus a few graphs of torch.fx's
symbolic_trace/split_module and torch.export, are written as:
  <stage>.readable.py        gm.print_readable(print_output=False, include_stride=True,
                             include_device=True) (nested classes for child GraphModules)
  <stage>.plain.readable.py  gm.print_readable(print_output=False) (sizes only)
  <stage>.graph.txt          str(gm.graph)
  <stage>.typed.graph.txt    Graph.__str__ with format_node(include_tensor_metadata=True), the
                             form Inductor's output code comments print
  <stage>.<child>.graph.txt / .typed.graph.txt  the same for each child GraphModule (recursive,
                             dotted path)
A case that fails is reported on stdout and skipped.
"""
import os
import sys
import traceback

import torch
import torch.nn.functional as F

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
dev = "cuda" if torch.cuda.is_available() else "cpu"
print("torch", torch.__version__, "device", dev)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def typed_str(graph):
    # Graph.__str__ with include_tensor_metadata=True (placeholder_names=[] as __str__ passes).
    placeholder_names = []
    ret = [""]
    strs = [n.format_node(placeholder_names, ret, include_tensor_metadata=True) for n in graph.nodes]
    s = f"graph({', '.join(placeholder_names)}){ret[0]}:"
    for t in strs:
        if t:
            s += "\n    " + t
    return s


def children(gm, prefix=""):
    for name, sub in gm.named_children():
        if isinstance(sub, torch.fx.GraphModule):
            yield prefix + name, sub
            yield from children(sub, prefix + name + ".")


def record(case, stage, gm, expanded=False):
    base = os.path.join(out, case, stage)
    try:
        write(base + ".readable.py",
              gm.print_readable(print_output=False, include_stride=True, include_device=True))
        write(base + ".plain.readable.py", gm.print_readable(print_output=False))
        if expanded:
            write(base + ".expanded.readable.py",
                  gm.print_readable(print_output=False, include_stride=True, include_device=True,
                                    expanded_def=True))
        write(base + ".graph.txt", str(gm.graph))
        write(base + ".typed.graph.txt", typed_str(gm.graph))
        for path, sub in children(gm):
            write(f"{base}.{path}.graph.txt", str(sub.graph))
            write(f"{base}.{path}.typed.graph.txt", typed_str(sub.graph))
    except Exception:
        print(f"RECORD FAIL {case}/{stage}")
        traceback.print_exc()


def run_case(case, fn, args, dynamic=False, aot=True, expanded=False):
    torch._dynamo.reset()
    n = {"dynamo": 0, "aot_fw": 0, "aot_bw": 0}

    def dyn_backend(gm, example_inputs):
        i = n["dynamo"]
        n["dynamo"] += 1
        record(case, f"dynamo_{i}", gm, expanded)
        if not aot:
            return gm.forward
        from functorch.compile import make_boxed_func
        from torch._dynamo.backends.common import aot_autograd

        def mk(kind):
            def comp(g, ex):
                j = n[kind]
                n[kind] += 1
                record(case, f"{kind}_{j}", g, expanded)
                return make_boxed_func(g.forward)
            return comp
        return aot_autograd(fw_compiler=mk("aot_fw"), bw_compiler=mk("aot_bw"))(gm, example_inputs)

    try:
        opt = torch.compile(fn, backend=dyn_backend, dynamic=dynamic, fullgraph=False)
        y = opt(*args)
        ys = y if isinstance(y, (tuple, list)) else (y,)
        ts = [t for t in ys if isinstance(t, torch.Tensor) and t.requires_grad]
        if ts:
            sum(t.float().sum() for t in ts).backward()
        print(f"ok {case}: {n}")
    except Exception:
        print(f"CASE FAIL {case}: {n}")
        traceback.print_exc()


def req(*shape, dtype=torch.float32):
    return torch.randn(*shape, device=dev, dtype=dtype, requires_grad=True)


# ---- higher-order ops --------------------------------------------------------------------------
class Gelu(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 0.5 * (1.0 + torch.tanh(0.79788456 * x * (1 + 0.044715 * x * x)))

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        t = torch.tanh(0.79788456 * x * (1 + 0.044715 * x * x))
        return g * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * 0.79788456 * (1 + 3 * 0.044715 * x * x))


def autograd_fn(x, w):
    return Gelu.apply(x @ w).sum(-1)


def checkpointed(x, w):
    def blk(a):
        return torch.relu(a @ w).sin()
    y = torch.utils.checkpoint.checkpoint(blk, x, use_reentrant=False)
    return y.cos()


def cond_fn(x, y):
    def t(a, b):
        return (a + b).sin()

    def f(a, b):
        return (a - b).cos()
    return torch.cond(x.sum() > 0, t, f, (x, y))


def while_fn(i, x):
    from torch._higher_order_ops.while_loop import while_loop

    def c(i, x):
        return i < 3

    def b(i, x):
        return i + 1, x * 2 + 1
    return while_loop(c, b, (i, x))


def invoke_fn(x, w):
    @torch.compiler.nested_compile_region
    def layer(a, b):
        return torch.relu(a @ b) + 1

    return layer(layer(x, w), w)


def map_fn(xs, y):
    from torch._higher_order_ops.map import map as hop_map

    def body(x, y):
        return x.sin() + y
    return hop_map(body, xs, y)


def flex_fn(q, k, v):
    from torch.nn.attention.flex_attention import flex_attention

    def score_mod(score, b, h, q_idx, kv_idx):
        return score + (q_idx - kv_idx).to(score.dtype) * 0.1
    return flex_attention(q, k, v, score_mod=score_mod)


def autocast_fn(x, w):
    with torch.autocast(dev, dtype=torch.float16):
        y = x @ w
    return y.float().relu()


def grad_mode_fn(x):
    with torch.no_grad():
        y = x * 2
    return (x + y).sin()


# ---- syntax: Python operators, subscripts, dtypes, devices, SymInts ---------------------------------
def syntax_fn(x, y, m):
    n = x.size(0)
    a = x[..., None, 1:] * 2
    b = a.reshape(n, -1)
    z = torch.zeros(3, dtype=torch.float16, device=torch.device(dev, 0) if dev == "cuda" else "cpu")
    c = (x @ y) ** 2 // 3 - -x.mean()
    d = torch.where(~m, c, float("-inf"))
    e = x.to(torch.float64).sum(dim=-1, keepdim=True)
    f = torch.cat([b.flatten(), z.float()], dim=0)
    g = F.gelu(c, approximate="tanh")
    h = x.new_zeros(n, 2)
    h[0] = 1.0
    k = x.clone()
    k += 1
    parts = x.split(2, dim=1)
    return d, e, f, g, h, k, parts[0], x.shape[1] * n, x.T.contiguous()


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList([torch.nn.Linear(8, 8), torch.nn.Linear(8, 4)])
        self.scale = torch.nn.Parameter(torch.ones(4))

    def forward(self, x):
        x = self.layers[0](x).relu()
        x = self.layers[1](x) * self.scale
        return x.softmax(-1)


def annotated(x: torch.Tensor, n: int = 3, *rest):
    return torch.relu(x) * n


def fx_cases():
    record("fx_trace", "annotated", torch.fx.symbolic_trace(annotated))
    from torch.fx.passes.split_module import split_module
    net = Net().to(dev)
    gm = torch.fx.symbolic_trace(net)
    record("fx_trace", "symbolic_trace", gm)
    x = torch.randn(2, 8, device=dev)
    from torch.fx.passes.shape_prop import ShapeProp
    ShapeProp(gm).propagate(x)
    record("fx_trace", "shape_prop", gm)
    parts = {"layers_0": 0, "relu": 0, "layers_1": 1, "scale": 1, "mul": 1, "softmax": 1}
    split = split_module(gm, net, lambda n: parts.get(n.name, 1))
    record("fx_trace", "split_module", split)


def export_cases():
    net = Net().to(dev)
    x = torch.randn(2, 8, device=dev)
    ep = torch.export.export(net, (x,))
    record("export", "ep_graph_module", ep.graph_module)
    record("export", "unlifted_module", ep.module(), expanded=True)

    class CondNet(torch.nn.Module):
        def forward(self, x):
            return torch.cond(x.sum() > 0, lambda a: a.sin(), lambda a: a.cos(), (x,))
    ep2 = torch.export.export(CondNet(), (x,))
    record("export", "cond_graph_module", ep2.graph_module)


CASES = [
    ("autograd_function", autograd_fn, lambda: (req(4, 8), req(8, 16)), {}),
    ("checkpoint", checkpointed, lambda: (req(4, 8), req(8, 8)), {}),
    ("cond", cond_fn, lambda: (req(4, 8), req(4, 8)), {}),
    ("while_loop", while_fn, lambda: (torch.tensor(0, device=dev), torch.randn(4, device=dev)),
     {"aot": True}),
    ("invoke_subgraph", invoke_fn, lambda: (req(4, 8), req(8, 8)), {}),
    ("map", map_fn, lambda: (torch.randn(3, 4, device=dev), torch.randn(4, device=dev)), {}),
    ("flex_attention", flex_fn, lambda: tuple(req(1, 2, 128, 16) for _ in range(3)), {}),
    ("autocast", autocast_fn, lambda: (req(4, 8), req(8, 8)), {}),
    ("grad_mode", grad_mode_fn, lambda: (req(4, 8),), {}),
    ("cond_dynamic", cond_fn, lambda: (req(4, 8), req(4, 8)), {"dynamic": True}),
    ("syntax", syntax_fn,
     lambda: (torch.randn(6, 4, device=dev), torch.randn(4, 4, device=dev),
              torch.rand(6, 4, device=dev) > 0.5), {"expanded": True}),
    ("syntax_dynamic", syntax_fn,
     lambda: (torch.randn(6, 4, device=dev), torch.randn(4, 4, device=dev),
              torch.rand(6, 4, device=dev) > 0.5), {"dynamic": True}),
]

only = set(sys.argv[2:])
for name, fn, mkargs, opts in CASES:
    if only and name not in only:
        continue
    torch.manual_seed(0)
    run_case(name, fn, mkargs(), **opts)
for name, f in [("fx_trace", fx_cases), ("export", export_cases)]:
    if only and name not in only:
        continue
    try:
        f()
        print(f"ok {name}")
    except Exception:
        print(f"CASE FAIL {name}")
        traceback.print_exc()
