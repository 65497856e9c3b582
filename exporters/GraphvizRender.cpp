#include "exporters/GraphvizRender.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>

#ifdef FXKIT_HAVE_GVC
#include <graphviz/gvc.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace fxkit {

namespace {

const volatile std::sig_atomic_t *gInterruptFlag = nullptr;

/// What the layout process sends back: the picture, or what failed; and every message
/// Graphviz wrote meanwhile (cgraph's error function and the process's stderr), raw.
struct LayoutReply {
  bool ok = false;
  std::string body; ///< the picture, or "cannot read the DOT text" and the like
  std::string messages;
};

/// Graphviz lays out and renders; DOT is the text it lays out, returned as it is.
Expected<LayoutReply> layOutAndRender(std::string_view dot, RenderFormat format,
                                      const char *engine);

/// Removes `prefix` from the start of `text`; false (and `text` as it was) when it is not there.
bool dropPrefix(std::string_view &text, std::string_view prefix) {
  if (!text.starts_with(prefix))
    return false;
  text.remove_prefix(prefix.size());
  return true;
}

/// "%s: graph is too large for cairo-renderer bitmaps. Scaling by %g to fit" (cairo and gd
/// plugins; %s is the program name, "(null)" in a library): the scale, or a negative value.
double bitmapScale(std::string_view line) {
  static constexpr std::string_view kMarks[] = {"graph is too large for cairo-renderer bitmaps",
                                                "graph is too large for gd-renderer bitmaps"};
  for (std::string_view mark : kMarks) {
    size_t at = line.find(mark);
    if (at == std::string_view::npos)
      continue;
    std::string rest(line.substr(at + mark.size()));
    size_t by = rest.find("Scaling by ");
    if (by == std::string::npos)
      return -1;
    char *end = nullptr;
    double scale = std::strtod(rest.c_str() + by + 11, &end);
    return end != rest.c_str() + by + 11 && scale > 0 ? scale : -1;
  }
  return -1;
}

/// dot's spline router giving up on an edge ("in routesplines, Pshortestpath failed",
/// "libpath/shortest.c:324: triangulation failed", "lost op30 op46 edge", ...): the picture
/// comes out with those edges missing or straight.
bool isRoutingFailure(std::string_view what) {
  return what.starts_with("in routesplines") || what.starts_with("libpath/") ||
         what.find("Pshortestpath") != std::string_view::npos ||
         (what.starts_with("lost ") && what.ends_with(" edge"));
}

} // namespace

void setRenderInterruptFlag(const volatile std::sig_atomic_t *flag) { gInterruptFlag = flag; }

