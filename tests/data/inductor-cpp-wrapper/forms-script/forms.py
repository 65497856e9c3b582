"""Captures Inductor's C++ wrapper (cpp_wrapper=True) and Python wrapper for small programs that
exercise the forms the C++ wrapper codegens emit. Usage: python forms.py OUTDIR CASE..."""
import os, sys, traceback, json
import torch
import torch._inductor.config as icfg
import torch._dynamo.config as dcfg
from torch._inductor.utils import run_and_get_code

out = sys.argv[1]
dcfg.capture_scalar_outputs = True
dcfg.capture_dynamic_output_shape_ops = True
icfg.fx_graph_cache = False
C = {}
def case(f):
    C[f.__name__] = f
    return f

dev = "cuda"

@case
def cpu_mlp():
    m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8)).eval()
    def f(x):
        return torch.softmax(m(x), -1)
    return f, [torch.randn(4, 16)], {}

@case
def cpu_dyn():
    w = torch.randn(16, 8)
    def f(x, y):
        return (x @ w).relu() + y.sum(), x.shape[0] * 2
    return f, [torch.randn(5, 16), torch.randn(3)], {"dynamic": True}

@case
def g_fallbacks():
    def f(x, idx, v):
        s, i = torch.sort(x, dim=-1)
        t = torch.topk(x, 3)
        y = torch.zeros(10, device=x.device).index_put_((idx,), v, accumulate=True)
        e = torch.nn.functional.embedding_bag(idx, x, torch.tensor([0, 2], device=x.device))
        return s, i, t.values, t.indices, y, e, torch.searchsorted(s[0], x[1])
    return f, [torch.randn(10, 8, device=dev), torch.randint(0, 10, (4,), device=dev), torch.randn(4, device=dev)], {}

@case
def g_scatter():
    def f(x, idx, src):
        a = x.scatter_reduce(0, idx, src, reduce="mean", include_self=False)
        b = x.clone().scatter_(0, idx, src, reduce="multiply")
        return a, b
    return f, [torch.randn(8, 4, device=dev), torch.randint(0, 8, (3, 4), device=dev), torch.randn(3, 4, device=dev)], {}

@case
def g_unbacked():
    def f(x, k):
        n = (x > 0).sum().item()
        torch._check_is_size(n)
        nz = torch.nonzero(x > 0.5)
        r = torch.repeat_interleave(k)
        s = int(k[0].item())
        torch._check(s >= 0)
        torch._check(s <= x.shape[1])
        u = torch.unique(x.round())
        return nz.float().sum(0) * n, x[:, :s].sum(1) + s, r, u
    return f, [torch.randn(8, 16, device=dev), torch.tensor([2, 1, 3], device=dev)], {}

@case
def g_cond():
    def f(x, y):
        def t(x, y):
            return (x.sin() + y,)
        def e(x, y):
            return (x.cos() * y,)
        return torch.cond(x.sum() > 0, t, e, (x, y))[0] + 1
    return f, [torch.randn(8, device=dev), torch.randn(8, device=dev)], {}

@case
def g_while():
    from torch._higher_order_ops.while_loop import while_loop
    def f(i, x):
        def cond(i, x):
            return i < 5
        def body(i, x):
            return i + 1, x * 2 + 1
        return while_loop(cond, body, (i, x))
    return f, [torch.tensor(0, device=dev), torch.randn(4, device=dev)], {}

@case
def g_custom():
    @torch.library.custom_op("fxk::listop", mutates_args=())
    def listop(xs: list[torch.Tensor], k: int) -> torch.Tensor:
        return sum(xs) * k
    @listop.register_fake
    def _(xs, k):
        return torch.empty_like(xs[0])
    @torch.library.custom_op("fxk::simple", mutates_args=())
    def simple(x: torch.Tensor, k: int, a: float, flag: bool, y: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        return x * k + a, x.clone()
    @simple.register_fake
    def _(x, k, a, flag, y=None):
        return torch.empty_like(x), torch.empty_like(x)
    @torch.library.custom_op("fxk::mut", mutates_args=("x",))
    def mut(x: torch.Tensor, y: torch.Tensor) -> None:
        x.add_(y)
    @mut.register_fake
    def _(x, y):
        return None
    def f(a, b):
        c = torch.ops.fxk.listop([a, b, a * 2], 3)
        d, e = torch.ops.fxk.simple(c + 1, 2, 0.5, True)
        g = d.clone()
        torch.ops.fxk.mut(g, b)
        return c, d, e, g
    return f, [torch.randn(8, device=dev), torch.randn(8, device=dev)], {}

@case
def g_views_copies():
    def f(x):
        y = x * 2
        z = (y + 1).cpu()
        w = z * 3
        v = y.view(torch.int32)[1:]
        c = torch.cat([x, y], 0)
        return w, v, c, y, y, x.t()
    return f, [torch.randn(4, 4, device=dev)], {}

@case
def g_memplan():
    icfg.memory_planning = True
    m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 32), torch.nn.Softmax(-1)).to(dev).eval()
    def f(x):
        with torch.no_grad():
            return m(x) + 1
    return f, [torch.randn(4, 16, device=dev)], {}

