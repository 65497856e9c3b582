#pragma once
/// \file What a picture of a graph shows and how it is laid out: the options shared by the DOT
/// writers (exporters/DotWriter.h, exporters/ProgramDot.h) and renderGraph
/// (exporters/wrapper/GraphRender.h), the one picture path of `convert`/`compile --to
/// dot|svg|png|pdf` and the shell's `export` and `render`.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace fxkit {

class Graph;

/// The one picture enum: DOT text, or what Graphviz lays it out as (exporters/GraphvizRender.h).
enum class RenderFormat : uint8_t { Dot, Svg, Png, Pdf };
std::string_view renderFormatName(RenderFormat format);
/// "dot", "svg", "png", "pdf".
std::optional<RenderFormat> parseRenderFormat(std::string_view name);

/// One box per group instead of one per node, for graphs too large to read node by node.
enum class CollapseMode : uint8_t {
  None,
  Kernel, ///< one box per kernel of a compiled program (needs the fuse pass)
  Module, ///< one box per nn.Module path (recovered from Dynamo's parameter names)
};
std::string_view collapseModeName(CollapseMode mode);
/// "none", "kernel", "module".
std::optional<CollapseMode> parseCollapseMode(std::string_view name);

struct RenderOptions {
  /// Compiled programs: draw refused fusions as dashed edges labelled with the reason.
  bool fusion = false;
  CollapseMode collapse = CollapseMode::None;
  /// CollapseMode::Module on a graph whose names carry no module: the Dynamo graph it was
  /// traced from, reached through Inductor's provenance (exporters/ModulePath.h
  /// modulePathsThroughProvenance); not owned.
  const Graph *moduleSource = nullptr;
  /// From this many drawn nodes on, the DOT asks for the cheap layout (straight edges, bounded
  /// crossing minimisation and network simplex, labels moved into tooltips): dot's default
  /// settings take minutes on thousands of nodes (bench/render_bench.cpp measures both).
  size_t largeGraphNodes = 800;
  /// An input (placeholder, get_attr, input buffer) with more users than this is drawn again
  /// next to each user instead of with one edge per user: edges from one input to users all
  /// over the graph span most ranks, and dot routes each through a chain of virtual nodes
  /// (quadratic in the graph's depth: 25 s for 250 nodes, bench/README.md).
  size_t proxyInputsAbove = 8;
  /// A program returning values from more nodes than this draws its output node as a summary
  /// (the count, the first types) and marks each returned node ("-> output[3]", a double border)
  /// instead of drawing one edge per value into it: every such edge runs from its producer to
  /// the last rank through a chain of virtual nodes, as the shared inputs' did (mobilenet_v2's
  /// training forward returns 350 values: 104 s and 0.4 s without those edges, bench/README.md).
  size_t outputEdgesUpTo = 8;
  /// A label lists this many of a node's several values' types (a tuple, the output's values)
  /// and counts the rest.
  size_t typesShown = 4;
  /// A wrapper's kernel launch is drawn in a cluster with a box per ATen op it fused, at most
  /// this many (the last one counts the rest): a row of 20 made wrapper pictures wide strips.
  size_t originBoxes = 6;
};

} // namespace fxkit
