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

# Outputs that could not be read back are refused (issue 19's probe): a damaged FX target is kept
# in FX text and JSON, but readable Python would print it verbatim as code that does not parse.
sed 's/aten.amax.default/aten.amax.def{{{/' "$DATA/corpus/reference/softmax/fw_0.graph.txt" \
  > "$WORK/braces.graph.txt"
expect_exit 2 "$FXKIT" convert "$WORK/braces.graph.txt" --to fxpy -o "$WORK/braces.py"
expect_err "braces.graph.txt:3:"
expect_err "is not a dotted Python name"
[ -e "$WORK/braces.py" ] && fail "an unreadable fxpy file was written"
expect_exit 0 "$FXKIT" convert "$WORK/braces.graph.txt" --to fx -o "$WORK/braces.fx"
expect_exit 0 "$FXKIT" convert "$WORK/braces.fx" --to fx
# A scheduler dump whose buffer name is no identifier: located error (it once became a node that
# FX text printed as '%((((' and could not read back).
sed "s/MemoryDep('buf0'/MemoryDep('(((('/" \
  "$DATA/corpus/inductor/attention/debug/model__1_inference_3.1/ir_pre_fusion.txt" \
  > "$WORK/ir_pre_fusion.txt"
expect_exit 2 "$FXKIT" convert "$WORK/ir_pre_fusion.txt" --to fx -o "$WORK/dump.fx"
expect_err "ir_pre_fusion.txt:19:"
expect_err "buffer name '((((' is not an identifier"

# An existing output file is left untouched when the input is bad.
echo "keep me" > "$WORK/existing.json"
expect_exit 2 "$FXKIT" convert "$WORK/undef.graph.txt" -o "$WORK/existing.json"
[ "$(cat "$WORK/existing.json")" = "keep me" ] || fail "existing output was overwritten"

# Unwritable output folder: clear error, exit 2.
expect_exit 2 "$FXKIT" convert "$DATA/corpus/reference/softmax/fw_0.graph.txt" -o "$WORK/no/such/dir/x.json"
expect_err "cannot write"
finish
