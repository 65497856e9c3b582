#!/usr/bin/env bash
# Losing work (issue 21): loading over a graph with unsaved edits is refused without --force
# (saying what would be lost); quit, exit and end of input with unsaved edits warn once; and,
# under a pseudo-terminal, a session with completion, Ctrl-C stopping a long command (bench,
# a Graphviz layout) and leaving the session intact, and the unsaved-edits warning on quit and
# Ctrl-D.
. "$(dirname "$0")/lib.bash"
g="$DATA/repl/small.graph.txt"

# Reloading over unsaved edits is refused, and says what would be lost; the graph stays edited.
expect_exit 2 "$FXKIT" -c "load '$g' as a; rename relu r; load '$g' as a"
expect_err "error: graph 'a' has 1 unsaved edit and 1 undo step that loading over it would lose: export it first, load under another name ('as NAME'), or add --force"
expect_exit 0 "$FXKIT" -c "load '$g' as a; rename relu r; load '$g' as b; use a; show r"
expect_out "%r : Tensor"
# --force replaces it; so does a load after the edits were exported.
expect_exit 0 "$FXKIT" -c "load '$g' as a; rename relu r; load '$g' as a --force; show relu"
expect_out "%relu : Tensor"
expect_exit 0 "$FXKIT" -c "load '$g' as a; rename relu r; export fx $WORK/a.fx; load '$g' as a; show relu"
expect_out "%relu : Tensor"
# An undo is an edit too (the graph differs from the exported file).
expect_exit 2 "$FXKIT" -c "load '$g' as a; rename relu r; export fx $WORK/a.fx; undo; load '$g' as a"
expect_err "has 1 unsaved edit"

# The shell on a pipe: quit with unsaved edits warns once (the next line still runs), a second
# quit leaves; end of input is a quit too.
printf 'load %s\nrename relu r\nquit\nlist\nquit\nlist\n' "$g" | "$FXKIT" repl >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] || fail "repl on a pipe did not exit 0"
expect_err "warning: unsaved edits in small (1 edit) (export them, or quit again to leave without saving)"
[ "$(grep -c '^\* small' "$WORK/out")" -eq 1 ] || fail "after the warning the shell did not go on, or a second quit did not leave: $(cat "$WORK/out")"
printf 'load %s\nrename relu r\n' "$g" | "$FXKIT" repl >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] || fail "repl at end of input did not exit 0"
expect_err "warning: unsaved edits in small (1 edit)"
printf 'load %s\nrename relu r\nexport fx %s\nquit\nlist\n' "$g" "$WORK/b.fx" | "$FXKIT" repl >"$WORK/out" 2>"$WORK/err"
grep -qF "warning" "$WORK/err" && fail "quit warned after the edits were exported"
grep -qF "* small" "$WORK/out" && fail "quit without unsaved edits did not leave"

# A graph whose layout takes Graphviz seconds: Ctrl-C must stop it.
python3 - "$WORK/big.graph.txt" <<'EOF'
import sys
n = 3000
lines = ["graph():", '    %x : Tensor "f32[4][1]cpu" = placeholder[target=x]']
prev = ["x"]
for i in range(n):
    a, b = prev[-1], prev[(i * 7919) % len(prev)]
    lines.append(f'    %n{i} : Tensor "f32[4][1]cpu" = call_function[target=torch.ops.aten.add.Tensor](args = (%{a}, %{b}), kwargs = {{}})')
    prev.append(f"n{i}")
lines.append(f"    return (n{n - 1},)")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
EOF

# SIGINT stops a script's layout too: exit 130, no picture.
"$FXKIT" -c "render $WORK/p2.png" "$WORK/big.graph.txt" >"$WORK/out" 2>"$WORK/err" &
pid=$!
for _ in $(seq 100); do grep -q "loaded" "$WORK/err" 2>/dev/null && break; sleep 0.1; done
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "an interrupted render exited $rc, expected 130: $(head -c 300 "$WORK/err")"
expect_err "error: interrupted: the Graphviz layout was stopped; nothing was written"
[ -e "$WORK/p2.png" ] && fail "an interrupted render wrote its picture"

# The interactive shell under a pseudo-terminal (readline): completion, Ctrl-C, the warning.
PYTHONPATH="$(dirname "$0")" python3 - "$FXKIT" "$g" "$WORK/big.graph.txt" "$WORK/pic.png" <<'EOF'
import os, sys, time
import pty_session
from pty_session import fail

fxkit, graph, big, pic = sys.argv[1:5]

def Session(*args):
    return pty_session.Session(fxkit, *args)

prompt = rb"fxkit:small> "
s = Session(graph)
s.read_until(prompt)
# Completion: 'renam' + Tab completes the command, 'rel' + Tab the node name.
s.send("renam\t")
s.read_until(rb"rename ")
s.send("rel\t")
s.read_until(rb"relu ")
s.send("r\n")
s.read_until(rb"renamed relu to r")
s.read_until(prompt)
# Ctrl-C stops a long command between runs and the session stays as it was.
s.send("bench 100000000\n")
time.sleep(1.5)
s.send("\x03")
s.read_until(rb"interrupted after \d+ of 100000000 runs")
s.read_until(prompt)
s.command("show r", rb"%r : Tensor")
s.read_until(prompt)
# quit with unsaved edits warns and stays; the second quit leaves.
s.send("quit\n")
s.read_until(rb"warning: unsaved edits in small \(1 edit\)")
s.read_until(prompt)
if not s.alive():
    fail("the first quit with unsaved edits left the shell")
s.send("quit\n")
rc = s.wait()
if rc != 0:
    fail(f"the shell exited {rc} after the second quit")

# Ctrl-D: the same warning once, then it leaves.
s = Session(graph)
s.read_until(prompt)
s.command("erase relu", rb"erased relu")
s.read_until(prompt)
s.send("\x04")
s.read_until(rb"warning: unsaved edits in small \(1 edit\)")
s.read_until(prompt)
s.send("\x04")
rc = s.wait()
if rc != 0:
    fail(f"the shell exited {rc} after the second Ctrl-D")

# Ctrl-C stops a Graphviz layout running in its child process; nothing is written.
s = Session(big)
s.read_until(rb"fxkit:big> ")
s.send(f"render {pic}\n")
time.sleep(1.5)
t0 = time.time()
s.send("\x03")
s.read_until(rb"interrupted: the Graphviz layout was stopped")
s.read_until(rb"fxkit:big> ", timeout=10)
if time.time() - t0 > 5:
    fail(f"Ctrl-C took {time.time() - t0:.1f} s to stop the layout")
if os.path.exists(pic):
    fail("an interrupted render wrote its picture")
# The session is intact.
s.command("info", rb"nodes: 3002")
s.send("quit\n")
if s.wait() != 0:
    fail("the shell did not exit 0 after the interrupted render")
sys.exit(1 if pty_session.failures else 0)
EOF
[ $? -eq 0 ] || fail "the pseudo-terminal session failed (see above)"
finish
