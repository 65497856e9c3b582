#include "transforms/Decompose.h"

#include "ir/OutputValues.h"
#include "ir/ops/Decomposer.h"
#include "ir/ops/InferSupport.h"
#include "transforms/ShapeInference.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace fxkit {

namespace {

/// torch.export's wrapper of a region under torch.no_grad()/enable_grad(): a call of its body
/// submodule, which run_decompositions() inlines (grad mode changes no value).
constexpr std::string_view kSetGradEnabled = "torch.ops.higher_order.wrap_with_set_grad_enabled";

std::string nodeText(const Node &n) {
  return "node '" + n.name() + "' (" + std::string(n.target()) + ")";
}

bool isCompositeCall(const Node &n) {
  if (n.op() != OpKind::CallFunction)
    return false;
  const OpInfo *op = OpRegistry::instance().lookup(n.target());
  return op && op->category == OpCategory::Composite;
}

bool isInlinedWrapper(const Node &n) {
  return n.op() == OpKind::CallFunction && n.target() == kSetGradEnabled;
}

/// Replaces the wrapper call `hop` by the nodes of its body.
Status inlineWrapper(Graph &graph, Node *hop) {
  const std::vector<Argument> &args = hop->args().items();
  if (args.size() < 2 || !args[1].isNode() || args[1].asNode()->op() != OpKind::GetAttr)
    return Error(nodeText(*hop) +
                 ": expected (enabled, body, *operands), the body a get_attr node");
  Node *attr = args[1].asNode();
  const Graph *body = graph.submodule(attr->target());
  if (!body)
    return Error(nodeText(*hop) + ": its body, submodule '" + std::string(attr->target()) +
                 "', is not in the graph (FX text does not carry submodules: import the "
                 "print_readable() code or the .pt2 archive)");
  std::unordered_map<const Node *, Node *> map;
  auto remap = [&map](Node *n) {
    auto it = map.find(n);
    return it == map.end() ? n : it->second;
  };
  size_t nextOperand = 2;
  std::vector<Argument> outputs;
  bool tupleOutput = false;
  for (Node *b : *body) {
    switch (b->op()) {
    case OpKind::Placeholder:
      if (nextOperand >= args.size() || !args[nextOperand].isNode())
        return Error(nodeText(*hop) + ": its body's input '" + b->name() +
                     "' has no tensor or symbolic operand");
      map.emplace(b, args[nextOperand++].asNode());
      break;
    case OpKind::CallFunction: {
      Argument a = b->args(), k = b->kwargs();
      a.mapNodes(remap);
      k.mapNodes(remap);
      Node *copy = graph.create(OpKind::CallFunction, graph.uniqueName(b->name()), b->target(),
                                std::move(a), std::move(k), hop);
      copy->value() = b->value();
      copy->setPythonType(b->pythonType());
      map.emplace(b, copy);
      break;
    }
    case OpKind::Output:
      outputs = returnedValues(*b);
      tupleOutput = !b->args().items().empty() && b->args().items()[0].isContainer();
      for (Argument &o : outputs)
        o.mapNodes(remap);
      break;
    case OpKind::CallMethod:
    case OpKind::CallModule:
    case OpKind::GetAttr:
      return Error(nodeText(*hop) + ": its body has a " + std::string(opKindName(b->op())) +
                   " node ('" + b->name() + "'), which inlining does not take");
    }
  }
  if (!tupleOutput) {
    if (outputs.size() != 1 || !outputs[0].isNode())
      return Error(nodeText(*hop) + ": its body returns no node");
    graph.replaceAllUsesWith(hop, outputs[0].asNode());
  } else {
    std::vector<Node *> users = hop->users();
    for (Node *u : users) {
      const std::vector<Argument> &ua = u->args().items();
      bool getitem = u->op() == OpKind::CallFunction && u->target() == "operator.getitem" &&
                     ua.size() == 2 && ua[1].kind() == Argument::Kind::Int && ua[1].asInt() >= 0 &&
                     static_cast<size_t>(ua[1].asInt()) < outputs.size() &&
                     outputs[ua[1].asInt()].isNode();
      if (!getitem)
        return Error(nodeText(*hop) + ": '" + u->name() +
                     "' uses its results other than by taking one of its returned nodes");
      graph.replaceAllUsesWith(u, outputs[ua[1].asInt()].asNode());
      graph.erase(u);
    }
  }
  graph.erase(hop);
  if (attr->users().empty())
    graph.erase(attr);
  return Status::ok();
}

/// The tensor whose storage the view `n` shares (its first input), or null when `n` is no view:
/// View-category ops and getitem of their list results (split).
Node *viewBase(const Node &n) {
  if (n.op() != OpKind::CallFunction)
    return nullptr;
  const std::vector<Argument> &args = n.args().items();
  if (args.empty() || !args[0].isNode())
    return nullptr;
  Node *in = args[0].asNode();
  if (n.target() == "operator.getitem")
    return viewBase(*in) ? in : nullptr;
  const OpInfo *op = OpRegistry::instance().lookup(n.target());
  return op && op->category == OpCategory::View ? in : nullptr;
}

/// Whether `n` takes one piece of a list of views (getitem of split, split_with_sizes).
bool isSplitPiece(const Node &n) {
  if (n.op() != OpKind::CallFunction || n.target() != "operator.getitem")
    return false;
  const std::vector<Argument> &args = n.args().items();
  return args.size() == 2 && args[0].isNode() && args[1].kind() == Argument::Kind::Int &&
         viewBase(*args[0].asNode()) != nullptr;
}

/// The tensor `view` shows part of, one level up: a split piece's is the split's input.
Node *viewParent(const Node &view) {
  Node *base = viewBase(view);
  if (base && isSplitPiece(view))
    return viewBase(*base);
  return base;
}

/// Builds the functional form of the write of `src` into `view`, a view of `parent`: the new
/// value of `parent` (slice_scatter, select_scatter, or the inverse of a reshape or permute),
/// as functionalization regenerates a base after a write through one of its views.
Expected<Argument> scatterInto(Decomposer &d, Node *parent, const Node &view, const Argument &src) {
  const Argument base = Argument::node(parent);
  const std::vector<Argument> &args = view.args().items();
  if (isSplitPiece(view)) {
    const Node &split = *args[0].asNode();
    const OpInfo *op = OpRegistry::instance().lookup(split.target());
    auto bound = bindArgs(split, *op);
    if (!bound)
      return bound.takeError();
    FXKIT_ASSIGN_OR_RETURN(auto dim0, bound->integer("dim"));
    const TensorType *in = parent->value().tensor();
    const auto *pieces = split.value().tensors();
    if (!in || !pieces)
      return d.error("internal: a split without types");
    auto dim = normalizeDim(dim0, in->sizes.size());
    if (!dim)
      return d.error(dim.error().message);
    int64_t index = args[1].asInt();
    SymExpr start(0);
    for (int64_t k = 0; k < index; ++k)
      start = symAdd(start, (*pieces)[k]->sizes[*dim]);
    SymExpr end = symAdd(start, (*pieces)[index]->sizes[*dim]);
    if (!start.isConstant() || !end.isConstant())
      return d.error("an in-place write into a piece of a split of symbolic size is not supported");
    return d.call("aten.slice_scatter.default",
                  {base, src, Argument::integer(*dim), Argument::integer(start.constant()),
                   Argument::integer(end.constant())});
  }
  const OpInfo *op = OpRegistry::instance().lookup(view.target());
  auto bound = bindArgs(view, *op);
  if (!bound)
    return bound.takeError();
  std::string_view t = view.target();
  const TensorType *p = parent->value().tensor();
  if (!p)
    return d.error("internal: a view without a type");
  if (t == "torch.ops.aten.slice.Tensor")
    return d.call("aten.slice_scatter.default", {base, src, bound->get("dim"), bound->get("start"),
                                                 bound->get("end"), bound->get("step")});
  if (t == "torch.ops.aten.select.int")
    return d.call("aten.select_scatter.default",
                  {base, src, bound->get("dim"), bound->get("index")});
  if (t == "torch.ops.aten.alias.default" || t == "torch.ops.aten.detach.default")
    return src;
  if (t == "torch.ops.aten.view.default" || t == "torch.ops.aten._unsafe_view.default" ||
      t == "torch.ops.aten.reshape.default" || t == "torch.ops.aten.unsqueeze.default" ||
      t.starts_with("torch.ops.aten.squeeze.")) {
    FXKIT_ASSIGN_OR_RETURN(auto sizes, d.sizes(base));
    return d.reshape(src, std::move(sizes));
  }
  if (t == "torch.ops.aten.permute.default" || t == "torch.ops.aten.transpose.int" ||
      t == "torch.ops.aten.t.default") {
    size_t rank = p->sizes.size();
    std::vector<int64_t> perm(rank);
    for (size_t i = 0; i < rank; ++i)
      perm[i] = static_cast<int64_t>(i);
    if (t == "torch.ops.aten.permute.default") {
      FXKIT_ASSIGN_OR_RETURN(auto dims, bound->intList("dims"));
      for (size_t i = 0; dims && i < dims->size() && i < rank; ++i) {
        auto w = normalizeDim((*dims)[i], rank);
        if (!w)
          return d.error(w.error().message);
        perm[*w] = static_cast<int64_t>(i); // the inverse permutation
      }
    } else if (rank >= 2) {
      int64_t a = rank - 2, b = rank - 1;
      if (t == "torch.ops.aten.transpose.int") {
        FXKIT_ASSIGN_OR_RETURN(auto d0, bound->integer("dim0"));
        FXKIT_ASSIGN_OR_RETURN(auto d1, bound->integer("dim1"));
        auto w0 = normalizeDim(d0, rank), w1 = normalizeDim(d1, rank);
        if (!w0 || !w1)
          return d.error("transpose: dimension out of range");
        a = *w0;
        b = *w1;
      }
      std::swap(perm[a], perm[b]);
    }
    return d.call("aten.permute.default", {src, intListArg(perm)});
  }
  return d.error("an in-place write through a view made by '" + std::string(t) + "' ('" +
                 view.name() + "') is not supported");
}

/// The in-place op `n` wrote `written` into `mutated`, as functionalization rewrites it: later
/// readers of `mutated` read `written`; where `mutated` is a view of another tensor (a slice,
/// a select, a reshape, a permute, a split piece), the tensor it is a view of becomes its
/// scatter of `written`, and later readers of that tensor or of any of its other views (made
/// before the write) read the updated value, the views made again from it. Program positions
/// are in the nodes' scratch slots.
Status functionalizeWrite(Graph &graph, Node &n, Node *mutated, Node *written) {
  std::vector<Node *> chain{mutated}; // mutated, its parent, ..., the root
  while (Node *p = viewParent(*chain.back()))
    chain.push_back(p);
  Node *root = chain.back();
  // The aliases of the written storage that exist before the write.
  std::vector<Node *> aliases{root};
  std::unordered_set<const Node *> seen{root};
  for (size_t i = 0; i < aliases.size(); ++i)
    for (Node *u : aliases[i]->users())
      if (u->scratch() < n.scratch() && viewBase(*u) == aliases[i] && seen.insert(u).second)
        aliases.push_back(u);
  auto laterReaders = [&n](const Node *a) {
    std::vector<Node *> out;
    for (Node *u : a->users())
      if (u->scratch() > n.scratch())
        out.push_back(u);
    return out;
  };
  const OpInfo *op = OpRegistry::instance().lookup(n.target());
  auto bound = bindArgs(n, *op);
  if (!bound)
    return bound.takeError();
  Decomposer d(graph, n, bound.take());
  std::unordered_map<const Node *, Node *> updated{{mutated, written}};
  // The new value of alias `a`: up the chain by scatters, elsewhere its view made again.
  std::function<Expected<Node *>(Node *)> valueOf = [&](Node *a) -> Expected<Node *> {
    if (auto it = updated.find(a); it != updated.end())
      return it->second;
    Argument v;
    auto at = std::find(chain.begin(), chain.end(), a);
    if (at != chain.end()) {
      Node *child = *(at - 1);
      FXKIT_ASSIGN_OR_RETURN(auto src, valueOf(child));
      FXKIT_ASSIGN_OR_RETURN(auto s, scatterInto(d, a, *child, Argument::node(src)));
      v = s;
    } else {
      Node *parent = viewBase(*a);
      FXKIT_ASSIGN_OR_RETURN(auto p, valueOf(parent));
      Argument args = a->args();
      args.items()[0] = Argument::node(p);
      Kwargs kwargs;
      for (size_t i = 0; i < a->kwargs().dictSize(); ++i)
        kwargs.emplace_back(std::string(a->kwargs().dictKey(i)), a->kwargs().dictValue(i));
      FXKIT_ASSIGN_OR_RETURN(auto r, d.call(a->target(), args.items(), std::move(kwargs)));
      v = r;
    }
    if (!v.isNode())
      return d.error("internal: an updated alias is not a node");
    updated[a] = v.asNode();
    return v.asNode();
  };
  // What the write made takes the write's position (it sits just before it).
  for (const Node *a : aliases) {
    std::vector<Node *> readers = laterReaders(a);
    if (readers.empty())
      continue;
    auto value = valueOf(const_cast<Node *>(a));
    if (!value)
      return value.takeError();
    Node *to = *value;
    auto swap = [a, to](Node *x) { return x == a ? to : x; };
    for (Node *u : readers) {
      Argument args = u->args(), kwargs = u->kwargs();
      args.mapNodes(swap);
      kwargs.mapNodes(swap);
      u->setArgs(std::move(args));
      u->setKwargs(std::move(kwargs));
    }
  }
  return Status::ok();
}

/// Points the users of the composite node `n` at what it became and removes it.
Status replaceNode(Graph &graph, Node &n, const Decomposition &d) {
  if (d.mutated)
    if (Status s = functionalizeWrite(graph, n, d.mutated, d.written); !s)
      return s;
  switch (d.kind) {
  case Decomposition::Kind::Value:
    graph.replaceAllUsesWith(&n, d.value);
    break;
  case Decomposition::Kind::Items: {
    std::vector<Node *> users = n.users();
    for (Node *u : users) {
      const std::vector<Argument> &ua = u->args().items();
      bool getitem = u->op() == OpKind::CallFunction && u->target() == "operator.getitem" &&
                     ua.size() == 2 && ua[1].kind() == Argument::Kind::Int;
      int64_t i = getitem ? ua[1].asInt() : -1;
      if (i < 0)
        i += static_cast<int64_t>(d.items.size());
      if (!getitem || i < 0 || static_cast<size_t>(i) >= d.items.size())
        return Error(nodeText(n) + ": '" + u->name() +
                     "' uses its results other than by taking one of them");
      graph.replaceAllUsesWith(u, d.items[i]);
      graph.erase(u);
    }
    break;
  }
  case Decomposition::Kind::None:
    if (!n.users().empty())
      return Error(nodeText(n) + ": it returns nothing, but '" + n.users()[0]->name() +
                   "' uses its result");
    break;
  }
  graph.erase(&n);
  return Status::ok();
}

/// Whether some call lacks the value it should have (an untyped graph).
bool needsInference(const Graph &graph) {
  for (const Node *n : graph) {
    if (n->op() != OpKind::CallFunction || !n->value().empty())
      continue;
    const OpInfo *op = OpRegistry::instance().lookup(n->target());
    if (!op || !op->schema.returns.empty())
      return true;
  }
  return false;
}

} // namespace

