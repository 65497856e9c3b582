#!/usr/bin/env python3
"""Issue 23 item 2: attention forward at the zoo's realistic sizes (zoo_realistic.py's), float32,
fxkit's two device routes against PyTorch's efficient attention on the same GPU.

For each shape, a one-node FX graph (`_scaled_dot_product_efficient_attention` on q, k, v viewed
as [B, H, L, E] from Hugging Face's [B, L, H, E] projections, as Inductor's CUDA graphs call it)
runs through `fxkit run --backend opencl --device gpu --resident --profile --repeat 20` twice:
with FXKIT_ATTENTION=kernel (the tiled attention kernel) and =gemm (two GEMM template
products around a row softmax, DeviceAttentionGemm.h). The time per call is the profiled
device time of later runs. Both runs write their outputs, which are compared with each other
and with torch's (max abs difference). torch.nn.functional.scaled_dot_product_attention with
the efficient backend is timed with CUDA events (mean of 20 calls after 3 warm-up calls).

Usage: attention_shapes.py FXKIT WORKDIR [NAME_SUBSTRING]  (only the shapes whose name holds it;
FXKIT_ATTENTION_ROUTES=kernel times one route)
Results: stdout, and $OUT/attention_shapes.md where OUT is set.
"""
import json
import os
import re
import struct
import subprocess
import sys

fxkit, work = sys.argv[1], sys.argv[2]
only = sys.argv[3] if len(sys.argv) > 3 else ""
os.makedirs(work, exist_ok=True)

# (name, B, H, L, E, causal): the models' self-attention at zoo_realistic.py's sizes. causal
# "mask": causality as an added float mask [B, 1, L, L] of 0 and -inf expanded over the heads,
# as gpt_neox's and llama's graphs pass it (is_causal False).
SHAPES = [
    ("bert (8 x 512, 16 heads)", 8, 16, 512, 64, False),
    ("gpt_neox (4 x 1024, 16 heads, causal)", 4, 16, 1024, 64, True),
    ("gpt_neox (4 x 1024, 16 heads, causal as an added mask)", 4, 16, 1024, 64, "mask"),
    ("llama (4 x 512, 32 heads, causal)", 4, 32, 512, 64, True),
    ("llama (4 x 512, 32 heads, causal as an added mask)", 4, 32, 512, 64, "mask"),
    ("vit (16 x 197, 12 heads)", 16, 12, 197, 64, False),
    ("heads of 128 (4 x 1024, 8 heads, causal)", 4, 8, 1024, 128, True),
    ("heads of 128 (4 x 1024, 8 heads)", 4, 8, 1024, 128, False),
]


def graph(B, H, L, E, causal):
    blhe = f"f32[{B}, {L}, {H}, {E}][{L * H * E}, {H * E}, {E}, 1]cpu"
    lines = ["graph():"]
    for n in "xyz":
        lines.append(f"    %{n} : Tensor \"{blhe}\"[num_users=1] = placeholder[target={n}]")
    bias = "None"
    if causal == "mask":
        lines.append(f"    %m : Tensor \"f32[{B}, 1, {L}, {L}][{L * L}, {L * L}, {L}, 1]cpu\""
                     "[num_users=1] = placeholder[target=m]")
    for n, src in zip("qkv", "xyz"):
        lines.append(f"    %{n} : [num_users=1] = call_function[target=torch.ops.aten.permute.default]"
                     f"(args = (%{src}, [0, 2, 1, 3]), kwargs = {{}})")
    if causal == "mask":
        lines.append("    %b : [num_users=1] = call_function[target=torch.ops.aten.expand.default]"
                     f"(args = (%m, [{B}, {H}, {L}, {L}]), kwargs = {{}})")
        bias = "%b"
    lines.append("    %r : [num_users=1] = call_function[target=torch.ops.aten."
                 f"_scaled_dot_product_efficient_attention.default](args = (%q, %k, %v, {bias}, "
                 f"False), kwargs = {{is_causal: {causal is True}}})")
    lines.append("    %o : [num_users=1] = call_function[target=operator.getitem](args = (%r, 0), "
                 "kwargs = {})")
    lines.append("    return (o,)")
    return "\n".join(lines) + "\n"


