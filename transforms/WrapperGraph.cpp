#include "transforms/WrapperGraph.h"

#include "ir/Node.h"
#include "ir/ops/ShapeRules.h"
#include "ir/wrapper/SizeNodes.h"
#include "ir/wrapper/WrapperDialect.h"
#include "transforms/SizeArgs.h"

#include <cassert>
#include <cctype>
#include <map>
#include <unordered_map>

namespace fxkit {

using namespace loop;

namespace {

struct SymExprHash {
  size_t operator()(const SymExpr &e) const { return e.hash(); }
};

class WrapperBuilder {
public:
  WrapperBuilder(Graph &out, const LoopProgram &p, const FusedProgram &f, const MemoryPlan *plan)
      : p_(p), f_(f), plan_(plan), g_(out) {}
  Status run();

private:
  /// `base`, or `base_N` with N counting up per base (Graph::uniqueName probes from 1 each
  /// time, which is quadratic when thousands of launches share a kernel's name).
  std::string freshName(const std::string &base) {
    // A base used for the first time is not recorded (most are buffer names, used once): a
    // later use finds it taken and probes on from `base_1`, as a recorded counter would.
    auto it = nextSuffix_.find(base);
    if (it == nextSuffix_.end() && !g_.find(base))
      return base;
    size_t &next = it != nextSuffix_.end() ? it->second : nextSuffix_[base];
    std::string name = next == 0 ? base : base + "_" + std::to_string(next);
    while (g_.find(name))
      name = base + "_" + std::to_string(++next);
    ++next;
    return name;
  }
  Node *add(std::string base, std::string_view target, std::vector<Argument> args,
            std::vector<std::pair<std::string, Argument>> kwargs = {}) {
    return g_.create(OpKind::CallFunction, freshName(base), target,
                     Argument::tuple(std::move(args)), Argument::dict(std::move(kwargs)));
  }
  /// A line of the dialect (ir/wrapper/WrapperDialect.h) named after `base`.
  Node *add(std::string base, wrapper::Call call) {
    return add(std::move(base), call.target, std::move(call.args), std::move(call.kwargs));
  }
  /// A size as an argument: a constant, a size placeholder, or operator.* nodes computing it
  /// (each distinct expression computed once).
  Expected<Argument> size(const SymExpr &e);
  /// size() without the per-expression cache.
  Expected<Argument> sizeUncached(const SymExpr &e);
  Expected<Argument> sizeList(const std::vector<SymExpr> &xs) {
    std::vector<Argument> items;
    for (const SymExpr &x : xs) {
      auto a = size(x);
      if (!a)
        return a.takeError();
      items.push_back(a.take());
    }
    return Argument::list(std::move(items));
  }
  Status allocate(int32_t buffer);
  Expected<Argument> viewOf(const BufferView &v);
  Status emitKernel(const Kernel &k, size_t index);
  Status emitExtern(const Kernel &k);

