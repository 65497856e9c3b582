#include "exporters/ModulePath.h"

#include "ir/Node.h"

#include <algorithm>
#include <unordered_map>

namespace fxkit {

std::string modulePathOfName(std::string_view name) {
  // get_attr targets are dotted: the module is everything before the attribute.
  if (name.find('.') != std::string_view::npos) {
    size_t dot = name.rfind('.');
    return std::string(name.substr(0, dot));
  }
  // Dynamo: [l_|L_](self|fn)_modules_<a>_modules_<b>_(parameters|buffers)_<attr>_
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string path;
  size_t pos = 0;
  const std::string_view key = "modules_";
  while ((pos = lower.find(key, pos)) != std::string::npos) {
    if (pos > 0 && lower[pos - 1] != '_')
      break;
    size_t start = pos + key.size();
    // A module name runs to the next `_modules_`, `_parameters_` or `_buffers_`.
    size_t end = std::string::npos;
    for (std::string_view stop : {"_modules_", "_parameters_", "_buffers_"})
      end = std::min(end, lower.find(stop, start));
    if (end == std::string::npos)
      break;
    path += (path.empty() ? "" : ".") + std::string(name.substr(start, end - start));
    pos = end + 1;
  }
  return path;
}

namespace {

/// modulePaths' rule, with `seed(node)` naming the module of the nodes it knows (or "").
template <typename Seed> std::vector<std::string> propagatedPaths(const Graph &graph, Seed &&seed) {
  std::vector<std::string> out;
  out.reserve(graph.size());
  std::unordered_map<const Node *, size_t> index;
  for (const Node *node : graph) {
    std::string path = node->op() == OpKind::Output ? std::string() : seed(*node);
    if (path.empty() && node->op() != OpKind::Placeholder && node->op() != OpKind::GetAttr &&
        node->op() != OpKind::Output) {
      // A parameter read directly names the module running (linear(x, w, b)); else the most
      // recently defined input that has a module (the running module's previous op).
      size_t latest = 0;
      bool found = false, fromParameter = false;
      for (const Node *in : node->inputs()) {
        auto it = index.find(in);
        if (it == index.end() || out[it->second].empty())
          continue;
        bool parameter = in->op() == OpKind::Placeholder || in->op() == OpKind::GetAttr;
        if ((parameter && !fromParameter) || (parameter == fromParameter && it->second >= latest) ||
            !found) {
          latest = it->second;
          fromParameter = parameter;
          found = true;
        }
      }
      if (found)
        path = out[latest];
    }
    index.emplace(node, out.size());
    out.push_back(std::move(path));
  }
  return out;
}

std::string pathOfName(const Node &node) {
  if (node.op() == OpKind::Placeholder || node.op() == OpKind::GetAttr)
    return modulePathOfName(node.op() == OpKind::GetAttr ? node.target() : node.name());
  return "";
}

} // namespace

std::vector<std::string> modulePaths(const Graph &graph) {
  return propagatedPaths(graph, pathOfName);
}

std::vector<std::string> modulePathsThroughProvenance(const Graph &graph, const Graph &dynamo) {
  std::unordered_map<std::string_view, std::string> byName;
  std::vector<std::string> dynamoPaths = modulePaths(dynamo);
  size_t i = 0;
  for (const Node *n : dynamo)
    byName.emplace(n->name(), std::move(dynamoPaths[i++]));
  return propagatedPaths(graph, [&](const Node &node) {
    if (const NodeProvenance *p = node.provenance())
      for (const std::string &pre : p->preGrad)
        if (auto it = byName.find(pre); it != byName.end() && !it->second.empty())
          return it->second;
    return pathOfName(node);
  });
}

std::vector<std::string> modulePathsFor(const Graph &graph, const Graph *dynamo) {
  return dynamo ? modulePathsThroughProvenance(graph, *dynamo) : modulePaths(graph);
}

} // namespace fxkit
