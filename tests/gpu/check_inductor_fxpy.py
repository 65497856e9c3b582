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
import re
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
    # Keep each input's strides and storage offset: `clone()` makes tensors that are not dense
    # (a saved slice of a fused q/k/v projection, strides (3072, 48, 192, 1) for 2x4x16x16)
    # contiguous, and the programs assert their inputs' strides. The whole storage is copied, so
    # inputs whose elements overlap (expanded, stride 0) keep that layout too.
    def clone(a):
        storage = a.untyped_storage()
        copy = torch.empty(0, dtype=a.dtype, device=a.device)
        copy.set_(storage.clone(), a.storage_offset(), a.size(), a.stride())
        return copy
    return [clone(a) if isinstance(a, torch.Tensor) else a for a in args]


def perturbed_args(args):
    """The inputs with every floating-point element moved by one rounding error (a relative
    change of the dtype's epsilon, random sign): how far the original's outputs then move is how
    well-conditioned each output is, the yardstick for a difference that comes from adding in
    another order."""
    out = clone_args(args)
    gen = torch.Generator(device="cuda").manual_seed(1)
    for t in out:
        if isinstance(t, torch.Tensor) and t.is_floating_point() and t.numel():
            sign = torch.randint(0, 2, t.shape, generator=gen, device=t.device).to(t.dtype) * 2 - 1
            t.add_(t * sign * torch.finfo(t.dtype).eps)
    return out


UNSPECIFIED = {  # attention ops whose philox seed and offset are unspecified without dropout
    "_scaled_dot_product_efficient_attention": (2, 3),
    "_scaled_dot_product_flash_attention": (6, 7, 8),
    "_scaled_dot_product_cudnn_attention": (6, 7, 8),
}


def unspecified_outputs(path):
    """Positions in `call`'s returned tuple that are an attention op's philox seed or offset:
    PyTorch leaves them uninitialised when the op applies no dropout, so their value may differ
    in every run and in every program (a run of the original twice may still agree)."""
    src = open(path).read()
    calls = {m.group(1): UNSPECIFIED[m.group(2)] for m in re.finditer(
        r"^\s*(\w+) = torch\.ops\.aten\.(" + "|".join(UNSPECIFIED) + r")\.default\(", src, re.M)}
    names = {m.group(1) for m in re.finditer(r"^\s*(\w+) = (\w+)\[(\d+)\]\s*$", src, re.M)
             if m.group(2) in calls and int(m.group(3)) in calls[m.group(2)]}
    returned = re.findall(r"^\s*return \((.*)\)\s*$", src, re.M)
    if not names or not returned:
        return set()
    items, depth, cur = [], 0, ""
    for ch in returned[-1]:
        if ch == "," and depth == 0:
            items.append(cur.strip())
            cur = ""
            continue
        depth += ch in "([" and 1 or (ch in ")]" and -1 or 0)
        cur += ch
    if cur.strip():
        items.append(cur.strip())
    return {i for i, item in enumerate(items) if item in names}


def sensitivity(ref, moved):
    """Per output: max |diff| / max |ref| between the original's outputs on the inputs and on
    the inputs moved by one rounding error (None for outputs that are no floating tensor)."""
    res = {}
    for i, (r, m) in enumerate(zip(as_list(ref), as_list(moved))):
        if isinstance(r, torch.Tensor) and r.numel() and r.shape == m.shape:
            rf, mf = r.double().nan_to_num(0.0), m.double().nan_to_num(0.0)
            res[i] = (rf - mf).abs().max().item() / max(rf.abs().max().item(), 1e-30)
    return res


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


ILL_CONDITIONED = 10  # a difference within this many times the original's own move passes


def compare(ref, out, skip=(), unspecified=(), moves=None):
    """(ok, worst relative difference or None when bitwise equal, message). An output over the
    tolerance still passes when the original itself moves by at least 1/ILL_CONDITIONED of that
    difference under one rounding error in its inputs (`moves`): it is ill-conditioned, and the
    order of additions alone decides its low digits."""
    moves = moves or {}
    skip = set(skip) | set(unspecified)
    conditioned = []
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
        rel = diff / scale
        if rel > TOLERANCE and rel <= ILL_CONDITIONED * moves.get(i, 0.0):
            conditioned.append(f"{i} {tuple(r.shape)} {rel:.2e} (the original moves "
                               f"{moves[i]:.2e})")
            continue
        worst = max(worst, rel)
        if rel > TOLERANCE:
            differing.append(f"{i} {tuple(r.shape)} {rel:.2e}")
    notes = []
    if skip - set(unspecified):
        notes.append(f"outputs {', '.join(map(str, sorted(skip - set(unspecified))))} not "
                     "compared: they differ between two runs of the original")
    if unspecified:
        notes.append(f"outputs {', '.join(map(str, sorted(unspecified)))} not compared: "
                     "attention's philox seed/offset, unspecified without dropout")
    if conditioned:
        notes.append("ill-conditioned outputs, within " + str(ILL_CONDITIONED) + "x of how far "
                     "the original moves under one rounding error in its inputs: " +
                     ", ".join(conditioned))
    note = f" ({'; '.join(notes)})" if notes else ""
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
        if "no runnable module" in r.stderr:
            # fxkit said why (a CPU C++ kernel, ...) and wrote the wrapper graph instead.
            row.update(ok=None, message="not runnable: " + r.stderr.strip())
            print(f"SKIP {rel}: {row['message']}", flush=True)
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
            unspecified = unspecified_outputs(path)
            ok, worst, message = compare(ref, out, skip, unspecified)
            if not ok and worst is not None:
                moves = sensitivity(ref, original.call(perturbed_args(args)))
                ok, worst, message = compare(ref, out, skip, unspecified, moves)
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
    passed = sum(r["ok"] is True for r in rows)
    skipped = sum(r["ok"] is None for r in rows)
    print(f"{passed} of {len(rows) - skipped} modules match the original compiled module on "
          f"{torch.cuda.get_device_name()}, torch {torch.__version__}"
          + (f"; {skipped} not runnable (fxkit says why)" if skipped else ""))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                       "rows": rows}, f, indent=1)
    return 0 if passed + skipped == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
