#include "backends/interp/ExternLoopOp.h"

#include "backends/interp/Interpreter.h"
#include "backends/interp/KernelContext.h"
#include "ir/Node.h"
#include "ir/ops/ArgumentNodes.h"
#include "ir/ops/OpRegistry.h"

#include <functional>

namespace fxkit {

using namespace loop;

namespace {

Expected<std::vector<int64_t>> evalAll(const std::vector<SymExpr> &xs,
                                       const SymExpr::Bindings &bindings) {
  std::vector<int64_t> out;
  for (const SymExpr &e : xs) {
    auto v = e.evaluate(bindings);
    if (!v)
      return v.takeError();
    out.push_back(*v);
  }
  return out;
}

} // namespace

Status runExternLoopOp(const LoopOp &op, std::vector<Tensor> &storage,
                       const SymExpr::Bindings &bindings) {
  registerReferenceKernels();
  const Node &node = *op.externNode;
  const OpInfo *info = OpRegistry::instance().lookup(node.target());
  if (!info || !info->kernel)
    return Error("extern op '" + node.name() + "' has no reference kernel");
  auto args = bindArgs(node, *info);
  if (!args)
    return args.takeError();
  // The node's tensor inputs, in the order lowering listed them, as views of the buffers.
  std::vector<std::pair<const Node *, RuntimeValue>> values;
  size_t next = 0;
  for (const Node *in : argumentNodes(*args)) {
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
    auto t = storage[view.buffer].asStrided(*sizes, *strides, *offset);
    if (!t)
      return t.takeError();
    values.push_back({in, RuntimeValue{t.take()}});
  }
  std::function<const RuntimeValue *(const Node *)> valueOf =
      [&](const Node *n) -> const RuntimeValue * {
    for (const auto &[node, value] : values)
      if (node == n)
        return &value;
    return nullptr;
  };
  KernelContext ctx(*args, bindings, valueOf);
  if (Status s = info->kernel(ctx); !s)
    return s;
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
    if (dst.sizes() != src.sizes())
      return Error("extern op '" + node.name() + "' gave sizes that differ from its buffer");
    dst.copyElementsFrom(src);
  }
  return Status::ok();
}

} // namespace fxkit
