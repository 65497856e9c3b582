#include "exporters/SvgRender.h"

#include "exporters/DotWriter.h"
#include "exporters/GraphvizRender.h"

namespace fxkit {

bool haveSvgRenderer() { return haveGraphviz(); }

Expected<std::string> renderSvg(const Graph &graph) {
  return renderDot(writeDot(graph), ImageFormat::Svg);
}

} // namespace fxkit
