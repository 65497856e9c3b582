#!/usr/bin/env python3
"""Checks PT2 archives written by `fxkit convert X --to pt2` with PyTorch.

    python3 tests/gpu/check_pt2.py --written DIR --reference REF [--original ORIG] [--json OUT]
        [--expect N]

DIR holds the archives fxkit wrote (`<name>.pt2`). REF holds the eager inputs and outputs of
each model (`<model>.inputs.safetensors` with arg_<i>, `<model>.outputs.safetensors` with
out_<i>; <model> is <name> up to its first dot, so `bert.core.pt2` uses `bert.*`), as
out/cap/scripts/export_pt2.py writes them. ORIG (default REF) holds the archives
torch.export.save wrote, where there is one of the same name.

For every archive in DIR: torch.export.load must accept it; its module runs on the inputs and
every flattened output is compared with out_<i> (float32/64: 1e-4 relative and absolute;
float16 1e-3; bfloat16 1.6e-2; integers and bools exact; a dtype difference fails). Where the
original archive exists, the written one must also load to the same program: the same
`str(ep.graph)`, graph signature, range constraints and state dict / constants (bitwise), and
the same outputs as the original (bitwise). A model whose exported program itself disagrees
with eager PyTorch (the original archive fails the eager comparison too, e.g. a model exported
under autocast) is reported as such and judged by the comparison with the original only.

Exit 0 when every archive passes (and, with --expect N, N archives were checked), 1 otherwise;
77 when PyTorch is missing (CTest's skip code).
"""
import argparse
import glob
import json
import os
import sys
import traceback

try:
    import torch
    import torch.utils._pytree as pytree
    from safetensors.torch import load_file
    from safetensors import safe_open
except ImportError as e:  # pragma: no cover - depends on the machine
    print(f"skipped: {e}")
    sys.exit(77)

TOL = {torch.float16: (1e-3, 1e-3), torch.bfloat16: (1.6e-2, 1e-3)}


def load_values(path, prefix):
    """arg_<i>/out_<i> tensors, and the non-tensor values kept in __metadata__, in order."""
    tensors = load_file(path)
    with safe_open(path, "pt") as f:
        meta = f.metadata() or {}
    values = {}
    for k, v in tensors.items():
        if k.startswith(prefix + "_"):
            values[int(k[len(prefix) + 1:])] = v
    for k, v in meta.items():
        if k.startswith(prefix + "_"):
            values[int(k[len(prefix) + 1:])] = json.loads(v)
    return [values[i] for i in sorted(values)]


def compare(actual, expected):
    """None when they match, else why not."""
    if len(actual) != len(expected):
        return f"{len(actual)} outputs, expected {len(expected)}"
    for i, (a, e) in enumerate(zip(actual, expected)):
        if not isinstance(e, torch.Tensor):
            if a != e:
                return f"out_{i}: {a!r} != {e!r}"
            continue
        if not isinstance(a, torch.Tensor):
            return f"out_{i}: {type(a).__name__}, expected a tensor"
        a = a.detach().cpu()
        if a.dtype != e.dtype or a.shape != e.shape:
            return f"out_{i}: {a.dtype}{list(a.shape)}, expected {e.dtype}{list(e.shape)}"
        if a.dtype.is_floating_point or a.dtype.is_complex:
            rtol, atol = TOL.get(a.dtype, (1e-4, 1e-4))
            if not torch.allclose(a, e, rtol=rtol, atol=atol, equal_nan=True):
                d = (a.double() - e.double()).abs().max().item()
                return f"out_{i}: max |diff| {d:.3g}"
        elif not torch.equal(a, e):
            return f"out_{i}: values differ"
    return None


def bitwise(actual, expected):
    """Same values exactly (NaN where the other has NaN)."""
    if len(actual) != len(expected):
        return False
    for a, e in zip(actual, expected):
        if isinstance(a, torch.Tensor) != isinstance(e, torch.Tensor):
            return False
        if not isinstance(a, torch.Tensor):
            if a != e:
                return False
            continue
        if a.dtype != e.dtype or a.shape != e.shape:
            return False
        same = a == e
        if a.dtype.is_floating_point:
            same = same | (a.isnan() & e.isnan())
        if not bool(same.all()):
            return False
    return True


def run(ep, args):
    with torch.no_grad():
        return pytree.tree_leaves(ep.module()(*args))


def same_program(w, o):
    """None when the two loaded programs are the same, else the first difference."""
    if str(w.graph) != str(o.graph):
        return "str(ep.graph) differs"
    if str(w.graph_signature) != str(o.graph_signature):
        return "graph signatures differ"
    if {str(k): str(v) for k, v in w.range_constraints.items()} != {
            str(k): str(v) for k, v in o.range_constraints.items()}:
        return "range constraints differ"
    for what, a, b in (("state dict", w.state_dict, o.state_dict), ("constants", w.constants, o.constants)):
        if set(a) != set(b):
            return f"{what} keys differ: {sorted(set(a) ^ set(b))[:5]}"
        for k in a:
            x, y = a[k], b[k]
            if isinstance(x, torch.Tensor):
                if x.dtype != y.dtype or x.shape != y.shape or x.stride() != y.stride() or not torch.equal(x, y):
                    return f"{what} '{k}' differs"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--written", required=True)
    ap.add_argument("--reference", required=True)
    ap.add_argument("--original")
    ap.add_argument("--json")
    ap.add_argument("--expect", type=int)
    a = ap.parse_args()
    original_dir = a.original or a.reference
    results = []
    for path in sorted(glob.glob(os.path.join(a.written, "*.pt2"))):
        name = os.path.basename(path)[:-4]
        model = name.split(".")[0]
        r = {"archive": name}
        try:
            ep = torch.export.load(path)
            r["loaded"] = True
            args = load_values(os.path.join(a.reference, model + ".inputs.safetensors"), "arg")
            expected = load_values(os.path.join(a.reference, model + ".outputs.safetensors"), "out")
            out = run(ep, args)
            r["eager"] = compare(out, expected) or "ok"
            orig_path = os.path.join(original_dir, name + ".pt2")
            if os.path.exists(orig_path):
                orig = torch.export.load(orig_path)
                r["same_program"] = same_program(ep, orig) or "ok"
                orig_out = run(orig, args)
                r["same_outputs"] = "ok" if bitwise(out, orig_out) else "differ"
                orig_eager = compare(orig_out, expected) or "ok"
                r["original_eager"] = orig_eager
            ok = r["eager"] == "ok" or (r.get("original_eager", "ok") != "ok" and r.get("same_outputs") == "ok")
            ok = ok and r.get("same_program", "ok") == "ok" and r.get("same_outputs", "ok") == "ok"
            r["ok"] = ok
        except Exception as e:  # noqa: BLE001 - every failure is reported per archive
            r["ok"] = False
            r["error"] = f"{type(e).__name__}: {e}"
            r["trace"] = traceback.format_exc(limit=6)
        results.append(r)
        status = "ok" if r["ok"] else "FAIL"
        detail = r.get("error") or "; ".join(f"{k}={r[k]}" for k in ("eager", "same_program", "same_outputs", "original_eager") if k in r)
        print(f"{status:4} {name}: {detail}", flush=True)
    passed = sum(r["ok"] for r in results)
    print(f"{passed} of {len(results)} archives load in torch.export.load and give the expected outputs "
          f"(torch {torch.__version__})")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"torch": torch.__version__, "results": results}, f, indent=1)
    if a.expect is not None and len(results) != a.expect:
        print(f"expected {a.expect} archives, checked {len(results)}")
        return 1
    return 0 if results and passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
