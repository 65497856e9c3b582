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
/// CollapseMode::Kernel on a wrapper graph draws one box per launch (kernel or extern call) and
/// the data between them: an edge from the launch that last wrote a buffer to each launch that
/// reads it (in the full picture such edges are drawn bold beside the buffers' own, so the
/// program's order shows). A program returning values from more than
/// RenderOptions::outputEdgesUpTo nodes marks them instead of drawing edges into its output.
/// CollapseMode::Kernel on an ATen graph with Inductor's provenance (a post-grad graph loaded
/// with --provenance, fx_graph_transformed.py) draws one box per kernel that computes its nodes.
std::string writeDot(const Graph &graph, const RenderOptions &options = {});

/// Whether some node of an ATen graph names the kernels computing it (Inductor's provenance):
/// what CollapseMode::Kernel groups such a graph by.
bool hasProvenanceKernels(const Graph &graph);

} // namespace fxkit
