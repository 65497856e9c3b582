#!/usr/bin/env bash
# The shell in scripts (issue 21): stdout carries only results, status lines (loaded, wrote,
# renamed, N of M nodes match) go to stderr; -c and -f stop at the first failed command unless
# --keep-going and exit with its code; a newline inside -c separates commands like ';'; one
# exit-code convention (0 ok, 1 a check failed, 2 bad input or usage), batches included; binary
# outputs never go to a terminal.
. "$(dirname "$0")/lib.bash"
g="$DATA/repl/small.graph.txt"

# `load G; export fx` piped into a file: only the graph, and the file re-reads byte-identically
# (and is what `convert --to fx` writes, plus the final newline a shell's output has).
expect_exit 0 "$FXKIT" -c "load '$g'; export fx"
cp "$WORK/out" "$WORK/a.fx"
expect_err "loaded small: 8 nodes from $g"
grep -q "loaded" "$WORK/a.fx" && fail "a status line went to stdout"
expect_exit 0 "$FXKIT" -c "load '$WORK/a.fx'; export fx"
cmp -s "$WORK/out" "$WORK/a.fx" || fail "load a.fx; export fx differs from a.fx"
expect_exit 0 "$FXKIT" convert "$g" --to fx
echo >>"$WORK/out"
cmp -s "$WORK/out" "$WORK/a.fx" || fail "shell export fx differs from convert --to fx"
# The same for every graph the shell's tests use and the corpus copy's FX graphs.
piped=0
for f in "$DATA"/repl/*.graph.txt "$DATA"/corpus/*/*/*.graph.txt; do
  [ -e "$f" ] || continue
  "$FXKIT" -c "load '$f' as g; export fx" >"$WORK/p1.fx" 2>"$WORK/err" ||
    { fail "load $f; export fx failed: $(head -c 300 "$WORK/err")"; continue; }
  "$FXKIT" -c "load '$WORK/p1.fx' as g; export fx" >"$WORK/p2.fx" 2>"$WORK/err" ||
    { fail "re-reading the export of $f failed: $(head -c 300 "$WORK/err")"; continue; }
  cmp -s "$WORK/p1.fx" "$WORK/p2.fx" || fail "$f: the piped export does not re-read identically"
  piped=$((piped + 1))
done
[ "$piped" -eq 81 ] || fail "piped $piped graphs through load; export fx, expected 81"

# Query results on stdout, their count on stderr; edits and writes report on stderr.
expect_exit 0 "$FXKIT" -c "find dtype=f16; rename relu r; export json $WORK/g.json; undo" "$g"
[ "$(cat "$WORK/out")" = "%y = placeholder : f16[4, 8][8, 1]cpu" ] ||
  fail "stdout is not just the result: $(head -c 300 "$WORK/out")"
expect_err "1 of 8 nodes match"
expect_err "renamed relu to r"
expect_err "wrote $WORK/g.json (json)"
expect_err "undone: rename relu r"

# A newline inside -c separates commands like ';'.
expect_exit 0 "$FXKIT" -c "find name=add
users add" "$g"
expect_out "%add = torch.ops.aten.add.Tensor"
expect_out "%relu = torch.ops.aten.relu.default"

# -c stops at the first failed command, with its exit code; nothing after it runs.
expect_exit 2 "$FXKIT" -c "erase add; rename relu r; export fx $WORK/x.fx" "$g"
expect_err "error: cannot erase 'add': it has 2 users"
expect_err "stopped at the first error (--keep-going runs the rest)"
grep -qF "renamed" "$WORK/err" && fail "a command after the failed one ran"
[ -e "$WORK/x.fx" ] && fail "an export after the failed command wrote its file"
# --keep-going (anywhere after -c) runs the rest; the exit code still says that one failed.
expect_exit 2 "$FXKIT" -c "erase add; rename relu r; export fx $WORK/x.fx" --keep-going "$g"
expect_err "renamed relu to r"
[ -s "$WORK/x.fx" ] || fail "--keep-going: the export after the failed command did not run"
# An unknown command is a failed command too (with a did-you-mean).
expect_exit 2 "$FXKIT" -c "lod x; export fx $WORK/x2.fx" "$g"
expect_err "error: unknown command 'lod' (did you mean 'load'? try 'help')"
[ -e "$WORK/x2.fx" ] && fail "the script went on after an unknown command"
# A file that does not load stops the script before its first command.
expect_exit 2 "$FXKIT" -c "export fx $WORK/y.fx" "$WORK/missing.graph.txt"
[ -e "$WORK/y.fx" ] && fail "the script ran although its file did not load"

# -f stops at the first failed line (errors.fx fails on lines 3 and 5).
expect_exit 2 "$FXKIT" -f "$DATA/repl/errors.fx" "$g"
expect_err "$DATA/repl/errors.fx:3: error: cannot erase 'add'"
expect_err "$DATA/repl/errors.fx:3: stopped at the first error"
grep -qF "errors.fx:5" "$WORK/err" && fail "-f ran past its first failed line"
grep -qF "%add_1 = " "$WORK/out" && fail "-f ran the line after its first failed one"
expect_exit 2 "$FXKIT" -f "$DATA/repl/errors.fx" --keep-going "$g"
expect_err "$DATA/repl/errors.fx:5: error: no node named 'nope' in graph 'small'"
expect_out "graph: small ($g)"

# Exit codes: bad input is 2 for one file and in a batch; usage errors are 2.
printf 'graph():\n    %%x = frob\n' >"$WORK/bad.graph.txt"
expect_exit 2 "$FXKIT" convert "$WORK/bad.graph.txt" --to json
expect_exit 2 "$FXKIT" convert "$WORK/missing.graph.txt" --to json
expect_exit 2 "$FXKIT" convert "$g" "$WORK/bad.graph.txt" --to json -o "$WORK/batch"
expect_err "converted 1, failed 1"
expect_exit 2 "$FXKIT" convert "$g" "$WORK/missing.graph.txt" --to json -o "$WORK/batch2"
expect_err "converted 1, failed 1"
expect_exit 0 "$FXKIT" convert "$g" "$DATA/repl/square_add.pattern.graph.txt" --to json -o "$WORK/batch3"
expect_exit 2 "$FXKIT" convert
expect_exit 2 "$FXKIT" -c "load '$g'" --frobnicate

# Binary outputs never go to a terminal: refused with a hint when stdout is one; a pipe or -o
# gets the bytes.
tty_run() { # tty_run OUTFILE CMD...: CMD with stdout and stderr on a pseudo-terminal
  python3 - "$@" <<'EOF'
import os, pty, sys
out = sys.argv[1]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
data = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
_, status = os.waitpid(pid, 0)
open(out, "wb").write(data)
sys.exit(os.waitstatus_to_exitcode(status))
EOF
}
for fmt in png pdf pt2; do
  tty_run "$WORK/tty" "$FXKIT" convert "$g" --to "$fmt"
  rc=$?
  [ "$rc" -eq 2 ] || fail "convert --to $fmt onto a terminal exited $rc, expected 2"
  grep -qF -- "--to $fmt is binary: not written to a terminal; give -o FILE.$fmt or redirect stdout" "$WORK/tty" ||
    fail "convert --to $fmt onto a terminal: no hint: $(head -c 300 "$WORK/tty" | cat -v)"
done
# compile and the shell's export refuse the same way.
tty_run "$WORK/tty" "$FXKIT" compile "$g" --passes lower,fuse --to png
rc=$?
[ "$rc" -eq 2 ] || fail "compile --to png onto a terminal exited $rc, expected 2"
grep -qF -- "--to png is binary: not written to a terminal" "$WORK/tty" || fail "compile --to png onto a terminal: no hint"
tty_run "$WORK/tty" "$FXKIT" -c "load '$g'; export pdf"
rc=$?
[ "$rc" -eq 2 ] || fail "export pdf onto a terminal exited $rc, expected 2"
grep -qF "error: pdf is binary: not written to a terminal; give a file, e.g. export pdf graph.pdf" "$WORK/tty" ||
  fail "export pdf onto a terminal: no hint: $(head -c 300 "$WORK/tty" | cat -v)"
expect_exit 0 "$FXKIT" -c "load '$g'; export pdf"
head -c 5 "$WORK/out" | grep -q "%PDF-" || fail "export pdf into a pipe wrote no PDF"
# Text formats still print on a terminal.
tty_run "$WORK/tty" "$FXKIT" convert "$g" --to fx || fail "convert --to fx onto a terminal failed"
grep -qF "torch.ops.aten.relu.default" "$WORK/tty" || fail "convert --to fx printed no graph on a terminal"
expect_exit 0 "$FXKIT" convert "$g" --to png
head -c 8 "$WORK/out" | od -An -c | grep -q "P   N   G" || fail "convert --to png into a pipe wrote no PNG"

# info on a binary file: the error quotes no raw bytes.
head -c 8 "$WORK/out" >"$WORK/pic.graph.txt"
printf '\x01\x02\x1b[31m\xff\n' >>"$WORK/pic.graph.txt"
expect_exit 2 "$FXKIT" info "$WORK/pic.graph.txt"
[ "$(LC_ALL=C tr -d '\n\t -~' <"$WORK/err" | wc -c)" -eq 0 ] ||
  fail "info on a binary file echoed raw bytes: $(cat -v "$WORK/err" | head -c 300)"
# Every command's errors (Error::str): a terminal command in a quoted line is escaped.
printf 'graph():\n    %%x \x1b[31m bad\n' >"$WORK/esc.graph.txt"
for cmd in info run fuse compile; do
  expect_exit 2 "$FXKIT" "$cmd" "$WORK/esc.graph.txt"
  expect_err '%x \x1b[31m bad'
  [ "$(LC_ALL=C tr -d '\n\t -~' <"$WORK/err" | wc -c)" -eq 0 ] ||
    fail "$cmd on a file with an escape sequence echoed it raw: $(cat -v "$WORK/err" | head -c 300)"
done
expect_exit 2 "$FXKIT" -c "load '$WORK/pic.graph.txt'"
[ "$(LC_ALL=C tr -d '\n\t -~' <"$WORK/err" | wc -c)" -eq 0 ] ||
  fail "load of a binary file echoed raw bytes: $(cat -v "$WORK/err" | head -c 300)"
finish
