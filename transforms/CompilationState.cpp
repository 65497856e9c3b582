#include "transforms/CompilationState.h"

namespace fxkit {

CompilationState *compilationState(Graph &graph) {
  auto it = graph.attachments.find(kCompilationStateKey);
  if (it == graph.attachments.end())
    return nullptr;
  return static_cast<CompilationState *>(it->second.get());
}

CompilationState &ensureCompilationState(Graph &graph) {
  if (CompilationState *state = compilationState(graph))
    return *state;
  auto state = std::make_shared<CompilationState>();
  CompilationState &ref = *state;
  graph.attachments[kCompilationStateKey] = std::move(state);
  return ref;
}

} // namespace fxkit
