#!/usr/bin/env python3
"""End-to-end: every Inductor workload of the corpus at its recorded size, compiled by fxkit and
run with --backend opencl on the GPU, beside PyTorch eager and Inductor's own compiled module
(the corpus's output_code_0.py) on the same inputs, in the same job on the same GPU.

For each workload: Inductor's get_args() makes the inputs; eager runs fxkit's `--to fxpy` export
of the post-grad ATen graph (torch.ops.aten calls, the graph Inductor compiled); its outputs and
the inputs go to safetensors files; `fxkit run` runs the compiled kernels on those inputs. The
check: every floating-point output is compared with the same graph evaluated eagerly in float64;
fxkit passes when its error is at most 4x PyTorch eager's own float32 error plus 1e-5 (at these
sizes float32 GEMMs with long sums differ from each other by more than the corpus's 1e-4, so a
fixed tolerance against eager float32 would test summation order, not correctness). Integer
outputs must be equal, except RNG seeds and offsets (0-d int64), which are not comparable. Times: PyTorch with CUDA events (mean of 20 calls after 3 warm-up calls); fxkit
device-resident (`--resident`, issue 23 item 1: inputs uploaded once, outputs read after the
last call, as PyTorch's inputs and results live on the GPU) timed the same way: OpenCL
timestamps on the queue around each call (the mean of the calls after the first), beside its
wall time per call; its generated kernels' time from device events (--profile, per call); and
the wall time per call of the old way, copying inputs and outputs on every call.

Results go to stdout and, as JSON lines and the table, to $OUT/e2e_gpu.json and
$OUT/e2e_gpu.md where OUT is set (the device machine's output folder).

Usage: e2e_gpu.py FXKIT CORPUS_INDUCTOR_DIR WORKDIR [WORKLOAD,...]
       e2e_gpu.py --table ROWS... (the tables of earlier runs' JSON lines, as one)
"""
import importlib.util
import json
import os
import re
import struct
import subprocess
import sys

