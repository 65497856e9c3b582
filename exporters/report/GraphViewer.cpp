#include "exporters/report/GraphViewer.h"

#include "exporters/report/JsonText.h"
#include "exporters/report/ViewerAssets.h"
#include "ir/ListText.h"
#include "ir/StorageSpan.h"

#include <map>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

namespace fxkit {
namespace {

/// Bytes of a tensor with constant sizes (contiguous: the value's own elements), -1 otherwise.
int64_t tensorBytes(const TensorType &t) {
  std::vector<int64_t> sizes;
  for (const SymExpr &s : t.sizes) {
    if (!s.isConstant())
      return -1;
    sizes.push_back(s.constant());
  }
  std::vector<int64_t> strides(sizes.size(), 0);
  for (size_t d = sizes.size(), stride = 1; d-- > 0;) {
    strides[d] = static_cast<int64_t>(stride);
    stride *= sizes[d] > 0 ? static_cast<size_t>(sizes[d]) : 1;
  }
  auto span = storageSpan(sizes, strides, static_cast<size_t>(dtypeItemSize(t.dtype)));
  return span ? span->elements * dtypeItemSize(t.dtype) : -1;
}

void describeValue(const NodeValue &v, std::string &type, int64_t &bytes) {
  if (const TensorType *t = v.tensor()) {
    type = t->str();
    bytes = tensorBytes(*t);
  } else if (const auto *ts = v.tensors()) {
    type = "(";
    bytes = 0;
    for (size_t i = 0; i < ts->size(); ++i) {
      if (i == 4) {
        type += ", ...";
        break;
      }
      type += (i ? ", " : "") + ((*ts)[i] ? (*ts)[i]->str() : std::string("None"));
    }
    type += ")";
    for (const auto &t : *ts) {
      int64_t b = t ? tensorBytes(*t) : 0;
      bytes = b < 0 || bytes < 0 ? -1 : bytes + b;
    }
  } else if (v.sym()) {
    type = "SymInt";
    bytes = 0;
  }
}

/// Strings as indices into a table of the distinct ones ("" is -1).
struct StringTable {
  std::vector<std::string_view> strings;
  std::unordered_map<std::string_view, int32_t> index;
  int32_t of(std::string_view s) {
    if (s.empty())
      return -1;
    auto [it, fresh] = index.try_emplace(s, static_cast<int32_t>(strings.size()));
    if (fresh)
      strings.push_back(s);
    return it->second;
  }
};

/// A JSON array of numbers or strings.
template <typename T> void putArray(std::string &out, const std::vector<T> &values) {
  appendList(out, values, ",", [](std::string &out, const T &v) {
    if constexpr (std::is_convertible_v<T, std::string_view>)
      appendJsonString(out, v);
    else
      out += std::to_string(v);
  });
}

/// Appends `"name":` after `before` ('{' for an object's first member, else ',').
void putKey(std::string &out, char before, std::string_view name) {
  out += before;
  out += '"';
  out += name;
  out += "\":";
}

/// Appends the member `"name":[values]` after `before` (putKey).
template <typename T>
void putMember(std::string &out, char before, std::string_view name, const std::vector<T> &values) {
  putKey(out, before, name);
  putArray(out, values);
}

/// The node columns written as indices into a table of their distinct strings, in the order of
/// the data's "tables" and "nodes"; `type` last, with the bytes of each distinct type.
struct StringColumn {
  std::string_view name;
  std::vector<std::string> ViewerGraph::*values;
};
constexpr StringColumn kStringColumns[] = {{"op", &ViewerGraph::op},
                                           {"module", &ViewerGraph::module},
                                           {"kernel", &ViewerGraph::kernel},
                                           {"inductor", &ViewerGraph::inductor},
                                           {"type", &ViewerGraph::type}};

/// The collapsed views (putGroups), in the order of the data's "groups": the column of group
/// keys, whether a node without one joins its first user's group, and the others' group.
struct Grouping {
  std::string_view name;
  std::vector<std::string> ViewerGraph::*keys;
  bool attachToUser;
  std::string_view fallback;
};
constexpr Grouping kGroupings[] = {{"module", &ViewerGraph::module, false, "(top level)"},
                                   {"kernel", &ViewerGraph::kernel, true, "(no kernel)"},
                                   {"inductor", &ViewerGraph::inductor, true, "(no kernel)"}};

/// A collapsed view: nodes with the same key are one group; a node without a key takes its
/// first user's group when `attachToUser` (views and inputs folded into the kernel reading
/// them), else a group of its kind ("(inputs)", "(output)", `fallback`).
void putGroups(std::string &out, const ViewerGraph &g, const std::vector<std::string> &keys,
               bool attachToUser, std::string_view fallback) {
  const size_t n = g.size();
  std::vector<std::string_view> key(keys.begin(), keys.end());
  if (attachToUser) {
    std::vector<int64_t> firstUser(n, -1);
    for (uint32_t i = 0; i < n; ++i)
      for (uint32_t e = g.edges.inStart[i]; e < g.edges.inStart[i + 1]; ++e)
        if (firstUser[g.edges.inputs[e]] < 0)
          firstUser[g.edges.inputs[e]] = i;
    for (size_t i = n; i-- > 0;)
      if (key[i].empty() && firstUser[i] >= 0)
        key[i] = key[firstUser[i]];
  }
  for (size_t i = 0; i < n; ++i)
    if (key[i].empty())
      key[i] = g.kind[i] == OpKind::Placeholder || g.kind[i] == OpKind::GetAttr ? "(inputs)"
               : g.kind[i] == OpKind::Output                                    ? "(output)"
                                                                                : fallback;
  StringTable groups;
  std::vector<int32_t> of(n);
  for (size_t i = 0; i < n; ++i)
    of[i] = groups.of(key[i]);
  // Edges between groups, once each, by their head: the group graph's inputs.
  const size_t m = groups.strings.size();
  std::vector<std::vector<uint32_t>> inputsOf(m);
  std::unordered_set<uint64_t> seen;
  std::vector<int32_t> flat;
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t e = g.edges.inStart[i]; e < g.edges.inStart[i + 1]; ++e) {
      const uint32_t from = of[g.edges.inputs[e]], to = of[i];
      if (from != to && seen.insert(uint64_t(from) << 32 | to).second) {
        inputsOf[to].push_back(from);
        flat.push_back(static_cast<int32_t>(from));
        flat.push_back(static_cast<int32_t>(to));
      }
    }
  LayoutGraph lg;
  for (const auto &ins : inputsOf) {
    lg.inputs.insert(lg.inputs.end(), ins.begin(), ins.end());
    lg.inStart.push_back(static_cast<uint32_t>(lg.inputs.size()));
  }
  const LayeredLayout layout = layeredLayout(lg);
  putMember(out, '{', "key", groups.strings);
  putMember(out, ',', "of", of);
  putMember(out, ',', "x", layout.x);
  putMember(out, ',', "y", layout.y);
  putMember(out, ',', "edges", flat);
  out += '}';
}

bool anyNonEmpty(const std::vector<std::string> &v) {
  for (const std::string &s : v)
    if (!s.empty())
      return true;
  return false;
}

} // namespace

