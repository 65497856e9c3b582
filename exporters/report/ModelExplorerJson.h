#pragma once
/// \file The graph as Google's Model Explorer reads it (its "graph JSON", what an adapter
/// extension returns: a GraphCollection with `graphs[].nodes[]`, each node with `id`, `label`,
/// `namespace`, `attrs`, `incomingEdges` and `outputsMetadata`), so its viewer opens fxkit's
/// graphs: `fxkit convert G --to model-explorer -o g.json`. The module path is the namespace
/// (`layers/0/attn`: Model Explorer's nested layers), and the report viewer's overlays are node
/// attributes: bytes, fxkit's kernel (fusion group) where the graph was fused and kept
/// (`compile G --passes lower,fuse --to model-explorer`; after the wrapper pass the graph is the
/// wrapper program), Inductor's kernel from provenance.

#include "exporters/report/GraphViewer.h"

#include <string>
#include <string_view>

namespace fxkit {

/// One GraphCollection labelled `label` holding one graph (id `label`), nodes in graph order.
std::string writeModelExplorerJson(const ViewerGraph &graph, std::string_view label);

} // namespace fxkit
