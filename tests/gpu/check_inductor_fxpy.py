#!/usr/bin/env python3
"""Checks on an NVIDIA GPU that `fxkit convert output_code.py --to fxpy` gives a module that runs
Inductor's original Triton kernels and computes what the original compiled module computes.

For every Python wrapper file with Triton kernels under CORPUS (`*/output_code_*.py` and
`*/debug/*/output_code.py`): fxkit writes WORK/<name>.py; the original module and fxkit's are
imported; Inductor's `get_args()` makes the inputs (seeded); the original `call(args)` and
fxkit's `GraphModule()(*args)` run on separate clones of them; every output is compared
(shape, dtype, values; outputs that differ between two runs of the original itself, such as
uninitialised philox seeds, are named and not compared). Values: `bitwise` when identical, else the largest absolute difference
relative to the largest reference magnitude; the check passes when that is at most 1e-4
(fxkit's forward launches each kernel with its first heuristic config and Triton's default
warps, where the original autotunes among configs, so a reduction may add in another order).
Both are also timed (CUDA events, mean of 20 calls after 3 warm-up calls).

Usage: check_inductor_fxpy.py FXKIT CORPUS WORK [--json OUT.json]
Exit 0 when every file passes, 1 otherwise.
"""
import argparse
import glob
import importlib.util
import json
import os
import subprocess
import sys
import traceback

import torch

TOLERANCE = 1e-4


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


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


def as_list(outputs):
    return list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]


def clone_args(args):
    # Keep each input's strides: `clone()` makes tensors that are not dense (a saved slice of a
    # fused q/k/v projection, strides (3072, 48, 192, 1) for 2x4x16x16) contiguous, and the
    # programs assert their inputs' strides.
    def clone(a):
        b = torch.empty_strided(a.size(), a.stride(), dtype=a.dtype, device=a.device)
        return b.copy_(a)
    return [clone(a) if isinstance(a, torch.Tensor) else a for a in args]


def same(a, b):
    """Bitwise-equal values, NaN where the other has NaN (random batch-norm statistics make
    some outputs NaN in the original too)."""
    if a.is_floating_point() or a.is_complex():
        return torch.equal(a.isnan(), b.isnan()) and torch.equal(a.nan_to_num(0.0), b.nan_to_num(0.0))
    return torch.equal(a, b)


def dirty_free_memory():
    """Fills the caching allocator's free small blocks with random bytes, so that a result
    nobody writes differs from one run to the next."""
    junk = [torch.randint(0, 255, (512,), dtype=torch.uint8, device="cuda") for _ in range(4096)]
    del junk


def nondeterministic(ref, again):
    """Outputs that differ between two runs of the original module on the same inputs
    (uninitialised results, such as the philox seed and offset efficient attention returns
    when it applies no dropout): no other run can be compared with them."""
    return {i for i, (r, s) in enumerate(zip(as_list(ref), as_list(again)))
            if isinstance(r, torch.Tensor) and not same(r, s)}


def compare(ref, out, skip=()):
    """(ok, worst relative difference or None when bitwise equal, message)."""
    ref, out = as_list(ref), as_list(out)
    if len(ref) != len(out):
        return False, None, f"{len(out)} outputs, the original returns {len(ref)}"
    worst = 0.0
    bitwise = True
    differing = []
    for i, (r, o) in enumerate(zip(ref, out)):
        if i in skip:
            continue
        if not isinstance(r, torch.Tensor):
            if r != o:
                return False, None, f"output {i}: {o!r}, the original gives {r!r}"
            continue
        if r.shape != o.shape or r.dtype != o.dtype:
            return False, None, (f"output {i}: {o.dtype} {tuple(o.shape)}, the original gives "
                                 f"{r.dtype} {tuple(r.shape)}")
        if same(r, o):
            continue
        bitwise = False
        if (r.is_floating_point() or r.is_complex()) and not torch.equal(r.isnan(), o.isnan()):
            return False, None, f"output {i}: NaN in other places than the original's"
        rf, of = r.double().nan_to_num(0.0), o.double().nan_to_num(0.0)
        scale = max(rf.abs().max().item(), 1e-30) if rf.numel() else 1.0
        diff = (rf - of).abs().max().item() if rf.numel() else 0.0
        if not torch.isfinite(of).all() and not torch.equal(rf.isfinite(), of.isfinite()):
            return False, None, f"output {i}: non-finite values where the original has none"
        worst = max(worst, diff / scale)
        if diff / scale > TOLERANCE:
            differing.append(f"{i} {tuple(r.shape)} {diff / scale:.2e}")
    note = (f" (outputs {', '.join(map(str, sorted(skip)))} not compared: they differ between "
            "two runs of the original)") if skip else ""
    if bitwise:
        return True, None, "bitwise" + note
    message = f"max |diff| / max |ref| = {worst:.2e}" + note
    if differing:
        message += f"; outputs over the tolerance: {', '.join(differing)}"
    return worst <= TOLERANCE, worst, message


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fxkit")
    ap.add_argument("corpus")
    ap.add_argument("work")
    ap.add_argument("--json")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    files = sorted(glob.glob(os.path.join(a.corpus, "*", "output_code_*.py")) +
                   glob.glob(os.path.join(a.corpus, "*", "debug", "*", "output_code.py")))
    rows = []
    for n, path in enumerate(files):
        rel = os.path.relpath(path, a.corpus)
        row = {"file": rel}
        rows.append(row)
        gen = os.path.join(a.work, f"fxpy_{n}.py")
        r = subprocess.run([a.fxkit, "convert", path, "--to", "fxpy", "-o", gen],
                           capture_output=True, text=True)
        if r.returncode != 0:
            row.update(ok=False, message="fxkit convert failed: " + r.stderr.strip())
            print(f"FAIL {rel}: {row['message']}", flush=True)
            continue
        try:
            original = load_module(path, f"original_{n}")
            fxpy = load_module(gen, f"fxpy_{n}")
            torch.manual_seed(0)
            args = original.get_args()
            ref = original.call(clone_args(args))
            dirty_free_memory()
            skip = nondeterministic(ref, original.call(clone_args(args)))
            module = fxpy.GraphModule()
            out = module(*clone_args(args))
            torch.cuda.synchronize()
            ok, worst, message = compare(ref, out, skip)
            row.update(ok=ok, worst=worst, message=message, outputs=len(as_list(ref)),
                       kernels=len(fxpy._kernel_ids), launches=len(fxpy._constant_args_ids))
            row["original_ms"] = cuda_ms(lambda: original.call(clone_args(args)))
            row["fxpy_ms"] = cuda_ms(lambda: module(*clone_args(args)))
        except Exception as e:  # a failure of one file is reported, the others still run
            row.update(ok=False, message=f"{type(e).__name__}: {e}",
                       trace=traceback.format_exc(limit=6))
        print(f"{'ok  ' if row['ok'] else 'FAIL'} {rel}: {row['message']}"
              + (f" ({row['original_ms']:.3f} ms original, {row['fxpy_ms']:.3f} ms fxpy)"
                 if "fxpy_ms" in row else ""), flush=True)
        if not row["ok"] and "trace" in row:
            print(row["trace"], flush=True)
    passed = sum(r["ok"] for r in rows)
    print(f"{passed} of {len(rows)} modules match the original compiled module on "
          f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                       "rows": rows}, f, indent=1)
    return 0 if passed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
