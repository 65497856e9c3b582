#include "exporters/GraphSummary.h"

#include <algorithm>
#include <set>

namespace fxkit {

std::string valueTypeString(const NodeValue &value) {
  if (const TensorType *t = value.tensor())
    return t->str();
  if (const SymExpr *s = value.sym())
    return "Sym(" + s->str() + ")";
  if (const auto *ts = value.tensors()) {
    std::string out = "(";
    for (size_t i = 0; i < ts->size(); ++i) {
      if (i)
        out += ", ";
      out += (*ts)[i] ? (*ts)[i]->str() : "None";
    }
    return out + (ts->size() == 1 ? ",)" : ")");
  }
  if (const auto *items = value.items()) {
    std::string out = "(";
    for (size_t i = 0; i < items->size(); ++i) {
      if (i)
        out += ", ";
      out += (*items)[i].empty() ? "None" : valueTypeString((*items)[i]);
    }
    return out + (items->size() == 1 ? ",)" : ")");
  }
  return "";
}

GraphSummary summarizeGraph(const Graph &graph) {
  GraphSummary s;
  s.nodeCount = graph.size();
  std::map<std::string, size_t> targets;
  std::set<std::string> symbols;
  auto addSymbols = [&symbols](const TensorType &t) {
    for (const auto *list : {&t.sizes, &t.strides})
      for (const SymExpr &e : *list)
        for (auto &name : e.symbols())
          symbols.insert(name);
  };
  for (Node *n : graph) {
    ++s.opKindCounts[std::string(opKindName(n->op()))];
    if (n->op() == OpKind::CallFunction || n->op() == OpKind::CallMethod ||
        n->op() == OpKind::CallModule)
      ++targets[std::string(n->target())];
    if (const TensorType *t = n->value().tensor())
      addSymbols(*t);
    if (const auto *ts = n->value().tensors())
      for (const auto &t : *ts)
        if (t)
          addSymbols(*t);
    if (const SymExpr *e = n->value().sym())
      for (auto &name : e->symbols())
        symbols.insert(name);
    if (n->op() == OpKind::Placeholder)
      s.inputs.push_back({n->name(), valueTypeString(n->value())});
    if (n->op() == OpKind::Output && !n->args().items().empty())
      n->args().items()[0].forEachNode([&s](Node *out) {
        s.outputs.push_back({out->name(), valueTypeString(out->value())});
      });
  }
  s.targetCounts.assign(targets.begin(), targets.end());
  std::stable_sort(s.targetCounts.begin(), s.targetCounts.end(),
                   [](const auto &a, const auto &b) { return a.second > b.second; });
  s.symbols.assign(symbols.begin(), symbols.end());
  return s;
}

std::string printGraphSummary(const GraphSummary &s) {
  std::string out = "nodes: " + std::to_string(s.nodeCount) + "\n";
  for (const auto &[kind, count] : s.opKindCounts)
    out += "  " + kind + ": " + std::to_string(count) + "\n";
  auto values = [&out](const char *title, const std::vector<GraphSummary::Value> &vs) {
    out += std::string(title) + ": " + std::to_string(vs.size()) + "\n";
    for (const auto &v : vs)
      out += "  " + v.name + (v.type.empty() ? "" : ": " + v.type) + "\n";
  };
  values("inputs", s.inputs);
  values("outputs", s.outputs);
  out += "symbols:";
  for (const auto &sym : s.symbols)
    out += " " + sym;
  out += "\nops:\n";
  for (const auto &[target, count] : s.targetCounts)
    out += "  " + std::to_string(count) + "  " + target + "\n";
  return out;
}

} // namespace fxkit
