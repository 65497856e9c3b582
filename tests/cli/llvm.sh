#!/usr/bin/env bash
# fxkit run --backend llvm: every reference workload checked against its recorded outputs, the
# object cache serving a second process, and a kernel that does not compile: Clang's
# diagnostics name the written source's file and line, exit 2, no output file.
. "$(dirname "$0")/lib.bash"
REF="$DATA/corpus/reference"
export FXKIT_CACHE_DIR="$WORK/cache"

if "$FXKIT" run "$REF/softmax/fw_0.graph.txt" --backend llvm 2>&1 | grep -q "without LLVM"; then
  echo "skipped: this fxkit was built without LLVM"
  exit 0
fi

count=0
for dir in "$REF"/*/; do
  expect_exit 0 "$FXKIT" run "$dir/fw_0.graph.txt" --backend llvm \
    --inputs "$dir/fw_0.inputs.safetensors" --check "$dir/fw_0.outputs.safetensors"
  expect_out "check passed"
  count=$((count + 1))
done
[ "$count" -eq 10 ] || fail "checked $count reference workloads, expected 10"

# The second process loads the compiled objects from the cache.
S="$REF/softmax/fw_0"
expect_exit 0 "$FXKIT" run "$S.graph.txt" --backend llvm --stats --repeat 3 \
  --inputs "$S.inputs.safetensors" --check "$S.outputs.safetensors"
expect_err "kernels compiled 0, from cache 1"
expect_err "later runs"
expect_out "check passed"

# A kernel that does not compile (a build option that breaks the prelude): Clang's diagnostic
# with the source file and line, the file written there, exit 2, no output file.
FXKIT_OPENCL_BUILD_OPTIONS="-DFX_INDEX_T=no_such_type" expect_exit 2 "$FXKIT" run "$S.graph.txt" \
  --backend llvm --no-cache -o "$WORK/o.safetensors"
expect_err "does not compile for"
expect_err "error: unknown type name 'no_such_type'"
[ ! -e "$WORK/o.safetensors" ] || fail "an output file was left behind after an error"
loc="$(grep -o '/[^ ]*fxkit-llvm-[^ ]*\.cl:[0-9]*:[0-9]*: error' "$WORK/err" | head -1)"
[ -n "$loc" ] || fail "no file:line:col in the diagnostics: $(head -c 400 "$WORK/err")"
file="${loc%%:*}"
line="$(echo "$loc" | cut -d: -f2)"
[ -f "$file" ] || fail "the source named by the diagnostics ($file) was not written"
sed -n "${line}p" "$file" | grep -q "typedef FX_INDEX_T fx_index_t;" ||
  fail "line $line of $file is not the offending line"
rm -f "$file"
finish
