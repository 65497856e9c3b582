#include "transforms/LiftConstants.h"

#include <unordered_set>

namespace fxkit {

std::vector<std::string> tensorConstantTargets(const Graph &graph) {
  std::vector<std::string> targets;
  std::unordered_set<std::string> seen;
  for (const Node *n : graph) {
    if (n->op() != OpKind::GetAttr || n->users().empty() || graph.submodule(n->target()))
      continue;
    if (seen.insert(std::string(n->target())).second)
      targets.emplace_back(n->target());
  }
  return targets;
}

Status liftTensorConstants(Graph &graph, const std::vector<std::string> &targets) {
  // New placeholders go after the last existing one (before the first other node), so the
  // graph's own inputs keep their positions.
  Node *firstBody = nullptr;
  for (Node *n : graph)
    if (n->op() != OpKind::Placeholder) {
      firstBody = n;
      break;
    }
  for (const std::string &target : targets) {
    std::vector<Node *> reads;
    for (Node *n : graph)
      if (n->op() == OpKind::GetAttr && n->target() == target)
        reads.push_back(n);
    if (reads.empty())
      return Error("no get_attr node reads '" + target + "'");
    Node *keep = reads.front();
    std::string name = keep->name();
    NodeValue value = keep->value();
    std::string pythonType(keep->pythonType());
    // Several get_attr nodes of one target read one value: fold them into the first.
    for (size_t i = 1; i < reads.size(); ++i) {
      graph.replaceAllUsesWith(reads[i], keep);
      if (firstBody == reads[i])
        firstBody = reads[i]->next();
      graph.erase(reads[i]);
    }
    // A node cannot change its kind or name: route the users through a temporary placeholder
    // while the get_attr's name is freed.
    std::string temporaryName = graph.uniqueName(name + "_lifted");
    Node *temporary =
        graph.create(OpKind::Placeholder, temporaryName, temporaryName, {}, {}, firstBody);
    graph.replaceAllUsesWith(keep, temporary);
    if (firstBody == keep)
      firstBody = keep->next();
    graph.erase(keep);
    Node *lifted = graph.create(OpKind::Placeholder, name, name, {}, {}, firstBody);
    lifted->value() = std::move(value);
    if (!pythonType.empty())
      lifted->setPythonType(pythonType);
    graph.replaceAllUsesWith(temporary, lifted);
    graph.erase(temporary);
  }
  return Status::ok();
}

} // namespace fxkit
