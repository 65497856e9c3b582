"""The fxkit shell under a pseudo-terminal, for the CLI tests that need a terminal (readline,
Ctrl-C as the terminal sends it): tests/cli/lose_work.sh, tests/cli/interrupt.sh."""
import os
import pty
import re
import select
import sys
import time

failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg, file=sys.stderr, flush=True)


class Session:
    """`fxkit repl ARGS...` on a pseudo-terminal (no history file, a dumb terminal)."""

    def __init__(self, fxkit, *args, env=None):
        full = dict(os.environ, FXKIT_HISTORY="", TERM="dumb", INPUTRC="/dev/null")
        full.update(env or {})
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(fxkit, [fxkit, "repl", *args], full)
        self.buf = b""

    def read_until(self, pattern, timeout=60):
        """What came up to the end of the first match of `pattern` (bytes regex); None and a
        failure when it does not come within `timeout` seconds."""
        end = time.time() + timeout
        while time.time() < end:
            m = re.search(pattern, self.buf)
            if m:
                seen = self.buf[:m.end()]
                self.buf = self.buf[m.end():]
                return seen
            r, _, _ = select.select([self.fd], [], [], 0.1)
            if r:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                self.buf += chunk
        fail(f"timed out waiting for {pattern!r}; got {self.buf[-400:]!r}")
        return None

    def send(self, text):
        os.write(self.fd, text.encode())

    def command(self, text, expect, timeout=60):
        """Types `text` and a newline and reads until `expect` (bytes regex)."""
        self.send(text + "\n")
        return self.read_until(expect, timeout)

    def wait(self, timeout=30):
        """The exit code once the shell has left (killed, and a failure, after `timeout`)."""
        end = time.time() + timeout
        while time.time() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:
                r, _, _ = select.select([self.fd], [], [], 0.1)
                if r:
                    os.read(self.fd, 65536)
            except OSError:
                time.sleep(0.1)
        os.kill(self.pid, 9)
        fail("the shell did not exit")
        return None

    def alive(self):
        return os.waitpid(self.pid, os.WNOHANG)[0] == 0
