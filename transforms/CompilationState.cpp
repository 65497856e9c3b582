#include "transforms/CompilationState.h"

#include "ir/Node.h"

#include <cassert>

namespace fxkit {

void CompilationState::detachFrom(const Graph &graph) {
  if (source || !program)
    return;
  const Node *borrowed = nullptr;
  for (const loop::LoopOp &op : program->ops)
    if (op.externNode) {
      borrowed = op.externNode;
      break;
    }
  // Without extern ops nothing points into the nodes; a state shared without clone() (by
  // copying the attachments) may borrow another holder's nodes, which that holder detaches.
  if (!borrowed || borrowed->graph() != &graph)
    return;
  auto copy = std::make_shared<Graph>();
  source = copy; // set first: clone() below asks this state to detach again
  *copy = graph.clone();
  copy->attachments.clear(); // the copy shares this state; holding it would be a cycle
  // clone() numbered the original nodes in their scratch slots, in program order.
  std::vector<const Node *> copies;
  copies.reserve(copy->size());
  for (const Node *n : *copy)
    copies.push_back(n);
  for (loop::LoopOp &op : program->ops)
    if (op.externNode) {
      assert(op.externNode->graph() == &graph && "an extern loop op of another graph");
      op.externNode = copies[op.externNode->scratch()];
    }
}

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
