#!/usr/bin/env bash
# Fault injection (FXKIT_FAULT, see ir/FaultInjection.h): device out of memory, a kernel that
# does not build, a full disk for outputs and for the kernel cache, an unwritable output folder,
# truncated safetensors, a cache entry changed on disk, SIGINT during a batch conversion. Each
# gives a clear error and the documented exit code, leaves no partial output and no corrupt
# cache entry, and the next run succeeds. (tests/cli/run.sh covers a truncated --inputs file;
# tests/OpenCLRuntimeTest.cpp corrupted cache entries and an unwritable cache folder.)
. "$(dirname "$0")/lib.bash"
REF="$DATA/corpus/reference"
S="$REF/softmax/fw_0"
CACHE="$WORK/cache"
export FXKIT_CACHE_DIR="$CACHE"
mkdir -p "$WORK/two"
cp "$S.graph.txt" "$WORK/two/a.graph.txt"
cp "$REF/mlp/fw_0.graph.txt" "$WORK/two/b.graph.txt"
RUN=(run "$S.graph.txt" --inputs "$S.inputs.safetensors" --check "$S.outputs.safetensors")

no_temp_files() { # no temporary file left anywhere under $1
  if find "$1" -name '*.tmp*' 2>/dev/null | grep -q .; then fail "temporary files left in $1"; fi
}

# ---- A full disk for outputs: exit 2, nothing written, an existing file not clobbered. ----
mkdir -p "$WORK/o"
FXKIT_FAULT=enospc expect_exit 2 "$FXKIT" convert "$S.graph.txt" -o "$WORK/o/s.json"
expect_err "No space left on device"
expect_err "s.json"
[ -e "$WORK/o/s.json" ] && fail "a partial output was left after ENOSPC"
echo "old contents" > "$WORK/o/keep.json"
FXKIT_FAULT=enospc expect_exit 2 "$FXKIT" convert "$S.graph.txt" -o "$WORK/o/keep.json"
[ "$(cat "$WORK/o/keep.json")" = "old contents" ] || fail "a failed write clobbered the old file"
FXKIT_FAULT=enospc expect_exit 2 "$FXKIT" run "$S.graph.txt" --inputs "$S.inputs.safetensors" \
  -o "$WORK/o/out.safetensors"
