#!/usr/bin/env python3
"""The adversarial probe of issue 19, as a script: mutated inputs of every format through the
command line, extreme values through every backend, each outcome judged by fxkit's promise.

  probe.py FXKIT DATA_DIR [--runs N] [--seed S] [--jobs J] [--timeout T] [--work DIR]
           [--json REPORT] [--backends interp,loops,opencl,llvm]

The promise (README, "Reliability"): any input gives a correct result or a clear error with exit
code 1 or 2; nothing is left half-written. A run is a finding when fxkit
  - crash:      dies of a signal (SIGSEGV, SIGABRT, ...);
  - hang:       runs past --timeout seconds;
  - exit:       exits with a code other than 0, 1, 2;
  - partial:    fails yet leaves its output file, or a hidden temporary beside it;
  - unreadable: succeeds with an output that fxkit itself cannot read back;
  - mismatch:   a compiled backend's result differs from the reference interpreter's (on the
                same inputs, extreme ones included) without refusing the graph.
Errors without a location (file:line:col) on text formats are counted, not judged.

DATA_DIR is searched for inputs by file name, as tests/fuzz/make-seeds.sh does. The same seed
gives the same mutations. Exit code: 0 when nothing was found, 1 on any finding, 2 on bad usage.
"""

import argparse
import concurrent.futures
import json
import math
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

# --- inputs -----------------------------------------------------------------------------------

# kind -> (file-name test, how fxkit reads it: extra convert arguments, whether it is text)
KINDS = {
    "fx-text": (lambda n: n.endswith(".graph.txt"), [], True),
    "fxpy": (lambda n: n.endswith(".readable.py") or re.match(r"fx_graph_.*\.py$", n), [], True),
    "inductor-py": (lambda n: re.match(r"output_code.*\.py$", n) or n == "small_wrapper.py",
                    ["--from", "inductor-py"], True),
    "inductor-cpp": (lambda n: re.match(r"cpp_wrapper_.*\.py$", n) or n == "small_cpp_wrapper.py",
                     ["--from", "inductor-cpp"], True),
    "inductor-ir": (lambda n: re.match(r"ir_.*_fusion\.txt$", n), [], True),
    "pt2": (lambda n: n.endswith(".pt2"), [], False),
    "repl": (lambda n: n.endswith(".fx"), [], True),
}
# The REPL's inputs are scripts over this graph (the REPL fuzzer's, tests/data/repl).
REPL_GRAPH = "repl/small.graph.txt"
SANITIZER = re.compile(r"(AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer|runtime error:)")


def find_inputs(data, extra=()):
    found = {k: [] for k in KINDS}
    found["safetensors"] = []
    paths = list(Path(data).resolve().rglob("*"))
    for folder in extra:
        paths += list(Path(folder).resolve().rglob("*"))
    for path in sorted(paths):
        if not path.is_file():
            continue
        if path.name.endswith(".inputs.safetensors"):
            graph = path.with_name(path.name[: -len(".inputs.safetensors")] + ".graph.txt")
            if graph.exists() and graph.stat().st_size < 60_000:
                found["safetensors"].append((graph, path))
            continue
        for kind, (test, _, _) in KINDS.items():
            if test(path.name) and path.stat().st_size < 400_000:
                found[kind].append(path)
                break
    return found


# --- mutations --------------------------------------------------------------------------------

EXTREMES = [b"9223372036854775808", b"-9223372036854775809", b"18446744073709551616", b"0",
            b"-1", b"1e309", b"-1e309", b"nan", b"inf", b"4611686018427387905", b"2147483648",
            b"''", b'""', b"(", b"]", b"\xed\xa0\x80", b"\xc0\xaf", b"\x00"]
NUMBER = re.compile(rb"-?\d+(\.\d+)?(e[-+]?\d+)?")
WORD = re.compile(rb"[A-Za-z_][A-Za-z_0-9]*")


