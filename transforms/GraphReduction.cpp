#include "transforms/GraphReduction.h"

#include "transforms/DeadCodeElimination.h"
#include "transforms/ShapeInference.h"

#include <algorithm>
#include <tuple>

namespace fxkit {

namespace {

/// Forgets every type but the placeholders' (shape inference recomputes them).
Graph &keepInputTypes(Graph &graph) {
  for (Node *n : graph)
    if (n->op() != OpKind::Placeholder)
      n->value() = NodeValue{};
  return graph;
}

std::vector<Node *> callNodes(const Graph &g) {
  std::vector<Node *> out;
  for (Node *n : g)
    if (n->op() == OpKind::CallFunction)
      out.push_back(n);
  return out;
}

size_t returnedValues(const Graph &g) {
  const Node *o = g.outputNode();
  if (!o || o->args().items().size() != 1 || !o->args().items()[0].isContainer())
    return 0;
  return o->args().items()[0].items().size();
}

/// The order of candidates: call nodes, then placeholders, then returned values.
using Size = std::tuple<size_t, size_t, size_t>;
Size sizeOf(const Graph &g) {
  size_t placeholders = 0;
  for (const Node *n : g)
    placeholders += n->op() == OpKind::Placeholder;
  return {callNodes(g).size(), placeholders, returnedValues(g)};
}

/// Every one-step reduction of `base` (see reduceFailingGraph), smallest first.
std::vector<Graph> candidates(const Graph &base) {
  std::vector<Graph> out;
  size_t calls = callNodes(base).size();
  // Drop one returned value (the output's argument is a tuple or list of them).
  if (size_t count = returnedValues(base); count > 1) {
    for (size_t k = 0; k < count; ++k) {
      Graph g = base.clone();
      Node *go = g.outputNode();
      std::vector<Argument> items;
      for (size_t j = 0; j < count; ++j)
        if (j != k)
          items.push_back(go->args().items()[0].items()[j]);
      go->setArgs(Argument::tuple({Argument::tuple(std::move(items))}));
      (void)eliminateDeadCode(g);
      out.push_back(std::move(keepInputTypes(g)));
    }
  }
  for (size_t i = calls; i-- > 0;) {
    // Replace the node by one of its inputs.
    std::vector<Node *> inputsOf = callNodes(base)[i]->inputs();
    for (size_t k = 0; k < inputsOf.size(); ++k) {
      Graph g = base.clone();
      Node *n = callNodes(g)[i];
      Node *in = n->inputs()[k];
      g.replaceAllUsesWith(n, in);
      (void)eliminateDeadCode(g);
      out.push_back(std::move(keepInputTypes(g)));
    }
    // Replace the node by a new input of its type.
    Graph g = base.clone();
    if (!inferShapes(g))
      continue;
    Node *n = callNodes(g)[i];
    if (!n->value().tensor())
      continue;
    Node *first = nullptr;
    for (Node *m : g)
      if (m->op() != OpKind::Placeholder) {
        first = m;
        break;
      }
    std::string name = g.uniqueName("in_" + n->name());
    Node *p =
        g.create(OpKind::Placeholder, name, name, Argument::tuple({}), Argument::dict({}), first);
    p->value() = n->value();
    g.replaceAllUsesWith(n, p);
    (void)eliminateDeadCode(g);
    out.push_back(std::move(keepInputTypes(g)));
  }
  // Unused placeholders.
  {
    Graph g = base.clone();
    std::vector<Node *> unused;
    for (Node *n : g)
      if (n->op() == OpKind::Placeholder && n->users().empty())
        unused.push_back(n);
    if (!unused.empty()) {
      for (Node *n : unused)
        g.erase(n);
      out.push_back(std::move(keepInputTypes(g)));
    }
  }
  std::vector<std::pair<Size, size_t>> order;
  for (size_t i = 0; i < out.size(); ++i)
    order.push_back({sizeOf(out[i]), i});
  std::stable_sort(order.begin(), order.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<Graph> sorted;
  sorted.reserve(out.size());
  for (const auto &entry : order)
    sorted.push_back(std::move(out[entry.second]));
  return sorted;
}

} // namespace

Graph reduceFailingGraph(const Graph &graph, const std::function<bool(const Graph &)> &stillFails,
                         const ReduceOptions &options) {
  Graph best = graph.clone();
  keepInputTypes(best);
  size_t checks = 0;
  for (int round = 0; round < options.maxRounds; ++round) {
    bool improved = false;
    Size bestSize = sizeOf(best);
    for (Graph &c : candidates(best)) {
      if (!(sizeOf(c) < bestSize))
        continue;
      if (checks++ >= options.maxChecks)
        return best;
      if (stillFails(c)) {
        best = std::move(c);
        improved = true;
        break;
      }
    }
    if (!improved)
      break;
  }
  return best;
}

} // namespace fxkit
