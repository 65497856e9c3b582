#!/usr/bin/env bash
# The kernel cache heals through the real binary (backends/opencl/runtime/KernelCache.h): two
# entries that exchanged contents are both found and rebuilt and `run --check` passes (a layer
# norm once ran softmax's kernel from a swapped entry); a folder, a FIFO or a symbolic link to
# /dev/zero in place of an entry, or a truncated entry, is replaced and the run succeeds; stale
# temporaries of interrupted writes are swept, fresh ones kept; a cache that cannot be written
# costs a warning on LLVM too. For each of --backend llvm and opencl where available.
. "$(dirname "$0")/lib.bash"
REF="$DATA/corpus/reference"
CACHE="$WORK/cache"
export FXKIT_CACHE_DIR="$CACHE"

# run_ok GRAPH BACKEND: `run --check --stats` on a reference workload must pass.
run_ok() {
  local g="$REF/$1/fw_0"
  expect_exit 0 timeout 300 "$FXKIT" run "$g.graph.txt" --inputs "$g.inputs.safetensors" \
    --check "$g.outputs.safetensors" --backend "$2" --stats
  expect_out "check passed"
}

# binary_of BACKEND NAMES...: the .bin entry among NAMES that belongs to BACKEND.
binary_of() {
  local backend="$1"; shift
  for f in "$@"; do
    case "$f" in
      llvm-*.bin) [ "$backend" = llvm ] && echo "$f" ;;
      *.bin) [ "$backend" = opencl ] && echo "$f" ;;
    esac
  done
}

backends=()
if "$FXKIT" run "$REF/softmax/fw_0.graph.txt" --backend llvm 2>&1 | grep -q "without LLVM"; then
  echo "built without LLVM: the object cache not checked"
else
  backends+=(llvm)
fi
if "$FXKIT" devices | grep -q "no OpenCL devices"; then
  echo "no OpenCL device: the OpenCL cache not checked"
else
  backends+=(opencl)
fi

for b in "${backends[@]}"; do
  if [ "$b" = llvm ]; then built="kernels compiled"; else built="kernels built"; fi
  rm -rf "$CACHE"

  # Fill the cache with a layer norm and a softmax, one kernel each.
  run_ok layernorm "$b"
  expect_err "$built 1, from cache 0"
  ln_bin=$(binary_of "$b" $(ls "$CACHE"))
  run_ok softmax "$b"
  sm_bin=$(binary_of "$b" $(ls "$CACHE") | grep -vx "$ln_bin")
  [ -n "$ln_bin" ] && [ -n "$sm_bin" ] || { fail "$b: no cache entries ($(ls "$CACHE"))"; continue; }

  # ---- Swap the two binaries: both found, rebuilt, and the checks pass. ----
  mv "$CACHE/$ln_bin" "$CACHE/swap" && mv "$CACHE/$sm_bin" "$CACHE/$ln_bin" &&
    mv "$CACHE/swap" "$CACHE/$sm_bin"
  run_ok layernorm "$b"
  expect_err "holds the entry of another key"
  expect_err "$built 1, from cache 0"
  expect_err "corrupt cache entries 1"
  run_ok softmax "$b"
  expect_err "holds the entry of another key"
  expect_err "corrupt cache entries 1"
  run_ok layernorm "$b"
  expect_err "$built 0, from cache 1"
  expect_err "corrupt cache entries 0"

  # ---- A folder, a FIFO, a link to /dev/zero, a truncated entry: replaced, the run passes. ----
  for what in folder fifo devzero truncated; do
    p="$CACHE/$ln_bin"
    case "$what" in
      folder) rm -f "$p"; mkdir -p "$p/inside"; echo x > "$p/inside/file" ;;
      fifo) rm -f "$p"; mkfifo "$p" ;;
      devzero) rm -f "$p"; ln -s /dev/zero "$p" ;;
      truncated) truncate -s 100 "$p" ;;
    esac
    run_ok layernorm "$b"
    expect_err "corrupt cache entries 1"
    expect_err "$built 1, from cache 0"
    [ -f "$p" ] && [ ! -L "$p" ] || fail "$b: the $what in place of $ln_bin was not replaced"
    run_ok layernorm "$b"
    expect_err "$built 0, from cache 1"
  done
  [ -e /dev/zero ] || fail "/dev/zero was removed"

  # ---- Stale temporaries swept when the cache is opened, fresh ones kept. ----
  echo partial > "$CACHE/.$ln_bin.tmp.999999.0"
  touch -d '2 hours ago' "$CACHE/.$ln_bin.tmp.999999.0"
  echo partial > "$CACHE/.$sm_bin.tmp.999998.0"
  run_ok layernorm "$b"
  [ -e "$CACHE/.$ln_bin.tmp.999999.0" ] && fail "$b: a stale temporary was not removed"
  [ -e "$CACHE/.$sm_bin.tmp.999998.0" ] || fail "$b: a fresh temporary was removed"
  rm -f "$CACHE/.$sm_bin.tmp.999998.0"
done

# ---- A full disk for the object cache: the run passes and says the objects were not cached. ----
if [[ " ${backends[*]} " == *" llvm "* ]]; then
  rm -rf "$CACHE"
  g="$REF/softmax/fw_0"
  FXKIT_FAULT=enospc expect_exit 0 "$FXKIT" run "$g.graph.txt" --inputs "$g.inputs.safetensors" \
    --check "$g.outputs.safetensors" --backend llvm
  expect_out "check passed"
  expect_err "kernel objects not cached"
  if find "$CACHE" -name '*.tmp*' 2>/dev/null | grep -q .; then fail "temporary files left"; fi
fi
finish
