#!/usr/bin/env bash
# Ctrl-C stops every long command of the shell at a safe point and leaves the session as it was
# (issue 21): compilations between passes (why, pass, find kernel=, run: PassOptions's interrupt
# flag, checked by runPipeline), load after reading the file (nothing half-loaded). Renders and
# bench are covered by cli.lose_work. FXKIT_FAULT=slow (ir/FaultInjection.h) makes every pass
# take 300 ms and a load 1 s, so that a Ctrl-C sent half a second in lands mid-command.
. "$(dirname "$0")/lib.bash"
g="$DATA/repl/small.graph.txt"

# A script: SIGINT during why's compilation stops it between passes; exit 130, no answer, and
# nothing after it runs.
FXKIT_FAULT=slow "$FXKIT" -c "why relu; info" "$g" >"$WORK/out" 2>"$WORK/err" &
pid=$!
for _ in $(seq 100); do grep -q "loaded" "$WORK/err" 2>/dev/null && break; sleep 0.05; done
sleep 0.5
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "an interrupted why exited $rc, expected 130: $(head -c 300 "$WORK/err")"
grep -qE "^error: interrupted before pass '[a-z-]+'" "$WORK/err" ||
  fail "why did not stop between passes: $(cat "$WORK/err")"
expect_err "interrupted: the rest of the line is skipped"
[ -s "$WORK/out" ] && fail "an interrupted why answered: $(head -c 300 "$WORK/out")"

# The interactive shell under a pseudo-terminal: ^C as the terminal sends it, during each long
# command, then the session answers and its graph, undo history and graph list are unchanged.
PYTHONPATH="$(dirname "$0")" python3 - "$FXKIT" "$g" <<'PY'
import re, sys, time
import pty_session
from pty_session import Session, fail

fxkit, graph = sys.argv[1:3]
prompt = rb"fxkit:small> "
s = Session(fxkit, graph, env={"FXKIT_FAULT": "slow"})
s.read_until(prompt)
s.send("rename relu r\n")
s.read_until(rb"renamed relu to r")
s.read_until(prompt)
s.send("show\n")
before = s.read_until(prompt)

def interrupt(command, answer):
    s.send(command + "\n")
    # Once the line is echoed back, the shell has taken it and the command runs (2 s or more).
    s.read_until(re.escape(command.encode()) + rb"\r?\n")
    time.sleep(0.3)
    t0 = time.time()
    s.send("\x03")
    s.read_until(answer)
    s.read_until(rb"interrupted: the rest of the line is skipped")
    s.read_until(prompt)
    if time.time() - t0 > 3:
        fail(f"'{command}': Ctrl-C took {time.time() - t0:.1f} s")

# why and find kernel= compile a copy; pass compiles the graph itself, in an edit that rolls
# back; run compiles a copy before preparing the backend.
interrupt("why r", rb"error: interrupted before pass '[a-z-]+'( \(of '[a-z]+'\))?\r?\n")
interrupt("pass decompose lower fuse",
          rb"error: interrupted before pass '[a-z-]+'( \(of '[a-z]+'\))?; the graph is as it was")
interrupt("find kernel=*", rb"error: interrupted before pass '[a-z-]+'")
interrupt("run --backend loops", rb"error: interrupted before pass '[a-z-]+'")
# load: the file is read whole, then dropped; no graph 'other' appears.
interrupt(f"load {graph} as other", rb"error: interrupted: '[^']+' was not loaded")

s.send("show\n")
after = s.read_until(prompt)
if before != after:
    fail(f"the graph changed: {before[-300:]!r} -> {after[-300:]!r}")
s.send("list\n")
listed = s.read_until(prompt) or b""
if b"other" in listed or b"* small" not in listed:
    fail(f"the graph list changed: {listed!r}")
# The interrupted pass left nothing on the undo stack: undo takes back the rename.
s.send("undo\n")
s.read_until(rb"undone: rename relu r")
s.read_until(prompt)
s.send("quit\n")
s.read_until(rb"warning: unsaved edits")
s.read_until(prompt)
s.send("quit\n")
if s.wait() != 0:
    fail("the shell did not exit 0")
sys.exit(1 if pty_session.failures else 0)
PY
[ $? -eq 0 ] || fail "the pseudo-terminal session failed (see above)"
finish
