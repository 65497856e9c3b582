#!/usr/bin/env bash
# Bad input and bad usage: one clear error with file:line:col, exit code 2, no output file.
. "$(dirname "$0")/lib.bash"
printf 'graph():\n    %%x : [num_users=1] = placeholder[target=x]\n    %%y : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%%nope,), kwargs = {})\n    return (y,)' > "$WORK/undef.graph.txt"
expect_exit 2 "$FXKIT" convert "$WORK/undef.graph.txt" -o "$WORK/out.json"
expect_err "undef.graph.txt:3:"
expect_err "nope"
[ ! -e "$WORK/out.json" ] || fail "an output file was left behind after an error"
ls -A "$WORK" | grep -q '\.tmp\.' && fail "a temporary file was left behind"

: > "$WORK/empty.graph.txt"
expect_exit 2 "$FXKIT" info "$WORK/empty.graph.txt"
expect_err "empty.graph.txt:1:1"

expect_exit 2 "$FXKIT" info "$WORK/does-not-exist.graph.txt"
expect_err "cannot open"
expect_exit 2 "$FXKIT" convert "$DATA/corpus/reference/softmax/fw_0.graph.txt" --to nosuch
expect_err "unknown format"
expect_exit 2 "$FXKIT" frobnicate
expect_exit 2 "$FXKIT"

# An existing output file is left untouched when the input is bad.
echo "keep me" > "$WORK/existing.json"
expect_exit 2 "$FXKIT" convert "$WORK/undef.graph.txt" -o "$WORK/existing.json"
[ "$(cat "$WORK/existing.json")" = "keep me" ] || fail "existing output was overwritten"

# Unwritable output folder: clear error, exit 2.
expect_exit 2 "$FXKIT" convert "$DATA/corpus/reference/softmax/fw_0.graph.txt" -o "$WORK/no/such/dir/x.json"
expect_err "cannot write"
finish