def render(rows):
    """The tables of `rows` (one dict per workload) as Markdown lines."""
    lines = ["| workload | check (error / eager's) | fxkit generated kernels (ms) | "
             "fxkit device per call, resident (ms) | fxkit wall per call, resident (ms) | "
             "fxkit wall per call, copying (ms) | extern: CLBlast / GEMM template "
             "(split along k, fused epilogues) / device / host | "
             "PyTorch eager (ms) | torch.compile (ms) | max-autotune (ms) | fxkit device / compile |",
             "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |"]
    ratios = []
    for r in rows:
        f = lambda k: f"{r[k]:.3f}" if k in r else "-"
        ratio = "-"
        if "fxkit_device_ms" in r and r.get("compile_ms"):
            ratios.append(r["fxkit_device_ms"] / r["compile_ms"])
            ratio = f"{ratios[-1]:.2f}"
        check = r.get("check", r.get("error", "-"))
        if "worst_error_vs_eager" in r:
            check += f" ({r['worst_error_vs_eager']:.2f}x)"
        lines.append(f"| {r['workload']} | {check} | {f('fxkit_kernel_ms')} | {f('fxkit_device_ms')} | "
                     f"{f('fxkit_wall_ms')} | {f('fxkit_copying_wall_ms')} | "
                     f"{r.get('blas', '-')} / {r.get('gemm_template', '-')} "
                     f"({r.get('gemm_split', '-')} split, {r.get('gemm_epilogues', '-')} epilogues) / "
                     f"{r.get('device_externs', '-')} / "
                     f"{r.get('host_externs', '-')} | {f('eager_ms')} | {f('compile_ms')} | "
                     f"{f('autotune_ms')} | {ratio} |")
    # Where a call's device time goes, and the cold and warm first calls (issue 23's acceptance).
    lines += ["", "| workload | device per call, profiled (ms) | generated kernels (ms) | "
              "GEMM template (ms) | CLBlast (ms) | device extern kernels (ms) | rest: gaps (ms) | "
              "first call cold (s) | first call warm (s) | cold / warm |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        f = lambda k: f"{r[k]:.3f}" if k in r else "-"
        parts = ("fxkit_kernel_ms", "gemm_template_ms", "clblast_ms", "device_kernels_ms")
        rest = (f"{r['profiled_device_ms'] - sum(r[k] for k in parts):.3f}"
                if all(k in r for k in parts + ("profiled_device_ms",)) else "-")
        speedup = (f"{r['first_call_s'] / r['warm_first_call_s']:.1f}"
                   if r.get("warm_first_call_s") and "first_call_s" in r else "-")
        lines.append(f"| {r['workload']} | {f('profiled_device_ms')} | {f('fxkit_kernel_ms')} | "
                     f"{f('gemm_template_ms')} | {f('clblast_ms')} | {f('device_kernels_ms')} | {rest} | "
                     f"{f('first_call_s')} | {f('warm_first_call_s')} | {speedup} |")
    if any("alt_device_ms" in r for r in rows):  # the second configuration, side by side
        alt = os.environ.get("FXKIT_E2E_ALT_ENV", "the second configuration")
        lines += ["", f"| workload | device per call (ms) | with {alt} "
                  "(ms) | ratio | its check (error / eager's) |", "| --- | ---: | ---: | ---: | --- |"]
        for r in rows:
            if "alt_device_ms" in r and "fxkit_device_ms" in r:
                alt_check = r.get("alt_check", "-")
                if "alt_worst_error_vs_eager" in r:
                    alt_check += f" ({r['alt_worst_error_vs_eager']}x)"
                lines.append(f"| {r['workload']} | {r['fxkit_device_ms']:.3f} | "
                             f"{r['alt_device_ms']:.3f} | "
                             f"{r['fxkit_device_ms'] / r['alt_device_ms']:.3f} | {alt_check} |")
    if ratios:  # the acceptance: geometric mean of fxkit / torch.compile, and the worst
        geo = 1.0
        for x in ratios:
            geo *= x
        lines.append(f"\nfxkit device / torch.compile over {len(ratios)} workloads: geometric mean "
                     f"{geo ** (1 / len(ratios)):.2f}, worst {max(ratios):.2f}")
    return lines


if len(sys.argv) > 2 and sys.argv[1] == "--table":
    # Tables of rows other runs wrote (their e2e_gpu.json, or stdout with a JSON line per
    # workload), as one: the acceptance's geometric mean over every model of several jobs.
    rows = []
    for path in sys.argv[2:]:
        with open(path) as f:
            rows += [json.loads(line) for line in f if line.startswith('{"workload"')]
    print("\n".join(render(rows)))
    sys.exit(0)

import torch

# fxkit computes float32 products in float32 (CLBlast); PyTorch must not use TF32 for the
# comparison (cuDNN convolutions allow it by default).
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
fxkit, corpus, work = sys.argv[1], sys.argv[2], sys.argv[3]
CALLS = int(os.environ.get("FXKIT_E2E_CALLS", "20"))  # fxkit calls per timing
only = set(sys.argv[4].split(",")) if len(sys.argv) > 4 else None
os.makedirs(work, exist_ok=True)

DTYPES = {torch.float32: "F32", torch.float16: "F16", torch.bfloat16: "BF16", torch.float64: "F64",
          torch.int64: "I64", torch.int32: "I32", torch.bool: "BOOL", torch.uint8: "U8"}


# The names FX's printed code takes from its module's globals (torch.fx.graph._custom_builtins).
PRELUDE = "import torch\nfrom torch import device\nimport operator\nfrom math import inf, nan\n"


def write_safetensors(path, prefix, values):
    header, blobs, offset, meta = {}, [], 0, {}
    for i, v in enumerate(values):
        name = f"{prefix}_{i}"
        if isinstance(v, torch.Tensor):
            t = v.detach().contiguous().cpu()
            data = t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b""
            header[name] = {"dtype": DTYPES[t.dtype], "shape": list(t.shape),
                            "data_offsets": [offset, offset + len(data)]}
            blobs.append(data)
            offset += len(data)
        elif isinstance(v, (int, float, bool)):
            meta[name] = str(v)
    if meta:
        header["__metadata__"] = meta
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def cuda_ms(fn, calls=20):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / calls


def read_safetensors(path):
    raw = open(path, "rb").read()
    n = struct.unpack("<Q", raw[:8])[0]
    header, data = json.loads(raw[8:8 + n]), raw[8 + n:]
    back = {v: k for k, v in DTYPES.items()}
    out = {}
    for k, v in header.items():
        if k == "__metadata__":
            continue
        a, b = v["data_offsets"]
        dtype = back[v["dtype"]]
        t = (torch.frombuffer(bytearray(data[a:b]), dtype=torch.uint8).view(dtype) if b > a
             else torch.empty(0, dtype=dtype))
        out[k] = t.reshape(v["shape"])
    return out


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# One fxkit run may not hold the whole job: a model whose first call (kernel builds, tuning)
# or calls take too long is reported as such and the next model still runs.
RUN_TIMEOUT = float(os.environ.get("FXKIT_E2E_TIMEOUT", "150"))


def fxkit_run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        return subprocess.CompletedProcess(cmd, 124, "", err + f"\ntimed out after {RUN_TIMEOUT} s")


def attention_f64(q, k, v, bias, compute_lse, dropout_p=0.0, is_causal=False, scale=None):
    """aten._scaled_dot_product_efficient_attention's results (output, logsumexp padded to a
    multiple of 32 rows, seed, offset) by matrix products, in the inputs' dtype."""
    assert dropout_p == 0.0, "the float64 reference has no dropout"
    s = (q @ k.transpose(-2, -1)) * (scale if scale is not None else q.shape[-1] ** -0.5)
    if bias is not None:
        s = s + bias
    if is_causal:
        L, S = s.shape[-2], s.shape[-1]
        s = s.masked_fill(torch.ones(L, S, dtype=torch.bool, device=s.device).triu(1), float("-inf"))
    lse = torch.logsumexp(s, -1)
    out = torch.softmax(s, -1) @ v
    rows = (lse.shape[-1] + 31) // 32 * 32 if compute_lse else 0
    lse = torch.nn.functional.pad(lse, (0, rows - lse.shape[-1]))[..., :rows]
    empty = torch.empty((), dtype=torch.int64, device=q.device)
    return out, lse, empty, empty


rows = []
for w in sorted(os.listdir(corpus)):
    d = os.path.join(corpus, w)
    code, graph = os.path.join(d, "output_code_0.py"), os.path.join(d, "aten_post_0.graph.txt")
    if not (os.path.exists(code) and os.path.exists(graph)) or (only and w not in only):
        continue
    row = {"workload": w}
    try:
        compiled = load_module(code, f"inductor_{w}")
        args = compiled.get_args()
        row["compile_ms"] = cuda_ms(lambda: compiled.call(list(args)))
        tuned = os.path.join(d, "output_code_max_autotune_0.py")
        if os.path.exists(tuned):  # mode="max-autotune" (zoo_realistic.py --max-autotune)
            autotuned = load_module(tuned, f"inductor_tuned_{w}")
            row["autotune_ms"] = cuda_ms(lambda: autotuned.call(list(args)))
        fxpy = os.path.join(work, f"{w}_eager.py")
        subprocess.run([fxkit, "convert", graph, "--to", "fxpy", "-o", fxpy], check=True)
        src = open(fxpy).read()
        env = {"torch": torch, "__name__": f"eager_{w}"}
        exec(compile(PRELUDE + src, fxpy,
                     "exec"), env)
        cls = [v for v in env.values() if isinstance(v, type) and issubclass(v, torch.nn.Module)
               and v is not torch.nn.Module][0]
        module = cls()
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        with torch.no_grad():
            out = module(*args)
            row["eager_ms"] = cuda_ms(lambda: module(*args))
        outs = list(out) if isinstance(out, (tuple, list)) else [out]

        def module64():
            """The module for the float64 reference: CUDA's efficient attention has no float64
            kernel, so its calls become the same attention written as matrix products."""
            name = "torch.ops.aten._scaled_dot_product_efficient_attention.default"
            # Casts to float32 the model wrote (RMSNorm's `.to(torch.float32)`, rotary tables)
            # would mix float32 into the float64 products: they become float64 casts.
            src64 = src.replace(name, "_attention_f64").replace("torch.float32", "torch.float64")
            if src64 == src:
                return module
            env64 = dict(env, _attention_f64=attention_f64)
            exec(compile(PRELUDE + src64, fxpy, "exec"), env64)
            return [v for v in env64.values() if isinstance(v, type) and
                    issubclass(v, torch.nn.Module) and v is not torch.nn.Module][0]()
        inp, exp = os.path.join(work, f"{w}.in.safetensors"), os.path.join(work,
                                                                            f"{w}.out.safetensors")
        write_safetensors(inp, "arg", args)
        write_safetensors(exp, "out", outs)
        got = os.path.join(work, f"{w}.fxkit.safetensors")
        base = [fxkit, "run", graph, "--backend", "opencl", "--device", "gpu", "--inputs", inp,
                "--repeat", str(CALLS), "--stats"]
        # Device-resident, as torch.compile runs: the numbers checked are this run's.
        r = fxkit_run(base + ["--resident", "-o", got])
        # The same with every launch profiled (generated kernels' time), and copying every call
        # (FXKIT_E2E_COPYING=0 leaves that out: at realistic sizes it only repeats the uploads).
        rp = fxkit_run(base + ["--resident", "--profile"])
        rc = (fxkit_run(base) if os.environ.get("FXKIT_E2E_COPYING", "1") != "0" else
              subprocess.CompletedProcess(base, 0, "", ""))
        # A second configuration side by side (FXKIT_E2E_ALT_ENV=NAME=VALUE, such as
        # FXKIT_GEMM_EPILOGUE=0): its device time per call, resident, in the same job, and its
        # outputs checked as the first run's (below).
        alt_got = None
        if os.environ.get("FXKIT_E2E_ALT_ENV"):
            key, _, value = os.environ["FXKIT_E2E_ALT_ENV"].partition("=")
            try:
                alt_got = os.path.join(work, f"{w}.fxkit-alt.safetensors")
                ra = subprocess.run(base + ["--resident", "-o", alt_got], capture_output=True,
                                    text=True, timeout=RUN_TIMEOUT,
                                    env=dict(os.environ, **{key: value}))
                if ra.returncode != 0:
                    alt_got = None
                    row["alt_check"] = f"exit {ra.returncode}"
                alt = re.search(r"device time per run \(queue events\): first [0-9.e-]+ s, "
                                r"later runs ([0-9.e-]+) s each", ra.stderr)
                if alt:
                    row["alt_device_ms"] = float(alt.group(1)) * 1e3
            except subprocess.TimeoutExpired:
                alt_got = None
                row["alt_check"] = "timed out"
        # Where a first call's time goes: kernels built (and their compile time), tuning.
        b = re.search(r"kernels built (\d+), from cache (\d+); configurations tuned (\d+).*"
                      r"build ([0-9.e-]+) s", r.stderr)
        if b:
            row["kernels_built"], row["tuned"] = int(b.group(1)), int(b.group(3))
            row["build_s"] = float(b.group(4))
        first = re.search(r"first run ([0-9.e-]+) s", r.stderr)
        if first:
            row["first_call_s"] = float(first.group(1))
        # The profiled run comes second: its first call finds the kernels and tuning cached.
        warm = re.search(r"first run ([0-9.e-]+) s", rp.stderr)
        if warm:
            row["warm_first_call_s"] = float(warm.group(1))
        # Where a later call's device time goes besides the generated kernels.
        ex = re.search(r"extern ops \(device time(?:, each)?\): GEMM template ([0-9.e-]+) s, "
                       r"CLBlast ([0-9.e-]+) s, device kernels ([0-9.e-]+) s", rp.stderr)
        if ex:
            row["gemm_template_ms"], row["clblast_ms"], row["device_kernels_ms"] = (
                float(g) * 1e3 for g in ex.groups())
        # The profiled run's own device time per call: what its parts add up to.
        pdv = re.search(r"later runs ([0-9.e-]+) s each; host", rp.stderr)
        if pdv:
            row["profiled_device_ms"] = float(pdv.group(1)) * 1e3
        if r.returncode != 0:
            row["check"] = f"exit {r.returncode}"
            row["detail"] = r.stderr[-400:]
        else:
            def as_f64(dev):
                return [a.to(dev).double() if isinstance(a, torch.Tensor) and a.is_floating_point()
                        else a.to(dev) if isinstance(a, torch.Tensor) else a for a in args]
            with torch.no_grad():
                try:
                    ref = module64()(*as_f64("cuda"))
                except RuntimeError as e:
                    # An op with no float64 CUDA kernel: fxkit's reference interpreter, which
                    # computes in double on the host (minutes for a large model: time-limited),
                    # is the reference; the row says why.
                    row["reference_reason"] = str(e).splitlines()[0][:200]
                    ref_path = os.path.join(work, f"{w}.interp.safetensors")
                    ri = fxkit_run([fxkit, "run", graph, "--inputs", inp, "-o", ref_path])
                    if ri.returncode != 0:
                        raise RuntimeError("float64 reference: " + ri.stderr[-200:])
                    table = read_safetensors(ref_path)
                    ref = [table.get(f"out_{i}") for i in range(len(outs))]
                    row["reference"] = "fxkit interp"
            ref = list(ref) if isinstance(ref, (tuple, list)) else [ref]

            def compare(path, factor):
                """fxkit's outputs in `path` against the float64 reference: the failures (error
                above `factor` times eager float32's plus 1e-5) and the worst error ratio."""
                fx = read_safetensors(path)
                bad, worst = [], 0.0
                for i, (e, f64) in enumerate(zip(outs, ref)):
                    if not isinstance(e, torch.Tensor) or f64 is None:
                        continue
                    g = fx[f"out_{i}"].to(e.device)
                    if not e.is_floating_point():
                        if e.dim() == 0 and e.dtype == torch.int64:
                            continue  # an RNG seed or offset
                        if not torch.equal(g, e):
                            bad.append(f"out_{i} differs")
                        continue
                    f64 = f64.to(e.device)
                    eager_err = (e.double() - f64).abs().max().item() if e.numel() else 0.0
                    fx_err = (g.double() - f64).abs().max().item() if e.numel() else 0.0
                    worst = max(worst, fx_err / (eager_err + 1e-12)) if eager_err > 0 else worst
                    if fx_err > factor * eager_err + 1e-5:
                        bad.append(f"out_{i}: fxkit error {fx_err:.3g}, eager {eager_err:.3g}")
                return bad, worst

            bad, worst = compare(got, 4)
            row["check"] = "ok" if not bad else "FAIL"
            row["worst_error_vs_eager"] = round(worst, 2)
            if bad:
                row["detail"] = bad[:4]
            if alt_got:
                # The second configuration's outputs too: FXKIT_E2E_ALT_TOLERANCE times eager's
                # error (default 16: FXKIT_MATMUL_PRECISION=high's 3xTF32 sums are about 8x
                # float32's error).
                alt_bad, alt_worst = compare(
                    alt_got, float(os.environ.get("FXKIT_E2E_ALT_TOLERANCE", "16")))
                row["alt_check"] = "ok" if not alt_bad else "FAIL"
                row["alt_worst_error_vs_eager"] = round(alt_worst, 2)
                if alt_bad:
                    row["alt_detail"] = alt_bad[:4]
        wall = r"first run [0-9.e-]+ s, later runs ([0-9.e-]+) s each"
        m = re.search(wall, r.stderr)
        mc = re.search(wall, rc.stderr)
        dv = re.search(r"device time per run \(queue events\): first [0-9.e-]+ s, later runs "
                       r"([0-9.e-]+) s each", r.stderr)
        k = re.search(r"later runs' kernels ([0-9.e-]+) s each", rp.stderr)
        t = re.search(r"runs: inputs copied to the device (\d+) .*kept there (\d+); outputs read "
                      r"(\d+) .*device allocations (\d+); host waits (\d+)", r.stderr)
        s = re.search(r"CLBlast calls (\d+), (?:GEMM template calls (\d+)"
                      r"(?: \((?:split along k (\d+), )?epilogues fused (\d+)\))?, )?"
                      r"(?:device extern calls (\d+), )?host extern calls (\d+)", r.stderr)
        if m:
            row["fxkit_wall_ms"] = float(m.group(1)) * 1e3
        if mc:
            row["fxkit_copying_wall_ms"] = float(mc.group(1)) * 1e3
        if dv:
            row["fxkit_device_ms"] = float(dv.group(1)) * 1e3
        if k:
            row["fxkit_kernel_ms"] = float(k.group(1)) * 1e3
        if t:
            row["uploads"], row["kept"], row["reads"], row["allocations"], row["waits"] = (
                int(g) for g in t.groups())
        # What ran each product shape (`--stats`: "opencl: gemm SHAPE: PLAN"), to see a tile
        # choice change between jobs.
        row["gemm_plans"] = dict(re.findall(r"^opencl: gemm (\S+): (\S+)$", r.stderr, re.M))
        if s:
            row["blas"], row["host_externs"] = int(s.group(1)), int(s.group(6))
            row["gemm_template"] = int(s.group(2) or 0)
            row["gemm_split"] = int(s.group(3) or 0)
            row["gemm_epilogues"] = int(s.group(4) or 0)
            row["device_externs"] = int(s.group(5) or 0)
    except Exception as e:  # a workload that fails is reported, the others still run
        row["error"] = repr(e)[:300]
    rows.append(row)
    print(json.dumps(row), flush=True)

lines = render(rows)
print("\n".join(lines))
if os.environ.get("OUT"):
    with open(os.path.join(os.environ["OUT"], "e2e_gpu.json"), "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in rows))
    with open(os.path.join(os.environ["OUT"], "e2e_gpu.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
