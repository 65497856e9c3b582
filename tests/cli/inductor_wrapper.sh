#!/usr/bin/env bash
# Inductor's Python wrapper code reads as a graph: format detected from the content, `info` and
# `convert --to fx` work, and bad input exits 2 with file:line:col.
. "$(dirname "$0")/lib.bash"
w="$DATA/corpus/inductor/dynamic_broadcast/output_code_0.py"
expect_exit 0 "$FXKIT" info "$w"
expect_out "placeholder: 5"
expect_out "arg2_1: f32[s77, s27][s27, 1]cuda:0"
expect_out "1  fxkit.kernel"
expect_exit 0 "$FXKIT" convert "$w" --to fx
expect_out "call_function[target=fxkit.kernel](args = (), kwargs = {name: triton_red_fused_add_mul_sum_unsqueeze_0, args: {in_out_ptr0: %buf1, in_ptr0: %arg2_1"
expect_exit 0 "$FXKIT" convert "$w" --from inductor-py --to json
expect_exit 0 "$FXKIT" convert - --to fx < "$w"
expect_out "fxkit.kernel"
# The output is FX text that fxkit reads back.
"$FXKIT" convert "$w" --to fx -o "$WORK/w.graph.txt" || fail "convert to a file failed"
expect_exit 0 "$FXKIT" info "$WORK/w.graph.txt"
# Malformed input: an unknown call, and a kernel source that never ends.
sed 's/^        args.clear()$/        args.frobnicate()/' "$w" > "$WORK/bad.py"
expect_exit 2 "$FXKIT" convert "$WORK/bad.py" --to fx
expect_err "bad.py:120:9: error: unsupported call 'args.frobnicate' in call()"
head -n 60 "$w" > "$WORK/truncated.py"
echo "def call(args):" >> "$WORK/truncated.py"
expect_exit 2 "$FXKIT" info "$WORK/truncated.py"
expect_err "truncated.py:55:"
expect_err "unterminated triple-quoted string"
finish
