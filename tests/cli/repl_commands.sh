#!/usr/bin/env bash
# The REPL's rewriting and inspection commands from a script (replace-pattern, diff, insert,
# set-meta, find kernel=, why, render, bench), and Ctrl-C stopping a long command.
. "$(dirname "$0")/lib.bash"
g="$DATA/repl/small.graph.txt"

# The script names its pattern files relative to the data folder.
(cd "$DATA/repl" && "$FXKIT" -f rewrite.fx small.graph.txt) >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] || fail "rewrite.fx failed: $(head -c 600 "$WORK/err")"
expect_err "replaced 1 match"
expect_out "+++ small (8 nodes)"
expect_err "inserted neg after convert : f32[4, 8][8, 1]cpu"
expect_err "inserted r before add_1 : f32[4, 8][8, 1]cpu"
expect_out "+ %r "
expect_err "nodes match"
expect_out "add_1: computed by"
expect_err "undone: replace-pattern square_add.pattern.graph.txt square_add.replacement.graph.txt"
grep -qF "error" "$WORK/err" && fail "rewrite.fx wrote an error: $(head -c 400 "$WORK/err")"

# Pictures are written atomically; an unknown picture format is an error and writes nothing.
expect_exit 0 "$FXKIT" -c "render $WORK/g.dot" "$g"
expect_err "wrote $WORK/g.dot (dot, 8 nodes)"
grep -q "digraph" "$WORK/g.dot" || fail "render wrote no DOT"
expect_exit 2 "$FXKIT" -c "render $WORK/g.bmp" "$g"
expect_err "cannot render 'bmp' pictures"
[ -e "$WORK/g.bmp" ] && fail "a failed render left a file"

expect_exit 0 "$FXKIT" -c "bench 3; bench 2 --backend loops" "$g"
expect_out "small: 3 runs on interp: min "
expect_out "small: 2 runs on loops: min "

# Edits that do not verify or do not parse are refused and leave the graph as it was.
expect_exit 2 "$FXKIT" -c "insert before x: %bad = call_function[target=torch.ops.aten.neg.default](args = (%add,), kwargs = {}); diff" --keep-going "$g"
expect_err "does not verify"
expect_err "error: '@-1': the undo history of 'small' has fewer than 1 edits"

# Ctrl-C (SIGINT) stops a long bench between runs; the rest of the script is skipped, exit 130.
printf 'bench 100000000\nlist\n' >"$WORK/slow.fx"
"$FXKIT" -f "$WORK/slow.fx" "$g" >"$WORK/out" 2>"$WORK/err" &
pid=$!
for _ in $(seq 100); do grep -q "loaded" "$WORK/err" 2>/dev/null && break; sleep 0.1; done
sleep 0.3
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "interrupted script exited $rc, expected 130; stderr: $(head -c 400 "$WORK/err")"
expect_err "slow.fx:1: error: interrupted after "
expect_err "slow.fx:1: interrupted: the rest of the script is skipped"
grep -qF "* small" "$WORK/out" && fail "the line after an interrupted one ran"
finish
