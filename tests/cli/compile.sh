#!/usr/bin/env bash
# fxkit compile: the pass pipeline to the wrapper program, --time-passes, output formats, and
# errors (unknown pass, pass order) with exit code 2 and no output file.
. "$(dirname "$0")/lib.bash"
D="$DATA/corpus/inductor/dynamic_broadcast/aten_post_0.graph.txt"
expect_exit 0 "$FXKIT" compile "$D" --time-passes
expect_out "call_function[target=fxkit.kernel]"
expect_out "xnumel: %mul"
expect_err "lower"
expect_err "total"
expect_exit 0 "$FXKIT" compile "$D" --passes lower,fuse,wrapper,substitute-size-args -o "$WORK/w.graph.txt"
grep -qF "xnumel: s17*s77" "$WORK/w.graph.txt" || fail "substituted size argument missing"
# The wrapper's JSON form converts back to the same FX text.
expect_exit 0 "$FXKIT" compile "$D" --passes lower,fuse,wrapper,substitute-size-args -o "$WORK/w.json"
expect_exit 0 "$FXKIT" convert "$WORK/w.json" -o "$WORK/w2.graph.txt"
cmp -s "$WORK/w.graph.txt" "$WORK/w2.graph.txt" || fail "wrapper JSON does not convert back to the same FX text"
expect_exit 2 "$FXKIT" compile "$D" --passes lower,frobnicate -o "$WORK/bad.txt"
expect_err "unknown pass 'frobnicate'"
[ ! -e "$WORK/bad.txt" ] || fail "an output file was left behind"
expect_exit 2 "$FXKIT" compile "$D" --passes fuse
expect_err "run 'lower' first"
finish
