#include "exporters/wrapper/GraphRender.h"

#include "exporters/DotWriter.h"
#include "exporters/GraphvizRender.h"
#include "exporters/ModulePath.h"
#include "exporters/ProgramDot.h"
#include "ir/Node.h"
#include "ir/wrapper/WrapperDialect.h"
#include "transforms/CompilationState.h"

#include <algorithm>

namespace fxkit {
namespace {

const CompilationState *stateOf(const Graph &graph) {
  auto it = graph.attachments.find(kCompilationStateKey);
  if (it == graph.attachments.end() || !it->second)
    return nullptr;
  return static_cast<const CompilationState *>(it->second.get());
}

bool hasKernelLaunches(const Graph &graph) {
  for (const Node *n : graph)
    if (n->target() == wrapper::kKernel || n->target() == wrapper::kExtern)
      return true;
  return false;
}

} // namespace

Expected<std::string> graphDot(const Graph &graph, const RenderOptions &options) {
  const CompilationState *state = stateOf(graph);
  if (state && state->program && state->fused && options.collapse != CollapseMode::Module)
    return writeProgramDot(*state->program, *state->fused, options);
  if (options.collapse == CollapseMode::Module) {
    // Modules are the ATen graph's.
    const Graph &source = state && state->program ? state->sourceOf(graph) : graph;
    std::vector<std::string> paths = modulePathsFor(source, options.moduleSource);
    if (std::all_of(paths.begin(), paths.end(), [](const std::string &p) { return p.empty(); }))
      return Error(options.moduleSource
                       ? "--collapse module: no node leads to a module of the Dynamo graph "
                         "(--modules) through Inductor's provenance: give the mapping of this "
                         "graph's compile (--provenance), or a Dynamo graph that names modules"
                       : "--collapse module: this graph names no module (module paths come from "
                         "Dynamo's parameter names, L_self_modules_<module>_parameters_<name>, "
                         "and get_attr targets; post-grad and wrapper graphs call them primals_N "
                         "or argN_M): collapse the model's Dynamo graph (dynamo_N.graph.txt) by "
                         "module, or this graph with its provenance (--provenance) and that "
                         "Dynamo graph (--modules), or by kernel");
    return writeDot(source, options);
  }
  if (options.collapse == CollapseMode::Kernel && !hasKernelLaunches(graph) &&
      !hasProvenanceKernels(graph))
    return Error("--collapse kernel needs kernels: compile the graph (fxkit compile G --to svg "
                 "--collapse kernel), or give Inductor's provenance (--provenance "
                 "inductor_provenance_tracking_node_mappings.json of its debug folder) to group "
                 "its nodes by Inductor's kernels; wrapper graphs (output_code.py) have theirs");
  return writeDot(graph, options);
}

Expected<std::string> renderGraph(const Graph &graph, RenderFormat format,
                                  const RenderOptions &options,
                                  std::vector<std::string> *warnings) {
  auto dot = graphDot(graph, options);
  if (!dot)
    return dot;
  return renderDot(*dot, format, "dot", warnings);
}

Expected<MemoryTimeline> memoryTimelineOf(const Graph &graph) {
  const CompilationState *state = stateOf(graph);
  if (!state || !state->program || !state->fused || !state->plan)
    return Error("a memory timeline needs the lower, fuse and plan passes");
  return memoryTimelineOfPlan(*state->program, *state->fused, *state->plan);
}

} // namespace fxkit
