#!/usr/bin/env python3
"""Runs fxkit's exported Python wrappers (`fxkit compile G --to wrapper-py`) on the reference
workloads' recorded inputs and compares what `call()` returns with the recorded outputs, at the
corpus tolerance (float32/float64 1e-4 relative and absolute, float16 1e-3, bfloat16 1.6e-2,
integers and bools exact).

    check_wrapper_py.py --reference DIR (--fxkit BIN | --modules DIR) [--device cpu|cuda|all]

Exits 0 when every workload matches, 1 when one does not, 77 (CTest's SKIP_RETURN_CODE) when
PyTorch is not installed. Needs only PyTorch: safetensors files are read here.
"""

import argparse
import importlib.util
import json
import os
import struct
import subprocess
import sys
import tempfile
import traceback

SKIP = 77

try:
    import torch
except ImportError:
    print("SKIPPED: PyTorch is not installed (python3 -c 'import torch' fails)")
    sys.exit(SKIP)

DTYPES = {
    "F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
    "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8,
    "U8": torch.uint8, "BOOL": torch.bool,
}


def read_safetensors(path):
    """Tensors by name and the `__metadata__` dict."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    body = bytearray(data[8 + n:])
    meta = header.pop("__metadata__", {}) or {}
    tensors = {}
    for name, info in header.items():
        start, end = info["data_offsets"]
        dtype = DTYPES[info["dtype"]]
        raw = torch.frombuffer(body[start:end], dtype=torch.uint8) if end > start else \
            torch.empty(0, dtype=torch.uint8)
        tensors[name] = raw.view(dtype).reshape(info["shape"]).clone()
    return tensors, meta


def tolerance(dtype):
    if dtype == torch.bfloat16:
        return 1.6e-2, 1e-3
    if dtype == torch.float16:
        return 1e-3, 1e-3
    if dtype.is_floating_point:
        return 1e-4, 1e-4
    return 0, 0


def load_inputs(path, device):
    tensors, meta = read_safetensors(path)
    args = []
    for i in range(len(tensors) + len(meta)):
        name = f"arg_{i}"
        if name in tensors:
            args.append(tensors[name].to(device))
        elif name in meta:
            args.append(int(meta[name]))
        else:
            break
    return args


def compare(got, path):
    tensors, meta = read_safetensors(path)
    problems = []
    for i, value in enumerate(got):
        name = f"out_{i}"
        if isinstance(value, torch.Tensor):
            if name not in tensors:
                problems.append(f"{name}: returned a tensor, the reference has none")
                continue
            want = tensors[name]
            value = value.detach().cpu()
            if value.dtype != want.dtype or value.shape != want.shape:
                problems.append(f"{name}: got {value.dtype}{list(value.shape)}, "
                                f"want {want.dtype}{list(want.shape)}")
                continue
            rtol, atol = tolerance(want.dtype)
            try:
                torch.testing.assert_close(value, want, rtol=rtol, atol=atol, equal_nan=True)
            except AssertionError as e:
                problems.append(f"{name}: " + str(e).replace("\n", " "))
        elif value is None:
            if name in tensors or name in meta:
                problems.append(f"{name}: returned None")
        else:
            want = meta.get(name)
            if want is None or str(want).lower() != str(value).lower():
                problems.append(f"{name}: returned {value!r}, want {want!r}")
    expected = len([k for k in tensors if k.startswith("out_")]) + \
        len([k for k in meta if k.startswith("out_")])
    returned = len([v for v in got if v is not None])
    if returned != expected:
        problems.append(f"returned {returned} values, the reference has {expected}")
    return problems


def import_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference", required=True, help="corpus reference/ folder")
    parser.add_argument("--fxkit", help="fxkit binary: compile each fw_0.graph.txt here")
    parser.add_argument("--modules", help="folder with <workload>.py modules already written")
    parser.add_argument("--device", default="all", help="cpu, cuda or all (cuda where present)")
    parser.add_argument("--expect", type=int, default=0, help="fail unless this many workloads")
    opts = parser.parse_args()
    devices = ["cpu", "cuda"] if opts.device == "all" else [opts.device]
    devices = [d for d in devices if d == "cpu" or torch.cuda.is_available()]
    workloads = sorted(d for d in os.listdir(opts.reference)
                       if os.path.exists(os.path.join(opts.reference, d, "fw_0.graph.txt")))
    print(f"torch {torch.__version__}, devices {devices}, {len(workloads)} workloads")
    failures = 0
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for w in workloads:
            folder = os.path.join(opts.reference, w)
            if opts.modules:
                module_path = os.path.join(opts.modules, w + ".py")
            else:
                module_path = os.path.join(tmp, w + ".py")
                r = subprocess.run([opts.fxkit, "compile", os.path.join(folder, "fw_0.graph.txt"),
                                    "--to", "wrapper-py", "-o", module_path],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    print(f"FAIL {w}: fxkit compile: {r.stderr.strip()}")
                    failures += 1
                    continue
            checked += 1
            for device in devices:
                try:
                    module = import_module(module_path, f"wrapper_{w}")
                    args = load_inputs(os.path.join(folder, "fw_0.inputs.safetensors"), device)
                    got = module.call(list(args))
                    if device == "cuda":
                        torch.cuda.synchronize()
                    problems = compare(got, os.path.join(folder, "fw_0.outputs.safetensors"))
                except Exception:  # report every workload, whatever one of them raises
                    problems = [traceback.format_exc(limit=3).strip().replace("\n", "\n    ")]
                if problems:
                    failures += 1
                    print(f"FAIL {w} [{device}]")
                    for p in problems:
                        print("    " + p)
                else:
                    print(f"ok   {w} [{device}]")
    if opts.expect and checked != opts.expect:
        print(f"checked {checked} workloads, expected {opts.expect}")
        return 1
    print(f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
