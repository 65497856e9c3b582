#include "exporters/SvgRender.h"

#include "exporters/DotWriter.h"

#ifdef FXKIT_HAVE_GVC
#include <graphviz/gvc.h>

#include <mutex>
#endif

namespace fxkit {

#ifdef FXKIT_HAVE_GVC

bool haveSvgRenderer() { return true; }

Expected<std::string> renderSvg(const Graph &graph) {
  std::string dot = writeDot(graph);
  // Graphviz keeps global state (its error handler, the cgraph default discipline), so a batch
  // on several threads renders one picture at a time.
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  // One context for the process, never freed: the pango plugin caches a pointer to the last
  // font name, which lives in the context's font dictionary, and compares it on the next
  // layout; freeing the context between pictures made the second one read freed memory (found
  // by the REPL fuzzer: `export svg` twice in one session).
  static GVC_t *gvc = gvContext();
  if (!gvc)
    return Error("graphviz: cannot create a layout context");
  Agraph_t *g = agmemread(dot.c_str());
  if (!g)
    return Error("graphviz: cannot read the graph's DOT");
  std::string svg;
  bool ok = gvLayout(gvc, g, "dot") == 0;
  if (ok) {
    char *data = nullptr;
    unsigned int length = 0; // this libgvc takes unsigned int*
    ok = gvRenderData(gvc, g, "svg", &data, &length) == 0 && data;
    if (ok)
      svg.assign(data, length);
    if (data)
      gvFreeRenderData(data);
    gvFreeLayout(gvc, g);
  }
  agclose(g);
  if (!ok)
    return Error("graphviz: layout or SVG rendering failed");
  return svg;
}

#else

bool haveSvgRenderer() { return false; }

Expected<std::string> renderSvg(const Graph &) {
  return Error("this fxkit was built without Graphviz's libgvc (install libgraphviz-dev): use "
               "--to dot and run `dot -Tsvg`");
}

#endif

} // namespace fxkit
