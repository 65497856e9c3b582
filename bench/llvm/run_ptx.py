#!/usr/bin/env python3
"""Runs the output of `fxkit compile G --to ptx -o DIR` on an NVIDIA GPU and checks it.

Loads every DIR/<kernel>.ptx with the CUDA driver (cuModuleLoadData, through ctypes), places
each buffer of manifest.json in its own device allocation (torch), copies the graph inputs
from INPUTS.safetensors (`arg_<i>`), launches the kernels in schedule order with the launch
rules of the manifest (pointwise: 256 threads per block; reductions: lanes x rows), and
compares the outputs with EXPECTED.safetensors (`out_<i>`, rtol/atol 1e-4). Extern launches
(matrix products, convolutions) are not run: a manifest with any is reported and skipped.
Sizes must be constant (no size symbols).

Not yet run on a GPU (written for the coordinator's check; no device time was left).

Usage: run_ptx.py DIR INPUTS.safetensors EXPECTED.safetensors [--lanes 32 --rows 8]
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
    buffers = {b['name']: torch.zeros(max(int(eval(b['bytes'])), 1), dtype=torch.uint8,
                                      device='cuda') for b in m['buffers']}
    inputs = read_safetensors(a.inputs)
    for i, spec in enumerate(m['inputs']):
        if 'buffer' in spec:
            t = inputs[f'arg_{i}'].contiguous().view(torch.uint8).reshape(-1)
            buffers[spec['buffer']][:t.numel()].copy_(t)
    for launch in m['launches']:
        fn, k = functions[launch['kernel']]
        values = []
        for p, arg in zip([p for p in k['params'] if p['kind'] != 'buffer_offset'], launch['args']):
            if 'buffer' in arg:
                values += [ctypes.c_uint64(buffers[arg['buffer']].data_ptr()), ctypes.c_uint64(0)]
            elif 'config' in arg:
                values.append(ctypes.c_int32(a.lanes if arg['config'] == 'lanes' else a.rows))
            else:
                values.append(ctypes.c_int64(int(eval(arg['value']))))
        xnumel = int(eval(launch['xnumel']))
        if k['reduction']:
            block = a.lanes * a.rows
            grid = min((xnumel + a.rows - 1) // a.rows, 65535)
        else:
            block = 256
            grid = min((xnumel + block - 1) // block, 65535)
        params = (ctypes.c_void_p * len(values))(*[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p)
                                                   for v in values])
        check(cu, cu.cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, None, params, None),
              f"launching {launch['kernel']}")
    torch.cuda.synchronize()
    expected = read_safetensors(a.expected)
    failed = 0
    for i, o in enumerate(m['outputs']):
        if 'buffer' not in o:
            continue
        want = expected[f'out_{i}']
        raw = buffers[o['buffer']].view(want.dtype)
        got = torch.as_strided(raw, [int(eval(s)) for s in o['sizes']],
                               [int(eval(s)) for s in o['strides']], int(eval(o['offset'])))
        ok = torch.allclose(got.cpu().double(), want.double(), rtol=1e-4, atol=1e-4,
                            equal_nan=True)
        err = (got.cpu().double() - want.double()).abs().max().item() if want.numel() else 0
        print(f'out_{i}: {"ok" if ok else "MISMATCH"} (max abs error {err:.3g})')
        failed += not ok
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
