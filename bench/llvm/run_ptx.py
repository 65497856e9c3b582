#!/usr/bin/env python3
"""Runs the output of `fxkit compile G --to ptx -o DIR` on an NVIDIA GPU and checks it.

Loads every DIR/<kernel>.ptx with the CUDA driver (cuModuleLoadData, through ctypes), places
each buffer of manifest.json in its own device allocation (torch), copies the graph inputs
from INPUTS.safetensors (`arg_<i>`), launches the kernels in schedule order with the launch
rules of the manifest (pointwise: 256 threads per block; reductions: lanes x rows), and
compares the outputs with EXPECTED.safetensors (`out_<i>`, rtol/atol 1e-4). Extern launches
(matrix products, convolutions) are not run: a manifest with any is reported and skipped.
Size symbols that are graph inputs take their values from INPUTS.

INPUTS may be `random` (inputs filled with standard-normal float32 values) and EXPECTED `-`
(no check): for timing. `--time`: mean time of one whole run (every launch in order) over 20
runs after 3 warm-up runs, CUDA events. `--tune`: for reduction kernels, tries lanes x rows in
(32x8, 64x4, 128x2, 256x1, 512x1, 1024x1) and keeps the fastest (implies --time).

Usage: run_ptx.py DIR INPUTS.safetensors|random EXPECTED.safetensors|- [--lanes 32 --rows 8]
                  [--time] [--tune]
Exit 0 when every output matches, 1 on a mismatch, 3 when skipped.
"""
import argparse
import ctypes
import json
import struct
import sys

import torch

DTYPES = {'F32': torch.float32, 'F64': torch.float64, 'F16': torch.float16,
          'BF16': torch.bfloat16, 'I64': torch.int64, 'I32': torch.int32, 'I16': torch.int16,
          'I8': torch.int8, 'U8': torch.uint8, 'BOOL': torch.bool}


def read_safetensors(path):
    data = open(path, 'rb').read()
    n = struct.unpack('<Q', data[:8])[0]
    header = json.loads(data[8:8 + n])
    out = {}
    for name, info in header.items():
        if name == '__metadata__':
            continue
        a, b = info['data_offsets']
        raw = bytearray(data[8 + n + a:8 + n + b])
        t = torch.frombuffer(raw, dtype=DTYPES[info['dtype']]) if raw else torch.empty(
            0, dtype=DTYPES[info['dtype']])
        out[name] = t.reshape(info['shape']).clone()
    return out


