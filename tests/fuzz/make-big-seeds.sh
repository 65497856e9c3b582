#!/usr/bin/env bash
# Large seeds (megabytes) for long fuzzing runs with large inputs (run-long.sh): libFuzzer
# grows inputs slowly, so without these the large-input paths (a reader's cost per node, deep
# or wide structures, allocation from sizes in the file) are reached only by the structured
# mutator's repeated blocks. Generated, not stored.
#   make-big-seeds.sh OUT_DIR DATA_DIR [FXKIT]
# DATA_DIR is tests/data (the Inductor wrapper seed reuses the header of a small wrapper
# there); FXKIT (an fxkit executable) converts the large FX graph into fxkit JSON, without it
# that target gets no large seed.
set -euo pipefail
out="$1" data="$2" fxkit="${3:-}"
mkdir -p "$out"/{fx-text,fxpy,json,nodes-json,safetensors,minimalloc-csv,inductor-py,repl}

# chain N: an N-node chain of pointwise ops with tensor types as FX text (about 115 bytes a node).
chain() {
  awk -v n="$1" 'BEGIN {
  print "graph():"
  print "    %x : [num_users=1] = placeholder[target=x]"
  prev = "x"
  for (i = 0; i < n; i++) {
    op = (i % 3 == 0) ? "add.Tensor" : (i % 3 == 1) ? "mul.Tensor" : "relu.default"
    args = (i % 3 == 2) ? "(%" prev ",)" : "(%" prev ", %x)"
    printf "    %%n%d : f32[s0, 64][64, 1] = call_function[target=torch.ops.aten.%s](args = %s, kwargs = {})\n", i, op, args
    prev = "n" i
  }
  print "    return (" prev ",)"
}'
}
graph="$out/fx-text/chain30k.graph.txt"
chain 30000 >"$graph"

# The same as print_readable() Python.
awk 'BEGIN {
  print "class GraphModule(torch.nn.Module):"
  print "    def forward(self, x: \"f32[s0, 64][64, 1]\"):"
  prev = "x"
  for (i = 0; i < 30000; i++) {
    if (prev == "x") printf "        n%d: \"f32[s0, 64][64, 1]\" = torch.ops.aten.add.Tensor(x, x)\n", i
    else printf "        n%d: \"f32[s0, 64][64, 1]\" = torch.ops.aten.add.Tensor(%s, x);  %s = None\n", i, prev, prev
    prev = "n" i
  }
  print "        return (" prev ",)"
}' >"$out/fxpy/chain30k.readable.py"

# An Inductor wrapper with 20,000 kernel launches and buffers (the kernel definitions are
# those of a small hand-made wrapper).
{
  sed '/^del async_compile/q' "$data/inductor-wrapper/small_wrapper.py"
  echo "def call(args):"
  echo "    arg0_1, arg1_1, arg2_1 = args"
  echo "    args.clear()"
  echo "    assert_size_stride(arg1_1, (64, 8), (8, 1))"
  echo "    stream0 = get_raw_stream(0)"
  for i in $(seq 0 19999); do
    echo "    buf$i = empty_strided_cuda((64, 8), (8, 1), torch.float32)"
    echo "    triton_poi_fused_add_mul_0.run(arg1_1, buf$i, 64, 512, stream=stream0)"
  done
  echo "    return (buf19999, )"
} >"$out/inductor-py/launches20k.py"

# A minimalloc problem with 100,000 buffers.
awk 'BEGIN { print "id,lower,upper,size"; for (i = 0; i < 100000; i++) printf "%d,%d,%d,%d\n", i, i, i + 1 + i % 97, 64 * (1 + i % 13) }' \
  >"$out/minimalloc-csv/buffers100k.csv"

# A REPL session of 2,000 lines over its graph (the harness verifies every graph after each line:
# 20,000 lines took 36 s under AddressSanitizer, past the per-input limit).
for i in $(seq 0 499); do
  printf 'find op=add\nusers add\nrename add a%d\nundo\n' "$i"
done >"$out/repl/session2k.txt"

# A safetensors file with 20,000 small tensors (header about 1.3 MB).
if command -v python3 >/dev/null; then
  python3 - "$out/safetensors/tensors20k.safetensors" <<'PY'
import json, struct, sys
header, offset = {}, 0
for i in range(20000):
    header[f"t{i}"] = {"dtype": "F32", "shape": [2, 2], "data_offsets": [offset, offset + 16]}
    offset += 16
text = json.dumps(header).encode()
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<Q", len(text)) + text + bytes(offset))
PY
fi

# A 15,000-node chain with a nodes.json sidecar of every node (a graph, a NUL byte, the sidecar).
{
  chain 15000
  printf '\0'
  awk 'BEGIN {
    printf "[{\"name\": \"x\", \"op\": \"placeholder\", \"target\": \"x\", \"val\": {\"dtype\": \"float32\", \"shape\": [\"s0\", \"64\"], \"stride\": [\"64\", \"1\"], \"device\": \"cpu\"}}"
    for (i = 0; i < 15000; i++)
      printf ",\n{\"name\": \"n%d\", \"op\": \"call_function\", \"val\": {\"dtype\": \"float32\", \"shape\": [\"s0\", \"64\"], \"stride\": [\"64\", \"1\"], \"device\": \"cpu\"}}", i
    print "]"
  }'
} >"$out/nodes-json/chain15k"

if [ -n "$fxkit" ]; then
  "$fxkit" convert "$graph" --to json -o "$out/json/chain30k.json" >/dev/null 2>&1 || true
fi
for d in "$out"/*; do echo "big seeds: $(basename "$d"): $(du -sh "$d" | cut -f1)"; done
