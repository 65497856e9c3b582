#include "exporters/GraphvizRender.h"

#ifdef FXKIT_HAVE_GVC
#include <graphviz/gvc.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace fxkit {

namespace {

const volatile std::sig_atomic_t *gInterruptFlag = nullptr;

/// Graphviz lays out and renders; DOT is the text it lays out, returned as it is.
Expected<std::string> layOutAndRender(std::string_view dot, RenderFormat format,
                                      const char *engine);

} // namespace

void setRenderInterruptFlag(const volatile std::sig_atomic_t *flag) { gInterruptFlag = flag; }

Expected<std::string> renderDot(std::string_view dot, RenderFormat format, const char *engine) {
  if (format == RenderFormat::Dot)
    return std::string(dot);
  return layOutAndRender(dot, format, engine);
}

#ifdef FXKIT_HAVE_GVC

namespace {

/// Graphviz keeps global state (its error handler and message buffer, the cgraph default
/// discipline), so the whole process renders one picture at a time.
std::mutex &graphvizMutex() {
  static std::mutex mutex;
  return mutex;
}

/// Graphviz's messages while the mutex is held (agseterrf's callback has no user pointer).
std::string *gCollected = nullptr;
int collectMessage(char *message) {
  if (gCollected && message)
    *gCollected += message;
  return 0;
}

std::vector<std::string> pluginsLocked(GVC_t *gvc, const char *kind) {
  std::vector<std::string> out;
  int size = 0;
  char **list = gvPluginList(gvc, kind, &size, nullptr);
  for (int i = 0; list && i < size; ++i) {
    out.emplace_back(list[i]);
    std::free(list[i]);
  }
  std::free(list);
  return out;
}

} // namespace

bool haveGraphviz() { return true; }

/// One layout context for the process, never freed (call with the mutex held): the pango
/// plugin caches a pointer to the last font name, which lives in the context's font dictionary,
/// and compares it on the next layout; freeing the context between pictures made the second
/// one read freed memory (found by the REPL fuzzer: `export svg` twice in one session).
GVC_t *processContext() {
  static GVC_t *gvc = gvContext();
  return gvc;
}

std::vector<std::string> graphvizPlugins(const char *kind) {
  std::lock_guard<std::mutex> lock(graphvizMutex());
  GVC_t *gvc = processContext();
  if (!gvc)
    return {};
  return pluginsLocked(gvc, kind);
}

namespace {

/// Reads the DOT text, lays it out and renders it (call with the mutex held, in the child
/// process of renderDot). Never frees the layout nor the graph: Graphviz 2.43's dot plugin
/// double-frees in gvFreeLayout (dot_cleanup) on clustered graphs with edge labels, e.g. every
/// `--fusion` picture of a ResNet or transformer block, and the child's exit reclaims it all.
/// First byte of the result: 'O' (then the picture) or 'E' (then the error message).
std::string layOutAndRenderLocked(const std::string &text, RenderFormat format,
                                  const char *engine) {
  std::string messages;
  gCollected = &messages;
  agseterrf(collectMessage);
  auto fail = [&](const std::string &what) {
    std::string m = messages;
    while (!m.empty() && (m.back() == '\n' || m.back() == ' '))
      m.pop_back();
    return "Egraphviz: " + what + (m.empty() ? "" : ": " + m);
  };

  GVC_t *gvc = processContext();
  if (!gvc)
    return fail("cannot create a layout context");
  std::string device(renderFormatName(format));
  if (format != RenderFormat::Svg) {
    std::vector<std::string> devices = pluginsLocked(gvc, "device");
    if (std::find(devices.begin(), devices.end(), device) == devices.end()) {
      return fail("this Graphviz installation cannot write " + device +
                  " (install its cairo plugin: libgvplugin-pango / graphviz)");
    }
    std::vector<std::string> renderers = pluginsLocked(gvc, "render");
    if (std::find(renderers.begin(), renderers.end(), "cairo") != renderers.end())
      device += ":cairo";
  }
  Agraph_t *g = agmemread(text.c_str());
  if (!g)
    return fail("cannot read the DOT text");
  if (gvLayout(gvc, g, engine) != 0)
    return fail(std::string("layout with '") + engine + "' failed");
  char *data = nullptr;
  unsigned int length = 0; // this libgvc takes unsigned int*
  if (gvRenderData(gvc, g, device.c_str(), &data, &length) != 0 || !data)
    return fail("rendering " + device + " failed");
  return "O" + std::string(data, length);
}

bool writeAll(int fd, const std::string &bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

Expected<std::string> layOutAndRender(std::string_view dot, RenderFormat format,
                                      const char *engine) {
  std::lock_guard<std::mutex> lock(graphvizMutex());
  // Graphviz runs in a child process: a crash in its layout code (2.43's dot plugin has
  // several, see layOutAndRenderLocked) becomes an error here instead of taking the process
  // down, and heap damage it does stays in the child.
  std::string text(dot);
  int fds[2];
  // Close-on-exec: a program another thread starts meanwhile must not hold the write end open.
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return Error(std::string("graphviz: cannot create a pipe: ") + std::strerror(errno));
  pid_t child = ::fork();
  if (child < 0) {
    int err = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    return Error(std::string("graphviz: cannot start the layout process: ") + std::strerror(err));
  }
  if (child == 0) {
    ::close(fds[0]);
    // A crash must reach the parent as the signal it is, whatever handlers this process had.
    for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL})
      std::signal(sig, SIG_DFL);
    // Ctrl-C reaches the whole process group: the parent decides (below), not the child.
    std::signal(SIGINT, SIG_IGN);
    bool ok = writeAll(fds[1], layOutAndRenderLocked(text, format, engine));
    // _exit: no atexit handlers, no flushing of the parent's stdio buffers, no leak check.
    ::_exit(ok ? 0 : 3);
  }
  ::close(fds[1]);
  std::string reply;
  char buffer[65536];
  bool interrupted = false;
  for (;;) {
    // Ctrl-C in the shell (its handler sets the flag and asks not to restart calls, so the
    // read returns) stops the layout, which may take minutes on a large graph; any other
    // signal waits on.
    if (gInterruptFlag && *gInterruptFlag) {
      interrupted = true;
      ::kill(child, SIGKILL);
      break;
    }
    ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    reply.append(buffer, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (interrupted)
    return Error("interrupted: the Graphviz layout was stopped; nothing was written");
  std::string what = std::string("graphviz crashed while laying out the picture with '") + engine +
                     "' (" + std::to_string(dot.size()) + " bytes of DOT; `--to dot` " +
                     "writes the text, `dot -T" + std::string(renderFormatName(format)) +
                     "` may lay it out)";
  if (WIFSIGNALED(status))
    return Error(what + ": signal " + std::to_string(WTERMSIG(status)) + " (" +
                 strsignal(WTERMSIG(status)) + ")");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || reply.empty())
    return Error(what + ": the layout process ended without a result");
  bool failed = reply[0] == 'E';
  reply.erase(0, 1);
  if (failed)
    return Error(reply);
  return reply;
}

} // namespace

#else

bool haveGraphviz() { return false; }

std::vector<std::string> graphvizPlugins(const char *) { return {}; }

namespace {

Expected<std::string> layOutAndRender(std::string_view, RenderFormat format, const char *) {
  return Error("this fxkit was built without Graphviz's libgvc (install libgraphviz-dev): use "
               "--to dot and run `dot -T" +
               std::string(renderFormatName(format)) + "`");
}

} // namespace

#endif

} // namespace fxkit
