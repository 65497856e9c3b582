#!/usr/bin/env python3
"""Issue 23 item 3: fxkit's GEMM template against CLBlast and cuBLAS on the matrix products of the
zoo's models at realistic sizes (zoo_realistic.py's), float32 without TF32.

For each shape, a one-node FX graph (x @ w^T, the linear layer's layout Inductor's extern mm
calls see, or a batched product) runs once through `fxkit run --backend opencl --device gpu`
with FXKIT_TUNE_LOG=1 and a tuning budget large enough that every tile shape is timed: the log
gives each tile's and CLBlast's device time (queue timestamps around two calls, after one warm
call). PyTorch's torch.mm / torch.bmm on the same GPU is timed with CUDA events (mean of 20 calls
after 3 warm-up calls). Without torch (or CUDA) only the fxkit columns are filled.

Usage: gemm_shapes.py FXKIT WORKDIR
Results: stdout, and $OUT/gemm_shapes.md and .json where OUT is set.
"""
import json
import os
import re
import subprocess
import sys

fxkit, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)

# (name, batch, m, n, k): tokens x features products of each model's layers.
SHAPES = [
    ("bert qkv/out (8x512 tokens, 1024)", 1, 4096, 1024, 1024),
    ("bert ffn up (1024 -> 4096)", 1, 4096, 4096, 1024),
    ("bert ffn down (4096 -> 1024)", 1, 4096, 1024, 4096),
    ("llama q/o (4x512 tokens, 2048)", 1, 2048, 2048, 2048),
    ("llama k/v (2048 -> 256)", 1, 2048, 256, 2048),
    ("llama gate/up (2048 -> 5632)", 1, 2048, 5632, 2048),
    ("llama down (5632 -> 2048)", 1, 2048, 2048, 5632),
    ("gpt_neox qkv (4x1024 tokens, 1024 -> 3072)", 1, 4096, 3072, 1024),
    ("vit qkv (16x197 tokens, 768 -> 2304)", 1, 3152, 2304, 768),
    ("vit ffn down (3072 -> 768)", 1, 3152, 768, 3072),
    ("attention scores bmm (64 heads x 512 x 512, head 64)", 64, 512, 512, 64),
]


def graph(batch, m, n, k):
    if batch == 1:
        return ("graph():\n"
                f"    %x : Tensor \"f32[{m}, {k}][{k}, 1]cpu\"[num_users=1] = placeholder[target=x]\n"
                f"    %w : Tensor \"f32[{n}, {k}][{k}, 1]cpu\"[num_users=1] = placeholder[target=w]\n"
                "    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default]"
                "(args = (%w, [1, 0]), kwargs = {})\n"
                "    %r : [num_users=1] = call_function[target=torch.ops.aten.mm.default]"
                "(args = (%x, %t), kwargs = {})\n"
                "    return (r,)\n")
    return ("graph():\n"
            f"    %x : Tensor \"f32[{batch}, {m}, {k}][{m * k}, {k}, 1]cpu\"[num_users=1] = "
            "placeholder[target=x]\n"
            f"    %y : Tensor \"f32[{batch}, {n}, {k}][{n * k}, {k}, 1]cpu\"[num_users=1] = "
            "placeholder[target=y]\n"
            "    %t : [num_users=1] = call_function[target=torch.ops.aten.permute.default]"
            "(args = (%y, [0, 2, 1]), kwargs = {})\n"
            "    %r : [num_users=1] = call_function[target=torch.ops.aten.bmm.default]"
            "(args = (%x, %t), kwargs = {})\n"
            "    return (r,)\n")


def torch_ms(batch, m, n, k):
    try:
        import torch
        if not torch.cuda.is_available():
            return None
        torch.backends.cuda.matmul.allow_tf32 = False
        if batch == 1:
            x, w = torch.randn(m, k, device="cuda"), torch.randn(n, k, device="cuda")
            fn = lambda: torch.mm(x, w.t())
        else:
            x, y = torch.randn(batch, m, k, device="cuda"), torch.randn(batch, n, k, device="cuda")
            fn = lambda: torch.bmm(x, y.transpose(1, 2))
        for _ in range(3):
            fn()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(20):
            fn()
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end) / 20
    except ImportError:
        return None


rows = []
env = dict(os.environ, FXKIT_TUNE_LOG="1", FXKIT_TUNE_BUDGET_S="60", FXKIT_GEMM="auto",
           FXKIT_CACHE_DIR=os.path.join(work, "cache"))
for name, batch, m, n, k in SHAPES:
    path = os.path.join(work, f"gemm_{batch}_{m}_{n}_{k}.txt")
    with open(path, "w") as f:
        f.write(graph(batch, m, n, k))
    r = subprocess.run([fxkit, "run", path, "--backend", "opencl", "--device", "gpu", "--stats"],
                       capture_output=True, text=True, env=env, timeout=300)
    trials = {}
    for line in r.stderr.splitlines():
        t = re.match(r"fxkit: gemm \S+ (\S+): ([0-9.]+) ms", line)
        if t:
            trials[t.group(1)] = float(t.group(2))
    flop = 2.0 * batch * m * n * k
    row = {"shape": name, "batch": batch, "m": m, "n": n, "k": k, "gflop": flop / 1e9,
           "rc": r.returncode, "trials": trials, "torch_ms": torch_ms(batch, m, n, k)}
    if r.returncode != 0:
        row["error"] = r.stderr[-400:]
    tiles = {t: v for t, v in trials.items() if t != "library"}
    if tiles:
        row["best_tile"] = min(tiles, key=tiles.get)
        row["template_ms"] = tiles[row["best_tile"]]
    if "library" in trials:
        row["clblast_ms"] = trials["library"]
    rows.append(row)
    print(json.dumps(row), flush=True)

lines = ["| product | GFLOP | cuBLAS (torch) ms | CLBlast ms | template ms (tile) | "
         "template TFLOP/s | template / cuBLAS | template / CLBlast |",
         "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |"]
for r in rows:
    f = lambda v: f"{v:.3f}" if v is not None else "-"
    tm, tt, cl = r.get("template_ms"), r.get("torch_ms"), r.get("clblast_ms")
    lines.append(f"| {r['shape']} | {r['gflop']:.1f} | {f(tt)} | {f(cl)} | {f(tm)} "
                 f"({r.get('best_tile', '-')}) | "
                 f"{(r['gflop'] / tm if tm else 0):.1f} | "
                 f"{(f'{tm / tt:.2f}' if tm and tt else '-')} | "
                 f"{(f'{tm / cl:.2f}' if tm and cl else '-')} |")
print("\n".join(lines))
if os.environ.get("OUT"):
    with open(os.path.join(os.environ["OUT"], "gemm_shapes.json"), "w") as f:
        f.write("\n".join(json.dumps(r) for r in rows) + "\n")
    with open(os.path.join(os.environ["OUT"], "gemm_shapes.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