bool hasCompositeOps(const Graph &graph) {
  for (const Node *n : graph)
    if (isCompositeCall(*n) || isInlinedWrapper(*n))
      return true;
  return false;
}

PassResult decomposeCompositeOps(Graph &graph) {
  bool changed = false;
  // The wrappers first: their bodies are what gets typed and decomposed.
  for (Node *n = graph.front(); n;) {
    if (!isInlinedWrapper(*n)) {
      n = n->next();
      continue;
    }
    // Inlining erases the wrapper's get_attr when nothing else reads it, and that node usually
    // sits just before it: resume from the first earlier node that is no get_attr.
    Node *before = n->prev();
    while (before && before->op() == OpKind::GetAttr)
      before = before->prev();
    if (Status s = inlineWrapper(graph, n); !s)
      return s.takeError();
    changed = true;
    n = before ? before->next() : graph.front();
  }
  bool any = false;
  for (const Node *n : graph)
    any = any || isCompositeCall(*n);
  if (!any)
    return changed;
  if (needsInference(graph))
    if (Status s = inferShapes(graph); !s)
      return Error("decompose needs the graph's types: " + s.error().message);
  uint32_t position = 0;
  for (Node *n : graph)
    n->scratch() = position++;
  for (Node *n = graph.front(); n;) {
    if (!isCompositeCall(*n)) {
      n = n->next();
      continue;
    }
    Node *before = n->prev();
    uint32_t at = n->scratch();
    auto d = decomposeNode(graph, *n);
    if (!d)
      return d.takeError();
    // The first node after this one that stays: the getitem users of a result taken apart
    // (Items) go with it.
    Node *after = n->next();
    if (d->kind == Decomposition::Kind::Items) {
      std::unordered_set<const Node *> users(n->users().begin(), n->users().end());
      while (after && users.count(after))
        after = after->next();
    }
    // What the decomposition made sits just before the node: it takes the node's position.
    for (Node *m = d->first; m && m != n; m = m->next())
      m->scratch() = at;
    if (Status s = replaceNode(graph, *n, *d); !s)
      return s.takeError();
    changed = true;
    // So does what functionalizing a write made; and all of it may be composite in turn: the
    // walk goes on from the first of it.
    Node *first = before ? before->next() : graph.front();
    for (Node *m = first; m != after; m = m->next())
      m->scratch() = at;
    n = first;
  }
  return changed;
}

} // namespace fxkit