def check(cu, err, what):
    if err != 0:
        name = ctypes.c_char_p()
        cu.cuGetErrorName(err, ctypes.byref(name))
        raise RuntimeError(f'{what}: {name.value.decode() if name.value else err}')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dir')
    ap.add_argument('inputs')
    ap.add_argument('expected')
    ap.add_argument('--lanes', type=int, default=32)
    ap.add_argument('--rows', type=int, default=8)
    ap.add_argument('--time', action='store_true')
    ap.add_argument('--tune', action='store_true')
    ap.add_argument('--groups', action='store_true',
                    help='reductions: also time caps on the number of work-groups')
    a = ap.parse_args()
    m = json.load(open(f'{a.dir}/manifest.json'))
    if any('extern' in l for l in m['launches']):
        print('skipped: extern ops (' + ', '.join(l['extern'] for l in m['launches']
                                                    if 'extern' in l) + ')')
        return 3
    torch.zeros(1, device='cuda')  # the primary context, current on this thread
    cu = ctypes.CDLL('libcuda.so.1')
    functions = {}
    for k in m['kernels']:
        ptx = open(f"{a.dir}/{k['file']}", 'rb').read() + b'\0'
        mod = ctypes.c_void_p()
        check(cu, cu.cuModuleLoadData(ctypes.byref(mod), ptx), f"loading {k['file']}")
        fn = ctypes.c_void_p()
        check(cu, cu.cuModuleGetFunction(ctypes.byref(fn), mod, k['name'].encode()),
              f"finding {k['name']}")
        functions[k['name']] = (fn, k)
    # Size symbols that are graph inputs take their values from the inputs file.
    env = {}
    if a.inputs != 'random':
        inputs = read_safetensors(a.inputs)
        raw = open(a.inputs, 'rb').read(8)
        header = json.loads(open(a.inputs, 'rb').read(8 + struct.unpack('<Q', raw)[0])[8:])
        scalars = header.get('__metadata__', {})  # integer inputs: `arg_0: '33'`
        for i, spec in enumerate(m['inputs']):
            if 'symbol' in spec:
                env[spec['symbol']] = int(scalars[f'arg_{i}'])
    size = lambda text: int(eval(text, {}, dict(env)))
    buffers = {b['name']: torch.zeros(max(size(b['bytes']), 1), dtype=torch.uint8,
                                      device='cuda') for b in m['buffers']}
    if a.inputs == 'random':
        torch.manual_seed(0)
        for spec in m['inputs']:
            if 'buffer' in spec:
                b = buffers[spec['buffer']]
                b.view(torch.float32)[:] = torch.randn(b.numel() // 4, device='cuda')
    else:
        for i, spec in enumerate(m['inputs']):
            if 'buffer' in spec:
                t = inputs[f'arg_{i}'].contiguous().view(torch.uint8).reshape(-1)
                buffers[spec['buffer']][:t.numel()].copy_(t)
    prepared = []
    for launch in m['launches']:
        fn, k = functions[launch['kernel']]
        prepared.append((fn, k, launch, size(launch['xnumel'])))

    def run_all(lanes, rows, max_groups=65535):
        keep = []
        for fn, k, launch, xnumel in prepared:
            values = []
            params_ = [p for p in k['params'] if p['kind'] != 'buffer_offset']
            for p, arg in zip(params_, launch['args']):
                if 'buffer' in arg:
                    values += [ctypes.c_uint64(buffers[arg['buffer']].data_ptr()),
                               ctypes.c_uint64(0)]
                elif 'config' in arg:
                    values.append(ctypes.c_int32(lanes if arg['config'] == 'lanes' else rows))
                else:
                    values.append(ctypes.c_int64(size(arg['value'])))
            if k['reduction']:
                block = lanes * rows
                grid = min((xnumel + rows - 1) // rows, max_groups)
            else:
                block = 256
                grid = min((xnumel + block - 1) // block, 65535)
            params = (ctypes.c_void_p * len(values))(
                *[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in values])
            keep.append((values, params))
            check(cu, cu.cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, None, params, None),
                  f"launching {launch['kernel']}")

    def time_ms(lanes, rows, runs=20, max_groups=65535):
        for _ in range(3):
            run_all(lanes, rows, max_groups)
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(runs):
            run_all(lanes, rows, max_groups)
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end) / runs

    lanes, rows = a.lanes, a.rows
    if a.tune and any(k['reduction'] for _, k, _, _ in prepared):
        trials = []
        for l, r in [(32, 8), (64, 4), (128, 2), (256, 1), (512, 1), (1024, 1)]:
            try:
                trials.append((l, r, time_ms(l, r)))
                print(f'lanes={l} rows={r}: {trials[-1][2]:.4f} ms')
            except RuntimeError as e:  # e.g. too many registers for this block size
                print(f'lanes={l} rows={r}: {e}')
        lanes, rows, _ = min(trials, key=lambda x: x[2])
    if a.groups:
        for l, r in [(256, 1), (512, 1), (1024, 1), (128, 2)]:
            for g in [65535, 132 * 32, 132 * 16, 132 * 8, 132 * 4, 132 * 2]:
                try:
                    print(f'lanes={l} rows={r} groups<={g}: {time_ms(l, r, max_groups=g):.4f} ms')
                except RuntimeError as e:
                    print(f'lanes={l} rows={r} groups<={g}: {e}')
    if a.time or a.tune:
        print(f'time per run: {time_ms(lanes, rows):.4f} ms (lanes={lanes}, rows={rows}, '
              f'{len(prepared)} launches)')
    run_all(lanes, rows)
    torch.cuda.synchronize()
    if a.expected == '-':
        return 0
    expected = read_safetensors(a.expected)
    failed = 0
    for i, o in enumerate(m['outputs']):
        if 'buffer' not in o:
            continue
        want = expected[f'out_{i}']
        raw = buffers[o['buffer']].view(want.dtype)
        got = torch.as_strided(raw, [size(x) for x in o['sizes']],
                               [size(x) for x in o['strides']], size(o['offset']))
        ok = torch.allclose(got.cpu().double(), want.double(), rtol=1e-4, atol=1e-4,
                            equal_nan=True)
        err = (got.cpu().double() - want.double()).abs().max().item() if want.numel() else 0
        print(f'out_{i}: {"ok" if ok else "MISMATCH"} (max abs error {err:.3g})')
        failed += not ok
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
