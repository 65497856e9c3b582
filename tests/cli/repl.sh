#!/usr/bin/env bash
# The REPL's command language without a terminal: `fxkit -c` and `fxkit -f`, exit code 2 when a
# command failed, `script:line` in errors, and the session going on after an error with
# --keep-going. Status lines (loaded, erased, wrote, N of M nodes match) are on stderr.
. "$(dirname "$0")/lib.bash"
g="$DATA/repl/small.graph.txt"

expect_exit 0 "$FXKIT" -c "load '$g' as g; find dtype=f16; users add"
expect_err "loaded g: 8 nodes from $g"
expect_out "%y = placeholder : f16[4, 8][8, 1]cpu"
expect_err "1 of 8 nodes match"
expect_out "%relu = torch.ops.aten.relu.default : f32[4, 8][8, 1]cpu"

# Files after the commands are loaded first; with --keep-going a failed command does not stop
# the next one.
expect_exit 2 "$FXKIT" -c "erase add; list" --keep-going "$g"
expect_err "error: cannot erase 'add': it has 2 users (relu, add_1)"
expect_out "* small: 8 nodes ($g)"

expect_exit 0 "$FXKIT" -f "$DATA/repl/edit.fx" "$g"
expect_err "erased relu"
expect_err "renamed add_1 to result"
expect_err "undone: rename add_1 result"
expect_err "redone: rename add_1 result"
expect_out "return (result,)"
grep -qF "error" "$WORK/err" && fail "edit.fx wrote an error: $(head -c 400 "$WORK/err")"

expect_exit 2 "$FXKIT" -f "$DATA/repl/errors.fx" --keep-going "$g"
expect_err "$DATA/repl/errors.fx:3: error: cannot erase 'add'"
expect_err "$DATA/repl/errors.fx:5: error: no node named 'nope' in graph 'small'"
expect_out "%add_1 = torch.ops.aten.add.Tensor"
expect_out "graph: small ($g)"

# Export writes the file atomically and it loads back.
expect_exit 0 "$FXKIT" -c "export json $WORK/g.json; load $WORK/g.json as back; list" "$g"
expect_err "wrote $WORK/g.json (json)"
expect_out "* back: 8 nodes ($WORK/g.json)"

# The plain (non-terminal) interactive loop reads commands from stdin and exits 0.
printf 'load %s\nfrobnicate\ninfo\nquit\nlist\n' "$g" | "$FXKIT" repl >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] || fail "repl on a pipe did not exit 0"
expect_err "error: unknown command 'frobnicate'"
expect_out "nodes: 8"
grep -qF "* small" "$WORK/out" && fail "commands after quit ran"

expect_exit 2 "$FXKIT" -f "$WORK/missing.fx"
expect_err "missing.fx"
expect_exit 2 "$FXKIT" -c
finish