expect_err "No space left on device"
[ -e "$WORK/o/out.safetensors" ] && fail "a partial safetensors output was left after ENOSPC"
FXKIT_FAULT=enospc expect_exit 2 "$FXKIT" convert "$WORK"/two/*.graph.txt -o "$WORK/o/batch" \
  --to json
expect_err "converted 0, failed 2"
no_temp_files "$WORK/o"
expect_exit 0 "$FXKIT" convert "$S.graph.txt" -o "$WORK/o/s.json"
[ -s "$WORK/o/s.json" ] || fail "the run after ENOSPC wrote nothing"

# Folder outputs: a full disk leaves no folder, and an existing folder keeps its old generation
# whole (the new one is written beside it and renamed into place only when complete).
FXKIT_FAULT=enospc expect_exit 2 "$FXKIT" compile "$S.graph.txt" --to opencl -o "$WORK/o/cl"
expect_err "No space left on device"
[ -e "$WORK/o/cl" ] && fail "a partial folder was left after ENOSPC"
expect_exit 0 "$FXKIT" compile "$S.graph.txt" --to opencl -o "$WORK/o/cl"
before="$(cd "$WORK/o/cl" && ls | sort | xargs cat | md5sum)"
FXKIT_FAULT=enospc expect_exit 2 "$FXKIT" compile "$REF/layernorm/fw_0.graph.txt" --to opencl \
  -o "$WORK/o/cl"
expect_err "the folder '$WORK/o/cl' is unchanged"
[ "$(cd "$WORK/o/cl" && ls | sort | xargs cat | md5sum)" = "$before" ] ||
  fail "a failed folder write changed the old folder"
FXKIT_FAULT=enospc expect_exit 2 "$FXKIT" compile "$S.graph.txt" --to wrapper-cpp -o "$WORK/o/w"
[ -e "$WORK/o/w" ] && fail "a partial wrapper folder was left after ENOSPC"
no_temp_files "$WORK/o"
# The user's CMake build tree inside a wrapper folder survives a new generation.
expect_exit 0 "$FXKIT" compile "$S.graph.txt" --to wrapper-cpp -o "$WORK/o/w"
mkdir -p "$WORK/o/w/build" && echo "cache" > "$WORK/o/w/build/CMakeCache.txt"
expect_exit 0 "$FXKIT" compile "$REF/layernorm/fw_0.graph.txt" --to wrapper-cpp -o "$WORK/o/w"
[ "$(cat "$WORK/o/w/build/CMakeCache.txt" 2>/dev/null)" = "cache" ] ||
  fail "a new wrapper generation dropped the user's build folder"
[ "$(ls "$WORK/o/w" | sort | tr '\n' ' ')" = "CMakeLists.txt build driver.cpp fw_0.cpp fw_0.h " ] ||
  fail "wrapper folder holds: $(ls "$WORK/o/w")"
no_temp_files "$WORK/o"

# ---- An unwritable output folder (a path through a file): exit 2, clear message. ----
echo "a file" > "$WORK/notadir"
expect_exit 2 "$FXKIT" convert "$S.graph.txt" -o "$WORK/notadir/s.json"
expect_err "cannot write '$WORK/notadir/s.json'"
expect_exit 2 "$FXKIT" convert "$WORK"/two/*.graph.txt -o "$WORK/notadir/d" --to json
expect_err "cannot create output folder"

# ---- Truncated safetensors for --check (run.sh covers --inputs): exit 2, names the file. ----
head -c 200 "$S.outputs.safetensors" > "$WORK/trunc.safetensors"
expect_exit 2 "$FXKIT" run "$S.graph.txt" --inputs "$S.inputs.safetensors" \
  --check "$WORK/trunc.safetensors"
expect_err "trunc.safetensors"

# ---- SIGINT during a batch conversion: stops, exit 130, every written file complete. ----
mkdir -p "$WORK/many"
for i in $(seq 1 40); do cp "$S.graph.txt" "$WORK/many/g$i.graph.txt"; done
expect_exit 0 "$FXKIT" convert "$WORK"/many/*.graph.txt -o "$WORK/want" --to json
# signal_mid_batch SIGNAL DIR [ARGS...]: converts the 40 graphs into DIR slowly (FXKIT_FAULT=slow),
# sends SIGNAL once the batch is under way and sets $code to its exit code. Once under way: a
# SIGINT that arrives before fxkit installs its handler is ignored (background jobs of a script
# ignore SIGINT), and a loaded machine (the sanitizer stage) can take longer than any fixed
# sleep to start the process.
signal_mid_batch() {
  local sig="$1" dir="$2"; shift 2
  FXKIT_FAULT=slow "$FXKIT" convert "$WORK"/many/*.graph.txt -o "$dir" --to json "$@" \
    >"$WORK/out" 2>"$WORK/err" &
  local pid=$!
  for _ in $(seq 1 200); do
    [ -n "$(ls -A "$dir" 2>/dev/null)" ] && break
    sleep 0.05
  done
  kill -"$sig" "$pid"
  wait "$pid" 2>/dev/null
  code=$?
}
signal_mid_batch INT "$WORK/int" --jobs 2
[ "$code" -eq 130 ] || fail "an interrupted batch exited $code, expected 130"
expect_err "interrupted: converted"
written=$(ls "$WORK/int" | wc -l)
[ "$written" -lt 40 ] || fail "the batch did not stop on SIGINT ($written of 40 written)"
for f in "$WORK"/int/*.json; do
  [ -e "$f" ] && { cmp -s "$f" "$WORK/want/$(basename "$f")" || fail "partial output $f after SIGINT"; }
done
no_temp_files "$WORK/int"
expect_exit 0 "$FXKIT" convert "$WORK"/many/*.graph.txt -o "$WORK/int" --to json
expect_err "converted 40, failed 0"
diff -r "$WORK/want" "$WORK/int" >/dev/null || fail "the run after SIGINT differs from an uninterrupted one"

# SIGHUP (a closed terminal or ssh session) stops a batch the same way.
signal_mid_batch HUP "$WORK/hup" --jobs 2
[ "$code" -eq 130 ] || fail "a batch stopped by SIGHUP exited $code, expected 130"
expect_err "interrupted: converted"
for f in "$WORK"/hup/*.json; do
  [ -e "$f" ] && { cmp -s "$f" "$WORK/want/$(basename "$f")" || fail "partial output $f after SIGHUP"; }
done
no_temp_files "$WORK/hup"

# ---- SIGKILL cannot be handled: a killed run leaves its hidden temporary behind. The next
# output into that folder removes the temporaries of processes that are gone (file and folder
# forms, the `.old` of a replaced folder, an older fxkit's pid-less ones after an hour) and keeps
# those of a running process and every other file.
mkdir -p "$WORK/killed"
true & dead=$!
wait "$dead"
touch "$WORK/killed/.a.fx.tmp.$dead.Ab12Cd" "$WORK/killed/.keep.tmp.$$.Ab12Cd" \
  "$WORK/killed/.x.json.tmp.zZ9yY8" "$WORK/killed/.notours.tmp.12.toolongname" "$WORK/killed/user.tmp"
touch -d '2 hours ago' "$WORK/killed/.x.json.tmp.zZ9yY8"
mkdir -p "$WORK/killed/.dir.tmp.$dead.QwErTy/sub" "$WORK/killed/.dir.tmp.$dead.QwErTy.old"
expect_exit 0 "$FXKIT" convert "$S.graph.txt" -o "$WORK/killed/b.fx"
for gone in ".a.fx.tmp.$dead.Ab12Cd" ".x.json.tmp.zZ9yY8" ".dir.tmp.$dead.QwErTy" \
            ".dir.tmp.$dead.QwErTy.old"; do
  [ -e "$WORK/killed/$gone" ] && fail "the stale temporary $gone was not removed"
done
for kept in ".keep.tmp.$$.Ab12Cd" ".notours.tmp.12.toolongname" user.tmp b.fx; do
  [ -e "$WORK/killed/$kept" ] || fail "$kept was removed (not a stale temporary)"
done
# A real SIGKILL in the middle of a batch, then a rerun into the same folder: no temporary left.
signal_mid_batch KILL "$WORK/kill9"
expect_exit 0 "$FXKIT" convert "$WORK"/many/*.graph.txt -o "$WORK/kill9" --to json
no_temp_files "$WORK/kill9"

# ---- OpenCL faults (need a device). ----
if "$FXKIT" devices | grep -q "no OpenCL devices"; then
  echo "no OpenCL device: OpenCL faults not checked"
  finish
  exit 0
fi

# Device out of memory: exit 2, the failing allocation named, no output file.
FXKIT_FAULT=alloc expect_exit 2 "$FXKIT" "${RUN[@]}" --backend opencl -o "$WORK/o/a.safetensors"
expect_err "allocating"
expect_err "CL_MEM_OBJECT_ALLOCATION_FAILURE"
[ -e "$WORK/o/a.safetensors" ] && fail "an output was left after an allocation failure"

# A kernel that does not build: exit 2, the build log and the path of the source, which holds
# the kernel; nothing enters the cache.
rm -rf "$CACHE"
FXKIT_FAULT=build expect_exit 2 "$FXKIT" "${RUN[@]}" --backend opencl
expect_err "does not build"
expect_err "fx_undeclared_by_fault_injection" # from the compiler's build log
src=$(grep -ao 'source: [^ ]*\.cl' "$WORK/err" | head -1 | cut -d' ' -f2)
[ -n "$src" ] && grep -q "__kernel void fused_" "$src" || fail "the kernel source file '$src' is missing"
# The compiler's log is part of the one error, indented under it, its positions in that file
# (not in the driver's own temporary: pocl's kcache/tempfile_X.cl, NVIDIA's <kernel>).
grep -q "^  .*fx_undeclared_by_fault_injection" "$WORK/err" || fail "the build log is not under the error: $(cat "$WORK/err")"
[ -n "$src" ] && grep -qF "$src:" <(grep "^  " "$WORK/err") || fail "the build log does not name $src: $(cat "$WORK/err")"
[ -n "$src" ] && rm -f "$src"
[ -z "$(ls -A "$CACHE" 2>/dev/null)" ] || fail "a failed build left cache entries: $(ls "$CACHE")"

# A full disk for the kernel cache: the run succeeds (the cache only saves time) and says so;
# no entry, partial or whole, is left.
rm -rf "$CACHE"
FXKIT_FAULT=enospc expect_exit 0 "$FXKIT" "${RUN[@]}" --backend opencl
expect_out "check passed"
expect_err "kernel cache"
[ -z "$(ls -A "$CACHE" 2>/dev/null)" ] || fail "a full disk left cache entries: $(ls "$CACHE")"

# The next runs succeed: the first builds and fills the cache, the second reads it.
expect_exit 0 "$FXKIT" "${RUN[@]}" --backend opencl --stats
expect_err "kernels built 1, from cache 0"
expect_exit 0 "$FXKIT" "${RUN[@]}" --backend opencl --stats
expect_err "kernels built 0, from cache 1"

# A cache entry changed on disk: found corrupt, removed, rebuilt; the result is still right.
for f in "$CACHE"/*; do printf 'X' | dd of="$f" bs=1 seek=40 conv=notrunc status=none; done
expect_exit 0 "$FXKIT" "${RUN[@]}" --backend opencl --stats
expect_out "check passed"
expect_err "kernels built 1, from cache 0"
expect_err "corrupt cache entries 2"
expect_exit 0 "$FXKIT" "${RUN[@]}" --backend opencl --stats
expect_err "kernels built 0, from cache 1"
no_temp_files "$CACHE"
# ---- Memory: cloning a 128 MiB tensor takes the input and the result, not 1 GiB more of
# per-element index tables; under a tighter limit, a clear error and exit 2, not SIGABRT. Not
# under AddressSanitizer, whose shadow memory needs the address space `ulimit -v` takes away.
if [ -z "${LSAN_OPTIONS:-}" ]; then
  printf 'graph():\n    %%x : Tensor "f32[8, 4194304][4194304, 1]cpu"[num_users=1] = placeholder[target=x]\n    %%t : [num_users=1] = call_function[target=torch.ops.aten.t.default](args = (%%x,), kwargs = {})\n    %%c : [num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%%t,), kwargs = {memory_format: torch.contiguous_format})\n    return (c,)\n' > "$WORK/big.graph.txt"
  (ulimit -v 700000; exec "$FXKIT" run "$WORK/big.graph.txt") > "$WORK/out" 2> "$WORK/err"
  rc=$?; [ $rc -eq 0 ] || fail "clone of 128 MiB under a 700 MB limit exited $rc: $(head -c 300 "$WORK/err")"
  expect_out "out_0: f32[4194304, 8]"
  (ulimit -v 400000; exec "$FXKIT" run "$WORK/big.graph.txt") > "$WORK/out" 2> "$WORK/err"
  rc=$?; [ $rc -eq 2 ] || fail "clone of 128 MiB under a 400 MB limit exited $rc, expected 2"
  expect_err "cannot allocate"
fi
# ---- Budgets: a sparse 64 GB safetensors file is refused from its header, at once, with the
# figures (not read whole); FXKIT_MAX_TENSOR_BYTES lowers the per-tensor limit.
python3 - "$WORK/sparse.safetensors" <<'PY'
import json, struct, sys
n = 1 << 34  # float32 elements: 64 GiB
h = json.dumps({"arg_0": {"dtype": "F32", "shape": [n], "data_offsets": [0, 4 * n]}}).encode()
h += b" " * (-len(h) % 8)
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<Q", len(h)) + h)
    f.truncate(8 + len(h) + 4 * n)
PY
printf 'graph():\n    %%x : Tensor "f32[17179869184][1]cpu"[num_users=1] = placeholder[target=x]\n    %%y : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%%x,), kwargs = {})\n    return (y,)\n' > "$WORK/neg.graph.txt"
FXKIT_MAX_TENSOR_BYTES=1000000000 expect_exit 2 "$FXKIT" run "$WORK/neg.graph.txt" \
  --inputs "$WORK/sparse.safetensors"
expect_err "needs 68719476736 bytes, more than the limit of 1000000000"
rm -f "$WORK/sparse.safetensors"
FXKIT_MAX_TENSOR_BYTES=1000 expect_exit 2 "$FXKIT" run "$S.graph.txt"
expect_err "more than the limit of 1000 "
# ---- A safetensors file shortened by another process while fxkit reads it: an error, exit 2,
# never SIGBUS (a mapped file raises SIGBUS on a page past the new end; the reader uses pread).
# The truncation races the read: either the read ends early ("the file ended at byte") or it
# completed and the extra tensor is refused; both are exit 2. Three tries vary the moment.
python3 - "$WORK/shrink.safetensors" <<'PY'
import json, struct, sys
n = 1 << 26  # float32 elements: 256 MiB, sparse
h = json.dumps({"big": {"dtype": "F32", "shape": [n], "data_offsets": [0, 4 * n]}}).encode()
h += b" " * (-len(h) % 8)
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<Q", len(h)) + h)
    f.truncate(8 + len(h) + 4 * n)
PY
for delay in 0.01 0.05 0.15; do
  cp --sparse=always "$WORK/shrink.safetensors" "$WORK/shrinking.safetensors"
  "$FXKIT" run "$S.graph.txt" --inputs "$WORK/shrinking.safetensors" >"$WORK/out" 2>"$WORK/err" &
  pid=$!
  sleep "$delay"
  truncate -s 4096 "$WORK/shrinking.safetensors"
  wait "$pid" && rc=0 || rc=$?
  [ "$rc" -eq 2 ] || fail "a safetensors file shortened while read: exit $rc (want 2): $(head -c 300 "$WORK/err")"
done
rm -f "$WORK/shrink.safetensors" "$WORK/shrinking.safetensors"
# ---- Element counts past int64: refused at shape inference on every backend and in the
# compiled forms, never wrapped (sum(expand(a, [2**62 + 1, 4])) once gave 4.0).
printf 'graph():\n    %%a : Tensor "f32[1, 4][4, 1]cpu"[num_users=1] = placeholder[target=a]\n    %%e : [num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%%a, [4611686018427387905, 4]), kwargs = {})\n    %%s : [num_users=1] = call_function[target=torch.ops.aten.sum.default](args = (%%e,), kwargs = {})\n    return (s,)\n' > "$WORK/huge.graph.txt"
for b in interp loops opencl llvm; do
  expect_exit 2 "$FXKIT" run "$WORK/huge.graph.txt" --backend $b
  expect_err "node 'e': tensor f32[4611686018427387905, 4]"
  expect_err "than a 64-bit count (2^63 - 1) holds"
done
printf 'graph():\n    %%a : Tensor "f32[4294967296, 4294967296][4294967296, 1]cpu"[num_users=1] = placeholder[target=a]\n    %%n : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%%a,), kwargs = {})\n    return (n,)\n' > "$WORK/huge2.graph.txt"
expect_exit 2 "$FXKIT" compile "$WORK/huge2.graph.txt" --to wrapper-py -o "$WORK/huge2.py"
expect_err "node 'a': tensor f32[4294967296, 4294967296]"
[ -e "$WORK/huge2.py" ] && fail "a refused compile wrote its output"

# Symbolic sizes are checked when their symbols get values: an unbacked u from `.item()` makes
# full([u, u]) 2^80 elements (u = 2^40: once summed to 0.0 on the loop executor) or 2^64 bytes
# (u = 2^31: a kernel looping 2^62 times). Refused when bound, naming the buffer and the value;
# a small u runs.
i64_input() { # i64_input FILE VALUE: a safetensors file holding one 0-d int64, arg_0
  local header='{"arg_0":{"dtype":"I64","shape":[],"data_offsets":[0,8]}}' bytes="" i
  for i in 0 1 2 3 4 5 6 7; do bytes+=$(printf '\\x%02x' $((($2 >> (8 * i)) & 255))); done
  { printf "$(printf '\\x%02x' ${#header})\\0\\0\\0\\0\\0\\0\\0"; printf '%s' "$header"; printf "$bytes"; } > "$1"
}
printf 'graph():\n    %%a : Tensor "i64[][]cpu"[num_users=1] = placeholder[target=a]\n    %%u : [num_users=2] = call_function[target=torch.ops.aten._local_scalar_dense.default](args = (%%a,), kwargs = {})\n    %%e : [num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([%%u, %%u], 1.0), kwargs = {dtype: torch.float32, device: cpu, pin_memory: False})\n    %%s : [num_users=1] = call_function[target=torch.ops.aten.sum.default](args = (%%e,), kwargs = {})\n    return (s,)\n' > "$WORK/bound.graph.txt"
i64_input "$WORK/u3.safetensors" 3
i64_input "$WORK/u31.safetensors" 2147483648
i64_input "$WORK/u40.safetensors" 1099511627776
for b in interp loops opencl llvm; do
  expect_exit 0 "$FXKIT" run "$WORK/bound.graph.txt" --backend $b --inputs "$WORK/u3.safetensors"
  for u in u31 u40; do
    expect_exit 2 timeout 60 "$FXKIT" run "$WORK/bound.graph.txt" --backend $b --inputs "$WORK/$u.safetensors"
    # The interpreter allocates each tensor (Tensor::zeros refuses it); the compiled forms
    # check every buffer when u is bound.
    if [ $b = interp ]; then expect_err "overflow the"; else expect_err "than a 64-bit count"; fi
  done
done
expect_exit 2 "$FXKIT" run "$WORK/bound.graph.txt" --backend loops --inputs "$WORK/u31.safetensors"
expect_err "buffer buf0 (f32[u, u][u, 1]cpu) with u = 2147483648"
FXKIT_MAX_TENSOR_BYTES=1000 expect_exit 2 "$FXKIT" run "$WORK/bound.graph.txt" --backend loops \
  --inputs "$WORK/u31.safetensors"
i64_input "$WORK/u100.safetensors" 100
FXKIT_MAX_TENSOR_BYTES=1000 expect_exit 2 "$FXKIT" run "$WORK/bound.graph.txt" --backend loops \
  --inputs "$WORK/u100.safetensors"
expect_err "40000 bytes, more than one tensor may take (1000 bytes"
finish
