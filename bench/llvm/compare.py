#!/usr/bin/env python3
"""`--backend llvm` against `--backend opencl` (PoCL on a CPU) on the Inductor corpus.

For every tests/data/corpus/inductor/<workload>/aten_post_<i>.graph.txt (the graphs Inductor
lowered, as OpenCLRuntimeTest iterates them), runs `fxkit run G --backend B --stats --profile
--repeat R` for both backends, one after the other on the same random inputs (seed 0), each
with a fresh kernel cache (so compilation is cold) and then once more with the filled cache
(warm). Size symbols are bound to 4099, as bench/inductor_kernel_stats.py does.

Reported per graph and backend: time of the generated kernels per run, runs 2..R (LLVM: wall
time of the launches; OpenCL: device events), whole run time of runs 2..R
(includes extern ops: CLBlast for OpenCL matrix products, the reference kernels on the host for
LLVM), compile time (cold: summed over the compile threads; LLVM: Clang + O3 + codegen; PoCL:
its own build, plus autotuning trials which are not counted here), and the warm load's compile
time (cache hits). Prints a Markdown table; the ratio is opencl / llvm (above 1: LLVM faster).

Usage: bench/llvm/compare.py [--fxkit build/repl/fxkit] [--repeat 3] [--only NAME]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def graphs(corpus):
    out = []
    for w in sorted(os.listdir(corpus)):
        d = os.path.join(corpus, w)
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if f.startswith('aten_post') and f.endswith('.graph.txt'):
                out.append(os.path.join(d, f))
    return out


def symbols(graph):
    nodes = graph.replace('.graph.txt', '.nodes.json')
    found = set()
    if os.path.exists(nodes):
        found = set(re.findall(r'"(s\d+)"', open(nodes).read()))
        found |= set(re.findall(r'\b(s\d+)\b', open(nodes).read()))
    args = []
    for s in sorted(found):
        args += ['--sym', f'{s}=4099']
    return args


def run(fxkit, graph, backend, cache, repeat):
    cmd = [fxkit, 'run', graph, '--backend', backend, '--stats', '--profile', '--repeat',
           str(repeat), '--cache-dir', cache] + symbols(graph)
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode != 0:
        return {'error': p.stderr.strip().splitlines()[-1] if p.stderr.strip() else 'failed'}
    err = p.stderr
    r = {'wall': wall}
    m = re.search(r'(?:compile|build) ([0-9.e-]+) s', err)
    r['compile'] = float(m.group(1)) if m else float('nan')
    m = re.search(r'later runs ([0-9.e-]+) s each', err)
    r['later'] = float(m.group(1)) if m else float('nan')
    m = re.search(r'kernel time ([0-9.e-]+) s over (\d+) launches', err)
    r['launches'] = int(m.group(2)) // repeat if m else 0
    m = re.search(r"later runs' kernels ([0-9.e-]+) s each", err)
    r['kernel'] = float(m.group(1)) if m else float('nan')
    m = re.search(r'(?:compiled|built) (\d+), from cache (\d+)', err)
    r['built'], r['cached'] = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    return r


def ms(x):
    return '—' if x != x else f'{x * 1e3:.2f}'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--fxkit', default=os.path.join(ROOT, 'build/repl/fxkit'))
    ap.add_argument('--corpus', default=os.path.join(ROOT, 'tests/data/corpus/inductor'))
    ap.add_argument('--repeat', type=int, default=3)
    ap.add_argument('--only', default='')
    a = ap.parse_args()
    rows = []
    totals = {'llvm': 0.0, 'opencl': 0.0}
    for g in graphs(a.corpus):
        name = os.path.relpath(g, a.corpus).replace('.graph.txt', '')
        if a.only and a.only not in name:
            continue
        res = {}
        for backend in ('llvm', 'opencl'):
            with tempfile.TemporaryDirectory(prefix='fxkit-bench-') as cache:
                cold = run(a.fxkit, g, backend, cache, a.repeat)
                warm = run(a.fxkit, g, backend, cache, 1) if 'error' not in cold else cold
            res[backend] = (cold, warm)
        l, o = res['llvm'][0], res['opencl'][0]
        if 'error' in l or 'error' in o:
            rows.append(f'| {name} | error: {l.get("error", "")} {o.get("error", "")} |')
            print(rows[-1], file=sys.stderr, flush=True)
            continue
        totals['llvm'] += l['kernel']
        totals['opencl'] += o['kernel']
        ratio = o['kernel'] / l['kernel'] if l['kernel'] > 0 else float('nan')
        rows.append(
            f"| {name} | {l['launches']} | {ms(l['kernel'])} | {ms(o['kernel'])} | {ratio:.2f} | "
            f"{ms(l['later'])} | {ms(o['later'])} | {l['built']}: {l['compile']:.2f} s | "
            f"{o['built']}: {o['compile']:.2f} s | {res['llvm'][1].get('compile', 0):.3f} s | "
            f"{res['opencl'][1].get('compile', 0):.3f} s |")
        print(rows[-1], file=sys.stderr, flush=True)
    print('| graph | launches/run | llvm kernels ms/run | opencl kernels ms/run | opencl/llvm | '
          'llvm run ms | opencl run ms | llvm cold compile (kernels: s) | '
          'opencl cold build (kernels: s) | llvm warm load | opencl warm load |')
    print('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
    for r in rows:
        print(r)
    if totals['llvm'] > 0:
        print(f"\nSum of kernel times per run: llvm {totals['llvm'] * 1e3:.1f} ms, opencl "
              f"{totals['opencl'] * 1e3:.1f} ms, ratio {totals['opencl'] / totals['llvm']:.2f}")


if __name__ == '__main__':
    main()
