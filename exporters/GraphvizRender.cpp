#include "exporters/GraphvizRender.h"

#ifdef FXKIT_HAVE_GVC
#include <graphviz/gvc.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#endif

namespace fxkit {

std::string_view imageFormatName(ImageFormat format) {
  switch (format) {
  case ImageFormat::Svg:
    return "svg";
  case ImageFormat::Png:
    return "png";
  case ImageFormat::Pdf:
    return "pdf";
  }
  return "?";
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

Expected<std::string> renderDot(std::string_view dot, ImageFormat format, const char *engine) {
  std::lock_guard<std::mutex> lock(graphvizMutex());
  std::string messages;
  gCollected = &messages;
  agusererrf previous = agseterrf(collectMessage);
  struct Restore {
    agusererrf previous;
    ~Restore() {
      agseterrf(previous);
      gCollected = nullptr;
    }
  } restore{previous};
  auto fail = [&](const std::string &what) {
    std::string m = messages;
    while (!m.empty() && (m.back() == '\n' || m.back() == ' '))
      m.pop_back();
    return Error("graphviz: " + what + (m.empty() ? "" : ": " + m));
  };

  GVC_t *gvc = processContext();
  if (!gvc)
    return fail("cannot create a layout context");
  std::string device(imageFormatName(format));
  if (format != ImageFormat::Svg) {
    std::vector<std::string> devices = pluginsLocked(gvc, "device");
    if (std::find(devices.begin(), devices.end(), device) == devices.end()) {
      return fail("this Graphviz installation cannot write " + device +
                  " (install its cairo plugin: libgvplugin-pango / graphviz)");
    }
    std::vector<std::string> renderers = pluginsLocked(gvc, "render");
    if (std::find(renderers.begin(), renderers.end(), "cairo") != renderers.end())
      device += ":cairo";
  }
  std::string text(dot);
  Agraph_t *g = agmemread(text.c_str());
  if (!g)
    return fail("cannot read the DOT text");
  std::string result;
  bool laidOut = gvLayout(gvc, g, engine) == 0;
  bool rendered = false;
  if (laidOut) {
    char *data = nullptr;
    unsigned int length = 0; // this libgvc takes unsigned int*
    rendered = gvRenderData(gvc, g, device.c_str(), &data, &length) == 0 && data;
    if (rendered)
      result.assign(data, length);
    if (data)
      gvFreeRenderData(data);
    gvFreeLayout(gvc, g);
  }
  agclose(g);
  if (!laidOut)
    return fail(std::string("layout with '") + engine + "' failed");
  if (!rendered)
    return fail("rendering " + device + " failed");
  return result;
}

#else

bool haveGraphviz() { return false; }

std::vector<std::string> graphvizPlugins(const char *) { return {}; }

Expected<std::string> renderDot(std::string_view, ImageFormat format, const char *) {
  return Error("this fxkit was built without Graphviz's libgvc (install libgraphviz-dev): use "
               "--to dot and run `dot -T" +
               std::string(imageFormatName(format)) + "`");
}

#endif

} // namespace fxkit