ViewerGraph viewerGraphOf(const Graph &graph, const std::vector<std::string> &modules) {
  ViewerGraph g;
  std::unordered_map<const Node *, uint32_t> index;
  index.reserve(graph.size());
  for (const Node *node : graph) {
    const uint32_t i = static_cast<uint32_t>(g.name.size());
    index.emplace(node, i);
    g.name.push_back(node->name());
    g.kind.push_back(node->op());
    std::string_view target = node->target();
    if (node->op() == OpKind::CallFunction || node->op() == OpKind::CallMethod ||
        node->op() == OpKind::CallModule) {
      if (target.starts_with("torch.ops."))
        target.remove_prefix(10);
      g.op.emplace_back(target);
    } else {
      g.op.emplace_back(opKindName(node->op()));
    }
    std::string type;
    int64_t bytes = -1;
    describeValue(node->value(), type, bytes);
    g.type.push_back(std::move(type));
    g.bytes.push_back(bytes);
    g.module.push_back(i < modules.size() ? modules[i] : std::string());
    g.kernel.emplace_back();
    const NodeProvenance *p = node->provenance();
    g.inductor.push_back(p && !p->kernels.empty() ? p->kernels.front() : std::string());
    // Distinct inputs, in order.
    const uint32_t begin = static_cast<uint32_t>(g.edges.inputs.size());
    for (const Node *input : node->inputs()) {
      auto it = index.find(input);
      if (it == index.end())
        continue;
      bool dup = false;
      for (uint32_t e = begin; e < g.edges.inputs.size() && !dup; ++e)
        dup = g.edges.inputs[e] == it->second;
      if (!dup)
        g.edges.inputs.push_back(it->second);
    }
    g.edges.inStart.push_back(static_cast<uint32_t>(g.edges.inputs.size()));
  }
  return g;
}

