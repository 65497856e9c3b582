#pragma once
/// \file Pictures of any graph, in one call: the API behind `--to dot|svg|png|pdf|timeline` and
/// the shell's `render`. A graph the compiler passes lowered and fused (its CompilationState)
/// is drawn as its compiled loop program (exporters/ProgramDot.h: kernels as clusters,
/// refused fusions); any other graph, wrapper graphs imported from Inductor included, as
/// itself (exporters/DotWriter.h). SVG, PNG and PDF are laid out by libgvc in a child process
/// (exporters/GraphvizRender.h); large pictures get the cheap layout (RenderOptions).

#include "exporters/MemoryTimeline.h"
#include "exporters/RenderOptions.h"
#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>
#include <vector>

namespace fxkit {

/// The DOT text renderGraph lays out. Errors: `--collapse kernel` on a graph that is not a
/// compiled program nor a wrapper graph.
Expected<std::string> graphDot(const Graph &graph, const RenderOptions &options = {});

/// The picture in `format` (DOT text, an SVG document, or PNG/PDF bytes). Graphviz's warnings,
/// in fxkit's words, go to `warnings` (renderDot: stderr when null).
Expected<std::string> renderGraph(const Graph &graph, RenderFormat format,
                                  const RenderOptions &options = {},
                                  std::vector<std::string> *warnings = nullptr);

/// The memory timeline of a compiled graph (the plan pass ran on it).
Expected<MemoryTimeline> memoryTimelineOf(const Graph &graph);

} // namespace fxkit
