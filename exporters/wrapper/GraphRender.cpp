#include "exporters/wrapper/GraphRender.h"

#include "exporters/DotWriter.h"
#include "exporters/GraphvizRender.h"
#include "exporters/ProgramDot.h"
#include "ir/Node.h"
#include "ir/wrapper/WrapperDialect.h"
#include "transforms/CompilationState.h"

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
  if (options.collapse == CollapseMode::Module && state && state->program)
    return writeDot(state->sourceOf(graph), options); // modules are the ATen graph's
  if (options.collapse == CollapseMode::Kernel && !hasKernelLaunches(graph))
    return Error("--collapse kernel needs a compiled program (fxkit compile G --to dot "
                 "--collapse kernel) or a wrapper graph");
  return writeDot(graph, options);
}

Expected<std::string> renderGraph(const Graph &graph, RenderFormat format,
                                  const RenderOptions &options) {
  auto dot = graphDot(graph, options);
  if (!dot)
    return dot;
  return renderDot(*dot, format);
}

Expected<MemoryTimeline> memoryTimelineOf(const Graph &graph) {
  const CompilationState *state = stateOf(graph);
  if (!state || !state->program || !state->fused || !state->plan)
    return Error("a memory timeline needs the lower, fuse and plan passes");
  return memoryTimelineOfPlan(*state->program, *state->fused, *state->plan);
}

} // namespace fxkit
