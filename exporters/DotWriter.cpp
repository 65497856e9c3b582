#include "exporters/DotWriter.h"

#include "exporters/DotStyle.h"
#include "exporters/ModulePath.h"
#include "exporters/ProvenanceText.h"
#include "ir/Node.h"
#include "ir/wrapper/WrapperDialect.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace fxkit {
namespace {

/// The type of a value; of several values (a tuple, the output's), the first
/// RenderOptions::typesShown and the count of the rest.
std::string typeText(const NodeValue &v, const RenderOptions &options) {
  if (const TensorType *t = v.tensor())
    return t->str();
  std::vector<std::string> items;
  if (const auto *ts = v.tensors()) {
    for (size_t i = 0; i < ts->size() && i <= options.typesShown; ++i)
      items.push_back((*ts)[i] ? (*ts)[i]->str() : "None");
    items.resize(ts->size());
    return "(" + elidedList(items, options.typesShown) + ")";
  }
  if (const SymExpr *s = v.sym())
    return "Sym(" + s->str() + ")";
  if (const auto *values = v.items()) {
    for (size_t i = 0; i < values->size() && i <= options.typesShown; ++i)
      items.push_back((*values)[i].empty() ? "None" : typeText((*values)[i], options));
    items.resize(values->size());
    return "(" + elidedList(items, options.typesShown) + ")";
  }
  return "";
}

/// The types of an output node's values, one per value (none when untyped).
std::vector<std::string> valueTypes(const NodeValue &v, const RenderOptions &options) {
  std::vector<std::string> out;
  if (const auto *ts = v.tensors())
    for (const auto &t : *ts)
      out.push_back(t ? t->str() : "None");
  else if (const auto *values = v.items())
    for (const NodeValue &item : *values)
      out.push_back(item.empty() ? "None" : typeText(item, options));
  else if (!v.empty())
    out.push_back(typeText(v, options));
  return out;
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
  wrapper::WrapperOp op = wrapper::wrapperOpOf(node);
  bool call = op == wrapper::WrapperOp::Kernel || op == wrapper::WrapperOp::Extern;
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

/// The kernel computing each node of an ATen graph, from Inductor's provenance (its first
/// kernel's debug handle): nodes without one (views Inductor folded into their readers) join
/// their first input's kernel, else their first user's; inputs are "(inputs)", the output
/// "(output)". Empty when no node has a kernel.
std::vector<std::string> provenanceKernels(const Graph &graph) {
  std::vector<std::string> out;
  out.reserve(graph.size());
  std::unordered_map<const Node *, size_t> index;
  bool any = false;
  for (const Node *n : graph) {
    std::string group;
    if (n->op() == OpKind::Placeholder || n->op() == OpKind::GetAttr) {
      group = "(inputs)";
    } else if (n->op() == OpKind::Output) {
      group = "(output)";
    } else if (const NodeProvenance *p = n->provenance(); p && !p->kernels.empty()) {
      group = p->kernels.front();
      any = true;
    } else {
      for (const Node *in : n->inputs())
        if (auto it = index.find(in); it != index.end() && !out[it->second].starts_with("(")) {
          group = out[it->second];
          break;
        }
      if (group.empty())
        group = "(no kernel)";
    }
    index.emplace(n, out.size());
    out.push_back(std::move(group));
  }
  if (!any)
    out.clear();
  // Views of inputs (a weight's permute) join the kernel reading them.
  std::vector<const Node *> nodes(graph.begin(), graph.end());
  for (size_t i = nodes.size(); !out.empty() && i-- > 0;)
    if (out[i] == "(no kernel)")
      for (const Node *user : nodes[i]->users())
        if (const std::string &g = out[index.at(user)]; !g.starts_with("(")) {
          out[i] = g;
          break;
        }
  return out;
}

/// One box per group (a module path, or a kernel: `groups`, one per node in graph order);
/// edges between groups carry the bytes crossing them.
std::string writeGroupDot(const Graph &graph, const std::vector<std::string> &groupOfNode,
                          const RenderOptions &options, bool kernels = false) {
  std::unordered_map<const Node *, size_t> index;
  struct Group {
    size_t nodes = 0;
    std::map<std::string, size_t> ops;
  };
  std::map<std::string, Group> groups;
  std::vector<std::string> order; // groups in order of first appearance
  size_t i = 0;
  const std::vector<std::string> &groupName = groupOfNode;
  for (const Node *n : graph) {
    index.emplace(n, i);
    auto [it, added] = groups.try_emplace(groupName[i]);
    if (added)
      order.push_back(groupName[i]);
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
  std::map<std::string, size_t> colours;
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
    std::string attrs;
    if (kernels && !name.starts_with("(")) {
      // Inductor's debug handles: `kernel:N`; extern calls name a library or ATen function.
      std::string kernel = name.substr(0, name.rfind(':'));
      bool external = kernel.starts_with("extern_kernels.") || kernel.starts_with("torch.ops.");
      attrs =
          external
              ? std::string(", shape=hexagon, style=filled, fillcolor=\"") + kExternColour + "\""
              : std::string(", style=filled, fillcolor=\"") +
                    kernelColour(colours.emplace(kernel, colours.size()).first->second) + "\"";
    }
    out += "  " + quoted(name) + " [label=" + quoted(label) + attrs + "];\n";
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

/// Where a wrapper graph's launches (fxkit.kernel, fxkit.extern) get their data. A launch names
/// the buffers it reads and writes as arguments, so the buffer's node (its allocation) is all an
/// argument edge shows: which earlier launch wrote what a later one reads is lost, and so is the
/// program's order. Kernel arguments say which they write (Triton's and fxkit's `out_ptrN`,
/// `in_out_ptrN`); an extern writes its `out` list, or returns its result as its own node.
/// Views and reused buffers (torch.as_strided) are read through to the storage they are in.
struct WrapperFlow {
  /// Per node reading buffers (a launch, the output): the launches that last wrote them (or the
  /// input placeholder read, where nothing wrote it), distinct, in argument order.
  std::unordered_map<const Node *, std::vector<const Node *>> writers;
  /// Per output position: the launch (or input) whose value it returns.
  std::vector<const Node *> returned;
};

bool isLaunch(const Node &n) {
  wrapper::WrapperOp op = wrapper::wrapperOpOf(n);
  return op == wrapper::WrapperOp::Kernel || op == wrapper::WrapperOp::Extern;
}

/// The storage a value lives in: views and buffers placed in another's storage (reuse=, which
/// in-place kernels read) read through to their base.
const Node *storageOf(const Node *n) {
  auto aliases = [](const Node &v) {
    wrapper::WrapperOp op = wrapper::wrapperOpOf(v);
    return op == wrapper::WrapperOp::View || op == wrapper::WrapperOp::Reuse;
  };
  for (size_t guard = 0; guard < 64 && aliases(*n); ++guard) {
    const Argument &args = n->args();
    if (args.items().empty() || !args.items().front().isNode())
      break;
    n = args.items().front().asNode();
  }
  return n;
}

WrapperFlow wrapperFlow(const Graph &graph) {
  WrapperFlow flow;
  std::unordered_map<const Node *, const Node *> lastWriter;
  // What a read of `buffer` depends on: its last writer; an input; a launch's own result (an
  // extern returning it, or getitem of one).
  auto source = [&](const Node *buffer) -> const Node * {
    const Node *b = storageOf(buffer);
    if (auto it = lastWriter.find(b); it != lastWriter.end())
      return it->second;
    if (b->op() == OpKind::Placeholder || isLaunch(*b))
      return b;
    for (const Node *in : b->inputs())
      if (isLaunch(*in))
        return in;
    return nullptr;
  };
  auto addReader = [&](const Node *reader, const Node *buffer) {
    const Node *from = source(buffer);
    std::vector<const Node *> &list = flow.writers[reader];
    if (from && from != reader && std::find(list.begin(), list.end(), from) == list.end())
      list.push_back(from);
  };
  for (const Node *n : graph) {
    if (n->op() == OpKind::Output) {
      n->args().forEachNode([&](Node *value) {
        addReader(n, value);
        flow.returned.push_back(source(value));
      });
      continue;
    }
    std::vector<const Node *> written;
    if (auto k = wrapper::asKernelCall(*n); k && k->args) {
      for (size_t i = 0; i < k->args->dictSize(); ++i) {
        const Argument &a = k->args->dictValue(i);
        if (!a.isNode())
          continue;
        std::string_view key = k->args->dictKey(i);
        bool writes = key.starts_with("out_ptr") || key.starts_with("in_out_ptr");
        if (!key.starts_with("out_ptr"))
          addReader(n, a.asNode());
        if (writes)
          written.push_back(storageOf(a.asNode()));
      }
    } else if (auto e = wrapper::asExternCall(*n)) {
      if (e->inputs)
        e->inputs->forEachNode([&](Node *in) { addReader(n, in); });
      if (e->out)
        e->out->forEachNode([&](Node *out) { written.push_back(storageOf(out)); });
    }
    for (const Node *b : written)
      lastWriter[b] = n;
  }
  return flow;
}

/// Returned values: one edge each into the output node for a few producers; beyond
/// RenderOptions::outputEdgesUpTo, a mark on each producer (DotStyle.h drawsOutputEdges).
struct OutputPlan {
  bool edges = true;
  size_t values = 0;
  std::unordered_map<const Node *, std::vector<size_t>> positions;
};

OutputPlan outputPlan(const std::vector<const Node *> &returned, const RenderOptions &options) {
  OutputPlan plan;
  plan.values = returned.size();
  for (size_t i = 0; i < returned.size(); ++i)
    if (returned[i])
      plan.positions[returned[i]].push_back(i);
  plan.edges = drawsOutputEdges(plan.positions.size(), options);
  return plan;
}

std::vector<const Node *> returnedNodes(const Graph &graph) {
  std::vector<const Node *> out;
  if (const Node *o = graph.outputNode())
    o->args().forEachNode([&](Node *n) { out.push_back(n); });
  return out;
}

/// A launch drawn as one box (its kernel's colour; externs are hexagons): its name, kernel or
/// op, the first of the ATen ops it computes, and `mark` (the output positions it returns).
std::string launchStatement(const Node &node, std::map<std::string, size_t> &colours,
                            const std::string &mark, const RenderOptions &options) {
  std::string label = dotEscape(node.name()), attrs;
  if (wrapper::wrapperOpOf(node) == wrapper::WrapperOp::Kernel) {
    std::string name = kernelName(node);
    if (name != node.name()) // Inductor's launches are named after their kernel
      label += "\\n" + dotEscape(name);
    attrs = std::string(", style=filled, fillcolor=\"") +
            kernelColour(colours.emplace(name, colours.size()).first->second) + "\"";
  } else {
    if (const Argument *a = node.kwargs().find("op"); a && a->kind() == Argument::Kind::String)
      label += "\\n" + dotEscape(a->asString());
    attrs = std::string(", shape=hexagon, style=filled, fillcolor=\"") + kExternColour + "\"";
  }
  if (std::vector<std::string> ops = origins(node); !ops.empty())
    label += "\\n" + dotEscape(elidedList(ops, 4));
  if (!mark.empty())
    label += "\\n" + dotEscape(mark), attrs += kReturnedAttrs;
  return quoted(node.name()) + " [label=\"" + label + "\"" + attrs + "];\n";
}

/// A wrapper graph, one box per launch: the inputs its launches read, the launches, the output;
/// edges from the launch that last wrote a buffer (or the input) to each launch reading it.
std::string writeLaunchDot(const Graph &graph, const RenderOptions &options) {
  const WrapperFlow flow = wrapperFlow(graph);
  const OutputPlan plan = outputPlan(flow.returned, options);
  std::unordered_map<const Node *, size_t> readers; // inputs: launches reading them
  for (const auto &[reader, from] : flow.writers)
    for (const Node *f : from)
      if (f->op() == OpKind::Placeholder)
        ++readers[f];
  for (const auto &[n, positions] : plan.positions)
    if (n->op() == OpKind::Placeholder)
      readers.try_emplace(n, 0);
  size_t drawn = 1;
  for (const Node *n : graph)
    drawn += isLaunch(*n) || readers.count(n);
  const bool large = isLargeGraph(drawn, options);
  std::string out = dotHeader(drawn, options);
  std::map<std::string, size_t> colours;
  auto markOf = [&](const Node *n) {
    auto it = plan.positions.find(n);
    return plan.edges || it == plan.positions.end() ? std::string() : outputMark(it->second);
  };
  for (const Node *n : graph) {
    if (n->op() == OpKind::Placeholder) {
      if (!readers.count(n))
        continue;
      std::string label = dotEscape(n->name()), attrs = ", shape=ellipse";
      if (std::string t = typeText(n->value(), options); !t.empty())
        label += "\\n" + dotEscape(t);
      if (std::string m = markOf(n); !m.empty())
        label += "\\n" + dotEscape(m), attrs += kReturnedAttrs;
      out += "  " + quoted(n->name()) + " [label=\"" + label + "\"" + attrs + "];\n";
    } else if (isLaunch(*n)) {
      out += "  " + launchStatement(*n, colours, markOf(n), options);
    } else if (n->op() == OpKind::Output) {
      std::string text = plan.edges ? "output" : markedOutputLabel(plan.values, {}, options);
      out += "  " + quoted(n->name()) + " [label=" + quoted(text) + ", shape=ellipse];\n";
    }
  }
  for (const Node *n : graph) {
    auto it = flow.writers.find(n);
    if (it == flow.writers.end() || (n->op() == OpKind::Output && !plan.edges))
      continue;
    for (const Node *from : it->second) {
      std::string fromName = from->name();
      if (from->op() == OpKind::Placeholder && readers[from] > options.proxyInputsAbove) {
        fromName += "@" + n->name();
        out += "  " + quoted(fromName) + " [label=" + quoted(from->name()) +
               ", shape=ellipse, style=dashed, fontsize=8];\n";
      }
      out += "  " + quoted(fromName) + " -> " + quoted(n->name());
      if (std::string attrs = dotEdgeLabel(edgeBytes(*from), large); !attrs.empty())
        out += " [" + attrs + "]";
      out += ";\n";
    }
  }
  out += "}\n";
  return out;
}

/// The module of each node (exporters/ModulePath.h), inputs and output in groups of their own.
std::vector<std::string> moduleGroups(const Graph &graph, const RenderOptions &options) {
  std::vector<std::string> paths = modulePathsFor(graph, options.moduleSource);
  size_t i = 0;
  for (const Node *n : graph) {
    std::string &path = paths[i++];
    if (n->op() == OpKind::Placeholder && path.empty())
      path = "(inputs)";
    else if (n->op() == OpKind::Output)
      path = "(output)";
    else if (path.empty())
      path = "(top level)";
  }
  return paths;
}

} // namespace

bool hasProvenanceKernels(const Graph &graph) {
  for (const Node *n : graph)
    if (const NodeProvenance *p = n->provenance(); p && !p->kernels.empty() && !isLaunch(*n))
      return true;
  return false;
}

std::string writeDot(const Graph &graph, const RenderOptions &options) {
  if (options.collapse == CollapseMode::Module)
    return writeGroupDot(graph, moduleGroups(graph, options), options);
  bool wrapperGraph = false;
  for (const Node *node : graph)
    wrapperGraph = wrapperGraph || isLaunch(*node);
  if (options.collapse == CollapseMode::Kernel && wrapperGraph)
    return writeLaunchDot(graph, options);
  if (options.collapse == CollapseMode::Kernel)
    if (std::vector<std::string> kernels = provenanceKernels(graph); !kernels.empty())
      return writeGroupDot(graph, kernels, options, true);
  const bool clusters = options.collapse != CollapseMode::Kernel;
  size_t drawn = graph.size();
  if (clusters)
    for (const Node *node : graph)
      if (wrapper::wrapperOpOf(*node) == wrapper::WrapperOp::Kernel)
        drawn += std::min(origins(*node).size(), options.originBoxes);
  const bool large = isLargeGraph(drawn, options);
  // A wrapper graph's data between launches (WrapperFlow); the values the output returns.
  const WrapperFlow flow = wrapperGraph ? wrapperFlow(graph) : WrapperFlow{};
  const OutputPlan plan = outputPlan(returnedNodes(graph), options);
  std::string out = dotHeader(drawn, options);
  std::map<std::string, size_t> kernelColourIndex;
  for (const Node *node : graph) {
    std::string label = dotEscape(node->name()) + "\\n" + std::string(opKindName(node->op()));
    if (!node->target().empty() && node->op() != OpKind::Output)
      label += " " + dotEscape(node->target());
    std::string attrs;
    std::string cluster;
    const wrapper::WrapperOp op = wrapper::wrapperOpOf(*node);
    if (op == wrapper::WrapperOp::Kernel) {
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
        // At most originBoxes boxes: the rest in the last one (a row of 20 fused ops made
        // wrapper pictures strips).
        std::string more;
        if (ops.size() > options.originBoxes && options.originBoxes > 0) {
          std::string rest = elidedList({ops.begin() + options.originBoxes - 1, ops.end()}, 40);
          std::string text = "+" + std::to_string(ops.size() - options.originBoxes + 1) + " more";
          ops.resize(options.originBoxes - 1);
          more = "    " + quoted(node->name() + "/" + text) + " [label=" + quoted(text) +
                 ", tooltip=" + quoted(rest) +
                 ", shape=box, style=\"filled,dashed\", fillcolor=white, fontsize=8];\n    " +
                 quoted(node->name()) + " -> " + quoted(node->name() + "/" + text) +
                 " [style=invis];\n";
        }
        for (const std::string &o : ops)
          cluster += "    " + quoted(node->name() + "/" + o) + " [label=" + quoted(o) +
                     ", shape=box, style=\"filled,dashed\", fillcolor=white, fontsize=8];\n";
        for (const std::string &o : ops)
          cluster += "    " + quoted(node->name()) + " -> " + quoted(node->name() + "/" + o) +
                     " [style=invis];\n";
        cluster += more;
        attrs = ", style=filled, fillcolor=white, penwidth=2";
      }
    } else if (op == wrapper::WrapperOp::Extern) {
      if (const Argument *a = node->kwargs().find("op"); a && a->kind() == Argument::Kind::String)
        label += "\\n" + dotEscape(a->asString());
      attrs = std::string(", shape=hexagon, style=filled, fillcolor=\"") + kExternColour + "\"";
    } else if (node->op() == OpKind::Placeholder || node->op() == OpKind::Output) {
      attrs = ", shape=ellipse";
    }
    if (node->op() == OpKind::Output && !plan.edges) {
      std::vector<std::string> types = valueTypes(node->value(), options);
      if (types.empty()) // an output without a type of its own: its values' types
        for (const Node *value : returnedNodes(graph))
          types.push_back(typeText(value->value(), options));
      label = dotEscape(markedOutputLabel(plan.values, types, options));
    } else if (std::string t = typeText(node->value(), options); !t.empty()) {
      label += "\\n" + dotEscape(t);
    }
    if (auto it = plan.positions.find(node); !plan.edges && it != plan.positions.end()) {
      label += "\\n" + dotEscape(outputMark(it->second));
      attrs += kReturnedAttrs;
    }
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
    if (node->op() == OpKind::Output && !plan.edges)
      continue; // the returned nodes carry marks instead
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
    // A wrapper graph: the launches whose writes this node reads, in program order (bold).
    if (auto it = flow.writers.find(node); it != flow.writers.end())
      for (const Node *from : it->second)
        if (isLaunch(*from) && std::find(seen.begin(), seen.end(), from) == seen.end())
          out += "  " + quoted(from->name()) + " -> " + quoted(node->name()) +
                 " [penwidth=2, color=\"#555555\", tooltip=\"data written by " +
                 dotEscape(from->name()) + "\"];\n";
  }
  out += "}\n";
  return out;
}

} // namespace fxkit