void addFxkitKernels(ViewerGraph &graph, const loop::LoopProgram &program,
                     const loop::FusedProgram &fused) {
  std::unordered_map<std::string_view, uint32_t> index;
  for (uint32_t i = 0; i < graph.size(); ++i)
    index.emplace(graph.name[i], i);
  // Names launched more than once get their launch number, so each launch is one group.
  std::map<std::string, int> launches;
  for (const loop::Kernel &k : fused.kernels)
    ++launches[k.name];
  for (size_t k = 0; k < fused.kernels.size(); ++k) {
    const loop::Kernel &kernel = fused.kernels[k];
    const std::string name =
        launches[kernel.name] > 1 ? kernel.name + "#" + std::to_string(k) : kernel.name;
    for (int32_t o : kernel.ops)
      for (const std::string &origin : program.ops[o].origins)
        if (auto it = index.find(origin); it != index.end() && graph.kernel[it->second].empty())
          graph.kernel[it->second] = name;
  }
}

std::string graphViewerData(const ViewerGraph &g) {
  const size_t n = g.size(), columns = std::size(kStringColumns);
  std::vector<StringTable> tables(columns);
  std::vector<std::vector<int32_t>> index(columns, std::vector<int32_t>(n));
  std::vector<int64_t> typeBytes;
  for (size_t c = 0; c < columns; ++c)
    for (size_t i = 0; i < n; ++i) {
      const size_t known = tables[c].strings.size();
      index[c][i] = tables[c].of((g.*kStringColumns[c].values)[i]);
      if (c + 1 == columns && tables[c].strings.size() > known)
        typeBytes.push_back(g.bytes[i]);
    }
  const LayeredLayout layout = layeredLayout(g.edges);
  std::vector<uint32_t> inDegree(n), delta;
  delta.reserve(g.edges.inputs.size());
  for (uint32_t i = 0; i < n; ++i) {
    inDegree[i] = g.edges.inStart[i + 1] - g.edges.inStart[i];
    for (uint32_t e = g.edges.inStart[i]; e < g.edges.inStart[i + 1]; ++e)
      delta.push_back(i - g.edges.inputs[e]);
  }
  std::string out;
  out.reserve(n * 48 + 4096);
  out += "{\"version\":1,\"tables\":";
  for (size_t c = 0; c < columns; ++c)
    putMember(out, c ? ',' : '{', kStringColumns[c].name, tables[c].strings);
  putMember(out, ',', "typeBytes", typeBytes);
  out += "},\"nodes\":";
  putMember(out, '{', "name", g.name);
  for (size_t c = 0; c < columns; ++c)
    putMember(out, ',', kStringColumns[c].name, index[c]);
  putMember(out, ',', "x", layout.x);
  putMember(out, ',', "y", layout.y);
  out += "},\"edges\":";
  putMember(out, '{', "inDegree", inDegree);
  putMember(out, ',', "delta", delta);
  out += "},\"groups\":";
  for (const Grouping &grouping : kGroupings) {
    const std::vector<std::string> &keys = g.*grouping.keys;
    putKey(out, &grouping == kGroupings ? '{' : ',', grouping.name);
    if (anyNonEmpty(keys))
      putGroups(out, g, keys, grouping.attachToUser, grouping.fallback);
    else
      out += "null";
  }
  out += "}}";
  return out;
}

std::string graphViewerHtml(const ViewerGraph &graph) {
  std::string h = "<style>";
  h += report::kViewerCss;
  h += "</style>\n<div id=\"fxkit-viewer\" class=\"fxv\"></div>\n"
       "<div id=\"fxkit-viewer-status\" data-state=\"loading\" data-errors=\"0\">"
       "<ul id=\"fxkit-viewer-errors\"></ul></div>\n"
       "<script type=\"application/json\" id=\"fxkit-viewer-data\">";
  h += graphViewerData(graph); // JSON with '<' escaped: no "</script>" inside
  h += "</script>\n<script>";
  h += report::kViewerJs;
  h += "</script>\n";
  return h;
}

std::string graphViewerLibraries() {
  // The bundle's licence header names each library with its version: "sigma 3.0.3 (MIT):".
  std::string out;
  for (std::string_view lib : {"sigma", "graphology"}) {
    std::string_view js = report::kViewerJs;
    size_t at = js.find("\n" + std::string(lib) + " ");
    if (at == std::string_view::npos)
      continue;
    size_t end = js.find(" (", at + 1);
    out += (out.empty() ? "" : ", ") + std::string(js.substr(at + 1, end - at - 1));
  }
  return out;
}

} // namespace fxkit