def mutate(data, rng):
    """One to three mutations of the kinds the issue's prober made: bytes, lines, tokens,
    nesting, encodings, lengths."""
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(10)
        if not data:
            data = rng.choice(EXTREMES)
        if op == 0:  # flip bytes
            b = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                b[rng.randrange(len(b))] = rng.randrange(256)
            data = bytes(b)
        elif op == 1:  # truncate
            data = data[: rng.randrange(len(data))]
        elif op in (2, 3):  # drop, duplicate or swap lines
            lines = data.split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            if op == 2:
                del lines[i]
            elif rng.random() < 0.5:
                lines.insert(i, lines[j])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        elif op in (4, 5):  # a number becomes an extreme one
            numbers = list(NUMBER.finditer(data))
            if numbers:
                m = rng.choice(numbers)
                data = data[: m.start()] + rng.choice(EXTREMES) + data[m.end():]
        elif op == 6:  # a name becomes another name of the file
            words = list(WORD.finditer(data))
            if len(words) > 1:
                m, other = rng.choice(words), rng.choice(words)
                data = data[: m.start()] + other.group(0) + data[m.end():]
        elif op == 7:  # deep nesting
            depth = rng.choice([100, 5000, 100000])
            at = rng.randrange(len(data) + 1)
            opener, closer = rng.choice([(b"[", b"]"), (b"(", b")"), (b"{", b"}")])
            data = data[:at] + opener * depth + closer * (depth if rng.random() < 0.5 else 0) + data[at:]
        elif op == 8:  # invalid UTF-8 in the middle of a token
            at = rng.randrange(len(data) + 1)
            data = data[:at] + rng.choice([b"\xff", b"\xed\xa0\x80", b"\xc0\xaf", b"\x80"]) + data[at:]
        else:  # a block repeated
            at = rng.randrange(len(data))
            block = data[at: at + rng.randint(1, 2000)]
            data = data[:at] + block * rng.randint(2, 50) + data[at:]
    return data


# --- safetensors with extreme values -----------------------------------------------------------

def read_safetensors(path):
    raw = Path(path).read_bytes()
    n = struct.unpack("<Q", raw[:8])[0]
    return json.loads(raw[8: 8 + n]), raw[8 + n:]


def write_safetensors(path, header, data):
    text = json.dumps(header, separators=(",", ":")).encode()
    Path(path).write_bytes(struct.pack("<Q", len(text)) + text + data)


def extreme_inputs(header, data, rng):
    """Every float32 input changed one way per tensor: NaN and Inf spots, constant rows (the
    Welford merge's empty-block and zero-variance paths), zeros, denormals, or a scale of 1e6
    (inputs past float32's square root overflow intermediates, where float32 kernels and the
    reference interpreter, which accumulates in double, legitimately part ways)."""
    out = bytearray(data)
    for name, entry in header.items():
        if name == "__metadata__" or entry.get("dtype") != "F32":
            continue
        begin, end = entry["data_offsets"]
        count = (end - begin) // 4
        values = list(struct.unpack_from("<%df" % count, data, begin))
        how = rng.randrange(5)
        for i in range(count):
            if how == 0:
                values[i] = values[i] * 1e6
            elif how == 1:
                values[i] = 1e9
            elif how == 2:
                values[i] = rng.choice([values[i], values[i], float("nan"), float("inf"), -float("inf")])
            elif how == 3:
                values[i] = 0.0
            else:
                values[i] = 1e-45 * (i % 7)
        struct.pack_into("<%df" % count, out, begin, *values)
    return bytes(out)


