"""PyTorch eager and torch.compile times of the OpenCL benchmark graphs, on the same GPU, for
the ratio in bench/README.md. Usage: torch_eager.py N"""
import sys, time, torch

n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
x = torch.randn(n, n, device="cuda")
y = torch.randn(n, n, device="cuda")
b = torch.randn(n, device="cuda")
fns = {
    "pointwise": lambda: torch.relu(x * y + x),
    "bias": lambda: torch.relu(x + b),
    "softmax": lambda: torch.softmax(x, 1),
    "layernorm": lambda: torch.nn.functional.layer_norm(x, (n,)),
    "softmax_r1024": lambda: torch.softmax(x.view(-1, 1024), 1),
    "layernorm_r1024": lambda: torch.nn.functional.layer_norm(x.view(-1, 1024), (1024,)),
    "rowsum": lambda: x.sum(1),
    "colsum": lambda: x.sum(0),
}
def bench(f, reps=20):
    f(); torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(reps):
        f()
    e.record(); torch.cuda.synchronize()
    return s.elapsed_time(e) / reps / 1e3
for name, f in fns.items():
    eager = bench(f)
    try:
        compiled = bench(torch.compile(f))
    except Exception as ex:  # the benchmark still reports eager
        compiled = float("nan")
    print(f"torch {name}: eager {eager*1e3:.3f} ms, compiled {compiled*1e3:.3f} ms")
