#pragma once
/// \file Graphviz DOT for any graph: one box per node (name, op/target, result type), one edge
/// per use, labelled with the bytes of the producer's tensor where its type is known. For a
/// wrapper graph (fxkit's, transforms/WrapperGraph.h, or one imported from Inductor's output
/// code), each kernel launch (`fxkit.kernel`) is drawn in a cluster labelled and filled with
/// its kernel's colour, holding the ATen ops fused into it (its `origins`), and extern calls
/// (`fxkit.extern`) are hexagons of their own colour, so the program's structure shows at a
/// glance. A node with Inductor's provenance (ir/Node.h NodeProvenance) gets one more label
/// line, the post-grad nodes a kernel call computes or the kernels computing a graph node, and
/// all of its provenance as the tooltip. Needs no Graphviz library: DOT is plain text. Compiled
/// programs have a richer view (loop ops, refused fusions): exporters/ProgramDot.h.

#include "exporters/RenderOptions.h"
#include "ir/Graph.h"

#include <string>

namespace fxkit {

/// The graph as a DOT digraph named "fxkit", nodes in graph order, one statement per line.
/// CollapseMode::Module draws one box per module path (exporters/ModulePath.h);
/// CollapseMode::Kernel draws each kernel launch as one box without its fused ops.
std::string writeDot(const Graph &graph, const RenderOptions &options = {});

} // namespace fxkit
