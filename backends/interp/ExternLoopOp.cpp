#include "backends/interp/ExternLoopOp.h"

#include "backends/interp/Interpreter.h"
#include "backends/interp/KernelContext.h"
#include "ir/Node.h"
#include "ir/Try.h"
#include "ir/ops/ArgumentNodes.h"
#include "ir/ops/OpRegistry.h"

#include <algorithm>
#include <functional>

namespace fxkit {

using namespace loop;

namespace {

Expected<std::vector<int64_t>> evalAll(const std::vector<SymExpr> &xs,
                                       const SymExpr::Bindings &bindings) {
  std::vector<int64_t> out;
  for (const SymExpr &e : xs) {
    FXKIT_ASSIGN_OR_RETURN(auto v, e.evaluate(bindings));
    out.push_back(v);
  }
  return out;
}

} // namespace

Status bindSymbolDefs(const LoopOp &op, const RuntimeValue &result, SymExpr::Bindings &bindings) {
  const Node &node = *op.externNode;
  for (const SymbolDef &d : op.defines) {
    int64_t value = 0;
    if (d.output < 0) {
      if (const int64_t *i = result.integer())
        value = *i;
      else if (const bool *b = std::get_if<bool>(&result.v))
        value = *b ? 1 : 0;
      else
        return Error("extern op '" + node.name() + "' gave no integer to bind " + d.symbol);
    } else {
      const Tensor *t = nullptr;
      if (d.output == 0 && result.tensor())
        t = result.tensor();
      else if (const auto *ts = result.tensors();
               ts && static_cast<size_t>(d.output) < ts->size() && (*ts)[d.output])
        t = &*(*ts)[d.output];
      if (!t || d.dim >= t->dim())
        return Error("extern op '" + node.name() + "' gave no result whose size binds " + d.symbol);
      value = t->size(d.dim);
    }
    auto [at, inserted] = bindings.emplace(d.symbol, value);
    if (!inserted && at->second != value)
      return Error("extern op '" + node.name() + "' binds " + d.symbol + " = " +
                   std::to_string(value) + ", but it is already " + std::to_string(at->second));
  }
  return runRuntimeChecks(op, bindings);
}

Status runRuntimeChecks(const LoopOp &op, const SymExpr::Bindings &bindings) {
  for (const RuntimeCheck &c : op.checks) {
    auto v = c.condition.evaluateNumber(bindings);
    if (!v)
      return Error("node '" + c.node + "': " + v.error().message);
    if (v->truthy())
      continue;
    std::string values;
    for (const std::string &s : c.condition.symbols())
      if (auto found = bindings.find(s); found != bindings.end())
        values += (values.empty() ? "" : ", ") + s + " = " + std::to_string(found->second);
    return Error("node '" + c.node + "': " + c.message + " (" + values + ")");
  }
  return Status::ok();
}

std::vector<int32_t> mutatedBuffers(const LoopOp &op) {
  std::vector<int32_t> out;
  if (!op.externNode)
    return out;
  const Node &node = *op.externNode;
  const OpInfo *info = OpRegistry::instance().lookup(node.target());
  if (!info)
    return out;
  auto args = bindArgs(node, *info);
  if (!args)
    return out;
  // As runExternLoopOp walks them (argumentNodes' order): each tensor node takes the next
  // extern input; symbolic values take none.
  size_t next = 0;
  auto take = [&](const Argument &a, bool mutated) {
    if (!a.isNode() || a.asNode()->value().sym())
      return;
    if (next >= op.externInputs.size())
      return;
    int32_t b = op.externInputs[next++].buffer;
    if (mutated && std::find(out.begin(), out.end(), b) == out.end())
      out.push_back(b);
  };
  for (size_t i = 0; i < args->size(); ++i) {
    bool mutated = i < info->schema.args.size() && info->schema.args[i].mutated;
    const Argument &a = args->at(i);
    if (a.kind() == Argument::Kind::List || a.kind() == Argument::Kind::Tuple)
      for (const Argument &item : a.items())
        take(item, mutated);
    else
      take(a, mutated);
  }
  return out;
}

Status runExternLoopOp(const LoopOp &op, std::vector<Tensor> &storage,
                       SymExpr::Bindings &bindings) {
  registerReferenceKernels();
  const Node &node = *op.externNode;
  const OpInfo *info = OpRegistry::instance().lookup(node.target());
  if (!info || !info->kernel)
    return Error("extern op '" + node.name() + "' has no reference kernel");
  FXKIT_ASSIGN_OR_RETURN(auto args, bindArgs(node, *info));
  // The node's tensor inputs, in the order lowering listed them, as views of the buffers.
  std::vector<std::pair<const Node *, RuntimeValue>> values;
  size_t next = 0;
  for (const Node *in : argumentNodes(args)) {
    if (const SymExpr *s = in->value().sym()) {
      // A SymInt, SymFloat or SymBool computed on the host from the bound sizes.
      auto v = s->evaluateNumber(bindings);
      if (!v)
        return Error("extern op '" + node.name() + "': " + v.error().message);
      RuntimeValue rv;
      switch (v->type) {
      case SymExpr::Type::Int:
        rv.v = v->i;
        break;
      case SymExpr::Type::Float:
        rv.v = v->f;
        break;
      case SymExpr::Type::Bool:
        rv.v = v->i != 0;
        break;
      }
      values.push_back({in, std::move(rv)});
      continue;
    }
    if (next >= op.externInputs.size())
      return Error("extern op '" + node.name() + "': more tensor inputs than lowered");
    const BufferView &view = op.externInputs[next++];
    auto sizes = evalAll(view.sizes, bindings);
    auto strides = evalAll(view.strides, bindings);
    auto offset = view.offset.evaluate(bindings);
    if (!sizes || !strides || !offset)
      return Error("extern op '" + node.name() + "': cannot evaluate an input view");
    FXKIT_ASSIGN_OR_RETURN(auto t, storage[view.buffer].asStrided(*sizes, *strides, *offset));
    values.push_back({in, RuntimeValue{std::move(t)}});
  }
  std::function<const RuntimeValue *(const Node *)> valueOf =
      [&](const Node *n) -> const RuntimeValue * {
    for (const auto &[node, value] : values)
      if (node == n)
        return &value;
    return nullptr;
  };
  KernelContext ctx(args, bindings, valueOf);
  FXKIT_TRY(info->kernel(ctx));
  FXKIT_TRY(bindSymbolDefs(op, ctx.result, bindings));
  std::vector<const Tensor *> results;
  if (const Tensor *t = ctx.result.tensor())
    results.push_back(t);
  else if (const auto *ts = ctx.result.tensors())
    for (const auto &t : *ts)
      results.push_back(t ? &*t : nullptr);
  for (size_t i = 0; i < op.externOutputs.size() && i < results.size(); ++i) {
    if (op.externOutputs[i] < 0 || !results[i])
      continue;
    Tensor &dst = storage[op.externOutputs[i]];
    const Tensor &src = *results[i];
    if (op.definesSizeOf(i)) {
      // Sized by a symbol this op has just bound: allocated now, in the node's layout.
      const TensorType *type = nullptr;
      if (const TensorType *t = node.value().tensor())
        type = t;
      else if (const auto *ts = node.value().tensors(); ts && i < ts->size() && (*ts)[i])
        type = &*(*ts)[i];
      if (!type)
        return Error("extern op '" + node.name() + "': result " + std::to_string(i) +
                     " has no type");
      FXKIT_ASSIGN_OR_RETURN(auto t, allocateTensor(*type, bindings));
      dst = std::move(t);
    }
    if (dst.sizes() != src.sizes())
      return Error("extern op '" + node.name() + "' gave sizes that differ from its buffer");
    dst.copyElementsFrom(src);
  }
  return Status::ok();
}

} // namespace fxkit
