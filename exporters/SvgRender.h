#pragma once
/// \file SVG pictures of graphs, laid out in-process by Graphviz's library (libgvc) from the DOT
/// of exporters/DotWriter.h. Optional: without libgvc at build time it returns an error.

#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>

namespace fxkit {

/// True where this build links libgvc.
bool haveSvgRenderer();

/// The graph's picture as an SVG document (`<?xml ...><svg ...>`), laid out with `dot`.
Expected<std::string> renderSvg(const Graph &graph);

} // namespace fxkit
