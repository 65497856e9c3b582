#include "exporters/DotWriter.h"

#include "ir/Node.h"

#include <algorithm>
#include <map>
#include <optional>

namespace fxkit {
namespace {

/// DOT string literal contents: quotes and backslashes escaped, newlines as `\n`.
std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

/// Bytes of a tensor whose sizes are all constants; none for symbolic sizes.
std::optional<int64_t> tensorBytes(const TensorType &t) {
  int64_t n = dtypeItemSize(t.dtype);
  for (const SymExpr &s : t.sizes) {
    if (!s.isConstant())
      return std::nullopt;
    n *= s.constant();
  }
  return n;
}

std::string formatBytes(int64_t n) { return std::to_string(n) + " B"; }

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
  return "";
}

/// The `name=` of a kernel launch, looked up in kwargs, then in a dict positional argument.
std::string kernelName(const Node &node) {
  if (const Argument *a = node.kwargs().find("name"); a && a->kind() == Argument::Kind::String)
    return std::string(a->asString());
  return std::string(node.target());
}

/// A fixed palette of light fills, so neighbouring kernels stay readable with black text.
constexpr const char *kPalette[] = {"#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6",
                                    "#ffff99", "#8dd3c7", "#bebada", "#fccde5", "#d9d9d9"};

} // namespace

std::string writeDot(const Graph &graph) {
  std::string out = "digraph fxkit {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
                    "  edge [fontname=\"monospace\", fontsize=9];\n";
  std::map<std::string, size_t> kernelColour;
  for (const Node *node : graph) {
    std::string label = node->name() + "\\n" + std::string(opKindName(node->op()));
    if (!node->target().empty() && node->op() != OpKind::Output)
      label += " " + escape(node->target());
    std::string attrs;
    if (node->target() == "fxkit.kernel") {
      std::string name = kernelName(*node);
      label += "\\n" + escape(name);
      size_t colour =
          kernelColour.emplace(name, kernelColour.size()).first->second % std::size(kPalette);
      attrs = std::string(", style=filled, fillcolor=\"") + kPalette[colour] + "\"";
    } else if (node->target() == "fxkit.extern") {
      if (const Argument *a = node->kwargs().find("op"); a && a->kind() == Argument::Kind::String)
        label += "\\n" + escape(a->asString());
      attrs = ", shape=hexagon, style=filled, fillcolor=\"#ffd92f\"";
    } else if (node->op() == OpKind::Placeholder || node->op() == OpKind::Output) {
      attrs = ", shape=ellipse";
    }
    if (std::string t = typeText(node->value()); !t.empty())
      label += "\\n" + escape(t);
    out += "  \"" + escape(node->name()) + "\" [label=\"" + label + "\"" + attrs + "];\n";
  }
  for (const Node *node : graph) {
    // One edge per distinct producer, in argument order, so a node used twice draws once.
    std::vector<Node *> seen;
    for (Node *in : node->inputs()) {
      if (std::find(seen.begin(), seen.end(), in) != seen.end())
        continue;
      seen.push_back(in);
      out += "  \"" + escape(in->name()) + "\" -> \"" + escape(node->name()) + "\"";
      if (const TensorType *t = in->value().tensor())
        if (auto bytes = tensorBytes(*t))
          out += " [label=\"" + formatBytes(*bytes) + "\"]";
      out += ";\n";
    }
  }
  out += "}\n";
  return out;
}

} // namespace fxkit
