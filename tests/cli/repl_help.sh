#!/usr/bin/env bash
# The shell's command table is the one list of its commands: `help` lists it, `help CMD` ends
# with the command's example, and README.md's table of commands is `help --markdown`.
. "$(dirname "$0")/lib.bash"
readme="$(dirname "$0")/../../README.md"
expect_exit 0 "$FXKIT" -c "help --markdown"
sed -n '/^<!-- repl-commands -->$/,/^<!-- end repl-commands -->$/p' "$readme" | sed '1d;$d' \
  >"$WORK/readme-table"
[ -s "$WORK/readme-table" ] || fail "README.md has no table between the repl-commands markers"
diff "$WORK/out" "$WORK/readme-table" >"$WORK/table.diff" ||
  fail "README.md's table of shell commands differs from 'help --markdown': $(cat "$WORK/table.diff")"
# One row per command of 'help', each with an example.
commands=$("$FXKIT" -c help | grep -c '^  [a-z]')
rows=$(grep -c '^| `' "$WORK/out")
[ "$commands" -eq "$rows" ] || fail "help lists $commands commands, the table has $rows rows"
grep -q '^| `[^`]*` | [^|]* | ``' "$WORK/out" && fail "a command has no example"
expect_exit 0 "$FXKIT" -c "help why"
expect_out "example: why add"
# The examples run: a few of them against a small graph.
g="$DATA/repl/small.graph.txt"
expect_exit 0 "$FXKIT" -c "load $g as m; find op=aten.add.* users>1; ancestors add --depth 2; slice --backward add; print_tabular mul add; why add"
finish