std::vector<GraphvizMessage> describeGraphvizMessages(std::string_view raw) {
  using Kind = GraphvizMessage::Kind;
  std::vector<GraphvizMessage> out;
  // Indented lines continue the message before them (dot's "trouble in init_rank" dumps
  // thousands of "\t%0 1" lines of its ranking): left out, counted after a message passed on
  // as Graphviz wrote it.
  std::optional<size_t> last; // the message passed on that indented lines continue
  size_t lastLines = 0;
  auto finishLast = [&] {
    if (last && lastLines > 0)
      out[*last].text += " (" + std::to_string(lastLines) +
                         (lastLines == 1 ? " more line" : " more lines") + " left out)";
    last.reset();
    lastLines = 0;
  };
  // The router's messages (several per edge) become one warning, where the first was.
  std::optional<size_t> routing;
  size_t lostEdges = 0;
  bool any = false;
  while (!raw.empty()) {
    size_t eol = raw.find('\n');
    std::string_view line = raw.substr(0, eol);
    raw = eol == std::string_view::npos ? std::string_view() : raw.substr(eol + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
      line.remove_suffix(1);
    if (line.empty())
      continue;
    if (any && (line.front() == '\t' || line.front() == ' ')) {
      ++lastLines;
      continue;
    }
    any = true;
    finishLast();
    // The program name plugins print first: "(null)" in a library, "dot" under the CLI.
    if (!dropPrefix(line, "(null): "))
      dropPrefix(line, "dot: ");
    std::string_view what = line, body = line;
    const bool cgraphError = dropPrefix(body, "Error: "); // the message without its label
    if (double scale = bitmapScale(line); scale > 0) {
      char percent[32];
      std::snprintf(percent, sizeof percent, "%.2g%%", scale * 100);
      out.push_back(
          {Kind::Warning, std::string("warning: picture too large for a bitmap: scaled to ") +
                              percent + " (use --to svg, or --collapse)"});
    } else if (what == "Error: trouble in init_rank") { // dot drew it anyway
      out.push_back({Kind::Warning,
                     "warning: Graphviz had trouble ranking the picture's nodes ('trouble in "
                     "init_rank'): its layout may be poor (--collapse draws fewer boxes)"});
    } else if (dropPrefix(what, "failure to create cairo surface: ")) {
      out.push_back({Kind::Fatal, "picture too large for a bitmap: cairo could not make it (" +
                                      std::string(what) + "); use --to svg, or --collapse"});
    } else if (isRoutingFailure(body)) { // cgraph's errors, and libpath's on stderr
      lostEdges += body.starts_with("lost ");
      if (!routing) {
        routing = out.size();
        out.push_back({Kind::Warning, ""});
      }
    } else if (cgraphError) {
      last = out.size();
      out.push_back({Kind::Error, std::string(body)});
    } else {
      dropPrefix(what, "Warning: ");
      last = out.size();
      out.push_back({Kind::Warning, "graphviz: " + std::string(what)});
    }
  }
  finishLast();
  if (routing)
    out[*routing].text = "warning: Graphviz could not route every edge of the picture" +
                         (lostEdges ? " (" + std::to_string(lostEdges) + " lost)" : std::string()) +
                         ": some are missing or drawn through boxes (--collapse draws fewer)";
  return out;
}

Expected<std::string> renderDot(std::string_view dot, RenderFormat format, const char *engine,
                                std::vector<std::string> *warnings) {
  if (format == RenderFormat::Dot)
    return std::string(dot);
  auto reply = layOutAndRender(dot, format, engine);
  if (!reply)
    return reply.takeError();
  std::string errors, fatal;
  std::vector<std::string> said;
  for (GraphvizMessage &m : describeGraphvizMessages(reply->messages)) {
    switch (m.kind) {
    case GraphvizMessage::Kind::Fatal:
      fatal += (fatal.empty() ? "" : "; ") + m.text;
      [[fallthrough]];
    case GraphvizMessage::Kind::Error:
      errors += (errors.empty() ? "" : "; ") + m.text;
      if (reply->ok && m.kind == GraphvizMessage::Kind::Error)
        said.push_back("graphviz: " + m.text); // the picture came out: said, not fatal
      break;
    case GraphvizMessage::Kind::Warning:
      said.push_back(std::move(m.text));
      break;
    }
  }
  if (!reply->ok) { // everything Graphviz said may tell why
    for (const std::string &w : said)
      errors += (errors.empty() ? "" : "; ") + w;
    return Error("graphviz: " + reply->body + (errors.empty() ? "" : ": " + errors));
  }
  if (!fatal.empty())
    return Error("graphviz: " + fatal);
  if (warnings)
    warnings->insert(warnings->end(), said.begin(), said.end());
  else
    for (const std::string &w : said)
      std::cerr << "fxkit: " << w << "\n";
  return std::move(reply->body);
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
/// Graphviz's cgraph messages go to `messages`.
LayoutReply layOutAndRenderLocked(const std::string &text, RenderFormat format, const char *engine,
                                  std::string &messages) {
  gCollected = &messages;
  agseterrf(collectMessage);
  auto fail = [](const std::string &what) { return LayoutReply{false, what, {}}; };

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
  return LayoutReply{true, std::string(data, length), {}};
}

/// The reply as the child sends it: 'O' or 'E', the length of the messages (8 bytes), the
/// messages, the body.
std::string encodeReply(const LayoutReply &reply) {
  std::string out(1, reply.ok ? 'O' : 'E');
  uint64_t size = reply.messages.size();
  out.append(reinterpret_cast<const char *>(&size), sizeof size);
  return out + reply.messages + reply.body;
}

bool decodeReply(const std::string &bytes, LayoutReply &reply) {
  uint64_t size = 0;
  if (bytes.size() < 1 + sizeof size || (bytes[0] != 'O' && bytes[0] != 'E'))
    return false;
  std::memcpy(&size, bytes.data() + 1, sizeof size);
  if (size > bytes.size() - 1 - sizeof size)
    return false;
  reply.ok = bytes[0] == 'O';
  reply.messages = bytes.substr(1 + sizeof size, size);
  reply.body = bytes.substr(1 + sizeof size + size);
  return true;
}

/// In the layout process: lays out and renders with the process's stderr in a memory file, so
/// that what Graphviz's plugins print there (cairo's bitmap scaling) comes back with the reply
/// instead of reaching the terminal. The encoded reply.
std::string layOutInChild(const std::string &text, RenderFormat format, const char *engine) {
  int captured = ::memfd_create("fxkit-graphviz-stderr", 0);
  if (captured >= 0)
    ::dup2(captured, STDERR_FILENO);
  std::string messages;
  LayoutReply reply = layOutAndRenderLocked(text, format, engine, messages);
  std::fflush(stderr);
  if (captured >= 0) {
    char buffer[4096];
    ::lseek(captured, 0, SEEK_SET);
    for (ssize_t n; (n = ::read(captured, buffer, sizeof buffer)) != 0;) {
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        break;
      messages.append(buffer, static_cast<size_t>(n));
    }
  }
  reply.messages = std::move(messages);
  return encodeReply(reply);
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

Expected<LayoutReply> layOutAndRender(std::string_view dot, RenderFormat format,
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
    bool ok = writeAll(fds[1], layOutInChild(text, format, engine));
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
  LayoutReply decoded;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !decodeReply(reply, decoded))
    return Error(what + ": the layout process ended without a result");
  return decoded;
}

} // namespace

#else

bool haveGraphviz() { return false; }

std::vector<std::string> graphvizPlugins(const char *) { return {}; }

namespace {

Expected<LayoutReply> layOutAndRender(std::string_view, RenderFormat format, const char *) {
  return Error("this fxkit was built without Graphviz's libgvc (install libgraphviz-dev): use "
               "--to dot and run `dot -T" +
               std::string(renderFormatName(format)) + "`");
}

} // namespace

#endif

} // namespace fxkit