def float_outputs(path):
    header, data = read_safetensors(path)
    out = {}
    for name, entry in header.items():
        if name != "__metadata__" and entry.get("dtype") == "F32":
            begin, end = entry["data_offsets"]
            out[name] = struct.unpack_from("<%df" % ((end - begin) // 4), data, begin)
    return out


def differs(ref_path, got_path, rtol=1e-3, atol=1e-3):
    """The first float32 element where a backend and the reference part ways: NaN against a
    number, or two numbers not close. Where the reference is infinite or NaN the backend must be
    too (which infinity, or NaN for inf - inf, depends on the order of a float32 sum)."""
    ref, got = float_outputs(ref_path), float_outputs(got_path)
    for name, r in ref.items():
        g = got.get(name)
        if g is None or len(g) != len(r):
            return "%s missing or of another size" % name
        for i, (a, b) in enumerate(zip(r, g)):
            if math.isfinite(a):
                if not math.isfinite(b) or abs(a - b) > atol + rtol * abs(a):
                    return "%s[%d]: %r, reference %r" % (name, i, b, a)
            elif math.isfinite(b):
                return "%s[%d]: %r, reference %r" % (name, i, b, a)
    return None


# --- running fxkit ----------------------------------------------------------------------------

LOCATED = re.compile(r":\d+:\d+")


DATA = {"dir": None}  # the data folder (the REPL's graph is there)


def data_dir():
    return DATA["dir"]


CACHE = {"dir": None}  # one kernel cache for every run (fxkit's cache is safe to share)
UNLOCATED = []  # errors on text inputs without file:line:col, with their inputs (not findings)
EXITS = {}  # exit code (or "timeout") -> runs: how many inputs got past the readers


def run(fxkit, args, timeout, cwd):
    try:
        p = subprocess.run([fxkit] + args, cwd=cwd, capture_output=True, timeout=timeout,
                           env=dict(os.environ, FXKIT_CACHE_DIR=CACHE["dir"]))
        EXITS[p.returncode] = EXITS.get(p.returncode, 0) + 1
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        EXITS["timeout"] = EXITS.get("timeout", 0) + 1
        return None, "", ""


def judge(rc, err, output, work):
    """The finding of one run, or None."""
    if rc is None:
        return "hang"
    if rc < 0:
        return "crash (%s)" % signal.Signals(-rc).name
    if SANITIZER.search(err):
        return "sanitizer (%s)" % SANITIZER.search(err).group(1)
    if rc not in (0, 1, 2):
        return "exit %d" % rc
    if rc != 0 and output is not None and Path(output).exists():
        return "partial (output left)"
    leftovers = [p.name for p in Path(work).iterdir() if ".tmp." in p.name]
    if leftovers:
        return "partial (temporary %s left)" % leftovers[0]
    return None


def probe_file(task):
    """One mutated input through convert (and its output read back)."""
    fxkit, kind, source, seed, timeout, keep = task
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="fxkit-probe-"))
    findings, unlocated, runs = [], 0, 0
    try:
        name = Path(source).name
        mutated = work / ("m_" + name)
        mutated.write_bytes(mutate(Path(source).read_bytes(), rng))
        if kind == "repl":
            shutil.copy(Path(data_dir()) / REPL_GRAPH, work / "small.graph.txt")
            script = work / "script.fx"
            script.write_bytes(b"load small.graph.txt as g\n" + mutated.read_bytes())
            rc, _, err = run(fxkit, ["-f", str(script), "--keep-going"], timeout, work)
            finding = judge(rc, err, None, work)
            if finding:
                keepname = Path(keep) / ("%s-%d-%s" % (kind, seed, name))
                shutil.copy(script, keepname)
                findings.append({"kind": kind, "input": str(keepname), "from": str(source),
                                 "finding": finding, "stderr": err.strip()[-400:]})
            return findings, unlocated, 1
        extra = KINDS[kind][1]
        # Inductor programs written as fxpy are runnable modules (kernels, a side table), not
        # print_readable() code, and are not read back: their re-readable forms are fx and json.
        targets = ["fx", "json"] if kind.startswith("inductor") else ["fx", "json", "fxpy"]
        target = rng.choice(["fx"] if kind == "inductor-ir" else targets)
        out = work / ("out." + target)
        rc, _, err = run(fxkit, ["convert", str(mutated)] + extra + ["--to", target, "-o", str(out)],
                         timeout, work)
        runs += 1
        finding = judge(rc, err, out, work)
        if rc == 2 and KINDS[kind][2] and not LOCATED.search(err):
            unlocated += 1
            keepname = Path(keep) / ("unlocated-%s-%d-%s" % (kind, seed, name))
            shutil.copy(mutated, keepname)
            UNLOCATED.append("%s: %s" % (keepname, err.strip().splitlines()[0][:300] if err.strip() else ""))
        if finding is None and rc == 0:
            back = work / "back.fx"
            rc2, _, err2 = run(fxkit, ["convert", str(out), "--to", "fx", "-o", str(back)], timeout, work)
            runs += 1
            if rc2 != 0:
                finding = "unreadable (%s output: %s)" % (target, err2.strip().splitlines()[-1:] or "")
            else:
                finding = judge(rc2, err2, None, work)
        if finding:
            keepname = Path(keep) / ("%s-%d-%s" % (kind, seed, name))
            shutil.copy(mutated, keepname)
            findings.append({"kind": kind, "input": str(keepname), "from": str(source),
                             "finding": finding, "stderr": err.strip()[-400:]})
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return findings, unlocated, runs


