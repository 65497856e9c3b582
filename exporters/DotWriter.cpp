#include "exporters/DotWriter.h"

#include "exporters/DotStyle.h"
#include "exporters/ModulePath.h"
#include "exporters/ProvenanceText.h"
#include "ir/Node.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace fxkit {
namespace {

std::string typeText(const NodeValue &v) {
  if (const TensorType *t = v.tensor())
    return t->str();
  if (const auto *ts = v.tensors()) {
    std::string out = "(";
    for (size_t i = 0; i < ts->size(); ++i) {
      out += i ? ", " : "";
      out += (*ts)[i] ? (*ts)[i]->str() : "None";
    }
    return out + ")";
  }
  if (const SymExpr *s = v.sym())
    return "Sym(" + s->str() + ")";
  if (const auto *items = v.items()) {
    std::string out = "(";
    for (size_t i = 0; i < items->size(); ++i) {
      out += i ? ", " : "";
      out += (*items)[i].empty() ? "None" : typeText((*items)[i]);
    }
    return out + ")";
  }
  return "";
}

/// The `name=` of a kernel launch.
std::string kernelName(const Node &node) {
  if (const Argument *a = node.kwargs().find("name"); a && a->kind() == Argument::Kind::String)
    return std::string(a->asString());
  return std::string(node.target());
}

/// The ATen nodes a launch computes (`origins=[..]`), as fxkit's and Inductor's wrappers record.
std::vector<std::string> origins(const Node &node) {
  std::vector<std::string> out;
  if (const Argument *a = node.kwargs().find("origins"); a && a->kind() == Argument::Kind::List)
    for (const Argument &item : a->items())
      if (item.kind() == Argument::Kind::String)
        out.emplace_back(item.asString());
  return out;
}

/// Bytes flowing along an edge out of `producer`, when its type is a tensor of known size.
std::string edgeBytes(const Node &producer) {
  if (const TensorType *t = producer.value().tensor())
    if (auto bytes = tensorBytes(*t))
      return formatBytes(*bytes);
  return "";
}

std::string quoted(std::string_view s) { return "\"" + dotEscape(s) + "\""; }

/// Inductor's provenance of a node: one line added to its label (what a kernel call computes,
/// the kernels computing another node) and all of it as the tooltip.
std::string provenanceAttributes(const Node &node, const NodeProvenance &p, std::string &label) {
  bool call = node.target() == "fxkit.kernel" || node.target() == "fxkit.extern";
  NodeProvenance shown;
  if (call || p.kernels.empty())
    shown.postGrad = p.postGrad;
  else
    shown.kernels = p.kernels;
  std::vector<std::string> lines = provenanceLines(shown, 3);
  if (!lines.empty())
    label += "\\n" + dotEscape(lines.front());
  std::string tooltip;
  for (const std::string &line : provenanceLines(p, 40))
    tooltip += (tooltip.empty() ? "" : "\\n") + dotEscape(line);
  return ", tooltip=\"" + tooltip + "\"";
}

/// One box per module path; edges between modules carry the bytes crossing them.
std::string writeModuleDot(const Graph &graph, const RenderOptions &options) {
  std::vector<std::string> paths = modulePaths(graph);
  std::unordered_map<const Node *, size_t> index;
  struct Group {
    size_t nodes = 0;
    std::map<std::string, size_t> ops;
  };
  std::map<std::string, Group> groups;
  std::vector<std::string> order; // groups in order of first appearance
  size_t i = 0;
  auto groupOf = [&](const Node *n, size_t at) -> std::string {
    if (n->op() == OpKind::Placeholder && paths[at].empty())
      return "(inputs)";
    if (n->op() == OpKind::Output)
      return "(output)";
    return paths[at].empty() ? "(top level)" : paths[at];
  };
  std::vector<std::string> groupName;
  groupName.reserve(graph.size());
  for (const Node *n : graph) {
    index.emplace(n, i);
    groupName.push_back(groupOf(n, i));
    auto [it, added] = groups.try_emplace(groupName.back());
    if (added)
      order.push_back(groupName.back());
    Group &g = it->second;
    ++g.nodes;
    std::string op = n->op() == OpKind::CallFunction ? std::string(n->target())
                                                     : std::string(opKindName(n->op()));
    if (size_t dot = op.rfind("aten."); dot != std::string::npos)
      op = op.substr(dot + 5);
    ++g.ops[op];
    ++i;
  }
  const bool large = isLargeGraph(groups.size(), options);
  std::string out = dotHeader(groups.size(), options);
  for (const std::string &name : order) {
    const Group &g = groups.at(name);
    std::vector<std::pair<size_t, std::string>> top;
    for (const auto &[op, count] : g.ops)
      top.emplace_back(count, op);
    std::sort(top.begin(), top.end(), [](const auto &a, const auto &b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::string label = name + "\n" + std::to_string(g.nodes) + " nodes";
    for (size_t k = 0; k < top.size() && k < 4; ++k)
      label += "\n" + std::to_string(top[k].first) + " x " + top[k].second;
    if (top.size() > 4)
      label += "\n...";
    out += "  " + quoted(name) + " [label=" + quoted(label) + "];\n";
  }
  // Edges between groups, bytes summed over the distinct producers crossing them.
  std::map<std::pair<std::string, std::string>, int64_t> bytes;
  std::map<std::pair<std::string, std::string>, bool> unknown;
  for (const Node *n : graph) {
    const std::string &to = groupName[index[n]];
    std::vector<Node *> seen;
    for (Node *in : n->inputs()) {
      if (std::find(seen.begin(), seen.end(), in) != seen.end())
        continue;
      seen.push_back(in);
      const std::string &from = groupName[index[in]];
      if (from == to)
        continue;
      auto key = std::make_pair(from, to);
      bytes.try_emplace(key, 0);
      const TensorType *t = in->value().tensor();
      auto b = t ? tensorBytes(*t) : std::nullopt;
      if (b)
        bytes[key] += *b;
      else
        unknown[key] = true;
    }
  }
  for (const auto &[key, b] : bytes) {
    std::string text = b || !unknown.count(key) ? formatBytes(b) : "";
    if (unknown.count(key) && b)
      text += " + symbolic";
    std::string attrs = dotEdgeLabel(text, large);
    out += "  " + quoted(key.first) + " -> " + quoted(key.second) +
           (attrs.empty() ? "" : " [" + attrs + "]") + ";\n";
  }
  out += "}\n";
  return out;
}

} // namespace

std::string writeDot(const Graph &graph, const RenderOptions &options) {
  if (options.collapse == CollapseMode::Module)
    return writeModuleDot(graph, options);
  const bool clusters = options.collapse != CollapseMode::Kernel;
  size_t drawn = graph.size();
  if (clusters)
    for (const Node *node : graph)
      if (node->target() == "fxkit.kernel")
        drawn += origins(*node).size();
  const bool large = isLargeGraph(drawn, options);
  std::string out = dotHeader(drawn, options);
  std::map<std::string, size_t> kernelColourIndex;
  for (const Node *node : graph) {
    std::string label = node->name() + "\\n" + std::string(opKindName(node->op()));
    if (!node->target().empty() && node->op() != OpKind::Output)
      label += " " + dotEscape(node->target());
    std::string attrs;
    std::string cluster;
    if (node->target() == "fxkit.kernel") {
      std::string name = kernelName(*node);
      label += "\\n" + dotEscape(name);
      const char *colour =
          kernelColour(kernelColourIndex.emplace(name, kernelColourIndex.size()).first->second);
      attrs = std::string(", style=filled, fillcolor=\"") + colour + "\"";
      std::vector<std::string> ops = clusters ? origins(*node) : std::vector<std::string>{};
      if (!ops.empty()) {
        // The launch and the ATen ops it computes, in one cluster of the kernel's colour.
        cluster = "  subgraph " + quoted("cluster_" + node->name()) +
                  " {\n    label=" + quoted(name) + "; style=\"filled,rounded\"; fillcolor=\"" +
                  colour + "\"; fontname=\"monospace\"; fontsize=10;\n";
        for (const std::string &op : ops)
          cluster += "    " + quoted(node->name() + "/" + op) + " [label=" + quoted(op) +
                     ", shape=box, style=\"filled,dashed\", fillcolor=white, fontsize=8];\n";
        for (const std::string &op : ops)
          cluster += "    " + quoted(node->name()) + " -> " + quoted(node->name() + "/" + op) +
                     " [style=invis];\n";
        attrs = ", style=filled, fillcolor=white, penwidth=2";
      }
    } else if (node->target() == "fxkit.extern") {
      if (const Argument *a = node->kwargs().find("op"); a && a->kind() == Argument::Kind::String)
        label += "\\n" + dotEscape(a->asString());
      attrs = std::string(", shape=hexagon, style=filled, fillcolor=\"") + kExternColour + "\"";
    } else if (node->op() == OpKind::Placeholder || node->op() == OpKind::Output) {
      attrs = ", shape=ellipse";
    }
    if (std::string t = typeText(node->value()); !t.empty())
      label += "\\n" + dotEscape(t);
    if (const NodeProvenance *p = node->provenance())
      attrs += provenanceAttributes(*node, *p, label);
    std::string statement =
        "\"" + dotEscape(node->name()) + "\" [label=\"" + label + "\"" + attrs + "];\n";
    if (cluster.empty())
      out += "  " + statement;
    else
      out += cluster + "    " + statement + "  }\n";
  }
  // Inputs with many users, drawn again beside each user in the cheap layout.
  auto proxied = [&](const Node *in) {
    return (in->op() == OpKind::Placeholder || in->op() == OpKind::GetAttr) &&
           in->users().size() > options.proxyInputsAbove;
  };
  for (const Node *node : graph) {
    // One edge per distinct producer, in argument order, so a node used twice draws once.
    std::vector<Node *> seen;
    for (Node *in : node->inputs()) {
      if (std::find(seen.begin(), seen.end(), in) != seen.end())
        continue;
      seen.push_back(in);
      std::string from = in->name();
      if (proxied(in)) {
        from = in->name() + "@" + node->name();
        out += "  " + quoted(from) + " [label=" + quoted(in->name()) +
               ", shape=ellipse, style=dashed, fontsize=8];\n";
      }
      out += "  " + quoted(from) + " -> " + quoted(node->name());
      if (std::string attrs = dotEdgeLabel(edgeBytes(*in), large); !attrs.empty())
        out += " [" + attrs + "]";
      out += ";\n";
    }
  }
  out += "}\n";
  return out;
}

} // namespace fxkit
