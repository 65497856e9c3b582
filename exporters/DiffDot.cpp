#include "exporters/DiffDot.h"

#include "exporters/DotStyle.h"

#include <unordered_map>

namespace fxkit {
namespace {

constexpr const char *kSame = "#eeeeee";
constexpr const char *kRenamed = "#cfe2ff";
constexpr const char *kChanged = "#ffd8a8";
constexpr const char *kRemoved = "#ffc9c9";
constexpr const char *kAdded = "#c3fae8";

/// The last part of a target: `torch.ops.aten.add.Tensor` -> `add.Tensor`.
std::string_view shortTarget(const Node *n) {
  if (n->op() != OpKind::CallFunction)
    return opKindName(n->op());
  std::string_view t = n->target();
  for (std::string_view prefix : {"torch.ops.aten.", "torch.ops.prims.", "torch.ops."})
    if (t.starts_with(prefix))
      return t.substr(prefix.size());
  return t;
}

} // namespace

std::string diffDot(const Graph &a, const Graph &b, const GraphMatch &match, std::string_view aName,
                    std::string_view bName, const RenderOptions &options) {
  const bool large = isLargeGraph(a.size() + b.size(), options);
  // Each pair's fill and whether it is linked across.
  std::vector<const char *> fill(match.pairs.size(), kSame);
  std::vector<char> linked(match.pairs.size(), 0);
  size_t regions = 0;
  for (size_t i = 0; i < match.pairs.size(); ++i) {
    const NodeMatchPair &p = match.pairs[i];
    if (p.a.size() != 1 || p.b.size() != 1) {
      fill[i] = kernelColour(regions++);
      linked[i] = 1;
    } else if (match.change(i).any()) {
      fill[i] = kChanged;
      linked[i] = 1;
    } else if (p.a.front()->name() != p.b.front()->name()) {
      fill[i] = kRenamed;
      linked[i] = 1;
    }
  }
  std::string out = dotHeader(a.size() + b.size(), options);
  out += "  rankdir=TB;\n";
  std::unordered_map<const Node *, std::string> idA, idB;
  auto side = [&](const Graph &g, std::string_view name, char prefix, const char *unpaired,
                  std::unordered_map<const Node *, std::string> &ids) {
    out += std::string("  subgraph cluster_") + prefix + " {\n    label=\"" + dotEscape(name) +
           "\";\n";
    size_t k = 0;
    for (const Node *n : g)
      ids.emplace(n, prefix + std::to_string(k++));
    for (const Node *n : g) {
      auto it = match.pairOf.find(n);
      const char *colour = it == match.pairOf.end() ? unpaired : fill[it->second];
      std::string label = n->name() + "\n" + std::string(shortTarget(n));
      if (n->users().size() > options.proxyInputsAbove)
        label += "\n(" + std::to_string(n->users().size()) + " users, edges not drawn)";
      if (n->op() == OpKind::Output && n->inputs().size() > options.outputEdgesUpTo)
        label += "\n(" + std::to_string(n->inputs().size()) + " values, edges not drawn)";
      out += "    " + ids[n] + " [label=\"" + dotEscape(label) + "\", style=filled, fillcolor=\"" +
             colour + "\"];\n";
    }
    // As the graph view draws them (RenderOptions): an input read all over the graph, and a
    // program returning many values, draw no edge each (dot routes every long edge through
    // the ranks it spans: minutes for a training graph's 350 outputs); their labels count them.
    for (const Node *n : g) {
      if (n->op() == OpKind::Output && n->inputs().size() > options.outputEdgesUpTo)
        continue;
      for (const Node *in : n->inputs())
        if (in->users().size() <= options.proxyInputsAbove)
          if (auto it = ids.find(in); it != ids.end())
            out += "    " + it->second + " -> " + ids[n] + ";\n";
    }
    out += "  }\n";
  };
  side(a, aName, 'a', kRemoved, idA);
  side(b, bName, 'b', kAdded, idB);
  for (size_t i = 0; i < match.pairs.size(); ++i) {
    if (!linked[i])
      continue;
    const NodeMatchPair &p = match.pairs[i];
    out += "  " + idA[p.a.front()] + " -> " + idB[p.b.front()] +
           " [style=dashed, color=\"#868e96\", constraint=false, arrowhead=none" +
           (dotEdgeLabel(matchReasonName(p.reason), large).empty()
                ? std::string()
                : ", " + dotEdgeLabel(matchReasonName(p.reason), large)) +
           "];\n";
  }
  out += std::string("  legend [shape=plaintext, label=<<table border=\"0\" cellspacing=\"2\">") +
         "<tr><td bgcolor=\"" + kSame + "\">same</td><td bgcolor=\"" + kRenamed +
         "\">renamed</td><td bgcolor=\"" + kChanged + "\">changed</td><td bgcolor=\"" +
         kernelColour(0) + "\">region</td><td bgcolor=\"" + kRemoved +
         "\">removed</td><td bgcolor=\"" + kAdded + "\">added</td></tr></table>>];\n";
  out += "}\n";
  return out;
}

} // namespace fxkit
