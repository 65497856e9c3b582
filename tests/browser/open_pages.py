#!/usr/bin/env python3
"""Opens every page of one or more `fxkit report` sites in ONE headless Chromium and fails on
any console error (tests/cli/report_site_browser.sh).

usage: open_pages.py [--tabs=N] SITE_OR_PAGE [...]

Chromium is driven over its DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages
ending in NUL, commands on fd 3, replies and events on fd 4; Python's standard library only).
Each page is navigated to in one of N tabs (default 3: a navigation waits ~50 ms even for an
empty page, so others load meanwhile; on 73 corpus pages 2 tabs took 1.2x as long, 1 tab 1.45x)
and waited for (its load event, and where it has the interactive graph, #fxkit-viewer-status's
data-state leaving "loading"); what counts as an error:
  - Runtime.exceptionThrown (an uncaught exception),
  - Runtime.consoleAPICalled of type error or assert,
  - Log.entryAdded of level error (a missing file:// resource, a blocked request),
  - a viewer whose data-state is not "ready" or whose data-errors is not 0.
Prints one line per problem ("FAIL: page: message") and a last line "opened N pages, E with
errors, V with the interactive graph ready, in S s"; exits 1 if any page had an error or
was not opened.
Chromium: $FXKIT_CHROMIUM, else chromium or chromium-browser on PATH; the same flags as
tests/cli/viewer.sh (no network, its own profile in a temporary folder), but an 800x600
window: the pages' raster and the viewer's WebGL frame on SwiftShader (the CPU) grow with it,
and 1280x1000 took 1.5x as long over the zoo's pages.
"""
import fcntl, json, os, select, shutil, subprocess, sys, tempfile, time

PAGE_TIMEOUT = 30.0  # seconds for one page to load and its viewer to settle


class Browser:
    def __init__(self, chromium, profile, window="800,600"):
        # Our ends: we write commands into cmd_w (Chromium's fd 3), read from out_r (its fd 4).
        cmd_r, self.cmd_w = os.pipe()
        self.out_r, out_w = os.pipe()

        # Chromium wants the pipe on fds 3 and 4: moved there in the child, first out of the way
        # (a pipe end may itself be 3 or 4); dup2 leaves them inheritable, and every other fd
        # Python opened is close-on-exec (PEP 446), so nothing else reaches Chromium.
        def child():
            high_r = fcntl.fcntl(cmd_r, fcntl.F_DUPFD_CLOEXEC, 10)
            high_w = fcntl.fcntl(out_w, fcntl.F_DUPFD_CLOEXEC, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--enable-unsafe-swiftshader", f"--window-size={window}", "--remote-debugging-pipe",
             f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=child, close_fds=False)
        os.close(cmd_r)
        os.close(out_w)
        self.buf = b""
        self.next_id = 0
        self.events = []  # (session, method, params) not yet handled

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.cmd_w)
        os.close(self.out_r)

    def _read(self, deadline):
        """One message from Chromium, or None when the deadline passed."""
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.out_r], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.out_r, 1 << 20)
            if not chunk:
                raise RuntimeError(f"Chromium closed its pipe (exit {self.proc.poll()})")
            self.buf += chunk
        msg, _, self.buf = self.buf.partition(b"\0")
        return json.loads(msg)

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            data = data[os.write(self.cmd_w, data):]
        return self.next_id

    def call(self, method, params=None, session=None, timeout=PAGE_TIMEOUT):
        """Sends a command and waits for its answer; events meanwhile are queued."""
        want = self.send(method, params, session)
        deadline = time.monotonic() + timeout
        while True:
            msg = self._read(deadline)
            if msg is None:
                raise TimeoutError(f"{method}: no answer in {timeout} s")
            if msg.get("id") == want:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error'].get('message')}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append((msg.get("sessionId"), msg["method"], msg.get("params", {})))


def error_of(method, p):
    """The message of an event that is an error, or None."""
    if method == "Runtime.exceptionThrown":
        d = p.get("exceptionDetails", {})
        exc = d.get("exception", {})
        text = exc.get("description") or d.get("text", "exception")
        return f"uncaught: {text.splitlines()[0]} ({d.get('url', '')}:{d.get('lineNumber', 0) + 1})"
    if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
        args = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
        return f"console.{p['type']}: {args}"
    if method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
        e = p["entry"]
        return f"log ({e.get('source')}): {e.get('text')} {e.get('url', '')}".rstrip()
    return None


