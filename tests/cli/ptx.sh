#!/usr/bin/env bash
# fxkit compile --to ptx -o DIR: every reference workload's kernels as PTX for sm_80 with a
# manifest; where CUDA's ptxas is installed, every .ptx assembles for sm_80. Bad uses: no
# folder, exit 2.
. "$(dirname "$0")/lib.bash"
REF="$DATA/corpus/reference"

if "$FXKIT" compile "$REF/softmax/fw_0.graph.txt" --to ptx -o "$WORK/probe" 2>&1 |
  grep -q "needs a build with LLVM"; then
  echo "skipped: this fxkit was built without LLVM"
  exit 0
fi
if [ -z "${FXKIT_LIBDEVICE:-}" ] && ! compgen -G "/usr/local/cuda*/nvvm/libdevice/libdevice.10.bc" \
  >/dev/null && [ ! -f /usr/lib/cuda/nvvm/libdevice/libdevice.10.bc ]; then
  echo "skipped: no CUDA libdevice (set FXKIT_LIBDEVICE)"
  exit 0
fi
PTXAS="$(ls /usr/local/cuda*/bin/ptxas 2>/dev/null | sort -r | head -1)"
[ -n "$PTXAS" ] || echo "note: no ptxas found; the PTX is not assembled"

count=0
for dir in "$REF"/*/; do
  out="$WORK/$(basename "$dir")"
  expect_exit 0 "$FXKIT" compile "$dir/fw_0.graph.txt" --to ptx -o "$out"
  [ -f "$out/manifest.json" ] || fail "$out: no manifest.json"
  grep -q '"arch": "sm_80"' "$out/manifest.json" || fail "$out: manifest lacks the arch"
  python3 -c "import json,sys; m=json.load(open(sys.argv[1])); assert m['launches']" \
    "$out/manifest.json" || fail "$out/manifest.json is not JSON with launches"
  for ptx in "$out"/*.ptx; do
    [ -e "$ptx" ] || continue
    grep -q "^.target sm_80" "$ptx" || fail "$ptx: not for sm_80"
    grep -q "^.visible .entry" "$ptx" || fail "$ptx: no kernel entry"
    if [ -n "$PTXAS" ]; then
      "$PTXAS" -arch=sm_80 "$ptx" -o "$WORK/k.cubin" 2>"$WORK/ptxas.err" ||
        fail "ptxas rejects $ptx: $(head -c 400 "$WORK/ptxas.err")"
    fi
    count=$((count + 1))
  done
done
[ "$count" -ge 10 ] || fail "only $count PTX kernels for 10 workloads"

# A folder is required.
expect_exit 2 "$FXKIT" compile "$REF/softmax/fw_0.graph.txt" --to ptx
expect_err "--to ptx writes several files: give a folder with -o DIR"
expect_exit 2 "$FXKIT" compile "$REF/softmax/fw_0.graph.txt" --to ptx --passes lower -o "$WORK/x"
expect_err "needs the lower and fuse passes"
[ ! -e "$WORK/x/manifest.json" ] || fail "a manifest was written after an error"
finish
