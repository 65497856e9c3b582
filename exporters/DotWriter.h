#pragma once
/// \file Graphviz DOT for any graph: one box per node (name, op/target, result type), one edge
/// per use, labelled with the bytes of the producer's tensor where its type is known. For a
/// compiled wrapper graph (transforms/WrapperGraph.h), kernel launches (`fxkit.kernel`) get one
/// fill colour per kernel name and extern calls (`fxkit.extern`) a distinct shape, so the
/// program's structure shows at a glance. Needs no Graphviz library: DOT is plain text.

#include "ir/Graph.h"

#include <string>

namespace fxkit {

/// The graph as a DOT digraph named "fxkit", nodes in graph order, one statement per line.
std::string writeDot(const Graph &graph);

} // namespace fxkit