VIEWER_STATE = """(() => {
  const s = document.getElementById("fxkit-viewer-status");
  if (!s) return "none";
  return (s.dataset.state || "") + " " + (s.dataset.errors || "0") + " " +
    [...document.querySelectorAll("#fxkit-viewer-errors li")].map((l) => l.textContent).join("; ");
})()"""


class Tab:
    """One tab and the page it has open: navigated, loaded, its viewer asked for its state."""

    def __init__(self, session):
        self.session = session
        self.page = None
        self.problems = []
        self.loaded = False
        self.deadline = 0.0


def main(argv):
    tabs_wanted = 3
    args = []
    for a in argv:
        if a.startswith("--tabs="):
            tabs_wanted = int(a.split("=", 1)[1])
            continue
        args.append(a)
    pages = []
    for a in args:
        if os.path.isdir(a):
            pages += sorted(os.path.join(a, f) for f in os.listdir(a) if f.endswith(".html"))
        else:
            pages.append(a)
    chromium = os.environ.get("FXKIT_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("FAIL: no Chromium to open the pages in: apt-get install chromium (setup.sh installs it)")
        return 1
    start = time.monotonic()
    profile = tempfile.mkdtemp(prefix="fxkit-chromium-")
    browser = Browser(chromium, profile)
    failed = viewers = opened = 0
    todo = list(reversed(pages))
    pending = {}  # command id -> (tab, what)
    try:
        tabs = []
        for _ in range(max(1, min(tabs_wanted, len(pages)))):
            target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                browser.call(f"{domain}.enable", session=session)
            tabs.append(Tab(session))
        by_session = {t.session: t for t in tabs}

        def ask_state(tab):
            pending[browser.send("Runtime.evaluate", {"expression": VIEWER_STATE, "returnByValue": True},
                                 tab.session)] = (tab, "state")

        def open_next(tab):
            tab.page = todo.pop() if todo else None
            tab.problems, tab.loaded = [], False
            if tab.page is None:
                return
            tab.deadline = time.monotonic() + PAGE_TIMEOUT
            pending[browser.send("Page.navigate", {"url": "file://" + os.path.abspath(tab.page)}, tab.session)] = (tab, "navigate")

        def done(tab):
            nonlocal failed, opened
            opened += 1
            for text in tab.problems:
                print(f"FAIL: {tab.page}: {text}")
            failed += bool(tab.problems)
            open_next(tab)

        for tab in tabs:
            open_next(tab)
        retry = []  # (time, tab): viewers still loading, asked again shortly
        while any(t.page for t in tabs):
            now = time.monotonic()
            for when, tab in [r for r in retry if r[0] <= now]:
                retry.remove((when, tab))
                ask_state(tab)
            wait_until = min([t.deadline for t in tabs if t.page] + [r[0] for r in retry])
            msg = browser._read(wait_until)
            if msg is None:
                for tab in tabs:
                    if tab.page and time.monotonic() >= tab.deadline:
                        tab.problems.append(f"not loaded and settled in {PAGE_TIMEOUT} s")
                        retry[:] = [r for r in retry if r[1] is not tab]
                        done(tab)
                continue
            if "id" in msg:
                tab, what = pending.pop(msg["id"], (None, None))
                if tab is None or tab.page is None:
                    continue
                if "error" in msg:
                    tab.problems.append(f"{what}: {msg['error'].get('message')}")
                    done(tab)
                elif what == "navigate" and msg["result"].get("errorText"):
                    tab.problems.append(f"navigation: {msg['result']['errorText']}")
                    done(tab)
                elif what == "state":
                    state = msg["result"]["result"].get("value", "")
                    what, errors, texts = (state.split(" ", 2) + ["", ""])[:3]
                    if state == "none":
                        done(tab)
                    elif what in ("", "loading"):
                        retry.append((time.monotonic() + 0.05, tab))
                    else:
                        if what != "ready":
                            tab.problems.append(f"the interactive graph is not ready: state '{what}' {texts}")
                        elif errors != "0":
                            tab.problems.append(f"the interactive graph recorded {errors} errors: {texts}")
                        else:
                            viewers += 1
                        done(tab)
                continue
            tab = by_session.get(msg.get("sessionId"))
            if tab is None or tab.page is None:
                continue
            if msg.get("method") == "Page.loadEventFired" and not tab.loaded:
                tab.loaded = True
                ask_state(tab)
            elif text := error_of(msg.get("method"), msg.get("params", {})):
                tab.problems.append(text)
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
    print(f"opened {opened} pages, {failed} with errors, {viewers} with the interactive graph ready, "
          f"in {time.monotonic() - start:.1f} s")
    if opened != len(pages):
        print(f"FAIL: opened {opened} of {len(pages)} pages")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
