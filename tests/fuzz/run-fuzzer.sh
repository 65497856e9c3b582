#!/usr/bin/env bash
# Runs one fuzzer for a fixed time over its seeds, keeping what it learns in RUN_DIR/NAME/corpus
# and any crashing input in RUN_DIR/NAME/ (crash-*, timeout-*, oom-*, leak-*). ctest calls it
# (60 s per target); run-long.sh calls it for long runs.
#   run-fuzzer.sh FUZZER NAME SEED_DIR RUN_DIR SECONDS [DICT] [LIBFUZZER_ARG...]
# Limits: 10 s per input (FXKIT_FUZZ_TIMEOUT) and 2 GiB of memory (malloc of more than that is reported too), so
# an unbounded recursion, loop or allocation from untrusted sizes is a finding. Inputs grow to
# FXKIT_FUZZ_MAX_LEN bytes (64 KiB by default, as under ctest: small inputs run faster; long runs
# use megabytes, see run-long.sh; larger seeds are read truncated). FXKIT_FUZZ_EXTRA_SEEDS names
# one more seed folder (run-long.sh's generated large inputs).
# The 10 s are wall-clock time: on a loaded machine, check a timeout-* by running it alone.
# FXKIT_FUZZ_SEED fixes libFuzzer's random seed (ctest sets one, so the CI stage starts the same
# mutations each time; not an exact replay, see README.md; long runs leave it unset: a new seed
# each run explores further).
set -euo pipefail
fuzzer="$1" name="$2" seeds="$3" runs="$4" seconds="$5" dict="${6:-}"
shift 5; [ $# -gt 0 ] && shift
mkdir -p "$runs/$name/corpus" "$seeds"
args=(-max_total_time="$seconds" -timeout="${FXKIT_FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -max_len="${FXKIT_FUZZ_MAX_LEN:-65536}" -print_final_stats=1
      -artifact_prefix="$runs/$name/")
[ -n "$dict" ] && args+=(-dict="$dict")
[ -n "${FXKIT_FUZZ_SEED:-}" ] && args+=(-seed="$FXKIT_FUZZ_SEED")
extra=()
[ -n "${FXKIT_FUZZ_EXTRA_SEEDS:-}" ] && [ -d "$FXKIT_FUZZ_EXTRA_SEEDS" ] && extra=("$FXKIT_FUZZ_EXTRA_SEEDS")
exec "$fuzzer" "${args[@]}" "$@" "$runs/$name/corpus" "$seeds" "${extra[@]}"