def probe_numbers(task):
    """A graph with extreme inputs on every backend, each compared with the interpreter."""
    fxkit, graph, inputs, seed, timeout, keep, backends = task
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="fxkit-probe-"))
    findings, runs = [], 0
    try:
        header, data = read_safetensors(inputs)
        extreme = work / "in.safetensors"
        write_safetensors(extreme, header, extreme_inputs(header, data, rng))
        ref = work / "ref.safetensors"
        rc, _, err = run(fxkit, ["run", str(graph), "--inputs", str(extreme), "-o", str(ref)], timeout, work)
        runs += 1
        finding = judge(rc, err, ref, work)
        if finding is None and rc == 0:
            for backend in backends:
                got = work / ("%s.safetensors" % backend)
                rc, _, err = run(fxkit, ["run", str(graph), "--backend", backend, "--inputs",
                                         str(extreme), "-o", str(got)], timeout, work)
                runs += 1
                finding = judge(rc, err, got, work)
                if finding is None and rc == 0:
                    where = differs(ref, got)
                    if where:
                        finding = "mismatch on %s: %s" % (backend, where)
                if finding:
                    break
        if finding:
            keepname = Path(keep) / ("numbers-%d-%s" % (seed, Path(inputs).name))
            shutil.copy(extreme, keepname)
            findings.append({"kind": "numbers", "input": str(keepname), "from": str(graph),
                             "finding": finding, "stderr": err.strip()[-400:]})
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return findings, 0, runs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fxkit")
    ap.add_argument("data")
    ap.add_argument("--runs", type=int, default=200, help="mutated inputs (default 200)")
    ap.add_argument("--numbers", type=int, default=-1,
                    help="graphs run with extreme inputs (default: a tenth of --runs)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--work", default=None, help="where findings are kept (default: a new folder)")
    ap.add_argument("--json", default=None, help="write the report as JSON here")
    ap.add_argument("--backends", default="loops,opencl,llvm")
    args = ap.parse_args()
    fxkit = str(Path(args.fxkit).resolve())
    if not os.access(fxkit, os.X_OK) or not Path(args.data).is_dir():
        print("probe: need an fxkit executable and a data folder", file=sys.stderr)
        return 2
    DATA["dir"] = str(Path(args.data).resolve())
    fuzz_seeds = Path(__file__).resolve().parent.parent / "fuzz" / "seeds"
    inputs = find_inputs(args.data, [fuzz_seeds])
    keep = Path(args.work or tempfile.mkdtemp(prefix="fxkit-probe-findings-"))
    keep.mkdir(parents=True, exist_ok=True)
    cache = tempfile.mkdtemp(prefix="fxkit-probe-cache-")
    CACHE["dir"] = cache
    rng = random.Random(args.seed)
    kinds = [k for k in KINDS if inputs[k]]
    tasks = []
    for i in range(args.runs):
        kind = kinds[i % len(kinds)]
        tasks.append((probe_file, (fxkit, kind, rng.choice(inputs[kind]), rng.randrange(1 << 30),
                                   args.timeout, str(keep))))
    numbers = args.runs // 10 if args.numbers < 0 else args.numbers
    backends = [b for b in args.backends.split(",") if b]
    for _ in range(numbers if inputs["safetensors"] else 0):
        graph, ins = rng.choice(inputs["safetensors"])
        tasks.append((probe_numbers, (fxkit, graph, ins, rng.randrange(1 << 30), args.timeout,
                                      str(keep), backends)))
    findings, unlocated, runs = [], 0, 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for f, u, r in pool.map(lambda t: t[0](t[1]), tasks):
            findings += f
            unlocated += u
            runs += r
    by = {}
    for f in findings:
        by.setdefault(f["finding"].split(" ")[0], []).append(f)
    print("probe: %d mutated inputs of %d kinds and %d extreme-value runs: %d fxkit runs, "
          "%d findings" % (args.runs, len(kinds), numbers, runs, len(findings)))
    print("probe: inputs per kind: " + ", ".join("%s %d" % (k, len(inputs[k])) for k in kinds)
          + ", safetensors %d" % len(inputs["safetensors"]))
    print("probe: exit codes: " + ", ".join("%s: %d" % (k, v) for k, v in
                                            sorted(EXITS.items(), key=lambda kv: str(kv[0]))))
    print("probe: errors on text inputs without file:line:col: %d" % unlocated)
    for line in UNLOCATED[:10]:
        print("  " + line)
    for what, fs in sorted(by.items()):
        print("probe: %s: %d" % (what, len(fs)))
        for f in fs[:10]:
            print("  %s  (from %s)\n    %s\n    %s" % (f["input"], f["from"], f["finding"],
                                                    f["stderr"].replace("\n", "\n    ")[-300:]))
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": runs, "inputs": args.runs,
                                               "numbers": numbers, "unlocated": unlocated,
                                               "exits": {str(k): v for k, v in EXITS.items()},
                                               "findings": findings}, indent=1))
    shutil.rmtree(cache, ignore_errors=True)
    if not findings and not UNLOCATED and not args.work:
        shutil.rmtree(keep, ignore_errors=True)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
