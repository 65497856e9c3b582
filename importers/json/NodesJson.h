#pragma once
/// \file Reader for the corpus's `*.nodes.json` sidecars: per-node dtype/shape/stride/device.

#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>
#include <string_view>

namespace fxkit {

/// Sets each node's value from the sidecar. Every sidecar entry must name a node of the graph
/// with the same op; an error names the entry otherwise.
Status attachNodesJson(Graph &graph, std::string_view text, const std::string &fileName);

} // namespace fxkit