  const LoopProgram &p_;
  const FusedProgram &f_;
  const MemoryPlan *plan_;
  Graph &g_;
  std::map<std::string, Node *, std::less<>> symbols_; ///< size symbol -> placeholder
  std::map<std::string, Argument, std::less<>> sizes_; ///< expression text -> computed
  /// Expression as given -> what size() made of it: every buffer and view asks for the same
  /// few sizes, and simplifying and printing each again was most of size()'s time.
  std::unordered_map<SymExpr, Argument, SymExprHash> byExpr_;
  std::vector<Node *> bufferNodes_;
  Node *pool_ = nullptr;
  std::unordered_map<std::string, size_t> nextSuffix_;
};

Expected<Argument> WrapperBuilder::size(const SymExpr &raw) {
  if (raw.isConstant())
    return Argument::integer(raw.constant());
  if (auto it = byExpr_.find(raw); it != byExpr_.end())
    return it->second;
  auto computed = sizeUncached(raw);
  if (computed)
    byExpr_.emplace(raw, *computed);
  return computed;
}

Expected<Argument> WrapperBuilder::sizeUncached(const SymExpr &raw) {
  wrapper::SizeNodeHooks hooks;
  hooks.symbol = [&](std::string_view symbol) -> Expected<Argument> {
    auto it = symbols_.find(symbol);
    if (it == symbols_.end())
      return Error("wrapper: size symbol '" + std::string(symbol) +
                   "' is not bound by any graph input");
    return Argument::node(it->second);
  };
  hooks.operand = [&](const SymExpr &o, std::string_view) { return size(o); };
  hooks.emit = [&](const SymExpr &, wrapper::Call call, std::string_view name) {
    return add(std::string(name), std::move(call));
  };
  return wrapper::sizeArgument(raw.simplify(), "", sizes_, hooks);
}

Status WrapperBuilder::allocate(int32_t b) {
  const Buffer &buf = p_.buffers[b];
  auto sizes = sizeList(buf.type.sizes);
  if (!sizes)
    return sizes.takeError();
  auto strides = sizeList(buf.type.strides);
  if (!strides)
    return strides.takeError();
  const BufferPlacement *place = plan_ ? &plan_->buffers[b] : nullptr;
  Node *n = nullptr;
  if (place && place->kind == BufferPlacement::Kind::Pool && pool_) {
    n = add(buf.name, wrapper::allocFromPool(Argument::node(pool_), place->offset, buf.type.dtype,
                                             sizes.take(), strides.take()));
  } else if (place && (place->kind == BufferPlacement::Kind::InPlace ||
                       (place->kind == BufferPlacement::Kind::Own && place->reuseOf >= 0))) {
    int32_t from =
        place->kind == BufferPlacement::Kind::InPlace ? place->inPlaceOf : place->reuseOf;
    if (from < 0 || !bufferNodes_[from])
      return Error("wrapper: " + buf.name + " reuses a buffer that was never allocated");
    // as_strided's offset counts from the start of the storage: a donor that lives in the pool
    // (directly or through earlier reuse) starts at its pool offset.
    int32_t root = from;
    for (size_t hops = 0; hops <= p_.buffers.size(); ++hops) {
      const BufferPlacement &r = plan_->buffers[root];
      if (r.kind == BufferPlacement::Kind::InPlace && r.inPlaceOf >= 0)
        root = r.inPlaceOf;
      else if (r.kind == BufferPlacement::Kind::Own && r.reuseOf >= 0)
        root = r.reuseOf;
      else
        break;
    }
    int64_t offset = 0;
    if (plan_->buffers[root].kind == BufferPlacement::Kind::Pool) {
      int64_t item = dtypeItemSize(buf.type.dtype);
      if (plan_->buffers[root].offset % item != 0)
        return Error("wrapper: " + buf.name + " reuses pool storage not aligned to its dtype");
      offset = plan_->buffers[root].offset / item;
    }
    n = add(buf.name,
            wrapper::asStrided(Argument::node(bufferNodes_[from]), sizes.take(), strides.take(),
                               Argument::integer(offset), p_.buffers[from].name));
  } else {
    n = add(buf.name, wrapper::emptyStrided(sizes.take(), strides.take(),
                                            {{"dtype", Argument::dtype(buf.type.dtype)},
                                             {"device", Argument::device(buf.type.device)}}));
  }
  n->value() = NodeValue{buf.type};
  bufferNodes_[b] = n;
  return Status::ok();
}

Expected<Argument> WrapperBuilder::viewOf(const BufferView &v) {
  Node *base = bufferNodes_[v.buffer];
  if (!base)
    return Error("wrapper: " + p_.buffers[v.buffer].name + " is used before it is written");
  const TensorType &t = p_.buffers[v.buffer].type;
  bool whole = symIs(v.offset, 0) && v.sizes.size() == t.sizes.size();
  for (size_t i = 0; whole && i < v.sizes.size(); ++i)
    whole = symEq(v.sizes[i], t.sizes[i]) && symEq(v.strides[i], t.strides[i]);
  if (whole)
    return Argument::node(base);
  auto sizes = sizeList(v.sizes);
  auto strides = sizeList(v.strides);
  auto offset = size(v.offset);
  if (!sizes || !strides || !offset)
    return Error("wrapper: cannot compute a view's sizes");
  Node *n = add("as_strided", wrapper::asStrided(Argument::node(base), sizes.take(), strides.take(),
                                                 offset.take()));
  TensorType vt = t;
  vt.sizes = v.sizes;
  vt.strides = v.strides;
  n->value() = NodeValue{vt};
  return Argument::node(n);
}

Status WrapperBuilder::emitKernel(const Kernel &k, size_t index) {
  std::vector<std::pair<std::string, Argument>> args;
  int in = 0, out = 0;
  for (int32_t b : k.inputs)
    args.push_back({"in_ptr" + std::to_string(in++), Argument::node(bufferNodes_[b])});
  for (int32_t b : k.outputs)
    args.push_back({"out_ptr" + std::to_string(out++), Argument::node(bufferNodes_[b])});
  for (const std::string &s : k.symbolArgs) {
    auto a = size(SymExpr::symbol(s));
    if (!a)
      return a.takeError();
    args.push_back({s, a.take()});
  }
  for (const SizeArg &sa : k.sizeArgs) {
    auto a = size(sa.definition);
    if (!a)
      return a.takeError();
    args.push_back({sa.name, a.take()});
  }
  auto xnumel = size(symProduct(k.ranges));
  if (!xnumel)
    return xnumel.takeError();
  args.push_back({"xnumel", xnumel.take()});
  if (!k.reductionRanges.empty()) {
    auto rnumel = size(symProduct(k.reductionRanges));
    if (!rnumel)
      return rnumel.takeError();
    args.push_back({"rnumel", rnumel.take()});
  }
  // A list, not one string: FX text prints strings bare, so commas would not re-parse.
  std::vector<Argument> origins;
  for (int32_t o : k.ops)
    for (const std::string &name : p_.ops[o].origins)
      origins.push_back(Argument::string(name));
  add(k.name, wrapper::kernelCall({{"name", Argument::string(k.name)},
                                   {"launch", Argument::integer(static_cast<int64_t>(index))},
                                   {"args", Argument::dict(std::move(args))},
                                   {"origins", Argument::list(std::move(origins))}}));
  return Status::ok();
}

Status WrapperBuilder::emitExtern(const Kernel &k) {
  const LoopOp &op = p_.ops[k.ops.front()];
  std::vector<Argument> inputs;
  for (const BufferView &v : op.externInputs) {
    auto a = viewOf(v);
    if (!a)
      return a.takeError();
    inputs.push_back(a.take());
  }
  // An output sized by a symbol the call binds has no buffer before it: the call returns it
  // (out None), as Inductor's wrapper takes `buf3 = aten.nonzero(buf2)`.
  std::vector<Argument> outs;
  for (size_t i = 0; i < op.externOutputs.size(); ++i) {
    int32_t b = op.externOutputs[i];
    outs.push_back(b < 0 || op.definesSizeOf(i) ? Argument::none()
                                                : Argument::node(bufferNodes_[b]));
  }
  Node *call =
      add(k.name, wrapper::externCall(
                      {{"op", Argument::string(op.externNode ? op.externNode->target() : k.name)},
                       {"inputs", Argument::tuple(std::move(inputs))},
                       {"out", Argument::list(std::move(outs))},
                       {"origins", Argument::list({Argument::string(op.origins.front())})}}));
  if (op.defines.empty())
    return Status::ok();
  // Its results, then the unbacked symbols (Inductor's codegen_unbacked_symbol_defs) and the
  // checks they decide.
  const bool single = op.externOutputs.size() == 1;
  for (size_t i = 0; i < op.externOutputs.size(); ++i) {
    int32_t b = op.externOutputs[i];
    if (b < 0 || !op.definesSizeOf(i))
      continue;
    Node *result = single ? call
                          : add(p_.buffers[b].name,
                                wrapper::getItem(Argument::node(call), static_cast<int64_t>(i)));
    result->value() = NodeValue{p_.buffers[b].type};
    bufferNodes_[b] = result;
  }
  for (const SymbolDef &d : op.defines) {
    if (d.output < 0) {
      call->value() = NodeValue{SymExpr::symbol(d.symbol)};
      symbols_.emplace(d.symbol, call);
      continue;
    }
    Node *n =
        add(d.symbol,
            wrapper::symSize(Argument::node(bufferNodes_[op.externOutputs[d.output]]), d.dim));
    n->value() = NodeValue{SymExpr::symbol(d.symbol)};
    symbols_.emplace(d.symbol, n);
  }
  for (const RuntimeCheck &c : op.checks)
    add("assert_scalar",
        wrapper::assertScalar(Argument::sym(c.condition), c.message + " (node " + c.node + ")"));
  return Status::ok();
}

Status WrapperBuilder::run() {
  bufferNodes_.assign(p_.buffers.size(), nullptr);
  // About a node per buffer and two per launch (the call, a view or a free): the name index
  // sized once instead of rehashing as the graph grows.
  g_.reserve(p_.inputs.size() + p_.buffers.size() + 2 * f_.kernels.size() + 16);
  // Inputs, in the order the graph took them.
  for (size_t i = 0; i < p_.inputs.size(); ++i) {
    int32_t b = p_.inputs[i];
    if (b < 0) {
      const std::string &sym = p_.inputSymbols[i];
      std::string name = wrapper::isIdentifier(sym) ? sym : "sym" + std::to_string(i);
      std::string unique = freshName(name);
      Node *n = g_.create(OpKind::Placeholder, unique, unique);
      auto e = SymExpr::parse(sym);
      if (e) {
        n->value() = NodeValue{*e};
        if (!e->isConstant() && e->kind() == SymExpr::Kind::Symbol)
          symbols_.emplace(std::string(e->name()), n);
      }
      continue;
    }
    const std::string &name = p_.buffers[b].name;
    Node *n = g_.create(OpKind::Placeholder, name, name);
    n->value() = NodeValue{p_.buffers[b].type};
    bufferNodes_[b] = n;
  }
  // Sizes of tensor inputs bind symbols too (s77 of an input's first dimension) when no
  // integer input does: they become sym_size nodes.
  for (size_t i = 0; i < p_.inputs.size(); ++i) {
    int32_t b = p_.inputs[i];
    if (b < 0)
      continue;
    const TensorType &t = p_.buffers[b].type;
    for (size_t d = 0; d < t.sizes.size(); ++d) {
      const SymExpr &s = t.sizes[d];
      if (s.isConstant() || s.kind() != SymExpr::Kind::Symbol || symbols_.count(s.name()))
        continue;
      Node *n = add(std::string(s.name()),
                    wrapper::symSize(Argument::node(bufferNodes_[b]), static_cast<int64_t>(d)));
      n->value() = NodeValue{s};
      symbols_.emplace(std::string(s.name()), n);
    }
  }
  if (plan_ && !plan_->symbolic && plan_->poolBytes > 0) {
    pool_ = add("pool", wrapper::emptyStrided(Argument::list({Argument::integer(plan_->poolBytes)}),
                                              Argument::list({Argument::integer(1)}),
                                              {{"dtype", Argument::dtype(DType::UInt8)}}));
  }
  for (size_t ki = 0; ki < f_.kernels.size(); ++ki) {
    const Kernel &k = f_.kernels[ki];
    // Allocate what this kernel writes first (in-place outputs after their donors exist); an
    // extern output sized by a symbol the call binds comes from the call (emitExtern).
    for (int32_t b : k.outputs) {
      bool fromCall = false;
      if (k.isExtern) {
        const LoopOp &op = p_.ops[k.ops.front()];
        for (size_t i = 0; i < op.externOutputs.size(); ++i)
          fromCall = fromCall || (op.externOutputs[i] == b && op.definesSizeOf(i));
      }
      if (!bufferNodes_[b] && !fromCall)
        if (Status s = allocate(b); !s)
          return s.takeError();
    }
    Status s = k.isExtern ? emitExtern(k) : emitKernel(k, ki);
    if (!s)
      return s.takeError();
    if (plan_ && ki < plan_->freedAfter.size())
      for (int32_t b : plan_->freedAfter[ki])
        if (bufferNodes_[b])
          add("free", wrapper::freeBuffer(Argument::node(bufferNodes_[b])));
  }
  std::vector<Argument> outs;
  for (const LoopProgram::Output &o : p_.outputs) {
    if (o.isNone) {
      outs.push_back(Argument::none());
      continue;
    }
    if (o.view.buffer < 0) {
      auto a = size(o.symbol);
      if (!a)
        return a.takeError();
      outs.push_back(a.take());
      continue;
    }
    auto a = viewOf(o.view);
    if (!a)
      return a.takeError();
    outs.push_back(a.take());
  }
  g_.create(OpKind::Output, freshName("output"), "output",
            Argument::tuple({Argument::tuple(std::move(outs))}));
  return Status::ok();
}

} // namespace

Status buildWrapperGraphInto(Graph &out, const LoopProgram &program, const FusedProgram &fused,
                             const MemoryPlan *plan) {
  assert(out.empty() && "the wrapper graph is built into an empty graph");
  if (Status s = WrapperBuilder(out, program, fused, plan).run(); !s) {
    out = Graph();
    return s;
  }
  return Status::ok();
}

Expected<Graph> buildWrapperGraph(const LoopProgram &program, const FusedProgram &fused,
                                  const MemoryPlan *plan) {
  Graph out;
  if (Status s = buildWrapperGraphInto(out, program, fused, plan); !s)
    return s.takeError();
  return out;
}

Expected<bool> substituteSizeArgs(Graph &wrapper) {
  // Definitions in program order: each size node's expression from its inputs'.
  std::map<const Node *, SymExpr> known;
  for (Node *n : wrapper)
    if (auto e = wrapper::sizeExprOf(*n, known))
      known[n] = *e;
  bool changed = false;
  for (Node *n : wrapper) {
    if (n->target() != wrapper::kKernel)
      continue;
    Argument kwargs = n->kwargs();
    bool touched = false;
    for (Argument &item : kwargs.items()) {
      if (item.kind() != Argument::Kind::Dict)
        continue;
      // args: {name: value, ...}: values at odd positions.
      for (size_t i = 1; i < item.items().size(); i += 2) {
        Argument &v = item.items()[i];
        if (!v.isNode())
          continue;
        auto it = known.find(v.asNode());
        if (it == known.end() || v.asNode()->op() == OpKind::Placeholder)
          continue;
        v = it->second.isConstant() ? Argument::integer(it->second.constant())
                                    : Argument::sym(it->second);
        touched = true;
      }
    }
    if (touched) {
      n->setKwargs(std::move(kwargs));
      changed = true;
    }
  }
  // Size arithmetic nobody reads any more goes (users before their inputs: walk backwards).
  for (Node *n = wrapper.back(); n;) {
    Node *prev = n->prev();
    if (n->op() == OpKind::CallFunction && known.count(n) && n->users().empty() &&
        n->target() != wrapper::kSymSize) {
      wrapper.erase(n);
      changed = true;
    }
    n = prev;
  }
  return changed;
}

} // namespace fxkit
