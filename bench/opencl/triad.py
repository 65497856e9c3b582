"""The bandwidth probe the memory-bound kernels are compared with (issue 23 item 4): a STREAM
triad a = b + s * c on N x N float32 tensors through PyTorch on the same GPU (one fused CUDA kernel,
torch.add with alpha), 3 N^2 * 4 bytes per call, CUDA events, best mean of 5 batches of 20 calls.
Usage: triad.py N"""
import sys, torch

n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
a, b, c = (torch.randn(n, n, device="cuda") for _ in range(3))
def call():
    torch.add(b, c, alpha=3.0, out=a)
call(); torch.cuda.synchronize()
best = float("inf")
for _ in range(5):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(20):
        call()
    e.record(); torch.cuda.synchronize()
    best = min(best, s.elapsed_time(e) / 20 / 1e3)
print(f"triad N={n}: {best*1e3:.3f} ms, {3 * n * n * 4 / best / 1e9:,.0f} GB/s")
