# Shared helpers for the command-line tests: each test script gets the fxkit binary and the
# test data folder as $1 and $2, and fails on the first unmet expectation.
set -u
FXKIT="$1"
DATA="$2"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_exit CODE CMD...: runs CMD, captures stdout/stderr in $WORK/out, $WORK/err.
expect_exit() {
  local want="$1"; shift
  "$@" >"$WORK/out" 2>"$WORK/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want; stderr: $(head -c 400 "$WORK/err")"
}
expect_err() { grep -qF -- "$1" "$WORK/err" || fail "stderr lacks '$1': $(head -c 400 "$WORK/err")"; }
expect_out() { grep -qF -- "$1" "$WORK/out" || fail "stdout lacks '$1': $(head -c 400 "$WORK/out")"; }
finish() { [ "$failures" -eq 0 ] && echo "ok" || { echo "$failures failure(s)"; exit 1; }; }
