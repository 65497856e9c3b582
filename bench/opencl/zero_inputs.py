#!/usr/bin/env python3
"""A safetensors file of zero-filled inputs (arg_0, arg_1, ...) in the shapes and dtypes an
Inductor module's get_args() makes (its rand_strided lines), without PyTorch: for timing a graph
with `fxkit run G --inputs FILE` where only sizes matter (zeros are valid token ids too).

Usage: zero_inputs.py OUTPUT_CODE.py OUT.safetensors
"""
import json
import re
import struct
import sys

DTYPES = {"float32": ("F32", 4), "float16": ("F16", 2), "bfloat16": ("BF16", 2),
          "float64": ("F64", 8), "int64": ("I64", 8), "int32": ("I32", 4), "bool": ("BOOL", 1)}
code, out = sys.argv[1], sys.argv[2]
header, offset = {}, 0
pattern = r"rand_strided\(\(([^)]*)\), \(([^)]*)\), device='[^']*', dtype=torch\.(\w+)\)"
for i, m in enumerate(re.finditer(pattern, open(code).read())):
    shape = [int(x) for x in m.group(1).split(",") if x.strip()]
    name, size = DTYPES[m.group(3)]
    count = 1
    for s in shape:
        count *= s
    header[f"arg_{i}"] = {"dtype": name, "shape": shape, "data_offsets": [offset, offset + count * size]}
    offset += count * size
text = json.dumps(header).encode()
text += b" " * ((8 - len(text) % 8) % 8)
with open(out, "wb") as f:
    f.write(struct.pack("<Q", len(text)) + text)
    f.truncate(8 + len(text) + offset)  # zeros, without writing them
print(f"{len(header)} inputs, {offset >> 20} MiB")
