#!/usr/bin/env bash
# Long fuzzing runs, one target at a time (at low priority: the machine is shared), each
# continuing from the corpus earlier runs left in BUILD_DIR/tests/fuzz/runs/<target>/corpus.
#   tests/fuzz/run-long.sh BUILD_DIR [SECONDS_PER_TARGET=600] [TARGET...]
# BUILD_DIR is a fuzz build (configured with CC=clang-15 CXX=clang++-15
# -DFXKIT_BUILD_FUZZERS=ON and built with --target fxkit_fuzzers). Without TARGETs every target
# runs. Inputs grow to FXKIT_FUZZ_MAX_LEN bytes (default here 4 MiB, not ctest's 64 KiB), from
# the seeds plus generated large ones (make-big-seeds.sh, into BUILD_DIR/tests/fuzz/big-seeds).
# At the end a table gives each target's executions and findings (crash-*, timeout-*, oom-*,
# leak-* files in runs/<target>/), for the table in tests/fuzz/README.md. A finding: reproduce
# with `FUZZER FILE`, minimise with `FUZZER -minimize_crash=1 -runs=10000 FILE`, fix, and add
# the minimised input to tests/data/fuzz-regressions/<target>/ (see README.md).
set -uo pipefail
build="$(cd "$1" && pwd)"; seconds="${2:-600}"; shift; [ $# -gt 0 ] && shift
here="$(cd "$(dirname "$0")" && pwd)"
fuzz="$build/tests/fuzz"
declare -A exe=([fx-text]=FxText [fxpy]=FxPy [json]=Json [nodes-json]=NodesJson
                [safetensors]=Safetensors [provenance]=Provenance [pt2]=Pt2
                [inductor-py]=InductorPy [inductor-cpp]=InductorCpp [inductor-ir]=InductorIr
                [minimalloc-csv]=MiniMallocCsv [repl]=Repl)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fx-text fxpy json nodes-json safetensors provenance pt2
                                      inductor-py inductor-cpp inductor-ir minimalloc-csv repl)
export FXKIT_FUZZ_MAX_LEN="${FXKIT_FUZZ_MAX_LEN:-4194304}"
# A 4 MB input takes seconds under AddressSanitizer (a 2.7 MB readable graph: 5 s, 0.2 s
# without), longer on a loaded machine: 30 s per input before it counts as a hang.
export FXKIT_FUZZ_TIMEOUT="${FXKIT_FUZZ_TIMEOUT:-30}"
big="$fuzz/big-seeds"
if [ ! -d "$big" ]; then
  fxkit_exe=""; [ -x "$build/repl/fxkit" ] && fxkit_exe="$build/repl/fxkit"
  bash "$here/make-big-seeds.sh" "$big" "$here/../data" $fxkit_exe >/dev/null
fi
export LSAN_OPTIONS="suppressions=$here/../lsan.supp" UBSAN_OPTIONS=print_stacktrace=1
summary=()
for t in "${targets[@]}"; do
  bin="$fuzz/fuzz_${exe[$t]}"
  [ -x "$bin" ] || { echo "run-long: $bin is not built, skipped" >&2; continue; }
  dict=""; [ -f "$here/dict/$t.dict" ] && dict="$here/dict/$t.dict"
  log="$fuzz/runs/$t.log"
  mkdir -p "$fuzz/runs"
  echo "run-long: $t for ${seconds}s, inputs up to $FXKIT_FUZZ_MAX_LEN bytes (log: $log)"
  FXKIT_FUZZ_SEED="" FXKIT_FUZZ_EXTRA_SEEDS="$big/$t" nice -n 10 bash "$here/run-fuzzer.sh" "$bin" "$t" "$fuzz/seeds/$t" "$fuzz/runs" "$seconds" \
    "$dict" >"$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  findings=$(find "$fuzz/runs/$t" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' \
              -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
  summary+=("$t ${execs:-?} ${seconds}s exit=$rc findings=$findings")
done
printf '%s\n' "target executions time exit findings" "${summary[@]}" | column -t
