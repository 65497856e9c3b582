#!/usr/bin/env bash
# Runs many random graphs through the differential check (tests/DifferentialTest.cpp):
#   tests/differential/run-many.sh BUILD_DIR [SEEDS=5000] [FIRST=1] [SHARDS=2] [OPENCL_EVERY=4]
# Seeds are split over SHARDS processes. A failure prints its seed, the failure and the
# minimised graph; a crash names the seed it happened on. Exit 1 if any seed failed.
set -u
BUILD="${1:?usage: run-many.sh BUILD_DIR [SEEDS] [FIRST] [SHARDS] [OPENCL_EVERY]}"
SEEDS="${2:-5000}"
FIRST="${3:-1}"
SHARDS="${4:-2}"
EVERY="${5:-4}"
BIN="$BUILD/tests/test_DifferentialTest"
[ -x "$BIN" ] || { echo "no $BIN (build target test_DifferentialTest)" >&2; exit 2; }
LOGS="$(mktemp -d)"
per=$(((SEEDS + SHARDS - 1) / SHARDS))
start=$(date +%s)
for ((s = 0; s < SHARDS; s++)); do
  first=$((FIRST + s * per))
  count=$((per < FIRST + SEEDS - first ? per : FIRST + SEEDS - first))
  [ "$count" -gt 0 ] || continue
  FXKIT_DIFF_FIRST=$first FXKIT_DIFF_SEEDS=$count FXKIT_DIFF_OPENCL_EVERY=$EVERY \
    FXKIT_DIFF_VERBOSE=1 "$BIN" --gtest_filter='Differential.RandomGraphs*' \
    >"$LOGS/shard$s.log" 2>&1 &
done
wait
status=0
for log in "$LOGS"/shard*.log; do
  if grep -q "^\[  PASSED  \] 1 test" "$log"; then
    continue
  fi
  status=1
  if grep -q "^seed [0-9]*: " "$log"; then
    grep -A200 "^seed [0-9]*: " "$log" | grep -v "^seed [0-9]*$"
  else
    echo "crash after: $(grep '^seed [0-9]*$' "$log" | tail -1)"
    tail -20 "$log"
  fi
done
grep -h "^differential:" "$LOGS"/shard*.log
echo "$SEEDS seeds from $FIRST in $(($(date +%s) - start)) s over $SHARDS processes; logs in $LOGS"
exit $status