def write_inputs(path, tensors):
    """safetensors of float32 tensors arg_0.. (torch tensors on the host)."""
    header, blobs, offset = {}, [], 0
    for i, t in enumerate(tensors):
        data = t.contiguous().numpy().tobytes()
        header[f"arg_{i}"] = {"dtype": "F32", "shape": list(t.shape),
                              "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    h = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))


def read_output(path, torch):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        body = f.read()
    meta = header["out_0"]
    a, b = meta["data_offsets"]
    return torch.frombuffer(bytearray(body[a:b]), dtype=torch.float32).reshape(meta["shape"])


try:
    import torch
    have_torch = torch.cuda.is_available()
except ImportError:
    have_torch = False

rows = []
for name, B, H, L, E, causal in SHAPES:
    if only not in name:
        continue
    path = os.path.join(work, f"attn_{B}_{H}_{L}_{E}_{causal}.txt")
    with open(path, "w") as f:
        f.write(graph(B, H, L, E, causal))
    flop = 4.0 * B * H * L * L * E * (0.5 if causal else 1.0)  # the unmasked scores' work
    row = {"shape": name, "gflop": flop / 1e9}
    inputs = os.path.join(work, "inputs.safetensors")
    xs = None
    if have_torch:
        torch.manual_seed(0)
        xs = [torch.randn(B, L, H, E) for _ in range(3)]
        mask = None
        if causal == "mask":
            mask = torch.zeros(L, L).masked_fill(torch.ones(L, L, dtype=torch.bool).triu(1),
                                                 float("-inf")).expand(B, 1, L, L).contiguous()
        write_inputs(inputs, xs + ([mask] if mask is not None else []))
    outs = {}
    for route in os.environ.get("FXKIT_ATTENTION_ROUTES", "kernel,gemm").split(","):
        env = dict(os.environ, FXKIT_CACHE_DIR=os.path.join(work, "cache"))
        env["FXKIT_ATTENTION"] = route
        out = os.path.join(work, f"out_{route}.safetensors")
        cmd = [fxkit, "run", path, "--backend", "opencl", "--device", "gpu", "--resident",
               "--profile", "--repeat", "20", "--stats", "-o", out]
        if xs is not None:
            cmd += ["--inputs", inputs]
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        # fxkit's stderr (notes, FXKIT_TUNE_LOG's timings) beside the outputs.
        with open(os.path.join(work, f"stderr_{B}_{H}_{L}_{E}_{causal}_{route}.log"), "w") as f:
            f.write(r.stderr)
        if os.environ.get("OUT"):
            with open(os.path.join(os.environ["OUT"], "attention_stderr.log"), "a") as f:
                f.write(f"== {name} ({route})\n{r.stderr}")
        m = re.search(r"later runs ([0-9.e-]+) s each", r.stderr)
        if r.returncode != 0 or not m:
            row[f"{route}_error"] = r.stderr[-300:]
            continue
        row[f"{route}_ms"] = float(m.group(1)) * 1e3
        if have_torch:
            outs[route] = read_output(out, torch)
    if have_torch:
        q, k, v = (x.cuda().permute(0, 2, 1, 3) for x in xs)
        bias = mask.cuda().expand(B, H, L, L) if mask is not None else None
        from torch.nn.attention import SDPBackend, sdpa_kernel
        with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
            fn = lambda: torch.nn.functional.scaled_dot_product_attention(
                q, k, v, attn_mask=bias, is_causal=causal is True)
            ref = fn()
            for _ in range(3):
                fn()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(20):
                fn()
            end.record()
            torch.cuda.synchronize()
            row["torch_ms"] = start.elapsed_time(end) / 20
        ref = ref.cpu()
        for route, o in outs.items():
            row[f"{route}_max_abs_diff"] = (o - ref).abs().max().item()
    rows.append(row)
    print(json.dumps(row), flush=True)

lines = ["| attention | GFLOP | torch efficient ms | fxkit kernel ms | fxkit GEMM route ms | "
         "GEMM route TFLOP/s | GEMM route / torch | max abs diff vs torch (kernel, GEMM) |",
         "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
for r in rows:
    f = lambda v: f"{v:.3f}" if v is not None else "-"
    g, t, k = r.get("gemm_ms"), r.get("torch_ms"), r.get("kernel_ms")
    d = lambda key: f"{r[key]:.1e}" if key in r else "-"
    lines.append(f"| {r['shape']} | {r['gflop']:.1f} | {f(t)} | {f(k)} | {f(g)} | "
                 f"{(r['gflop'] / g if g else 0):.1f} | {(f'{g / t:.2f}' if g and t else '-')} | "
                 f"{d('kernel_max_abs_diff')}, {d('gemm_max_abs_diff')} |")
print("\n".join(lines))
if os.environ.get("OUT"):
    with open(os.path.join(os.environ["OUT"], "attention_shapes.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