@case
def g_profile():
    icfg.cpp.enable_kernel_profile = True
    icfg.profiler_mark_wrapper_call = True
    icfg.nan_asserts = True
    def f(x, w):
        return (x @ w).relu().sum(0)
    return f, [torch.randn(4, 8, device=dev), torch.randn(8, 8, device=dev)], {}

@case
def g_debug_printer():
    icfg.aot_inductor.debug_intermediate_value_printer = "2"
    def f(x, w):
        return torch.addmm(x[0], x, w).sigmoid()
    return f, [torch.randn(8, 8, device=dev), torch.randn(8, 8, device=dev)], {}

@case
def g_scalars():
    dcfg.specialize_float = False
    def f(x, n, a):
        return x * n + a, (x.sum() * torch.tensor(3.0)), x.shape[0] + n
    return f, [torch.randn(6, 4, device=dev), 3, 0.25], {"dynamic": True}

@case
def g_sdpa_bf16():
    def f(q, k, v):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    a = [torch.randn(2, 4, 64, 32, device=dev, dtype=torch.bfloat16) for _ in range(3)]
    return f, a, {}

@case
def g_conv_train():
    m = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(), torch.nn.Conv2d(8, 4, 3, stride=2)).to(dev)
    def f(x):
        y = m(x)
        y.sum().backward()
        return y
    return f, [torch.randn(2, 3, 16, 16, device=dev, requires_grad=True)], {}

@case
def g_random_externs():
    def f(x, a, b, c):
        r = torch.rand_like(x)
        d = torch.nn.functional.dropout(x, 0.5, training=True)
        return r, d, torch.baddbmm(a, b, c), torch.bmm(b, c), torch._int_mm(torch.randint(-8, 8, (32, 32), device=x.device, dtype=torch.int8), torch.randint(-8, 8, (32, 32), device=x.device, dtype=torch.int8))
    return f, [torch.randn(8, 8, device=dev), torch.randn(2, 4, 4, device=dev), torch.randn(2, 4, 8, device=dev), torch.randn(2, 8, 4, device=dev)], {}

@case
def g_user_triton():
    import triton, triton.language as tl
    @triton.jit
    def add_kernel(a, b, o, n, BLOCK: tl.constexpr):
        p = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = p < n
        tl.store(o + p, tl.load(a + p, mask=m) + tl.load(b + p, mask=m), mask=m)
    def f(x, y):
        o = torch.empty_like(x)
        n = x.numel()
        add_kernel[(triton.cdiv(n, 64),)](x, y, o, n, BLOCK=64)
        return o * 2, torch._foreach_add([x, y], 1.0)
    return f, [torch.randn(100, device=dev), torch.randn(100, device=dev)], {}

@case
def g_dyn_reduce():
    def f(x, y):
        a = torch.softmax(x, -1) @ y
        return a.view(-1)[: x.shape[0]], a.amax(0), torch.nn.functional.pad(x, (1, 2))
    return f, [torch.randn(12, 40, device=dev), torch.randn(40, 7, device=dev)], {"dynamic": True}

name = sys.argv[2]
os.makedirs(f"{out}/{name}", exist_ok=True)
torch.manual_seed(0)
fn, args, kw = C[name]()
meta = {"torch": torch.__version__, "case": name}
for mode in ["cpp", "py"]:
    torch._dynamo.reset()
    icfg.cpp_wrapper = mode == "cpp"
    try:
        opt = torch.compile(fn, **kw)
        _, codes = run_and_get_code(opt, *args)
        for i, c in enumerate(codes):
            with open(f"{out}/{name}/" + (f"cpp_wrapper_{i}.py" if mode == "cpp" else f"output_code_{i}.py"), "w") as fh:
                fh.write(c)
        meta[mode] = len(codes)
    except Exception as e:
        meta[mode + "_error"] = traceback.format_exc()[-3000:]
with open(f"{out}/{name}/meta.json", "w") as fh:
    json.dump(meta, fh, indent=1)
print(name, {k: (v if not k.endswith("error") else v[-300:]) for k, v in meta.items()})
