#pragma once
/// \file The interactive graph of a report page: pan, zoom, search by name or op, collapse by
/// module path or by kernel, per-node overlays (bytes, type, module, fxkit's kernel, Inductor's
/// kernel) as colour, size and a details panel. Graphviz pictures stop being usable at a few
/// thousand nodes; this one draws 100k with WebGL (sigma.js + graphology, bundled from the
/// npm registry by tools/viewer/ into exporters/report/viewer.min.js, which the build embeds:
/// the page stays one offline file). Positions are computed here (LayeredLayout.h), not in
/// the browser. The same per-node data feeds Model Explorer's graph JSON (ModelExplorerJson.h).

#include "exporters/report/LayeredLayout.h"
#include "ir/Graph.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fxkit {

/// A graph as the viewer shows it: one row per node in graph order, strings as read, and its
/// edges (each node's distinct inputs). Kept apart from the `Graph` so a report can take it
/// before the compiler passes replace the graph's nodes and add the kernels after.
struct ViewerGraph {
  std::vector<std::string> name;
  std::vector<OpKind> kind;
  std::vector<std::string> op;       ///< target without `torch.ops.`; the op kind otherwise
  std::vector<std::string> type;     ///< the value's type (`f32[8, 128][128, 1]cpu`), or ""
  std::vector<int64_t> bytes;        ///< bytes of its tensors; -1 when a size is symbolic
  std::vector<std::string> module;   ///< module path ("" outside any known module)
  std::vector<std::string> kernel;   ///< fxkit's kernel (fusion group) computing it, or ""
  std::vector<std::string> inductor; ///< Inductor's kernel call computing it (provenance), or ""
  LayoutGraph edges;
  size_t size() const { return name.size(); }
};

/// The graph's nodes with their module paths (one per node, exporters/ModulePath.h
/// modulePathsFor; empty: none known) and Inductor's kernels from the nodes' provenance.
ViewerGraph viewerGraphOf(const Graph &graph, const std::vector<std::string> &modules);

/// fxkit's fusion as an overlay: each node a loop op of `fused` computes (its origins) gets the
/// first such kernel's name.
void addFxkitKernels(ViewerGraph &graph, const loop::LoopProgram &program,
                     const loop::FusedProgram &fused);

/// What the page carries: the nodes, positions and collapsed views as one compact JSON object
/// (columns of arrays and string tables, described in tools/viewer/src/viewer.js). About 60
/// bytes a node (a generated 100k-node graph: 6.2 MB; the names are a third of it).
std::string graphViewerData(const ViewerGraph &graph);

/// The viewer as an HTML fragment for a page: its style, container, data and script (the
/// bundle, ~180 kB). One per page.
std::string graphViewerHtml(const ViewerGraph &graph);

/// "sigma 3.0.3, graphology 0.26.0": what the embedded bundle was built from.
std::string graphViewerLibraries();

} // namespace fxkit
